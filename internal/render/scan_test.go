package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/testenv"
)

// These tests prove that what the renderer accepts scans: every output is
// written as PNG, SVG (rasterised by rsvg-convert) and PDF (rasterised by
// pdftoppm), and read by two decoders we did not write, zbar and ZXing,
// which must both return the exact payload bytes.

type decoders struct {
	zbar, zxing, rsvg, pdftoppm string
}

func needDecoders(t *testing.T) decoders {
	return decoders{
		zbar:     testenv.Command(t, "zbarimg"),
		zxing:    testenv.Command(t, "ZXingReader"),
		rsvg:     testenv.Command(t, "rsvg-convert"),
		pdftoppm: testenv.Command(t, "pdftoppm"),
	}
}

func run(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s: %v: %s", filepath.Base(name), err, clip(stderr.Bytes()))
	}
	return out, nil
}

// decode reads a PNG with both decoders and reports each one that does
// not return want exactly.
func (d decoders) decode(file string, want []byte) (zbarErr, zxingErr error) {
	// With -Sbinary zbar writes the bytes alone, with no newline.
	out, err := run(d.zbar, "--raw", "-q", "-Sbinary", file)
	if err != nil || !bytes.Equal(out, want) {
		zbarErr = fmt.Errorf("zbar read %q (%v)", clip(out), err)
	}
	out, err = run(d.zxing, "-bytes", "-format", "QRCode", file)
	if err != nil || !bytes.Equal(out, want) {
		zxingErr = fmt.Errorf("ZXing read %q (%v)", clip(out), err)
	}
	return zbarErr, zxingErr
}

func clip(b []byte) []byte { return b[:min(len(b), 60)] }

// scanCase is one rendering to check in all three formats.
type scanCase struct {
	name    string
	data    []byte
	level   qr.Level
	version int // 0: the smallest that fits
	style   Style
	ppm     float64 // pixels per module for the rasterised outputs
}

// check renders c in all formats and decodes each: both decoders must
// read every output.
func (d decoders) check(dir string, c scanCase) error {
	m, err := encodeCase(c)
	if err != nil {
		return err
	}
	s := c.style
	n := float64(m.Size + 2*QuietZone)
	s.Pixels = int(math.Round(c.ppm * n))
	sc, err := Layout(m, s)
	if err != nil {
		return err
	}
	base := filepath.Join(dir, c.name)
	var errs []error
	fail := func(format string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s (v%d-%v, %s): %w", format, m.Version, m.Level, base, err))
		}
	}
	note := func(format string, zbarErr, zxingErr error) {
		fail(format, zbarErr)
		fail(format, zxingErr)
	}
	var png, svg, pdf bytes.Buffer
	if err := sc.WritePNG(&png); err != nil {
		return err
	}
	if err := sc.WriteSVG(&svg); err != nil {
		return err
	}
	if err := sc.WritePDF(&pdf); err != nil {
		return err
	}
	for ext, b := range map[string][]byte{".png": png.Bytes(), ".svg": svg.Bytes(), ".pdf": pdf.Bytes()} {
		if err := os.WriteFile(base+ext, b, 0o600); err != nil {
			return err
		}
	}
	zb, zx := d.decode(base+".png", c.data)
	note("PNG", zb, zx)

	// The vector formats are rasterised at a slightly different scale, so
	// module edges land elsewhere on the pixel grid.
	_, pw, _ := sc.pixelScale()
	w := int(float64(pw) * 1.07)
	if _, err := run(d.rsvg, "-w", strconv.Itoa(w), "-b", "white", "-o", base+"-svg.png", base+".svg"); err != nil {
		fail("SVG", err)
	} else {
		zb, zx := d.decode(base+"-svg.png", c.data)
		note("SVG", zb, zx)
	}
	dpi := c.ppm * 1.13 * n / sc.points * 72
	if _, err := run(d.pdftoppm, "-png", "-r", strconv.FormatFloat(dpi, 'f', 1, 64), "-singlefile", base+".pdf", base+"-pdf"); err != nil {
		fail("PDF", err)
	} else {
		zb, zx := d.decode(base+"-pdf.png", c.data)
		note("PDF", zb, zx)
	}
	return errors.Join(errs...)
}

