// Package codes is the glue between the generator's form and the renderer:
// the flat style fields the API carries (docs/API.md "Style fields"), their
// checks and defaults, and one call that encodes, lays out and writes a
// code. The generator, saved codes and dynamic codes all render through it,
// so a preview, a download and a saved code cannot disagree. Creating or
// changing a code goes through it too (prepare.go): every creator (the
// app's routes, the public API, bulk rows) calls Prepare.
package codes

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/pdffont"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
)

// Style is the style fields of a request, under their API names. Empty
// fields take the defaults of docs/API.md; Normalize fills them in.
type Style struct {
	FgColor       string `json:"fgColor"`
	BgColor       string `json:"bgColor"`
	GradientColor string `json:"gradientColor"`
	GradientType  string `json:"gradientType"`
	// GradientAngle is nil when not sent; Normalize sets the default.
	GradientAngle    *int   `json:"gradientAngle"`
	GradientOnEyes   bool   `json:"gradientOnEyes"`
	DotShape         string `json:"dotShape"`
	CornerShape      string `json:"cornerShape"`
	InnerCornerShape string `json:"innerCornerShape"`
	OuterCornerColor string `json:"outerCornerColor"`
	InnerCornerColor string `json:"innerCornerColor"`
	LogoSize         string `json:"logoSize"`
	EnableFrame      bool   `json:"enableFrame"`
	FrameText        string `json:"frameText"`
	FrameColor       string `json:"frameColor"`
	FrameTextColor   string `json:"frameTextColor"`
	FrameStyle       string `json:"frameStyle"`
}

// FormStyle reads the style fields from a form (multipart or URL-encoded),
// where enableFrame is "true" or "false" ("on" and "1" count as true, as
// checkboxes send them). A bad enableFrame is a *render.StyleError.
func FormStyle(get func(string) string) (Style, error) {
	s := Style{
		FgColor:          get("fgColor"),
		BgColor:          get("bgColor"),
		GradientColor:    get("gradientColor"),
		DotShape:         get("dotShape"),
		CornerShape:      get("cornerShape"),
		InnerCornerShape: get("innerCornerShape"),
		OuterCornerColor: get("outerCornerColor"),
		InnerCornerColor: get("innerCornerColor"),
		LogoSize:         get("logoSize"),
		FrameText:        get("frameText"),
		FrameColor:       get("frameColor"),
		FrameTextColor:   get("frameTextColor"),
		FrameStyle:       get("frameStyle"),
	}
	s.GradientType = get("gradientType")
	var err error
	s.EnableFrame, err = FormBool(get("enableFrame"))
	if err != nil {
		return s, &render.StyleError{Field: "enableFrame", Message: "enableFrame must be true or false"}
	}
	if s.GradientOnEyes, err = FormBool(get("gradientOnEyes")); err != nil {
		return s, &render.StyleError{Field: "gradientOnEyes", Message: "gradientOnEyes must be true or false"}
	}
	if v := strings.TrimSpace(get("gradientAngle")); v != "" {
		a, err := strconv.Atoi(v)
		if err != nil {
			return s, &render.StyleError{Field: "gradientAngle", Message: render.GradientAngleMessage}
		}
		s.GradientAngle = &a
	}
	return s, nil
}

// FormBool reads a boolean form value: "" is false.
func FormBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "0", "off":
		return false, nil
	case "true", "1", "on":
		return true, nil
	}
	return false, strconv.ErrSyntax
}

// Allowed values, the default first.
var (
	dotShapes   = render.DotShapes
	eyeShapes   = render.EyeShapes
	logoSizes   = []string{render.LogoMedium, render.LogoSmall, render.LogoLarge}
	frameStyles = []string{render.FrameRounded, render.FrameSquare}
)

// maxFrameText matches the renderer's limit on frame text, in characters.
const maxFrameText = 40

