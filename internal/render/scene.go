package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/pdffont"
	"github.com/squarely/squarely/internal/qr"
)

// Scene is the one geometric description of a rendered code, in module
// units: the code with its quiet zone spans [0, n]²; a frame extends the
// image to negative coordinates and below. Write it with WriteSVG,
// WritePNG or WritePDF.
type Scene struct {
	x, y, w, h float32 // the whole image
	n          int     // modules across the code, quiet zone included
	paths      []path  // in drawing order; read them through shapes
	pathBuf    [6]path // backs paths: frame, padding, background, dots, rings, centres
	grad       gradient
	logo       *logo
	text       *text
	look       look
	pixels     int     // PNG/SVG size of the code part
	points     float64 // PDF and EPS size of the code part
	dpi        int     // PNG density, 0 for none (Style.DPI)
	cmyk       bool    // PDF and EPS colours in DeviceCMYK (Style.CMYK)

	// plain is set for square dots and eyes in solid colours with no logo
	// and no frame: the PNG is then a 1-bit image (bitmap.go) and the SVG
	// the matrix's runs (appendPlainSVG), both written from the matrix, and
	// paths stays empty (see shapes).
	plain  bool
	matrix *qr.Matrix
	fg, bg color.RGBA
	// transparent: PNG and SVG leave the background out (see Style.Transparent).
	transparent bool
}

// gradient is a linear gradient from (x0, y0) to (x1, y1), or a radial
// one centred on (x0, y0) with radius r, in module units (used when a
// path's paint says so).
type gradient struct {
	from, to       color.RGBA
	radial         bool
	x0, y0, x1, y1 float32
	r              float32
}

// layoutGradient places the gradient over the symbol (the code without
// its quiet zone), lo to hi on both axes. A linear gradient's line passes
// through the centre at the angle (CSS's: clockwise from the top) and is
// as long as the symbol's extent along it, so the corners it starts and
// ends at take the two colours exactly (135° runs corner to corner, the
// gradient Squarely always drew). A radial one reaches the second colour
// at the corners.
func layoutGradient(from, to color.RGBA, radial bool, angle int, lo, hi float32) gradient {
	c, half := (lo+hi)/2, (hi-lo)/2
	g := gradient{from: from, to: to, radial: radial, x0: c, y0: c}
	if radial {
		g.r = half * math.Sqrt2
		return g
	}
	a := float64(angle) * math.Pi / 180
	dx, dy := math.Sin(a), -math.Cos(a)
	l := float64(half) * (math.Abs(dx) + math.Abs(dy)) // half the symbol's extent along (dx, dy)
	g.x0, g.y0 = c-float32(dx*l), c-float32(dy*l)
	g.x1, g.y1 = c+float32(dx*l), c+float32(dy*l)
	return g
}

// lightestStop is the lightest colour of the gradient as a file draws it,
// the one the contrast guard must check. Interpolated in sRGB (SVG, PNG,
// an RGB PDF or EPS) no colour between the ends is lighter than the
// lighter end (linear light is convex in the sRGB value), but a CMYK
// shading interpolates the inks, whose products can peak between the ends
// (#4040FF to #606060 is lightest in the middle, by a factor of 1.3 in
// contrast): there the gradient is sampled.
func lightestStop(from, to color.RGBA, cmyk bool) (c color.RGBA, mid bool) {
	c = from
	if luminance(to) > luminance(c) {
		c = to
	}
	if !cmyk {
		return c, false
	}
	c0, m0, y0, k0 := toCMYK(from.R, from.G, from.B)
	c1, m1, y1, k1 := toCMYK(to.R, to.G, to.B)
	const steps = 64
	for i := 1; i < steps; i++ {
		t := float32(i) / steps
		k := k0 + (k1-k0)*t
		ch := func(a, b float32) uint8 { return uint8(255*(1-(a+(b-a)*t))*(1-k) + 0.5) }
		s := color.RGBA{ch(c0, c1), ch(m0, m1), ch(y0, y1), 0xff}
		if luminance(s) > luminance(c) {
			c, mid = s, true
		}
	}
	return c, mid
}

