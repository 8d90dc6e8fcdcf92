package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/qr"
)

// Scene is the one geometric description of a rendered code, in module
// units: the code with its quiet zone spans [0, n]²; a frame extends the
// image to negative coordinates and below. Write it with WriteSVG,
// WritePNG or WritePDF.
type Scene struct {
	x, y, w, h float32 // the whole image
	n          int     // modules across the code, quiet zone included
	paths      []path  // in drawing order
	pathBuf    [6]path // backs paths: frame, padding, background, dots, rings, centres
	grad       gradient
	logo       *logo
	text       *text
	pixels     int     // PNG/SVG size of the code part
	points     float64 // PDF size of the code part

	// plain is set for square dots and eyes in solid colours with no logo
	// and no frame: the PNG is then a 1-bit image written from the matrix
	// (bitmap.go).
	plain  bool
	matrix *qr.Matrix
	fg, bg color.RGBA
}

// gradient is a linear gradient in module units (used when a path's paint
// says so).
type gradient struct {
	from, to       color.RGBA
	x0, y0, x1, y1 float32
}

// logo is the image drawn centred on a pad of background colour.
type logo struct {
	x, y, w, h float32
	img        *image.NRGBA
}

// text is centred on x with its baseline at y; size is the em in modules.
type text struct {
	s     string
	x, y  float32
	size  float32
	color color.RGBA
}

// Logo pads are square and centred. A pad that hides no alignment pattern
// may take up to logoClear of the symbol's side (large ≈ 14% of the area;
// 0.42 still decoded everywhere we tried). When even a smaller pad would
// hide one (versions 7-13, 21-27 and 35-40 have one at the very centre) it
// takes logoOver (large ≈ 6%): decoders use that pattern to locate the
// grid, and a logo over it makes zbar lock onto the logo now and then.
// Error correction H would recover more modules; the limit is locating the
// grid, not correcting. Measured with zbar and ZXing in scan_test.go.
var (
	logoClear = map[string]float64{LogoSmall: 0.26, LogoMedium: 0.32, LogoLarge: 0.38}
	logoOver  = map[string]float64{LogoSmall: 0.16, LogoMedium: 0.20, LogoLarge: 0.24}
)

// padSide is the logo pad's side in modules: odd, so it centres exactly on
// the odd-sized symbol, and never reaching the finders or separators.
func padSide(m *qr.Matrix, size string) int {
	side := func(f float64) int {
		k := min(int(f*float64(m.Size)), m.Size-16)
		return k - 1 + k%2
	}
	// The nearest alignment module to the centre, in rings around it.
	c, near := m.Size/2, m.Size
	for y := range m.Size {
		for x := range m.Size {
			if m.Role(x, y) == qr.RoleAlignment {
				near = min(near, max(abs(x-c), abs(y-c)))
			}
		}
	}
	if k := min(side(logoClear[size]), 2*near-1); k >= side(logoOver[size]) {
		return k
	}
	return side(logoOver[size])
}

func abs(v int) int { return max(v, -v) }

