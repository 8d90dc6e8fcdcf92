package pdffont

import (
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// sfnt is a TrueType font's table directory, enough to cut a subset.
type sfnt struct {
	tables    map[string][]byte
	numGlyphs int
	longLoca  bool
	upem      float32
}

var errFont = errors.New("malformed TrueType font")

func parseSFNT(b []byte) (*sfnt, error) {
	if len(b) < 12 {
		return nil, errFont
	}
	n := int(binary.BigEndian.Uint16(b[4:]))
	if len(b) < 12+16*n {
		return nil, errFont
	}
	f := &sfnt{tables: make(map[string][]byte, n)}
	for i := range n {
		rec := b[12+16*i:]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(b)) {
			return nil, errFont
		}
		f.tables[string(rec[:4])] = b[off : off+length]
	}
	head, maxp, hhea := f.tables["head"], f.tables["maxp"], f.tables["hhea"]
	if len(head) < 54 || len(maxp) < 6 || len(hhea) < 36 || f.tables["glyf"] == nil || f.tables["loca"] == nil {
		return nil, errFont // not TrueType outlines
	}
	f.upem = float32(binary.BigEndian.Uint16(head[18:]))
	f.longLoca = binary.BigEndian.Uint16(head[50:]) == 1
	f.numGlyphs = int(binary.BigEndian.Uint16(maxp[4:]))
	locaEntry := 2
	if f.longLoca {
		locaEntry = 4
	}
	if len(f.tables["loca"]) < (f.numGlyphs+1)*locaEntry || len(f.tables["hmtx"]) < 4*f.numHMetrics() {
		return nil, errFont
	}
	return f, nil
}

func (f *sfnt) numHMetrics() int {
	return int(binary.BigEndian.Uint16(f.tables["hhea"][34:]))
}

// glyph is glyph g's data in glyf (nil for an empty glyph).
func (f *sfnt) glyph(g uint16) []byte {
	if int(g) >= f.numGlyphs {
		return nil
	}
	loca, glyf := f.tables["loca"], f.tables["glyf"]
	var a, b int
	if f.longLoca {
		a, b = int(binary.BigEndian.Uint32(loca[4*int(g):])), int(binary.BigEndian.Uint32(loca[4*int(g)+4:]))
	} else {
		a, b = 2*int(binary.BigEndian.Uint16(loca[2*int(g):])), 2*int(binary.BigEndian.Uint16(loca[2*int(g)+2:]))
	}
	if a >= b || b > len(glyf) {
		return nil
	}
	return glyf[a:b]
}

// advance is glyph g's advance width in font units.
func (f *sfnt) advance(g uint16) uint16 {
	i := min(int(g), f.numHMetrics()-1)
	return binary.BigEndian.Uint16(f.tables["hmtx"][4*i:])
}

// lsb is glyph g's left side bearing, which rasterisers use to place the
// outline: it must stay as the font has it.
func (f *sfnt) lsb(g uint16) []byte {
	hmtx, n := f.tables["hmtx"], f.numHMetrics()
	at := 4*int(g) + 2
	if int(g) >= n {
		at = 4*n + 2*(int(g)-n)
	}
	if at+2 > len(hmtx) {
		return []byte{0, 0}
	}
	return hmtx[at : at+2]
}

// Composite glyph flags.
const (
	argsAreWords    = 0x0001
	haveScale       = 0x0008
	moreComponents  = 0x0020
	haveXYScale     = 0x0040
	haveTwoByTwo    = 0x0080
	haveInstrutions = 0x0100
)

// components calls fn with the offset of each component's glyph index in
// a composite glyph, and returns the offset after the last component.
func components(g []byte, fn func(at int)) int {
	at := 10
	for at+4 <= len(g) {
		flags := binary.BigEndian.Uint16(g[at:])
		fn(at + 2)
		at += 4
		if flags&argsAreWords != 0 {
			at += 4
		} else {
			at += 2
		}
		switch {
		case flags&haveScale != 0:
			at += 2
		case flags&haveXYScale != 0:
			at += 4
		case flags&haveTwoByTwo != 0:
			at += 8
		}
		if flags&moreComponents == 0 {
			break
		}
	}
	return min(at, len(g))
}

// stripHints returns glyph data without its TrueType instructions: PDF
// viewers rasterise at print resolution where hinting buys nothing, and
// the font programs that instructions call are not embedded.
func stripHints(g []byte) []byte {
	if len(g) < 10 {
		return nil
	}
	contours := int16(binary.BigEndian.Uint16(g))
	if contours < 0 {
		end := components(g, func(int) {})
		out := slices.Clone(g[:end])
		// Clear "instructions follow" on every component (only the last may set it).
		components(out, func(at int) {
			flags := binary.BigEndian.Uint16(out[at-2:])
			binary.BigEndian.PutUint16(out[at-2:], flags&^haveInstrutions)
		})
		return out
	}
	at := 10 + 2*int(contours)
	if at+2 > len(g) {
		return nil
	}
	n := int(binary.BigEndian.Uint16(g[at:]))
	if at+2+n > len(g) {
		return nil
	}
	out := make([]byte, 0, len(g)-n)
	out = append(out, g[:at]...)
	out = append(out, 0, 0)
	return append(out, g[at+2+n:]...)
}

