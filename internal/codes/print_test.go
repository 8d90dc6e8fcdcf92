package codes

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"image/png"
	"io"
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

const printData = "https://example.com/print?run=26"

func writeCode(t *testing.T, s Style, opt Options) []byte {
	t.Helper()
	n, err := s.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, printData, n, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngPHYs returns a PNG's pHYs chunk: pixels per unit and the unit.
func pngPHYs(t *testing.T, b []byte) (x, y uint32, unit byte) {
	t.Helper()
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		if string(b[i+4:i+8]) == "pHYs" {
			d := b[i+8 : i+8+n]
			return binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:]), d[8]
		}
		i += 12 + n
	}
	t.Fatal("no pHYs chunk")
	return
}

// TestPrintPNG: a PNG for sizeMm at dpi is exactly round(sizeMm/25.4×dpi)
// pixels wide and says its density, for plain and styled codes.
func TestPrintPNG(t *testing.T) {
	styled := Style{FgColor: "#1E3A8A", DotShape: "rounded", CornerShape: "curve-square"}
	for _, c := range []struct {
		sizeMm float64
		dpi    int
	}{{10, 600}, {20, 600}, {25.4, 254}, {50, 300}, {33.3, 1200}, {100, 150}, {346, 300}, {1000, 72}} {
		for name, s := range map[string]Style{"plain": {}, "styled": styled} {
			b := writeCode(t, s, Options{Format: PNG, Level: qr.M, Print: Print{SizeMm: c.sizeMm, DPI: c.dpi}})
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			want := int(math.Round(c.sizeMm / 25.4 * float64(c.dpi)))
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != want || h != want {
				t.Errorf("%s %gmm at %d dpi: %d×%d pixels, want %d", name, c.sizeMm, c.dpi, w, h, want)
			}
			x, y, unit := pngPHYs(t, b)
			ppm := uint32(math.Round(float64(c.dpi) / 0.0254))
			if x != ppm || y != ppm || unit != 1 {
				t.Errorf("%s %gmm at %d dpi: pHYs %d×%d unit %d, want %d per metre", name, c.sizeMm, c.dpi, x, y, unit, ppm)
			}
		}
	}
}

func TestPrintRefusals(t *testing.T) {
	s, _ := Style{}.Normalize()
	for _, c := range []struct {
		format Format
		print  Print
		field  string
	}{
		{PNG, Print{SizeMm: 9.9}, "sizeMm"},
		{PDF, Print{SizeMm: 2001}, "sizeMm"},
		{PDF, Print{SizeMm: math.NaN()}, "sizeMm"},
		{SVG, Print{SizeMm: 50}, "sizeMm"},
		{PNG, Print{SizeMm: 50, DPI: 71}, "dpi"},
		{PNG, Print{SizeMm: 50, DPI: 1201}, "dpi"},
		{PNG, Print{DPI: 300}, "dpi"},
		{PDF, Print{SizeMm: 50, DPI: 300}, "dpi"},
		{PNG, Print{SizeMm: 347, DPI: 300}, "sizeMm"}, // 4098 pixels
		{PNG, Print{CMYK: true}, "colorSpace"},
		{SVG, Print{CMYK: true}, "colorSpace"},
	} {
		err := Write(&bytes.Buffer{}, printData, s, Options{Format: c.format, Level: qr.M, Print: c.print})
		if field, msg, ok := Refusal(err); !ok || field != c.field {
			t.Errorf("%s %+v: %v (%s, %q), want a refusal on %s", c.format, c.print, err, field, msg, c.field)
		}
	}
	// 10 mm at 300 dpi is 118 pixels: enough for a plain code of 33
	// modules (2 a module), too few for a styled one (5 a module).
	styled, _ := Style{DotShape: "circle"}.Normalize()
	opt := Options{Format: PNG, Level: qr.M, Print: Print{SizeMm: 10, DPI: 300}}
	if err := Write(&bytes.Buffer{}, printData, s, opt); err != nil {
		t.Errorf("plain 10 mm at 300 dpi: %v", err)
	}
	err := Write(&bytes.Buffer{}, printData, styled, opt)
	if field, msg, ok := Refusal(err); !ok || field != "sizeMm" || !strings.Contains(msg, "118 pixels") {
		t.Errorf("styled 10 mm at 300 dpi: %v", err)
	}
}

var (
	mediaBox    = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	boundingBox = regexp.MustCompile(`%%HiResBoundingBox: 0 0 ([0-9.]+) ([0-9.]+)`)
	rgbOp       = regexp.MustCompile(`(?m)[0-9.]+ [0-9.]+ [0-9.]+ (rg|RG)$|(rg|RG)\n|/DeviceRGB`)
)

