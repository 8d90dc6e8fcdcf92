package qr

import "unicode/utf8"

// mode is a data encoding mode. Kanji mode is not used: byte mode carries
// UTF-8, and the Shift JIS that Kanji mode needs is not what we are given.
type mode uint8

const (
	modeByte mode = iota
	modeAlnum
	modeNumeric
	numModes
)

// modeIndicator is the 4-bit mode indicator of each mode.
var modeIndicator = [numModes]uint32{modeByte: 4, modeAlnum: 2, modeNumeric: 1}

// countBits is the width of the character count field per mode and version
// group (versions 1–9, 10–26, 27–40).
var countBits = [numModes][3]int{
	modeByte:    {8, 16, 16},
	modeAlnum:   {9, 11, 13},
	modeNumeric: {10, 12, 14},
}

// versionGroup returns the count-width group of version v.
func versionGroup(v int) int {
	switch {
	case v <= 9:
		return 0
	case v <= 26:
		return 1
	}
	return 2
}

// groupLast is the highest version of each count-width group.
var groupLast = [3]int{9, 26, 40}

// charClass says which modes can hold a byte: 2 numeric (and so also
// alphanumeric), 1 alphanumeric, 0 byte mode only.
var charClass = func() (c [256]uint8) {
	for _, b := range []byte("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:") {
		c[b] = 1
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = 2
	}
	return c
}()

// alnumValue maps an alphanumeric character to its value 0..44.
var alnumValue = func() (v [256]uint8) {
	for i, b := range []byte("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:") {
		v[b] = uint8(i)
	}
	return v
}()

// charCost is the cost in sixths of a bit of a character of each class in
// the cheapest mode that holds it.
var charCost = [3]int{48, 33, 20}

// lowerBound is a length in bits that no segmentation of data can beat:
// every character in its cheapest mode, without headers.
func lowerBound(data []byte) int {
	sum := 0
	for _, c := range data {
		sum += charCost[charClass[c]]
	}
	return (sum + 5) / 6
}

// segment is data[start:end] in one mode.
type segment struct {
	mode       mode
	start, end int
}

// dataBits is the length of n characters in mode m, headers excluded.
func dataBits(m mode, n int) int {
	switch m {
	case modeNumeric:
		return 10*(n/3) + [3]int{0, 4, 7}[n%3]
	case modeAlnum:
		return 11*(n/2) + 6*(n%2)
	}
	return 8 * n
}

// segmentsBits is the total length of segs in version group g.
func segmentsBits(segs []segment, g int) int {
	bits := 0
	for _, s := range segs {
		bits += 4 + countBits[s.mode][g] + dataBits(s.mode, s.end-s.start)
	}
	return bits
}

// segmentize splits data into the mode segments with the fewest total bits
// for version group g, by dynamic programming over the characters (the
// method of Project Nayuki's "optimal text segmentation"). Costs are kept in
// sixths of a bit so that numeric (10 bits per 3 digits) and alphanumeric
// (11 bits per 2) characters have whole costs: 20 and 33; a segment's cost
// is rounded up to whole bits where it ends. from holds 3 bytes per input
// byte and is scratch space. It returns segs (reusing its storage) and
// their length in bits.
func segmentize(data []byte, g int, from []uint8, segs []segment) ([]segment, int) {
	var head [numModes]int
	for m := range numModes {
		head[m] = (4 + countBits[m][g]) * 6
	}
	const inf = 1 << 60
	cost := head
	for i, c := range data {
		cls := charClass[c]
		f := from[3*i : 3*i+3 : 3*i+3]
		// Extend the current segment of each mode that can hold c.
		ext := [numModes]int{cost[modeByte] + charCost[0], inf, inf}
		f[modeByte], f[modeAlnum], f[modeNumeric] = uint8(modeByte), uint8(modeAlnum), uint8(modeNumeric)
		if cls >= 1 {
			ext[modeAlnum] = cost[modeAlnum] + charCost[1]
		}
		if cls == 2 {
			ext[modeNumeric] = cost[modeNumeric] + charCost[2]
		}
		cost = ext
		// Or end the cheapest segment after c and start one in another
		// mode, paying the new segment's header now.
		end, endMode := inf, modeByte
		for m := range numModes {
			if e := (ext[m] + 5) / 6 * 6; e < end {
				end, endMode = e, m
			}
		}
		for to := range numModes {
			if end+head[to] < cost[to] {
				cost[to] = end + head[to]
				f[to] = uint8(endMode)
			}
		}
	}
	best := modeByte
	for m := range numModes {
		if (cost[m]+5)/6 < (cost[best]+5)/6 {
			best = m
		}
	}
	// Walk back: from[i][state] is the mode character i is encoded in,
	// which is also the state before it.
	segs = segs[:0]
	state, run, end := best, best, len(data)
	for i := len(data) - 1; i >= 0; i-- {
		m := mode(from[3*i+int(state)])
		if m != run && i < len(data)-1 {
			segs = append(segs, segment{mode: run, start: i + 1, end: end})
			end = i + 1
		}
		run, state = m, m
	}
	if len(data) > 0 {
		segs = append(segs, segment{mode: run, start: 0, end: end})
	}
	// Reverse into reading order.
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	return segs, (cost[best] + 5) / 6
}

