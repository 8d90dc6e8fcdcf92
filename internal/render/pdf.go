package render

import (
	"bytes"
	"compress/zlib"
	"image/color"
	"io"
	"strconv"
	"sync"

	"github.com/squarely/squarely/internal/pdffont"
)

// WritePDF writes the scene as a one-page PDF 1.4 whose page is the code
// (Style.Points square, plus the frame's share). Paths are filled with the
// nonzero rule; the gradient is an axial or radial shading painted through its path
// as a clip; the logo is an RGB image with a soft mask for its alpha; the
// frame text is set in subsets of the fonts it needs (internal/pdffont).
func (sc *Scene) WritePDF(w io.Writer) error {
	s := float32(sc.points) / float32(sc.n)
	pw, ph := sc.w*s, sc.h*s
	pdf := &PDFWriter{}
	var fonts pdffont.Fonts

	content, gradient := sc.appendVector(nil, s, ph, func(b []byte) []byte { return append(b, "/Im1 Do"...) })
	if t := sc.text; t != nil {
		content = sc.appendFill(content, t.color)
		content = append(content, ' ')
		content = fonts.Show(content, t.line, t.size*s, (t.x-t.width/2-sc.x)*s, ph-(t.y-sc.y)*s)
	}

	pdf.Header()
	catalog, pages, page := pdf.Alloc(), pdf.Alloc(), pdf.Alloc()
	res := []byte("<< ")
	if f := fonts.Write(pdf); f != "" {
		res = append(res, "/Font <<"+f+" >> "...)
	}
	if gradient {
		res = append(res, "/Shading << /Sh1 "...)
		res = pdf.Ref(res, pdf.Object(string(sc.appendShading(nil))))
		res = append(res, " >> "...)
	}
	if l := sc.logo; l != nil {
		b := l.img.Bounds()
		alpha := make([]byte, 0, b.Dx()*b.Dy())
		for i := 3; i < len(l.img.Pix); i += 4 {
			alpha = append(alpha, l.img.Pix[i])
		}
		dims := " /Width " + strconv.Itoa(b.Dx()) + " /Height " + strconv.Itoa(b.Dy()) + " /BitsPerComponent 8"
		mask := pdf.Stream("/Type /XObject /Subtype /Image /ColorSpace /DeviceGray"+dims, alpha)
		img := pdf.Stream("/Type /XObject /Subtype /Image /ColorSpace "+sc.colorSpace()+dims+" /SMask "+strconv.Itoa(mask)+" 0 R",
			sc.logoSamples(nil))
		res = append(res, "/XObject << /Im1 "...)
		res = pdf.Ref(res, img)
		res = append(res, " >> "...)
	}
	res = append(res, ">>"...)
	contents := pdf.Stream("", content)

	pdf.Define(catalog, "<< /Type /Catalog /Pages "+strconv.Itoa(pages)+" 0 R >>")
	pdf.Define(pages, "<< /Type /Pages /Kids ["+strconv.Itoa(page)+" 0 R] /Count 1 >>")
	box := appendNums(nil, 0, 0, pw, ph)
	pdf.Define(page, "<< /Type /Page /Parent "+strconv.Itoa(pages)+" 0 R /MediaBox ["+string(box)+
		"] /Resources "+string(res)+" /Contents "+strconv.Itoa(contents)+" 0 R >>")
	pdf.Trailer(catalog)
	_, err := w.Write(pdf.Bytes())
	return err
}

// PDFWriter assembles objects in memory, remembering each one's byte
// offset for the cross-reference table. internal/report writes its
// documents with it too.
type PDFWriter struct {
	buf     bytes.Buffer
	offsets []int // by object number - 1; 0 until defined
}

// Header starts the file: call it before any object.
func (p *PDFWriter) Header() {
	// The second line's high bytes mark the file as binary for transfer tools.
	p.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
}

// alloc reserves an object number to be defined later.
func (p *PDFWriter) Alloc() int {
	p.offsets = append(p.offsets, 0)
	return len(p.offsets)
}

// Define writes object n (from Alloc) with the given body.
func (p *PDFWriter) Define(n int, body string) {
	p.begin(n)
	p.buf.WriteString(body)
	p.buf.WriteString("\nendobj\n")
}

