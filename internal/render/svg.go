package render

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"sync"
)

// WriteSVG writes the scene as SVG: plain filled <path>s (no clip-path or
// mask, which some tools drop), a <linearGradient> or <radialGradient>
// when there is one, the
// logo as a PNG data URI and the frame text as <text>. Coordinates are in
// modules; width and height give the pixel size.
func (sc *Scene) WriteSVG(w io.Writer) error {
	bp := svgPool.Get().(*[]byte)
	*bp = sc.appendSVG((*bp)[:0])
	_, err := w.Write(*bp)
	if cap(*bp) <= 1<<20 { // a huge styled code's buffer is not worth keeping
		svgPool.Put(bp)
	}
	return err
}

// svgPool reuses output buffers: a plain code's SVG is a few kilobytes,
// and growing a fresh buffer to that costs as much as writing it.
var svgPool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// appendSVG writes a plain scene straight from the matrix (see
// appendPlainSVG) and any other through its paths.
func (sc *Scene) appendSVG(b []byte) []byte {
	if sc.plain {
		return sc.appendPlainSVG(b)
	}
	return sc.appendSceneSVG(b)
}

// appendSVGHeader opens the <svg> element.
func (sc *Scene) appendSVGHeader(b []byte) []byte {
	_, pw, ph := sc.pixelScale()
	b = append(b, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="`...)
	b = strconv.AppendInt(b, int64(pw), 10)
	b = append(b, `" height="`...)
	b = strconv.AppendInt(b, int64(ph), 10)
	b = append(b, `" viewBox="`...)
	b = appendNum(b, sc.x)
	b = append(b, ' ')
	b = appendNum(b, sc.y)
	b = append(b, ' ')
	b = appendNum(b, sc.w)
	b = append(b, ' ')
	b = appendNum(b, sc.h)
	return append(b, "\">\n"...)
}

// appendPlainSVG is the fast path for the common case, square modules in
// one colour: the background, then one path whose subpaths are the rows'
// runs of dark modules, finders included, as "Mx yhwv1h-wz". It draws
// exactly the modules the general path's rectangles and eye rings draw
// (TestPlainSVGMatchesTheScene).
func (sc *Scene) appendPlainSVG(b []byte) []byte {
	b = sc.appendSVGHeader(b)
	b = append(b, `<path fill="`...)
	b = appendFill(b, sc.bg, sc.transparent)
	b = append(b, `" d="M0 0h`...)
	b = appendSmall(b, sc.n)
	b = append(b, 'v')
	b = appendSmall(b, sc.n)
	b = append(b, `H0Z"/>`+"\n"+`<path fill="`...)
	b = appendHex(b, sc.fg)
	b = append(b, `" d="`...)
	m := sc.matrix
	var buf [64]int
	for y := range m.Size {
		runs := m.AppendDarkRuns(buf[:0], y)
		for i := 0; i < len(runs); i += 2 {
			w := runs[i+1] - runs[i]
			b = append(b, 'M')
			b = appendSmall(b, QuietZone+runs[i])
			b = append(b, ' ')
			b = appendSmall(b, QuietZone+y)
			b = append(b, 'h')
			b = appendSmall(b, w)
			b = append(b, "v1h-"...)
			b = appendSmall(b, w)
			b = append(b, 'z')
		}
	}
	return append(b, "\"/>\n</svg>\n"...)
}

// appendSceneSVG writes the scene's paths, gradient, logo and text.
func (sc *Scene) appendSceneSVG(b []byte) []byte {
	b = sc.appendSVGHeader(b)
	gid := sc.gradientID()
	if gid != "" {
		g := sc.grad
		kind := "linearGradient"
		if g.radial {
			kind = "radialGradient"
		}
		b = append(b, "<defs><"+kind+` id="`...)
		b = append(b, gid...)
		if g.radial {
			b = append(b, `" gradientUnits="userSpaceOnUse" cx="`...)
			b = appendNum(b, g.x0)
			b = append(b, `" cy="`...)
			b = appendNum(b, g.y0)
			b = append(b, `" r="`...)
			b = appendNum(b, g.r)
		} else {
			b = append(b, `" gradientUnits="userSpaceOnUse" x1="`...)
			b = appendNum(b, g.x0)
			b = append(b, `" y1="`...)
			b = appendNum(b, g.y0)
			b = append(b, `" x2="`...)
			b = appendNum(b, g.x1)
			b = append(b, `" y2="`...)
			b = appendNum(b, g.y1)
		}
		b = append(b, `"><stop offset="0" stop-color="`...)
		b = appendHex(b, g.from)
		b = append(b, `"/><stop offset="1" stop-color="`...)
		b = appendHex(b, g.to)
		b = append(b, "\"/></"+kind+"></defs>\n"...)
	}

	paths := sc.shapes()
	for i := range paths {
		p := &paths[i]
		if len(p.cmds) == 0 {
			continue
		}
		b = append(b, `<path fill="`...)
		if p.paint.gradient {
			b = append(b, "url(#"...)
			b = append(b, gid...)
			b = append(b, ')')
		} else {
			b = appendFill(b, p.paint.color, p.paint.color.A == 0)
		}
		b = append(b, `" d="`...)
		b = appendPathData(b, p)
		b = append(b, "\"/>\n"...)
	}

	if l := sc.logo; l != nil {
		var buf bytes.Buffer
		// Encoding an in-memory NRGBA image cannot fail.
		_ = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, l.img)
		uri := make([]byte, 0, 22+base64.StdEncoding.EncodedLen(buf.Len()))
		uri = append(uri, "data:image/png;base64,"...)
		uri = base64.StdEncoding.AppendEncode(uri, buf.Bytes())
		b = append(b, `<image x="`...)
		b = appendNum(b, l.x)
		b = append(b, `" y="`...)
		b = appendNum(b, l.y)
		b = append(b, `" width="`...)
		b = appendNum(b, l.w)
		b = append(b, `" height="`...)
		b = appendNum(b, l.h)
		b = append(b, `" preserveAspectRatio="none" href="`...)
		b = append(b, uri...)
		b = append(b, `" xlink:href="`...)
		b = append(b, uri...)
		b = append(b, "\"/>\n"...)
	}

	if t := sc.text; t != nil {
		b = append(b, `<text x="`...)
		b = appendNum(b, t.x)
		b = append(b, `" y="`...)
		b = appendNum(b, t.y)
		b = append(b, `" font-size="`...)
		b = appendNum(b, t.size)
		// The width the text was fitted at: a viewer whose font runs wider
		// than Go Bold squeezes it to fit instead of spilling out of the
		// frame.
		b = append(b, `" textLength="`...)
		b = appendNum(b, t.width)
		b = append(b, `" lengthAdjust="spacingAndGlyphs" text-anchor="middle" font-family="Helvetica, Arial, 'Liberation Sans', sans-serif" font-weight="bold" fill="`...)
		b = appendHex(b, t.color)
		b = append(b, `">`...)
		var esc bytes.Buffer
		_ = xml.EscapeText(&esc, []byte(t.s)) // writes to memory: cannot fail
		b = append(b, esc.Bytes()...)
		b = append(b, "</text>\n"...)
	}
	return append(b, "</svg>\n"...)
}