// Normalize checks every field, used or not (a saved code must not hold
// values the renderer would refuse later), and returns the style with
// defaults filled in and colours as upper-case #RRGGBB, the way codes are
// stored and shown. Problems are *render.StyleError, named by field.
func (s Style) Normalize() (Style, error) {
	var err error
	color := func(field string, v *string, def string) {
		if err != nil {
			return
		}
		*v = strings.TrimSpace(*v)
		if *v == "" {
			*v = def
		}
		if *v == "" {
			return
		}
		c, perr := render.ParseColor(*v)
		if perr != nil {
			err = &render.StyleError{Field: field, Message: "Please enter a colour like #1A2B3C"}
			return
		}
		*v = fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
	}
	choice := func(field string, v *string, allowed []string) {
		if err != nil {
			return
		}
		*v = strings.TrimSpace(*v)
		if *v == "" {
			*v = allowed[0]
		}
		if !slices.Contains(allowed, *v) {
			err = &render.StyleError{Field: field, Message: fmt.Sprintf("%s must be one of %s", field, strings.Join(allowed, ", "))}
		}
	}
	color("fgColor", &s.FgColor, render.DefaultForeground)
	color("bgColor", &s.BgColor, render.DefaultBackground)
	color("gradientColor", &s.GradientColor, "")
	color("outerCornerColor", &s.OuterCornerColor, "")
	color("innerCornerColor", &s.InnerCornerColor, "")
	color("frameColor", &s.FrameColor, render.DefaultFrameColor)
	color("frameTextColor", &s.FrameTextColor, render.DefaultFrameTextColor)
	choice("dotShape", &s.DotShape, dotShapes)
	choice("cornerShape", &s.CornerShape, eyeShapes)
	choice("innerCornerShape", &s.InnerCornerShape, eyeShapes)
	choice("logoSize", &s.LogoSize, logoSizes)
	choice("frameStyle", &s.FrameStyle, frameStyles)
	choice("gradientType", &s.GradientType, render.GradientTypes)
	if err != nil {
		return s, err
	}
	if a := s.GradientAngle; a != nil && (*a < 0 || *a > 359) {
		return s, &render.StyleError{Field: "gradientAngle", Message: render.GradientAngleMessage}
	}
	// How a gradient runs means nothing without one: stored and shown as
	// the defaults.
	if s.GradientAngle == nil || s.GradientColor == "" {
		a := render.DefaultGradientAngle
		s.GradientAngle = &a
	}
	if s.GradientColor == "" {
		s.GradientType, s.GradientOnEyes = render.GradientLinear, false
	}
	s.FrameText = strings.TrimSpace(s.FrameText)
	if s.FrameText == "" {
		s.FrameText = render.DefaultFrameText
	}
	if n := len([]rune(s.FrameText)); n > maxFrameText {
		return s, &render.StyleError{Field: "frameText", Message: fmt.Sprintf("Frame text must be at most %d characters", maxFrameText)}
	}
	// No font of ours draws emoji: the files would leave them out, so they are refused, not dropped silently.
	if missing := pdffont.Missing(s.FrameText); len(missing) > 0 {
		return s, &render.StyleError{Field: "frameText", Message: fmt.Sprintf("Frame text cannot include %s: emoji and such symbols cannot be printed. Please remove them.", string(missing))}
	}
	return s, nil
}

// Render maps the fields onto the renderer's style, with an optional logo
// image and the pixel size of the code part (0 = the renderer's 960).
func (s Style) Render(logo []byte, pixels int) render.Style {
	return render.Style{
		Foreground:     s.FgColor,
		Background:     s.BgColor,
		Gradient:       s.GradientColor,
		GradientType:   s.GradientType,
		GradientAngle:  s.GradientAngle,
		GradientOnEyes: s.GradientOnEyes,
		Dots:           s.DotShape,
		Eyes:           s.CornerShape,
		EyeCenters:     s.InnerCornerShape,
		EyeColor:       s.OuterCornerColor,
		EyeCenterColor: s.InnerCornerColor,
		Logo:           logo,
		LogoSize:       s.LogoSize,
		Frame: render.Frame{
			Enabled:   s.EnableFrame,
			Text:      s.FrameText,
			Color:     s.FrameColor,
			TextColor: s.FrameTextColor,
			Style:     s.FrameStyle,
		},
		Pixels: pixels,
	}
}

// Format is an image format the product writes.
type Format string

