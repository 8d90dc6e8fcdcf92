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
)

// WriteSVG writes the scene as SVG: plain filled <path>s (no clip-path or
// mask, which some tools drop), a <linearGradient> when there is one, the
// logo as a PNG data URI and the frame text as <text>. Coordinates are in
// modules; width and height give the pixel size.
func (sc *Scene) WriteSVG(w io.Writer) error {
	_, err := w.Write(sc.appendSVG(make([]byte, 0, 4096)))
	return err
}

func (sc *Scene) appendSVG(b []byte) []byte {
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
	b = append(b, "\">\n"...)

	gid := sc.gradientID()
	if gid != "" {
		g := sc.grad
		b = append(b, `<defs><linearGradient id="`...)
		b = append(b, gid...)
		b = append(b, `" gradientUnits="userSpaceOnUse" x1="`...)
		b = appendNum(b, g.x0)
		b = append(b, `" y1="`...)
		b = appendNum(b, g.y0)
		b = append(b, `" x2="`...)
		b = appendNum(b, g.x1)
		b = append(b, `" y2="`...)
		b = appendNum(b, g.y1)
		b = append(b, `"><stop offset="0" stop-color="`...)
		b = appendHex(b, g.from)
		b = append(b, `"/><stop offset="1" stop-color="`...)
		b = appendHex(b, g.to)
		b = append(b, "\"/></linearGradient></defs>\n"...)
	}

	for i := range sc.paths {
		p := &sc.paths[i]
		if len(p.cmds) == 0 {
			continue
		}
		b = append(b, `<path fill="`...)
		if p.paint.gradient {
			b = append(b, "url(#"...)
			b = append(b, gid...)
			b = append(b, ')')
		} else {
			b = appendHex(b, p.paint.color)
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
		b = append(b, `" text-anchor="middle" font-family="Helvetica, Arial, 'Liberation Sans', sans-serif" font-weight="bold" fill="`...)
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

// appendRect writes a rectangle as "Mx yhwvhHxZ". Plain codes are
// mostly such rectangles at small whole coordinates, written here without
// going through appendNum five times.
func appendRect(b []byte, x, y, w, h float32) []byte {
	xi, yi, wi, hi := int32(x), int32(y), int32(w), int32(h)
	if float32(xi) != x || float32(yi) != y || float32(wi) != w || float32(hi) != h ||
		uint32(xi)|uint32(yi)|uint32(wi)|uint32(hi) >= 1000 {
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
	var t [21]byte
	t[0] = 'M'
	n := putSmall(&t, 1, xi)
	t[n] = ' '
	n = putSmall(&t, n+1, yi)
	t[n] = 'h'
	n = putSmall(&t, n+1, wi)
	t[n] = 'v'
	n = putSmall(&t, n+1, hi)
	t[n] = 'H'
	n = putSmall(&t, n+1, xi)
	t[n] = 'Z'
	return append(b, t[:n+1]...)
}

// putSmall writes 0 ≤ i < 1000 at t[n:] and returns the end.
func putSmall(t *[21]byte, n int, i int32) int {
	switch {
	case i >= 100:
		t[n], t[n+1], t[n+2] = byte('0'+i/100), byte('0'+i/10%10), byte('0'+i%10)
		return n + 3
	case i >= 10:
		t[n], t[n+1] = byte('0'+i/10), byte('0'+i%10)
		return n + 2
	}
	t[n] = byte('0' + i)
	return n + 1
}

// appendNum writes v as an integer when it is one, else with at most three
// decimals (a thousandth of a module is far below a pixel).
func appendNum(b []byte, v float32) []byte {
	if i := int32(v); float32(i) == v {
		switch {
		case i >= 0 && i < 10:
			return append(b, byte('0'+i))
		case i >= 10 && i < 100:
			return append(b, byte('0'+i/10), byte('0'+i%10))
		}
		return strconv.AppendInt(b, int64(i), 10)
	}
	return strconv.AppendFloat(b, math.Round(float64(v)*1000)/1000, 'f', -1, 64)
}

func appendHex(b []byte, c color.RGBA) []byte {
	const digits = "0123456789ABCDEF"
	return append(b, '#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15])
}
