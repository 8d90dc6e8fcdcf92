package qr

import (
	"strings"
	"testing"

	skip2 "github.com/skip2/go-qrcode"
	yeqown "github.com/yeqown/go-qrcode/v2"
	rsc "rsc.io/qr"
)

// benchCases are the inputs of the speed targets.
var benchCases = []struct {
	name  string
	text  string
	level Level
}{
	{"url25-M", "https://squarely.io/r/AbC", M},
	{"url300-H", ("https://example.com/landing?" + strings.Repeat("utm_source=newsletter&id=42&", 11))[:300], H},
	{"text2000-L", strings.Repeat("The quick brown fox jumps over the lazy dog; 0123456789! ", 36)[:2000], L},
}

// benchEncoders are our encoder and the libraries it is measured against.
// rsc.io/qr uses a fixed mask; skip2 builds the symbol in Bitmap.
var benchEncoders = []struct {
	name   string
	encode func(text string, l Level) error
}{
	{"squarely", func(text string, l Level) error {
		_, err := Encode([]byte(text), Options{Level: l})
		return err
	}},
	{"rsc", func(text string, l Level) error {
		_, err := rsc.Encode(text, [4]rsc.Level{rsc.L, rsc.M, rsc.Q, rsc.H}[l])
		return err
	}},
	{"skip2", func(text string, l Level) error {
		q, err := skip2.New(text, [4]skip2.RecoveryLevel{skip2.Low, skip2.Medium, skip2.High, skip2.Highest}[l])
		if err == nil {
			q.Bitmap()
		}
		return err
	}},
	{"yeqown", func(text string, l Level) error {
		_, err := yeqown.NewWith(text, [4]yeqown.EncodeOption{
			yeqown.WithErrorCorrectionLevel(yeqown.ErrorCorrectionLow),
			yeqown.WithErrorCorrectionLevel(yeqown.ErrorCorrectionMedium),
			yeqown.WithErrorCorrectionLevel(yeqown.ErrorCorrectionQuart),
			yeqown.WithErrorCorrectionLevel(yeqown.ErrorCorrectionHighest),
		}[l])
		return err
	}},
}

// BenchmarkEncode/<case>/<encoder>, e.g. BenchmarkEncode/url25-M/rsc.
func BenchmarkEncode(b *testing.B) {
	for _, c := range benchCases {
		for _, e := range benchEncoders {
			b.Run(c.name+"/"+e.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := e.encode(c.text, c.level); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