// Bytes is the file written so far: complete once Trailer has run.
func (p *PDFWriter) Bytes() []byte { return p.buf.Bytes() }

func (p *PDFWriter) begin(n int) {
	p.offsets[n-1] = p.buf.Len()
	p.buf.WriteString(strconv.Itoa(n))
	p.buf.WriteString(" 0 obj\n")
}

// Object writes a new object and returns its number.
func (p *PDFWriter) Object(body string) int {
	n := p.Alloc()
	p.Define(n, body)
	return n
}

// streamLevel is the zlib level of PDF streams: the default compresses
// almost as well as the best at a fraction of its time.
const streamLevel = zlib.DefaultCompression

// zbuf holds a zlib writer and its output buffer for reuse: a compressor
// allocates about a megabyte.
type zbuf struct {
	buf bytes.Buffer
	zw  *zlib.Writer
}

var zpool = sync.Pool{New: func() any {
	z := &zbuf{}
	z.zw, _ = zlib.NewWriterLevel(&z.buf, streamLevel) // a valid level: no error
	return z
}}

// getZ returns a reset compressor writing to an empty buffer; put it back
// with zpool.Put once its output has been copied out.
func getZ() *zbuf {
	z := zpool.Get().(*zbuf)
	z.buf.Reset()
	z.zw.Reset(&z.buf)
	return z
}

// Stream writes a Flate-compressed stream object with the given extra
// dictionary entries.
func (p *PDFWriter) Stream(dict string, data []byte) int {
	z := getZ()
	defer zpool.Put(z)
	_, _ = z.zw.Write(data) // to memory: cannot fail
	_ = z.zw.Close()
	n := p.Alloc()
	p.begin(n)
	p.buf.WriteString("<< " + dict + " /Filter /FlateDecode /Length " + strconv.Itoa(z.buf.Len()) + " >>\nstream\n")
	p.buf.Write(z.buf.Bytes())
	p.buf.WriteString("\nendstream\nendobj\n")
	return n
}

// Ref appends a reference to object n.
func (p *PDFWriter) Ref(b []byte, n int) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, " 0 R"...)
}

// Trailer ends the file with the cross-reference table and root object.
func (p *PDFWriter) Trailer(root int) {
	xref := p.buf.Len()
	p.buf.WriteString("xref\n0 " + strconv.Itoa(len(p.offsets)+1) + "\n0000000000 65535 f \n")
	for _, off := range p.offsets {
		// Each entry is exactly 20 bytes, as the format requires.
		p.buf.WriteString(pad10(off) + " 00000 n \n")
	}
	p.buf.WriteString("trailer\n<< /Size " + strconv.Itoa(len(p.offsets)+1) + " /Root " + strconv.Itoa(root) + " 0 R >>\nstartxref\n" +
		strconv.Itoa(xref) + "\n%%EOF\n")
}

func pad10(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 10 {
		s = "0" + s
	}
	return s
}

// appendPDFPath writes path construction operators (m, l, c, h).
func appendPDFPath(b []byte, p *path) []byte {
	pts := p.pts
	for _, c := range p.cmds {
		switch c {
		case cmdMove:
			b = appendNums(b, pts[0], pts[1])
			b = append(b, " m\n"...)
			pts = pts[2:]
		case cmdLine:
			b = appendNums(b, pts[0], pts[1])
			b = append(b, " l\n"...)
			pts = pts[2:]
		case cmdCubic:
			b = appendNums(b, pts[:6]...)
			b = append(b, " c\n"...)
			pts = pts[6:]
		case cmdClose:
			b = append(b, "h\n"...)
		case cmdRect:
			b = appendNums(b, pts[:4]...)
			b = append(b, " re\n"...)
			pts = pts[4:]
		}
	}
	return b
}

func appendNums(b []byte, v ...float32) []byte {
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, x)
	}
	return b
}

