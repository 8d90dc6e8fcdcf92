package qr

import "math/bits"

// Penalty weights of ISO/IEC 18004 §7.8.3.
const (
	penaltyN1 = 3
	penaltyN2 = 3
	penaltyN3 = 40
	penaltyN4 = 10
)

// word returns w[i], or 0 outside w: the neighbours of a line's end words.
func word(w []uint64, i int) uint64 {
	if uint(i) < uint(len(w)) {
		return w[i]
	}
	return 0
}

// Shifts of word w of a packed line given its neighbours: shr moves bit
// p+k to p, shl moves bit p−k to p.
func shr(w, next uint64, k uint) uint64 { return w>>k | next<<(64-k) }
func shl(w, prev uint64, k uint) uint64 { return w<<k | prev>>(64-k) }

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
	var eqBuf, prevEqBuf, sameBuf [3]uint64
	eq, prevEq, same := eqBuf[:nw], prevEqBuf[:nw], sameBuf[:nw]
	for y := range size {
		row := rows[y*nw : (y+1)*nw]
		p += t.linePenalty(row, eq)
		if y > 0 {
			// A 2×2 block at x: rows y−1 and y agree at x and x+1, and
			// row y−1 agrees with itself from x to x+1.
			prev := rows[(y-1)*nw : y*nw]
			for i := range same {
				same[i] = ^(row[i] ^ prev[i]) & t.inside[i]
			}
			for i, s := range same {
				p += penaltyN2 * bits.OnesCount64(s&shr(s, word(same, i+1), 1)&prevEq[i])
			}
		}
		eq, prevEq = prevEq, eq
	}
	if p >= limit {
		return p
	}
	for x := range size {
		p += t.linePenalty(cols[x*nw:(x+1)*nw], eq)
	}
	return p
}

// linePenalty scores rules 1 and 3 on one packed line and leaves in eq the
// bits of modules whose right (or lower) neighbour has the same colour.
func (t *template) linePenalty(l, eq []uint64) int {
	for i, w := range l {
		eq[i] = ^(w ^ shr(w, word(l, i+1), 1)) & t.pairs[i]
	}
	p := 0
	for i, w := range l {
		// Rule 1: a run of n ≥ 5 same-coloured modules scores n−2, that
		// is one per 5-module window in it plus 2 at its start.
		e, en := eq[i], word(eq, i+1)
		w5 := e & shr(e, en, 1) & shr(e, en, 2) & shr(e, en, 3)
		if w5 != 0 {
			start := w5 &^ shl(e, word(eq, i-1), 1)
			p += penaltyN1*bits.OnesCount64(start) + bits.OnesCount64(w5) - bits.OnesCount64(start)
		}
		// Rule 3: dark-light-dark×3-light-dark with 4 light modules
		// before or after it; the padding makes the quiet zone light.
		next := word(l, i+1)
		light, lightNext := ^w, ^next
		core := w & shr(light, lightNext, 1) & shr(w, next, 2) & shr(w, next, 3) & shr(w, next, 4) & shr(light, lightNext, 5) & shr(w, next, 6)
		if core == 0 {
			continue
		}
		lightPrev := ^word(l, i-1)
		after := shr(light, lightNext, 7) & shr(light, lightNext, 8) & shr(light, lightNext, 9) & shr(light, lightNext, 10)
		before := shl(light, lightPrev, 1) & shl(light, lightPrev, 2) & shl(light, lightPrev, 3) & shl(light, lightPrev, 4)
		p += penaltyN3 * (bits.OnesCount64(core&after) + bits.OnesCount64(core&before))
	}
	return p
}
