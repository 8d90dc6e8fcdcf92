package render

import (
	"bufio"
	"encoding/hex"
	"io"
	"math"
	"strconv"
)

// epsProlog defines the PDF content operators appendVector writes as
// PostScript procedures, in a dictionary of their own so the file does not
// disturb the document it is placed in. Shadings need LanguageLevel 3.
const epsProlog = `/SquarelyDict 24 dict def SquarelyDict begin
/q {gsave} bind def /Q {grestore} bind def
/cm {6 array astore concat} bind def
/m {moveto} bind def /l {lineto} bind def /c {curveto} bind def /h {closepath} bind def
/re {4 2 roll moveto 1 index 0 rlineto 0 exch rlineto neg 0 rlineto closepath} bind def
/f {fill} bind def /W {clip} bind def /n {newpath} bind def
/rg {setrgbcolor} bind def /k {setcmykcolor} bind def
/sh {load shfill} bind def
`

// WriteEPS writes the scene as an EPS 3.0 file (PostScript LanguageLevel
// 3) whose bounding box is the code (Style.Points square, plus the frame's
// share): the same vector paths and shading as the PDF. PostScript has no
// soft masks, so the logo is composited onto the background colour of its
// pad; the frame text is drawn as the glyph outlines of the fonts the PDF
// embeds (Go Bold and the Noto fallbacks), so the file needs no font.
func (sc *Scene) WriteEPS(w io.Writer) error {
	s := float32(sc.points) / float32(sc.n)
	pw, ph := sc.w*s, sc.h*s
	bw := bufio.NewWriter(w)
	bw.WriteString("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 ")
	bw.WriteString(strconv.Itoa(int(math.Ceil(float64(pw)))) + " " + strconv.Itoa(int(math.Ceil(float64(ph)))) + "\n%%HiResBoundingBox: ")
	bw.Write(appendNums(nil, 0, 0, pw, ph))
	bw.WriteString("\n%%Creator: Squarely\n%%LanguageLevel: 3\n")
	if sc.cmyk {
		bw.WriteString("%%DocumentProcessColors: Cyan Magenta Yellow Black\n")
	}
	bw.WriteString("%%Pages: 1\n%%EndComments\n%%BeginProlog\n" + epsProlog)
	if sc.grad != (gradient{}) {
		bw.WriteString("/Sh1 ")
		bw.Write(sc.appendShading(nil))
		bw.WriteString(" def\n")
	}
	bw.WriteString("end\n%%EndProlog\n%%Page: 1 1\nSquarelyDict begin\n")

	body, _ := sc.appendVector(nil, s, ph, sc.appendEPSLogo)
	// The text goes in module space, before the final Q.
	body = body[:len(body)-len("Q\n")]
	if sc.text != nil {
		p := sc.textPath()
		body = sc.appendFill(body, p.paint.color)
		body = append(body, '\n')
		body = appendPDFPath(body, &p)
		body = append(body, "f\n"...)
	}
	bw.Write(body)
	bw.WriteString("Q\nend\nshowpage\n%%EOF\n")
	return bw.Flush()
}

// appendEPSLogo writes the logo as an inline image in the unit square,
// composited onto the scene's background (the colour of the pad under it).
func (sc *Scene) appendEPSLogo(out []byte) []byte {
	l := sc.logo
	b := l.img.Bounds()
	comps, space := 3, "/DeviceRGB"
	if sc.cmyk {
		comps, space = 4, "/DeviceCMYK"
	}
	out = append(out, space+" setcolorspace << /ImageType 1 /Width "+strconv.Itoa(b.Dx())+" /Height "+strconv.Itoa(b.Dy())+
		" /BitsPerComponent 8 /Decode ["+decodeRange(comps)+"] /ImageMatrix ["+strconv.Itoa(b.Dx())+" 0 0 -"+
		strconv.Itoa(b.Dy())+" 0 "+strconv.Itoa(b.Dy())+"] /DataSource currentfile /ASCIIHexDecode filter >> image\n"...)
	bg := sc.bg
	pix := l.img.Pix
	row := make([]byte, 0, 4*b.Dx())
	for i := 0; i < len(pix); i += 4 {
		a := uint32(pix[i+3])
		r := uint8((uint32(pix[i])*a + uint32(bg.R)*(255-a) + 127) / 255)
		g := uint8((uint32(pix[i+1])*a + uint32(bg.G)*(255-a) + 127) / 255)
		bl := uint8((uint32(pix[i+2])*a + uint32(bg.B)*(255-a) + 127) / 255)
		if sc.cmyk {
			c, m, y, k := toCMYK(r, g, bl)
			row = append(row, uint8(c*255+0.5), uint8(m*255+0.5), uint8(y*255+0.5), uint8(k*255+0.5))
		} else {
			row = append(row, r, g, bl)
		}
		if len(row) >= 36 || i+4 == len(pix) {
			out = hex.AppendEncode(out, row)
			out = append(out, '\n')
			row = row[:0]
		}
	}
	return append(out, '>')
}

func decodeRange(comps int) string {
	s := "0 1"
	for range comps - 1 {
		s += " 0 1"
	}
	return s
}
