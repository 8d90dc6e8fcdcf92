package qr

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	skip2 "github.com/skip2/go-qrcode"
	yeqown "github.com/yeqown/go-qrcode/v2"
	rsc "rsc.io/qr"
)

// benchRatiosTag is set by the benchratios build tag.
var benchRatiosTag bool

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

// TestBenchRatios prints our speed against the other encoders and fails
// on a missed target: at most 3× rsc.io/qr's time (it skips mask
// selection), at least 5× faster than skip2 and yeqown, at most 50
// allocations per encode. It is a measurement, not a check of behaviour, so
// it runs only on request:
//
//	BENCH_RATIOS=1 go test -run TestBenchRatios -v ./internal/qr/
//	go test -tags benchratios -run TestBenchRatios -v ./internal/qr/
func TestBenchRatios(t *testing.T) {
	if os.Getenv("BENCH_RATIOS") != "1" && !benchRatiosTag {
		t.Skip("a timing measurement; set BENCH_RATIOS=1 (or -tags benchratios) to run it")
	}
	for _, c := range benchCases {
		res := map[string]testing.BenchmarkResult{}
		for _, e := range benchEncoders {
			res[e.name] = testing.Benchmark(func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := e.encode(c.text, c.level); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		ours := res["squarely"]
		ns := func(r testing.BenchmarkResult) float64 { return float64(r.NsPerOp()) }
		line := fmt.Sprintf("%s: squarely %v %d allocs | rsc %v (ours = %.2f× rsc)", c.name,
			time.Duration(ours.NsPerOp()), ours.AllocsPerOp(), time.Duration(res["rsc"].NsPerOp()), ns(ours)/ns(res["rsc"]))
		for _, other := range []string{"skip2", "yeqown"} {
			line += fmt.Sprintf(" | %s %v (ours %.1f× faster)", other, time.Duration(res[other].NsPerOp()), ns(res[other])/ns(ours))
		}
		t.Log(line)
		if ns(ours) > 3*ns(res["rsc"]) {
			t.Errorf("%s: target missed: slower than 3× rsc.io/qr", c.name)
		}
		if ns(ours)*5 > min(ns(res["skip2"]), ns(res["yeqown"])) {
			t.Errorf("%s: target missed: less than 5× faster than skip2 or yeqown", c.name)
		}
		if ours.AllocsPerOp() > 50 {
			t.Errorf("%s: target missed: %d allocations", c.name, ours.AllocsPerOp())
		}
	}
}
