package qr

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzEncode: any input either fails with ErrNoInput or ErrTooBig, or gives
// a symbol of the right size, at the smallest version that fits when the
// version is automatic, that gozxing reads back byte for byte.
//
//	go test -fuzz=FuzzEncode ./internal/qr
func FuzzEncode(f *testing.F) {
	for i, s := range samples {
		f.Add([]byte(s), uint8(i), uint8(0), uint8(0))
	}
	f.Add([]byte{0xff, 0x00, 0xfe}, uint8(H), uint8(0), uint8(3))
	f.Add([]byte("\xef\xbb\xbfBOM"), uint8(M), uint8(2), uint8(8))
	f.Add(bytes.Repeat([]byte("A1"), 700), uint8(L), uint8(0), uint8(0))
	f.Add(bytes.Repeat([]byte("x"), 200), uint8(Q), uint8(7), uint8(1))
	f.Add([]byte(""), uint8(L), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, level, version, mask uint8) {
		opt := Options{Level: Level(level % 4), Version: int(version % 41), Mask: MaskChoice(mask % 9)}
		m, err := Encode(data, opt)
		switch {
		case len(data) == 0:
			if !errors.Is(err, ErrNoInput) {
				t.Fatalf("empty input: %v", err)
			}
			return
		case errors.Is(err, ErrTooBig):
			if opt.Version == 0 && len(data) < 1274 {
				t.Fatalf("%d bytes fit 40-H in byte mode, yet ErrTooBig", len(data))
			}
			return
		case err != nil:
			t.Fatalf("Encode(%q, %+v): %v", clip(data), opt, err)
		}
		if m.Size != 17+4*m.Version || len(m.cells) != m.Size*m.Size {
			t.Fatalf("version %d has size %d", m.Version, m.Size)
		}
		if opt.Version == 0 && m.Version > 1 {
			smaller := opt
			smaller.Version = m.Version - 1
			if _, err := Encode(data, smaller); !errors.Is(err, ErrTooBig) {
				t.Fatalf("version %d chosen, but %d works too (%v)", m.Version, smaller.Version, err)
			}
		}
		got, err := gozxingDecode(m, data, true)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("gozxing read %q, %v; want %q (%d-%v mask %d)", clip(got), err, clip(data), m.Version, m.Level, m.Mask)
		}
	})
}
