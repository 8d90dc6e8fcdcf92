package pdffont

import (
	"encoding/hex"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
)

// Writer is the part of the PDF object writer (render.PDFWriter) that
// fonts are written through.
type Writer interface {
	Object(body string) int
	Stream(dict string, data []byte) int
}

// Fonts records the glyphs a document's content streams use, font by
// font, and writes the fonts at the end. The zero value is ready to use.
type Fonts struct {
	used []map[uint16]string // by font index: glyph ID → the characters it stands for
}

// Show appends PDF content operators that draw l at size points with its
// left end at (x, y) on the baseline, in PDF coordinates, and records the
// glyphs. Glyphs are drawn in visual order. A line that runs left to right
// throughout is marked with its text as ActualText, so extraction reads
// the characters as written whatever the shaper did (Devanagari vowel
// signs drawn before their consonant, conjuncts). Right-to-left lines are
// not: poppler reorders ActualText as if it were visual, reversing it,
// while from the ToUnicode map of the glyphs in visual order it rebuilds
// the logical order itself.
func (f *Fonts) Show(b []byte, l Line, size, x, y float32) []byte {
	if len(l.runs) == 0 {
		return b
	}
	if f.used == nil {
		f.used = make([]map[uint16]string, len(fonts))
	}
	if !l.rtl {
		b = append(b, "/Span << /ActualText <FEFF"...)
		b = hex.AppendEncode(b, utf16BE(l.Text))
		b = append(b, "> >> BDC "...)
	}
	b = append(b, "BT "...)
	b = appendNum(b, x)
	b = append(b, ' ')
	b = appendNum(b, y)
	b = append(b, " Td"...)
	var rise float32
	for _, r := range l.runs {
		_, sf := fonts[r.font].load()
		used := f.used[r.font]
		if used == nil {
			used = map[uint16]string{}
			f.used[r.font] = used
		}
		b = append(b, " /P"...)
		b = strconv.AppendInt(b, int64(r.font), 10)
		b = append(b, ' ')
		b = appendNum(b, size)
		b = append(b, " Tf ["...)
		for _, g := range r.glyphs {
			if t, ok := used[g.id]; !ok || t == "" {
				used[g.id] = g.text // a glyph's first text wins
			}
			if g.dy != rise {
				// A mark set above or below: the text rise moves it.
				rise = g.dy
				b = append(b, "] TJ "...)
				b = appendNum(b, rise*size)
				b = append(b, " Ts ["...)
			}
			// TJ numbers are thousandths of an em moving the pen left.
			if g.dx != 0 {
				b = appendNum(append(b, ' '), -g.dx*1000)
			}
			b = append(b, '<')
			b = hex.AppendEncode(b, []byte{byte(g.id >> 8), byte(g.id)})
			b = append(b, '>')
			// The font's W width moves the pen; the shaper's advance (kerning,
			// marks that take none) may differ.
			if adj := width(sf, g.id) - (g.adv-g.dx)*1000; adj > 0.05 || adj < -0.05 {
				b = appendNum(append(b, ' '), adj)
			}
		}
		b = append(b, "] TJ"...)
	}
	if rise != 0 {
		b = append(b, " 0 Ts"...)
	}
	b = append(b, " ET"...)
	if !l.rtl {
		b = append(b, " EMC"...)
	}
	return append(b, '\n')
}

// width is glyph g's width in the W array: thousandths of an em, rounded
// to what appendNum writes.
func width(sf *sfnt, g uint16) float32 {
	return float32(math.Round(float64(sf.advance(g))*1000/float64(sf.upem)*100)) / 100
}

// Write writes the fonts Show used as subsets and returns the font
// resource dictionary's entries ("/P1 5 0 R ..."), empty if none.
func (f *Fonts) Write(w Writer) string {
	var res []byte
	for i, used := range f.used {
		if len(used) == 0 {
			continue
		}
		res = append(res, " /P"...)
		res = strconv.AppendInt(res, int64(i), 10)
		res = append(res, ' ')
		res = strconv.AppendInt(res, int64(writeFont(w, fonts[i], used)), 10)
		res = append(res, " 0 R"...)
	}
	return string(res)
}