// boxSize reads a box's width and height in points.
func boxSize(t *testing.T, re *regexp.Regexp, b []byte) (w, h float64) {
	t.Helper()
	m := re.FindSubmatch(b)
	if m == nil {
		t.Fatalf("no %v in the file", re)
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	return w, h
}

// TestPrintVectorSize: the PDF page and the EPS bounding box measure
// sizeMm (a frame adds 20% wide and 30% high).
func TestPrintVectorSize(t *testing.T) {
	for _, mm := range []float64{10, 25.4, 50, 297, 2000} {
		for _, frame := range []bool{false, true} {
			want := mm / 25.4 * 72
			wantW, wantH := want, want
			if frame {
				wantW, wantH = want*1.2, want*1.3
			}
			for f, re := range map[Format]*regexp.Regexp{PDF: mediaBox, EPS: boundingBox} {
				b := writeCode(t, Style{EnableFrame: frame}, Options{Format: f, Level: qr.M, Print: Print{SizeMm: mm}})
				w, h := boxSize(t, re, b)
				if math.Abs(w-wantW) > 0.01*wantW+0.01 || math.Abs(h-wantH) > 0.01*wantH+0.01 {
					t.Errorf("%s %gmm frame %v: %g×%g points, want %.2f×%.2f", f, mm, frame, w, h, wantW, wantH)
				}
			}
		}
	}
}

// inflated is a PDF with its Flate streams decompressed (an EPS as it is).
func inflated(t *testing.T, b []byte) []byte {
	t.Helper()
	var out []byte
	for {
		i := bytes.Index(b, []byte("/FlateDecode"))
		if i < 0 {
			return append(out, b...)
		}
		j := bytes.Index(b[i:], []byte("stream\n")) + i + len("stream\n")
		out = append(out, b[:j]...)
		r, err := zlib.NewReader(bytes.NewReader(b[j:]))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := io.ReadAll(r) // the stream ends before endstream; a trailing error is expected
		out = append(out, d...)
		b = b[j:]
		b = b[bytes.Index(b, []byte("endstream")):]
	}
}

// TestPrintCMYK: in CMYK nothing is painted in RGB, black is pure K, and
// other colours are converted.
func TestPrintCMYK(t *testing.T) {
	for _, f := range []Format{PDF, EPS} {
		b := inflated(t, writeCode(t, Style{EnableFrame: true, FrameColor: "#1E3A8A", GradientColor: "#7C3AED", OuterCornerColor: "#000000"}, Options{Format: f, Level: qr.M, Print: Print{CMYK: true, SizeMm: 40}}))
		if m := rgbOp.Find(b); m != nil {
			t.Errorf("%s: RGB colour %q in a CMYK file", f, m)
		}
		if !bytes.Contains(b, []byte("0 0 0 1 k")) {
			t.Errorf("%s: black is not 0 0 0 1 k", f)
		}
		// #1E3A8A: k = 1-138/255, c = 1-30/138, m = 1-58/138, y = 0.
		if !bytes.Contains(b, []byte("0.783 0.58 0 0.459 k")) {
			t.Errorf("%s: the frame colour is not converted", f)
		}
		if !bytes.Contains(b, []byte("/DeviceCMYK")) {
			t.Errorf("%s: the gradient is not a CMYK shading", f)
		}
		// The RGB file of the same code does use RGB operators.
		rgb := inflated(t, writeCode(t, Style{EnableFrame: true}, Options{Format: f, Level: qr.M}))
		if rgbOp.Find(rgb) == nil {
			t.Errorf("%s: the RGB file has no RGB colour: the check above proves nothing", f)
		}
	}
}

// TestPrintScans decodes print files with zbar and ZXing: PNGs as they
// are, PDFs through pdftoppm and EPS through Ghostscript.
func TestPrintScans(t *testing.T) {
	zbar, zxing := testenv.Command(t, "zbarimg"), testenv.Command(t, "ZXingReader")
	pdftoppm, gs := testenv.Command(t, "pdftoppm"), testenv.Command(t, "gs")
	dir := t.TempDir()
	styled := Style{FgColor: "#1E3A8A", GradientColor: "#7C3AED", DotShape: "circle", CornerShape: "curve-square", EnableFrame: true, FrameText: "Scan for the menu"}
	for i, c := range []struct {
		style Style
		opt   Options
	}{
		{Style{}, Options{Format: PNG, Print: Print{SizeMm: 20, DPI: 300}}},
		{styled, Options{Format: PNG, Print: Print{SizeMm: 50, DPI: 300}}},
		{styled, Options{Format: PDF, Print: Print{SizeMm: 50, CMYK: true}}},
		{Style{}, Options{Format: PDF, Print: Print{SizeMm: 30}}},
		{styled, Options{Format: EPS, Print: Print{SizeMm: 50}}},
		{styled, Options{Format: EPS, Print: Print{SizeMm: 50, CMYK: true}}},
		{Style{DotShape: "rounded"}, Options{Format: EPS, Print: Print{SizeMm: 25, CMYK: true}}},
		{Style{}, Options{Format: EPS, Logo: testLogo(t), Print: Print{SizeMm: 40, CMYK: true}}},
		{Style{}, Options{Format: PDF, Logo: testLogo(t), Print: Print{SizeMm: 40, CMYK: true}}},
	} {
		c.opt.Level = qr.M
		name := fmt.Sprintf("%d-%s", i, c.opt.Format)
		file := filepath.Join(dir, name+"."+string(c.opt.Format))
		if err := os.WriteFile(file, writeCode(t, c.style, c.opt), 0o600); err != nil {
			t.Fatal(err)
		}
		img := file
		switch c.opt.Format {
		case PDF:
			if out, err := exec.Command(pdftoppm, "-png", "-r", "300", "-singlefile", file, filepath.Join(dir, name)).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v %s", err, out)
			}
			img = filepath.Join(dir, name+".png")
		case EPS:
			img = filepath.Join(dir, name+".png")
			if out, err := exec.Command(gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-dEPSCrop", "-r300", "-sOutputFile="+img, file).CombinedOutput(); err != nil {
				t.Fatalf("gs: %v %s", err, out)
			}
		}
		if out, err := exec.Command(zbar, "--raw", "-q", "-Sbinary", img).Output(); err != nil || string(out) != printData {
			t.Errorf("%s: zbar read %q (%v)", name, out, err)
		}
		if out, err := exec.Command(zxing, "-bytes", "-format", "QRCode", img).Output(); err != nil || string(out) != printData {
			t.Errorf("%s: ZXing read %q (%v)", name, out, err)
		}
	}
}