// bitWriter appends bits most significant first.
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint32, n uint) {
	w.acc = w.acc<<n | uint64(v)
	w.nacc += n
	for w.nacc >= 8 {
		w.nacc -= 8
		w.buf = append(w.buf, byte(w.acc>>w.nacc))
	}
}

// bits is the number of bits written so far.
func (w *bitWriter) bits() int { return 8*len(w.buf) + int(w.nacc) }

// eciBits is the length of the ECI header that declares UTF-8: mode
// indicator 0111 and the 8-bit designator 26.
const eciBits = 12

// needsECI reports whether data is UTF-8 text with non-ASCII characters,
// which Encode declares with ECI 26. Without it zbar guesses short UTF-8
// byte segments to be Shift JIS or Big5 ("ü" reads as "羹", "Zoë" as
// "Zo禱"); with it zbar, ZXing and phone scanners all read the text right.
// ASCII (most URLs) gets no ECI header, since it reads the same in every
// character set and the few old readers that choke on ECI never see one.
// Other binary data is stored as raw bytes.
func needsECI(data []byte) bool {
	for _, b := range data {
		if b >= utf8.RuneSelf {
			return utf8.Valid(data)
		}
	}
	return false
}

// writeSegments writes segs of data with their headers for group g, after
// an ECI header if eci is set.
func (w *bitWriter) writeSegments(data []byte, segs []segment, g int, eci bool) {
	if eci {
		w.write(7, 4)
		w.write(26, 8)
	}
	for _, s := range segs {
		d := data[s.start:s.end]
		w.write(modeIndicator[s.mode], 4)
		w.write(uint32(len(d)), uint(countBits[s.mode][g]))
		switch s.mode {
		case modeNumeric:
			for len(d) >= 3 {
				w.write(uint32(d[0]-'0')*100+uint32(d[1]-'0')*10+uint32(d[2]-'0'), 10)
				d = d[3:]
			}
			switch len(d) {
			case 2:
				w.write(uint32(d[0]-'0')*10+uint32(d[1]-'0'), 7)
			case 1:
				w.write(uint32(d[0]-'0'), 4)
			}
		case modeAlnum:
			for len(d) >= 2 {
				w.write(uint32(alnumValue[d[0]])*45+uint32(alnumValue[d[1]]), 11)
				d = d[2:]
			}
			if len(d) == 1 {
				w.write(uint32(alnumValue[d[0]]), 6)
			}
		default:
			if w.nacc == 0 {
				w.buf = append(w.buf, d...)
				continue
			}
			for _, b := range d {
				w.write(uint32(b), 8)
			}
		}
	}
}

// finish adds the terminator (up to 4 zero bits), pads to a byte boundary
// and fills the remaining capacity with the pad codewords 0xEC, 0x11.
func (w *bitWriter) finish(capacity int) {
	w.write(0, uint(min(4, 8*capacity-w.bits())))
	if w.nacc > 0 {
		w.write(0, 8-w.nacc)
	}
	for pad := byte(0xEC); len(w.buf) < capacity; pad ^= 0xEC ^ 0x11 {
		w.buf = append(w.buf, pad)
	}
}
