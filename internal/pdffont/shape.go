package pdffont

import (
	"slices"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
)

// MaxRunes caps the text one Shape call lays out; the rest is cut off.
// Frame text is at most 40 characters and report lines are cut at the
// page's width, so it only bounds the work a long name can cause.
const MaxRunes = 1000

// shapeSize is the size text is shaped at: large, so that the shaper's
// 26.6 fixed-point positions lose nothing that print would show.
const shapeSize = fixed.Int26_6(4096 << 6)

// Line is text shaped for one line, in ems (one em is the font size).
type Line struct {
	Text  string  // the text drawn: the input without what no font has
	Width float32 // advance width
	runs  []run   // in visual order, left to right
	rtl   bool    // some of it runs right to left
}

// run is glyphs of one font, in visual order.
type run struct {
	font   int // index in fonts
	glyphs []glyph
}

type glyph struct {
	id     uint16
	adv    float32 // ems
	dx, dy float32 // offset from the pen, ems, y up
	text   string  // the characters it stands for (clusterText)
}

// shaper is per-goroutine state: Faces cache lookups and are not safe for
// concurrent use, unlike the Fonts they share.
type shaper struct {
	hb     shaping.HarfbuzzShaper
	seg    shaping.Segmenter
	para   bidi.Paragraph
	faces  []*font.Face
	bold   bool
	script language.Script // being segmented (SetScript)
}

var shapers = sync.Pool{New: func() any { return &shaper{faces: make([]*font.Face, len(fonts))} }}

func (s *shaper) face(i int) *font.Face {
	if s.faces[i] == nil {
		f, _ := fonts[i].load()
		s.faces[i] = font.NewFace(f)
	}
	return s.faces[i]
}

// fontFor is the index of the font for r, or -1 if none has it: the
// font of the script being segmented if it has r (so that digits and
// punctuation in an Arabic run stay in the Arabic font, and extraction
// keeps the run whole), else the first font with it.
func (s *shaper) fontFor(r rune) int {
	if f := scriptFonts[s.script]; f != 0 {
		if _, ok := s.face(f).NominalGlyph(r); ok {
			return f
		}
	}
	first := 0
	if s.bold {
		first = 1
	}
	if _, ok := s.face(first).NominalGlyph(r); ok {
		return first
	}
	for i := firstFallback; i < len(fonts); i++ {
		if _, ok := s.face(i).NominalGlyph(r); ok {
			return i
		}
	}
	return -1
}

// scriptFonts are the fallback fonts by the script they are for.
var scriptFonts = map[language.Script]int{
	language.Arabic: 2, language.Hebrew: 3, language.Devanagari: 4, language.Thai: 5,
	language.Han: 6, language.Hiragana: 6, language.Katakana: 6, language.Hangul: 6,
}

// SetScript implements shaping.FontmapScript: the segmenter names the
// script of the runes it asks ResolveFace about next.
func (s *shaper) SetScript(sc language.Script) { s.script = sc }

// ResolveFace implements shaping.Fontmap for the segmenter.
func (s *shaper) ResolveFace(r rune) *font.Face {
	i := s.fontFor(r)
	if i < 0 {
		i = s.fontFor(' ')
	}
	return s.face(i)
}

