// Package render turns a qr.Matrix and a Style into SVG, PNG and PDF.
//
// Layout builds one geometric description (a Scene) in module units; the
// three writers only translate it, so the formats cannot disagree about
// what is drawn. Layout also refuses styles that would not scan.
package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/squarely/squarely/internal/qr"
)

// Shape names accepted by Style.Dots, Style.Eyes and Style.EyeCenters.
const (
	ShapeSquare        = "square"
	ShapeCircle        = "circle"         // dots and eyes
	ShapeRounded       = "rounded"        // dots only: runs of modules with rounded outer corners
	ShapeDots          = "dots"           // dots only: separate round dots, smaller than circle's
	ShapeClassy        = "classy"         // dots only: runs rounded at their top-left and bottom-right corners
	ShapeClassyRounded = "classy-rounded" // dots only: classy, the other outer corners softened too
	ShapeExtraRounded  = "extra-rounded"  // dots: rounded with filled inner corners; eyes: between curve-square and circle
	ShapeCurveSquare   = "curve-square"   // eyes only: square with rounded corners
	ShapeDot           = "dot"            // eyes only: a true circle where decoders read one (see eyeRadii)
)

// The shapes offered, the default first.
var (
	DotShapes = []string{ShapeSquare, ShapeCircle, ShapeRounded, ShapeDots, ShapeClassy, ShapeClassyRounded, ShapeExtraRounded}
	EyeShapes = []string{ShapeSquare, ShapeCurveSquare, ShapeCircle, ShapeExtraRounded, ShapeDot}
)

// GradientTypes are the gradient types offered, the default first.
var GradientTypes = []string{GradientLinear, GradientRadial}

// GradientAngleMessage refuses a gradient angle outside 0-359.
const GradientAngleMessage = "gradientAngle must be a whole number of degrees from 0 to 359"

// Gradient types accepted by Style.GradientType.
const (
	GradientLinear = "linear"
	GradientRadial = "radial"
	// DefaultGradientAngle is the linear gradient from the symbol's
	// top-left corner to its bottom-right one: angles are CSS's, in degrees
	// clockwise from "towards the top".
	DefaultGradientAngle = 135
)

// Logo sizes accepted by Style.LogoSize.
const (
	LogoSmall  = "small"
	LogoMedium = "medium"
	LogoLarge  = "large"
)

// Frame styles accepted by Frame.Style.
const (
	FrameRounded = "rounded"
	FrameSquare  = "square"
)

// Defaults from the product contract.
const (
	DefaultForeground     = "#000000"
	DefaultBackground     = "#FFFFFF"
	DefaultFrameText      = "SCAN ME"
	DefaultFrameColor     = "#000000"
	DefaultFrameTextColor = "#FFFFFF"
	DefaultPixels         = 960              // the 320 px preview at the download scale factor 3
	DefaultPoints         = 72 / 25.4 * 72   // 72 mm
	MinContrast           = 3.0              // WCAG contrast ratio a code needs to scan
	QuietZone             = 4                // light modules around the symbol
	maxPixels             = 4096             // bounds memory: a framed 4096 px RGBA image is ~105 MB
	maxDPI                = 1200             // the densest print offered
	maxPoints             = 2000 / 25.4 * 72 // 2 m: the largest print size offered (sizeMm)
	minPoints             = 10 / 25.4 * 72   // 1 cm: the smallest
	maxFrameText          = 40               // characters; longer text would be unreadably small
	maxLogoBytes          = 5 << 20          // uploads beyond this are not logos
	maxLogoPixels         = 4096 * 4096      // refuse decompression bombs before decoding
	logoMaxSide           = 512              // logos are resampled to at most this many pixels a side
	minPixelsPerModule    = 2                // PNG of a plain code (crisp modules): below this decoders cannot separate modules
	minStyledPixels       = 5                // PNG of a styled (anti-aliased) code: shapes need a few pixels
	frameExtraW           = 64.0 / 320       // the frame adds 64 px wide at 320 px
	frameExtraH           = 96.0 / 320       // and 96 px high
	framePad              = 16.0 / 320       // white inner padding around the code
	frameRadius           = 24.0 / 320       // corner radius of a rounded frame
)

