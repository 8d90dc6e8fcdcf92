package qr

import "sync"

// pad is the number of light bits kept on each side of a packed line, so
// that the finder-like penalty pattern can see the quiet zone as light.
const pad = 4

// template is everything about a version that does not depend on the data:
// module roles, the function patterns, where each data bit goes, and the
// mask patterns. It is built once per version and then only read, so any
// number of encodes can share it.
//
// Lines are bit-packed: the symbol's rows (and, transposed, its columns)
// are nw uint64 words each, module i of a line at bit pad+i.
type template struct {
	size, nw int
	roles    []byte   // Role<<1 per module, row-major
	rows     []uint64 // dark function modules; format information left light
	cols     []uint64 // the same, transposed
	maskRows [8][]uint64
	maskCols [8][]uint64
	// place[k] is where the k-th data bit goes: its bit index in rows and
	// in cols. Remainder bits come last.
	placeRow, placeCol []uint32
	// formatRow/formatCol[c][i] is bit index of format bit i (0 = least
	// significant) of copy c.
	formatRow, formatCol [2][15]uint32
	inside, pairs        [3]uint64 // per word: bits of modules; bits of modules i whose i+1 is a module too
}

var templates [41]struct {
	once sync.Once
	t    *template
}

// templateFor returns the cached template of version v.
func templateFor(v int) *template {
	t := &templates[v]
	t.once.Do(func() { t.t = newTemplate(v) })
	return t.t
}

// maskFuncs are the 8 data mask conditions; x is the column, y the row.
var maskFuncs = [8]func(x, y int) bool{
	func(x, y int) bool { return (x+y)%2 == 0 },
	func(x, y int) bool { return y%2 == 0 },
	func(x, y int) bool { return x%3 == 0 },
	func(x, y int) bool { return (x+y)%3 == 0 },
	func(x, y int) bool { return (y/2+x/3)%2 == 0 },
	func(x, y int) bool { return x*y%2+x*y%3 == 0 },
	func(x, y int) bool { return (x*y%2+x*y%3)%2 == 0 },
	func(x, y int) bool { return ((x+y)%2+x*y%3)%2 == 0 },
}

func newTemplate(v int) *template {
	size := 17 + 4*v
	nw := (size + 2*pad + 63) / 64
	t := &template{size: size, nw: nw, roles: make([]byte, size*size)}
	function := make([]bool, size*size)
	dark := make([]bool, size*size)
	set := func(x, y int, d bool, r Role) {
		i := y*size + x
		function[i], dark[i], t.roles[i] = true, d, byte(r)<<1
	}

	for i := range size {
		set(6, i, i%2 == 0, RoleTiming)
		set(i, 6, i%2 == 0, RoleTiming)
	}
	for _, o := range [3][2]int{{3, 3}, {size - 4, 3}, {3, size - 4}} {
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				x, y := o[0]+dx, o[1]+dy
				if x < 0 || y < 0 || x >= size || y >= size {
					continue
				}
				d := max(abs(dx), abs(dy))
				if d == 4 {
					set(x, y, false, RoleSeparator)
				} else {
					set(x, y, d != 2, RoleFinder)
				}
			}
		}
	}
	centers := alignmentCenters(v)
	last := len(centers) - 1
	for i, cy := range centers {
		for j, cx := range centers {
			if i == 0 && (j == 0 || j == last) || i == last && j == 0 {
				continue // a finder is there
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					set(cx+dx, cy+dy, max(abs(dx), abs(dy)) != 1, RoleAlignment)
				}
			}
		}
	}
	for c, pos := range formatPositions(size) {
		for i, p := range pos {
			set(p[0], p[1], false, RoleFormat)
			t.formatRow[c][i] = t.rowBit(p[0], p[1])
			t.formatCol[c][i] = t.colBit(p[0], p[1])
		}
	}
	set(8, size-8, true, RoleFormat) // the dark module
	if v >= 7 {
		bits := versionBits(v)
		for i := range 18 {
			a, b := size-11+i%3, i/3
			d := bits>>i&1 != 0
			set(a, b, d, RoleVersion)
			set(b, a, d, RoleVersion)
		}
	}

	t.rows = make([]uint64, size*nw)
	t.cols = make([]uint64, size*nw)
	for y := range size {
		for x := range size {
			if dark[y*size+x] {
				t.setBit(x, y, t.rows, t.cols)
			}
		}
	}

	// Data bits run in two-module columns from the right, zigzagging up
	// and down, skipping the vertical timing column.
	t.placeRow = make([]uint32, 0, rawModules(v))
	t.placeCol = make([]uint32, 0, rawModules(v))
	for right := size - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		upward := (right+1)&2 == 0
		for vert := range size {
			y := vert
			if upward {
				y = size - 1 - vert
			}
			for x := right; x >= right-1; x-- {
				if !function[y*size+x] {
					t.placeRow = append(t.placeRow, t.rowBit(x, y))
					t.placeCol = append(t.placeCol, t.colBit(x, y))
				}
			}
		}
	}

	for m, f := range maskFuncs {
		t.maskRows[m] = make([]uint64, size*nw)
		t.maskCols[m] = make([]uint64, size*nw)
		for y := range size {
			for x := range size {
				if !function[y*size+x] && f(x, y) {
					t.setBit(x, y, t.maskRows[m], t.maskCols[m])
				}
			}
		}
	}

	for i := pad; i < pad+size; i++ {
		t.inside[i/64] |= 1 << (i % 64)
		if i < pad+size-1 {
			t.pairs[i/64] |= 1 << (i % 64)
		}
	}
	return t
}

// formatPositions returns the (x, y) of format bits 0..14 (0 = least
// significant) in the copy around the top-left finder and in the copy split
// between the other two.
func formatPositions(size int) (p [2][15][2]int) {
	for i := range 15 {
		switch {
		case i < 6:
			p[0][i] = [2]int{8, i}
		case i < 8:
			p[0][i] = [2]int{8, i + 1}
		case i == 8:
			p[0][i] = [2]int{7, 8}
		default:
			p[0][i] = [2]int{14 - i, 8}
		}
		if i < 8 {
			p[1][i] = [2]int{size - 1 - i, 8}
		} else {
			p[1][i] = [2]int{8, size - 15 + i}
		}
	}
	return p
}

// rowBit and colBit are the bit indexes of module (x, y) in packed rows
// and packed columns.
func (t *template) rowBit(x, y int) uint32 { return uint32(y*t.nw*64 + pad + x) }
func (t *template) colBit(x, y int) uint32 { return uint32(x*t.nw*64 + pad + y) }

func (t *template) setBit(x, y int, rows, cols []uint64) {
	r, c := t.rowBit(x, y), t.colBit(x, y)
	rows[r/64] |= 1 << (r % 64)
	cols[c/64] |= 1 << (c % 64)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
