package pdffont

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
)

// samples are text in each font's script, in font order.
var samples = []string{"Scan me", "Scan me", "امسح الرمز", "סרוק אותי", "स्कैन करें", "สแกนเลย", "扫描二维码 QRコード 코드를"}

func TestEveryFontParsesAndCoversItsScript(t *testing.T) {
	for i, e := range fonts {
		f, sf := e.load()
		if f.Upem() == 0 || sf.numGlyphs == 0 {
			t.Fatalf("%s: no glyphs", e.name)
		}
		face := font.NewFace(f)
		for _, r := range strings.ReplaceAll(samples[i], " ", "") {
			if i >= firstFallback && r < 0x80 {
				continue // Latin letters come from the Go fonts
			}
			if _, ok := face.NominalGlyph(r); !ok {
				t.Errorf("%s lacks %q", e.name, r)
			}
		}
	}
}

// glyphs lists a line's glyphs in visual order.
func glyphs(l Line) (ids []uint16, text string, fontsUsed []int) {
	for _, r := range l.runs {
		fontsUsed = append(fontsUsed, r.font)
		for _, g := range r.glyphs {
			ids = append(ids, g.id)
			text += g.text
		}
	}
	return ids, text, fontsUsed
}

func TestArabicIsJoinedAndRightToLeft(t *testing.T) {
	const word = "امسح" // alef, meem, seen, hah
	l := Shape(word, true)
	ids, text, used := glyphs(l)
	if !slices.Equal(used, []int{2}) {
		t.Fatalf("fonts %v, want Noto Sans Arabic alone", used)
	}
	// Drawn left to right, the last letter comes first.
	if want := "حسما"; text != want {
		t.Errorf("visual order %q, want %q", text, want)
	}
	// Meem, seen and hah join their neighbours: none is its isolated form.
	face := font.NewFace(must(fonts[2].load()))
	for i, r := range []rune(word)[1:] {
		iso, _ := face.NominalGlyph(r)
		if got := ids[len(ids)-2-i]; got == uint16(iso) {
			t.Errorf("%q printed in its isolated form %d", r, got)
		}
	}
}

// Punctuation inside Arabic stays in the Arabic font, so the run stays
// whole (and extraction keeps it one word).
func TestPunctuationStaysInItsScriptsFont(t *testing.T) {
	if _, text, used := glyphs(Shape("بحث.مثال", false)); !slices.Equal(used, []int{2}) || text != "لاثم.ثحب" {
		t.Errorf("fonts %v, visual %q", used, text)
	}
	if _, _, used := glyphs(Shape("a.b", true)); !slices.Equal(used, []int{1}) {
		t.Errorf("fonts %v for Latin, want Go Bold", used)
	}
}

func must(f *font.Font, _ *sfnt) *font.Font { return f }

func TestMixedDirectionsFollowTheBidiAlgorithm(t *testing.T) {
	// In a left-to-right line, numbers after Arabic sit to its left.
	_, text, _ := glyphs(Shape("Scan: امسح 123", false))
	if want := "Scan: 123 حسما"; text != want {
		t.Errorf("visual order %q, want %q", text, want)
	}
	// A right-to-left line reads from the right, Latin inside it left to right.
	_, text, _ = glyphs(Shape("امسح QR", false))
	if want := "QR حسما"; text != want {
		t.Errorf("visual order %q, want %q", text, want)
	}
}

func TestDropsWhatNoFontHas(t *testing.T) {
	l := Shape("Scan\x00 🙂me\u200d", true)
	if l.Text != "Scan me\u200d" {
		t.Errorf("Text = %q", l.Text)
	}
	if l := Shape("🙂🙂", true); l.Text != "" || l.Width != 0 || len(l.runs) != 0 {
		t.Errorf("emoji alone shaped as %+v", l)
	}
	if l := Shape(strings.Repeat("ab", MaxRunes), false); utf8.RuneCountInString(l.Text) != MaxRunes {
		t.Errorf("%d runes shaped, want the cap %d", utf8.RuneCountInString(l.Text), MaxRunes)
	}
	// A combining accent (which Go's fonts lack) is composed first.
	if l := Shape("Café", false); l.Text != "Café" {
		t.Errorf("decomposed é shaped as %q", l.Text)
	}
	// Invalid UTF-8 decodes to U+FFFD, which Go's fonts have.
	if l := Shape("a\xffb", false); l.Text != "a\uFFFDb" {
		t.Errorf("invalid UTF-8 shaped as %q", l.Text)
	}
}

func TestFitCutsWithAnEllipsis(t *testing.T) {
	long := strings.Repeat("扫描二维码", 20)
	l := Fit(long, false, 10)
	if l.Width > 10 || !strings.HasSuffix(l.Text, "…") || !strings.HasPrefix(long, strings.TrimSuffix(l.Text, "…")) {
		t.Errorf("Fit = %q, %v ems", l.Text, l.Width)
	}
	if n := utf8.RuneCountInString(l.Text); n != 10 { // nine one-em ideographs and the ellipsis
		t.Errorf("%d runes kept", n)
	}
	if l := Fit("Scan me", false, 10); l.Text != "Scan me" {
		t.Errorf("short text changed to %q", l.Text)
	}
}

