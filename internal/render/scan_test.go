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
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/testenv"
)

// These tests prove that what the renderer accepts scans: every output is
// written as PNG, SVG (rasterised by rsvg-convert), PDF (rasterised by
// pdftoppm) and EPS (rasterised by Ghostscript), and read by two decoders
// we did not write, zbar and ZXing, which must both return the exact
// payload bytes. OpenCV's QR detector reads them too where it is
// installed; what it reads is reported, not required (see BENCHMARKS.md).

type decoders struct {
	zbar, zxing, rsvg, pdftoppm, gs string
	opencv                          string // a python3 that imports cv2, or ""
}

func needDecoders(t *testing.T) decoders {
	return decoders{
		zbar:     testenv.Command(t, "zbarimg"),
		zxing:    testenv.Command(t, "ZXingReader"),
		rsvg:     testenv.Command(t, "rsvg-convert"),
		pdftoppm: testenv.Command(t, "pdftoppm"),
		gs:       testenv.Command(t, "gs"),
		opencv:   testenv.OpenCVPython(),
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
	// With -Sbinary zbar writes the bytes alone, with no newline. It looks
	// for QR codes only: by default it also tries 1-D symbologies, and
	// found a GS1 DataBar in the modules of a version 40 code.
	out, err := run(d.zbar, "--raw", "-q", "-Sdisable", "-Sqrcode.enable", "-Sbinary", file)
	if err != nil || !bytes.Equal(out, want) {
		zbarErr = fmt.Errorf("zbar read %q (%v)", clip(out), err)
	}
	out, err = run(d.zxing, "-bytes", "-format", "QRCode", file)
	if err != nil || !bytes.Equal(out, want) {
		zxingErr = fmt.Errorf("ZXing read %q (%v)", clip(out), err)
	}
	return zbarErr, zxingErr
}

// openCV is what OpenCV made of one file: whether a decoder returned the
// payload, and whether cv2.QRCodeDetector located a code.
type openCV struct{ read, found bool }

// openCVRead reads files with OpenCV, want[file] being the payload.
func (d decoders) openCVRead(t *testing.T, want map[string][]byte) map[string]openCV {
	res := map[string]openCV{}
	if d.opencv == "" {
		return res
	}
	files := slices.Sorted(maps.Keys(want))
	for len(files) > 0 {
		batch := files[:min(len(files), 20)]
		files = files[len(batch):]
		reads, err := testenv.ReadWithOpenCV(d.opencv, batch...)
		if err != nil {
			t.Log(err)
			continue
		}
		for f, r := range reads {
			res[f] = openCV{read: len(r.Text) > 0 && bytes.Equal(r.Text, want[f]), found: r.Found}
		}
	}
	return res
}

func clip(b []byte) []byte { return b[:min(len(b), 60)] }

// scanCase is one rendering to check in all four formats.
type scanCase struct {
	name    string
	data    []byte
	level   qr.Level
	version int // 0: the smallest that fits
	style   Style
	ppm     float64 // pixels per module for the rasterised outputs
	// adjust, when set, changes the scene before it is written: shapes
	// the renderer does not offer, measured for comparison.
	adjust func(*Scene)
	// vector, when set, is the one vector format to check besides the
	// PNG (SVG, PDF or EPS); otherwise all three are.
	vector string
}

// vectorFormats are the formats a case's vector file may be read as.
var vectorFormats = []string{"SVG", "PDF", "EPS"}

// eachVectorInTurn has each case read as the PNG and one vector format,
// SVG, PDF and EPS in turn: a sweep over versions or styles still meets
// every format many times, at a third of the rasterising and decoding
// (all three for every case made these tests the slowest in CI). The
// turn is (i + i/3 + i/9) mod 3, not i mod 3, because the sweeps vary
// their shapes with i mod 3 and i/3 mod 3: every shape meets every format.
func eachVectorInTurn(cases []scanCase) []scanCase {
	for i := range cases {
		cases[i].vector = vectorFormats[(i+i/3+i/9)%len(vectorFormats)]
	}
	return cases
}

// decoded is one rasterised output and who read it.
type decoded struct {
	c            scanCase
	format, file string
	zbar, zxing  bool
}

// check renders c in all formats and decodes each: both decoders must
// read every output.
func (d decoders) check(dir string, c scanCase) ([]decoded, error) {
	m, err := encodeCase(c)
	if err != nil {
		return nil, err
	}
	s := c.style
	n := float64(m.Size + 2*QuietZone)
	s.Pixels = int(math.Round(c.ppm * n))
	sc, err := Layout(m, s)
	if err != nil {
		return nil, err
	}
	if c.adjust != nil {
		c.adjust(sc)
	}
	base := filepath.Join(dir, c.name)
	var errs []error
	var outs []decoded
	fail := func(format string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s (v%d-%v, %s): %w", format, m.Version, m.Level, base, err))
		}
	}
	read := func(format, file string) {
		zb, zx := d.decode(file, c.data)
		fail(format, zb)
		fail(format, zx)
		outs = append(outs, decoded{c: c, format: format, file: file, zbar: zb == nil, zxing: zx == nil})
	}
	var png, svg, pdf, eps bytes.Buffer
	if err := sc.WritePNG(&png); err != nil {
		return nil, err
	}
	if err := sc.WriteSVG(&svg); err != nil {
		return nil, err
	}
	if err := sc.WritePDF(&pdf); err != nil {
		return nil, err
	}
	if err := sc.WriteEPS(&eps); err != nil {
		return nil, err
	}
	for ext, b := range map[string][]byte{".png": png.Bytes(), ".svg": svg.Bytes(), ".pdf": pdf.Bytes(), ".eps": eps.Bytes()} {
		if err := os.WriteFile(base+ext, b, 0o600); err != nil {
			return nil, err
		}
	}
	read("PNG", base+".png")

	// The vector formats are rasterised at slightly different scales, so
	// module edges land elsewhere on the pixel grid.
	rasterise := func(format, out string, cmd ...string) {
		if c.vector != "" && c.vector != format {
			return
		}
		if _, err := run(cmd[0], cmd[1:]...); err != nil {
			fail(format, err)
			return
		}
		read(format, out)
	}
	_, pw, _ := sc.pixelScale()
	rasterise("SVG", base+"-svg.png", d.rsvg, "-w", strconv.Itoa(int(float64(pw)*1.07)), "-b", "white", "-o", base+"-svg.png", base+".svg")
	dpi := func(k float64) string { return strconv.FormatFloat(c.ppm*k*n/sc.points*72, 'f', 1, 64) }
	rasterise("PDF", base+"-pdf.png", d.pdftoppm, "-png", "-r", dpi(1.13), "-singlefile", base+".pdf", base+"-pdf")
	// Ghostscript anti-aliased, as the other rasterisers are.
	rasterise("EPS", base+"-eps.png", d.gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dEPSCrop", "-sDEVICE=png16m",
		"-dGraphicsAlphaBits=4", "-dTextAlphaBits=4", "-r"+dpi(1.19), "-o", base+"-eps.png", base+".eps")
	return outs, errors.Join(errs...)
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

// runCases checks cases through two workers (the decoders are external
// processes and the machine is shared), then has OpenCV read every output
// and logs what each decoder read by format. It returns the outputs, with
// OpenCV's reads by file.
func runCases(t *testing.T, cases []scanCase) ([]decoded, map[string]openCV) {
	return scanCases(t, cases, t.Errorf)
}

// scanCases is runCases with the failures going to fail: t.Logf for a
// measurement that is expected to miss.
func scanCases(t *testing.T, cases []scanCase, fail func(string, ...any)) ([]decoded, map[string]openCV) {
	d := needDecoders(t)
	dir := t.TempDir()
	if keep := os.Getenv("RENDER_SCAN_DIR"); keep != "" { // to look at failures
		dir = keep
	}
	work := make(chan scanCase)
	var mu sync.Mutex
	var all []decoded
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for c := range work {
				outs, err := d.check(dir, c)
				if err != nil {
					fail("%s: %v", c.name, err)
				}
				mu.Lock()
				all = append(all, outs...)
				mu.Unlock()
			}
		})
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()

	want := make(map[string][]byte, len(all))
	for _, o := range all {
		want[o.file] = o.c.data
	}
	cv := d.openCVRead(t, want)
	if d.opencv == "" {
		t.Log("OpenCV (python3-opencv) is not installed: its reads are not reported")
	}
	for _, f := range []string{"PNG", "SVG", "PDF", "EPS"} {
		var n, zb, zx, ocv, found int
		for _, o := range all {
			if o.format == f {
				n++
				zb += b2i(o.zbar)
				zx += b2i(o.zxing)
				ocv += b2i(cv[o.file].read)
				found += b2i(cv[o.file].found)
			}
		}
		t.Logf("%s: %d outputs; zbar read %d, ZXing %d, OpenCV %d (its QRCodeDetector located %d)", f, n, zb, zx, ocv, found)
	}
	return all, cv
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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
// logos of every size and format, and both frame styles; each case as a
// PNG and one vector format in turn (eachVectorInTurn), the plain codes
// in all four.
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
	cases = eachVectorInTurn(cases)
	// Every payload kind in a plain code at a level and version of its own,
	// in all four formats.
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
	eachVectorInTurn(cases[len(cases)-24:]) // the 24 large-logo cases; the limits above in every format
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
// each as a PNG and one vector format in turn: the gate for any change to
// their shapes.
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
	runCases(t, eachVectorInTurn(cases))
}

