package qr

import (
	"encoding/binary"
	"sync"
)

// GF(256) with the QR Code field polynomial x⁸+x⁴+x³+x²+1 (0x11D).
// gfExp is doubled so that gfExp[gfLog[a]+gfLog[b]] needs no reduction.
var gfExp, gfLog = gfTables()

func gfTables() (exp [512]byte, log [256]byte) {
	x := 1
	for i := range 255 {
		exp[i] = byte(x)
		log[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11D
		}
	}
	for i := 255; i < 512; i++ {
		exp[i] = exp[i-255]
	}
	return exp, log
}

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

// maxECC is the largest number of error correction codewords in one block.
const maxECC = 30

// rsCode computes n Reed–Solomon error correction codewords. The remainder
// register is kept as four little-endian uint64 words (byte k holds the
// coefficient of x^(n−1−k)), and row[f] holds the generator's coefficients
// multiplied by f, so each data byte costs a few word shifts and XORs
// instead of n table multiplications.
type rsCode struct {
	n   int
	row [256][4]uint64
}

var rsCodes [maxECC + 1]struct {
	once sync.Once
	code *rsCode
}

// rsFor returns the cached code for n error correction codewords.
func rsFor(n int) *rsCode {
	c := &rsCodes[n]
	c.once.Do(func() { c.code = newRSCode(n) })
	return c.code
}

// rsGenerator returns the coefficients of ∏(x − αⁱ), i = 0..n−1, highest
// degree first; the leading 1 is included.
func rsGenerator(n int) []byte {
	g := make([]byte, 1, n+1)
	g[0] = 1
	for i := range n {
		g = append(g, 0)
		root := gfExp[i]
		for j := len(g) - 1; j > 0; j-- {
			g[j] ^= gfMul(g[j-1], root)
		}
	}
	return g
}

func newRSCode(n int) *rsCode {
	g := rsGenerator(n)
	c := &rsCode{n: n}
	for f := range 256 {
		var b [32]byte
		for k := range n {
			b[k] = gfMul(g[k+1], byte(f))
		}
		for w := range 4 {
			c.row[f][w] = binary.LittleEndian.Uint64(b[8*w:])
		}
	}
	return c
}

// encode writes the error correction codewords of data into ecc[:n].
func (c *rsCode) encode(data, ecc []byte) {
	var r0, r1, r2, r3 uint64
	for _, d := range data {
		row := &c.row[d^byte(r0)]
		r0 = (r0>>8 | r1<<56) ^ row[0]
		r1 = (r1>>8 | r2<<56) ^ row[1]
		r2 = (r2>>8 | r3<<56) ^ row[2]
		r3 = r3>>8 ^ row[3]
	}
	var b [32]byte
	binary.LittleEndian.PutUint64(b[0:], r0)
	binary.LittleEndian.PutUint64(b[8:], r1)
	binary.LittleEndian.PutUint64(b[16:], r2)
	binary.LittleEndian.PutUint64(b[24:], r3)
	copy(ecc[:c.n], b[:])
}