// TestSubsetKeepsTheUsedGlyphs parses each subset again and compares the
// outlines and advances of the glyphs it should hold with the full font's.
func TestSubsetKeepsTheUsedGlyphs(t *testing.T) {
	for i, e := range fonts {
		full, sf := e.load()
		fullFace := font.NewFace(full)
		ids, _, _ := glyphs(Shape(samples[i], i == 1))
		if i == 0 {
			// A composite glyph (é is e and an accent in Go's fonts): its
			// parts must come along.
			ids, _, _ = glyphs(Shape("é", false))
		}
		ttf, cidToGID := sf.subset(ids)
		sub, err := font.ParseTTF(bytes.NewReader(ttf))
		if err != nil {
			t.Fatalf("%s subset: %v", e.name, err)
		}
		if len(ttf) >= len(e.ttf) {
			t.Errorf("%s subset is %d bytes, the font %d", e.name, len(ttf), len(e.ttf))
		}
		drawn := 0
		for _, id := range ids {
			sid := ot.GID(binary.BigEndian.Uint16(cidToGID[2*int(id):]))
			want, _ := fullFace.GlyphDataOutline(ot.GID(id))
			got, ok := sub.GlyphDataOutline(sid)
			drawn += len(got.Segments)
			if !ok || !slices.Equal(got.Segments, want.Segments) {
				t.Errorf("%s glyph %d (%d in the subset): %d segments, want %d", e.name, id, sid, len(got.Segments), len(want.Segments))
			}
			if a, b := sub.HorizontalAdvance(sid), fullFace.HorizontalAdvance(ot.GID(id)); a != b {
				t.Errorf("%s glyph %d: advance %v, want %v", e.name, id, a, b)
			}
		}
		if drawn == 0 {
			t.Errorf("%s: no outlines in %q", e.name, samples[i])
		}
		// Glyphs the text does not use are left out: at most the parts of
		// composites (one or two each) and .notdef come along.
		if again, err := parseSFNT(ttf); err != nil {
			t.Errorf("%s subset: %v", e.name, err)
		} else if again.numGlyphs > 3*len(ids)+1 {
			t.Errorf("%s: subset of %d glyphs for %d used", e.name, again.numGlyphs, len(ids))
		}
	}
}

func TestShapeConcurrently(t *testing.T) {
	want := make([]Line, len(samples))
	for i, s := range samples {
		want[i] = Shape(s, true)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				for i, s := range samples {
					ids, _, _ := glyphs(Shape(s, true))
					if w, _, _ := glyphs(want[i]); !slices.Equal(ids, w) {
						errs <- s
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Errorf("%q shaped differently in parallel", s)
	}
}

// fakeWriter numbers objects as a PDF writer would, keeping their bodies.
type fakeWriter struct{ objects []string }

func (w *fakeWriter) Object(body string) int {
	w.objects = append(w.objects, body)
	return len(w.objects)
}

func (w *fakeWriter) Stream(dict string, data []byte) int { return w.Object(dict + string(data)) }

// FuzzShape: any text shapes, shows and writes without a panic, with a
// finite width and every glyph drawn in a font that is written.
func FuzzShape(f *testing.F) {
	for _, s := range append(samples, "", "\xff\xfe", "\u0301\u0301", "\u202eabc\u202c", "\u2067امسح\u2069 x", "a\u200db", "(ﷺ)", "👩‍👩‍👧", "\u0e31\u0e31") {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, bold bool) {
		l := Shape(s, bold)
		if !(l.Width >= 0 && l.Width < 1e6) {
			t.Fatalf("width %v", l.Width)
		}
		var fonts Fonts
		content := fonts.Show(nil, l, 12, 0, 0)
		res := fonts.Write(&fakeWriter{})
		if bytes.Count(content, []byte("BT")) != bytes.Count(content, []byte(" ET")) {
			t.Fatalf("unbalanced text object: %s", content)
		}
		for _, r := range l.runs {
			if !strings.Contains(res, "/P"+string(rune('0'+r.font))+" ") {
				t.Fatalf("font %d used but not written: %q", r.font, res)
			}
		}
	})
}

func TestMissingNamesWhatNoFontPrints(t *testing.T) {
	for s, want := range map[string]string{
		"Scan me": "",
		"Menü – Ελληνικά العربية 日本語": "",
		"Scan me 🎉☕":      "🎉☕",
		"👍🏽 ok 👍🏽":        "👍🏽",
		"❤️ family 👨‍👩‍👧": "❤👨👩👧",
	} {
		if got := string(Missing(s)); got != want {
			t.Errorf("Missing(%q) = %q, want %q", s, got, want)
		}
	}
}