// logo is the image drawn centred on a pad of background colour.
type logo struct {
	x, y, w, h float32
	img        *image.NRGBA
}

// text is centred on x with its baseline at y; size is the em in modules.
type text struct {
	s     string
	line  pdffont.Line // s shaped in Go Bold and the Noto fallbacks
	x, y  float32
	size  float32
	width float32 // line's width at size
	color color.RGBA
}

// Logo pads are square and centred, and take up to logoPad of the
// symbol's side (large ≈ 14% of the area; 0.42 still decoded everywhere we
// tried), less where that would hide an alignment pattern: decoders use
// those patterns to locate the grid, and with one hidden zbar locks onto
// the logo now and then and misses the code. Versions with a pattern at
// the very centre (7-13, 21-27, 35-40) cannot take a logo at all (Encode
// avoids them). Error correction H would recover more modules; the limit
// is locating the grid, not correcting. Measured with zbar and ZXing in
// scan_test.go.
var logoPad = map[string]float64{LogoSmall: 0.26, LogoMedium: 0.32, LogoLarge: 0.38}

// centreAlignment reports whether version v has an alignment pattern at
// the symbol's centre: an odd number of alignment coordinates puts the
// middle one there.
func centreAlignment(v int) bool { return len(qr.AlignmentCenters(v))%2 == 1 }

