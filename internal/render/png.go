package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pngEncoder is shared: its BufferPool reuses the compressor's buffers
// across calls. BestSpeed was measured against the default level (see
// BENCHMARKS.md): on two-colour codes it is several times faster and the
// files stay well within the size target.
var pngEncoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	v, _ := b.p.Get().(*png.EncoderBuffer)
	return v
}

func (b *bufferPool) Put(v *png.EncoderBuffer) { b.p.Put(v) }

// WritePNG writes the scene as a PNG of exactly Style.Pixels square (plus
// the frame's share when there is one).
func (sc *Scene) WritePNG(w io.Writer) error {
	img, err := sc.Image()
	if err != nil {
		return err
	}
	return pngEncoder.Encode(w, img)
}

// Image rasterises the scene. Plain codes become a two-colour paletted
// image filled row by row, with module edges on whole pixels (modules are
// then one pixel wider or narrower when the size is not a multiple, which
// decoders do not mind); styled codes are anti-aliased.
func (sc *Scene) Image() (image.Image, error) {
	s, pw, ph := sc.pixelScale()
	if need := sc.minPixels(); sc.pixels < need {
		return nil, &StyleError{"size", fmt.Sprintf("The image must be at least %d pixels for this code", need)}
	}
	if sc.plain {
		return sc.paletted(pw), nil
	}
	return sc.rasterise(s, pw, ph)
}

// minPixels is the smallest PNG size that still scans.
func (sc *Scene) minPixels() int {
	if sc.plain {
		return minPixelsPerModule * sc.n
	}
	return minStyledPixels * sc.n
}

func (sc *Scene) paletted(px int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, px, px), color.Palette{sc.bg, sc.fg})
	edge := make([]int, sc.n+1)
	for i := range edge {
		edge[i] = (i*px + sc.n/2) / sc.n
	}
	m := sc.matrix
	for my := range m.Size {
		y0, y1 := edge[my+QuietZone], edge[my+QuietZone+1]
		row := img.Pix[y0*img.Stride : y0*img.Stride+px]
		for mx := range m.Size {
			if m.Dark(mx, my) {
				x0, x1 := edge[mx+QuietZone], edge[mx+QuietZone+1]
				for x := x0; x < x1; x++ {
					row[x] = 1
				}
			}
		}
		for y := y0 + 1; y < y1; y++ {
			copy(img.Pix[y*img.Stride:y*img.Stride+px], row)
		}
	}
	return img
}

func (sc *Scene) rasterise(s float64, pw, ph int) (image.Image, error) {
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	ox, oy := float32(-float64(sc.x)*s), float32(-float64(sc.y)*s)
	k := float32(s)
	tx := func(x, y float32) (float32, float32) { return x*k + ox, y*k + oy }

	var grad *image.RGBA
	z := vector.NewRasterizer(pw, ph)
	for i := range sc.paths {
		p := &sc.paths[i]
		if len(p.cmds) == 0 {
			continue
		}
		z.Reset(pw, ph)
		pts := p.pts
		for _, c := range p.cmds {
			switch c {
			case cmdMove:
				z.MoveTo(tx(pts[0], pts[1]))
				pts = pts[2:]
			case cmdLine:
				z.LineTo(tx(pts[0], pts[1]))
				pts = pts[2:]
			case cmdCubic:
				x1, y1 := tx(pts[0], pts[1])
				x2, y2 := tx(pts[2], pts[3])
				x3, y3 := tx(pts[4], pts[5])
				z.CubeTo(x1, y1, x2, y2, x3, y3)
				pts = pts[6:]
			case cmdClose:
				z.ClosePath()
			}
		}
		var src image.Image = image.NewUniform(p.paint.color)
		if p.paint.gradient {
			if grad == nil {
				grad = sc.gradientImage(s, ox, oy, pw, ph)
			}
			src = grad
		}
		z.Draw(img, img.Bounds(), src, image.Point{})
	}

	if l := sc.logo; l != nil {
		x0, y0 := tx(l.x, l.y)
		x1, y1 := tx(l.x+l.w, l.y+l.h)
		r := image.Rect(int(math.Round(float64(x0))), int(math.Round(float64(y0))), int(math.Round(float64(x1))), int(math.Round(float64(y1))))
		xdraw.CatmullRom.Scale(img, r, l.img, l.img.Bounds(), draw.Over, nil)
	}

	if t := sc.text; t != nil {
		face, err := pngFace(float64(t.size) * s)
		if err != nil {
			return nil, err
		}
		d := &font.Drawer{Dst: img, Src: image.NewUniform(t.color), Face: face}
		x, y := tx(t.x, t.y)
		adv := d.MeasureString(t.s)
		d.Dot = fixed.Point26_6{X: fixed.Int26_6(x*64) - adv/2, Y: fixed.Int26_6(y * 64)}
		d.DrawString(t.s)
	}
	return img, nil
}

// gradientImage paints the gradient over the whole canvas, to be drawn
// through the anti-aliased coverage of the paths that use it.
func (sc *Scene) gradientImage(s float64, ox, oy float32, pw, ph int) *image.RGBA {
	g := sc.grad
	x0, y0 := float64(g.x0)*s+float64(ox), float64(g.y0)*s+float64(oy)
	dx, dy := float64(g.x1-g.x0)*s, float64(g.y1-g.y0)*s
	l2 := dx*dx + dy*dy
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	lerp := func(a, b uint8, t float64) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	for y := range ph {
		row := img.Pix[y*img.Stride:]
		for x := range pw {
			t := ((float64(x)+0.5-x0)*dx + (float64(y)+0.5-y0)*dy) / l2
			t = min(1, max(0, t))
			row[4*x] = lerp(g.from.R, g.to.R, t)
			row[4*x+1] = lerp(g.from.G, g.to.G, t)
			row[4*x+2] = lerp(g.from.B, g.to.B, t)
			row[4*x+3] = 0xff
		}
	}
	return img
}