// TestScanShapes decodes every dot shape × eye frame × eye ball
// combination the renderer offers (7 × 5 × 5), each once, at one of ten
// versions from 1 to 40 spread so that every shape meets every version
// (rounded eyes start at version 2: see MinVersion), with linear
// gradients at many angles, radial ones, gradients on the eyes and eye
// colours, at the product's scales; then every dot shape at version 1
// with square eyes in all four formats. Each combination is read as PNG
// and one vector format, SVG, PDF and EPS in turn, PDF and EPS in RGB and
// CMYK alike (all four for every case took over half an hour on two
// cores). zbar and ZXing must read every output; what OpenCV reads is logged per shape (with
// RENDER_SCAN_TABLE=file, written there as the table in BENCHMARKS.md).
func TestScanShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes many images")
	}
	versions := []int{1, 3, 7, 10, 14, 21, 27, 33, 37, 40}
	levels := []qr.Level{qr.L, qr.M, qr.Q, qr.H}
	ppms := []float64{5, 5.6, 6.5, 8, 10, 0} // 0: the default download size
	fgs := []string{"#000000", "#1A237E", "#5B2C00", "#004D40", "#4A148C"}
	url := payloads[0].data
	var cases []scanCase
	add := func(name string, v int, s Style, i int) {
		ppm := ppms[i%len(ppms)]
		if ppm == 0 {
			ppm = float64(DefaultPixels) / float64(17+4*v+2*QuietZone)
		}
		cases = append(cases, scanCase{name: name, data: url[:min(len(url), 5+v)], level: levels[i%len(levels)], version: v, style: s, ppm: ppm})
	}
	i := 0
	for _, d := range DotShapes {
		for _, f := range EyeShapes {
			for _, b := range EyeShapes {
				s := Style{Dots: d, Eyes: f, EyeCenters: b, Foreground: fgs[i%len(fgs)]}
				switch i % 4 {
				case 1:
					a := i * 47 % 360
					s.Gradient, s.GradientAngle = "#C2185B", &a
				case 2:
					s.Gradient, s.GradientType = "#C2185B", GradientRadial
				case 3:
					s.Gradient, s.GradientType, s.GradientOnEyes = "#0D47A1", GradientRadial, true
				}
				if i%7 == 5 {
					s.EyeColor, s.EyeCenterColor = "#B71C1C", "#0D47A1"
				}
				v := versions[(3*i+i/10)%len(versions)]
				add(fmt.Sprintf("shape-%03d-%s-%s-%s-v%d", i, d, f, b, v), v, s, i)
				// The PNG and one vector format, each in turn; PDF and EPS
				// alternate RGB and CMYK (i%6 < 3 … ≥ 3).
				cases[len(cases)-1].vector = vectorFormats[i%3]
				cases[len(cases)-1].style.CMYK = i%6 >= 3
				i++
			}
		}
	}
	for j, d := range DotShapes {
		add("shape-v1-"+d, 1, Style{Dots: d, Gradient: "#C2185B", GradientType: GradientTypes[j%2], CMYK: j%2 == 1}, j)
	}
	start := time.Now()
	all, cv := runCases(t, cases)
	t.Logf("%d cases, %d decoded outputs in %v", len(cases), len(all), time.Since(start).Round(time.Second))
	shapeTable(t, all, cv)
}

