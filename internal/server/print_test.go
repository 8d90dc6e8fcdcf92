package server

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestDownloadPrint: download-qrcode and a saved code's image take the
// print options (issue 26) and refuse bad ones with a 400 naming the
// field, recording nothing. The files' exact sizes and colours are proved
// in internal/codes (TestPrint*).
func TestDownloadPrint(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		const url = "https://example.com/print"
		dl := func(extra map[string]any) *response {
			m := map[string]any{"qrType": "url", "url": url, "sessionId": "anon-print"}
			for k, v := range extra {
				m[k] = v
			}
			return e.do(c, "POST", "/api/download-qrcode", body(t, m))
		}
		r := dl(map[string]any{"sizeMm": 50, "dpi": 300})
		if r.StatusCode != http.StatusOK {
			t.Fatalf("PNG: %d %s", r.StatusCode, r.body)
		}
		img, err := png.Decode(bytes.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		if w := img.Bounds().Dx(); w != 591 { // round(50 / 25.4 × 300)
			t.Errorf("50 mm at 300 dpi: %d pixels wide, want 591", w)
		}
		if !bytes.Contains(r.body[:64], []byte("pHYs")) {
			t.Error("no pHYs chunk after the header")
		}
		r = dl(map[string]any{"format": "eps", "sizeMm": 40, "colorSpace": "cmyk"})
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/postscript" ||
			!bytes.HasPrefix(r.body, []byte("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 114 114\n")) || !bytes.Contains(r.body, []byte("0 0 0 1 k")) {
			t.Errorf("EPS: %d %s %.200s", r.StatusCode, r.Header.Get("Content-Type"), r.body)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, `filename="url.eps"`) {
			t.Errorf("EPS disposition %q", cd)
		}
		r = dl(map[string]any{"format": "pdf", "sizeMm": 100})
		if r.StatusCode != http.StatusOK || !bytes.Contains(r.body, []byte("/MediaBox [0 0 283.465 283.465]")) {
			t.Errorf("PDF of 100 mm: %d %.300s", r.StatusCode, r.body)
		}
		for _, bad := range []struct {
			extra        map[string]any
			field, error string
		}{
			{map[string]any{"sizeMm": 9}, "sizeMm", "sizeMm must be between 10 and 2000"},
			{map[string]any{"format": "pdf", "sizeMm": 2500}, "sizeMm", "sizeMm must be between 10 and 2000"},
			{map[string]any{"format": "svg", "sizeMm": 50}, "sizeMm", "sizeMm applies to PNG, PDF and EPS files"},
			{map[string]any{"sizeMm": 50, "dpi": 50}, "dpi", "dpi must be between 72 and 1200"},
			{map[string]any{"dpi": 300}, "dpi", "dpi applies to PNG files with a sizeMm"},
			{map[string]any{"sizeMm": 1000, "dpi": 1200}, "sizeMm", "At 1200 dpi a PNG can be at most 86 mm wide (4096 pixels); choose a lower dpi, or PDF or EPS, which have no pixel limit"},
			{map[string]any{"colorSpace": "lab", "format": "pdf"}, "colorSpace", "colorSpace must be rgb or cmyk"},
			{map[string]any{"colorSpace": "cmyk"}, "colorSpace", "colorSpace cmyk applies to PDF and EPS files"},
			{map[string]any{"sizeMm": 50, "pixels": 1000}, "pixels", "Set either pixels or sizeMm, not both"},
			{map[string]any{"format": "tiff"}, "format", "format must be png, svg, pdf or eps"},
		} {
			m := expect(t, dl(bad.extra), http.StatusBadRequest, bad.error)
			if errs, _ := m["errors"].(map[string]any); errs[bad.field] != bad.error {
				t.Errorf("%v: errors %v, want %s", bad.extra, m["errors"], bad.field)
			}
		}
		// Wrong types are refused by the JSON decoder.
		if r := dl(map[string]any{"sizeMm": "50"}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("sizeMm as a string: %d", r.StatusCode)
		}
		if r := dl(map[string]any{"dpi": 300.5, "sizeMm": 50}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("dpi with a fraction: %d", r.StatusCode)
		}
		// Three files downloaded, three recorded: the refusals left nothing.
		if d, err := st.Download(context.Background(), 3); err != nil || d.DownloadType != "pdf" {
			t.Errorf("third download: %+v %v", d, err)
		}
		if _, err := st.Download(context.Background(), 4); err == nil {
			t.Error("a refused download was recorded")
		}

		// A saved code's image: the same options as query parameters.
		ann, _ := e.signedIn("ann@example.com")
		code := expect(t, e.postForm(ann, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", url, ""}), http.StatusCreated, "")
		img0 := "/api/qrcodes/" + idOf(code) + "/image"
		r = e.do(ann, "GET", img0+"?format=pdf&sizeMm=30&colorSpace=cmyk", "")
		if r.StatusCode != http.StatusOK || !bytes.Contains(r.body, []byte("/MediaBox [0 0 85.039 85.039]")) {
			t.Errorf("saved code PDF: %d %.300s", r.StatusCode, r.body)
		}
		r = e.do(ann, "GET", img0+"?format=png&sizeMm=25.4&dpi=600", "")
		if i, err := png.Decode(bytes.NewReader(r.body)); err != nil || i.Bounds().Dx() != 600 {
			t.Errorf("saved code PNG of an inch at 600 dpi: %v", err)
		}
		expect(t, e.do(ann, "GET", img0+"?format=png&sizeMm=abc", ""), http.StatusBadRequest, "sizeMm must be a number of millimetres")
		expect(t, e.do(ann, "GET", img0+"?format=png&sizeMm=50&dpi=3e2", ""), http.StatusBadRequest, "dpi must be a whole number")
		expect(t, e.do(ann, "GET", img0+"?format=svg&colorSpace=cmyk", ""), http.StatusBadRequest, "colorSpace cmyk applies to PDF and EPS files")
	})
}

// TestPreflight: POST /api/preflight answers the figures for the
// generator's body at a size and distance, warns, and with strict=true
// refuses a size that will not scan. It records nothing.
func TestPreflight(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		pre := func(extra map[string]any) *response {
			m := map[string]any{"qrType": "url", "url": "https://example.com/poster"}
			for k, v := range extra {
				m[k] = v
			}
			return e.do(c, "POST", "/api/preflight", body(t, m))
		}
		m := expect(t, pre(map[string]any{"sizeMm": 20, "distanceCm": 200}), http.StatusOK, "")
		// Version 4 at level H (26 bytes): 33 modules + 8 of quiet zone.
		if m["ok"] != false || m["moduleMm"] != 0.49 || m["modules"] != 41.0 || m["maxDistanceCm"] != 20.0 || m["minSizeMm"] != 200.0 {
			t.Errorf("20 mm at 2 m: %v", m)
		}
		if w, _ := m["warnings"].([]any); len(w) != 1 || w[0] != "At 20 mm this code scans from up to 20 cm; to be read at 2 m, print it at least 200 mm wide" {
			t.Errorf("warnings %v", m["warnings"])
		}
		m = expect(t, pre(map[string]any{"sizeMm": 200, "distanceCm": 200, "strict": true}), http.StatusOK, "")
		if m["ok"] != true || len(m["warnings"].([]any)) != 0 {
			t.Errorf("200 mm at 2 m: %v", m)
		}
		expect(t, pre(map[string]any{"sizeMm": 20, "distanceCm": 200, "strict": true}), http.StatusBadRequest,
			"At 20 mm this code scans from up to 20 cm; to be read at 2 m, print it at least 200 mm wide")
		expect(t, pre(map[string]any{}), http.StatusBadRequest, "sizeMm is required")
		expect(t, pre(map[string]any{"sizeMm": 5}), http.StatusBadRequest, "sizeMm must be between 10 and 2000")
		expect(t, pre(map[string]any{"sizeMm": 50, "distanceCm": -3}), http.StatusBadRequest, "distanceCm must be between 0 (none) and 10000")
		if r := pre(map[string]any{"sizeMm": "big"}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("sizeMm as a string: %d", r.StatusCode)
		}
		expect(t, pre(map[string]any{"sizeMm": 50, "fgColor": "#EEEEEE"}), http.StatusBadRequest, "Not enough contrast with the background (1.16:1, at least 3:1 is needed to scan)")
		if _, err := st.Generation(context.Background(), 1); err == nil {
			t.Error("a preflight recorded a generation")
		}
	})
}

