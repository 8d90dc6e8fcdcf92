package qr

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	zxdec "github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// The example of ISO/IEC 18004 Annex I: "01234567" at 1-M.
func TestReedSolomonAnnexI(t *testing.T) {
	data := []byte{0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11}
	want := []byte{0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55}

	segs, bits := segmentize([]byte("01234567"), 0, make([]uint8, 24), nil)
	w := bitWriter{}
	w.writeSegments([]byte("01234567"), segs, 0, false)
	if bits != 41 || w.bits() != 41 {
		t.Fatalf("01234567 takes %d bits (written %d), want 41", bits, w.bits())
	}
	w.finish(dataCodewords(1, M))
	if !bytes.Equal(w.buf, data) {
		t.Fatalf("data codewords % X, want % X", w.buf, data)
	}
	ecc := make([]byte, 10)
	rsFor(10).encode(data, ecc)
	if !bytes.Equal(ecc, want) {
		t.Fatalf("error correction % X, want % X", ecc, want)
	}
}

// The word-parallel encoder must agree with plain polynomial division.
func TestReedSolomonMatchesDivision(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{7, 10, 13, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30} {
		data := make([]byte, 1+rng.IntN(150))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		g := rsGenerator(n)
		rem := append(slices.Clone(data), make([]byte, n)...)
		for i := range data {
			if f := rem[i]; f != 0 {
				for j, c := range g {
					rem[i+j] ^= gfMul(c, f)
				}
			}
		}
		got := make([]byte, n)
		rsFor(n).encode(data, got)
		if !bytes.Equal(got, rem[len(data):]) {
			t.Errorf("n=%d: % X, want % X", n, got, rem[len(data):])
		}
	}
}

func TestFormatBits(t *testing.T) {
	// ISO/IEC 18004 Table C.1 and its M/mask 0 example.
	for _, c := range []struct {
		l    Level
		mask int
		want uint32
	}{
		{M, 0, 0x5412}, {L, 0, 0x77C4}, {Q, 0, 0x355F}, {H, 0, 0x1689},
		{M, 5, 0x40CE}, {L, 7, 0x6976}, {H, 7, 0x083B},
	} {
		if got := formatBits(c.l, c.mask); got != c.want {
			t.Errorf("format %v mask %d = %#04x, want %#04x", c.l, c.mask, got, c.want)
		}
	}
}

func TestVersionBits(t *testing.T) {
	for v, want := range map[int]uint32{7: 0x07C94, 8: 0x085BC, 21: 0x15683, 40: 0x28C69} {
		if got := versionBits(v); got != want {
			t.Errorf("version %d info = %#05x, want %#05x", v, got, want)
		}
	}
}