const (
	PNG Format = "png"
	SVG Format = "svg"
	PDF Format = "pdf"
	EPS Format = "eps"
)

// ParseFormat reads "png", "svg", "pdf" or "eps" (any case).
func ParseFormat(s string) (Format, bool) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	return f, f == PNG || f == SVG || f == PDF || f == EPS
}

// FormatMessage is the answer to a format ParseFormat refuses.
const FormatMessage = "format must be png, svg, pdf or eps"

// ContentType is the media type of files in format f.
func (f Format) ContentType() string {
	switch f {
	case SVG:
		return "image/svg+xml"
	case PDF:
		return "application/pdf"
	case EPS:
		return "application/postscript"
	}
	return "image/png"
}

// Options says how to write a code.
type Options struct {
	Format Format   // default PNG
	Level  qr.Level // requested error correction; a logo raises it to H
	Pixels int      // size of the code part in pixels for PNG and SVG; 0 = 960
	Logo   []byte   // PNG, JPEG, GIF or WebP, or nil
	// Transparent leaves the background out (render.Style.Transparent).
	Transparent bool
	Print       Print // physical size and colour space; zero for screen use
}

// Print is how a code is written for print (docs/API.md "Print output").
type Print struct {
	// SizeMm is the width of the code with its quiet zone (a frame adds
	// its share) in millimetres, 10-2000; 0 leaves the size to Pixels (PNG)
	// or the renderer's 72 mm (PDF, EPS). Not for SVG, which is unitless
	// here.
	SizeMm float64
	DPI    int  // PNG density with SizeMm, 72-1200; 0 = DefaultDPI
	CMYK   bool // PDF and EPS in DeviceCMYK (colorSpace=cmyk)
}

// Print limits and the default density.
const (
	MinSizeMm  = 10
	MaxSizeMm  = 2000
	MinDPI     = 72
	MaxDPI     = 1200
	DefaultDPI = 300
)

// FormPrint reads sizeMm, dpi and colorSpace from a query or form and
// checks them for format f. Problems are *render.StyleError.
func FormPrint(get func(string) string, f Format) (Print, error) {
	var p Print
	var ok bool
	if v := strings.TrimSpace(get("sizeMm")); v != "" {
		var err error
		if p.SizeMm, err = strconv.ParseFloat(v, 64); err != nil {
			return p, &render.StyleError{Field: "sizeMm", Message: "sizeMm must be a number of millimetres"}
		}
	}
	if v := strings.TrimSpace(get("dpi")); v != "" {
		var err error
		if p.DPI, err = strconv.Atoi(v); err != nil {
			return p, &render.StyleError{Field: "dpi", Message: "dpi must be a whole number"}
		}
	}
	if p.CMYK, ok = ParseColorSpace(get("colorSpace")); !ok {
		return p, &render.StyleError{Field: "colorSpace", Message: ColorSpaceMessage}
	}
	return p, p.Check(f)
}

// ColorSpaceMessage is the answer to a colorSpace ParseColorSpace refuses.
const ColorSpaceMessage = "colorSpace must be rgb or cmyk"

// ParseColorSpace reads colorSpace: "" or "rgb" is false, "cmyk" true.
func ParseColorSpace(v string) (cmyk, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "rgb":
		return false, true
	case "cmyk":
		return true, true
	}
	return false, false
}

// Check refuses print options that do not fit format f, with a
// *render.StyleError naming the field (sizeMm, dpi or colorSpace).
func (p Print) Check(f Format) error {
	bad := func(field, msg string) error { return &render.StyleError{Field: field, Message: msg} }
	if p.SizeMm != 0 {
		if f == SVG {
			return bad("sizeMm", "sizeMm applies to PNG, PDF and EPS files")
		}
		if !(p.SizeMm >= MinSizeMm && p.SizeMm <= MaxSizeMm) {
			return bad("sizeMm", fmt.Sprintf("sizeMm must be between %d and %d", MinSizeMm, MaxSizeMm))
		}
	}
	if p.DPI != 0 {
		if f != PNG || p.SizeMm == 0 {
			return bad("dpi", "dpi applies to PNG files with a sizeMm")
		}
		if p.DPI < MinDPI || p.DPI > MaxDPI {
			return bad("dpi", fmt.Sprintf("dpi must be between %d and %d", MinDPI, MaxDPI))
		}
	}
	if p.CMYK && f != PDF && f != EPS {
		return bad("colorSpace", "colorSpace cmyk applies to PDF and EPS files")
	}
	if f == PNG && p.SizeMm != 0 {
		if px := p.Pixels(); px > MaxPrintPixels {
			return bad("sizeMm", fmt.Sprintf("At %d dpi a PNG can be at most %d mm wide (%d pixels); choose a lower dpi, or PDF or EPS, which have no pixel limit",
				p.dpi(), int(MaxPrintPixels*25.4/float64(p.dpi())), MaxPrintPixels))
		}
	}
	return nil
}

