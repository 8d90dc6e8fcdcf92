package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/squarely/squarely/internal/qr"
)

// flatten turns a path into closed polygons (cubics sampled finely enough
// for winding tests).
func flatten(p *path) [][][2]float32 {
	var polys [][][2]float32
	var cur [][2]float32
	pts := p.pts
	for _, c := range p.cmds {
		switch c {
		case cmdMove:
			cur = [][2]float32{{pts[0], pts[1]}}
			pts = pts[2:]
		case cmdLine:
			cur = append(cur, [2]float32{pts[0], pts[1]})
			pts = pts[2:]
		case cmdCubic:
			a := cur[len(cur)-1]
			for i := 1; i <= 16; i++ {
				t := float32(i) / 16
				u := 1 - t
				x := u*u*u*a[0] + 3*u*u*t*pts[0] + 3*u*t*t*pts[2] + t*t*t*pts[4]
				y := u*u*u*a[1] + 3*u*u*t*pts[1] + 3*u*t*t*pts[3] + t*t*t*pts[5]
				cur = append(cur, [2]float32{x, y})
			}
			pts = pts[6:]
		case cmdClose:
			polys = append(polys, cur)
			cur = nil
		case cmdRect:
			x, y, w, h := pts[0], pts[1], pts[2], pts[3]
			polys = append(polys, [][2]float32{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}})
			pts = pts[4:]
		}
	}
	return polys
}

// winding is the nonzero winding number of the path around (x, y).
func winding(polys [][][2]float32, x, y float32) int {
	w := 0
	for _, poly := range polys {
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			if (a[1] <= y) != (b[1] <= y) {
				xi := a[0] + (y-a[1])/(b[1]-a[1])*(b[0]-a[0])
				if xi > x {
					if b[1] > a[1] {
						w++
					} else {
						w--
					}
				}
			}
		}
	}
	return w
}

// area is the signed (shoelace) area of the polygons; clockwise on screen
// is positive.
func area(polys [][][2]float32) float64 {
	var s float64
	for _, poly := range polys {
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			s += float64(a[0]*b[1] - b[0]*a[1])
		}
	}
	return s / 2
}

// padded returns an s×s grid with the light border outline() expects.
func padded(dark []bool, s int) []bool {
	g := make([]bool, (s+2)*(s+2))
	for i, on := range dark {
		g[(i/s+1)*(s+2)+i%s+1] = on
	}
	return g
}

func TestOutlineCoversExactlyTheDarkCells(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		s := 1 + r.IntN(12)
		dark := make([]bool, s*s)
		count := 0
		for i := range dark {
			dark[i] = r.IntN(2) == 0
			if dark[i] {
				count++
			}
		}
		for _, radius := range []float32{0.2, 0.5} {
			var p path
			p.outline(padded(dark, s), s, 3, 5, roundAll(radius))
			polys := flatten(&p)
			for y := range s {
				for x := range s {
					want := 0
					if dark[y*s+x] {
						want = 1
					}
					// Centre, and near a corner where rounding must not
					// eat into a cell that has a dark neighbour.
					if got := winding(polys, 3+float32(x)+0.5, 5+float32(y)+0.5); got != want {
						t.Fatalf("trial %d radius %v: winding at cell (%d,%d) = %d, want %d", trial, radius, x, y, got, want)
					}
				}
			}
			// Rounding takes (1-π/4)r² from each convex corner, at most
			// four per cell (flattening the curves loses a hair more).
			r := float64(radius)
			if a := area(polys); a > float64(count)+1e-3 || a < float64(count)*(1-4*(1-math.Pi/4)*r*r)-0.01*float64(count) {
				t.Fatalf("trial %d radius %v: area %v for %d cells", trial, radius, a, count)
			}
		}
	}
}