// writeFont writes one font's Type0 dictionary and what it refers to, and
// returns the Type0 dictionary's object number.
func writeFont(w Writer, e *embedded, text map[uint16]string) int {
	_, sf := e.load()
	ids := slices.Sorted(maps.Keys(text))
	ttf, cidToGID := sf.subset(ids)

	// The subset tag: six capitals that differ between different subsets.
	h := fnv.New32a()
	for _, id := range ids {
		h.Write([]byte{byte(id >> 8), byte(id)})
	}
	sum := h.Sum32()
	tag := make([]byte, 6)
	for i := range tag {
		tag[i] = 'A' + byte(sum%26)
		sum /= 26
	}
	name := "/" + string(tag) + "+" + e.name

	head, hhea := sf.tables["head"], sf.tables["hhea"]
	em := func(b []byte) string { // a signed font-unit value in thousandths of an em
		return strconv.Itoa(int(float32(int16(uint16(b[0])<<8|uint16(b[1]))) * 1000 / sf.upem))
	}
	capHeight := em(hhea[4:]) // the ascender, unless OS/2 says better
	if os2 := sf.tables["OS/2"]; len(os2) >= 90 && int16(uint16(os2[88])<<8|uint16(os2[89])) > 0 {
		capHeight = em(os2[88:])
	}
	file := w.Stream("/Length1 "+strconv.Itoa(len(ttf)), ttf)
	desc := w.Object("<< /Type /FontDescriptor /FontName " + name + " /Flags 4 /FontBBox [" +
		em(head[36:]) + " " + em(head[38:]) + " " + em(head[40:]) + " " + em(head[42:]) + "] /ItalicAngle 0 /Ascent " +
		em(hhea[4:]) + " /Descent " + em(hhea[6:]) + " /CapHeight " + capHeight + " /StemV 80 /FontFile2 " +
		strconv.Itoa(file) + " 0 R >>")

	widths := []byte("[")
	for _, id := range ids {
		widths = strconv.AppendInt(widths, int64(id), 10)
		widths = append(widths, " ["...)
		widths = appendNum(widths, width(sf, id))
		widths = append(widths, "] "...)
	}
	widths = append(widths, ']')
	cid := w.Object("<< /Type /Font /Subtype /CIDFontType2 /BaseFont " + name +
		" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor " +
		strconv.Itoa(desc) + " 0 R /CIDToGIDMap " + strconv.Itoa(w.Stream("", cidToGID)) + " 0 R /W " + string(widths) + " >>")
	toUnicode := w.Stream("", toUnicodeCMap(ids, text))
	return w.Object("<< /Type /Font /Subtype /Type0 /BaseFont " + name + " /Encoding /Identity-H /DescendantFonts [" +
		strconv.Itoa(cid) + " 0 R] /ToUnicode " + strconv.Itoa(toUnicode) + " 0 R >>")
}

// toUnicodeCMap maps each glyph to the characters it stands for: a joined
// Arabic form to its letter, a ligature to its letters.
func toUnicodeCMap(ids []uint16, text map[uint16]string) []byte {
	b := []byte("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n" +
		"1 begincodespacerange <0000> <FFFF> endcodespacerange\n")
	var with []uint16
	for _, id := range ids {
		if text[id] != "" {
			with = append(with, id)
		}
	}
	for len(with) > 0 { // at most 100 entries a block
		n := min(len(with), 100)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " beginbfchar\n"...)
		for _, id := range with[:n] {
			b = append(b, '<')
			b = hex.AppendEncode(b, []byte{byte(id >> 8), byte(id)})
			b = append(b, "> <"...)
			b = hex.AppendEncode(b, utf16BE(text[id]))
			b = append(b, ">\n"...)
		}
		b = append(b, "endbfchar\n"...)
		with = with[n:]
	}
	return append(b, "endcmap CMapName currentdict /CMap defineresource pop end end\n"...)
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

// appendNum writes v with at most two decimals.
func appendNum(b []byte, v float32) []byte {
	v = float32(math.Round(float64(v)*100)) / 100
	if v == 0 {
		return append(b, '0') // not "-0"
	}
	return strconv.AppendFloat(b, float64(v), 'f', -1, 32)
}