// TestSavedCodeDownloadOptions: a saved code's image takes the generator's
// download options as query parameters — ?pixels= (a PNG's exact width) and
// ?transparent=1 — and its preflight route measures it as drawn, the owner's
// only; bad values are 400 on the field and record no download.
func TestSavedCodeDownloadOptions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		ann, _ := e.signedIn("ann@example.com")
		bob, _ := e.signedIn("bob@example.com")
		static := expect(t, e.postForm(ann, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/saved", ""},
			part{"enableFrame", "true", ""}), http.StatusCreated, "")
		dynamic := e.createDynamic(ann, "https://example.com/dynamic")
		staticPath, dynamicPath := "/api/qrcodes/"+idOf(static), "/api/dynamic-qrcodes/"+idOf(dynamic)

		decode := func(r *response) image.Image {
			t.Helper()
			if r.StatusCode != http.StatusOK {
				t.Fatalf("%d %s", r.StatusCode, r.body)
			}
			i, err := png.Decode(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			return i
		}
		// A frame adds its share: 20% wider, 30% higher.
		if b := decode(e.do(ann, "GET", staticPath+"/image?format=png&pixels=1000", "")).Bounds(); b.Dx() != 1200 || b.Dy() != 1300 {
			t.Errorf("framed code at pixels=1000: %v, want 1200×1300", b)
		}
		if b := decode(e.do(ann, "GET", dynamicPath+"/image?format=png&pixels=512&download=1", "")).Bounds(); b.Dx() != 512 {
			t.Errorf("dynamic code at pixels=512: %v", b)
		}
		opaque := decode(e.do(ann, "GET", dynamicPath+"/image?format=png&pixels=256", ""))
		clear := decode(e.do(ann, "GET", dynamicPath+"/image?format=png&pixels=256&transparent=1", ""))
		if _, _, _, a := opaque.At(1, 1).RGBA(); a != 0xffff {
			t.Errorf("default background alpha %d, want opaque", a)
		}
		if _, _, _, a := clear.At(1, 1).RGBA(); a != 0 {
			t.Errorf("transparent=1 background alpha %d, want 0", a)
		}
		for _, bad := range []struct{ query, field, error string }{
			{"format=png&pixels=100", "pixels", "pixels must be between 256 and 4096"},
			{"format=png&pixels=5000", "pixels", "pixels must be between 256 and 4096"},
			{"format=png&pixels=big", "pixels", "pixels must be a whole number"},
			{"format=pdf&pixels=1000", "pixels", "pixels sets the size of PNG downloads only"},
			{"format=png&pixels=1000&sizeMm=50", "pixels", "Set either pixels or sizeMm, not both"},
			{"format=png&transparent=maybe", "transparent", "transparent must be 1 or 0"},
		} {
			m := expect(t, e.do(ann, "GET", dynamicPath+"/image?download=1&"+bad.query, ""), http.StatusBadRequest, bad.error)
			if errs, _ := m["errors"].(map[string]any); errs[bad.field] != bad.error {
				t.Errorf("%s: errors %v, want %s", bad.query, m["errors"], bad.field)
			}
		}
		// One download recorded (the dynamic PNG with download=1); none of the refusals.
		if _, err := st.Download(context.Background(), 1); err != nil {
			t.Errorf("the download was not recorded: %v", err)
		}
		if _, err := st.Download(context.Background(), 2); err == nil {
			t.Error("a refused download was recorded")
		}

		// The preflight of a saved code measures what it encodes: the
		// dynamic code its short URL (version 2 at M: 25 + 8 modules).
		m := expect(t, e.do(ann, "GET", dynamicPath+"/preflight?sizeMm=20&distanceCm=200", ""), http.StatusOK, "")
		if m["ok"] != false || m["maxDistanceCm"] != 20.0 || m["minSizeMm"] != 200.0 {
			t.Errorf("dynamic code at 20 mm for 2 m: %v", m)
		}
		if w, _ := m["warnings"].([]any); len(w) != 1 || w[0] != "At 20 mm this code scans from up to 20 cm; to be read at 2 m, print it at least 200 mm wide" {
			t.Errorf("warnings %v", m["warnings"])
		}
		m = expect(t, e.do(ann, "GET", staticPath+"/preflight?sizeMm=50", ""), http.StatusOK, "")
		if m["ok"] != true || m["modules"] == nil {
			t.Errorf("static code at 50 mm: %v", m)
		}
		expect(t, e.do(ann, "GET", staticPath+"/preflight", ""), http.StatusBadRequest, "sizeMm is required")
		expect(t, e.do(ann, "GET", staticPath+"/preflight?sizeMm=wide", ""), http.StatusBadRequest, "sizeMm must be a number of millimetres")
		expect(t, e.do(ann, "GET", staticPath+"/preflight?sizeMm=5", ""), http.StatusBadRequest, "sizeMm must be between 10 and 2000")
		expect(t, e.do(ann, "GET", staticPath+"/preflight?sizeMm=50&distanceCm=far", ""), http.StatusBadRequest, "distanceCm must be a number of centimetres")
		expect(t, e.do(ann, "GET", dynamicPath+"/preflight?sizeMm=20&distanceCm=200&strict=true", ""), http.StatusBadRequest,
			"At 20 mm this code scans from up to 20 cm; to be read at 2 m, print it at least 200 mm wide")
		for _, path := range []string{staticPath, dynamicPath} {
			if r := e.do(bob, "GET", path+"/preflight?sizeMm=50", ""); r.StatusCode != http.StatusNotFound {
				t.Errorf("another user's %s preflight: %d", path, r.StatusCode)
			}
		}
	})
}
