package qr

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

// toImage renders m with a 4-module quiet zone, scale pixels per module.
func toImage(m *Matrix, scale int) *image.Gray {
	const quiet = 4
	n := (m.Size + 2*quiet) * scale
	img := image.NewGray(image.Rect(0, 0, n, n))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := range m.Size {
		for x := range m.Size {
			if !m.Dark(x, y) {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray((x+quiet)*scale+dx, (y+quiet)*scale+dy, color.Gray{})
				}
			}
		}
	}
	return img
}

// gozxingDecode decodes m with gozxing and returns the exact bytes: byte
// segments are read as ISO-8859-1, one rune per byte, so the text maps back
// to the bytes whatever they are, unless want (the encoded input) carries
// an ECI header, which makes gozxing read UTF-8. pure tells gozxing the
// image is a perfect upright symbol, so it reads the grid directly: its
// finder search can be fooled by synthetic data (long periodic runs), which
// zbar and zxing-cpp read fine; TestGozxingDetectsTypicalPayloads covers the
// full search on real payloads.
func gozxingDecode(m *Matrix, want []byte, pure bool) ([]byte, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(toImage(m, 4))
	if err != nil {
		return nil, err
	}
	hints := map[gozxing.DecodeHintType]any{
		gozxing.DecodeHintType_CHARACTER_SET: "ISO-8859-1",
	}
	if pure {
		hints[gozxing.DecodeHintType_PURE_BARCODE] = true
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, hints)
	if err != nil {
		return nil, err
	}
	if needsECI(want) {
		// The ECI header makes gozxing read the text as UTF-8.
		return []byte(res.GetText()), nil
	}
	var out []byte
	for _, r := range res.GetText() {
		if r > 255 {
			return nil, fmt.Errorf("rune %U is not Latin-1", r)
		}
		out = append(out, byte(r))
	}
	return out, nil
}

// checkRoundTrip encodes data with opt and checks that gozxing reads the
// same bytes back and that the symbol has the version, level and mask asked.
func checkRoundTrip(t *testing.T, data []byte, opt Options) *Matrix {
	t.Helper()
	m, err := Encode(data, opt)
	if err != nil {
		t.Fatalf("Encode(%q, %+v): %v", clip(data), opt, err)
	}
	if m.Size != 17+4*m.Version || m.Level != opt.Level {
		t.Fatalf("Encode(%q, %+v): version %d size %d level %v", clip(data), opt, m.Version, m.Size, m.Level)
	}
	if opt.Version != 0 && m.Version != opt.Version {
		t.Fatalf("Encode(%q, %+v): version %d", clip(data), opt, m.Version)
	}
	if opt.Mask != AutoMask && m.Mask != int(opt.Mask)-1 {
		t.Fatalf("Encode(%q, %+v): mask %d", clip(data), opt, m.Mask)
	}
	got, err := gozxingDecode(m, data, true)
	if err != nil {
		t.Fatalf("gozxing cannot read Encode(%q, %+v) (version %d mask %d): %v", clip(data), opt, m.Version, m.Mask, err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("gozxing read %q, want %q (%+v)", clip(got), clip(data), opt)
	}
	return m
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return string(b)
}

// writePNG writes m as a PNG file in dir and returns its path.
func writePNG(t *testing.T, dir string, m *Matrix, name string) string {
	t.Helper()
	path := filepath.Join(dir, name+".png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, toImage(m, 4)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// runTool runs an outside decoder and returns its standard output.
func runTool(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = strings.TrimSpace(string(ee.Stderr))
		}
		t.Fatalf("%s %s: %v %s", filepath.Base(name), strings.Join(args, " "), err, stderr)
	}
	return out
}

// zbarBytes returns the exact bytes zbarimg reads from a PNG.
func zbarBytes(t *testing.T, zbar, path string) []byte {
	t.Helper()
	return runTool(t, zbar, "--raw", "-q", "-Sbinary", path)
}

// zxingBytes returns the bytes ZXingReader reads from a PNG.
func zxingBytes(t *testing.T, zxing, path string) []byte {
	t.Helper()
	return runTool(t, zxing, "-format", "QRCode", "-bytes", path)
}
