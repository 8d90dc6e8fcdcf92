package render

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
)

// rowDeflater writes the zlib stream (RFC 1950, 1951) of a bitmap PNG's
// pixel rows without searching for matches: the writer knows where the
// repeats are. A module row's pixel rows after its first are one copy of
// the row above; a row equal to an earlier one within the 32 KB window is
// a copy of it; any other row is copies of the row above where they
// match, of its own previous byte where it repeats, and literals. The tokens are then coded with
// Huffman codes built for them (one dynamic block), which is what keeps
// the file as small as zlib's default level made it: with the fixed codes
// rsc.io/qr uses, each 258-byte copy costs three times the bits.
type rowDeflater struct {
	tokens []uint32 // literals (< 256), and copies: copyToken | (length-3)<<15 | (distance-1)
	pos    int      // bytes of pixel rows so far
	// last is the previous pixel row; pending counts the bytes still to
	// copy from it (the repeats of the last row, at distance stride).
	last    []byte
	pending int
	// seen holds the rows written so far, each where it last started
	// (seenAt), to find an earlier equal row in the window.
	seen   [][]byte
	seenAt []int
	store  []byte // the bytes of seen
	a, b   uint32 // the Adler-32 of the rows so far

	out   []byte
	bits  uint64
	nbits uint
}

const (
	copyToken  = 1 << 31
	maxCopy    = 258
	window     = 32768
	adlerMod   = 65521
	endOfBlock = 256
)

var deflaters = sync.Pool{New: func() any { return &rowDeflater{} }}

// getDeflater returns a deflater for rows of stride bytes; put it back
// with deflaters.Put once its output has been copied out.
func getDeflater(stride, rows int) *rowDeflater {
	d := deflaters.Get().(*rowDeflater)
	d.tokens, d.pos, d.last, d.pending = d.tokens[:0], 0, nil, 0
	d.seen, d.seenAt = d.seen[:0], d.seenAt[:0]
	d.store = slices.Grow(d.store[:0], stride*rows)
	d.a, d.b = 1, 0
	d.out, d.bits, d.nbits = d.out[:0], 0, 0
	return d
}

// rows adds row (filter byte included) times over.
func (d *rowDeflater) rows(row []byte, times int) {
	if times == 0 {
		return
	}
	d.sum(row, times)
	stride := len(row)
	if d.last != nil && bytes.Equal(row, d.last) {
		d.pending += times * stride
		d.pos += times * stride
		d.seenAt[len(d.seenAt)-1] = d.pos - stride
		return
	}
	d.flush()
	found := -1
	for i := len(d.seen) - 1; i >= 0 && d.pos-d.seenAt[i] <= window; i-- {
		if bytes.Equal(d.seen[i], row) {
			found = i
			break
		}
	}
	if found >= 0 {
		d.copy(stride, d.pos-d.seenAt[found])
		d.seen = append(d.seen[:found], d.seen[found+1:]...)
		d.seenAt = append(d.seenAt[:found], d.seenAt[found+1:]...)
	} else {
		d.literals(row)
	}
	d.pending = (times - 1) * stride
	d.pos += times * stride
	start := len(d.store)
	d.store = append(d.store, row...)
	d.last = d.store[start:]
	d.seen = append(d.seen, d.last)
	d.seenAt = append(d.seenAt, d.pos-stride)
}

// flush writes the pending copies of the last row.
func (d *rowDeflater) flush() {
	if d.pending > 0 {
		d.copy(d.pending, len(d.last))
		d.pending = 0
	}
}

// literals writes a row that is not a copy of an earlier one: where it
// matches the row above (the last, stride bytes back) for 3 bytes or
// more, a copy of it; where it repeats its previous byte, a copy at
// distance 1; elsewhere literals.
func (d *rowDeflater) literals(row []byte) {
	above := d.last
	for i := 0; i < len(row); {
		same := 0
		for above != nil && i+same < len(row) && row[i+same] == above[i+same] {
			same++
		}
		run := 0
		for i > 0 && i+run < len(row) && row[i+run] == row[i-1] {
			run++
		}
		switch {
		case same >= 3 && same >= run:
			d.copy(same, len(row))
			i += same
		case run >= 3:
			d.copy(run, 1)
			i += run
		default:
			d.tokens = append(d.tokens, uint32(row[i]))
			i++
		}
	}
}

// copy writes n ≥ 3 bytes copied from dist back, in copies of at most
// maxCopy bytes and at least 3.
func (d *rowDeflater) copy(n, dist int) {
	for n > 0 {
		c := min(n, maxCopy)
		if r := n - c; r > 0 && r < 3 {
			c = n - 3
		}
		d.tokens = append(d.tokens, copyToken|uint32(c-3)<<15|uint32(dist-1))
		n -= c
	}
}

