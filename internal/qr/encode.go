package qr

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
)

// Errors for options outside their ranges, besides ErrInvalidVersion.
var (
	ErrInvalidLevel = errors.New("Invalid QR Code error correction level")
	ErrInvalidMask  = errors.New("Invalid QR Code mask")
)

// MaskChoice selects the data mask: AutoMask (the zero value) or FixedMask.
type MaskChoice uint8

// AutoMask scores all 8 masks with the 4 penalty rules and keeps the lowest.
const AutoMask MaskChoice = 0

// FixedMask forces mask pattern m (0..7).
func FixedMask(m int) MaskChoice {
	if m < 0 || m > 7 {
		return MaskChoice(255) // rejected by Encode with ErrInvalidMask
	}
	return MaskChoice(m + 1)
}

// Options control Encode. The zero value means level L, the smallest
// version that holds the data, and the mask with the lowest penalty.
type Options struct {
	Level Level
	// Version 0 picks the smallest version that fits; 1..40 forces one
	// (ErrTooBig if the data does not fit it); anything else is
	// ErrInvalidVersion.
	Version int
	Mask    MaskChoice
}

// maxChars is the most characters any symbol holds: 7089 digits in 40-L.
const maxChars = 7089

// Encode encodes data into a QR Code symbol.
//
// The data is split into numeric, alphanumeric and byte mode segments so
// that it takes the fewest bits. Byte mode carries the bytes as given;
// UTF-8 text with non-ASCII characters is marked with ECI 26 (see
// needsECI).
func Encode(data []byte, opt Options) (*Matrix, error) {
	if len(data) == 0 {
		return nil, ErrNoInput
	}
	if opt.Level > H {
		return nil, ErrInvalidLevel
	}
	if opt.Version < 0 || opt.Version > 40 {
		return nil, ErrInvalidVersion
	}
	if opt.Mask > 8 {
		return nil, ErrInvalidMask
	}

	if len(data) > maxChars {
		return nil, ErrTooBig // before sizing buffers by the input
	}
	from := make([]uint8, 3*len(data))
	segs := make([]segment, 0, 8)
	eci := needsECI(data)
	v, segs := chooseVersion(data, opt, eci, from, segs)
	if v == 0 {
		return nil, ErrTooBig
	}
	return build(data, segs, eci, v, opt), nil
}

// chooseVersion returns the version to use and the segments for it, or 0
// if the data does not fit.
func chooseVersion(data []byte, opt Options, eci bool, from []uint8, segs []segment) (int, []segment) {
	header := 0
	if eci {
		header = eciBits
	}
	if opt.Version != 0 {
		var bits int
		segs, bits = segmentize(data, versionGroup(opt.Version), from, segs)
		if header+bits > 8*dataCodewords(opt.Version, opt.Level) {
			return 0, nil
		}
		return opt.Version, segs
	}
	// Widths of the count fields grow with the version group, so the first
	// group with a version that fits has the smallest such version.
	first, least := 1, header+lowerBound(data)
	for g, last := range groupLast {
		if least <= 8*dataCodewords(last, opt.Level) {
			var bits int
			segs, bits = segmentize(data, g, from, segs)
			for v := first; v <= last; v++ {
				if header+bits <= 8*dataCodewords(v, opt.Level) {
					return v, segs
				}
			}
		}
		first = last + 1
	}
	return 0, nil
}

