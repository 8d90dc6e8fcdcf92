package pdffont

import ot "github.com/go-text/typesetting/font/opentype"

// Outline calls fn for every segment of the line's glyph outlines, with
// points in ems from the line's left end on the baseline, y up: op is 'm'
// or 'l' with one point, 'q' with a control point and the end, or 'c'
// with two control points and the end. Formats without fonts (EPS) draw
// the text with it.
func (l Line) Outline(fn func(op byte, pts []float32)) {
	sh := shapers.Get().(*shaper)
	defer shapers.Put(sh)
	var pen float32
	var pts [6]float32
	for _, r := range l.runs {
		face := sh.face(r.font)
		k := 1 / float32(face.Upem())
		for _, g := range r.glyphs {
			o, ok := face.GlyphDataOutline(ot.GID(g.id))
			if !ok {
				pen += g.adv
				continue
			}
			x0, y0 := pen+g.dx, g.dy
			for _, s := range o.Segments {
				args := s.ArgsSlice()
				for i, p := range args {
					pts[2*i], pts[2*i+1] = x0+p.X*k, y0+p.Y*k
				}
				fn("mlqc"[s.Op], pts[:2*len(args)])
			}
			pen += g.adv
		}
	}
}