// sum adds row, times over, to the Adler-32 checksum: per row the sum of
// its bytes s and their weighted sum w (the first byte counted len(row)
// times), so that each repeat costs two multiplications.
func (d *rowDeflater) sum(row []byte, times int) {
	var s, w uint64
	n := uint64(len(row))
	for i, v := range row {
		s += uint64(v)
		w += (n - uint64(i)) * uint64(v)
	}
	s, w = s%adlerMod, w%adlerMod
	a, b := uint64(d.a), uint64(d.b)
	for range times {
		b = (b + n*a + w) % adlerMod
		a = (a + s) % adlerMod
	}
	d.a, d.b = uint32(a), uint32(b)
}

// finish returns the zlib stream: one dynamic Huffman block of the tokens.
func (d *rowDeflater) finish() []byte {
	d.flush()
	d.tokens = append(d.tokens, endOfBlock)
	var litFreq [286]uint32
	var distFreq [30]uint32
	for _, t := range d.tokens {
		if t&copyToken == 0 {
			litFreq[t]++
			continue
		}
		lc, _, _ := lengthCode(int(t>>15&0xff) + 3)
		dc, _, _ := distCode(int(t&0x7fff) + 1)
		litFreq[lc]++
		distFreq[dc]++
	}
	var litLen [286]uint8
	var distLen [30]uint8
	huffLengths(litFreq[:], litLen[:], 15)
	huffLengths(distFreq[:], distLen[:], 15)
	var litCodes [286]uint16
	var distCodes [30]uint16
	canonical(litLen[:], litCodes[:])
	canonical(distLen[:], distCodes[:])

	d.out = append(d.out, 0x78, 0x01) // deflate, 32 KB window; (0x7801 % 31 == 0)
	d.put(1, 1)                       // the final block
	d.put(2, 2)                       // dynamic Huffman codes
	d.header(litLen[:], distLen[:])
	for _, t := range d.tokens {
		if t&copyToken == 0 {
			d.put(uint64(litCodes[t]), uint(litLen[t]))
			continue
		}
		lc, lb, lx := lengthCode(int(t>>15&0xff) + 3)
		d.put(uint64(litCodes[lc]), uint(litLen[lc]))
		d.put(uint64(lx), lb)
		dc, db, dx := distCode(int(t&0x7fff) + 1)
		d.put(uint64(distCodes[dc]), uint(distLen[dc]))
		d.put(uint64(dx), db)
	}
	for d.nbits > 0 {
		d.out = append(d.out, byte(d.bits))
		d.bits >>= 8
		d.nbits = d.nbits - min(d.nbits, 8)
	}
	return binary.BigEndian.AppendUint32(d.out, d.b<<16|d.a)
}

// put writes the n low bits of v, least significant first.
func (d *rowDeflater) put(v uint64, n uint) {
	d.bits |= v << d.nbits
	d.nbits += n
	if d.nbits >= 32 {
		d.out = binary.LittleEndian.AppendUint32(d.out, uint32(d.bits))
		d.bits >>= 32
		d.nbits -= 32
	}
}