// gradientID names the gradient after everything that defines it, so two
// SVGs inlined in one page never pick up each other's definition.
func (sc *Scene) gradientID() string {
	for i := range sc.paths {
		if sc.paths[i].paint.gradient {
			g := sc.grad
			id := appendHex([]byte("sqg"), g.from)
			id = appendHex(id, g.to)
			id = strconv.AppendInt(id, int64(sc.n), 10)
			if g.radial {
				id = append(id, 'r')
			} else { // the direction, in thousandths of a module
				for _, v := range [...]float32{g.x0, g.y0} {
					id = append(id, '_')
					id = strconv.AppendInt(id, int64(math.Round(float64(v)*1000)), 10)
				}
			}
			for j := range id {
				if id[j] == '#' {
					id[j] = '-'
				}
			}
			return string(id)
		}
	}
	return ""
}

// appendPathData writes SVG path data, using H and V for axis-parallel
// lines (most of a square code).
func appendPathData(b []byte, p *path) []byte {
	pts := p.pts
	var cx, cy float32
	for _, c := range p.cmds {
		switch c {
		case cmdMove:
			cx, cy = pts[0], pts[1]
			b = append(b, 'M')
			b = appendNum(b, cx)
			b = append(b, ' ')
			b = appendNum(b, cy)
			pts = pts[2:]
		case cmdLine:
			x, y := pts[0], pts[1]
			switch {
			case y == cy:
				b = append(b, 'H')
				b = appendNum(b, x)
			case x == cx:
				b = append(b, 'V')
				b = appendNum(b, y)
			default:
				b = append(b, 'L')
				b = appendNum(b, x)
				b = append(b, ' ')
				b = appendNum(b, y)
			}
			cx, cy = x, y
			pts = pts[2:]
		case cmdCubic:
			b = append(b, 'C')
			for i := range 6 {
				if i > 0 {
					b = append(b, ' ')
				}
				b = appendNum(b, pts[i])
			}
			cx, cy = pts[4], pts[5]
			pts = pts[6:]
		case cmdClose:
			b = append(b, 'Z')
		case cmdRect:
			x, y := pts[0], pts[1]
			b = appendRect(b, x, y, pts[2], pts[3])
			cx, cy = x, y
			pts = pts[4:]
		}
	}
	return b
}

// appendRect writes a rectangle as "Mx yhwvhHxZ".
func appendRect(b []byte, x, y, w, h float32) []byte {
	b = append(b, 'M')
	b = appendNum(b, x)
	b = append(b, ' ')
	b = appendNum(b, y)
	b = append(b, 'h')
	b = appendNum(b, w)
	b = append(b, 'v')
	b = appendNum(b, h)
	b = append(b, 'H')
	b = appendNum(b, x)
	return append(b, 'Z')
}

// appendNum writes v as an integer when it is one, else with at most three
// decimals (a thousandth of a module is far below a pixel).
func appendNum(b []byte, v float32) []byte {
	if i := int32(v); float32(i) == v {
		if i >= 0 && i < 1000 {
			return appendSmall(b, int(i))
		}
		return strconv.AppendInt(b, int64(i), 10)
	}
	return strconv.AppendFloat(b, math.Round(float64(v)*1000)/1000, 'f', -1, 64)
}

// appendSmall writes 0 ≤ i < 1000, which covers every module coordinate
// (a symbol with its quiet zone is at most 185 modules): inline digits are
// several times faster than strconv here, the bulk of a plain SVG's time.
func appendSmall(b []byte, i int) []byte {
	switch {
	case i < 10:
		return append(b, byte('0'+i))
	case i < 100:
		return append(b, byte('0'+i/10), byte('0'+i%10))
	}
	return append(b, byte('0'+i/100), byte('0'+i/10%10), byte('0'+i%10))
}

func appendHex(b []byte, c color.RGBA) []byte {
	const digits = "0123456789ABCDEF"
	return append(b, '#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15])
}

// appendFill writes a fill colour, or none for a left-out (transparent) one.
func appendFill(b []byte, c color.RGBA, none bool) []byte {
	if none {
		return append(b, "none"...)
	}
	return appendHex(b, c)
}
