package render

import (
	"bytes"
	"image"
	"image/draw"
	_ "image/gif" // logo formats the generator accepts
	_ "image/jpeg"
	"image/png"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// NormalizeLogo decodes a logo once, as it arrives, and returns it as a
// PNG of at most logoMaxSide pixels a side: what rendering then decodes
// each time, instead of the full-size image. It refuses what decodeLogo
// refuses.
func NormalizeLogo(data []byte) ([]byte, error) {
	img, err := decodeLogo(data)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// LogoNormalized reports whether data is a logo as NormalizeLogo leaves
// it (a PNG of at most logoMaxSide pixels a side), reading only its header.
func LogoNormalized(data []byte) bool {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	return err == nil && format == "png" && cfg.Width <= logoMaxSide && cfg.Height <= logoMaxSide
}

// decodeLogo reads a PNG, JPEG, GIF or WebP logo into non-premultiplied
// RGBA (what PDF's image + soft mask want), at most logoMaxSide pixels a
// side: more would only bloat the SVG and PDF.
func decodeLogo(data []byte) (*image.NRGBA, error) {
	if len(data) > maxLogoBytes {
		return nil, &StyleError{"logo", "The logo file is too large (at most 5 MB)"}
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, &StyleError{"logo", "The logo must be a PNG, JPEG, GIF or WebP image"}
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxLogoPixels {
		return nil, &StyleError{"logo", "The logo image dimensions are too large"}
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &StyleError{"logo", "The logo image could not be decoded: " + err.Error()}
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > logoMaxSide || h > logoMaxSide {
		if w >= h {
			w, h = logoMaxSide, max(1, h*logoMaxSide/w)
		} else {
			w, h = max(1, w*logoMaxSide/h), logoMaxSide
		}
		dst := image.NewNRGBA(image.Rect(0, 0, w, h))
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		return dst, nil
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
	return dst, nil
}
