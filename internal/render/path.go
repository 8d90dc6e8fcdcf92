package render

import (
	"image/color"
	"math"
)

// cmd is one path operation.
type cmd uint8

const (
	cmdMove  cmd = iota // 1 point
	cmdLine             // 1 point
	cmdCubic            // 3 points: two controls and the end
	cmdClose            // 0 points
	cmdRect             // 2 values, x and y, then width and height: a closed clockwise rectangle
)

// paint is a fill: a solid colour, or the scene's gradient.
type paint struct {
	color    color.RGBA
	gradient bool
}

// path is a filled outline, nonzero winding, in module units. Holes are
// subpaths wound the other way, so no back-end needs a clip or even-odd.
type path struct {
	paint paint
	cmds  []cmd
	pts   []float32 // x, y pairs consumed by cmds in order
}

// arena hands out room for the scene's few small paths (background,
// frame, eyes) from two shared arrays: one allocation each, not two per
// path.
type arena struct {
	cmds []cmd
	pts  []float32
}

func newArena(cmds, pts int) *arena {
	return &arena{cmds: make([]cmd, 0, cmds), pts: make([]float32, 0, pts)}
}

// path returns an empty path with room for the given commands and values.
func (a *arena) path(pt paint, cmds, pts int) path {
	c, q := len(a.cmds), len(a.pts)
	if c+cmds > cap(a.cmds) || q+pts > cap(a.pts) { // not planned for: its own arrays
		return path{paint: pt, cmds: make([]cmd, 0, cmds), pts: make([]float32, 0, pts)}
	}
	a.cmds, a.pts = a.cmds[:c+cmds], a.pts[:q+pts]
	return path{paint: pt, cmds: a.cmds[c : c : c+cmds], pts: a.pts[q : q : q+pts]}
}

// rectRoom is what roundRect adds to a path: commands and values.
func rectRoom(r float32, hole bool) (cmds, pts int) {
	switch {
	case r > 0:
		return 10, 34
	case hole:
		return 5, 8
	}
	return 1, 4
}

func (p *path) moveTo(x, y float32) {
	p.cmds = append(p.cmds, cmdMove)
	p.pts = append(p.pts, x, y)
}

func (p *path) lineTo(x, y float32) {
	p.cmds = append(p.cmds, cmdLine)
	p.pts = append(p.pts, x, y)
}

func (p *path) cubicTo(x1, y1, x2, y2, x, y float32) {
	p.cmds = append(p.cmds, cmdCubic)
	p.pts = append(p.pts, x1, y1, x2, y2, x, y)
}

func (p *path) close() { p.cmds = append(p.cmds, cmdClose) }

func (p *path) rect(x, y, w, h float32) {
	p.cmds = append(p.cmds, cmdRect)
	p.pts = append(p.pts, x, y, w, h)
}