// subset returns a TrueType font with the glyphs in used and the glyphs
// their composites are built from, renumbered in order from 0 (.notdef,
// which the format requires), and the map from the font's glyph IDs to
// the subset's: 2 bytes, big-endian, for each ID up to the highest used,
// 0 for the others. A PDF uses it as the CIDToGIDMap so that content
// streams, written before the document knows every glyph, can use the
// font's own glyph IDs as CIDs.
func (f *sfnt) subset(used []uint16) (ttf, cidToGID []byte) {
	keep := map[uint16]bool{0: true}
	queue := slices.Clone(used)
	for len(queue) > 0 {
		g := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if keep[g] || int(g) >= f.numGlyphs {
			continue
		}
		keep[g] = true
		if d := f.glyph(g); len(d) >= 10 && int16(binary.BigEndian.Uint16(d)) < 0 {
			components(d, func(at int) { queue = append(queue, binary.BigEndian.Uint16(d[at:])) })
		}
	}
	old := slices.Sorted(maps.Keys(keep))
	n := len(old)
	newID := make(map[uint16]uint16, n)
	for i, g := range old {
		newID[g] = uint16(i)
	}
	cidToGID = make([]byte, 2*(int(old[n-1])+1))
	for i, g := range old {
		binary.BigEndian.PutUint16(cidToGID[2*int(g):], uint16(i))
	}

	var glyf []byte
	loca := make([]byte, 0, 4*(n+1))
	hmtx := make([]byte, 0, 4*n)
	for _, g := range old {
		loca = binary.BigEndian.AppendUint32(loca, uint32(len(glyf)))
		at := len(glyf)
		glyf = append(glyf, stripHints(f.glyph(g))...)
		if d := glyf[at:]; len(d) >= 10 && int16(binary.BigEndian.Uint16(d)) < 0 {
			components(d, func(at int) { binary.BigEndian.PutUint16(d[at:], newID[binary.BigEndian.Uint16(d[at:])]) })
		}
		if len(glyf)%2 == 1 {
			glyf = append(glyf, 0)
		}
		hmtx = binary.BigEndian.AppendUint16(hmtx, f.advance(g))
		hmtx = append(hmtx, f.lsb(g)...)
	}
	loca = binary.BigEndian.AppendUint32(loca, uint32(len(glyf)))

	head := slices.Clone(f.tables["head"][:54])
	clear(head[8:12])                        // checkSumAdjustment, set below
	binary.BigEndian.PutUint16(head[50:], 1) // long loca offsets
	hhea := slices.Clone(f.tables["hhea"][:36])
	binary.BigEndian.PutUint16(hhea[34:], uint16(n))
	maxp := slices.Clone(f.tables["maxp"])
	binary.BigEndian.PutUint16(maxp[4:], uint16(n))
	// post format 3: no glyph names.
	post := append([]byte{0, 3, 0, 0}, f.tables["post"][4:min(32, len(f.tables["post"]))]...)
	post = append(post, make([]byte, 32-len(post))...)

	out := writeSFNT([]table{
		{"cmap", emptyCmap}, {"glyf", glyf}, {"head", head}, {"hhea", hhea}, {"hmtx", hmtx},
		{"loca", loca}, {"maxp", maxp}, {"post", post},
	})
	headAt := 12 + 16*8 + len4(emptyCmap) + len4(glyf) // head follows cmap and glyf
	binary.BigEndian.PutUint32(out[headAt+8:], 0xB1B0AFBA-checksum(out))
	return out, cidToGID
}

// emptyCmap maps no character (a format 4 subtable with only its closing
// segment): the PDF selects glyphs by ID, but font parsers want a cmap.
var emptyCmap = []byte{
	0, 0, 0, 1, // version, one subtable
	0, 3, 0, 1, 0, 0, 0, 12, // Windows Unicode BMP, at offset 12
	0, 4, 0, 24, 0, 0, // format 4, length, language
	0, 2, 0, 2, 0, 0, 0, 0, // one segment: segCountX2, searchRange, entrySelector, rangeShift
	0xff, 0xff, 0, 0, 0xff, 0xff, // endCode, reservedPad, startCode
	0, 1, 0, 0, // idDelta, idRangeOffset
}

type table struct {
	tag  string
	data []byte
}

func len4(b []byte) int { return (len(b) + 3) &^ 3 }

// writeSFNT writes tables (sorted by tag) as a TrueType file.
func writeSFNT(tables []table) []byte {
	n := len(tables)
	entrySelector := 0
	for 1<<(entrySelector+1) <= n {
		entrySelector++
	}
	out := []byte{0, 1, 0, 0}
	out = binary.BigEndian.AppendUint16(out, uint16(n))
	out = binary.BigEndian.AppendUint16(out, uint16(16<<entrySelector))
	out = binary.BigEndian.AppendUint16(out, uint16(entrySelector))
	out = binary.BigEndian.AppendUint16(out, uint16(16*n-16<<entrySelector))
	off := 12 + 16*n
	for _, t := range tables {
		out = append(out, t.tag...)
		out = binary.BigEndian.AppendUint32(out, checksum(t.data))
		out = binary.BigEndian.AppendUint32(out, uint32(off))
		out = binary.BigEndian.AppendUint32(out, uint32(len(t.data)))
		off += len4(t.data)
	}
	for _, t := range tables {
		out = append(out, t.data...)
		out = append(out, make([]byte, len4(t.data)-len(t.data))...)
	}
	return out
}

// checksum is the sum of b's big-endian 32-bit words, zero-padded.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
