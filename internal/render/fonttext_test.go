package render

import (
	"bytes"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/testenv"
)

// frameScripts are frame texts in every script the PDF fonts cover, with
// the font pdffonts must list for them.
var frameScripts = []struct{ name, text, font string }{
	{"latin", "Scan me", "GoBold"},
	{"cyrillic", "Сканируй меня", "GoBold"},
	{"greek", "Σάρωσέ με", "GoBold"},
	{"arabic", "امسح الرمز", "NotoSansArabic-Bold"},
	{"hebrew", "סרוק אותי", "NotoSansHebrew-Bold"},
	{"chinese", "扫描二维码", "NotoSansCJKsc-Bold"},
	{"japanese", "QRコードを読み取る", "NotoSansCJKsc-Bold"},
	{"korean", "코드를 스캔하세요", "NotoSansCJKsc-Bold"},
	{"devanagari", "स्कैन करें", "NotoSansDevanagari-Bold"},
	{"thai", "สแกนเลย", "NotoSansThai-Bold"},
}

// band rasterises a PDF or EPS of a square-framed scene, white text on
// black, with tool (pdftoppm or gs) at dpi, or reads a PNG (tool ""), and
// returns the text band's pixels, true where light: glyph pixels.
func band(t *testing.T, sc *Scene, file, tool string, dpi int) bitmap {
	t.Helper()
	out := strings.TrimSuffix(file, filepath.Ext(file)) + "-" + tool + strconv.Itoa(dpi)
	var cmd *exec.Cmd
	switch tool {
	case "gs":
		cmd = exec.Command(testenv.Command(t, "gs"), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pnggray",
			"-dEPSCrop", "-r"+strconv.Itoa(dpi), "-sOutputFile="+out+".png", file)
	case "pdftoppm":
		cmd = exec.Command(testenv.Command(t, "pdftoppm"), "-gray", "-png", "-r", strconv.Itoa(dpi), "-singlefile", file, out)
	default:
		out = strings.TrimSuffix(file, ".png")
	}
	if cmd != nil {
		if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
			t.Fatalf("%s: %v %s", cmd.Path, err, msg)
		}
	}
	f, err := os.Open(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	n := float32(sc.n)
	top := int((n + n*framePad - sc.y) / sc.h * float32(b.Dy()))
	bm := bitmap{w: b.Dx() - 6}
	for y := top + 3; y < b.Max.Y-3; y++ {
		for x := 3; x < b.Max.X-3; x++ {
			bm.px = append(bm.px, color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y > 128)
		}
	}
	return bm
}

type bitmap struct {
	px []bool
	w  int
}

// share is the fraction of a's pixels that are set, or with b, that
// differ from b's.
func share(a bitmap, b *bitmap) float64 {
	n := 0
	for i := range a.px {
		if b == nil && a.px[i] || b != nil && a.px[i] != b.px[i] {
			n++
		}
	}
	return float64(n) / float64(len(a.px))
}

// offEdge counts the pixels set in a with no set pixel of b within one
// pixel: where a draws something b does not, rather than an edge drawn a
// pixel wider.
func offEdge(a, b bitmap) int {
	n := 0
	for i, on := range a.px {
		if !on {
			continue
		}
		x, y, near := i%a.w, i/a.w, false
		for dy := -1; dy <= 1 && !near; dy++ {
			for dx := -1; dx <= 1 && !near; dx++ {
				j := (y+dy)*a.w + x + dx
				near = x+dx >= 0 && x+dx < a.w && j >= 0 && j < len(b.px) && b.px[j]
			}
		}
		if !near {
			n++
		}
	}
	return n
}