// bounds is the box around the path's points (control points included).
func (p *path) bounds() (x0, y0, x1, y1 float32) {
	x0, y0 = float32(math.Inf(1)), float32(math.Inf(1))
	x1, y1 = -x0, -y0
	add := func(x, y float32) {
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	pts := p.pts
	for _, c := range p.cmds {
		switch c {
		case cmdMove, cmdLine:
			add(pts[0], pts[1])
			pts = pts[2:]
		case cmdCubic:
			add(pts[0], pts[1])
			add(pts[2], pts[3])
			add(pts[4], pts[5])
			pts = pts[6:]
		case cmdRect:
			add(pts[0], pts[1])
			add(pts[0]+pts[2], pts[1]+pts[3])
			pts = pts[4:]
		}
	}
	return x0, y0, x1, y1
}

// kappa places cubic control points so that four curves make a circle.
const kappa = 0.5522847498

// roundRect adds a closed rectangle with corner radius r (0 for sharp;
// w/2 for a circle). Clockwise on screen, or counter-clockwise for a hole.
func (p *path) roundRect(x, y, w, h, r float32, hole bool) {
	if r <= 0 {
		if !hole {
			p.rect(x, y, w, h)
			return
		}
		p.moveTo(x, y)
		p.lineTo(x, y+h)
		p.lineTo(x+w, y+h)
		p.lineTo(x+w, y)
		p.close()
		return
	}
	k := r * (1 - kappa)
	x2, y2 := x+w, y+h
	if hole {
		p.moveTo(x, y+r)
		p.lineTo(x, y2-r)
		p.cubicTo(x, y2-k, x+k, y2, x+r, y2)
		p.lineTo(x2-r, y2)
		p.cubicTo(x2-k, y2, x2, y2-k, x2, y2-r)
		p.lineTo(x2, y+r)
		p.cubicTo(x2, y+k, x2-k, y, x2-r, y)
		p.lineTo(x+r, y)
		p.cubicTo(x+k, y, x, y+k, x, y+r)
	} else {
		p.moveTo(x+r, y)
		p.lineTo(x2-r, y)
		p.cubicTo(x2-k, y, x2, y+k, x2, y+r)
		p.lineTo(x2, y2-r)
		p.cubicTo(x2, y2-k, x2-k, y2, x2-r, y2)
		p.lineTo(x+r, y2)
		p.cubicTo(x+k, y2, x, y2-k, x, y2-r)
		p.lineTo(x, y+r)
		p.cubicTo(x, y+k, x+k, y, x+r, y)
	}
	p.close()
}

// Directions along grid edges, clockwise on screen (y grows downwards):
// turning from d to (d+1)%4 is a right turn, which on an outline traced by
// outline() is always a convex corner of the dark region.
var dirs = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// turn[b][d] is the direction to leave a vertex whose outgoing boundary
// edges are the bits b, arriving in direction d: the right turn if there
// is one, so cells touching only at a corner get separate outlines (each
// with a convex corner there), else straight on, else left.
var turn = func() (t [16][4]int8) {
	for b := range 16 {
		for d := range 4 {
			t[b][d] = -1
			for _, c := range [3]int{(d + 1) & 3, d, (d + 3) & 3} {
				if b&(1<<c) != 0 {
					t[b][d] = int8(c)
					break
				}
			}
		}
	}
	return t
}()

// corners are the radii outline() rounds a dark region's corners to:
// convex ones by where they sit (top-right, bottom-right, bottom-left,
// top-left: the direction the outline arrives in, clockwise), each at most
// 0.5; concave ones (filled with a fillet) at most 0.25, so that two
// fillets and a rounded end still fit on one module's edge.
type corners struct {
	convex  [4]float32
	concave float32
}

// roundAll rounds every convex corner to r and leaves concave ones sharp.
func roundAll(r float32) corners { return corners{convex: [4]float32{r, r, r, r}} }

// outline adds the boundary of the union of the dark cells of an s×s
// grid, placed at (ox, oy), with its corners rounded as c says: convex
// corners are those where a module has no dark neighbour on either side;
// with roundAll(0.5), connected "rounded" dots. g holds the cells with a
// light border: (s+2)×(s+2), cell (x, y) at g[(y+1)*(s+2)+x+1]. Adjacent
// cells share one outline, so no anti-aliased seam appears between them.
func (p *path) outline(g []bool, s int, ox, oy float32, c corners) {
	// out holds, per grid vertex, a bit per direction of an outgoing
	// boundary edge. Edges run clockwise around each dark cell and are
	// kept only where the neighbour across them is light.
	W, v := s+2, s+1
	out := make([]uint8, v*v)
	for y := range s {
		i, o := (y+1)*W+1, y*v
		for x := range s {
			if !g[i+x] {
				continue
			}
			if !g[i+x-W] {
				out[o+x] |= 1
			}
			if !g[i+x+1] {
				out[o+x+1] |= 2
			}
			if !g[i+x+W] {
				out[o+v+x+1] |= 4
			}
			if !g[i+x-1] {
				out[o+v+x] |= 8
			}
		}
	}
	step := [4]int{1, v, -1, -v}
	var loop []int32 // the loop's corners: vertex index and outgoing direction, packed
	for start := range out {
		for out[start] != 0 {
			d0 := 0
			for out[start]&(1<<d0) == 0 {
				d0++
			}
			loop = append(loop[:0], int32(start<<2|d0))
			w, d := start, d0
			for {
				out[w] &^= 1 << d
				w += step[d]
				b := out[w]
				if w == start {
					b |= 1 << d0 // the first edge, already taken, closes the loop
				}
				nd := int(turn[b][d])
				if w == start && nd == d0 {
					break
				}
				if nd != d {
					loop = append(loop, int32(w<<2|nd))
				}
				d = nd
			}
			p.emitRounded(loop, v, ox, oy, c)
		}
	}
}

// emitRounded draws one traced loop given its corners, rounding them as
// c says.
func (p *path) emitRounded(loop []int32, v int, ox, oy float32, c corners) {
	n := len(loop)
	for i, l := range loop {
		x, y := ox+float32(int(l>>2)%v), oy+float32(int(l>>2)/v)
		dout := int(l & 3)
		din := int(loop[(i+n-1)%n] & 3)
		var r float32
		switch dout {
		case (din + 1) & 3:
			r = c.convex[din]
		case (din + 3) & 3:
			r = c.concave
		}
		if r == 0 { // a sharp corner
			if i == 0 {
				p.moveTo(x, y)
			} else {
				p.lineTo(x, y)
			}
			continue
		}
		// A quarter circle tangent to both edges: inside the dark region
		// at a convex corner, a fillet outside it at a concave one.
		k := r * kappa
		ix, iy := float32(dirs[din][0]), float32(dirs[din][1])
		jx, jy := float32(dirs[dout][0]), float32(dirs[dout][1])
		ax, ay := x-ix*r, y-iy*r // where the curve starts
		bx, by := x+jx*r, y+jy*r // and ends
		if i == 0 {
			p.moveTo(ax, ay)
		} else {
			p.lineTo(ax, ay)
		}
		p.cubicTo(ax+ix*k, ay+iy*k, bx-jx*k, by-jy*k, bx, by)
	}
	p.close()
}