// padSide is the logo pad's side in modules: odd, so it centres exactly on
// the odd-sized symbol; never reaching the finders, separators, timing
// patterns or format information (at most Size-18, which leaves version 1
// a 3-module pad), nor any alignment pattern.
func padSide(m *qr.Matrix, size string) int {
	k := min(int(logoPad[size]*float64(m.Size)), m.Size-18)
	// The nearest alignment module to the centre, in rings around it:
	// patterns span their centre ±2, and the one nearest the centre on
	// both axes exists (only those at the finders are left out).
	c := m.Size / 2
	for _, p := range qr.AlignmentCenters(m.Version) {
		k = min(k, 2*(abs(p-c)-2)-1)
	}
	return k - 1 + k%2
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
	eyeDefault := dotPaint // what eyes with no colour of their own take
	sc := &Scene{n: m.Size + 2*QuietZone, matrix: m, fg: fg, bg: bg, transparent: s.Transparent, cmyk: s.CMYK}
	sc.paths = sc.pathBuf[:0]
	kind, err := oneOf("gradientType", s.GradientType, GradientLinear, GradientTypes...)
	if err != nil {
		return nil, err
	}
	angle := DefaultGradientAngle
	if s.GradientAngle != nil {
		angle = *s.GradientAngle
	}
	if angle < 0 || angle > 359 {
		return nil, &StyleError{"gradientAngle", GradientAngleMessage}
	}
	if s.Gradient != "" {
		g, err := colorField("gradientColor", s.Gradient, "")
		if err != nil {
			return nil, err
		}
		if err := checkContrast("gradientColor", g, bg); err != nil {
			return nil, err
		}
		if c, mid := lightestStop(fg, g, s.CMYK); mid {
			if err := checkContrast("gradientColor", c, bg); err != nil {
				return nil, &StyleError{"gradientColor", "In CMYK the middle of this gradient is lighter than its ends. " + err.(*StyleError).Message}
			}
		}
		sc.grad = layoutGradient(fg, g, kind == GradientRadial, angle, float32(QuietZone), float32(QuietZone+m.Size))
		dotPaint = paint{color: fg, gradient: true}
		if s.GradientOnEyes {
			eyeDefault = dotPaint
		}
	}
	eyePaint, err := eyeColor("outerCornerColor", s.EyeColor, eyeDefault, bg)
	if err != nil {
		return nil, err
	}
	centerPaint, err := eyeColor("innerCornerColor", s.EyeCenterColor, eyeDefault, bg)
	if err != nil {
		return nil, err
	}
	dots, err := oneOf("dotShape", s.Dots, ShapeSquare, DotShapes...)
	if err != nil {
		return nil, err
	}
	eyes, err := oneOf("cornerShape", s.Eyes, ShapeSquare, EyeShapes...)
	if err != nil {
		return nil, err
	}
	centers, err := oneOf("innerCornerShape", s.EyeCenters, ShapeSquare, EyeShapes...)
	if err != nil {
		return nil, err
	}
	if v := MinVersion(s); m.Version < v {
		return nil, &StyleError{"cornerShape", fmt.Sprintf("Rounded eyes need a code of version %d or more", v)}
	}
	if sc.pixels, err = pixelsField(s.Pixels); err != nil {
		return nil, err
	}
	if sc.points, err = pointsField(s.Points); err != nil {
		return nil, err
	}
	if s.DPI < 0 || s.DPI > maxDPI {
		return nil, &StyleError{"dpi", fmt.Sprintf("dpi must be between 1 and %d", maxDPI)}
	}
	sc.dpi = s.DPI

	// The logo's pad hides whole modules (see padSide).
	lk := look{dots: dots, eyes: eyes, centers: centers, dot: dotPaint, eye: eyePaint, center: centerPaint}
	if len(s.Logo) > 0 {
		if m.Level != qr.H {
			return nil, &StyleError{"logo", fmt.Sprintf("A logo needs error correction level H (this code uses %v)", m.Level)}
		}
		if centreAlignment(m.Version) {
			return nil, &StyleError{"logo", fmt.Sprintf("A logo would hide the alignment pattern at the centre of a version %d code", m.Version)}
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
		lk.padLo = (m.Size - k) / 2
		lk.padHi = lk.padLo + k
		inset := float32(0.5) // background margin between the modules and the logo
		box := float32(k) - 2*inset
		sw, sh := float32(img.Bounds().Dx()), float32(img.Bounds().Dy())
		scale := box / max(sw, sh)
		lw, lh := sw*scale, sh*scale
		c := float32(QuietZone) + float32(m.Size)/2
		sc.logo = &logo{x: c - lw/2, y: c - lh/2, w: lw, h: lh, img: img}
	}
	sc.look = lk

	n := float32(sc.n)
	sc.w, sc.h = n, n
	if s.Frame.Enabled {
		if err := sc.layoutFrame(s.Frame); err != nil {
			return nil, err
		}
	}
	sc.plain = dots == ShapeSquare && eyes == ShapeSquare && centers == ShapeSquare &&
		!dotPaint.gradient && eyePaint == dotPaint && centerPaint == dotPaint &&
		sc.logo == nil && !s.Frame.Enabled
	if !sc.plain {
		sc.paths = sc.buildPaths(sc.paths)
	}
	return sc, nil
}

// look is what Layout decided about the code itself, kept so that a plain
// scene can build its paths only when a writer needs them.
type look struct {
	dots, eyes, centers string
	dot, eye, center    paint
	padLo, padHi        int // the logo pad's rows and columns, [padLo, padHi)
}

// shapes is the scene's paths in drawing order. A plain scene's SVG and
// PNG are written straight from the matrix (fast paths: the common case),
// so its paths are built only here, for the PDF and for tests.
func (sc *Scene) shapes() []path {
	if sc.plain {
		return sc.buildPaths(nil)
	}
	return sc.paths
}

// buildPaths appends the background, the dots, the eye rings and the eye
// centres.
func (sc *Scene) buildPaths(paths []path) []path {
	m, lk := sc.matrix, sc.look
	// Room for the small paths: background, eye rings and holes, eye
	// centres.
	outer, inner, center, side := eyeRadii(lk.eyes, lk.centers, m.Version)
	bc, bp := rectRoom(0, false)
	oc, op := rectRoom(outer, false)
	ic, ip := rectRoom(inner, true)
	cc, cp := rectRoom(center, false)
	small := newArena(bc+3*(oc+ic+cc), bp+3*(op+ip+cp))

	n := float32(sc.n)
	bgPaint := paint{color: sc.bg}
	if sc.transparent {
		bgPaint.color = color.RGBA{}
	}
	bgPath := small.path(bgPaint, bc, bp)
	bgPath.roundRect(0, 0, n, n, 0, false)
	paths = append(paths, bgPath)

	// Dots: every dark module that is not part of a finder or under the
	// pad, found as runs.
	var dp path
	runs := make([]int, 0, m.Size)
	if lk.dots == ShapeSquare {
		// Each row's runs as rectangles. They all belong to one path, so
		// renderers accumulate their coverage together and no seam shows
		// where runs meet. At most one rectangle per four modules
		// (0.21-0.25 measured across versions), so the path is allocated
		// once.
		dp = path{paint: lk.dot, cmds: make([]cmd, 0, m.Size*m.Size/4), pts: make([]float32, 0, m.Size*m.Size)}
		// A run exactly below the previous row's run from the same column
		// extends that rectangle instead: fewer, taller rectangles.
		type open struct{ x1, row, pt int }
		above := make([]open, m.Size)
		for y := range m.Size {
			runs = sc.dotRuns(runs[:0], y)
			for i := 0; i < len(runs); i += 2 {
				x0, x1 := runs[i], runs[i+1]
				if o := &above[x0]; o.row == y && o.x1 == x1 && y > 0 {
					dp.pts[o.pt+3]++
					o.row++
					continue
				}
				above[x0] = open{x1: x1, row: y + 1, pt: len(dp.pts)}
				dp.rect(float32(QuietZone+x0), float32(QuietZone+y), float32(x1-x0), 1)
			}
		}
	} else {
		// A grid with a light border, as outline() wants.
		W := m.Size + 2
		dark := make([]bool, W*W)
		count := 0
		for y := range m.Size {
			runs = sc.dotRuns(runs[:0], y)
			for i := 0; i < len(runs); i += 2 {
				for x := runs[i]; x < runs[i+1]; x++ {
					dark[(y+1)*W+x+1] = true
				}
				count += runs[i+1] - runs[i]
			}
		}
		if c, ok := dotCorners[lk.dots]; ok {
			dp = path{paint: lk.dot, cmds: make([]cmd, 0, 3*count), pts: make([]float32, 0, 8*count)}
			dp.outline(dark, m.Size, QuietZone, QuietZone, c)
		} else {
			dp = path{paint: lk.dot, cmds: make([]cmd, 0, 6*count), pts: make([]float32, 0, 26*count)}
			d := dotDiameter[lk.dots]
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
	paths = append(paths, dp)

	ring, cent := small.path(lk.eye, 3*(oc+ic), 3*(op+ip)), small.path(lk.center, 3*cc, 3*cp)
	for _, o := range m.FinderOrigins() {
		x, y := float32(QuietZone+o[0]), float32(QuietZone+o[1])
		ring.roundRect(x, y, 7, 7, outer, false)
		ring.roundRect(x+1, y+1, 5, 5, inner, true)
		cent.roundRect(x+3.5-side/2, y+3.5-side/2, side, side, center, false)
	}
	return append(paths, ring, cent)
}

// dotCorners are the connected dot shapes: how outline() rounds the
// corners of each run of modules. Classy rounds the top-left and
// bottom-right corners of every run fully (a lone module is a leaf) and
// classy-rounded softens the other two as well; extra-rounded is rounded
// with its inner corners filled, so runs flow into each other.
var dotCorners = map[string]corners{
	ShapeRounded:       roundAll(0.5),
	ShapeClassy:        {convex: [4]float32{0, 0.5, 0, 0.5}},
	ShapeClassyRounded: {convex: [4]float32{0.2, 0.5, 0.2, 0.5}},
	ShapeExtraRounded:  {convex: [4]float32{0.5, 0.5, 0.5, 0.5}, concave: 0.25},
}

// dotDiameter are the separate round dot shapes, in modules: circle
// leaves a hair of background between neighbours, dots a clear gap.
var dotDiameter = map[string]float32{ShapeCircle: 0.9, ShapeDots: 0.75}

// dotRuns appends row y's runs of dots: its dark modules less the finders
// and the logo pad. Separators (light) surround the finders, so a run is
// either all finder or none.
func (sc *Scene) dotRuns(runs []int, y int) []int {
	m, lk := sc.matrix, sc.look
	start := len(runs)
	runs = m.AppendDarkRuns(runs, y)
	top, bottom := y < 7, y >= m.Size-7
	padRow := y >= lk.padLo && y < lk.padHi
	if !top && !bottom && !padRow {
		return runs
	}
	end := len(runs)
	for i := start; i < end; i += 2 {
		x0, x1 := runs[i], runs[i+1]
		if ((top || bottom) && x0 < 7) || (top && x0 >= m.Size-7) {
			continue // a finder
		}
		if padRow && x0 < lk.padHi && x1 > lk.padLo { // cut out the pad
			if x0 < lk.padLo {
				runs = append(runs, x0, lk.padLo)
			}
			if x1 > lk.padHi {
				runs = append(runs, lk.padHi, x1)
			}
			continue
		}
		runs = append(runs, x0, x1)
	}
	// The kept runs were appended after the row's; move them into place.
	return runs[:start+copy(runs[start:], runs[end:])]
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
//
// True circles, measured again (versions 2-40, 5-12.5 px per module and
// the default size, PNG, SVG and PDF). Both decoders fit the finder's
// outline, not only the run through its centre: zbar fits lines to the
// midpoints of the ring's runs (qrdec.c, qr_finder_edge_pts_*,
// qr_line_fit_*) and ZXing seeds its grid with the corners of a
// quadrilateral fitted to the ring's edges (ConcentricFinder.cpp,
// FitQadrilateralToPoints), which a circle does not have, while ZXing's
// module size is (outer + hole diameter)/12 along the run through the
// centre. A 7/5-module ring (outer/hole) lost zbar 71 of 594 decodes,
// from 9.5 px per module up; 7.2/5 and 7.4/5.2 lost ZXing 141 and 337 of
// 441 (module size overstated); 7.2/4.8, the best, still lost 7 decodes
// in 214 codes of versions 2-35, misses that come and go with a
// 0.02-module change of the radius; and ZXing missed most codes of
// versions 36-40 with every true circle ring. A true circle centre inside
// a square ring is too short along the diagonal for ZXing: 3.0 modules
// lost 234 of 408 decodes, 3.2 lost 11; 3.4 lost none in 366 codes up to
// version 35 with any ring, but missed ZXing a version 7 framed SVG of
// TestScanCorpus (circle dots, gradient, 5.6 px per module) and the PDF of
// version 37 at 960 px.
//
// The shapes added later sit between these: extra-rounded rings (0.5) and
// centres (0.55) are rounder than curve-square and less than circle. "dot"
// asks for a true circle. As a ring none is read (above), so the guard
// draws the circle ring instead; as a centre it is a true circle of 3.4
// modules (a hair over the 3-module centre, as ZXing's diagonal check
// needs) up to version 33 and the circle centre above, where it missed.
// Measured with zbar, ZXing and OpenCV in TestScanShapes; BENCHMARKS.md
// has the table.
func eyeRadii(eyes, centers string, version int) (outer, inner, center, side float32) {
	var ring float32 // radius as a fraction of the half-size
	switch eyes {
	case ShapeCurveSquare:
		ring = 0.35
	case ShapeExtraRounded:
		ring = 0.5
	case ShapeCircle, ShapeDot:
		ring = 0.6
	}
	if version > 33 {
		ring = min(ring, 0.6-0.07*float32(version-33))
	}
	var c float32
	side = 3
	switch centers {
	case ShapeCurveSquare:
		c = 0.35
	case ShapeExtraRounded:
		c = 0.55
	case ShapeCircle:
		c = 0.74
	case ShapeDot:
		if version > 33 {
			c = 0.74
			break
		}
		side = 3.4
		return ring * 3.5, ring * 2.5, side / 2, side
	}
	return ring * 3.5, ring * 2.5, c * 1.5, side
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
	// A hair of slack: sizes arrive in millimetres, converted.
	if !(v >= minPoints-1e-9 && v <= maxPoints+1e-9) {
		return 0, &StyleError{"size", fmt.Sprintf("The PDF size must be between %.0f and %.0f points (10 mm to 2 m)", minPoints, maxPoints)}
	}
	return v, nil
}

// textRoom is the share of the frame's width the text may take.
const textRoom = 0.9

// layoutFrame grows the image to the frame box (the code plus 20% wide and
// 30% high, as 320 px → 384×416) and adds the frame, its white inner
// padding and the text centred in the bottom band.
func (sc *Scene) layoutFrame(f Frame) error {
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
	pc, pp := rectRoom(pr, false)
	small := newArena(rc+pc, rp+pp)
	box := small.path(paint{color: fc}, rc, rp)
	box.roundRect(sc.x, sc.y, sc.w, sc.h, r, false)
	inner := small.path(paint{color: color.RGBA{0xff, 0xff, 0xff, 0xff}}, pc, pp)
	inner.roundRect(-pad, -pad, n+2*pad, n+2*pad, pr, false)
	sc.paths = append(sc.paths, box, inner)

	// The band below the padding; the text is sized to its height and
	// shrunk to fit the width, measured in the fonts PDF and EPS draw it in.
	bandTop, bandBottom := n+pad, sc.y+sc.h
	size := (bandBottom - bandTop) * 0.5
	line := pdffont.Shape(t, true)
	if w := line.Width * size; w > sc.w*textRoom {
		size *= sc.w * textRoom / w
	}
	base := (bandTop+bandBottom)/2 + size*capHeight/2
	sc.text = &text{s: t, line: line, x: sc.x + sc.w/2, y: base, size: size, width: line.Width * size, color: tc}
	return nil
}

// capHeight of Go Bold in ems, to centre capitals vertically.
const capHeight = 0.723

// textPath is the frame text as the glyph outlines of the fonts the PDF
// embeds, in module space (y down), for the formats that draw text as
// shapes: EPS (no fonts needed) and PNG.
func (sc *Scene) textPath() path {
	t := sc.text
	p := path{paint: paint{color: t.color}}
	left := t.x - t.width/2
	var cx, cy float32 // the current point, for quadratics
	t.line.Outline(func(op byte, pts []float32) {
		for i := 0; i < len(pts); i += 2 {
			pts[i], pts[i+1] = left+pts[i]*t.size, t.y-pts[i+1]*t.size
		}
		switch op {
		case 'm':
			if len(p.cmds) > 0 {
				p.close()
			}
			p.moveTo(pts[0], pts[1])
		case 'l':
			p.lineTo(pts[0], pts[1])
		case 'q': // as the cubic with the same curve
			qx, qy, x, y := pts[0], pts[1], pts[2], pts[3]
			p.cubicTo(cx+2*(qx-cx)/3, cy+2*(qy-cy)/3, x+2*(qx-x)/3, y+2*(qy-y)/3, x, y)
		case 'c':
			p.cubicTo(pts[0], pts[1], pts[2], pts[3], pts[4], pts[5])
		}
		cx, cy = pts[len(pts)-2], pts[len(pts)-1]
	})
	if len(p.cmds) > 0 {
		p.close()
	}
	return p
}

// pixelScale is the PNG/SVG pixels per module and the image size.
func (sc *Scene) pixelScale() (s float64, w, h int) {
	s = float64(sc.pixels) / float64(sc.n)
	return s, int(math.Round(float64(sc.w) * s)), int(math.Round(float64(sc.h) * s))
}

// Modules is the code's width in modules, quiet zone included.
func (sc *Scene) Modules() int { return sc.n }
