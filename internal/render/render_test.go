package render

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/testenv"
)

// testLogo is a logo with many colours and a transparent surround.
func testLogo(n int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			dx, dy := float64(x)-float64(n)/2+0.5, float64(y)-float64(n)/2+0.5
			a := uint8(255)
			if math.Hypot(dx, dy) > float64(n)/2 {
				a = 0
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / n), uint8(y * 255 / n), uint8(128 + 127*math.Sin(math.Atan2(dy, dx))), a})
		}
	}
	return img
}

func logoPNG(t testing.TB) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testLogo(120)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encode(t testing.TB, data string, l qr.Level, s Style) *qr.Matrix {
	t.Helper()
	m, err := Encode([]byte(data), l, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func layout(t testing.TB, m *qr.Matrix, s Style) *Scene {
	t.Helper()
	sc, err := Layout(m, s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func svgOf(t testing.TB, sc *Scene) string {
	t.Helper()
	var b bytes.Buffer
	if err := sc.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func pngOf(t testing.TB, sc *Scene) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := sc.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pdfOf(t testing.TB, sc *Scene) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := sc.WritePDF(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var styled = Style{Dots: ShapeRounded, Eyes: ShapeCircle, EyeCenters: ShapeCurveSquare, Gradient: "#0000AA"}

func TestPNGExactDimensions(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	for _, s := range []Style{{}, styled} {
		for _, px := range []int{66, 165, 255, 320, 960, 1001} {
			if px < layout(t, m, s).minPixels() {
				continue // 66 is for the plain code only: 2 px per module
			}
			s.Pixels = px
			cfg, err := png.DecodeConfig(bytes.NewReader(pngOf(t, layout(t, m, s))))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != px || cfg.Height != px {
				t.Errorf("style %+v: %d px gave %d×%d", s, px, cfg.Width, cfg.Height)
			}
		}
	}
}

func TestPNGTooSmallForTheCode(t *testing.T) {
	m := encode(t, strings.Repeat("x", 500), qr.M, Style{}) // a big symbol
	sc := layout(t, m, Style{Pixels: 60})
	var se *StyleError
	if err := sc.WritePNG(&bytes.Buffer{}); !errors.As(err, &se) || se.Field != "size" {
		t.Fatalf("got %v, want a size StyleError", err)
	}
}

func TestFrameDimensions(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	frame := Frame{Enabled: true}
	for _, c := range []struct{ px, w, h int }{{320, 384, 416}, {960, 1152, 1248}, {192, 230, 250}} {
		sc := layout(t, m, Style{Pixels: c.px, Frame: frame})
		cfg, err := png.DecodeConfig(bytes.NewReader(pngOf(t, sc)))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("%d px with a frame: PNG %d×%d, want %d×%d", c.px, cfg.Width, cfg.Height, c.w, c.h)
		}
		svg := svgOf(t, sc)
		if want := `width="` + strconv.Itoa(c.w) + `" height="` + strconv.Itoa(c.h) + `"`; !strings.Contains(svg, want) {
			t.Errorf("%d px with a frame: SVG lacks %s", c.px, want)
		}
		if !strings.Contains(svg, ">SCAN ME</text>") {
			t.Errorf("SVG lacks the default frame text")
		}
	}
	// PDF: the page grows by the same proportions.
	sc := layout(t, m, Style{Points: 200, Frame: frame})
	box := regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`).FindSubmatch(pdfOf(t, sc))
	if box == nil {
		t.Fatal("no MediaBox")
	}
	w, _ := strconv.ParseFloat(string(box[1]), 64)
	h, _ := strconv.ParseFloat(string(box[2]), 64)
	if math.Abs(w-240) > 0.01 || math.Abs(h-260) > 0.01 {
		t.Errorf("PDF page %v×%v, want 240×260", w, h)
	}
}

// A 40-character frame text is pinned to the width it was fitted at, inside
// the frame, whatever font the viewer has (issue 21).
func TestFrameTextPinnedToItsWidth(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	sc := layout(t, m, Style{Pixels: 320, Frame: Frame{Enabled: true, Text: "SCAN TO SEE OUR FULL MENU AND PRICES NOW"}})
	svg := svgOf(t, sc)
	got := regexp.MustCompile(`<svg[^>]* viewBox="([-0-9.]+) [-0-9.]+ ([0-9.]+) [0-9.]+"[\s\S]*<text x="([-0-9.]+)"[^>]* textLength="([0-9.]+)" lengthAdjust="spacingAndGlyphs"`).FindStringSubmatch(svg)
	if got == nil {
		t.Fatalf("no viewBox or pinned text in %s", svg)
	}
	num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	left, width, mid, length := num(got[1]), num(got[2]), num(got[3]), num(got[4])
	if length <= 0 || mid-length/2 < left || mid+length/2 > left+width {
		t.Errorf("text of length %v centred at %v leaves the frame [%v, %v]", length, mid, left, left+width)
	}
}

func TestSVGHasNoClipOrMaskAndEmbedsTheLogo(t *testing.T) {
	s := styled
	s.Logo = logoPNG(t)
	s.Frame = Frame{Enabled: true, Text: `Scan <me> & "go"`}
	sc := layout(t, encode(t, "https://example.com/a", qr.M, s), s)
	svg := svgOf(t, sc)
	for _, bad := range []string{"clip-path", "clipPath", "mask"} {
		if strings.Contains(svg, bad) {
			t.Errorf("SVG contains %q", bad)
		}
	}
	for _, attr := range []string{` href="data:image/png;base64,`, ` xlink:href="data:image/png;base64,`} {
		i := strings.Index(svg, attr)
		if i < 0 {
			t.Fatalf("SVG lacks %s", attr)
		}
		data := svg[i+len(attr):]
		data = data[:strings.IndexByte(data, '"')]
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil || img.Bounds().Dx() != 120 {
			t.Fatalf("embedded logo: %v, %v", err, img)
		}
	}
	if !strings.Contains(svg, "<linearGradient") || !strings.Contains(svg, "Scan &lt;me&gt; &amp; &#34;go&#34;</text>") {
		t.Errorf("SVG lacks the gradient or the escaped frame text:\n%s", svg[:min(len(svg), 2000)])
	}
}

func TestEyeColorsDefaultToTheForeground(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	sc := layout(t, m, Style{Foreground: "#123456"})
	fill := regexp.MustCompile(`<path fill="([^"]+)"`)
	var fills []string
	for _, f := range fill.FindAllStringSubmatch(svgOf(t, sc), -1) {
		fills = append(fills, f[1])
	}
	// Background, then dots and eyes as one path (a plain code's SVG).
	if want := []string{"#FFFFFF", "#123456"}; strings.Join(fills, ",") != strings.Join(want, ",") {
		t.Errorf("fills %v, want %v", fills, want)
	}
	sc = layout(t, m, Style{Foreground: "#123456", EyeColor: "#AA0000", EyeCenterColor: "#00" + "5500"})
	fills = fills[:0]
	for _, f := range fill.FindAllStringSubmatch(svgOf(t, sc), -1) {
		fills = append(fills, f[1])
	}
	if want := []string{"#FFFFFF", "#123456", "#AA0000", "#005500"}; strings.Join(fills, ",") != strings.Join(want, ",") {
		t.Errorf("fills %v, want %v", fills, want)
	}
	// With a gradient, eyes without their own colour take the foreground,
	// or the gradient with GradientOnEyes; their own colour wins either way.
	for _, c := range []struct {
		s    Style
		want int
		eyes string
	}{
		{Style{Foreground: "#123456", Gradient: "#0000AA"}, 1, "#123456"},
		{Style{Gradient: "#0000AA", GradientOnEyes: true}, 3, ""},
		{Style{Gradient: "#0000AA", GradientOnEyes: true, EyeColor: "#AA0000"}, 2, "#AA0000"},
	} {
		svg := svgOf(t, layout(t, m, c.s))
		if n := strings.Count(svg, `fill="url(#`); n != c.want {
			t.Errorf("%+v: %d paths use the gradient, want %d", c.s, n, c.want)
		}
		if c.eyes != "" && !strings.Contains(svg, `<path fill="`+c.eyes+`"`) {
			t.Errorf("%+v: no eye path in %s", c.s, c.eyes)
		}
	}
}

// TestGradientGeometry checks where the gradient runs: 135° (the default)
// corner to corner as before, 90° left to right, 0° bottom to top, radial
// from the centre to the corners; and that each writer says so.
func TestGradientGeometry(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	lo, hi := float32(QuietZone), float32(QuietZone+m.Size)
	c := (lo + hi) / 2
	angle := func(a int) *int { return &a }
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-3 }
	for _, tc := range []struct {
		s                 Style
		x0, y0, x1, y1, r float32
		svg, pdf          string
	}{
		{Style{}, lo, lo, hi, hi, 0, "<linearGradient", "/ShadingType 2"},
		{Style{GradientAngle: angle(135)}, lo, lo, hi, hi, 0, "<linearGradient", "/ShadingType 2"},
		{Style{GradientAngle: angle(90)}, lo, c, hi, c, 0, "<linearGradient", "/ShadingType 2"},
		{Style{GradientAngle: angle(0)}, c, hi, c, lo, 0, "<linearGradient", "/ShadingType 2"},
		{Style{GradientType: GradientRadial, GradientAngle: angle(10)}, c, c, 0, 0, (hi - lo) / 2 * math.Sqrt2, "<radialGradient", "/ShadingType 3"},
	} {
		s := tc.s
		s.Gradient = "#0000AA"
		sc := layout(t, m, s)
		g := sc.grad
		if g.radial {
			if !near(g.x0, tc.x0) || !near(g.y0, tc.y0) || !near(g.r, tc.r) {
				t.Errorf("%+v: radial at (%v,%v) r %v, want (%v,%v) r %v", tc.s, g.x0, g.y0, g.r, tc.x0, tc.y0, tc.r)
			}
		} else if !near(g.x0, tc.x0) || !near(g.y0, tc.y0) || !near(g.x1, tc.x1) || !near(g.y1, tc.y1) {
			t.Errorf("%+v: line (%v,%v)-(%v,%v), want (%v,%v)-(%v,%v)", tc.s, g.x0, g.y0, g.x1, g.y1, tc.x0, tc.y0, tc.x1, tc.y1)
		}
		if svg := svgOf(t, sc); !strings.Contains(svg, tc.svg) {
			t.Errorf("%+v: SVG lacks %s", tc.s, tc.svg)
		}
		var pdf, eps bytes.Buffer
		if err := sc.WritePDF(&pdf); err != nil {
			t.Fatal(err)
		}
		if err := sc.WriteEPS(&eps); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(eps.String(), tc.pdf) {
			t.Errorf("%+v: EPS lacks %s", tc.s, tc.pdf)
		}
	}
	// The PNG: a radial gradient is the foreground at the centre and
	// lighter towards the corners, a 90° one changes along x only.
	img, err := png.Decode(bytes.NewReader(pngOf(t, layout(t, m, Style{Gradient: "#FF0000", GradientType: GradientRadial, Pixels: (m.Size + 2*QuietZone) * 10}))))
	if err != nil {
		t.Fatal(err)
	}
	// Dark modules nearest the centre and a corner (a finder's, which
	// takes the foreground; the dots next to it are the gradient's).
	redness := func(x, y int) uint32 { r, _, _, _ := img.At(x, y).RGBA(); return r >> 8 }
	var centre, edge uint32
	for y := range m.Size {
		for x := range m.Size {
			if !m.Dark(x, y) || m.Role(x, y) == qr.RoleFinder {
				continue
			}
			r := redness((QuietZone+x)*10+5, (QuietZone+y)*10+5)
			if d := abs(x-m.Size/2) + abs(y-m.Size/2); d <= 2 {
				centre = max(centre, r)
			} else if d >= m.Size-9 {
				edge = max(edge, r)
			}
		}
	}
	if !(centre < 60 && edge > 120) {
		t.Errorf("radial PNG: red %d near the centre, %d near the edge", centre, edge)
	}
}

// TestGradientRefusals: an angle outside 0-359, an unknown type, and a
// gradient whose lightest stop is too light: an end in any colour space,
// or a CMYK mid-point lighter than both ends.
func TestGradientRefusals(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	angle := func(a int) *int { return &a }
	for _, c := range []struct {
		s     Style
		field string
	}{
		{Style{Gradient: "#0000AA", GradientAngle: angle(360)}, "gradientAngle"},
		{Style{Gradient: "#0000AA", GradientAngle: angle(-1)}, "gradientAngle"},
		{Style{GradientAngle: angle(400)}, "gradientAngle"},
		{Style{Gradient: "#0000AA", GradientType: "conic"}, "gradientType"},
		{Style{Gradient: "#DDDDDD"}, "gradientColor"},
		{Style{Foreground: "#DDDDDD", Gradient: "#000000"}, "fgColor"},
		// Light blue to grey: in CMYK the middle is 1.3 times lighter
		// (contrast) than the lighter end; fine in RGB, refused in CMYK.
		{Style{Foreground: "#4040FF", Gradient: "#606060", Background: "#C2C2C2", CMYK: true}, "gradientColor"},
	} {
		_, err := Layout(m, c.s)
		var se *StyleError
		if !errors.As(err, &se) || se.Field != c.field {
			t.Errorf("%+v: %v, want a refusal of %s", c.s, err, c.field)
		}
	}
	if _, err := Layout(m, Style{Foreground: "#4040FF", Gradient: "#606060", Background: "#C2C2C2"}); err != nil {
		t.Errorf("the same gradient in RGB: %v", err)
	}
}

func TestRefusedStyles(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	mH := encode(t, "https://example.com/a", qr.H, Style{})
	v1 := encode(t, "hi", qr.L, Style{})
	cases := []struct {
		name  string
		m     *qr.Matrix
		s     Style
		field string
		text  string
	}{
		{"low contrast", m, Style{Foreground: "#AAAAAA"}, "fgColor", "contrast"},
		{"inverted", m, Style{Foreground: "#FFFFFF", Background: "#000000"}, "fgColor", "Inverted colours: the code must be darker than its background for enough contrast"},
		{"inverted but both dark", m, Style{Foreground: "#222222", Background: "#111111"}, "fgColor", "contrast"},
		{"low contrast gradient", m, Style{Gradient: "#CCCCCC"}, "gradientColor", "contrast"},
		{"light gradient on dark", m, Style{Foreground: "#000000", Background: "#777777", Gradient: "#FFFFFF"}, "gradientColor", "Inverted"},
		{"low contrast eye", m, Style{EyeColor: "#DDDDDD"}, "outerCornerColor", "contrast"},
		{"low contrast eye centre", m, Style{EyeCenterColor: "#EEEEEE"}, "innerCornerColor", "contrast"},
		{"bad foreground", m, Style{Foreground: "black"}, "fgColor", "hex"},
		{"bad background", m, Style{Background: "#12345"}, "bgColor", "hex"},
		{"bad frame colour", m, Style{Frame: Frame{Enabled: true, Color: "#xyz"}}, "frameColor", "hex"},
		{"bad frame text colour", m, Style{Frame: Frame{Enabled: true, TextColor: "white"}}, "frameTextColor", "hex"},
		{"unknown dots", m, Style{Dots: "star"}, "dotShape", "star"},
		{"unknown eyes", m, Style{Eyes: "rounded"}, "cornerShape", "rounded"},
		{"unknown eye centres", m, Style{EyeCenters: "diamond"}, "innerCornerShape", "diamond"},
		{"unknown frame style", m, Style{Frame: Frame{Enabled: true, Style: "fancy"}}, "frameStyle", "fancy"},
		{"frame text too long", m, Style{Frame: Frame{Enabled: true, Text: strings.Repeat("A", 41)}}, "frameText", "40"},
		{"logo below H", m, Style{Logo: logoPNG(t)}, "logo", "level H"},
		{"logo not an image", mH, Style{Logo: []byte("%PDF-1.4 not an image")}, "logo", "PNG, JPEG, GIF or WebP"},
		{"unknown logo size", mH, Style{Logo: logoPNG(t), LogoSize: "huge"}, "logoSize", "huge"},
		{"pixels too large", m, Style{Pixels: 5000}, "size", "pixels"},
		{"pixels negative", m, Style{Pixels: -3}, "size", "pixels"},
		{"points too small", m, Style{Points: 10}, "size", "points"},
		{"points not a number", m, Style{Points: math.NaN()}, "size", "points"},
		{"rounded eyes on version 1", v1, Style{Eyes: ShapeCircle}, "cornerShape", "version 2"},
	}
	for _, c := range cases {
		_, err := Layout(c.m, c.s)
		var se *StyleError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a *StyleError", c.name, err)
			continue
		}
		if se.Field != c.field || !strings.Contains(se.Message, c.text) {
			t.Errorf("%s: got %q / %q, want field %q and a message containing %q", c.name, se.Field, se.Message, c.field, c.text)
		}
	}
}

func TestLogoFormats(t *testing.T) {
	logo := testLogo(64)
	webp, err := os.ReadFile("testdata/logo.webp") // made with cwebp from a testLogo-like PNG
	if err != nil {
		t.Fatal(err)
	}
	var pngB, jpgB, gifB bytes.Buffer
	if err := png.Encode(&pngB, logo); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgB, logo, nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gifB, logo, nil); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"png": pngB.Bytes(), "jpeg": jpgB.Bytes(), "gif": gifB.Bytes(), "webp": webp} {
		img, err := decodeLogo(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if b := img.Bounds(); b.Dx() == 0 || b.Dx() != b.Dy() {
			t.Errorf("%s: decoded %v", name, b)
		}
		// The centre is opaque and colourful, so the decoder really read it.
		c := img.NRGBAAt(img.Bounds().Dx()/2, img.Bounds().Dy()/2)
		if c.A < 200 || (c.R == c.G && c.G == c.B) {
			t.Errorf("%s: centre pixel %v", name, c)
		}
	}
	// Large logos are resampled so SVG and PDF stay small.
	var big bytes.Buffer
	if err := png.Encode(&big, testLogo(1500)); err != nil {
		t.Fatal(err)
	}
	img, err := decodeLogo(big.Bytes())
	if err != nil || img.Bounds().Dx() != logoMaxSide {
		t.Errorf("big logo: %v, %v", img.Bounds(), err)
	}
}

