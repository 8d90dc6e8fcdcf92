// Package qr encodes bytes into QR Code symbols (ISO/IEC 18004, model 2).
//
// It depends on nothing of ours. The renderer reads a Matrix: which modules
// are dark and which role each module plays, so that finder patterns (the
// "eyes") can be drawn in their own shapes and colours.
package qr

import "errors"

// Errors returned by Encode. The texts are part of the product contract.
var (
	ErrNoInput        = errors.New("No input text")
	ErrTooBig         = errors.New("The amount of data is too big to be stored in a QR Code")
	ErrInvalidVersion = errors.New("Invalid QR Code version")
)

// Level is an error correction level.
type Level uint8

const (
	L Level = iota // recovers about 7% of codewords
	M              // about 15%
	Q              // about 25%
	H              // about 30%
)

func (l Level) String() string {
	switch l {
	case L:
		return "L"
	case M:
		return "M"
	case Q:
		return "Q"
	case H:
		return "H"
	}
	return "?"
}

// ParseLevel reads "L", "M", "Q" or "H" (either case).
func ParseLevel(s string) (Level, bool) {
	switch s {
	case "L", "l":
		return L, true
	case "M", "m":
		return M, true
	case "Q", "q":
		return Q, true
	case "H", "h":
		return H, true
	}
	return 0, false
}

// Role says what a module is part of.
type Role uint8

const (
	RoleData      Role = iota // data and error correction codewords (and remainder bits)
	RoleFinder                // the three 7×7 finder patterns ("eyes")
	RoleSeparator             // the light border around each finder
	RoleTiming                // row 6 and column 6 timing patterns
	RoleAlignment             // 5×5 alignment patterns
	RoleFormat                // format information (and the always-dark module)
	RoleVersion               // version information (versions 7 and up)
)

// Matrix is an encoded symbol of Size×Size modules, without a quiet zone.
// (0,0) is the top-left module; x grows to the right, y downwards.
type Matrix struct {
	Version int   // 1..40
	Level   Level // error correction level used
	Mask    int   // 0..7
	Size    int   // 17 + 4*Version

	// cells holds one byte per module: bit 0 is dark, bits 1.. hold the Role.
	cells []byte
}

// newMatrix returns an all-light matrix for version v.
func newMatrix(v int, l Level) *Matrix {
	size := 17 + 4*v
	return &Matrix{Version: v, Level: l, Size: size, cells: make([]byte, size*size)}
}

// Dark reports whether module (x, y) is dark. Out-of-range modules are light,
// which makes the quiet zone implicit.
func (m *Matrix) Dark(x, y int) bool {
	if x < 0 || y < 0 || x >= m.Size || y >= m.Size {
		return false
	}
	return m.cells[y*m.Size+x]&1 != 0
}

// Role reports the role of module (x, y); out-of-range modules are RoleData.
func (m *Matrix) Role(x, y int) Role {
	if x < 0 || y < 0 || x >= m.Size || y >= m.Size {
		return RoleData
	}
	return Role(m.cells[y*m.Size+x] >> 1)
}

// FinderOrigins returns the top-left module of the three 7×7 finder
// patterns: top-left, top-right, bottom-left.
func (m *Matrix) FinderOrigins() [3][2]int {
	return [3][2]int{{0, 0}, {m.Size - 7, 0}, {0, m.Size - 7}}
}

func (m *Matrix) set(x, y int, dark bool, r Role) {
	b := byte(r) << 1
	if dark {
		b |= 1
	}
	m.cells[y*m.Size+x] = b
}

// AppendDarkRuns appends the runs of dark modules in row y to dst as
// column pairs [start, end) and returns the extended slice: renderers draw
// runs, and reading them in bulk is much faster than module by module.
// Rows out of range have no runs.
func (m *Matrix) AppendDarkRuns(dst []int, y int) []int {
	if y < 0 || y >= m.Size {
		return dst
	}
	row := m.cells[y*m.Size : (y+1)*m.Size]
	for x := 0; x < len(row); x++ {
		if row[x]&1 == 0 {
			continue
		}
		x0 := x
		for x < len(row) && row[x]&1 != 0 {
			x++
		}
		dst = append(dst, x0, x)
	}
	return dst
}

// AlignmentCenters returns the row and column coordinates of version v's
// alignment pattern centres; a pattern sits at every pair of them except
// the three that would overlap the finders. Version 1, and versions out of
// range, have none. An odd count puts a pattern at the symbol's centre.
func AlignmentCenters(v int) []int {
	if v < 1 || v > 40 {
		return nil
	}
	return alignmentCenters(v)
}
