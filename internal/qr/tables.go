package qr

// Error correction structure per version and level (ISO/IEC 18004:2015
// Table 9), indexed [level][version]; index 0 is unused.
var (
	eccPerBlock = [4][41]uint8{
		L: {0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
		M: {0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28},
		Q: {0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
		H: {0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
	}
	numBlocks = [4][41]uint8{
		L: {0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25},
		M: {0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49},
		Q: {0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68},
		H: {0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81},
	}
)

// rawModules is the number of modules left for codewords and remainder bits
// once all function patterns of version v are drawn: the whole symbol less
// finders with separators (192), timing (2·(size−16)), format (31),
// alignment patterns (25 each, minus the overlap with timing) and version
// information (36 from version 7).
func rawModules(v int) int {
	n := (16*v+128)*v + 64
	if v >= 2 {
		a := v/7 + 2
		n -= (25*a-10)*a - 55
		if v >= 7 {
			n -= 36
		}
	}
	return n
}

// totalCodewords is the number of 8-bit codewords in version v.
func totalCodewords(v int) int { return rawModules(v) / 8 }

// dataCodewords is the number of data codewords of version v at level l.
func dataCodewords(v int, l Level) int {
	return totalCodewords(v) - int(eccPerBlock[l][v])*int(numBlocks[l][v])
}

// alignmentCenters returns the row/column coordinates of the alignment
// pattern centres of version v: 6, the last at size−7, and the ones between
// evenly spaced by an even step, measured back from the last.
func alignmentCenters(v int) []int {
	if v == 1 {
		return nil
	}
	n := v/7 + 2
	step := (v*8 + n*3 + 5) / (n*4 - 4) * 2
	pos := make([]int, n)
	pos[0] = 6
	for i, p := n-1, 4*v+10; i >= 1; i, p = i-1, p-step {
		pos[i] = p
	}
	return pos
}

// formatBits returns the 15-bit format information for level l and mask:
// the level indicator and mask, a BCH(15,5) remainder (generator 0x537),
// XORed with 0x5412 so that it is never all light.
func formatBits(l Level, mask int) uint32 {
	indicator := [4]uint32{L: 1, M: 0, Q: 3, H: 2}[l]
	data := indicator<<3 | uint32(mask)
	rem := data
	for range 10 {
		rem = rem<<1 ^ (rem>>9)*0x537
	}
	return (data<<10 | rem&0x3FF) ^ 0x5412
}

// versionBits returns the 18-bit version information for v ≥ 7: the
// version and a BCH(18,6) remainder (generator 0x1F25).
func versionBits(v int) uint32 {
	rem := uint32(v)
	for range 12 {
		rem = rem<<1 ^ (rem>>11)*0x1F25
	}
	return uint32(v)<<12 | rem&0xFFF
}
