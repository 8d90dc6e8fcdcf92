package codes

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"slices"
	"testing"

	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/qr"
)

// TestPreflightFigures: figures for a table of sizes, distances and
// styles. printData at level M is version 3: 29 modules + 8 of quiet zone.
func TestPreflightFigures(t *testing.T) {
	low := Style{FgColor: "#5A5A5A"} // 6.9:1 on white: under GoodContrast
	for _, c := range []struct {
		name             string
		style            Style
		sizeMm, distance float64
		moduleMm, minMod float64
		maxDist, minSize float64
		warnings         int
	}{
		{"20 mm for a poster at 2 m", Style{}, 20, 200, 0.54, 0.4, 20, 200, 1},
		{"20 mm at 20 cm", Style{}, 20, 20, 0.54, 0.4, 20, 20, 0},
		{"14 mm, no distance", Style{}, 14, 0, 0.38, 0.4, 14, 15, 1},
		{"10 mm at 5 m", Style{}, 10, 500, 0.27, 0.4, 10, 500, 2},
		{"low contrast 18 mm", low, 18, 0, 0.49, 0.5, 18, 19, 1},
		{"low contrast 200 mm at 2 m", low, 200, 200, 5.41, 0.5, 200, 200, 0},
	} {
		s, err := c.style.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		p, err := CheckPreflight(printData, s, Options{Level: qr.M}, c.sizeMm, c.distance)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Modules != 37 || p.ModuleMm != c.moduleMm || p.MinModuleMm != c.minMod || p.MaxDistanceCm != c.maxDist ||
			p.MinSizeMm != c.minSize || len(p.Warnings) != c.warnings || p.OK != (c.warnings == 0) {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
	s, _ := Style{}.Normalize()
	p, _ := CheckPreflight(printData, s, Options{Level: qr.M}, 20, 200)
	if want := "At 20 mm this code scans from up to 20 cm; to be read at 2 m, print it at least 200 mm wide"; !slices.Contains(p.Warnings, want) {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
	// A logo needs 0.5 mm modules and raises the level to H (a larger version).
	pl, err := CheckPreflight(printData, s, Options{Level: qr.M, Logo: testLogo(t)}, 30, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pl.MinModuleMm != 0.5 || pl.Modules <= 37 {
		t.Errorf("with a logo: %+v", pl)
	}
	for _, bad := range []struct {
		size, distance float64
		field          string
	}{{9, 0, "sizeMm"}, {2001, 0, "sizeMm"}, {50, -1, "distanceCm"}, {50, 10001, "distanceCm"}} {
		_, err := CheckPreflight(printData, s, Options{Level: qr.M}, bad.size, bad.distance)
		if field, _, ok := Refusal(err); !ok || field != bad.field {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// testLogo is a small opaque PNG.
func testLogo(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.NRGBA{200, 30, 30, 255}), image.Point{}, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGS1Verdicts: the GS1 verdict at the edges of the consumer-unit
// X-dimension range (0.375 to 0.990 mm), and with a logo.
func TestGS1Verdicts(t *testing.T) {
	const uri = "https://qr.brand.example/01/09506000134352/10/ABC123?17=261231"
	s, _ := Style{}.Normalize()
	at := func(sizeMm float64, logo []byte) gs1.Verdict {
		t.Helper()
		level := StaticLevel
		pf, err := CheckPreflight(uri, s, Options{Level: level, Logo: logo}, sizeMm, 0)
		if err != nil {
			t.Fatal(err)
		}
		return GS1Verdict(pf, sizeMm, logo != nil, level)
	}
	pf, _ := CheckPreflight(uri, s, Options{Level: StaticLevel}, 50, 0)
	n := float64(pf.Modules)
	for _, c := range []struct {
		sizeMm float64
		ok     bool
	}{{n * 0.375, true}, {n * 0.37, false}, {n * 0.625, true}, {n * 0.99, true}, {n * 1.0, false}} {
		v := at(c.sizeMm, nil)
		if v.OK != c.ok || v.XDimensionMm <= 0 {
			t.Errorf("%g mm (%d modules): %+v", c.sizeMm, pf.Modules, v)
		}
	}
	if v := at(n*0.5, testLogo(t)); v.OK || len(v.Problems) == 0 {
		t.Errorf("with a logo: %+v", v)
	}
}