// Layout checks a style against a matrix and builds the scene. Styles that
// would not scan are refused with a *StyleError.
func Layout(m *qr.Matrix, s Style) (*Scene, error) {
	fg, err := colorField("fgColor", s.Foreground, DefaultForeground)
	if err != nil {
		return nil, err
	}
	bg, err := colorField("bgColor", s.Background, DefaultBackground)
	if err != nil {
		return nil, err
	}
	if err := checkContrast("fgColor", fg, bg); err != nil {
		return nil, err
	}
	dotPaint := paint{color: fg}
	sc := &Scene{n: m.Size + 2*QuietZone, matrix: m, fg: fg, bg: bg}
	sc.paths = sc.pathBuf[:0]
	if s.Gradient != "" {
		g, err := colorField("gradientColor", s.Gradient, "")
		if err != nil {
			return nil, err
		}
		if err := checkContrast("gradientColor", g, bg); err != nil {
			return nil, err
		}
		lo, hi := float32(QuietZone), float32(QuietZone+m.Size)
		sc.grad = gradient{from: fg, to: g, x0: lo, y0: lo, x1: hi, y1: hi}
		dotPaint = paint{color: fg, gradient: true}
	}
	eyePaint, err := eyeColor("outerCornerColor", s.EyeColor, dotPaint, bg)
	if err != nil {
		return nil, err
	}
	centerPaint, err := eyeColor("innerCornerColor", s.EyeCenterColor, dotPaint, bg)
	if err != nil {
		return nil, err
	}
	dots, err := oneOf("dotShape", s.Dots, ShapeSquare, ShapeSquare, ShapeCircle, ShapeRounded)
	if err != nil {
		return nil, err
	}
	eyes, err := oneOf("cornerShape", s.Eyes, ShapeSquare, ShapeSquare, ShapeCurveSquare, ShapeCircle)
	if err != nil {
		return nil, err
	}
	centers, err := oneOf("innerCornerShape", s.EyeCenters, ShapeSquare, ShapeSquare, ShapeCurveSquare, ShapeCircle)
	if err != nil {
		return nil, err
	}
	if v := MinVersion(s); m.Version < v {
		return nil, &StyleError{"cornerShape", fmt.Sprintf("Rounded eyes need a code of version %d or more (encode with render.Encode)", v)}
	}
	if sc.pixels, err = pixelsField(s.Pixels); err != nil {
		return nil, err
	}
	if sc.points, err = pointsField(s.Points); err != nil {
		return nil, err
	}

	// The logo's pad hides whole modules (see padSide).
	var padLo, padHi int
	if len(s.Logo) > 0 {
		if m.Level != qr.H {
			return nil, &StyleError{"logo", fmt.Sprintf("A logo needs error correction level H (this code uses %v)", m.Level)}
		}
		size, err := oneOf("logoSize", s.LogoSize, LogoMedium, LogoSmall, LogoMedium, LogoLarge)
		if err != nil {
			return nil, err
		}
		img, err := decodeLogo(s.Logo)
		if err != nil {
			return nil, err
		}
		k := padSide(m, size)
		padLo = (m.Size - k) / 2
		padHi = padLo + k
		inset := float32(0.5) // background margin between the modules and the logo
		box := float32(k) - 2*inset
		sw, sh := float32(img.Bounds().Dx()), float32(img.Bounds().Dy())
		scale := box / max(sw, sh)
		lw, lh := sw*scale, sh*scale
		c := float32(QuietZone) + float32(m.Size)/2
		sc.logo = &logo{x: c - lw/2, y: c - lh/2, w: lw, h: lh, img: img}
	}

	// Room for the small paths: background, frame and padding (rounded at
	// most), eye rings and holes, eye centres.
	outer, inner, center := eyeRadii(eyes, centers, m.Version)
	bc, bp := rectRoom(0, false)
	fc, fp := rectRoom(1, false)
	oc, op := rectRoom(outer, false)
	ic, ip := rectRoom(inner, true)
	cc, cp := rectRoom(center, false)
	small := newArena(bc+2*fc+3*(oc+ic+cc), bp+2*fp+3*(op+ip+cp))

	n := float32(sc.n)
	sc.w, sc.h = n, n
	if s.Frame.Enabled {
		if err := sc.layoutFrame(s.Frame, small); err != nil {
			return nil, err
		}
	}
	bgPath := small.path(paint{color: bg}, bc, bp)
	bgPath.roundRect(0, 0, n, n, 0, false)
	sc.paths = append(sc.paths, bgPath)

	// Dots: every dark module that is not part of a finder or under the pad.
	isDot := func(x, y int) bool {
		return m.Dark(x, y) && m.Role(x, y) != qr.RoleFinder &&
			!(x >= padLo && x < padHi && y >= padLo && y < padHi)
	}
	var dp path
	if dots == ShapeSquare {
		// Each row's runs as rectangles, straight from the matrix. They
		// all belong to one path, so renderers accumulate their coverage
		// together and no seam shows where runs meet.
		// At most one rectangle per four modules (0.21-0.25 measured
		// across versions), so the path is allocated once.
		dp = path{paint: dotPaint, cmds: make([]cmd, 0, m.Size*m.Size/4), pts: make([]float32, 0, m.Size*m.Size)}
		// A run exactly below the previous row's run from the same column
		// extends that rectangle instead: fewer, taller rectangles.
		type open struct{ x1, row, pt int }
		above := make([]open, m.Size)
		for y := range m.Size {
			padRow := y >= padLo && y < padHi
			finderRow := y < 7 || y >= m.Size-7 // finders sit in the corners
			// Written out rather than calling isDot: this loop is most of
			// the time Layout takes for a plain code.
			dot := func(x int) bool {
				return m.Dark(x, y) && !(finderRow && m.Role(x, y) == qr.RoleFinder) && !(padRow && x >= padLo && x < padHi)
			}
			for x := 0; x < m.Size; x++ {
				if !dot(x) {
					continue
				}
				x0 := x
				for x < m.Size && dot(x) {
					x++
				}
				if o := &above[x0]; o.row == y && o.x1 == x && y > 0 {
					dp.pts[o.pt+3]++
					o.row++
					continue
				}
				above[x0] = open{x1: x, row: y + 1, pt: len(dp.pts)}
				dp.rect(float32(QuietZone+x0), float32(QuietZone+y), float32(x-x0), 1)
			}
		}
	} else {
		// A grid with a light border, as outline() wants.
		W := m.Size + 2
		dark := make([]bool, W*W)
		count := 0
		for y := range m.Size {
			for x := range m.Size {
				if isDot(x, y) {
					dark[(y+1)*W+x+1] = true
					count++
				}
			}
		}
		if dots == ShapeRounded {
			dp = path{paint: dotPaint, cmds: make([]cmd, 0, 3*count), pts: make([]float32, 0, 8*count)}
			dp.outline(dark, m.Size, QuietZone, QuietZone, 0.5)
		} else {
			dp = path{paint: dotPaint, cmds: make([]cmd, 0, 6*count), pts: make([]float32, 0, 26*count)}
			const d = 0.9 // diameter: a hair of background between neighbours
			for y := range m.Size {
				for x := range m.Size {
					if dark[(y+1)*W+x+1] {
						fx, fy := float32(QuietZone+x), float32(QuietZone+y)
						dp.roundRect(fx+(1-d)/2, fy+(1-d)/2, d, d, d/2, false)
					}
				}
			}
		}
	}
	sc.paths = append(sc.paths, dp)

	ring, cent := small.path(eyePaint, 3*(oc+ic), 3*(op+ip)), small.path(centerPaint, 3*cc, 3*cp)
	for _, o := range m.FinderOrigins() {
		x, y := float32(QuietZone+o[0]), float32(QuietZone+o[1])
		ring.roundRect(x, y, 7, 7, outer, false)
		ring.roundRect(x+1, y+1, 5, 5, inner, true)
		cent.roundRect(x+2, y+2, 3, 3, center, false)
	}
	sc.paths = append(sc.paths, ring, cent)

	sc.plain = dots == ShapeSquare && eyes == ShapeSquare && centers == ShapeSquare &&
		!dotPaint.gradient && eyePaint == dotPaint && centerPaint == dotPaint &&
		sc.logo == nil && !s.Frame.Enabled
	return sc, nil
}

