// Package pdffont shapes text in any script the product prints and embeds
// the fonts it needs in PDF files as subsets: Type0 fonts over a
// CIDFontType2 (TrueType outlines, Identity-H; a glyph's CID is its ID in
// the full font, which a CIDToGIDMap maps to the subset's) with a W array
// and a ToUnicode CMap, so the text prints as drawn and pdftotext gets it
// back.
//
// Go's fonts cover Latin, Greek and Cyrillic; Noto subsets compiled into
// the binary (fonts/, OFL) cover Arabic, Hebrew, Devanagari, Thai, and the
// common Han characters, kana and hangul. Characters none of them has, such
// as emoji, are dropped.
package pdffont

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/go-text/typesetting/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

var (
	//go:embed fonts/NotoSansArabic-Bold.ttf
	notoArabic []byte
	//go:embed fonts/NotoSansHebrew-Bold.ttf
	notoHebrew []byte
	//go:embed fonts/NotoSansDevanagari-Bold.ttf
	notoDevanagari []byte
	//go:embed fonts/NotoSansThai-Bold.ttf
	notoThai []byte
	//go:embed fonts/NotoSansCJKsc-Bold-subset.ttf
	notoCJK []byte
)

// embedded is one font file the package can embed.
type embedded struct {
	name string // PostScript name, after the subset tag
	ttf  []byte
	// parsed once, on first use; Font is safe for concurrent use.
	load func() (*font.Font, *sfnt)
}

func newEmbedded(name string, ttf []byte) *embedded {
	e := &embedded{name: name, ttf: ttf}
	e.load = sync.OnceValues(func() (*font.Font, *sfnt) {
		face, err := font.ParseTTF(bytes.NewReader(ttf))
		if err != nil {
			panic("pdffont: " + name + ": " + err.Error()) // compiled in: tests parse every one
		}
		sf, err := parseSFNT(ttf)
		if err != nil {
			panic("pdffont: " + name + ": " + err.Error())
		}
		return face.Font, sf
	})
	return e
}

// The fonts by resource index: a document names font i /Pi.
var fonts = []*embedded{
	newEmbedded("GoRegular", goregular.TTF),
	newEmbedded("GoBold", gobold.TTF),
	newEmbedded("NotoSansArabic-Bold", notoArabic),
	newEmbedded("NotoSansHebrew-Bold", notoHebrew),
	newEmbedded("NotoSansDevanagari-Bold", notoDevanagari),
	newEmbedded("NotoSansThai-Bold", notoThai),
	newEmbedded("NotoSansCJKsc-Bold", notoCJK),
}

// fallbacks follow the Go font in the order fonts are tried for a
// character; the scripts do not overlap, so the order only matters for
// the common characters (digits, punctuation), which the Go font has.
const firstFallback = 2