func TestPDFParsesAndSVGRenders(t *testing.T) {
	pdftoppm := testenv.Command(t, "pdftoppm")
	rsvg := testenv.Command(t, "rsvg-convert")
	dir := t.TempDir()
	s := styled
	s.Logo = logoPNG(t)
	s.Frame = Frame{Enabled: true, Text: "Scan (me) \\ café"}
	for i, st := range []Style{{}, s} {
		sc := layout(t, encode(t, "https://example.com/a", qr.M, st), st)
		pdf := filepath.Join(dir, strconv.Itoa(i)+".pdf")
		svg := filepath.Join(dir, strconv.Itoa(i)+".svg")
		if err := os.WriteFile(pdf, pdfOf(t, sc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(svg, []byte(svgOf(t, sc)), 0o600); err != nil {
			t.Fatal(err)
		}
		// pdftoppm reports xref or syntax trouble on stderr even when it
		// manages to render, so stderr must stay empty.
		cmd := exec.Command(pdftoppm, "-png", "-r", "72", "-singlefile", pdf, filepath.Join(dir, "pdf"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("pdftoppm: %v %s", err, stderr.String())
		}
		out, err := exec.Command(rsvg, "-w", "300", svg).Output()
		if err != nil {
			t.Fatalf("rsvg-convert: %v", err)
		}
		if cfg, err := png.DecodeConfig(bytes.NewReader(out)); err != nil || cfg.Width != 300 {
			t.Errorf("rsvg-convert output: %v %v", cfg, err)
		}
	}
}

func TestPDFCrossReferenceOffsets(t *testing.T) {
	s := styled
	s.Logo = logoPNG(t)
	s.Frame = Frame{Enabled: true}
	pdf := pdfOf(t, layout(t, encode(t, "https://example.com/a", qr.M, s), s))
	start := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(pdf)
	if start == nil {
		t.Fatal("no startxref at the end")
	}
	off, _ := strconv.Atoi(string(start[1]))
	if !bytes.HasPrefix(pdf[off:], []byte("xref\n0 ")) {
		t.Fatalf("startxref %d does not point at the xref table", off)
	}
	entries := regexp.MustCompile(`(\d{10}) 00000 n \n`).FindAllSubmatch(pdf[off:], -1)
	if len(entries) < 5 {
		t.Fatalf("only %d xref entries", len(entries))
	}
	for i, e := range entries {
		o, _ := strconv.Atoi(string(e[1]))
		if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(pdf[o:], []byte(want)) {
			t.Errorf("xref entry %d points at %q", i+1, pdf[o:min(len(pdf), o+12)])
		}
	}
}

// TestLogoPadSizes checks every version: a pad only where no alignment
// pattern is at the centre, odd, growing with the size, clear of the
// finders, separators and timing patterns, and hiding no alignment module.
func TestLogoPadSizes(t *testing.T) {
	logo := logoFiles(t)[0]
	for v := 1; v <= 40; v++ {
		m, err := qr.Encode([]byte("x"), qr.Options{Level: qr.H, Version: v})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Layout(m, Style{Logo: logo})
		if centre := v >= 7 && v <= 13 || v >= 21 && v <= 27 || v >= 35; centre != (err != nil) {
			t.Fatalf("v%d: centre alignment pattern %v, Layout error %v", v, centre, err)
		}
		if err != nil {
			continue
		}
		prev := 0
		for _, size := range []string{LogoSmall, LogoMedium, LogoLarge} {
			k := padSide(m, size)
			lo := (m.Size - k) / 2
			if k%2 != 1 || k < prev || k < 3 || lo < 9 || lo+k > m.Size-8 {
				t.Fatalf("v%d %s: pad %d at %d (previous size %d)", v, size, k, lo, prev)
			}
			prev = k
			for y := lo; y < lo+k; y++ {
				for x := lo; x < lo+k; x++ {
					if r := m.Role(x, y); r != qr.RoleData {
						t.Fatalf("v%d %s: the %d-module pad hides a module of role %d at (%d,%d)", v, size, k, r, x, y)
					}
				}
			}
		}
	}
	// Version 4 (33 modules, its one alignment pattern near a corner).
	m, _ := qr.Encode([]byte("x"), qr.Options{Level: qr.H, Version: 4})
	if k := padSide(m, LogoLarge); k != 11 {
		t.Errorf("v4 large pad = %d, want 11", k)
	}
}

func TestPlainPNGIsTwoColours(t *testing.T) {
	m := encode(t, "https://example.com/a", qr.M, Style{})
	img, err := png.Decode(bytes.NewReader(pngOf(t, layout(t, m, Style{Foreground: "#112233", Pixels: 330}))))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := img.(*image.Paletted)
	if !ok || len(p.Palette) != 2 {
		t.Fatalf("plain code decoded as %T", img)
	}
	// Module (0,0) is dark (finder corner); the quiet zone is background.
	s := 330.0 / float64(m.Size+2*QuietZone)
	if c := p.At(int(s*4.5), int(s*4.5)); c != (color.RGBA{0x11, 0x22, 0x33, 0xff}) {
		t.Errorf("finder corner is %v", c)
	}
	if c := p.At(int(s*2), int(s*2)); c != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("quiet zone is %v", c)
	}
}

// TestPlainPNGIsTheMatrix decodes plain PNGs of small and large symbols
// at several sizes, in colour and with a transparent background, and
// checks every pixel against the matrix: the PNG's zlib stream is written
// by hand (deflate.go), so image/png's inflater and checksum check it.
func TestPlainPNGIsTheMatrix(t *testing.T) {
	for _, data := range []string{"a", "https://example.com/a", strings.Repeat("x", 200), strings.Repeat("Zz9", 900)} {
		m := encode(t, data, qr.L, Style{})
		n := m.Size + 2*QuietZone
		for _, px := range []int{2 * n, 2*n + 7, 333, 960, 2049} {
			if px < 2*n {
				continue // a large symbol at a size for a small one
			}
			for _, s := range []Style{{Pixels: px}, {Pixels: px, Foreground: "#112233", Transparent: true}} {
				img, err := png.Decode(bytes.NewReader(pngOf(t, layout(t, m, s))))
				if err != nil {
					t.Fatalf("version size %d, %d px: %v", m.Size, px, err)
				}
				p := img.(*image.Paletted)
				k, off, _ := snap(float64(px)/float64(n), 0, 0, n)
				bad := 0
				for y := range px {
					for x := range px {
						mx, my := int(math.Floor((float64(x)-off)/k))-QuietZone, int(math.Floor((float64(y)-off)/k))-QuietZone
						want := mx >= 0 && my >= 0 && mx < m.Size && my < m.Size && m.Dark(mx, my)
						if got := p.ColorIndexAt(x, y) == 1; got != want {
							bad++
						}
					}
				}
				if bad > 0 || p.Bounds().Dx() != px || p.Bounds().Dy() != px {
					t.Errorf("version size %d, %d px, %+v: %d pixels wrong, %v", m.Size, px, s, bad, p.Bounds())
				}
			}
		}
	}
}
