package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestSaveQRCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, uid := e.signedIn("saver@example.com")
		logo := pngBytes(t, 40, 40)
		r := e.postForm(c, "/api/qrcodes",
			part{"qrType", "url", ""}, part{"url", "https://example.com/styled", ""}, part{"qrMode", "static", ""},
			part{"fgColor", "#1e3a8a", ""}, part{"gradientColor", "#7C3AED", ""}, part{"dotShape", "classy", ""},
			part{"gradientType", "radial", ""}, part{"gradientAngle", "40", ""}, part{"gradientOnEyes", "true", ""},
			part{"cornerShape", "curve-square", ""}, part{"innerCornerShape", "dot", ""}, part{"enableFrame", "true", ""}, part{"frameText", "Menu", ""},
			part{"logoSize", "small", ""}, part{"logoFile", string(logo), "brand.png"})
		m := expect(t, r, http.StatusCreated, "")
		want := map[string]any{
			"name": "Website 2026-03-01", "qrType": "url", "qrMode": "static", "url": "https://example.com/styled",
			"data": "https://example.com/styled", "fgColor": "#1E3A8A", "bgColor": "#FFFFFF", "gradientColor": "#7C3AED",
			"gradientType": "radial", "gradientAngle": 40.0, "gradientOnEyes": true,
			"dotShape": "classy", "cornerShape": "curve-square", "innerCornerShape": "dot", "outerCornerColor": "",
			"innerCornerColor": "", "logoFileName": "brand.png", "logoSize": "small", "enableFrame": true,
			"frameText": "Menu", "frameColor": "#000000", "frameTextColor": "#FFFFFF", "frameStyle": "rounded",
			"scanCount": 0.0, "isPaused": false, "createdAt": "2026-03-01T12:00:00Z",
		}
		for k, v := range want {
			if m[k] != v {
				t.Errorf("%s = %#v, want %#v", k, m[k], v)
			}
		}
		if qd, _ := m["qrData"].(map[string]any); qd["url"] != "https://example.com/styled" {
			t.Errorf("qrData %v", m["qrData"])
		}
		logoPath, _ := m["logoFilePath"].(string)
		if got := e.do(e.browser(), "GET", logoPath, ""); got.StatusCode != 200 || string(got.body) != string(logo) {
			t.Errorf("GET %s: %d", logoPath, got.StatusCode)
		}
		id := itoa(int64(m["id"].(float64)))

		// The saved code renders, logo and all, and scans in every format.
		for _, format := range []string{"svg", "png", "pdf"} {
			r := e.do(c, "GET", "/api/qrcodes/"+id+"/image?format="+format, "")
			if r.StatusCode != 200 {
				t.Fatalf("%s: %d %s", format, r.StatusCode, r.body)
			}
			if got := dec.read(r.body, format); got != "https://example.com/styled" {
				t.Errorf("%s decodes to %q", format, got)
			}
			if cd := r.Header.Get("Content-Disposition"); cd != `inline; filename="url.`+format+`"` {
				t.Errorf("%s: Content-Disposition %q", format, cd)
			}
		}
		if _, err := st.Download(context.Background(), 1); err == nil {
			t.Error("viewing an image recorded a download")
		}
		r = e.do(c, "GET", "/api/qrcodes/"+id+"/image?format=png&download=1", "")
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="url.png"` {
			t.Errorf("download: Content-Disposition %q", cd)
		}
		d, err := st.Download(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if d.QRCodeID == nil || itoa(*d.QRCodeID) != id || d.UserID == nil || *d.UserID != uid || d.DownloadType != "png" || !d.HasLogo {
			t.Errorf("download %+v", d)
		}

		// Listed for its owner.
		list := e.do(c, "GET", "/api/qrcodes", "")
		if list.StatusCode != 200 || !strings.Contains(string(list.body), `"id":`+id) {
			t.Errorf("GET /api/qrcodes: %d %s", list.StatusCode, list.body)
		}
	})
}

func TestSaveQRCodeTypes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("types@example.com")
		base := testConfig(t).BaseURL

		// A location's place name travels as locationName beside the code's name.
		m := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "location", ""}, part{"name", "  Office  ", ""},
			part{"address", "1 Main St", ""}, part{"locationName", "HQ", ""}, part{"locationDescription", "Ring twice", ""},
			part{"latitude", "48.8583701", ""}, part{"longitude", "2.2944813", ""}), http.StatusCreated, "")
		qd, _ := m["qrData"].(map[string]any)
		if m["name"] != "Office" || qd["name"] != "HQ" || qd["description"] != "Ring twice" || m["data"] != "geo:48.8583701,2.2944813" {
			t.Errorf("location: %v", m)
		}

		// A payment code gets its product, owned by the user.
		m = expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "payment", ""}, part{"productName", "Tea", ""},
			part{"productPrice", "2.50", ""}, part{"productDescription", "Green", ""}), http.StatusCreated, "")
		p, err := st.PaymentProduct(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.ProductPrice != 250 || p.UserID == nil || *p.UserID != uid || m["data"] != base+"/payment?id=1" {
			t.Errorf("payment: product %+v, data %v", p, m["data"])
		}
		code, err := st.QRCode(context.Background(), uid, int64(m["id"].(float64)))
		if err != nil {
			t.Fatal(err)
		}
		if code.PaymentProductID == nil || *code.PaymentProductID != 1 || code.ErrorCorrectionLevel != "H" {
			t.Errorf("saved payment code %+v", code)
		}

		// A pdf code for the user's own upload; the logo by id.
		pdf := expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", "%PDF-1.4\n", "m.pdf"}), http.StatusCreated, "")
		logo := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 8, 8)), "l.png"}), http.StatusCreated, "")
		m = expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "pdf", ""}, part{"pdfFile", itoa(int64(pdf["id"].(float64))), ""},
			part{"title", "Menu", ""}, part{"logoId", itoa(int64(logo["id"].(float64))), ""}), http.StatusCreated, "")
		if m["data"] != pdf["pdfUrl"] || m["logoFilePath"] != logo["logoUrl"] || m["logoFileName"] != "l.png" {
			t.Errorf("pdf: %v", m)
		}
	})
}

func TestSaveQRCodeRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		url := []part{{"qrType", "url", ""}, {"url", "https://example.com", ""}}
		expect(t, e.postForm(e.browser(), "/api/qrcodes", url...), http.StatusUnauthorized, "Not authenticated")
		c, uid := e.signedIn("refused@example.com")
		other, _ := e.signedIn("other@example.com")
		otherLogo := expect(t, e.postForm(other, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 8, 8)), "l.png"}), http.StatusCreated, "")
		with := func(extra ...part) []part { return append(append([]part{}, url...), extra...) }
		for _, tc := range []struct {
			name    string
			parts   []part
			status  int
			message string
		}{
			{"dynamic", with(part{"qrMode", "dynamic", ""}), 400, "Dynamic QR codes are created with POST /api/dynamic-qrcodes"},
			{"unknown mode", with(part{"qrMode", "live", ""}), 400, "qrMode must be static or dynamic"},
			{"blocked type", []part{{"qrType", "bitcoin", ""}, {"address", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", ""}}, 400, "This QR code type is not available yet"},
			{"missing url", []part{{"qrType", "url", ""}}, 400, "URL is required"},
			{"missing type", []part{{"url", "https://example.com", ""}}, 400, "QR code type is required"},
			{"long name", with(part{"name", strings.Repeat("n", 101), ""}), 400, "Name must be at most 100 characters"},
			{"bidi override in name", with(part{"name", "abc\u202Etxt.exe", ""}), 400, "Name must not contain control or text direction characters"},
			{"bad frame flag", with(part{"enableFrame", "sure", ""}), 400, "enableFrame must be true or false"},
			{"bad logo id", with(part{"logoId", "abc", ""}), 400, "logoId must be a number"},
			{"another user's logo", with(part{"logoId", itoa(int64(otherLogo["id"].(float64))), ""}), 404, "Logo not found"},
			{"an SVG logo", with(part{"logoFile", scriptSVG, "x.png"}), 415, "Only PNG, JPEG, GIF or WebP images are allowed"},
			{"a logo too large", with(part{"logoFile", string(pngBytes(t, 4, 4)) + strings.Repeat("\x00", maxLogoBytes), "x.png"}), 413, logoTooBig},
			{"inverted colours", with(part{"fgColor", "#FFFFFF", ""}, part{"bgColor", "#000000", ""}), 400, ""},
			{"a payment refused by the renderer", []part{{"qrType", "payment", ""}, {"productName", "n", ""}, {"productPrice", "1", ""},
				{"productDescription", "d", ""}, {"fgColor", "#DDDDDD", ""}}, 400, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				expect(t, e.postForm(c, "/api/qrcodes", tc.parts...), tc.status, tc.message)
			})
		}
		expect(t, e.do(c, "POST", "/api/qrcodes", `{"qrType":"url"}`), http.StatusUnsupportedMediaType, "Content-Type must be multipart/form-data")
		if l, _ := st.QRCodes(context.Background(), uid); len(l) != 0 {
			t.Errorf("%d codes saved by refused requests", len(l))
		}
		if _, err := st.PaymentProduct(context.Background(), 1); err == nil {
			t.Error("a refused payment code left a product")
		}
		expectBlobs(t, st, 1) // the other user's logo
	})
}

func TestListQRCodesAndOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		expect(t, e.do(e.browser(), "GET", "/api/qrcodes", ""), http.StatusUnauthorized, "Not authenticated")
		ann, _ := e.signedIn("ann@example.com")
		bob, _ := e.signedIn("bob@example.com")
		if r := e.do(ann, "GET", "/api/qrcodes", ""); r.StatusCode != 200 || strings.TrimSpace(string(r.body)) != "[]" {
			t.Errorf("empty list: %d %s", r.StatusCode, r.body)
		}
		var ids []string
		for _, u := range []string{"https://one.example", "https://two.example"} {
			m := expect(t, e.postForm(ann, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", u, ""}), http.StatusCreated, "")
			ids = append(ids, itoa(int64(m["id"].(float64))))
			e.clock.Advance(time.Minute)
		}
		r := e.do(ann, "GET", "/api/qrcodes", "")
		body := string(r.body)
		if i, j := strings.Index(body, "two.example"), strings.Index(body, "one.example"); r.StatusCode != 200 || i < 0 || j < 0 || i > j {
			t.Errorf("list not newest first: %s", body)
		}
		if r := e.do(bob, "GET", "/api/qrcodes", ""); strings.TrimSpace(string(r.body)) != "[]" {
			t.Errorf("bob sees %s", r.body)
		}
		expect(t, e.do(bob, "GET", "/api/qrcodes/"+ids[0]+"/image", ""), http.StatusNotFound, "QR code not found")
		expect(t, e.do(ann, "GET", "/api/qrcodes/999/image", ""), http.StatusNotFound, "QR code not found")
		expect(t, e.do(ann, "GET", "/api/qrcodes/abc/image", ""), http.StatusNotFound, "QR code not found")
		expect(t, e.do(ann, "GET", "/api/qrcodes/"+ids[0]+"/image?format=gif", ""), http.StatusBadRequest, "format must be png, svg, pdf or eps")
		expect(t, e.do(ann, "GET", "/api/qrcodes/"+ids[0]+"/image?size=9", ""), http.StatusBadRequest, "size must be between 64 and 1200 pixels")
		// A PNG is drawn at 3× in memory: at most 640 (1920 px), like a download.
		expect(t, e.do(ann, "GET", "/api/qrcodes/"+ids[0]+"/image?format=png&size=1200", ""), http.StatusBadRequest, "size must be between 64 and 640 pixels for a PNG")
		expect(t, e.do(ann, "GET", "/api/qrcodes/"+ids[0]+"/image?format=png&size=640", ""), http.StatusOK, "")
		expect(t, e.do(ann, "GET", "/api/qrcodes/"+ids[0]+"/image?format=svg&size=1200", ""), http.StatusOK, "")
		expect(t, e.do(e.browser(), "GET", "/api/qrcodes/"+ids[0]+"/image", ""), http.StatusUnauthorized, "Not authenticated")
	})
}
