package qr

import "math/bits"

// Penalty weights of ISO/IEC 18004 §7.8.3.
const (
	penaltyN1 = 3
	penaltyN2 = 3
	penaltyN3 = 40
	penaltyN4 = 10
)

// line is one packed row or column with a zero word on each side, so that
// shifts across words need no bounds checks: word i of the line is w[i+1].
type line [5]uint64

// shr returns word i of the line shifted right by k (bit p gets bit p+k).
func (l *line) shr(i int, k uint) uint64 { return l[i+1]>>k | l[i+2]<<(64-k) }

// shl returns word i of the line shifted left by k (bit p gets bit p−k).
func (l *line) shl(i int, k uint) uint64 { return l[i+1]<<k | l[i]>>(64-k) }

// penalty scores a masked symbol given as packed rows and columns. It
// stops early, returning a value ≥ limit, once the score reaches limit.
func (t *template) penalty(rows, cols []uint64, limit int) int {
	nw, size := t.nw, t.size
	darkCount := 0
	for _, w := range rows {
		darkCount += bits.OnesCount64(w)
	}
	total := size * size
	// Rule 4: 10 points for each full 5% the dark share is away from 50%.
	p := abs(20*darkCount-10*total) / total * penaltyN4

	// Rules 1 and 3 on rows, rule 2 on pairs of rows.
	var cur, prev, eq, prevEq line
	for y := range size {
		copy(cur[1:1+nw], rows[y*nw:])
		p += t.linePenalty(&cur, &eq)
		if y > 0 {
			// A 2×2 block at x: rows y−1 and y agree at x and x+1, and
			// row y−1 agrees with itself from x to x+1.
			var same line
			for i := range nw {
				same[i+1] = ^(cur[i+1] ^ prev[i+1]) & t.real[i]
			}
			for i := range nw {
				p += penaltyN2 * bits.OnesCount64(same[i+1]&same.shr(i, 1)&prevEq[i+1])
			}
		}
		prev, prevEq = cur, eq
	}
	if p >= limit {
		return p
	}
	for x := range size {
		copy(cur[1:1+nw], cols[x*nw:])
		p += t.linePenalty(&cur, &eq)
	}
	return p
}

// linePenalty scores rules 1 and 3 on one line and leaves in eq the bits
// of modules whose right (or lower) neighbour has the same colour.
func (t *template) linePenalty(l, eq *line) int {
	nw := t.nw
	for i := range nw {
		eq[i+1] = ^(l[i+1] ^ l.shr(i, 1)) & t.pairs[i]
	}
	var light line
	for i := range nw {
		light[i+1] = ^l[i+1]
	}
	p := 0
	for i := range nw {
		// Rule 1: a run of n ≥ 5 same-coloured modules scores n−2, that
		// is one per 5-module window in it plus 2 at its start.
		w5 := eq[i+1] & eq.shr(i, 1) & eq.shr(i, 2) & eq.shr(i, 3)
		start := w5 &^ eq.shl(i, 1)
		p += penaltyN1*bits.OnesCount64(start) + bits.OnesCount64(w5) - bits.OnesCount64(start)
		// Rule 3: dark-light-dark×3-light-dark with 4 light modules
		// before or after it; the padding makes the quiet zone light.
		core := l[i+1] & light.shr(i, 1) & l.shr(i, 2) & l.shr(i, 3) & l.shr(i, 4) & light.shr(i, 5) & l.shr(i, 6)
		if core == 0 {
			continue
		}
		after := light.shr(i, 7) & light.shr(i, 8) & light.shr(i, 9) & light.shr(i, 10)
		before := light.shl(i, 1) & light.shl(i, 2) & light.shl(i, 3) & light.shl(i, 4)
		p += penaltyN3 * (bits.OnesCount64(core&after) + bits.OnesCount64(core&before))
	}
	return p
}