// eyeRadii gives the corner radii of the outer ring, its hole and the
// centre. Decoders cross-check a finder along its diagonal as well as
// across it, so each part is rounded in proportion to its size (ring and
// hole alike) and "circle" stops short of a true circle: with rings
// rounder than that, or with true circles, zbar and ZXing miss codes at
// some scales. ZXing also estimates the module size along the diagonal,
// which rounding shortens; that error only matters on the largest symbols,
// so from version 34 on the ring's rounding shrinks. All measured with
// both decoders (see scan_test.go).
func eyeRadii(eyes, centers string, version int) (outer, inner, center float32) {
	var ring float32 // radius as a fraction of the half-size
	switch eyes {
	case ShapeCurveSquare:
		ring = 0.35
	case ShapeCircle:
		ring = 0.6
	}
	if version > 33 {
		ring = min(ring, 0.6-0.07*float32(version-33))
	}
	var c float32
	switch centers {
	case ShapeCurveSquare:
		c = 0.35
	case ShapeCircle:
		c = 0.74
	}
	return ring * 3.5, ring * 2.5, c * 1.5
}

// eyeColor parses an eye colour; empty means the paint of the dots.
func eyeColor(field, value string, dots paint, bg color.RGBA) (paint, error) {
	if value == "" {
		return dots, nil
	}
	c, err := ParseColor(value)
	if err != nil {
		return paint{}, &StyleError{field, err.Error()}
	}
	if err := checkContrast(field, c, bg); err != nil {
		return paint{}, err
	}
	return paint{color: c}, nil
}