// encodeCase encodes at the case's level and version, raised as the style
// requires (H for a logo, version 2 for rounded eyes, a version that can
// take a logo); with no such version, or one too small for the data, it
// takes what Encode picks.
func encodeCase(c scanCase) (*qr.Matrix, error) {
	v := c.version
	if v != 0 {
		v = max(v, MinVersion(c.style))
		if len(c.style.Logo) > 0 {
			v = logoVersion(v)
		}
	}
	if v == 0 {
		return Encode(c.data, c.level, c.style)
	}
	m, err := qr.Encode(c.data, qr.Options{Level: RequiredLevel(c.style, c.level), Version: v})
	if errors.Is(err, qr.ErrTooBig) {
		return Encode(c.data, c.level, c.style)
	}
	return m, err
}

// runCases checks cases through two workers: the decoders are external
// processes and the machine is shared.
func runCases(t *testing.T, cases []scanCase) {
	d := needDecoders(t)
	dir := t.TempDir()
	if keep := os.Getenv("RENDER_SCAN_DIR"); keep != "" { // to look at failures
		dir = keep
	}
	work := make(chan scanCase)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for c := range work {
				if err := d.check(dir, c); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			}
		})
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
}

var payloads = []struct {
	name string
	data []byte
}{
	{"url", []byte("https://squarely.example/r/Ab3xY9?utm_source=qr&utm_medium=print")},
	{"numeric", []byte("0123456789876543210012345678909876543210")},
	{"alnum", []byte("HELLO WORLD $%*+-./: SQUARELY 2026")},
	{"utf8", []byte("Crème brûlée – 東京タワー 🗼 ¡olé! Ünïcödé")},
	{"vcard", []byte("BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nFN:Jane Doe\nORG:Squarely\nTEL;TYPE=CELL:+1 555 0100\nEMAIL:jane@example.com\nURL:https://squarely.example\nEND:VCARD")},
	{"bytes", func() []byte {
		b := make([]byte, 64)
		for i := range b {
			b[i] = byte(i*37 + 11) // every byte value class, including NUL and high bytes
		}
		return b
	}()},
}

// logoFiles returns the test logo in every accepted format.
func logoFiles(t *testing.T) [][]byte {
	img := testLogo(120)
	var p, j, g bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&g, img, nil); err != nil {
		t.Fatal(err)
	}
	webp, err := os.ReadFile("testdata/logo.webp")
	if err != nil {
		t.Fatal(err)
	}
	return [][]byte{p.Bytes(), j.Bytes(), g.Bytes(), webp}
}

