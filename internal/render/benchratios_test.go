//go:build benchratios

package render

import (
	"bytes"
	"math"
	"testing"

	qrcode "github.com/skip2/go-qrcode"
)

// TestBenchRatios prints our speed and size against the targets and fails
// on a missed one. It is a measurement (half a minute, and its numbers
// depend on the machine), so it is built only on request and a plain
// `go test` never skips it; see BENCHMARKS.md:
//
//	go test -tags benchratios -run TestBenchRatios -v ./internal/render/
func TestBenchRatios(t *testing.T) {
	// The best of three rounds: the machine is shared, and other work
	// only ever adds time.
	ns := func(f func(*testing.B)) float64 {
		best := math.Inf(1)
		for range 3 {
			r := testing.Benchmark(f)
			best = min(best, float64(r.T.Nanoseconds())/float64(r.N))
		}
		return best
	}
	enc, svg := ns(BenchmarkEncode), ns(BenchmarkSVG)
	png, rsc := ns(BenchmarkPNG), ns(BenchmarkRscPNG)
	png960, skip2 := ns(BenchmarkPNG960), ns(BenchmarkSkip2PNG)
	t.Logf("Encode %.1f µs; Layout+SVG %.1f µs = %.2f× encode (target ≤ 0.5)", enc/1e3, svg/1e3, svg/enc)
	if svg > enc/2 {
		t.Error("target missed: SVG building adds more than half the encode time")
	}
	t.Logf("PNG at rsc size %.1f µs; rsc.io/qr PNG %.1f µs = %.2f× rsc (target ≤ 1)", png/1e3, rsc/1e3, png/rsc)
	if png > rsc {
		t.Error("target missed: PNG writing slower than rsc.io/qr")
	}
	t.Logf("PNG 960 px %.1f µs; skip2 PNG(960) %.1f µs = %.2f×", png960/1e3, skip2/1e3, png960/skip2)

	m := benchMatrix(t)
	for _, px := range []int{256, 960} {
		sc, err := Layout(m, Style{Pixels: px})
		if err != nil {
			t.Fatal(err)
		}
		var ours bytes.Buffer
		if err := sc.WritePNG(&ours); err != nil {
			t.Fatal(err)
		}
		q, err := qrcode.New(benchURL, qrcode.Medium)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := q.PNG(px)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("PNG %d px: ours %d bytes, skip2 %d bytes = %.2f× (target ≤ 1.5)", px, ours.Len(), len(theirs), float64(ours.Len())/float64(len(theirs)))
		if 2*ours.Len() > 3*len(theirs) {
			t.Errorf("target missed: PNG at %d px larger than 1.5× skip2's", px)
		}
	}
}