// clOrder is the order the code length code's lengths are sent in.
var clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// header writes the block's code lengths, run-length coded (16: repeat
// the previous length 3–6 times, 17: 3–10 zeros, 18: 11–138 zeros) with
// a Huffman code of their own.
func (d *rowDeflater) header(litLen, distLen []uint8) {
	nlit, ndist := 286, 30
	for nlit > 257 && litLen[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && distLen[ndist-1] == 0 {
		ndist--
	}
	var seqBuf [286 + 30]uint8
	seq := append(append(seqBuf[:0], litLen[:nlit]...), distLen[:ndist]...)
	// Each run-length symbol with its extra bits' value.
	var syms [316][2]uint8
	ns := 0
	emit := func(sym, extra uint8) { syms[ns] = [2]uint8{sym, extra}; ns++ }
	for i := 0; i < len(seq); {
		l := seq[i]
		run := 1
		for i+run < len(seq) && seq[i+run] == l {
			run++
		}
		i += run
		if l == 0 {
			for ; run >= 11; run -= min(run, 138) {
				emit(18, uint8(min(run, 138)-11))
			}
			if run >= 3 {
				emit(17, uint8(run-3))
				run = 0
			}
		} else {
			emit(l, 0)
			for run--; run >= 3; run -= min(run, 6) {
				emit(16, uint8(min(run, 6)-3))
			}
		}
		for ; run > 0; run-- {
			emit(l, 0)
		}
	}
	var clFreq [19]uint32
	for _, s := range syms[:ns] {
		clFreq[s[0]]++
	}
	var clLen [19]uint8
	var clCode [19]uint16
	huffLengths(clFreq[:], clLen[:], 7)
	canonical(clLen[:], clCode[:])
	nclen := 19
	for nclen > 4 && clLen[clOrder[nclen-1]] == 0 {
		nclen--
	}
	d.put(uint64(nlit-257), 5)
	d.put(uint64(ndist-1), 5)
	d.put(uint64(nclen-4), 4)
	for _, s := range clOrder[:nclen] {
		d.put(uint64(clLen[s]), 3)
	}
	extraBits := [19]uint{16: 2, 17: 3, 18: 7}
	for _, s := range syms[:ns] {
		d.put(uint64(clCode[s[0]]), uint(clLen[s[0]]))
		d.put(uint64(s[1]), extraBits[s[0]])
	}
}

// lengthCode returns the symbol of a copy's length (3–258), its number
// of extra bits and their value.
func lengthCode(n int) (sym int, nbits uint, extra int) {
	if n == maxCopy {
		return 285, 0, 0
	}
	v := n - 3
	if v < 8 {
		return 257 + v, 0, 0
	}
	l := bits.Len(uint(v))
	nbits = uint(l - 3)
	return 257 + 4*(l-2) + (v>>nbits)&3, nbits, v & (1<<nbits - 1)
}

// distCode returns the symbol of a copy's distance (1–32768), its number
// of extra bits and their value.
func distCode(dist int) (sym int, nbits uint, extra int) {
	v := dist - 1
	if v < 2 {
		return v, 0, 0
	}
	l := bits.Len(uint(v))
	nbits = uint(l - 2)
	return 2*(l-1) + (v>>nbits)&1, nbits, v & (1<<nbits - 1)
}

// huffLengths sets lens to the lengths of a Huffman code for freq, none
// longer than maxBits. At least two symbols get a code (a one-symbol code
// is incomplete, which not every inflater accepts): the first unused ones
// are added as needed.
func huffLengths(freq []uint32, lens []uint8, maxBits int) {
	type node struct {
		w      uint64
		parent int
	}
	// On the stack: the largest alphabet has 286 symbols.
	var symBuf [286]int
	var w [286]uint64
	var nodeBuf [2 * 286]node
	var depth [2 * 286]int
	syms := symBuf[:0]
	for i, f := range freq {
		if f > 0 {
			syms = append(syms, i)
			w[i] = uint64(f)
		}
	}
	for i := 0; len(syms) < 2; i++ {
		if freq[i] == 0 {
			syms = append(syms, i)
			w[i] = 1
		}
	}
	for {
		slices.SortStableFunc(syms, func(a, b int) int { return cmp.Compare(w[a], w[b]) })
		nodes := nodeBuf[:0]
		for _, s := range syms {
			nodes = append(nodes, node{w: w[s], parent: -1})
		}
		// Two queues: the leaves in order of weight, and the merged
		// nodes, which are made in order of weight.
		leaf, inner := 0, len(syms)
		pick := func() int {
			if leaf < len(syms) && (inner >= len(nodes) || nodes[leaf].w <= nodes[inner].w) {
				leaf++
				return leaf - 1
			}
			inner++
			return inner - 1
		}
		for range len(syms) - 1 {
			x, y := pick(), pick()
			nodes = append(nodes, node{w: nodes[x].w + nodes[y].w, parent: -1})
			nodes[x].parent, nodes[y].parent = len(nodes)-1, len(nodes)-1
		}
		depth[len(nodes)-1] = 0
		longest := 0
		for i := len(nodes) - 2; i >= 0; i-- {
			depth[i] = depth[nodes[i].parent] + 1
			longest = max(longest, depth[i])
		}
		if longest <= maxBits {
			clear(lens)
			for i, s := range syms {
				lens[s] = uint8(depth[i])
			}
			return
		}
		// Too deep: flatten the weights and build again.
		for _, s := range syms {
			w[s] = (w[s] + 1) / 2
		}
	}
}

// canonical sets codes to the canonical Huffman code of lens (RFC 1951
// 3.2.2), bit-reversed to be written least significant bit first.
func canonical(lens []uint8, codes []uint16) {
	var count, next [16]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var code uint16
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	for i, l := range lens {
		if l > 0 {
			codes[i] = bits.Reverse16(next[l]) >> (16 - l)
			next[l]++
		}
	}
}