// TestScanCorpus covers, across its cases rather than as a full cross
// product: every payload kind, versions from 1 to 40, all four levels,
// all 27 dots × eyes × eye-centre combinations, gradients, eye colours,
// logos of every size and format, and both frame styles.
func TestScanCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes many images")
	}
	logos := logoFiles(t)
	dots := []string{ShapeSquare, ShapeCircle, ShapeRounded}
	eyes := []string{ShapeSquare, ShapeCurveSquare, ShapeCircle}
	versions := []int{1, 2, 5, 7, 10, 15, 20, 27, 33, 40, 0}
	levels := []qr.Level{qr.L, qr.M, qr.Q, qr.H}
	fgs := []string{"#000000", "#1A237E", "#5B2C00", "#004D40", "#4A148C"}
	bgs := []string{"#FFFFFF", "#FFF8E1", "#E3F2FD"}
	ppms := []float64{5, 5.6, 6.5, 8, 10}
	logoSizes := []string{LogoSmall, LogoMedium, LogoLarge}

	var cases []scanCase
	i := 0
	for _, d := range dots {
		for _, e := range eyes {
			for _, c := range eyes {
				p := payloads[i%len(payloads)]
				s := Style{
					Dots: d, Eyes: e, EyeCenters: c,
					Foreground: fgs[i%len(fgs)],
					Background: bgs[i%len(bgs)],
				}
				if i%2 == 1 {
					s.Gradient = "#C2185B"
				}
				if i%5 == 2 {
					s.EyeColor, s.EyeCenterColor = "#B71C1C", "#0D47A1"
				}
				if i%3 == 0 {
					s.Logo = logos[(i/3)%len(logos)]
					s.LogoSize = logoSizes[(i/3)%len(logoSizes)]
				}
				if i%4 == 3 {
					s.Frame = Frame{Enabled: true, Text: "Scan me – café", Style: []string{FrameRounded, FrameSquare}[(i/4)%2]}
				}
				cases = append(cases, scanCase{
					name:    fmt.Sprintf("%02d-%s-%s-%s-%s", i, p.name, d, e, c),
					data:    p.data,
					level:   levels[i%len(levels)],
					version: versions[i%len(versions)],
					style:   s,
					ppm:     ppms[i%len(ppms)],
				})
				i++
			}
		}
	}
	// Every payload kind in a plain code at a level and version of its own.
	for j, p := range payloads {
		cases = append(cases, scanCase{
			name: "plain-" + p.name, data: p.data,
			level: levels[(j+1)%4], version: versions[(j*3+4)%len(versions)], ppm: ppms[j%len(ppms)],
		})
	}
	runCases(t, cases)
}

// TestScanBoundaries checks styles just inside the limits still decode.
func TestScanBoundaries(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes many images")
	}
	// The lightest grey that is still accepted on white, and the next one
	// up, which is refused.
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	g := 0
	for Contrast(color.RGBA{uint8(g + 1), uint8(g + 1), uint8(g + 1), 0xff}, white) >= MinContrast {
		g++
	}
	grey := fmt.Sprintf("#%02X%02X%02X", g, g, g)
	lighter := fmt.Sprintf("#%02X%02X%02X", g+1, g+1, g+1)
	m := encode(t, "https://squarely.example", qr.M, Style{})
	if _, err := Layout(m, Style{Foreground: lighter}); err == nil {
		t.Fatalf("%s on white was accepted", lighter)
	}
	// The darkest background a black code is accepted on.
	b := 0
	for Contrast(color.RGBA{0, 0, 0, 0xff}, color.RGBA{uint8(b), uint8(b), uint8(b), 0xff}) < MinContrast {
		b++
	}
	darkBg := fmt.Sprintf("#%02X%02X%02X", b, b, b)

	logo := logoFiles(t)[0]
	url := payloads[0].data
	cases := []scanCase{
		{name: "grey-on-white", data: url, level: qr.M, style: Style{Foreground: grey}, ppm: 5},
		{name: "grey-styled", data: url, level: qr.Q, style: Style{Foreground: grey, Dots: ShapeCircle, Eyes: ShapeCircle, EyeCenters: ShapeCircle}, ppm: 6},
		{name: "black-on-dark-bg", data: url, level: qr.M, style: Style{Background: darkBg, Dots: ShapeRounded}, ppm: 5},
		{name: "gradient-to-grey", data: url, level: qr.M, style: Style{Gradient: grey, Dots: ShapeRounded}, ppm: 5},
		{name: "grey-eyes", data: url, level: qr.M, style: Style{EyeColor: grey, EyeCenterColor: grey, Eyes: ShapeCurveSquare}, ppm: 5},
		{name: "plain-2ppm", data: url, level: qr.M, ppm: 2},
		{name: "styled-5ppm", data: url, level: qr.M, style: Style{Dots: ShapeCircle, Eyes: ShapeCircle, EyeCenters: ShapeCircle, Gradient: "#C2185B"}, ppm: 5},
	}
	// The largest logo, with the hardest shapes, across the versions that
	// take a logo (those with no alignment pattern at the centre: 1-6,
	// 14-20, 28-34). A subset of a one-off sweep, versions 1-34 × the
	// three logo sizes × three shape sets (square; circle dots and eyes
	// with a gradient; rounded dots, curve-square eyes, circle centres) ×
	// a URL and a UTF-8 payload filling the version at H, at 5 to 10
	// pixels per module: 360 renderings, each in three formats, all read
	// by both decoders. Before the pads kept clear of alignment patterns
	// and the versions with one at the centre were avoided, zbar missed
	// codes whose logo hid one; and ZXing missed PNGs of versions 30 and
	// up at some fractional scales, logo or not, until PNG modules were
	// snapped to whole pixels (see snap; the large-version cases below).
	for _, v := range []int{1, 2, 3, 4, 5, 6, 14, 17, 20, 28, 31, 34} {
		for _, d := range []string{ShapeSquare, ShapeCircle} {
			s := Style{Logo: logo, LogoSize: LogoLarge, Dots: d, Eyes: ShapeCircle, EyeCenters: ShapeCircle, Gradient: "#C2185B"}
			if d == ShapeSquare {
				s = Style{Logo: logo, LogoSize: LogoLarge, Foreground: grey}
			}
			cases = append(cases, scanCase{name: fmt.Sprintf("large-logo-v%d-%s", v, d), data: url[:min(len(url), 5+v)], level: qr.H, version: v, style: s, ppm: 5})
		}
	}
	// Large versions at scales where ZXing missed PNGs whose modules were
	// not whole pixels wide (see snap), including the default 960 px.
	long := bytes.Repeat([]byte("https://squarely.example/r/large?q="), 20)
	for _, c := range []struct {
		v   int
		ppm float64
		s   Style
	}{
		{31, 5.6, Style{}},
		{34, 5.6, Style{Dots: ShapeRounded}},
		{30, 1024.0 / 145, Style{}},
		{33, 960.0 / 157, Style{Dots: ShapeRounded}},
		{40, 5.1, Style{Dots: ShapeCircle, Gradient: "#C2185B"}},
	} {
		cases = append(cases, scanCase{name: fmt.Sprintf("large-v%d-%.2fppm", c.v, c.ppm), data: long, level: qr.L, version: c.v, style: c.s, ppm: c.ppm})
	}
	runCases(t, cases)
}

