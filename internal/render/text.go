package render

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
)

// capHeight of Go Bold in ems, to centre capitals vertically.
const capHeight = 0.723

// goBold is the font PNG text is drawn in (SVG names a font stack; PDF
// and EPS use internal/pdffont): parsed once, on first use.
var goBold = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) })

// pngFace returns a Go Bold face of the given pixel size.
func pngFace(px float64) (font.Face, error) {
	f, err := goBold()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
}