// MaxPrintPixels bounds a print PNG's code part, as the renderer does
// every PNG (its memory).
const MaxPrintPixels = 4096

func (p Print) dpi() int {
	if p.DPI == 0 {
		return DefaultDPI
	}
	return p.DPI
}

// Pixels is the PNG width of the code part for SizeMm at the density:
// round(sizeMm / 25.4 × dpi).
func (p Print) Pixels() int { return int(math.Round(p.SizeMm / 25.4 * float64(p.dpi()))) }

// PreviewPixels is the generator's medium preview size; downloads are
// DownloadScale times larger (spec 01 §9: scale factor 3).
const (
	PreviewPixels = 320
	DownloadScale = 3
)

// Write encodes data, lays it out with s (see Normalize) and writes the
// image to w. Nothing is written when the code is refused. Errors the user
// can fix are recognised by Refusal.
func Write(w io.Writer, data string, s Style, opt Options) error {
	scene, err := layout(data, s, opt)
	if err == nil {
		switch opt.Format {
		case SVG:
			err = scene.WriteSVG(w)
		case PDF:
			err = scene.WritePDF(w)
		case EPS:
			err = scene.WriteEPS(w)
		default:
			err = scene.WritePNG(w)
		}
	}
	// A print size names the PNG's pixels: a size the renderer refuses is
	// the sizeMm's (or dpi's) to change.
	if se, ok := errors.AsType[*render.StyleError](err); ok && se.Field == "size" && opt.Print.SizeMm != 0 {
		p := opt.Print
		return &render.StyleError{Field: "sizeMm", Message: fmt.Sprintf("%s (%g mm at %d dpi is %d pixels): print it larger or at a higher dpi", se.Message, p.SizeMm, p.dpi(), p.Pixels())}
	}
	return err
}

// Check is Write without the image: it encodes data and lays it out with
// s (no logo) at level, and returns what Write would refuse. Spreadsheet
// rows are checked with it by the thousand.
func Check(data string, s Style, level qr.Level) error {
	_, err := layout(data, s, Options{Level: level})
	return err
}

func layout(data string, s Style, opt Options) (*render.Scene, error) {
	rs := s.Render(opt.Logo, opt.Pixels)
	rs.Transparent = opt.Transparent
	p := opt.Print
	if err := p.Check(opt.Format); err != nil {
		return nil, err
	}
	if p.SizeMm != 0 {
		if opt.Format == PNG {
			rs.Pixels, rs.DPI = p.Pixels(), p.dpi()
		}
		rs.Points = p.SizeMm / 25.4 * 72
	}
	rs.CMYK = p.CMYK
	m, err := render.Encode([]byte(data), opt.Level, rs)
	if err != nil {
		return nil, err
	}
	return render.Layout(m, rs)
}

// Refusal reports whether err (from Normalize, FormStyle or Write) is the
// user's to fix, and if so the form field it concerns ("data" for what the
// encoder refuses) and the message to show.
func Refusal(err error) (field, message string, ok bool) {
	if se, isStyle := errors.AsType[*render.StyleError](err); isStyle {
		return se.Field, se.Message, true
	}
	for _, e := range []error{qr.ErrNoInput, qr.ErrTooBig, qr.ErrInvalidVersion} {
		if errors.Is(err, e) {
			return "data", e.Error(), true
		}
	}
	return "", "", false
}
