package qrcli

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/testenv"
)

// run calls Run and returns its exit status and outputs.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// decode reads the QR code in an image file with zbar, converting SVG and
// PDF to PNG first with rsvg-convert and pdftoppm, and returns its bytes.
func decode(t *testing.T, file string) []byte {
	t.Helper()
	zbarimg := testenv.Command(t, "zbarimg")
	dir := t.TempDir()
	switch filepath.Ext(file) {
	case ".svg":
		pngFile := filepath.Join(dir, "svg.png")
		cmd(t, testenv.Command(t, "rsvg-convert"), "-b", "white", "-o", pngFile, file)
		file = pngFile
	case ".pdf":
		cmd(t, testenv.Command(t, "pdftoppm"), "-png", "-r", "150", "-singlefile", file, filepath.Join(dir, "pdf"))
		file = filepath.Join(dir, "pdf.png")
	}
	out := cmd(t, zbarimg, "--raw", "-q", "-Sbinary", file)
	return out
}

func cmd(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr)
	}
	return out
}

func TestEncodesTextInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	text := "https://example.com/ünï/日本語?e=😀"
	for _, name := range []string{"a.png", "b.svg", "c.pdf", "D.PNG"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name)
			code, stdout, stderr := run(t, "", "-o", file, text)
			if code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			if got := decode(t, file); string(got) != text {
				t.Errorf("decoded %q, want %q", got, text)
			}
		})
	}
}

func TestFormatFlagAndStdout(t *testing.T) {
	code, stdout, stderr := run(t, "", "-o", "-", "--format", "svg", "hello")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "<svg") {
		t.Fatalf("stdout is not SVG: %.80q", stdout)
	}
	file := filepath.Join(t.TempDir(), "out.svg")
	if err := os.WriteFile(file, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := decode(t, file); string(got) != "hello" {
		t.Errorf("decoded %q", got)
	}

	// Standard output defaults to PNG.
	code, stdout, _ = run(t, "", "-o", "-", "hello")
	if code != 0 || !strings.HasPrefix(stdout, "\x89PNG\r\n") {
		t.Errorf("exit %d, stdout starts %.8q, want PNG", code, stdout)
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, render.DefaultPixels},
		{[]string{"--size", "600"}, 600},
	} {
		code, stdout, stderr := run(t, "", append(append([]string{"-o", "-"}, tc.args...), "x")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		cfg, err := png.DecodeConfig(strings.NewReader(stdout))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != tc.want || cfg.Height != tc.want {
			t.Errorf("%v: %d×%d, want %d", tc.args, cfg.Width, cfg.Height, tc.want)
		}
	}

	// For PDF the size is in points.
	file := filepath.Join(t.TempDir(), "s.pdf")
	if code, _, stderr := run(t, "", "-o", file, "--size", "300", "x"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	info := string(cmd(t, testenv.Command(t, "pdfinfo"), file))
	if !regexp.MustCompile(`Page size:\s+300 x 300 pts`).MatchString(info) {
		t.Errorf("pdfinfo:\n%s", info)
	}
}

func TestDefaultOutputName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, format := range []string{"png", "svg", "pdf"} {
		if code, _, stderr := run(t, "", "--format", format, "x"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "qr."+format)); err != nil {
			t.Errorf("default output for %s: %v", format, err)
		}
	}
}

