package render

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/testenv"
)

// plainCases are plain codes of a few sizes, with colours of their own.
func plainCases(t *testing.T) []*Scene {
	var scenes []*Scene
	for _, v := range []int{1, 2, 10, 40} {
		m, err := qr.Encode([]byte("https://sq.ex/p1"), qr.Options{Level: qr.L, Version: v})
		if err != nil {
			t.Fatal(err)
		}
		sc := layout(t, m, Style{Foreground: "#1A237E", Background: "#FFF8E1", Pixels: 7 * (m.Size + 8)})
		if !sc.plain {
			t.Fatal("a plain style did not take the fast path")
		}
		scenes = append(scenes, sc)
	}
	return scenes
}

// TestPlainSVGIsTheMatrix reads the fast path's runs back: every dark
// module, finders included, exactly once, and nothing else.
func TestPlainSVGIsTheMatrix(t *testing.T) {
	run := regexp.MustCompile(`^M(\d+) (\d+)h(\d+)v1h-(\d+)z`)
	for _, sc := range plainCases(t) {
		m := sc.matrix
		svg := string(sc.appendSVG(nil))
		paths := regexp.MustCompile(`<path fill="([^"]+)" d="([^"]*)"/>`).FindAllStringSubmatch(svg, -1)
		if len(paths) != 2 || paths[0][1] != "#FFF8E1" || paths[1][1] != "#1A237E" {
			t.Fatalf("v%d: paths %v, want the background and one dark path", m.Version, paths)
		}
		if want := "M0 0h" + strconv.Itoa(sc.n) + "v" + strconv.Itoa(sc.n) + "H0Z"; paths[0][2] != want {
			t.Errorf("v%d: background %q, want %q", m.Version, paths[0][2], want)
		}
		seen := make([]int, m.Size*m.Size)
		for d := paths[1][2]; d != ""; {
			r := run.FindStringSubmatch(d)
			if r == nil {
				t.Fatalf("v%d: not a run at %q", m.Version, d[:min(len(d), 30)])
			}
			d = d[len(r[0]):]
			x, _ := strconv.Atoi(r[1])
			y, _ := strconv.Atoi(r[2])
			w, _ := strconv.Atoi(r[3])
			if r[3] != r[4] || w < 1 {
				t.Fatalf("v%d: run %q does not close", m.Version, r[0])
			}
			for i := range w {
				seen[(y-QuietZone)*m.Size+x-QuietZone+i]++
			}
		}
		for y := range m.Size {
			for x := range m.Size {
				want := 0
				if m.Dark(x, y) {
					want = 1
				}
				if got := seen[y*m.Size+x]; got != want {
					t.Fatalf("v%d: module (%d,%d) drawn %d times, want %d", m.Version, x, y, got, want)
				}
			}
		}
	}
}

// TestPlainSVGMatchesTheScene rasterises the fast path's SVG and the
// general writer's SVG of the same plain scene (the one the PDF draws)
// with rsvg-convert, at a scale that puts module edges between pixels:
// they must come out the same, pixel for pixel.
func TestPlainSVGMatchesTheScene(t *testing.T) {
	rsvg := testenv.Command(t, "rsvg-convert")
	dir := t.TempDir()
	raster := func(name string, svg []byte, w int) *image.RGBA {
		in, out := filepath.Join(dir, name+".svg"), filepath.Join(dir, name+".png")
		if err := os.WriteFile(in, svg, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := run(rsvg, "-w", strconv.Itoa(w), "-o", out, in); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		rgba := image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
		return rgba
	}
	for _, sc := range plainCases(t) {
		v := sc.matrix.Version
		w := sc.n*7 + 3 // 7.1 pixels or so per module
		fast := raster("fast-"+strconv.Itoa(v), sc.appendSVG(nil), w)
		general := raster("scene-"+strconv.Itoa(v), sc.appendSceneSVG(nil), w)
		if fast.Rect != general.Rect {
			t.Fatalf("v%d: sizes %v and %v", v, fast.Rect, general.Rect)
		}
		diff := 0
		for i := range fast.Pix {
			if fast.Pix[i] != general.Pix[i] {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("v%d: %d of %d channel values differ", v, diff, len(fast.Pix))
		}
		if bytes.Equal(sc.appendSVG(nil), sc.appendSceneSVG(nil)) {
			t.Fatalf("v%d: the fast path wrote what the general one does", v)
		}
	}
}