// Style says how a code looks. Empty fields take the defaults above.
// Colours are hex strings ("#RRGGBB", "RRGGBB" or "#RGB").
type Style struct {
	Foreground string // dots; default #000000
	Background string // default #FFFFFF
	// Transparent leaves the background out of the file (PNG, SVG and
	// PDF alike; a frame keeps its own colour). Contrast is still checked against Background: the colour the
	// code will be printed on.
	Transparent bool
	Gradient    string // optional second colour: the dots fade from Foreground to it
	// GradientType is linear (default) or radial (Foreground at the
	// symbol's centre, Gradient at its corners).
	GradientType string
	// GradientAngle is a linear gradient's direction in degrees, 0-359,
	// clockwise from "towards the top" as in CSS; nil means
	// DefaultGradientAngle (top-left to bottom-right). The gradient line
	// is as long as the symbol's corners need to reach both colours.
	GradientAngle *int
	// GradientOnEyes paints eyes that have no colour of their own with
	// the gradient too; otherwise they take the Foreground.
	GradientOnEyes bool

	Dots       string // square (default), circle, rounded, dots, classy, classy-rounded or extra-rounded
	Eyes       string // outer finder ring (eye frame): square (default), curve-square, circle, extra-rounded or dot
	EyeCenters string // finder centre (eye ball): square (default), curve-square, circle, extra-rounded or dot

	EyeColor       string // outer ring; default: the foreground (the gradient with GradientOnEyes)
	EyeCenterColor string // centre; default: as EyeColor

	Logo []byte // PNG, JPEG, GIF or WebP; needs error correction H (see RequiredLevel)
	// LogoSize is small, medium (default) or large: a centred pad of up to
	// 26, 32 or 38% of the symbol's side, less where it would hide an
	// alignment pattern (sizes measured with zbar and ZXing; see padSide).
	LogoSize string

	Frame Frame

	// Pixels is the PNG size (and SVG width/height) of the code with its
	// quiet zone; default 960. A frame adds 20% to the width and 30% to
	// the height (320 → 384×416). WritePNG needs at least 2 pixels per
	// module for a plain code and 5 for a styled one.
	Pixels int
	// Points is the PDF size of the code with its quiet zone; default
	// 72 mm. A frame adds proportionally, as for Pixels.
	Points float64
	// DPI, when set, is written into the PNG as its physical density (a
	// pHYs chunk), so Pixels at DPI is the print size.
	DPI int
	// CMYK writes PDF and EPS colours in DeviceCMYK, black as pure K, for
	// print shops that separate plates.
	CMYK bool
}

// Frame is an optional box around the code with a text band below it.
type Frame struct {
	Enabled   bool
	Text      string // default "SCAN ME"
	Color     string // default #000000
	TextColor string // default #FFFFFF
	Style     string // rounded (default) or square
}

// StyleError is a style the renderer refuses. Field names follow the
// generator form: fgColor, bgColor, gradientColor, gradientType,
// gradientAngle, dotShape, cornerShape,
// innerCornerShape, outerCornerColor, innerCornerColor, logo, logoSize,
// frameText, frameColor, frameTextColor, frameStyle, size.
type StyleError struct {
	Field   string
	Message string
}

func (e *StyleError) Error() string { return e.Field + ": " + e.Message }

// RequiredLevel is the error correction level to encode with: a logo hides
// modules, so it needs H; otherwise the requested level stands.
func RequiredLevel(s Style, requested qr.Level) qr.Level {
	if len(s.Logo) > 0 {
		return qr.H
	}
	return requested
}

// MinVersion is the smallest symbol version the style is known to scan
// at. Version 1 has no alignment pattern, so decoders (zbar) locate its
// grid from the finder edges alone; rounding them loses codes.
func MinVersion(s Style) int {
	if (s.Eyes != "" && s.Eyes != ShapeSquare) || (s.EyeCenters != "" && s.EyeCenters != ShapeSquare) {
		return 2
	}
	return 1
}