// TestFrameTextInAnyScript: frame text in each script prints in the PDF
// from an embedded subset (not as '?'), comes back from pdftotext, leaves
// the code readable, and the EPS draws the same glyphs as outlines.
func TestFrameTextInAnyScript(t *testing.T) {
	pdffonts, zbar := testenv.Command(t, "pdffonts"), testenv.Command(t, "zbarimg")
	dir := t.TempDir()
	for _, c := range frameScripts {
		t.Run(c.name, func(t *testing.T) {
			data := "https://example.com/" + c.name
			m := encode(t, data, qr.M, Style{})
			files := map[string]*Scene{}
			for _, text := range []string{c.text, strings.Repeat("?", utf8.RuneCountInString(c.text))} {
				frame := Frame{Enabled: true, Style: FrameSquare, Text: text}
				sc := layout(t, m, Style{Points: 200, Frame: frame})
				var pdf, eps, img bytes.Buffer
				if err := sc.WritePDF(&pdf); err != nil {
					t.Fatal(err)
				}
				if err := sc.WriteEPS(&eps); err != nil {
					t.Fatal(err)
				}
				// 400 px for the code: 480 px wide, as the PDF at 144 dpi.
				if err := layout(t, m, Style{Pixels: 400, Frame: frame}).WritePNG(&img); err != nil {
					t.Fatal(err)
				}
				name := filepath.Join(dir, c.name)
				if text != c.text {
					name += "-fallback"
				}
				for ext, b := range map[string][]byte{".pdf": pdf.Bytes(), ".eps": eps.Bytes(), ".png": img.Bytes()} {
					if err := os.WriteFile(name+ext, b, 0o600); err != nil {
						t.Fatal(err)
					}
					files[name+ext] = sc
				}
			}
			file := filepath.Join(dir, c.name+".pdf")
			pdf, _ := os.ReadFile(file)

			out, err := exec.Command(pdffonts, file).CombinedOutput()
			if err != nil || !regexp.MustCompile(`(?m)^[A-Z]{6}\+`+c.font+` +CID TrueType +Identity-H +yes +yes +yes`).Match(out) {
				t.Errorf("no embedded subset of %s with a ToUnicode map (%v):\n%s", c.font, err, out)
			}
			if got := testenv.PDFText(t, pdf); !strings.Contains(got, c.text) {
				t.Errorf("pdftotext read %q, want %q", got, c.text)
			}

			eps := strings.TrimSuffix(file, ".pdf") + ".eps"
			sc := files[file]
			text, fallback := band(t, sc, file, "pdftoppm", 150), band(t, sc, filepath.Join(dir, c.name+"-fallback.pdf"), "pdftoppm", 150)
			if lit := share(text, nil); lit < 0.02 {
				t.Errorf("%.1f%% of the band is glyph pixels: the text did not print", lit*100)
			}
			if d := share(text, &fallback); d < 0.02 {
				t.Errorf("only %.2f%% of the band differs from %d '?': the text printed as the fallback", d*100, utf8.RuneCountInString(c.text))
			}
			// The EPS outlines are the PDF's glyphs: both through Ghostscript,
			// they cover the same pixels but for edges (Ghostscript widens thin
			// fills by a pixel here and there, not glyphs it rasterises).
			pdfGS, epsGS := band(t, sc, file, "gs", 150), band(t, sc, eps, "gs", 150)
			if n, m := offEdge(pdfGS, epsGS), offEdge(epsGS, pdfGS); float64(n+m) > share(pdfGS, nil)*float64(len(pdfGS.px))/100 {
				t.Errorf("EPS and PDF glyphs differ beyond their edges: %d and %d pixels", n, m)
			}
			// So are the PNG's, at the same scale.
			pdf144, png := band(t, sc, file, "gs", 144), band(t, sc, strings.TrimSuffix(file, ".pdf")+".png", "", 0)
			if n, m := offEdge(pdf144, png), offEdge(png, pdf144); float64(n+m) > share(pdf144, nil)*float64(len(pdf144.px))/100 {
				t.Errorf("PNG and PDF glyphs differ beyond their edges: %d and %d pixels", n, m)
			}
			t.Logf("band: %.2f%% glyph pixels, %.2f%% differ from '?'; PDF %d bytes",
				share(text, nil)*100, share(text, &fallback)*100, len(pdf))

			got, err := exec.Command(zbar, "--raw", "-q", "-Sbinary", strings.TrimSuffix(file, ".pdf")+"-pdftoppm150.png").Output()
			if err != nil || string(got) != data {
				t.Errorf("zbar read %q from the PDF (%v), want %q", got, err, data)
			}
		})
	}
}

// An emoji is dropped: the PDF still opens and holds the rest, and text
// with nothing printable leaves the frame empty without a font.
func TestFrameTextEmojiDropped(t *testing.T) {
	m := encode(t, "https://example.com/e", qr.M, Style{})
	for text, want := range map[string]string{"Scan 🙂 me": "Scan", "🙂👍": ""} {
		pdf := pdfOf(t, layout(t, m, Style{Points: 200, Frame: Frame{Enabled: true, Text: text}}))
		got := testenv.PDFText(t, pdf)
		if !strings.Contains(got, want) || strings.Contains(got, "?") {
			t.Errorf("%q: pdftotext read %q", text, got)
		}
		if want == "" && bytes.Contains(pdf, []byte("/Font")) {
			t.Errorf("%q: a font with no glyphs was embedded", text)
		}
	}
}