// The structure tables must agree with gozxing's, written independently.
func TestTablesMatchGozxing(t *testing.T) {
	zxLevel := [4]zxdec.ErrorCorrectionLevel{
		L: zxdec.ErrorCorrectionLevel_L, M: zxdec.ErrorCorrectionLevel_M,
		Q: zxdec.ErrorCorrectionLevel_Q, H: zxdec.ErrorCorrectionLevel_H,
	}
	for v := 1; v <= 40; v++ {
		zv, err := zxdec.Version_GetVersionForNumber(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := totalCodewords(v), zv.GetTotalCodewords(); got != want {
			t.Errorf("version %d: %d codewords, want %d", v, got, want)
		}
		if got, want := alignmentCenters(v), zv.GetAlignmentPatternCenters(); !slices.Equal(got, want) && len(want) > 0 {
			t.Errorf("version %d: alignment centres %v, want %v", v, got, want)
		}
		if got := len(templateFor(v).placeRow); got != rawModules(v) {
			t.Errorf("version %d: %d data modules laid out, formula says %d", v, got, rawModules(v))
		}
		for l := L; l <= H; l++ {
			b := zv.GetECBlocksForLevel(zxLevel[l])
			if int(eccPerBlock[l][v]) != b.GetECCodewordsPerBlock() || int(numBlocks[l][v]) != b.GetNumBlocks() {
				t.Errorf("%d-%v: %d blocks of %d ECC, want %d of %d", v, l,
					numBlocks[l][v], eccPerBlock[l][v], b.GetNumBlocks(), b.GetECCodewordsPerBlock())
			}
		}
	}
}

func TestSegmentBits(t *testing.T) {
	for _, c := range []struct {
		in    string
		group int
		want  string // modes and lengths of the segments
		bits  int
	}{
		{"01234567", 0, "N8", 4 + 10 + 27},
		{"HELLO WORLD", 0, "A11", 4 + 9 + 61},
		{"hello", 0, "B5", 4 + 8 + 40},
		{"hello", 1, "B5", 4 + 16 + 40},
		{"a123456b", 0, "B1 N6 B1", 20 + 34 + 20},
		{"a12345b", 0, "B7", 4 + 8 + 56}, // 5 digits do not pay a header
		{"HTTPS://X.IO/0123456789", 0, "A13 N10", 4 + 9 + 72 + 4 + 10 + 34},
		{"abcDEFGHIJKLMNOPQ", 0, "B3 A14", 4 + 8 + 24 + 4 + 9 + 77},
		{"ABC01234567890123456789DEF", 0, "A3 N20 A3", 13 + 17 + 14 + 67 + 13 + 17},
		{"0123456789012", 2, "N13", 4 + 14 + 44},
		{"Ünïcödé", 0, "B11", 4 + 8 + 88},
	} {
		segs, bits := segmentize([]byte(c.in), c.group, make([]uint8, 3*len(c.in)), nil)
		var got []string
		for _, s := range segs {
			got = append(got, fmt.Sprintf("%c%d", "BAN"[s.mode], s.end-s.start))
		}
		if strings.Join(got, " ") != c.want || bits != c.bits || segmentsBits(segs, c.group) != bits {
			t.Errorf("segmentize(%q, group %d) = %v, %d bits (recount %d); want %s, %d bits",
				c.in, c.group, got, bits, segmentsBits(segs, c.group), c.want, c.bits)
		}
	}
}

// segmentize must find the true minimum: compare with trying every mode
// for every character of short strings.
func TestSegmentizeIsOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("0123456789ABZ :a-é")
	for range 300 {
		in := make([]byte, 1+rng.IntN(9))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		g := rng.IntN(3)
		segs, bits := segmentize(in, g, make([]uint8, 3*len(in)), nil)
		if segmentsBits(segs, g) != bits || segs[0].start != 0 || segs[len(segs)-1].end != len(in) {
			t.Fatalf("%q: segments %v do not cover the input in %d bits", in, segs, bits)
		}
		if best := bruteForceBits(in, g); bits != best {
			t.Fatalf("segmentize(%q, group %d) = %d bits, brute force %d", in, g, bits, best)
		}
	}
}

func bruteForceBits(in []byte, g int) int {
	best := 1 << 30
	modes := make([]mode, len(in))
	var try func(i int)
	try = func(i int) {
		if i == len(in) {
			var segs []segment
			for j, m := range modes {
				if j == 0 || m != modes[j-1] {
					segs = append(segs, segment{mode: m, start: j})
				}
				segs[len(segs)-1].end = j + 1
			}
			best = min(best, segmentsBits(segs, g))
			return
		}
		for m := range numModes {
			if charClass[in[i]] >= uint8(m) {
				modes[i] = m
				try(i + 1)
			}
		}
	}
	try(0)
	return best
}

