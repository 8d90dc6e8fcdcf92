package render

import "image/color"

// cmd is one path operation.
type cmd uint8

const (
	cmdMove  cmd = iota // 1 point
	cmdLine             // 1 point
	cmdCubic            // 3 points: two controls and the end
	cmdClose            // 0 points
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

// kappa places cubic control points so that four curves make a circle.
const kappa = 0.5522847498

// roundRect adds a closed rectangle with corner radius r (0 for sharp;
// w/2 for a circle). Clockwise on screen, or counter-clockwise for a hole.
func (p *path) roundRect(x, y, w, h, r float32, hole bool) {
	if r <= 0 {
		if hole {
			p.moveTo(x, y)
			p.lineTo(x, y+h)
			p.lineTo(x+w, y+h)
			p.lineTo(x+w, y)
		} else {
			p.moveTo(x, y)
			p.lineTo(x+w, y)
			p.lineTo(x+w, y+h)
			p.lineTo(x, y+h)
		}
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

// outline adds the boundary of the union of the dark cells of an s×s
// grid, placed at (ox, oy). Adjacent cells merge into one outline, so no
// anti-aliased seam can appear between them. With radius > 0 the convex
// corners (where a module has no dark neighbour on either side) are
// rounded, giving connected "rounded" dots; concave corners stay sharp.
func (p *path) outline(dark []bool, s int, ox, oy, radius float32) {
	// out holds, per grid vertex, a bit per direction of an outgoing
	// boundary edge. Edges run clockwise around each dark cell and are
	// kept only where the neighbour across them is light.
	v := s + 1
	out := make([]uint8, v*v)
	at := func(x, y int) bool { return x >= 0 && y >= 0 && x < s && y < s && dark[y*s+x] }
	for y := range s {
		for x := range s {
			if !dark[y*s+x] {
				continue
			}
			if !at(x, y-1) {
				out[y*v+x] |= 1 << 0
			}
			if !at(x+1, y) {
				out[y*v+x+1] |= 1 << 1
			}
			if !at(x, y+1) {
				out[(y+1)*v+x+1] |= 1 << 2
			}
			if !at(x-1, y) {
				out[(y+1)*v+x] |= 1 << 3
			}
		}
	}
	var corners []int32 // vertex index and outgoing direction, packed
	for start := range out {
		for out[start] != 0 {
			d0 := 0
			for out[start]&(1<<d0) == 0 {
				d0++
			}
			corners = corners[:0]
			corners = append(corners, int32(start<<2|d0))
			w, d := start, d0
			for {
				out[w] &^= 1 << d
				w += dirs[d][1]*v + dirs[d][0]
				// Prefer the right turn, so cells touching only at a
				// corner get separate outlines, each with a convex corner.
				nd := -1
				for _, c := range [3]int{(d + 1) & 3, d, (d + 3) & 3} {
					if out[w]&(1<<c) != 0 || (w == start && c == d0) {
						nd = c
						break
					}
				}
				if w == start && nd == d0 {
					break
				}
				if nd != d {
					corners = append(corners, int32(w<<2|nd))
				}
				d = nd
			}
			p.emitLoop(corners, v, ox, oy, radius)
		}
	}
}

// emitLoop draws one traced loop given its corners.
func (p *path) emitLoop(corners []int32, v int, ox, oy, r float32) {
	n := len(corners)
	pt := func(c int32) (float32, float32) {
		i := int(c >> 2)
		return ox + float32(i%v), oy + float32(i/v)
	}
	if r <= 0 {
		for i, c := range corners {
			x, y := pt(c)
			if i == 0 {
				p.moveTo(x, y)
			} else {
				p.lineTo(x, y)
			}
		}
		p.close()
		return
	}
	for i, c := range corners {
		x, y := pt(c)
		dout := int(c & 3)
		din := int(corners[(i+n-1)%n] & 3)
		if dout != (din+1)&3 { // concave (or straight): a sharp corner
			if i == 0 {
				p.moveTo(x, y)
			} else {
				p.lineTo(x, y)
			}
			continue
		}
		ix, iy := float32(dirs[din][0]), float32(dirs[din][1])
		jx, jy := float32(dirs[dout][0]), float32(dirs[dout][1])
		ax, ay := x-ix*r, y-iy*r // where the curve starts
		bx, by := x+jx*r, y+jy*r // and ends
		if i == 0 {
			p.moveTo(ax, ay)
		} else {
			p.lineTo(ax, ay)
		}
		k := r * kappa
		p.cubicTo(ax+ix*k, ay+iy*k, bx-jx*k, by-jy*k, bx, by)
	}
	p.close()
}
