// Package imaging re-encodes uploaded photos and scales them for hosted
// pages: an upload is decoded and written again (JPEG, PNG or WebP in,
// JPEG or PNG out), which leaves its metadata (EXIF, GPS, comments,
// colour profiles) behind, and pages serve it at a few fixed widths
// (srcset).
package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // scaled for srcset (its first frame); Clean leaves GIFs alone
	"image/jpeg"
	"image/png"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decoded here; never written
)

// Widths are the widths, in pixels, a page's image is served at: a
// small fixed set, so scaling cannot be asked for at any size.
var Widths = []int{160, 320, 640, 960, 1440}

// jpegQuality is the quality of the JPEGs written.
const jpegQuality = 85

// ErrFormat is returned for data that is not a JPEG, PNG or WebP image.
var ErrFormat = errors.New("imaging: not a JPEG, PNG or WebP image")

// Image is an encoded image and what it is.
type Image struct {
	Data          []byte
	ContentType   string // image/jpeg or image/png
	Width, Height int
}

// Clean decodes a JPEG, PNG or WebP image and encodes it again, without
// its metadata: a JPEG turned upright as its EXIF orientation says (the
// tag goes with the rest), a PNG as PNG, a WebP as JPEG, or as PNG when
// it has transparency. Anything else, or a malformed image, is ErrFormat.
func Clean(data []byte) (*Image, error) {
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil || format != "jpeg" && format != "png" && format != "webp" {
		return nil, ErrFormat
	}
	if format == "jpeg" {
		img = orient(img, orientation(data))
	}
	return encode(img, format == "png")
}

// Resize scales an image down to width (keeping its aspect ratio) and
// encodes it as Clean does; an image no wider is returned encoded at its
// size.
func Resize(data []byte, width int) (*Image, error) {
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, ErrFormat
	}
	if format == "jpeg" {
		img = orient(img, orientation(data))
	}
	b := img.Bounds()
	if b.Dx() > width {
		h := max(1, b.Dy()*width/b.Dx())
		dst := image.NewNRGBA(image.Rect(0, 0, width, h))
		xdraw.BiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		img = dst
	}
	return encode(img, format == "png" || format == "gif")
}

// encode writes img as PNG when asked to, or when it has transparency;
// otherwise as JPEG.
func encode(img image.Image, asPNG bool) (*Image, error) {
	var buf bytes.Buffer
	out := &Image{ContentType: "image/jpeg", Width: img.Bounds().Dx(), Height: img.Bounds().Dy()}
	if o, ok := img.(interface{ Opaque() bool }); asPNG || !ok || !o.Opaque() {
		out.ContentType = "image/png"
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
			return nil, err
		}
	} else if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, err
	}
	out.Data = buf.Bytes()
	return out, nil
}

// DecodeBytes is about how many bytes decoding data takes, read from its
// header alone: the image at its colour model's bytes a pixel (8 for 16-bit
// RGBA, 2 for 16-bit grey), and for a JPEG its components at their
// sampling, five times over when it is progressive (Go keeps every
// component's DCT coefficients, 4 bytes a pixel, for the whole image). A
// few hundred kilobytes can declare gigabytes this way, and a pixel limit
// alone lets 16-bit and progressive images take several times what it
// meant. Data that is not an image is ErrFormat.
func DecodeBytes(data []byte) (int64, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, ErrFormat
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if format == "jpeg" {
		if n, ok := jpegBytes(data, px); ok {
			return n, nil
		}
	}
	switch cfg.ColorModel {
	case color.GrayModel, color.AlphaModel:
		return px, nil
	case color.Gray16Model, color.Alpha16Model:
		return 2 * px, nil
	case color.YCbCrModel:
		return 3 * px, nil
	case color.RGBA64Model, color.NRGBA64Model:
		return 8 * px, nil
	}
	if _, ok := cfg.ColorModel.(color.Palette); ok {
		return px, nil
	}
	return 4 * px, nil
}

// jpegBytes is DecodeBytes for a JPEG of px pixels, from its frame header
// (SOFn): false when there is none before the image data.
func jpegBytes(data []byte, px int64) (int64, bool) {
	for i := 2; i+4 <= len(data) && data[i] == 0xFF; {
		marker, n := data[i+1], int(binary.BigEndian.Uint16(data[i+2:]))
		if marker == 0xDA || n < 2 || i+2+n > len(data) {
			break
		}
		// SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC).
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			seg := data[i+4 : i+2+n]
			if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) || seg[5] == 0 {
				return 0, false
			}
			comps := seg[6 : 6+3*int(seg[5])]
			hmax, vmax := int64(1), int64(1)
			for c := 0; c < len(comps); c += 3 {
				hmax, vmax = max(hmax, int64(comps[c+1]>>4), 1), max(vmax, int64(comps[c+1]&15), 1)
			}
			var planes int64 // bytes of the components at their sampling
			for c := 0; c < len(comps); c += 3 {
				h, v := max(int64(comps[c+1]>>4), 1), max(int64(comps[c+1]&15), 1)
				planes += px * h * v / (hmax * vmax)
			}
			total := planes
			if marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE { // progressive
				total += 4 * planes
			}
			if len(comps) == 4 { // CMYK: converted into an image of its own
				total += 4 * px
			}
			return total, true
		}
		i += 2 + n
	}
	return 0, false
}

// orientation is a JPEG's EXIF orientation (1 to 8), 1 when it has none.
func orientation(data []byte) int {
	// JPEG segments: FF xx, then a big-endian length that counts itself.
	for i := 2; i+4 <= len(data) && data[i] == 0xFF; {
		marker, n := data[i+1], int(binary.BigEndian.Uint16(data[i+2:]))
		if marker == 0xDA || n < 2 || i+2+n > len(data) { // the image data starts
			break
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return exifOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation reads tag 0x0112 of a TIFF header's first IFD.
func exifOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[ifd:]))
	for e := ifd + 2; e+12 <= len(t) && count > 0; e, count = e+12, count-1 {
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}

// orient turns img upright for EXIF orientation o.
func orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 { // the sides swap
		dw, dh = h, w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			dst.Set(dx, dy, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return dst
}
