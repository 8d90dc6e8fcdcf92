//go:build measure

package render

import (
	"fmt"
	"testing"

	"github.com/squarely/squarely/internal/qr"
)

// TestMeasureTrueCircleEyes (go test -tags measure -run
// TestMeasureTrueCircleEyes ./internal/render/) reads true circle eyes,
// which the renderer does not draw (see eyeRadii): a 7/5-module ring and a
// 3-module centre, across versions 2-40 and the product's scales in all
// formats, with all three decoders. A measurement: misses are logged, not
// failed; the figures are in BENCHMARKS.md.
func TestMeasureTrueCircleEyes(t *testing.T) {
	ppms := []float64{5, 5.6, 6.5, 8, 9.5, 10, 11, 12.5, 0}
	url := payloads[0].data
	trueCircles := func(sc *Scene) {
		n := len(sc.paths)
		ring, cent := path{paint: sc.paths[n-2].paint}, path{paint: sc.paths[n-1].paint}
		for _, o := range sc.matrix.FinderOrigins() {
			x, y := float32(QuietZone+o[0]), float32(QuietZone+o[1])
			ring.roundRect(x, y, 7, 7, 3.5, false)
			ring.roundRect(x+1, y+1, 5, 5, 2.5, true)
			cent.roundRect(x+2, y+2, 3, 3, 1.5, false)
		}
		sc.paths[n-2], sc.paths[n-1] = ring, cent
	}
	var cases []scanCase
	for v := 2; v <= 40; v++ {
		ppm := ppms[v%len(ppms)]
		if ppm == 0 {
			ppm = float64(DefaultPixels) / float64(17+4*v+2*QuietZone)
		}
		cases = append(cases, scanCase{
			name: fmt.Sprintf("true-circle-v%d", v), data: url[:min(len(url), 5+v)], level: qr.M, version: v,
			style: Style{Eyes: ShapeCircle, EyeCenters: ShapeCircle, Dots: ShapeSquare}, ppm: ppm, adjust: trueCircles,
		})
	}
	all, cv := scanCases(t, cases, t.Logf)
	var zb, zx, ocv, found, onlyCV int
	for _, o := range all {
		zb += b2i(o.zbar)
		zx += b2i(o.zxing)
		ocv += b2i(cv[o.file].read)
		found += b2i(cv[o.file].found)
		onlyCV += b2i(cv[o.file].read && !(o.zbar && o.zxing))
	}
	t.Logf("true circle eyes: %d outputs; zbar read %d, ZXing %d, OpenCV %d (located %d); OpenCV read %d that zbar or ZXing missed",
		len(all), zb, zx, ocv, found, onlyCV)
}