func TestOutlineMergesNeighbours(t *testing.T) {
	cases := []struct {
		name  string
		s     int
		dark  []bool
		loops int
	}{
		{"run of three", 3, []bool{true, true, true, false, false, false, false, false, false}, 1},
		{"block of four", 2, []bool{true, true, true, true}, 1},
		{"diagonal pair stays apart", 2, []bool{true, false, false, true}, 2},
		{"ring has an outer loop and a hole", 3, []bool{true, true, true, true, false, true, true, true, true}, 2},
	}
	for _, c := range cases {
		var p path
		p.outline(padded(c.dark, c.s), c.s, 0, 0, roundAll(0.5))
		loops := 0
		for _, k := range p.cmds {
			if k == cmdClose {
				loops++
			}
		}
		if loops != c.loops {
			t.Errorf("%s: %d loops, want %d", c.name, loops, c.loops)
		}
	}
}

// TestDotsCoverExactlyTheDarkModules checks every dot shape against a
// real matrix: inside each dark data module, outside each light one (and
// the square runs, merged down rows, cover nothing twice).
func TestDotsCoverExactlyTheDarkModules(t *testing.T) {
	m, err := qr.Encode([]byte("https://squarely.example/dots"), qr.Options{Level: qr.Q})
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range DotShapes {
		sc, err := Layout(m, Style{Dots: shape})
		if err != nil {
			t.Fatal(err)
		}
		polys := flatten(&sc.shapes()[1])
		count := 0
		for y := range m.Size {
			for x := range m.Size {
				want := 0
				if m.Dark(x, y) && m.Role(x, y) != qr.RoleFinder {
					want = 1
					count++
				}
				if got := winding(polys, QuietZone+float32(x)+0.5, QuietZone+float32(y)+0.5); got != want {
					t.Fatalf("%s: winding %d at module (%d,%d), want %d", shape, got, x, y, want)
				}
			}
		}
		if a := area(polys); shape == ShapeSquare && a != float64(count) {
			t.Errorf("square dots cover %v, want %d modules", a, count)
		}
	}
}

// TestDotCorners counts the curves each connected dot shape draws: classy
// rounds two corners of a run, classy-rounded all four, extra-rounded
// fills the inner corner of an L as well.
func TestDotCorners(t *testing.T) {
	lone, pair, ell := []bool{true}, []bool{true, true, false, false}, []bool{true, true, true, false}
	for _, c := range []struct {
		shape  string
		s      int
		dark   []bool
		curves int
	}{
		{ShapeClassy, 1, lone, 2},
		{ShapeClassy, 2, pair, 2},
		{ShapeClassy, 2, ell, 3}, // top-left, and the two bottom-right ends
		{ShapeClassyRounded, 1, lone, 4},
		{ShapeClassyRounded, 2, ell, 5},
		{ShapeExtraRounded, 1, lone, 4},
		{ShapeExtraRounded, 2, ell, 6},
	} {
		var p path
		p.outline(padded(c.dark, c.s), c.s, 0, 0, dotCorners[c.shape])
		n := 0
		for _, k := range p.cmds {
			if k == cmdCubic {
				n++
			}
		}
		if n != c.curves {
			t.Errorf("%s %v: %d curves, want %d", c.shape, c.dark, n, c.curves)
		}
	}
}

func TestRoundedDotsRoundOnlyFreeCorners(t *testing.T) {
	// A lone module is a circle: four curves. A run of two is a pill:
	// four curves, with straight sides joining the modules.
	for _, c := range []struct {
		s      int
		dark   []bool
		curves int
	}{
		{1, []bool{true}, 4},
		{2, []bool{true, true, false, false}, 4},
		// An L of three: five convex corners rounded, the inner one sharp.
		{2, []bool{true, true, true, false}, 5},
	} {
		var p path
		p.outline(padded(c.dark, c.s), c.s, 0, 0, roundAll(0.5))
		n := 0
		for _, k := range p.cmds {
			if k == cmdCubic {
				n++
			}
		}
		if n != c.curves {
			t.Errorf("%v: %d curves, want %d", c.dark, n, c.curves)
		}
	}
}
