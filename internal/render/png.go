package render

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/vector"
)

// pngEncoder writes styled codes; its BufferPool reuses the compressor's
// buffers across calls.
var pngEncoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	v, _ := b.p.Get().(*png.EncoderBuffer)
	return v
}

func (b *bufferPool) Put(v *png.EncoderBuffer) { b.p.Put(v) }

// WritePNG writes the scene as a PNG of exactly Style.Pixels square (plus
// the frame's share when there is one). Every module is the same whole
// number of pixels wide, the quiet zone taking what is left over (see
// snap). Plain codes are written as 1-bit two-colour images; styled codes
// are anti-aliased.
func (sc *Scene) WritePNG(w io.Writer) error {
	s, pw, ph := sc.pixelScale()
	if need := sc.minPixels(); sc.pixels < need {
		return &StyleError{"size", fmt.Sprintf("The image must be at least %d pixels for this code", need)}
	}
	if sc.dpi > 0 {
		w = &physWriter{w: w, dpi: sc.dpi}
	}
	if sc.plain {
		return sc.writeBitmapPNG(w, pw)
	}
	img, err := sc.rasterise(s, pw, ph)
	if err != nil {
		return err
	}
	return pngEncoder.Encode(w, img)
}

// minPixels is the smallest PNG size that still scans.
func (sc *Scene) minPixels() int {
	if sc.plain {
		return minPixelsPerModule * sc.n
	}
	return minStyledPixels * sc.n
}

func (sc *Scene) rasterise(s float64, pw, ph int) (image.Image, error) {
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	ox, oy := float32(-float64(sc.x)*s), float32(-float64(sc.y)*s)

	// The code itself, its last three paths (dots, eye rings, eye
	// centres) and the logo, is drawn at whole pixels per module.
	cs, cx, cy := snap(s, float64(ox), float64(oy), sc.n)

	f := filler{sc: sc, img: img}
	paths := sc.shapes()
	for i := range paths {
		if i >= len(paths)-3 {
			f.fill(&paths[i], cs, float32(cx), float32(cy))
		} else {
			f.fill(&paths[i], s, ox, oy)
		}
	}

	if l := sc.logo; l != nil {
		k := float32(cs)
		x0, y0 := l.x*k+float32(cx), l.y*k+float32(cy)
		x1, y1 := (l.x+l.w)*k+float32(cx), (l.y+l.h)*k+float32(cy)
		r := image.Rect(int(math.Round(float64(x0))), int(math.Round(float64(y0))), int(math.Round(float64(x1))), int(math.Round(float64(y1))))
		xdraw.CatmullRom.Scale(img, r, l.img, l.img.Bounds(), draw.Over, nil)
	}

	if sc.text != nil {
		p := sc.textPath()
		f.fill(&p, s, ox, oy)
	}
	return img, nil
}

// filler rasterises paths into one image, reusing its rasteriser and the
// gradient's mask.
type filler struct {
	sc   *Scene
	img  *image.RGBA
	z    vector.Rasterizer
	mask *image.Alpha
}

// fill draws p at s pixels per module, module (0, 0) at pixel (ox, oy).
func (f *filler) fill(p *path, s float64, ox, oy float32) {
	if len(p.cmds) == 0 {
		return
	}
	k := float32(s)
	// Rasterise only the path's bounding box: the accumulation costs its
	// area.
	bx0, by0, bx1, by1 := p.bounds()
	r := image.Rect(int(math.Floor(float64(bx0*k+ox))), int(math.Floor(float64(by0*k+oy))),
		int(math.Ceil(float64(bx1*k+ox))), int(math.Ceil(float64(by1*k+oy)))).Intersect(f.img.Rect)
	if r.Empty() {
		return
	}
	z := &f.z
	z.Reset(r.Dx(), r.Dy())
	dx, dy := float32(r.Min.X), float32(r.Min.Y)
	at := func(x, y float32) (float32, float32) { return x*k + ox - dx, y*k + oy - dy }
	pts := p.pts
	for _, c := range p.cmds {
		switch c {
		case cmdMove:
			z.MoveTo(at(pts[0], pts[1]))
			pts = pts[2:]
		case cmdLine:
			z.LineTo(at(pts[0], pts[1]))
			pts = pts[2:]
		case cmdCubic:
			x1, y1 := at(pts[0], pts[1])
			x2, y2 := at(pts[2], pts[3])
			x3, y3 := at(pts[4], pts[5])
			z.CubeTo(x1, y1, x2, y2, x3, y3)
			pts = pts[6:]
		case cmdClose:
			z.ClosePath()
		case cmdRect:
			x0, y0 := at(pts[0], pts[1])
			x1, y1 := at(pts[0]+pts[2], pts[1]+pts[3])
			z.MoveTo(x0, y0)
			z.LineTo(x1, y0)
			z.LineTo(x1, y1)
			z.LineTo(x0, y1)
			z.ClosePath()
			pts = pts[4:]
		}
	}
	if !p.paint.gradient {
		z.Draw(f.img, r, image.NewUniform(p.paint.color), image.Point{})
		return
	}
	if f.mask == nil {
		f.mask = image.NewAlpha(f.img.Rect)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		clear(f.mask.Pix[y*f.mask.Stride+r.Min.X : y*f.mask.Stride+r.Max.X])
	}
	z.Draw(f.mask, r, image.Opaque, image.Point{})
	f.sc.fillGradient(f.img, f.mask, r, s, ox, oy)
}