// TestScanCircleEyes reads the circle ring and the circle centre (rounded
// squares: see eyeRadii), with each other and with square parts, at every
// version they are offered, 2 to 40, one code per version, at the scales
// the product renders (5 to 12.5 px per module and the default size),
// each in all three formats: the gate for any change to their shapes.
func TestScanCircleEyes(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes many images")
	}
	parts := [][2]string{{ShapeCircle, ShapeCircle}, {ShapeCircle, ShapeSquare}, {ShapeSquare, ShapeCircle}}
	dots := []string{ShapeSquare, ShapeCircle, ShapeRounded}
	levels := []qr.Level{qr.L, qr.M, qr.Q, qr.H}
	ppms := []float64{5, 5.6, 6.5, 8, 9.5, 10, 11, 12.5, 0} // 0: the default download size
	url := payloads[0].data
	var cases []scanCase
	for v := 2; v <= 40; v++ {
		i := v - 2
		ppm := ppms[i%len(ppms)]
		if ppm == 0 {
			ppm = float64(DefaultPixels) / float64(17+4*v+2*QuietZone)
		}
		p := parts[i%len(parts)]
		s := Style{Eyes: p[0], EyeCenters: p[1], Dots: dots[i/len(parts)%len(dots)]}
		cases = append(cases, scanCase{
			name: fmt.Sprintf("circle-eyes-v%d-%s-%s-%s", v, p[0], p[1], s.Dots), data: url[:min(len(url), 5+v)],
			level: levels[i%len(levels)], version: v, style: s, ppm: ppm,
		})
	}
	runCases(t, cases)
}
