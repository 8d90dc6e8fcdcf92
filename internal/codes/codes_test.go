package codes

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/testenv"
)

func TestNormalizeDefaults(t *testing.T) {
	got, err := Style{}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := Style{
		FgColor: "#000000", BgColor: "#FFFFFF", GradientType: "linear", GradientAngle: angle(135),
		DotShape: "square", CornerShape: "square",
		InnerCornerShape: "square", LogoSize: "medium", FrameText: "SCAN ME",
		FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Normalize() =\n%+v\nwant\n%+v", got, want)
	}
}

func angle(a int) *int { return &a }

// TestNormalizeGradient: the gradient's settings are kept with a colour
// and reset to the defaults without one.
func TestNormalizeGradient(t *testing.T) {
	got, err := Style{GradientColor: "#C2185B", GradientType: "radial", GradientAngle: angle(0), GradientOnEyes: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if got.GradientType != "radial" || *got.GradientAngle != 0 || !got.GradientOnEyes {
		t.Errorf("with a colour: %+v", got)
	}
	got, err = Style{GradientType: "radial", GradientAngle: angle(10), GradientOnEyes: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if got.GradientType != "linear" || *got.GradientAngle != 135 || got.GradientOnEyes {
		t.Errorf("without a colour: %+v", got)
	}
}

func TestNormalizeCanonicalColours(t *testing.T) {
	got, err := Style{FgColor: "1a2b3c", BgColor: " #fff ", GradientColor: "#abc", FrameText: "  Hi  "}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if got.FgColor != "#1A2B3C" || got.BgColor != "#FFFFFF" || got.GradientColor != "#AABBCC" || got.FrameText != "Hi" {
		t.Errorf("got %+v", got)
	}
}

func TestNormalizeRefusals(t *testing.T) {
	for _, c := range []struct {
		s     Style
		field string
	}{
		{Style{FgColor: "black"}, "fgColor"},
		{Style{BgColor: "#12345"}, "bgColor"},
		{Style{GradientColor: "#GGGGGG"}, "gradientColor"},
		{Style{OuterCornerColor: "red"}, "outerCornerColor"},
		{Style{InnerCornerColor: "#1"}, "innerCornerColor"},
		{Style{FrameColor: "x"}, "frameColor"},
		{Style{FrameTextColor: "x"}, "frameTextColor"},
		{Style{DotShape: "star"}, "dotShape"},
		{Style{CornerShape: "rounded"}, "cornerShape"},
		{Style{InnerCornerShape: "heart"}, "innerCornerShape"},
		{Style{LogoSize: "huge"}, "logoSize"},
		{Style{FrameStyle: "dotted"}, "frameStyle"},
		{Style{FrameText: strings.Repeat("é", 41)}, "frameText"},
		{Style{FrameText: "Scan me 🎉"}, "frameText"},
		{Style{GradientType: "conic"}, "gradientType"},
		{Style{GradientAngle: angle(360)}, "gradientAngle"},
		{Style{GradientAngle: angle(-1)}, "gradientAngle"},
		{Style{CornerShape: "classy"}, "cornerShape"},
		{Style{InnerCornerShape: "dots"}, "innerCornerShape"},
		{Style{DotShape: "dot"}, "dotShape"},
	} {
		_, err := c.s.Normalize()
		field, msg, ok := Refusal(err)
		if !ok || field != c.field || msg == "" {
			t.Errorf("%+v: Refusal(%v) = %q, %q, %v; want field %s", c.s, err, field, msg, ok, c.field)
		}
	}
}

// Emoji are refused in words that name them, not dropped from the print.
func TestNormalizeRefusesEmojiInFrameText(t *testing.T) {
	_, err := Style{FrameText: "Coffee ☕ here 🎉"}.Normalize()
	if field, msg, _ := Refusal(err); field != "frameText" || msg != "Frame text cannot include ☕🎉: emoji and such symbols cannot be printed. Please remove them." {
		t.Errorf("Refusal = %q, %q", field, msg)
	}
	if _, err := (Style{FrameText: "Menü · メニュー · قائمة"}).Normalize(); err != nil {
		t.Errorf("text in other scripts refused: %v", err)
	}
}

func TestFormStyle(t *testing.T) {
	form := map[string]string{"fgColor": "#112233", "dotShape": "circle", "enableFrame": "true", "frameText": "Menu"}
	s, err := FormStyle(func(k string) string { return form[k] })
	if err != nil {
		t.Fatal(err)
	}
	if s.FgColor != "#112233" || s.DotShape != "circle" || !s.EnableFrame || s.FrameText != "Menu" {
		t.Errorf("FormStyle = %+v", s)
	}
	form["gradientAngle"], form["gradientOnEyes"], form["gradientType"] = "90", "true", "radial"
	if s, err = FormStyle(func(k string) string { return form[k] }); err != nil || *s.GradientAngle != 90 || !s.GradientOnEyes || s.GradientType != "radial" {
		t.Errorf("gradient fields: %+v, %v", s, err)
	}
	for k, v := range map[string]string{"gradientAngle": "ninety", "gradientOnEyes": "maybe"} {
		f := map[string]string{k: v}
		_, err = FormStyle(func(k string) string { return f[k] })
		if field, _, ok := Refusal(err); !ok || field != k {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
	form["enableFrame"] = "maybe"
	_, err = FormStyle(func(k string) string { return form[k] })
	if field, _, ok := Refusal(err); !ok || field != "enableFrame" {
		t.Errorf("enableFrame=maybe: %v", err)
	}
}

func TestRefusal(t *testing.T) {
	if _, _, ok := Refusal(errors.New("disk on fire")); ok {
		t.Error("an internal error was taken for the user's")
	}
	var buf bytes.Buffer
	err := Write(&buf, strings.Repeat("x", 3000), Style{}, Options{Level: qr.H, Format: SVG})
	field, msg, ok := Refusal(err)
	if !ok || field != "data" || msg != "The amount of data is too big to be stored in a QR Code" {
		t.Errorf("too much data: %q %q %v (%v)", field, msg, ok, err)
	}
	if buf.Len() != 0 {
		t.Error("a refused code wrote bytes")
	}
	err = Write(&buf, "x", Style{FgColor: "#FFFFFF", BgColor: "#000000"}, Options{Format: PNG})
	if field, _, ok := Refusal(err); !ok || field != "fgColor" {
		t.Errorf("inverted colours: %v", err)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"png": PNG, "SVG": SVG, " pdf ": PDF} {
		if f, ok := ParseFormat(in); !ok || f != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, f, ok)
		}
	}
	for _, in := range []string{"", "gif", "jpeg"} {
		if _, ok := ParseFormat(in); ok {
			t.Errorf("ParseFormat(%q) accepted", in)
		}
	}
	if PDF.ContentType() != "application/pdf" || SVG.ContentType() != "image/svg+xml" || PNG.ContentType() != "image/png" {
		t.Error("content types")
	}
}

// TestWriteScans renders a styled PNG at the download size and reads it
// back with zbarimg.
func TestWriteScans(t *testing.T) {
	zbar := testenv.Command(t, "zbarimg")
	const data = "https://example.com/menu?table=7"
	s, err := Style{FgColor: "#1E3A8A", GradientColor: "#7C3AED", DotShape: "circle", CornerShape: "curve-square", EnableFrame: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, data, s, Options{Format: PNG, Level: qr.H, Pixels: PreviewPixels * DownloadScale}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	// The frame adds 20% to the width (render.Style.Pixels).
	if w, want := img.Bounds().Dx(), render.DefaultPixels*6/5; w != want {
		t.Errorf("width %d, want %d", w, want)
	}
	file := filepath.Join(t.TempDir(), "code.png")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(zbar, "--quiet", "--raw", "-Sbinary", file).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	if string(out) != data {
		t.Errorf("decoded %q, want %q", out, data)
	}
}