func TestStdinBytesExactly(t *testing.T) {
	// Leading and trailing white space, a NUL, invalid UTF-8 and a
	// dash-led text all survive byte for byte.
	in := "  line one\r\nlíne two 中文 🎉\x00\xff\xfe-\n"
	file := filepath.Join(t.TempDir(), "in.png")
	code, _, stderr := run(t, in, "-o", file, "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := decode(t, file); string(got) != in {
		t.Errorf("decoded %q, want %q", got, in)
	}

	// After --, a TEXT may start with a dash.
	file = filepath.Join(t.TempDir(), "dash.png")
	if code, _, stderr := run(t, "", "-o", file, "--", "-v"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := decode(t, file); string(got) != "-v" {
		t.Errorf("decoded %q, want -v", got)
	}
}

func TestTypedPayloads(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		typ    string
		fields []string
		opt    payload.Options
		extra  []string
	}{
		{"url", []string{"url=https://example.com"}, payload.Options{}, nil},
		{"contact", []string{"firstName=Zoë", "lastName=O'Brien; Jr", "phoneNumber=+353 1 555", "notes=a,b\nc"}, payload.Options{}, nil},
		{"email", []string{"email=ana@example.com", "subject=Olá mundo", "body=Line 1\nLine 2"}, payload.Options{}, nil},
		{"events", []string{"title=Fête", "startDate=2026-03-15T09:30", "location=Paris"}, payload.Options{}, nil},
		{"sms", []string{"phoneNumber=+1 555 0100", "message=こんにちは"}, payload.Options{}, nil},
		{"wifi", []string{"ssid=Café;Net", "password=p:w\"d"}, payload.Options{}, nil},
		{"pdf", []string{"pdfFile=17", "title=Menu"}, payload.Options{BaseURL: "https://sq.example"}, []string{"--base-url", "https://sq.example"}},
		{"payment", []string{"productName=Tea", "productPrice=2.5", "productDescription=Green"},
			payload.Options{BaseURL: "https://sq.example", ProductID: "77"}, []string{"--base-url", "https://sq.example", "--product-id", "77"}},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			f := payload.Fields{}
			args := []string{"--type", tc.typ, "-o", filepath.Join(dir, tc.typ+".png")}
			for _, kv := range tc.fields {
				k, v, _ := strings.Cut(kv, "=")
				f[k] = v
				args = append(args, "--field", kv)
			}
			want, err := payload.Build(tc.typ, f, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			code, _, stderr := run(t, "", append(args, tc.extra...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := decode(t, filepath.Join(dir, tc.typ+".png")); string(got) != want {
				t.Errorf("decoded %q, want %q", got, want)
			}
		})
	}
}

func TestInvalidFieldsExit1(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.png")
	code, _, stderr := run(t, "", "-o", file, "--type", "contact", "--field", "email=nope")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "squarely qr: invalid contact fields:\n  firstName: First name is required\n  email: Please enter a valid email\n  phoneNumber: Phone number is required\n"
	if stderr != want {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("a refused code left a file: %v", err)
	}
}

func TestStyledCodeScans(t *testing.T) {
	dir := t.TempDir()
	logo := filepath.Join(dir, "logo.png")
	img := image.NewRGBA(image.Rect(0, 0, 40, 40))
	for i := range img.Pix {
		img.Pix[i] = 0xC0
	}
	img.Set(5, 5, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logo, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "Styled: ¡hola! 🌍"
	for _, name := range []string{"s.png", "s.svg", "s.pdf"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name)
			code, _, stderr := run(t, "", "-o", file, "--size", "600", "--ecc", "q",
				"--fg", "#1a237e", "--bg", "#FFFDE7", "--gradient", "#6A1B9A", "--gradient-type", "radial", "--gradient-on-eyes",
				"--dots", "classy-rounded", "--eyes", "extra-rounded", "--eye-centers", "dot",
				"--eye-color", "#B71C1C", "--eye-center-color", "#000000",
				"--logo", logo, "--logo-size", "small",
				"--frame-text", "SCAN ME ✓", "--frame-color", "#1A237E", "--frame-text-color", "#FFFFFF", "--frame-style", "square",
				text)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := decode(t, file); string(got) != text {
				t.Errorf("decoded %q, want %q", got, text)
			}
		})
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no args", nil, "missing TEXT"},
		{"unknown flag", []string{"--colour", "red", "x"}, "flag provided but not defined: -colour"},
		{"bad colour", []string{"--fg", "blue", "x"}, `invalid value "blue" for flag -fg: want a colour like #1A2B3C`},
		{"bad gradient", []string{"--gradient", "#12345", "x"}, "flag -gradient"},
		{"bad frame colour", []string{"--frame-color", "#GGGGGG", "x"}, "flag -frame-color"},
		{"bad dots", []string{"--dots", "star", "x"}, `invalid value "star" for flag -dots: want square, circle, rounded`},
		{"eyes cannot be rounded", []string{"--eyes", "rounded", "x"}, "want square, curve-square, circle, extra-rounded, dot"},
		{"bad gradient type", []string{"--gradient-type", "conic", "x"}, "flag -gradient-type"},
		{"gradient angle 360", []string{"--gradient-angle", "360", "x"}, "want a whole number of degrees from 0 to 359"},
		{"gradient angle text", []string{"--gradient-angle", "ninety", "x"}, "flag -gradient-angle"},
		{"bad logo size", []string{"--logo-size", "huge", "x"}, "flag -logo-size"},
		{"bad frame style", []string{"--frame-style", "oval", "x"}, "flag -frame-style"},
		{"bad size", []string{"--size", "big", "x"}, `invalid value "big" for flag -size: want a positive whole number`},
		{"zero size", []string{"--size", "0", "x"}, "flag -size"},
		{"huge size", []string{"--size", "1000000", "x"}, "--size: "},
		{"bad ecc", []string{"--ecc", "X", "x"}, "want L, M, Q or H"},
		{"bad format", []string{"--format", "jpg", "x"}, "want png, svg or pdf"},
		{"unknown extension", []string{"-o", "x.jpg", "x"}, `cannot tell the format of "x.jpg"`},
		{"text and type", []string{"--type", "url", "--field", "url=https://a.co", "x"}, "give either TEXT or --type, not both"},
		{"field without type", []string{"--field", "url=https://a.co"}, "--field needs --type"},
		{"unknown type", []string{"--type", "fax"}, `unknown --type "fax"`},
		{"unknown field", []string{"--type", "url", "--field", "link=x"}, `--type url has no field "link" (fields: url)`},
		{"field without =", []string{"--type", "url", "--field", "url"}, "want key=value"},
		{"field twice", []string{"--type", "url", "--field", "url=a", "--field", "url=b"}, "url given twice"},
		{"flag after text", []string{"x", "-o", "y.png"}, `unexpected argument "-o" after TEXT`},
		{"pdf without base", []string{"--type", "pdf", "--field", "pdfFile=1", "--field", "title=t"}, "--type pdf needs --base-url"},
		{"payment without product", []string{"--type", "payment", "--base-url", "http://x", "--field", "productName=a", "--field", "productPrice=1", "--field", "productDescription=b"}, "--type payment needs --product-id"},
	}
	t.Chdir(t.TempDir()) // nothing may be written, but never into the source tree
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "squarely qr: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.want)
			}
			if !strings.Contains(stderr, "Usage: squarely qr") {
				t.Error("no usage after a usage error")
			}
		})
	}
	entries, _ := os.ReadDir(".")
	if len(entries) > 0 {
		t.Errorf("usage errors wrote %d files", len(entries))
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := run(t, "", "-h")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: squarely qr") {
		t.Errorf("exit %d, stderr %q, stdout %.40q", code, stderr, stdout)
	}
	if !strings.Contains(stdout, "url, contact, payment, pdf, social, images, ratings, email, location, events, apps, sms, bitcoin, text, wifi") {
		t.Error("usage does not list the types")
	}
}

