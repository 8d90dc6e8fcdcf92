//go:build benchratios

package qr

import (
	"fmt"
	"testing"
	"time"
)

// TestBenchRatios prints our speed against the other encoders and fails
// on a missed target: at most 3× rsc.io/qr's time (it skips mask
// selection), at least 5× faster than skip2 and yeqown, at most 50
// allocations per encode. It is a measurement, not a check of behaviour, so
// is built only on request (`make bench`), so a plain `go test` never skips it:
//
//	go test -tags benchratios -run TestBenchRatios -v ./internal/qr/
func TestBenchRatios(t *testing.T) {
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
