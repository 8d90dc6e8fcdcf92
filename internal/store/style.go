package store

import (
	"fmt"
	"strings"
)

// Style is how a saved code looks: the styling and frame columns that
// qr_codes and dynamic_qr_codes share.
type Style struct {
	FgColor, BgColor, GradientColor         string
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
		&st.FgColor, &st.BgColor, &st.GradientColor, &st.QRStyle,
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
		st.FgColor, st.BgColor, nullIfEmpty(st.GradientColor), st.QRStyle, st.DotShape, st.CornerShape, st.InnerCornerShape,
		nullIfEmpty(st.OuterCornerColor), nullIfEmpty(st.InnerCornerColor), st.ErrorCorrectionLevel,
		nullIfEmpty(st.LogoFilePath), nullIfEmpty(st.LogoFileName), st.LogoSize,
		st.EnableFrame, st.FrameText, st.FrameColor, st.FrameTextColor, st.FrameStyle,
	}
}

// insertReturningID is INSERT INTO table (cols) VALUES ($1, …) RETURNING id.
func insertReturningID(table string, cols []string) string {
	marks := make([]string, len(cols))
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	return `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` + strings.Join(marks, ", ") + `) RETURNING id`
}