// A 25-byte URL then 40 digits: byte mode throughout needs version 5 at M;
// switching to numeric for the digits fits version 4.
func TestMixedSegmentsChooseSmallerVersion(t *testing.T) {
	url := "https://squarely.io/r/AbC"
	if len(url) != 25 {
		t.Fatal("url must be 25 bytes")
	}
	data := []byte(url + strings.Repeat("0123456789", 4))
	m := checkRoundTrip(t, data, Options{Level: M})
	if m.Version != 4 {
		t.Fatalf("version %d, want 4", m.Version)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		opt  Options
		want error
	}{
		{"empty", nil, Options{}, ErrNoInput},
		{"empty slice", []byte{}, Options{Level: H, Version: 3}, ErrNoInput},
		{"version 41", []byte("x"), Options{Version: 41}, ErrInvalidVersion},
		{"version -1", []byte("x"), Options{Version: -1}, ErrInvalidVersion},
		{"mask 8", []byte("x"), Options{Mask: FixedMask(8)}, ErrInvalidMask},
		{"mask -1", []byte("x"), Options{Mask: FixedMask(-1)}, ErrInvalidMask},
		{"mask raw 9", []byte("x"), Options{Mask: 9}, ErrInvalidMask},
		{"level", []byte("x"), Options{Level: H + 1}, ErrInvalidLevel},
		// 2953 bytes is the capacity of 40-L; the byte count is 16 bits.
		{"2954 bytes at L", bytes.Repeat([]byte("a"), 2954), Options{}, ErrTooBig},
		{"7090 digits at L", bytes.Repeat([]byte("7"), 7090), Options{}, ErrTooBig},
		{"1274 bytes at H", bytes.Repeat([]byte("a"), 1274), Options{Level: H}, ErrTooBig},
		{"18 bytes in 1-M", bytes.Repeat([]byte("a"), 15), Options{Level: M, Version: 1}, ErrTooBig},
		{"huge", make([]byte, 1<<20), Options{}, ErrTooBig},
	} {
		m, err := Encode(c.data, c.opt)
		if !errors.Is(err, c.want) || m != nil {
			t.Errorf("%s: Encode = %v, %v; want %v", c.name, m, err, c.want)
		}
	}
	if ErrNoInput.Error() != "No input text" ||
		ErrTooBig.Error() != "The amount of data is too big to be stored in a QR Code" {
		t.Error("error texts differ from the product contract")
	}
}

// The largest inputs of each mode at 40-L and 40-H fit and decode.
func TestCapacityLimits(t *testing.T) {
	for _, c := range []struct {
		data []byte
		l    Level
	}{
		{bytes.Repeat([]byte("a"), 2953), L},
		{bytes.Repeat([]byte("7"), 7089), L},
		{bytes.Repeat([]byte("A"), 4296), L},
		{bytes.Repeat([]byte("a"), 1273), H},
		{bytes.Repeat([]byte("A"), 1852), H},
	} {
		m := checkRoundTrip(t, c.data, Options{Level: c.l})
		if m.Version != 40 {
			t.Errorf("%d×%q at %v: version %d, want 40", len(c.data), c.data[0], c.l, m.Version)
		}
	}
}

func TestZeroOptions(t *testing.T) {
	m, err := Encode([]byte("hello"), Options{})
	if err != nil || m.Level != L || m.Version != 1 {
		t.Fatalf("Encode(hello, Options{}) = %+v, %v; want 1-L", m, err)
	}
}

