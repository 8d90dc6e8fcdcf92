package render

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
)

// capHeight of Helvetica-Bold in ems, to centre capitals vertically.
const capHeight = 0.718

// helveticaBold holds the advance widths (per 1000 em) of the standard
// PDF font Helvetica-Bold for ASCII 32..126, so the layout can fit and the
// PDF can centre the frame text without embedding a font.
var helveticaBold = [95]uint16{
	278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
	333, 333, 584, 584, 584, 611, 975, // : to @
	722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, // A-M
	722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N-Z
	333, 278, 333, 584, 556, 333, // [ to `
	556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, // a-m
	611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, // n-z
	389, 280, 389, 584, // { to ~
}

// helveticaBoldWidth is the width of s in ems; characters outside ASCII
// count as an average capital.
func helveticaBoldWidth(s string) float32 {
	var w int
	for _, r := range s {
		if r >= 32 && r <= 126 {
			w += int(helveticaBold[r-32])
		} else {
			w += 667
		}
	}
	return float32(w) / 1000
}

// WinAnsi maps text to WinAnsiEncoding bytes for a PDF string: Latin-1
// characters map to themselves, common punctuation to its WinAnsi code,
// anything else becomes '?' (the standard fonts have no other glyphs).
func WinAnsi(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r >= 32 && r <= 126 || r >= 0xa0 && r <= 0xff:
			b = append(b, byte(r))
		case winAnsiExtra[r] != 0:
			b = append(b, winAnsiExtra[r])
		default:
			b = append(b, '?')
		}
	}
	return b
}

var winAnsiExtra = map[rune]byte{
	'€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92,
	'“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '™': 0x99,
}

// goBold is the font PNG text is drawn in (SVG names a font stack; PDF
// uses Helvetica-Bold): parsed once, on first use.
var goBold = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) })

// pngFace returns a Go Bold face of the given pixel size.
func pngFace(px float64) (font.Face, error) {
	f, err := goBold()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
}