// snap is the transform of a PNG's code: a whole number of pixels per
// module (k, the scale s rounded down) with module edges on whole pixels,
// the code's centre staying where scale s and offset (ox, oy) put it; the
// quiet zone takes the difference, under a pixel per module. ZXing
// estimates the module size from the finders' width and counts the
// modules between them with it: with fractional widths, rounding makes a
// finder up to a pixel wider or narrower than its share, and from version
// 30 on that miscounts the modules at some scales (a sweep found misses at
// 5.6 px per module on versions 31-34, 1,024 px on 30-31 and 960 px on 33;
// none with whole pixels per module).
func snap(s, ox, oy float64, n int) (k, x, y float64) {
	k = math.Floor(s)
	c := float64(n) / 2 * (s - k)
	return k, math.Round(ox + c), math.Round(oy + c)
}

// fillGradient paints the gradient over the opaque image through the
// anti-aliased coverage mask of a path.
func (sc *Scene) fillGradient(img *image.RGBA, mask *image.Alpha, r image.Rectangle, s float64, ox, oy float32) {
	g := sc.grad
	x0, y0 := float64(g.x0)*s+float64(ox), float64(g.y0)*s+float64(oy)
	dx, dy := float64(g.x1-g.x0)*s, float64(g.y1-g.y0)*s
	l2 := dx*dx + dy*dy
	rad := float64(g.r) * s
	fr, fg, fb := float64(g.from.R), float64(g.from.G), float64(g.from.B)
	tr, tg, tb := float64(g.to.R)-fr, float64(g.to.G)-fg, float64(g.to.B)-fb
	for y := r.Min.Y; y < r.Max.Y; y++ {
		cov := mask.Pix[y*mask.Stride : y*mask.Stride+r.Max.X]
		px := img.Pix[y*img.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			a := cov[x]
			if a == 0 {
				continue
			}
			var t float64
			if px, py := float64(x)+0.5-x0, float64(y)+0.5-y0; g.radial {
				t = math.Hypot(px, py) / rad
			} else {
				t = (px*dx + py*dy) / l2
			}
			t = min(1, max(0, t))
			// Source over an opaque destination, in 8-bit straight alpha.
			k, j := float64(a)/255, 4*x
			px[j] = uint8(float64(px[j])*(1-k) + (fr+tr*t)*k + 0.5)
			px[j+1] = uint8(float64(px[j+1])*(1-k) + (fg+tg*t)*k + 0.5)
			px[j+2] = uint8(float64(px[j+2])*(1-k) + (fb+tb*t)*k + 0.5)
		}
	}
}

// physWriter passes a PNG through, adding a pHYs chunk (the physical
// pixel density, which image/png does not write) right after the IHDR
// chunk, where the format wants it.
type physWriter struct {
	w    io.Writer
	n    int // bytes passed so far
	dpi  int
	done bool
}

// pngHead is the signature and the IHDR chunk: 8 + 4+4+13+4 bytes.
const pngHead = 33

func (p *physWriter) Write(b []byte) (int, error) {
	if p.done {
		return p.w.Write(b)
	}
	head := min(len(b), pngHead-p.n)
	if _, err := p.w.Write(b[:head]); err != nil {
		return 0, err
	}
	p.n += head
	if p.n < pngHead {
		return head, nil
	}
	p.done = true
	// Pixels per metre on both axes, unit 1 (the metre).
	var d [9]byte
	ppm := uint32(math.Round(float64(p.dpi) / 0.0254))
	binary.BigEndian.PutUint32(d[0:], ppm)
	binary.BigEndian.PutUint32(d[4:], ppm)
	d[8] = 1
	bw := bufio.NewWriterSize(p.w, 32)
	writeChunk(bw, "pHYs", d[:])
	if err := bw.Flush(); err != nil {
		return head, err
	}
	n, err := p.w.Write(b[head:])
	return head + n, err
}