// shapeTable logs, per shape, how many outputs each decoder read.
func shapeTable(t *testing.T, all []decoded, cv map[string]openCV) {
	type row struct{ n, zbar, zxing, opencv, found int }
	var b strings.Builder
	b.WriteString("| part | shape | outputs | zbar | ZXing | OpenCV read | OpenCV located |\n|---|---|---|---|---|---|---|\n")
	for _, part := range []struct {
		name   string
		shapes []string
		of     func(Style) string
	}{
		{"dots", DotShapes, func(s Style) string { return s.Dots }},
		{"eye frame", EyeShapes, func(s Style) string { return s.Eyes }},
		{"eye ball", EyeShapes, func(s Style) string { return s.EyeCenters }},
	} {
		for _, shape := range part.shapes {
			var r row
			for _, o := range all {
				if part.of(o.c.style) == shape {
					r.n++
					r.zbar += b2i(o.zbar)
					r.zxing += b2i(o.zxing)
					r.opencv += b2i(cv[o.file].read)
					r.found += b2i(cv[o.file].found)
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d |\n", part.name, shape, r.n, r.zbar, r.zxing, r.opencv, r.found)
		}
	}
	t.Log("\n" + b.String())
	if f := os.Getenv("RENDER_SCAN_TABLE"); f != "" {
		if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}
