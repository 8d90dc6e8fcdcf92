package store

import (
	"fmt"
	"strconv"
	"strings"
)

// Style is how a saved code looks: the styling and frame columns that
// qr_codes and dynamic_qr_codes share.
type Style struct {
	FgColor, BgColor, GradientColor         string
	Gradient                                GradientSpec // with GradientColor; kept in its column (see gradientColumn)
	QRStyle                                 string
	DotShape, CornerShape, InnerCornerShape string
	OuterCornerColor, InnerCornerColor      string
	ErrorCorrectionLevel                    string
	LogoFilePath, LogoFileName              string
	LogoSize                                string
	EnableFrame                             bool
	FrameText, FrameColor, FrameTextColor   string
	FrameStyle                              string
}

// styleSelect reads a Style in the order of Style.scanDest; the queries
// that use it join no other table, so the columns go unqualified.
const styleSelect = `
	fg_color, bg_color, COALESCE(gradient_color, ''), qr_style,
	dot_shape, corner_shape, inner_corner_shape,
	COALESCE(outer_corner_color, ''), COALESCE(inner_corner_color, ''),
	error_correction_level, COALESCE(logo_file_path, ''), COALESCE(logo_file_name, ''),
	logo_size, enable_frame, frame_text, frame_color, frame_text_color, frame_style`

func (st *Style) scanDest() []any {
	return []any{
		&st.FgColor, &st.BgColor, gradientColumn{st}, &st.QRStyle,
		&st.DotShape, &st.CornerShape, &st.InnerCornerShape,
		&st.OuterCornerColor, &st.InnerCornerColor,
		&st.ErrorCorrectionLevel, &st.LogoFilePath, &st.LogoFileName,
		&st.LogoSize, &st.EnableFrame, &st.FrameText, &st.FrameColor, &st.FrameTextColor, &st.FrameStyle,
	}
}

// styleInsert are the columns Style.insertArgs writes, in its order.
var styleInsert = []string{
	"fg_color", "bg_color", "gradient_color", "qr_style", "dot_shape", "corner_shape", "inner_corner_shape",
	"outer_corner_color", "inner_corner_color", "error_correction_level",
	"logo_file_path", "logo_file_name", "logo_size",
	"enable_frame", "frame_text", "frame_color", "frame_text_color", "frame_style",
}

func (st *Style) insertArgs() []any {
	return []any{
		st.FgColor, st.BgColor, nullIfEmpty(gradientColumn{st}.value()), st.QRStyle, st.DotShape, st.CornerShape, st.InnerCornerShape,
		nullIfEmpty(st.OuterCornerColor), nullIfEmpty(st.InnerCornerColor), st.ErrorCorrectionLevel,
		nullIfEmpty(st.LogoFilePath), nullIfEmpty(st.LogoFileName), st.LogoSize,
		st.EnableFrame, st.FrameText, st.FrameColor, st.FrameTextColor, st.FrameStyle,
	}
}

// GradientSpec is how a gradient runs (render.Style's GradientType,
// GradientAngle and GradientOnEyes).
type GradientSpec struct {
	Type   string // linear or radial
	Angle  int    // degrees, for linear
	OnEyes bool
}

// gradientColumn keeps a style's gradient in the gradient_color column,
// as "#RRGGBB type angle" with " eyes" when it applies to the eyes: the
// settings came after the column and only mean something with a colour.
// A colour alone is a code saved before them, whose gradient was linear,
// corner to corner, and on the eyes; it reads back that way, so it looks
// as it did.
type gradientColumn struct{ st *Style }

func (g gradientColumn) value() string {
	st := g.st
	if st.GradientColor == "" {
		return ""
	}
	if st.Gradient == (GradientSpec{}) { // not said: the look of the codes saved before
		return st.GradientColor
	}
	v := st.GradientColor + " " + st.Gradient.Type + " " + strconv.Itoa(st.Gradient.Angle)
	if st.Gradient.OnEyes {
		v += " eyes"
	}
	return v
}

// Scan implements sql.Scanner for the column, read with NULL as empty.
func (g gradientColumn) Scan(src any) error {
	var v string
	switch x := src.(type) {
	case string:
		v = x
	case []byte:
		v = string(x)
	case nil:
	default:
		return fmt.Errorf("gradient_color: unexpected %T", src)
	}
	f := strings.Fields(v)
	g.st.GradientColor, g.st.Gradient = "", GradientSpec{}
	switch {
	case len(f) == 0: // no gradient: the defaults, as codes.Style.Normalize leaves them
		g.st.Gradient = GradientSpec{Type: "linear", Angle: 135}
	case len(f) == 1:
		g.st.GradientColor, g.st.Gradient = f[0], GradientSpec{Type: "linear", Angle: 135, OnEyes: true}
	default:
		g.st.GradientColor, g.st.Gradient.Type = f[0], f[1]
		if len(f) > 2 {
			a, err := strconv.Atoi(f[2])
			if err != nil {
				return fmt.Errorf("gradient_color: bad angle in %q", v)
			}
			g.st.Gradient.Angle = a
		}
		g.st.Gradient.OnEyes = len(f) > 3 && f[3] == "eyes"
	}
	return nil
}

// insertReturningID is INSERT INTO table (cols) VALUES ($1, …) RETURNING id.
func insertReturningID(table string, cols []string) string {
	marks := make([]string, len(cols))
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	return `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` + strings.Join(marks, ", ") + `) RETURNING id`
}
