package render

import (
	"bytes"
	"io"
	"testing"

	qrcode "github.com/skip2/go-qrcode"
	rscqr "rsc.io/qr"

	"github.com/squarely/squarely/internal/qr"
)

// benchURL is a 25-byte URL, encoded at level M (version 2).
const benchURL = "https://squarely.io/abc12"

func benchMatrix(b testing.TB) *qr.Matrix {
	m, err := qr.Encode([]byte(benchURL), qr.Options{Level: qr.M})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// rscPixels is the size of rsc.io/qr's PNG for the same content (8 pixels
// per module, quiet zone included), so both write the same image.
func rscPixels(b testing.TB) int {
	c, err := rscqr.Encode(benchURL, rscqr.M)
	if err != nil {
		b.Fatal(err)
	}
	return (c.Size + 8) * c.Scale
}

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := qr.Encode([]byte(benchURL), qr.Options{Level: qr.M}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSVG(b *testing.B, s Style) {
	m := benchMatrix(b)
	b.ReportAllocs()
	buf := make([]byte, 0, 64<<10)
	for b.Loop() {
		sc, err := Layout(m, s)
		if err != nil {
			b.Fatal(err)
		}
		buf = sc.appendSVG(buf[:0])
	}
}

// BenchmarkSVG is Layout plus writing the SVG of a plain code: the work
// rendering adds to Encode.
func BenchmarkSVG(b *testing.B)       { benchSVG(b, Style{}) }
func BenchmarkSVGStyled(b *testing.B) { benchSVG(b, styled) }

func benchPNG(b *testing.B, s Style) {
	m := benchMatrix(b)
	b.ReportAllocs()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		sc, err := Layout(m, s)
		if err != nil {
			b.Fatal(err)
		}
		if err := sc.WritePNG(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPNG writes a plain code at the size rsc.io/qr writes it.
func BenchmarkPNG(b *testing.B)    { benchPNG(b, Style{Pixels: rscPixels(b)}) }
func BenchmarkPNG960(b *testing.B) { benchPNG(b, Style{Pixels: 960}) }
func BenchmarkPNGStyled960(b *testing.B) {
	benchPNG(b, Style{Pixels: 960, Dots: ShapeRounded, Eyes: ShapeCircle, Gradient: "#0000AA"})
}

func BenchmarkPDF(b *testing.B) {
	m := benchMatrix(b)
	b.ReportAllocs()
	for b.Loop() {
		sc, err := Layout(m, styled)
		if err != nil {
			b.Fatal(err)
		}
		if err := sc.WritePDF(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDFFrameText is the plain code in a frame whose text is ASCII
// or CJK (embedded from the Noto subset), layout and write; it reports the
// file's size.
func BenchmarkPDFFrameText(b *testing.B) {
	m := benchMatrix(b)
	for _, c := range []struct{ name, text string }{{"ascii", "Scan me"}, {"cjk", "扫描二维码"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				sc, err := Layout(m, Style{Frame: Frame{Enabled: true, Text: c.text}})
				if err != nil {
					b.Fatal(err)
				}
				if err := sc.WritePDF(&out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "bytes")
		})
	}
}

// BenchmarkRscPNG is rsc.io/qr's PNG writer alone (its encoding done once).
func BenchmarkRscPNG(b *testing.B) {
	c, err := rscqr.Encode(benchURL, rscqr.M)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = c.PNG()
	}
}

// BenchmarkSkip2PNG is go-qrcode's PNG writer alone at 960 px.
func BenchmarkSkip2PNG(b *testing.B) {
	q, err := qrcode.New(benchURL, qrcode.Medium)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.PNG(960); err != nil {
			b.Fatal(err)
		}
	}
}
