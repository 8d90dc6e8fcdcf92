package render

import (
	"bytes"
	"errors"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/qr"
)

func TestParseColor(t *testing.T) {
	good := []struct {
		in   string
		want color.RGBA
	}{
		{"#000000", color.RGBA{0, 0, 0, 255}},
		{"#FFFFFF", color.RGBA{255, 255, 255, 255}},
		{"ff00ff", color.RGBA{255, 0, 255, 255}},
		{"#BD0212", color.RGBA{0xbd, 0x02, 0x12, 255}},
		{"#bd0212", color.RGBA{0xbd, 0x02, 0x12, 255}},
		{"#f0a", color.RGBA{0xff, 0x00, 0xaa, 255}},
		{"F0A", color.RGBA{0xff, 0x00, 0xaa, 255}},
	}
	for _, c := range good {
		got, err := ParseColor(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "#", "#12345", "#1234567", "#GG0000", "red", "##000000", "#12 456", "rgb(0,0,0)", "#ffff"} {
		if _, err := ParseColor(in); err == nil {
			t.Errorf("ParseColor(%q) succeeded, want an error", in)
		}
	}
}

func TestContrast(t *testing.T) {
	black, white := color.RGBA{0, 0, 0, 255}, color.RGBA{255, 255, 255, 255}
	if c := Contrast(black, white); math.Abs(c-21) > 1e-9 {
		t.Errorf("black on white = %v, want 21", c)
	}
	if c := Contrast(white, black); math.Abs(c-21) > 1e-9 {
		t.Errorf("contrast is symmetric: got %v", c)
	}
	if c := Contrast(white, white); c != 1 {
		t.Errorf("white on white = %v, want 1", c)
	}
	// #767676 on white is the well-known 4.54:1.
	if c := Contrast(color.RGBA{0x76, 0x76, 0x76, 255}, white); math.Abs(c-4.54) > 0.01 {
		t.Errorf("#767676 on white = %v, want 4.54", c)
	}
}

func TestRequiredLevel(t *testing.T) {
	for _, l := range []qr.Level{qr.L, qr.M, qr.Q, qr.H} {
		if got := RequiredLevel(Style{}, l); got != l {
			t.Errorf("no logo, %v: got %v", l, got)
		}
		if got := RequiredLevel(Style{Logo: []byte{1}}, l); got != qr.H {
			t.Errorf("logo, %v: got %v, want H", l, got)
		}
	}
}

func TestEncodeRaisesLevelAndVersionForTheStyle(t *testing.T) {
	m, err := Encode([]byte("hi"), qr.L, Style{})
	if err != nil || m.Version != 1 || m.Level != qr.L {
		t.Fatalf("plain: %v, %+v", err, m)
	}
	m, err = Encode([]byte("hi"), qr.L, Style{Eyes: ShapeCircle})
	if err != nil || m.Version != 2 || m.Level != qr.L {
		t.Fatalf("rounded eyes: %v, version %d, level %v; want version 2 at L", err, m.Version, m.Level)
	}
	m, err = Encode([]byte("hi"), qr.M, Style{Logo: []byte{1}})
	if err != nil || m.Level != qr.H {
		t.Fatalf("logo: %v, level %v; want H", err, m.Level)
	}
	// With a logo, versions with an alignment pattern at the centre are
	// skipped: 60 bytes take version 7 at H, so version 14 instead.
	data := bytes.Repeat([]byte("a"), 60)
	if m, err := qr.Encode(data, qr.Options{Level: qr.H}); err != nil || m.Version != 7 {
		t.Fatalf("60 bytes at H: %v, version %d; want 7", err, m.Version)
	}
	m, err = Encode(data, qr.L, Style{Logo: []byte{1}})
	if err != nil || m.Version != 14 || m.Level != qr.H {
		t.Fatalf("logo over 60 bytes: %v, version %d, level %v; want 14 at H", err, m.Version, m.Level)
	}
	// Content that needs version 35 or more cannot take a logo.
	data = bytes.Repeat([]byte("a"), 1100)
	if m, err := qr.Encode(data, qr.Options{Level: qr.H}); err != nil || m.Version < 35 {
		t.Fatalf("1100 bytes at H: %v, version %d; want 35 or more", err, m.Version)
	}
	_, err = Encode(data, qr.M, Style{Logo: []byte{1}})
	if se, ok := errors.AsType[*StyleError](err); !ok || se.Field != "logo" || !strings.Contains(se.Message, "too long") {
		t.Errorf("logo over 1100 bytes: %v, want a logo StyleError saying the content is too long", err)
	}
	if _, err := Encode(data, qr.M, Style{}); err != nil {
		t.Errorf("1100 bytes without a logo: %v", err)
	}
	if _, err := Encode(nil, qr.M, Style{}); err != qr.ErrNoInput {
		t.Errorf("empty input: %v, want qr.ErrNoInput", err)
	}
}
