package qr

import (
	"math/rand/v2"
	"testing"
)

// naivePenalty scores a symbol module by module, straight from the
// standard's wording, to check the bit-parallel scorer against.
func naivePenalty(dark func(x, y int) bool, size int) int {
	p := 0
	at := func(x, y int, transpose bool) bool {
		if transpose {
			x, y = y, x
		}
		return dark(x, y)
	}
	for _, tr := range []bool{false, true} {
		for y := range size {
			// Rule 1: runs of 5 or more: 3 + (length − 5).
			run := 1
			for x := 1; x <= size; x++ {
				if x < size && at(x, y, tr) == at(x-1, y, tr) {
					run++
					continue
				}
				if run >= 5 {
					p += penaltyN1 + run - 5
				}
				run = 1
			}
			// Rule 3: 1011101 with 4 light modules before or after,
			// outside the symbol counting as light.
			core := []bool{true, false, true, true, true, false, true}
			for x := -4; x < size+4; x++ {
				match := true
				for k, c := range core {
					if at(x+k, y, tr) != c {
						match = false
						break
					}
				}
				if !match {
					continue
				}
				lightRun := func(from int) bool {
					for i := from; i < from+4; i++ {
						if at(i, y, tr) {
							return false
						}
					}
					return true
				}
				if lightRun(x - 4) {
					p += penaltyN3
				}
				if lightRun(x + 7) {
					p += penaltyN3
				}
			}
		}
	}
	// Rule 2: each 2×2 block of one colour.
	for y := 0; y+1 < size; y++ {
		for x := 0; x+1 < size; x++ {
			c := dark(x, y)
			if dark(x+1, y) == c && dark(x, y+1) == c && dark(x+1, y+1) == c {
				p += penaltyN2
			}
		}
	}
	// Rule 4: 10 per full 5% away from half dark.
	n := 0
	for y := range size {
		for x := range size {
			if dark(x, y) {
				n++
			}
		}
	}
	k := 0
	for d := abs(200*n - 100*size*size); d >= 10*size*size; d -= 10 * size * size {
		k++
	}
	return p + penaltyN4*k
}

// TestPenaltyMatchesNaive scores random symbols of every packing width
// (1, 2 and 3 words per line) both ways.
func TestPenaltyMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range []int{1, 2, 9, 10, 14, 27, 31, 40} {
		tp := templateFor(v)
		for range 3 {
			rows := make([]uint64, len(tp.rows))
			cols := make([]uint64, len(tp.cols))
			dark := make([]bool, tp.size*tp.size)
			density := rng.IntN(10) // skew some symbols for rule 4
			for y := range tp.size {
				for x := range tp.size {
					if rng.IntN(10) < density || rng.IntN(4) == 0 {
						dark[y*tp.size+x] = true
						tp.setBit(x, y, rows, cols)
					}
				}
			}
			got := tp.penalty(rows, cols, 1<<62)
			want := naivePenalty(func(x, y int) bool {
				return x >= 0 && y >= 0 && x < tp.size && y < tp.size && dark[y*tp.size+x]
			}, tp.size)
			if got != want {
				t.Errorf("version %d: penalty %d, want %d", v, got, want)
			}
		}
	}
}