func pixelsField(v int) (int, error) {
	if v == 0 {
		return DefaultPixels, nil
	}
	if v < 21+2*QuietZone || v > maxPixels {
		return 0, &StyleError{"size", fmt.Sprintf("The image size must be between %d and %d pixels", 21+2*QuietZone, maxPixels)}
	}
	return v, nil
}

func pointsField(v float64) (float64, error) {
	if v == 0 {
		return DefaultPoints, nil
	}
	if !(v >= minPoints && v <= maxPoints) {
		return 0, &StyleError{"size", fmt.Sprintf("The PDF size must be between %d and %d points", minPoints, maxPoints)}
	}
	return v, nil
}

// textRoom is the share of the frame's width the text may take.
const textRoom = 0.9

// layoutFrame grows the image to the frame box (the code plus 20% wide and
// 30% high, as 320 px → 384×416) and adds the frame, its white inner
// padding and the text centred in the bottom band.
func (sc *Scene) layoutFrame(f Frame, small *arena) error {
	fc, err := colorField("frameColor", f.Color, DefaultFrameColor)
	if err != nil {
		return err
	}
	tc, err := colorField("frameTextColor", f.TextColor, DefaultFrameTextColor)
	if err != nil {
		return err
	}
	style, err := oneOf("frameStyle", f.Style, FrameRounded, FrameRounded, FrameSquare)
	if err != nil {
		return err
	}
	t := f.Text
	if t == "" {
		t = DefaultFrameText
	}
	if utf8.RuneCountInString(t) > maxFrameText {
		return &StyleError{"frameText", fmt.Sprintf("The frame text must be at most %d characters", maxFrameText)}
	}
	n := float32(sc.n)
	sc.x, sc.y = -n*frameExtraW/2, -n*frameExtraW/2
	sc.w, sc.h = n*(1+frameExtraW), n*(1+frameExtraH)
	var r, pr float32
	if style == FrameRounded {
		r, pr = n*frameRadius, n*frameRadius/2
	}
	pad := n * framePad
	rc, rp := rectRoom(r, false)
	box := small.path(paint{color: fc}, rc, rp)
	box.roundRect(sc.x, sc.y, sc.w, sc.h, r, false)
	pc, pp := rectRoom(pr, false)
	inner := small.path(paint{color: color.RGBA{0xff, 0xff, 0xff, 0xff}}, pc, pp)
	inner.roundRect(-pad, -pad, n+2*pad, n+2*pad, pr, false)
	sc.paths = append(sc.paths, box, inner)

	// The band below the padding; the text is sized to its height and
	// shrunk to fit the width, measured in Helvetica-Bold.
	bandTop, bandBottom := n+pad, sc.y+sc.h
	size := (bandBottom - bandTop) * 0.5
	if w := helveticaBoldWidth(t) * size; w > sc.w*textRoom {
		size *= sc.w * textRoom / w
	}
	base := (bandTop+bandBottom)/2 + size*capHeight/2
	sc.text = &text{s: t, x: sc.x + sc.w/2, y: base, size: size, color: tc}
	return nil
}

// pixelScale is the PNG/SVG pixels per module and the image size.
func (sc *Scene) pixelScale() (s float64, w, h int) {
	s = float64(sc.pixels) / float64(sc.n)
	return s, int(math.Round(float64(sc.w) * s)), int(math.Round(float64(sc.h) * s))
}