// Shape lays s out on one line in Go Regular or Go Bold, with the Noto
// fonts for the scripts Go's fonts lack. Right-to-left text is ordered
// for display and Arabic letters take their joined forms. The text is
// composed (NFC) first; control characters and characters no font has
// (emoji) are dropped.
func Shape(s string, bold bool) Line {
	sh := shapers.Get().(*shaper)
	defer shapers.Put(sh)
	sh.bold, sh.script = bold, 0

	// Composed forms: the fonts have é, not always e and a combining accent.
	n := 0
	for i := range s {
		if n == MaxRunes {
			s = s[:i]
			break
		}
		n++
	}
	s = norm.NFC.String(s)
	text := make([]rune, 0, min(len(s), MaxRunes))
	for _, r := range s {
		if len(text) == MaxRunes {
			break
		}
		// Joiners and direction marks stay: they steer shaping and bidi.
		// Line and paragraph separators go, with controls: this is one line
		// (and the bidi algorithm stops at a paragraph's end).
		if r >= 0x200c && r <= 0x200f || !unicode.IsControl(r) && !unicode.In(r, unicode.Zl, unicode.Zp) && sh.fontFor(r) >= 0 {
			text = append(text, r)
		}
	}
	l := Line{Text: string(text)}
	if len(text) == 0 {
		return l
	}
	// The bidi algorithm's runs, each shaped in runs of one script and
	// font, then put in visual order by their levels.
	var items []item
	levels := sh.para.Segment(text, bidi.Neutral)
	for i := range levels.NumRuns() {
		br := levels.Run(i)
		in := shaping.Input{Text: text, RunStart: br.Start, RunEnd: br.End, Direction: di.DirectionLTR, Size: shapeSize}
		if !br.IsLeftToRight() {
			in.Direction = di.DirectionRTL
		}
		for _, part := range sh.seg.Split(in, sh) {
			items = append(items, item{sh.hb.Shape(part), br.Level})
		}
	}
	reorder(items)
	for _, it := range items {
		o := it.out
		l.rtl = l.rtl || it.level%2 == 1
		r := run{font: sh.indexOf(o.Face)}
		scale := 1 / float32(o.Face.Upem())
		for i := 0; i < len(o.Glyphs); {
			// A cluster's glyphs are adjacent.
			c := o.Glyphs[i]
			j := i + 1
			for j < len(o.Glyphs) && o.Glyphs[j].ClusterIndex == c.ClusterIndex {
				j++
			}
			texts := clusterText(o.Face, o.Glyphs[i:j], text[c.ClusterIndex:c.ClusterIndex+c.RuneCount])
			for k, g := range o.Glyphs[i:j] {
				gl := glyph{
					id:   uint16(g.GlyphID),
					adv:  o.ToFontUnit(g.Advance) * scale,
					dx:   o.ToFontUnit(g.XOffset) * scale,
					dy:   o.ToFontUnit(g.YOffset) * scale,
					text: texts[k],
				}
				l.Width += gl.adv
				r.glyphs = append(r.glyphs, gl)
			}
			i = j
		}
		l.runs = append(l.runs, r)
	}
	return l
}

// clusterText shares a cluster's characters among its glyphs for the
// ToUnicode map: a glyph that is a character's own (its cmap glyph) takes
// that character, the first glyph takes what is left (joined forms,
// ligatures, conjuncts), so a glyph reused elsewhere keeps its meaning.
func clusterText(face *font.Face, glyphs []shaping.Glyph, runes []rune) []string {
	texts := make([]string, len(glyphs))
	taken := make([]bool, len(runes))
	for k, g := range glyphs {
		for ri, r := range runes {
			if id, ok := face.NominalGlyph(r); ok && !taken[ri] && id == g.GlyphID {
				texts[k], taken[ri] = string(r), true
				break
			}
		}
	}
	var rest []rune
	for ri, r := range runes {
		if !taken[ri] {
			rest = append(rest, r)
		}
	}
	texts[0] += string(rest)
	return texts
}

func (s *shaper) indexOf(f *font.Face) int {
	for i, g := range s.faces {
		if g == f {
			return i
		}
	}
	panic("pdffont: a face the segmenter was not given")
}

type item struct {
	out   shaping.Output
	level bidi.Level
}

// reorder puts items in visual order, left to right, by Unicode's rule
// L2: from the highest level to the lowest odd one, reverse every stretch
// of items at that level or higher. (Each right-to-left item's glyphs
// already come from the shaper in visual order.)
func reorder(items []item) {
	var highest bidi.Level
	lowestOdd := bidi.Level(127)
	for _, it := range items {
		highest = max(highest, it.level)
		if it.level%2 == 1 {
			lowestOdd = min(lowestOdd, it.level)
		}
	}
	for lvl := highest; lvl >= lowestOdd; lvl-- {
		for i := 0; i < len(items); i++ {
			j := i
			for j < len(items) && items[j].level >= lvl {
				j++
			}
			slices.Reverse(items[i:j])
			i = j
		}
	}
}

// Fit is Shape, cut short with an ellipsis if the line would be wider
// than width ems, so that long names stay inside the page.
func Fit(s string, bold bool, width float32) Line {
	l := Shape(s, bold)
	if l.Width <= width {
		return l
	}
	// The longest prefix (of what Shape kept) that fits with the ellipsis.
	runes := []rune(l.Text)
	lo, hi := 0, len(runes)-1
	fit := Shape("…", bold)
	for lo <= hi {
		mid := (lo + hi) / 2
		if c := Shape(string(runes[:mid])+"…", bold); c.Width <= width {
			fit, lo = c, mid+1
		} else {
			hi = mid - 1
		}
	}
	return fit
}

// Missing is the characters of s that no font here has, so Shape would
// drop them (emoji, most pictographs), once each in order of appearance.
// Spaces, controls, joiners and variation selectors, which show nothing
// of their own, are not counted.
func Missing(s string) []rune {
	sh := shapers.Get().(*shaper)
	defer shapers.Put(sh)
	sh.bold, sh.script = true, 0
	var out []rune
	for _, r := range norm.NFC.String(s) {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if sh.fontFor(r) < 0 && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