// Each module's role, checked at the places the standard fixes.
func TestRoles(t *testing.T) {
	m, err := Encode([]byte("https://squarely.io/some/longer/path/to/reach/version/seven/or/more/0123456789"), Options{Level: L, Version: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Size
	for _, o := range m.FinderOrigins() {
		for dy := range 7 {
			for dx := range 7 {
				x, y := o[0]+dx, o[1]+dy
				ring := max(abs(dx-3), abs(dy-3))
				if m.Role(x, y) != RoleFinder || m.Dark(x, y) != (ring != 2) {
					t.Fatalf("finder module (%d,%d): role %d dark %v", x, y, m.Role(x, y), m.Dark(x, y))
				}
			}
		}
	}
	for i := range 8 {
		for _, p := range [][2]int{{7, i}, {i, 7}, {s - 8, i}, {s - 1 - i, 7}, {7, s - 1 - i}, {i, s - 8}} {
			if m.Role(p[0], p[1]) != RoleSeparator || m.Dark(p[0], p[1]) {
				t.Fatalf("separator module %v: role %d dark %v", p, m.Role(p[0], p[1]), m.Dark(p[0], p[1]))
			}
		}
	}
	for i := 8; i < s-8; i++ {
		// An alignment pattern sits on each timing line at 22.
		want := RoleTiming
		if i >= 20 && i <= 24 {
			want = RoleAlignment
		}
		if m.Role(i, 6) != want || m.Role(6, i) != want || m.Dark(i, 6) != (i%2 == 0) || m.Dark(6, i) != (i%2 == 0) {
			t.Fatalf("timing at %d: roles %d, %d", i, m.Role(i, 6), m.Role(6, i))
		}
	}
	for _, c := range [][2]int{{22, 22}, {6, 22}, {22, 6}, {38, 22}, {22, 38}, {38, 38}} {
		if m.Role(c[0], c[1]) != RoleAlignment || !m.Dark(c[0], c[1]) || m.Dark(c[0]+1, c[1]) {
			t.Fatalf("no alignment pattern centred on %v", c)
		}
	}
	if m.Role(8, s-8) != RoleFormat || !m.Dark(8, s-8) {
		t.Fatal("the dark module is missing")
	}
	for _, p := range [][2]int{{8, 0}, {8, 8}, {0, 8}, {s - 1, 8}, {8, s - 1}} {
		if m.Role(p[0], p[1]) != RoleFormat {
			t.Fatalf("format module %v has role %d", p, m.Role(p[0], p[1]))
		}
	}
	for _, p := range [][2]int{{s - 11, 0}, {s - 9, 5}, {0, s - 11}, {5, s - 9}} {
		if m.Role(p[0], p[1]) != RoleVersion {
			t.Fatalf("version module %v has role %d", p, m.Role(p[0], p[1]))
		}
	}
	data := 0
	for y := range s {
		for x := range s {
			if m.Role(x, y) == RoleData {
				data++
			}
		}
	}
	if data != rawModules(7) {
		t.Fatalf("%d data modules, want %d", data, rawModules(7))
	}
	if m.Dark(-1, 0) || m.Dark(0, s) || m.Role(s, 0) != RoleData {
		t.Fatal("modules outside the symbol must be light data")
	}
}

// AutoMask must keep the mask with the lowest penalty, as scored module by
// module on the finished symbols.
func TestAutoMaskIsLowestPenalty(t *testing.T) {
	for _, c := range []struct {
		s string
		l Level
	}{
		{"https://squarely.io/r/AbC", M},
		{strings.Repeat("Lorem ipsum dolor sit amet. ", 9), Q},
		{"12345678901234567890", H},
	} {
		auto, err := Encode([]byte(c.s), Options{Level: c.l})
		if err != nil {
			t.Fatal(err)
		}
		scores := make([]int, 8)
		for mk := range 8 {
			m, err := Encode([]byte(c.s), Options{Level: c.l, Mask: FixedMask(mk)})
			if err != nil {
				t.Fatal(err)
			}
			scores[mk] = naivePenalty(m.Dark, m.Size)
			if mk == auto.Mask && !slices.Equal(m.cells, auto.cells) {
				t.Fatalf("%q: AutoMask symbol differs from FixedMask(%d)", c.s, mk)
			}
		}
		if scores[auto.Mask] != slices.Min(scores) {
			t.Errorf("%q: AutoMask chose %d (penalty %d); penalties %v", c.s, auto.Mask, scores[auto.Mask], scores)
		}
	}
}

// Templates are shared between goroutines; run with -race.
func TestConcurrentEncodes(t *testing.T) {
	want, err := Encode([]byte("concurrent"), Options{Level: Q, Version: 12})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			m, err := Encode([]byte("concurrent"), Options{Level: Q, Version: 12})
			if err != nil || !slices.Equal(m.cells, want.cells) {
				t.Error("concurrent encodes differ")
			}
		})
	}
	wg.Wait()
}