// Encode encodes data for the style: at level H when it has a logo (see
// RequiredLevel), at version 2 or more when its eyes are rounded (see
// MinVersion), and with a logo at a version with no alignment pattern at
// its centre, which the logo would hide (see padSide): the smallest such
// version that holds the data. Data that needs version 35 or more (where
// every version has one) is refused on the logo field: even pads of 16-24%
// of the side over the centre pattern lost zbar a code in a sweep of
// versions 35-40.
func Encode(data []byte, level qr.Level, s Style) (*qr.Matrix, error) {
	opt := qr.Options{Level: RequiredLevel(s, level)}
	m, err := qr.Encode(data, opt)
	if err != nil {
		return nil, err
	}
	v := max(m.Version, MinVersion(s))
	if len(s.Logo) > 0 {
		if v = logoVersion(v); v == 0 {
			return nil, &StyleError{"logo", "The content is too long for a code with a logo: remove the logo or shorten the content"}
		}
	}
	if v == m.Version {
		return m, nil
	}
	opt.Version = v
	return qr.Encode(data, opt)
}

// logoVersion is the smallest version from v on that can take a logo (no
// alignment pattern at its centre), or 0 if there is none.
func logoVersion(v int) int {
	for ; v <= 40; v++ {
		if !centreAlignment(v) {
			return v
		}
	}
	return 0
}

// ParseColor reads "#RRGGBB", "RRGGBB", "#RGB" or "RGB" (either case).
func ParseColor(s string) (color.RGBA, error) {
	h := s
	if len(h) > 0 && h[0] == '#' {
		h = h[1:]
	}
	var v [6]byte
	switch len(h) {
	case 6:
		for i := range 6 {
			d, ok := hexDigit(h[i])
			if !ok {
				return color.RGBA{}, fmt.Errorf("%q is not a hex colour", s)
			}
			v[i] = d
		}
	case 3:
		for i := range 3 {
			d, ok := hexDigit(h[i])
			if !ok {
				return color.RGBA{}, fmt.Errorf("%q is not a hex colour", s)
			}
			v[2*i], v[2*i+1] = d, d
		}
	default:
		return color.RGBA{}, fmt.Errorf("%q is not a hex colour", s)
	}
	return color.RGBA{v[0]<<4 | v[1], v[2]<<4 | v[3], v[4]<<4 | v[5], 0xff}, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Contrast is the WCAG 2 contrast ratio of two colours, from 1 to 21.
func Contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG relative luminance of an sRGB colour.
func luminance(c color.RGBA) float64 {
	return 0.2126*linear[c.R] + 0.7152*linear[c.G] + 0.0722*linear[c.B]
}

// linear maps an sRGB channel value to linear light.
var linear = func() (t [256]float64) {
	for v := range t {
		f := float64(v) / 255
		if f <= 0.04045 {
			t[v] = f / 12.92
		} else {
			t[v] = math.Pow((f+0.055)/1.055, 2.4)
		}
	}
	return t
}()

// colorField parses an optional colour, naming the field on error.
func colorField(field, value, def string) (color.RGBA, error) {
	if value == "" {
		value = def
	}
	c, err := ParseColor(value)
	if err != nil {
		return c, &StyleError{field, err.Error()}
	}
	return c, nil
}

// checkContrast refuses a colour that is lighter than the background
// (decoders and phone cameras expect dark on light) or too close to it.
// A sRGB-interpolated gradient is never lighter than its lighter end, so
// checking both ends covers it.
func checkContrast(field string, c, bg color.RGBA) error {
	if luminance(c) > luminance(bg) {
		return &StyleError{field, "Inverted colours: the code must be darker than its background for enough contrast"}
	}
	if r := Contrast(c, bg); r < MinContrast {
		return &StyleError{field, fmt.Sprintf("Not enough contrast with the background (%.2f:1, at least %.0f:1 is needed to scan)", r, MinContrast)}
	}
	return nil
}

// oneOf checks an optional enumerated value.
func oneOf(field, value, def string, allowed ...string) (string, error) {
	if value == "" {
		return def, nil
	}
	for _, a := range allowed {
		if value == a {
			return value, nil
		}
	}
	return "", &StyleError{field, fmt.Sprintf("unknown value %q (allowed: %v)", value, allowed)}
}
