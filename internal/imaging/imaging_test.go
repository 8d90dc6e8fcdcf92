package imaging

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

// photo is a w×h JPEG whose five left columns are red, with an EXIF segment
// holding orientation o and a GPS-like note.
func photo(t *testing.T, w, h, o int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{0, 0, 255, 255}
			if x < 5 {
				c = color.RGBA{255, 0, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	// TIFF, big-endian: IFD0 with one entry, orientation (SHORT), then the note.
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = append(tiff, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, byte(o), 0, 0, 0, 0, 0, 0)
	tiff = append(tiff, []byte("GPS 52.5200N 13.4050E secret")...)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(len(seg)+2))
	jpg := buf.Bytes()
	return append(append(append([]byte{}, jpg[:2]...), append(app1, seg...)...), jpg[2:]...)
}

func TestCleanDropsMetadataAndTurnsUpright(t *testing.T) {
	in := photo(t, 40, 20, 6)
	if orientation(in) != 6 {
		t.Fatalf("orientation %d", orientation(in))
	}
	out, err := Clean(in)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Data, []byte("Exif")) || bytes.Contains(out.Data, []byte("secret")) {
		t.Error("the metadata is still there")
	}
	if out.ContentType != "image/jpeg" || out.Width != 20 || out.Height != 40 {
		t.Errorf("%s %dx%d, want an upright 20x40 JPEG", out.ContentType, out.Width, out.Height)
	}
	img, err := jpeg.Decode(bytes.NewReader(out.Data))
	if err != nil {
		t.Fatal(err)
	}
	// Orientation 6 (turn 90° clockwise): the left column is now the top row.
	if r, _, b, _ := img.At(10, 1).RGBA(); r < 0xa000 || b > 0x6000 {
		t.Errorf("top row is not red: %x %x", r, b)
	}
	if r, _, _, _ := img.At(10, 20).RGBA(); r > 0x6000 {
		t.Errorf("the middle is red")
	}
	if orientation(out.Data) != 1 {
		t.Errorf("written with orientation %d", orientation(out.Data))
	}
}

func TestCleanKeepsPNGAndRefusesOthers(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 128})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	// A tEXt chunk before IEND carries a comment.
	data := buf.Bytes()
	body := []byte("tEXtComment\x00hi")
	text := binary.BigEndian.AppendUint32(nil, uint32(len(body)-4))
	text = binary.BigEndian.AppendUint32(append(text, body...), crc32.ChecksumIEEE(body))
	data = append(append(append([]byte{}, data[:len(data)-12]...), text...), data[len(data)-12:]...)
	out, err := Clean(data)
	if err != nil || out.ContentType != "image/png" || out.Width != 3 || out.Height != 2 || bytes.Contains(out.Data, []byte("tEXt")) {
		t.Fatalf("%+v %v", out, err)
	}
	for name, bad := range map[string][]byte{
		"truncated JPEG":  photo(t, 8, 8, 1)[:120],
		"text":            []byte("not an image"),
		"empty":           nil,
		"PNG header only": data[:33],
	} {
		if _, err := Clean(bad); err != ErrFormat {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestResize(t *testing.T) {
	in := photo(t, 800, 400, 1)
	out, err := Resize(in, 320)
	if err != nil || out.Width != 320 || out.Height != 160 || out.ContentType != "image/jpeg" || bytes.Contains(out.Data, []byte("secret")) {
		t.Fatalf("%+v %v", out, err)
	}
	if out, err := Resize(in, 960); err != nil || out.Width != 800 {
		t.Errorf("not enlarged: %+v %v", out, err)
	}
}

// jpegHeader is a JPEG's headers up to its first scan, without the scan's
// data: what DecodeBytes reads. sof is 0xC0 (baseline) or 0xC2
// (progressive); sampling holds each component's H<<4|V.
func jpegHeader(w, h int, sof byte, sampling ...byte) []byte {
	b := []byte{0xFF, 0xD8}
	seg := func(marker byte, p []byte) {
		b = append(b, 0xFF, marker, byte((len(p)+2)>>8), byte(len(p)+2))
		b = append(b, p...)
	}
	seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	p := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(sampling))}
	scan := []byte{byte(len(sampling))}
	for i, s := range sampling {
		p = append(p, byte(i+1), s, 0)
		scan = append(scan, byte(i+1), 0)
	}
	seg(sof, p)
	dht := make([]byte, 18)
	dht[1] = 1
	seg(0xC4, dht)
	seg(0xDA, append(scan, 0, 0, 0))
	return b
}

// DecodeBytes counts what Go's decoders hold: 16-bit PNGs at 8 bytes a
// pixel, JPEG components at their sampling, and a progressive JPEG's
// coefficients (4 bytes a pixel per component) besides.
func TestDecodeBytes(t *testing.T) {
	encode := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	r := image.Rect(0, 0, 10, 10)
	for _, tc := range []struct {
		name string
		data []byte
		want int64
	}{
		{"grey PNG", encode(image.NewGray(r)), 100},
		{"16-bit grey PNG", encode(image.NewGray16(r)), 200},
		{"RGBA PNG", encode(image.NewNRGBA(r)), 400},
		{"16-bit RGBA PNG", encode(image.NewNRGBA64(r)), 800},
		{"paletted PNG", encode(image.NewPaletted(r, color.Palette{color.Black, color.White})), 100},
		{"baseline JPEG 4:2:0", jpegHeader(100, 100, 0xC0, 0x22, 0x11, 0x11), 15_000},
		{"baseline JPEG 4:4:4", jpegHeader(100, 100, 0xC0, 0x11, 0x11, 0x11), 30_000},
		{"progressive JPEG 4:2:0", jpegHeader(100, 100, 0xC2, 0x22, 0x11, 0x11), 75_000},
		{"progressive JPEG 4:4:4", jpegHeader(100, 100, 0xC2, 0x11, 0x11, 0x11), 150_000},
		{"progressive grey JPEG", jpegHeader(100, 100, 0xC2, 0x11), 50_000},
		{"Go's JPEG", photo(t, 16, 16, 1), 384},
	} {
		if got, err := DecodeBytes(tc.data); err != nil || got != tc.want {
			t.Errorf("%s: %d bytes (%v), want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := DecodeBytes([]byte("not an image")); err != ErrFormat {
		t.Errorf("text: %v", err)
	}
}