// appendVector writes the code, the frame and the logo (drawn by logo in
// the unit square) as PDF content operators, which the EPS prolog defines
// in PostScript too; s is points per module and ph the page height. It
// reports whether the gradient shading /Sh1 is used.
func (sc *Scene) appendVector(b []byte, s, ph float32, logo func([]byte) []byte) ([]byte, bool) {
	// From here on, user space is module space: y down, origin at the
	// code's top-left corner.
	b = append(b, "q "...)
	b = appendNums(b, s, 0, 0, -s, -sc.x*s, ph+sc.y*s)
	b = append(b, " cm\n"...)
	gradient := false
	paths := sc.shapes()
	for i := range paths {
		p := &paths[i]
		if len(p.cmds) == 0 {
			continue
		}
		if p.paint.gradient {
			gradient = true
			b = append(b, "q\n"...)
			b = appendPDFPath(b, p)
			b = append(b, "W n /Sh1 sh Q\n"...)
			continue
		}
		if p.paint.color.A == 0 {
			continue // a left-out background (Style.Transparent)
		}
		b = sc.appendFill(b, p.paint.color)
		b = append(b, '\n')
		b = appendPDFPath(b, p)
		b = append(b, "f\n"...)
	}
	if l := sc.logo; l != nil {
		b = append(b, "q "...)
		b = appendNums(b, l.w, 0, 0, -l.h, l.x, l.y+l.h)
		b = append(b, " cm "...)
		b = logo(b)
		b = append(b, " Q\n"...)
	}
	return append(b, "Q\n"...), gradient
}

// appendShading writes the gradient as an axial (linear) or radial
// shading dictionary, the same in PDF and PostScript.
func (sc *Scene) appendShading(b []byte) []byte {
	g := sc.grad
	if g.radial {
		b = append(b, "<< /ShadingType 3 /ColorSpace "...)
		b = append(b, sc.colorSpace()...)
		b = append(b, " /Coords ["...)
		b = appendNums(b, g.x0, g.y0, 0, g.x0, g.y0, g.r)
	} else {
		b = append(b, "<< /ShadingType 2 /ColorSpace "...)
		b = append(b, sc.colorSpace()...)
		b = append(b, " /Coords ["...)
		b = appendNums(b, g.x0, g.y0, g.x1, g.y1)
	}
	b = append(b, "] /Function << /FunctionType 2 /Domain [0 1] /C0 ["...)
	b = sc.appendColor(b, g.from)
	b = append(b, "] /C1 ["...)
	b = sc.appendColor(b, g.to)
	return append(b, "] /N 1 >> /Extend [true true] >>"...)
}

// colorSpace names the device colour space of the scene's PDF and EPS.
func (sc *Scene) colorSpace() string {
	if sc.cmyk {
		return "/DeviceCMYK"
	}
	return "/DeviceRGB"
}

// appendFill sets the fill colour: "r g b rg", or "c m y k k" in CMYK.
func (sc *Scene) appendFill(b []byte, c color.RGBA) []byte {
	b = sc.appendColor(b, c)
	if sc.cmyk {
		return append(b, " k"...)
	}
	return append(b, " rg"...)
}

// appendColor writes a colour's components from 0 to 1 in the scene's
// colour space.
func (sc *Scene) appendColor(b []byte, c color.RGBA) []byte {
	if sc.cmyk {
		cc, m, y, k := toCMYK(c.R, c.G, c.B)
		return appendNums(b, cc, m, y, k)
	}
	return appendNums(b, float32(c.R)/255, float32(c.G)/255, float32(c.B)/255)
}

// toCMYK is the naive device conversion with full black generation: grey
// and black go to the K plate alone (black is 0 0 0 1, the true black
// print shops ask for, not a four-plate rich black), colours take their
// darkest share as K. No ICC profile is implied.
func toCMYK(r, g, b uint8) (c, m, y, k float32) {
	mx := max(r, g, b)
	if mx == 0 {
		return 0, 0, 0, 1
	}
	k = 1 - float32(mx)/255
	f := float32(mx)
	return 1 - float32(r)/f, 1 - float32(g)/f, 1 - float32(b)/f, k
}

// logoSamples appends the logo's colour samples, 8 bits each, in the
// scene's colour space (its alpha goes in a mask or is composited).
func (sc *Scene) logoSamples(b []byte) []byte {
	pix := sc.logo.img.Pix
	for i := 0; i < len(pix); i += 4 {
		if !sc.cmyk {
			b = append(b, pix[i:i+3]...)
			continue
		}
		c, m, y, k := toCMYK(pix[i], pix[i+1], pix[i+2])
		b = append(b, uint8(c*255+0.5), uint8(m*255+0.5), uint8(y*255+0.5), uint8(k*255+0.5))
	}
	return b
}