// build lays out a symbol of version v holding segs of data, after an ECI
// header if eci is set.
func build(data []byte, segs []segment, eci bool, v int, opt Options) *Matrix {
	t := templateFor(v)
	l := opt.Level
	total := totalCodewords(v)
	nData := dataCodewords(v, l)

	buf := make([]byte, 2*total)
	w := bitWriter{buf: buf[:0:nData]}
	w.writeSegments(data, segs, versionGroup(v), eci)
	w.finish(nData)
	codewords := interleave(w.buf, buf[total:], v, l)

	// Five packed copies of the symbol: base (function patterns and
	// unmasked data) in rows and columns, a masked candidate in rows and
	// columns, and the best candidate's rows.
	n := t.size * t.nw
	packed := make([]uint64, 5*n)
	baseRows, baseCols := packed[:n:n], packed[n:2*n:2*n]
	rows, cols, best := packed[2*n:3*n:3*n], packed[3*n:4*n:4*n], packed[4*n:]
	copy(baseRows, t.rows)
	copy(baseCols, t.cols)
	for k, c := range codewords {
		for c != 0 {
			// Bit k*8+j, j = 0 for the most significant, is placed j-th.
			j := bits.LeadingZeros8(c)
			c &^= 0x80 >> j
			r, cl := t.placeRow[8*k+j], t.placeCol[8*k+j]
			baseRows[r/64] |= 1 << (r % 64)
			baseCols[cl/64] |= 1 << (cl % 64)
		}
	}

	masks := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if opt.Mask != AutoMask {
		masks = masks[opt.Mask-1 : opt.Mask]
	}
	bestMask, bestScore := 0, math.MaxInt
	for _, m := range masks {
		for i := range rows {
			rows[i] = baseRows[i] ^ t.maskRows[m][i]
			cols[i] = baseCols[i] ^ t.maskCols[m][i]
		}
		f := formatBits(l, m)
		for c := range 2 {
			for i := range 15 {
				if f>>i&1 != 0 {
					r, cl := t.formatRow[c][i], t.formatCol[c][i]
					rows[r/64] |= 1 << (r % 64)
					cols[cl/64] |= 1 << (cl % 64)
				}
			}
		}
		if len(masks) == 1 {
			bestMask, best = m, rows
			break
		}
		if s := t.penalty(rows, cols, bestScore); s < bestScore {
			bestMask, bestScore = m, s
			best, rows = rows, best
		}
	}

	mat := &Matrix{Version: v, Level: l, Mask: bestMask, Size: t.size, cells: make([]byte, t.size*t.size)}
	copy(mat.cells, t.roles)
	for y := range t.size {
		unpackLine(mat.cells[y*t.size:(y+1)*t.size], best[y*t.nw:(y+1)*t.nw])
	}
	return mat
}

// spread[b] has byte k set to bit k of b.
var spread = func() (s [256]uint64) {
	for b := range 256 {
		for k := range 8 {
			s[b] |= uint64(b>>k&1) << (8 * k)
		}
	}
	return s
}()

// unpackLine sets bit 0 of cells[x] to the colour of module x of a packed
// line, eight modules at a time.
func unpackLine(cells []byte, line []uint64) {
	x := 0
	for ; x+8 <= len(cells); x += 8 {
		off := x + pad
		w, s := off/64, off%64
		b := line[w] >> s
		if s > 56 {
			b |= line[w+1] << (64 - s)
		}
		c := cells[x : x+8]
		binary.LittleEndian.PutUint64(c, binary.LittleEndian.Uint64(c)|spread[byte(b)])
	}
	for ; x < len(cells); x++ {
		cells[x] |= byte(line[(x+pad)/64] >> ((x + pad) % 64) & 1)
	}
}

// interleave computes the error correction codewords of each block of data
// and returns the final codeword sequence in out: the data codewords taken
// column-wise across blocks (short blocks first, they lack the last
// column), then the error correction codewords the same way.
func interleave(data, out []byte, v int, l Level) []byte {
	nb := int(numBlocks[l][v])
	ne := int(eccPerBlock[l][v])
	total := len(out)
	short := nb - total%nb     // blocks with one data codeword fewer
	shortData := total/nb - ne // data codewords in a short block
	rs := rsFor(ne)

	var ecc [maxECC]byte
	pos := 0
	for b := range nb {
		n := shortData
		if b >= short {
			n++
		}
		block := data[pos : pos+n]
		pos += n
		for i, d := range block {
			j := b + i*nb
			if i == shortData {
				j -= short // the extra column holds long blocks only
			}
			out[j] = d
		}
		rs.encode(block, ecc[:])
		for i := range ne {
			out[len(data)+b+i*nb] = ecc[i]
		}
	}
	return out
}
