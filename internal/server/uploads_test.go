package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func testImage(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 40), uint8(y * 40), 200, 255})
		}
	}
	return img
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, testImage(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bombPNG is a valid PNG header announcing w×h pixels, with no pixels: what
// a decompression bomb looks like to DecodeConfig.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk("IHDR", ihdr)
	chunk("IDAT", nil)
	chunk("IEND", nil)
	return b.Bytes()
}

const scriptSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>`

// expectBlobs checks how many uploads the store holds: refusals store none.
func expectBlobs(t *testing.T, st *store.Store, want int) {
	t.Helper()
	if n := storetest.Count(t, st, "blobs"); n != want {
		t.Errorf("the store holds %d blobs, want %d: a refused upload stored one", n, want)
	}
}

func TestUploadPDF(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("pdf@example.com")
		const doc = "%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n"
		m := expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", doc, `C:\Users\ann\Menu "2026".pdf`},
			part{"pdfTitle", "  Our menu ", ""}, part{"pdfDescription", "Lunch & dinner", ""}), http.StatusCreated, "")
		id := int64(m["id"].(float64))
		if m["pdfUrl"] != testConfig(t).BaseURL+"/pdf/"+itoa(id) || m["fileName"] != "Menu 2026.pdf" {
			t.Errorf("answer %v", m)
		}
		if m := expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", doc, "menu.docx"}), http.StatusCreated, ""); m["fileName"] != "menu.pdf" {
			t.Errorf("a PDF uploaded as menu.docx is named %v", m["fileName"])
		}
		b, err := st.Blob(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if string(b.Data) != doc || b.Kind != "pdf" || b.ContentType != "application/pdf" || b.Title != "Our menu" ||
			b.Description != "Lunch & dinner" || b.OwnerID == nil || *b.OwnerID != uid {
			t.Errorf("blob %+v", b)
		}

		visitor := e.browser()
		expect(t, e.postForm(visitor, "/api/upload-pdf", part{"pdfFile", doc, "a.pdf"}), http.StatusUnauthorized, "Not authenticated")
		for _, tc := range []struct {
			name    string
			parts   []part
			status  int
			message string
		}{
			{"a PNG named .pdf", []part{{"pdfFile", string(pngBytes(t, 4, 4)), "menu.pdf"}}, 415, "Only PDF files are allowed"},
			{"a text file", []part{{"pdfFile", "hello, world\n", "notes.txt"}}, 415, "Only PDF files are allowed"},
			{"an HTML file", []part{{"pdfFile", "<html><script>alert(1)</script>%PDF-", "x.pdf"}}, 415, "Only PDF files are allowed"},
			{"too large", []part{{"pdfFile", "%PDF-1.4\n" + strings.Repeat("0", maxPDFBytes), "big.pdf"}}, 413, "The PDF file is too large (at most 20 MB)"},
			{"no file", []part{{"pdfTitle", "x", ""}}, 400, "Please select a PDF file"},
			{"an empty file", []part{{"pdfFile", "", "empty.pdf"}}, 400, "Please select a PDF file"},
			{"a file in the wrong field", []part{{"other", doc, "a.pdf"}}, 400, "Unexpected file in the form: other"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				expect(t, e.postForm(c, "/api/upload-pdf", tc.parts...), tc.status, tc.message)
			})
		}
		expect(t, e.do(c, "POST", "/api/upload-pdf", `{"pdfFile":"x"}`), http.StatusUnsupportedMediaType, "Content-Type must be multipart/form-data")
		expectBlobs(t, st, 2) // menu.pdf and menu.docx
	})
}

func TestUploadImage(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		visitor := e.browser()
		var jpg, gf bytes.Buffer
		jpeg.Encode(&jpg, testImage(8, 8), nil)
		gif.Encode(&gf, testImage(8, 8), nil)
		webp, err := os.ReadFile("../render/testdata/logo.webp")
		if err != nil {
			t.Fatal(err)
		}
		// Stored re-encoded (a WebP with transparency as PNG), but a GIF as it
		// came; the file's name takes the extension of what is stored.
		stored := map[string]string{"image/png": "image/png", "image/jpeg": "image/jpeg", "image/gif": "image/gif", "image/webp": "image/png"}
		names := map[string]string{"image/png": "photo.png", "image/jpeg": "photo.jpg", "image/gif": "photo.gif", "image/webp": "photo.png"}
		for ct, data := range map[string][]byte{"image/png": pngBytes(t, 8, 8), "image/jpeg": jpg.Bytes(), "image/gif": gf.Bytes(), "image/webp": webp} {
			// The client's file name and type do not matter: the bytes do.
			m := expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", string(data), "photo.txt"},
				part{"imageTitle", "Photo", ""}, part{"imageDescription", "A test", ""}), http.StatusCreated, "")
			id := int64(m["id"].(float64))
			if m["imageUrl"] != testConfig(t).BaseURL+"/images/"+itoa(id) || m["fileName"] != names[ct] {
				t.Errorf("answer %v", m)
			}
			b, err := st.Blob(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(b.Data))
			want, _, _ := image.DecodeConfig(bytes.NewReader(data))
			if b.ContentType != stored[ct] || b.Kind != "image" || b.OwnerID != nil || b.Title != "Photo" || err != nil || cfg.Width != want.Width || cfg.Height != want.Height ||
				bytes.Equal(b.Data, data) != (ct == "image/gif") || (b.Width == want.Width) != (ct != "image/gif") {
				t.Errorf("%s: blob %s %s %v %q, %dx%d %v", ct, b.ContentType, b.Kind, b.OwnerID, b.Title, b.Width, b.Height, err)
			}
		}
		for _, tc := range []struct {
			name    string
			file    string
			status  int
			message string
		}{
			{"an SVG with script", scriptSVG, 415, "Only PNG, JPEG, GIF or WebP images are allowed"},
			{"a text file", "just text", 415, "Only PNG, JPEG, GIF or WebP images are allowed"},
			{"a PDF", "%PDF-1.4\n", 415, "Only PNG, JPEG, GIF or WebP images are allowed"},
			{"a truncated PNG", string(pngBytes(t, 8, 8)[:20]), 415, "Only PNG, JPEG, GIF or WebP images are allowed"},
			{"a decompression bomb", string(bombPNG(100_000, 100_000)), 415, "The image is too large (at most 50 megapixels)"},
			{"too large", string(pngBytes(t, 4, 4)) + strings.Repeat("\x00", maxImageBytes), 413, "The image is too large (at most 10 MB)"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", tc.file, "x.png"}), tc.status, tc.message)
			})
		}
		expectBlobs(t, st, 4)
	})
}

func TestUploadImageRateLimit(t *testing.T) {
	e := start(t, storetest.Open(t))
	visitor := e.browser()
	img := string(pngBytes(t, 2, 2))
	for range anonUploadsPerHour {
		expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", img, "a.png"}), http.StatusCreated, "")
	}
	r := e.postForm(visitor, "/api/upload-image", part{"imageFile", img, "a.png"})
	expect(t, r, http.StatusTooManyRequests, "Too many uploads from this address. Please try again later or sign in.")
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// Signed-in users are not limited this way.
	member, _ := e.signedIn("many@example.com")
	expect(t, e.postForm(member, "/api/upload-image", part{"imageFile", img, "a.png"}), http.StatusCreated, "")
	// An hour later visitors may upload again.
	e.clock.Advance(61 * time.Minute)
	expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", img, "a.png"}), http.StatusCreated, "")
}

func TestUploadLogo(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		expect(t, e.postForm(e.browser(), "/api/upload-logo", part{"logoFile", string(pngBytes(t, 4, 4)), "l.png"}), http.StatusUnauthorized, "Not authenticated")
		c, uid := e.signedIn("logo@example.com")
		m := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 16, 16)), "brand.png"}), http.StatusCreated, "")
		id := int64(m["id"].(float64))
		if m["logoUrl"] != "/logo/"+itoa(id) || m["fileName"] != "brand.png" {
			t.Errorf("answer %v", m)
		}
		// A logo is kept as a PNG, and named as one.
		var jpg bytes.Buffer
		jpeg.Encode(&jpg, testImage(16, 16), nil)
		for name, want := range map[string]string{"brand.JPEG": "brand.png", "brand": "brand.png", ".jpg": "file.png", "brand.PNG": "brand.PNG"} {
			if m := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", jpg.String(), name}), http.StatusCreated, ""); m["fileName"] != want {
				t.Errorf("a logo uploaded as %q is named %v, want %q", name, m["fileName"], want)
			}
		}
		b, _ := st.Blob(context.Background(), id)
		if b.Kind != "logo" || b.ContentType != "image/png" || b.OwnerID == nil || *b.OwnerID != uid {
			t.Errorf("blob %+v", b)
		}
		for _, tc := range []struct {
			name, file, message string
			status              int
		}{
			{"an SVG with script", scriptSVG, "Only PNG, JPEG, GIF or WebP images are allowed", 415},
			{"a bomb", string(bombPNG(5000, 5000)), "The image is too large (at most 16 megapixels)", 415},
			{"too large", string(pngBytes(t, 4, 4)) + strings.Repeat("\x00", maxLogoBytes), logoTooBig, 413},
		} {
			expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", tc.file, "l.png"}), tc.status, tc.message)
		}
		expectBlobs(t, st, 5) // brand.png and the four JPEGs
	})
}

func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"menu.pdf":               "menu.pdf",
		`C:\fakepath\menu.pdf`:   "menu.pdf",
		"../../etc/passwd":       "passwd",
		"a\"b;c\r\nd.png":        "abcd.png",
		"..":                     "",
		"<script>.png":           "script.png",
		strings.Repeat("é", 300): strings.Repeat("é", 200),
		"  spaced name.gif  ":    "spaced name.gif",
		"invoice\u202Efdp.exe":   "invoicefdp.exe", // a right-to-left override would show it as invoiceexe.pdf
		"a\u2066b\u200Bc.png":    "abc.png",
	} {
		if got := safeFileName(in); got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