func TestRefusalsExit1(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"too big", strings.Repeat("x", 3000), []string{"--ecc", "H", "-"}, "squarely qr: The amount of data is too big to be stored in a QR Code\n"},
		{"empty text", "", []string{""}, "squarely qr: No input text\n"},
		{"empty stdin", "", []string{"-"}, "squarely qr: No input text\n"},
		{"low contrast", "", []string{"--fg", "#EEEEEE", "--bg", "#FFFFFF", "x"}, "squarely qr: fgColor: "},
		{"missing logo", "", []string{"--logo", filepath.Join(dir, "none.png"), "x"}, "no such file or directory"},
		{"unwritable", "", []string{"-o", filepath.Join(dir, "no", "dir.png"), "x"}, "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-o", filepath.Join(dir, "r.png")}, tc.args...)
			code, _, stderr := run(t, tc.stdin, args...)
			if code != 1 {
				t.Errorf("exit %d, want 1 (stderr %q)", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "Usage:") {
				t.Errorf("stderr %q, want %q without usage", stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "r.png")); !os.IsNotExist(err) {
		t.Errorf("a refused code left a file: %v", err)
	}
}

// A logo's code takes the version the server would give it: versions 7-13
// and 21-27 have an alignment pattern under the logo, and text that needs
// one of them is encoded a few versions up instead of refused. Every
// version's text scans with zbar and with ZXing.
func TestLogoAtEveryVersion(t *testing.T) {
	zxing := testenv.Command(t, "ZXingReader")
	dir := t.TempDir()
	logo := filepath.Join(dir, "logo.png")
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = 0x30
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logo, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	const chunk = "Squarely 0123 https://example.com/menu?table=7 ¡olé! "
	for v := 1; v <= 34; v++ {
		// The shortest text that needs version v at level H.
		lo, hi := 1, 4000
		for lo < hi {
			mid := (lo + hi) / 2
			m, err := qr.Encode([]byte(textOf(chunk, mid)), qr.Options{Level: qr.H})
			if err == nil && m.Version < v {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		text := textOf(chunk, lo)
		t.Run(strconv.Itoa(v), func(t *testing.T) {
			file := filepath.Join(dir, "v"+strconv.Itoa(v)+".png")
			code, _, stderr := run(t, "", "-o", file, "--size", "1400", "--logo", logo, "--", text)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := decode(t, file); string(got) != text {
				t.Errorf("zbarimg decoded %q, want %q", got, text)
			}
			if got := cmd(t, zxing, "-format", "QRCode", "-bytes", file); string(got) != text {
				t.Errorf("ZXingReader decoded %q, want %q", got, text)
			}
		})
	}
}

// textOf is the first n bytes of chunk repeated, whole characters only.
func textOf(chunk string, n int) string {
	s := strings.Repeat(chunk, n/len(chunk)+1)[:n]
	return strings.ToValidUTF8(s, "")
}
