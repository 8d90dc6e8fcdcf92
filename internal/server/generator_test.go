package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// body encodes a JSON request body.
func body(t *testing.T, v map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// part is one field of a multipart form; a file when fileName is set.
type part struct {
	name, value, fileName string
}

// postForm sends a multipart form.
func (e *env) postForm(c *http.Client, path string, parts ...part) *response {
	e.t.Helper()
	return e.sendForm(c, "POST", path, parts...)
}

// sendForm sends a multipart form with method.
func (e *env) sendForm(c *http.Client, method, path string, parts ...part) *response {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.fileName != "" {
			fw, err := mw.CreateFormFile(p.name, p.fileName)
			if err != nil {
				e.t.Fatal(err)
			}
			fw.Write([]byte(p.value))
		} else {
			mw.WriteField(p.name, p.value)
		}
	}
	mw.Close()
	return e.do(c, method, path, buf.String(), "Content-Type", mw.FormDataContentType())
}

// decoders reads codes back with real decoders.
type decoders struct {
	t                           *testing.T
	zbar, zxing, rsvg, pdftoppm string
	opencv                      string // set by withOpenCV: OpenCV must read the same too
}

func newDecoders(t *testing.T) *decoders {
	return &decoders{t: t, zbar: testenv.Command(t, "zbarimg"), zxing: testenv.Command(t, "ZXingReader"),
		rsvg: testenv.Command(t, "rsvg-convert"), pdftoppm: testenv.Command(t, "pdftoppm")}
}

// read decodes a PNG, SVG or PDF file's code with zbarimg, and checks that
// ZXingReader reads the same.
func (d *decoders) read(file []byte, format string) string {
	d.t.Helper()
	dir := d.t.TempDir()
	in := filepath.Join(dir, "code."+format)
	if err := os.WriteFile(in, file, 0o600); err != nil {
		d.t.Fatal(err)
	}
	pngFile := in
	switch format {
	case "svg":
		pngFile = filepath.Join(dir, "svg.png")
		if out, err := exec.Command(d.rsvg, "-w", "640", "-b", "white", "-o", pngFile, in).CombinedOutput(); err != nil {
			d.t.Fatalf("rsvg-convert: %v %s", err, out)
		}
	case "pdf":
		if out, err := exec.Command(d.pdftoppm, "-png", "-r", "150", "-singlefile", in, filepath.Join(dir, "pdf")).CombinedOutput(); err != nil {
			d.t.Fatalf("pdftoppm: %v %s", err, out)
		}
		pngFile = filepath.Join(dir, "pdf.png")
	}
	out, err := exec.Command(d.zbar, "--quiet", "--raw", "-Sbinary", pngFile).Output()
	if err != nil {
		d.t.Fatalf("zbarimg found no code in the %s: %v", format, err)
	}
	zx, err := exec.Command(d.zxing, "-format", "QRCode", "-bytes", pngFile).Output()
	if err != nil || string(zx) != string(out) {
		d.t.Errorf("ZXingReader read %q from the %s (%v), zbarimg %q", zx, format, err, out)
	}
	if d.opencv != "" {
		reads, err := testenv.ReadWithOpenCV(d.opencv, pngFile)
		if got := reads[pngFile].Text; err != nil || string(got) != string(out) {
			d.t.Errorf("OpenCV read %q from the %s (%v), zbarimg %q", got, format, err, out)
		}
	}
	return string(out)
}

// withOpenCV has OpenCV (python3-opencv) read every code as well, a third
// decoder where a till's reading is the point (GS1 codes); it skips the
// test, or fails it under CI, without OpenCV.
func (d *decoders) withOpenCV() *decoders {
	d.opencv = testenv.OpenCVPython()
	testenv.Need(d.t, d.opencv != "", "python3-opencv is not installed")
	return d
}

// signedIn returns a browser with a new account and the account's id.
func (e *env) signedIn(email string) (*http.Client, int64) {
	e.t.Helper()
	c := e.browser()
	u := e.register(c, email, "secret1")
	return c, int64(u["id"].(float64))
}

func TestGenerateEveryFreeType(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c := e.browser()
		base := testConfig(t).BaseURL
		img := e.postForm(c, "/api/upload-image", part{"imageFile", string(pngBytes(t, 8, 8)), "cat.png"}, part{"imageTitle", "Cat", ""})
		imgID := idOf(expect(t, img, http.StatusCreated, ""))
		for _, tc := range []struct {
			fields map[string]any
			want   string
		}{
			{map[string]any{"qrType": "url", "url": "https://example.com/a?b=c"}, "https://example.com/a?b=c"},
			{map[string]any{"qrType": "contact", "firstName": "Ann", "lastName": "Lee", "phoneNumber": "+1 555 0100", "email": "ann@example.com"},
				"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nTEL:+1 555 0100\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\n"},
			{map[string]any{"qrType": "social", "platform": "instagram", "url": "https://instagram.com/squarely"}, "https://instagram.com/squarely"},
			{map[string]any{"qrType": "images", "imageFile": imgID, "title": "Cat"}, base + "/images/" + imgID},
			{map[string]any{"qrType": "ratings", "businessName": "Cafe", "platform": "google", "url": "https://g.page/cafe"}, "https://g.page/cafe"},
			{map[string]any{"qrType": "email", "email": "hi@example.com", "subject": "Hello there"}, "mailto:hi@example.com?subject=Hello%20there"},
			{map[string]any{"qrType": "location", "address": "1 Main St", "latitude": 48.85837, "longitude": "2.294481"}, "geo:48.85837,2.294481"},
			{map[string]any{"qrType": "apps", "appName": "Sq", "platform": "appstore", "url": "https://apps.apple.com/app/id1"}, "https://apps.apple.com/app/id1"},
		} {
			tc.fields["sessionId"] = "anon-1"
			r := e.do(c, "POST", "/api/generate-qrcode", body(t, tc.fields))
			m := expect(t, r, http.StatusOK, "")
			if m["data"] != tc.want {
				t.Errorf("%v: data %q, want %q", tc.fields["qrType"], m["data"], tc.want)
				continue
			}
			svg, _ := m["qrCode"].(string)
			if !strings.HasPrefix(svg, "<svg") && !strings.HasPrefix(svg, "<?xml") {
				t.Errorf("%v: qrCode is not SVG: %.60q", tc.fields["qrType"], svg)
			}
			if got := dec.read([]byte(svg), "svg"); got != tc.want {
				t.Errorf("%v: the SVG decodes to %q, want %q", tc.fields["qrType"], got, tc.want)
			}
			id, ok := m["id"].(float64)
			if !ok {
				t.Fatalf("%v: no generation id in %v", tc.fields["qrType"], m)
			}
			g, err := st.Generation(context.Background(), int64(id))
			if err != nil {
				t.Fatal(err)
			}
			if g.QRType != tc.fields["qrType"] || g.Content != tc.want || g.SessionID != "anon-1" || g.UserID != nil ||
				g.IPAddress != "127.0.0.1" || g.ForegroundColor != "#000000" || g.BackgroundColor != "#FFFFFF" || g.HasLogo {
				t.Errorf("generation %+v", g)
			}
		}
	})
}

func TestGenerateRecordsDetails(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("gen@example.com")
		r := e.do(c, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "url", "url": "https://example.com/menu", "fgColor": "1e3a8a", "gradientColor": "#7C3AED", "sessionId": "s-9",
		}), "User-Agent", "TestAgent/1.0", "Referer", "http://localhost:8080/?qr=url")
		m := expect(t, r, http.StatusOK, "")
		g, err := st.Generation(context.Background(), int64(m["id"].(float64)))
		if err != nil {
			t.Fatal(err)
		}
		if g.UserID == nil || *g.UserID != uid || g.UserAgent != "TestAgent/1.0" || g.Referrer != "http://localhost:8080/?qr=url" ||
			g.ForegroundColor != "#1E3A8A" {
			t.Errorf("generation %+v", g)
		}
		want := map[string]any{"websiteUrl": "https://example.com/menu", "urlDomain": "example.com", "urlPath": "/menu"}
		if fmt.Sprint(g.Details) != fmt.Sprint(want) {
			t.Errorf("details %v, want %v", g.Details, want)
		}
	})
}

func TestGenerateTemporaryPreview(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		base := testConfig(t).BaseURL
		for _, tc := range []struct {
			fields map[string]any
			want   string
		}{
			{map[string]any{"qrType": "url", "url": "https://example.com"}, "https://example.com"},
			{map[string]any{"qrType": "payment", "productName": "Tea & cake", "productPrice": 4.5, "productDescription": "x"},
				base + "/payment?temp=true&name=Tea+%26+cake&price=4.50"},
			{map[string]any{"qrType": "images", "title": "Menu"}, base + "/image-placeholder"},
		} {
			tc.fields["temporary"] = true
			tc.fields["size"] = 192
			m := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, tc.fields)), http.StatusOK, "")
			if m["data"] != tc.want {
				t.Errorf("data %q, want %q", m["data"], tc.want)
			}
			if _, ok := m["id"]; ok {
				t.Errorf("a temporary preview was recorded: %v", m["id"])
			}
			if !strings.Contains(m["qrCode"].(string), `width="192"`) {
				t.Errorf("preview is not 192 px: %.200s", m["qrCode"])
			}
		}
		if _, err := st.Generation(context.Background(), 1); err == nil {
			t.Error("a generation row exists after temporary previews")
		}
		if _, err := st.PaymentProduct(context.Background(), 1); err == nil {
			t.Error("a temporary payment preview created a product")
		}
	})
}

func TestGeneratePaymentCreatesProduct(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		m := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "payment", "productName": "Espresso", "productPrice": "9.99", "productDescription": "Short",
		})), http.StatusOK, "")
		p, err := st.PaymentProduct(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.ProductName != "Espresso" || p.ProductPrice != 999 || p.ProductDescription != "Short" || p.UserID != nil {
			t.Errorf("product %+v", p)
		}
		if want := testConfig(t).BaseURL + "/payment?id=1"; m["data"] != want {
			t.Errorf("data %q, want %q", m["data"], want)
		}
	})
}

func TestGenerateRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		visitor := e.browser()
		member, _ := e.signedIn("member@example.com")
		for _, tc := range []struct {
			name    string
			c       *http.Client
			body    string
			status  int
			message string
			field   string
		}{
			{"malformed JSON", visitor, `{"qrType":`, 400, "Malformed JSON body", ""},
			{"not an object", visitor, `["url"]`, 400, "Request body must be a JSON object", ""},
			{"wrong JSON type", visitor, `{"qrType":"url","url":"https://a.example","enableFrame":"yes"}`, 400, "enableFrame must be true or false", "enableFrame"},
			{"wrong type for a field", visitor, `{"qrType":"url","url":["https://a.example"]}`, 400, "Must be a string", "url"},
			{"wrong type for a style field", visitor, `{"qrType":"url","url":"https://a.example","fgColor":12}`, 400, "fgColor must be a string", "fgColor"},
			{"missing type", visitor, `{"url":"https://a.example"}`, 400, "QR code type is required", "qrType"},
			{"unknown type", visitor, `{"qrType":"fax","number":"x"}`, 400, "Unknown QR code type", "qrType"},
			{"text empty", visitor, `{"qrType":"text","text":""}`, 400, "Text is required", "text"},
			{"text not a string", visitor, `{"qrType":"text","text":["a"]}`, 400, "Must be a string", "text"},
			{"wifi network name", visitor, `{"qrType":"wifi","ssid":"","password":"p"}`, 400, "Network name is required", "ssid"},
			{"wifi password", visitor, `{"qrType":"wifi","ssid":"Home","encryption":"WEP"}`, 400, "Password is required", "password"},
			{"wifi security", visitor, `{"qrType":"wifi","ssid":"Home","password":"p","encryption":"WPA3"}`, 400, "Encryption must be WPA, WEP or nopass", "encryption"},
			{"wifi hidden", visitor, `{"qrType":"wifi","ssid":"Home","encryption":"nopass","hidden":"maybe"}`, 400, "Hidden must be true or false", "hidden"},
			{"events", member, `{"qrType":"events","title":"x","startDate":"2026-01-01","location":"y"}`, 400, "This QR code type is not available yet", "qrType"},
			{"sms", member, `{"qrType":"sms","phoneNumber":"123"}`, 400, "This QR code type is not available yet", "qrType"},
			{"bitcoin", visitor, `{"qrType":"bitcoin","address":"1BoatSLRHtKNngkdXEeobR76b53LETtpyT"}`, 400, "This QR code type is not available yet", "qrType"},
			{"pdf as visitor", visitor, `{"qrType":"pdf","pdfFile":"1","title":"x"}`, 403, codes.MsgPremium, ""},
			{"gradient as visitor", visitor, `{"qrType":"url","url":"https://a.example","gradientColor":"#7C3AED"}`, 403, codes.MsgPremium, ""},
			{"logo as visitor", visitor, `{"qrType":"url","url":"https://a.example","logoId":1}`, 403, codes.MsgPremium, ""},
			{"scan tracking as visitor", visitor, `{"qrType":"url","url":"https://a.example","scanTracking":true}`, 403, codes.MsgPremium, ""},
			{"url missing", visitor, `{"qrType":"url"}`, 400, "URL is required", "url"},
			{"url invalid", visitor, `{"qrType":"url","url":"not a url"}`, 400, "Please enter a valid URL", "url"},
			{"url protocol", visitor, `{"qrType":"url","url":"ftp://example.com"}`, 400, "URL must use http or https protocol", "url"},
			{"contact first name", visitor, `{"qrType":"contact","phoneNumber":"1"}`, 400, "First name is required", "firstName"},
			{"contact phone", visitor, `{"qrType":"contact","firstName":"A"}`, 400, "Phone number is required", "phoneNumber"},
			{"contact email", visitor, `{"qrType":"contact","firstName":"A","phoneNumber":"1","email":"nope"}`, 400, "Please enter a valid email", "email"},
			{"contact image", visitor, `{"qrType":"contact","firstName":"A","phoneNumber":"1","imageUrl":"nope"}`, 400, "Please enter a valid image URL", "imageUrl"},
			{"payment name", visitor, `{"qrType":"payment","productPrice":"1","productDescription":"d"}`, 400, "Product name is required", "productName"},
			{"payment price", visitor, `{"qrType":"payment","productName":"n","productPrice":"0","productDescription":"d"}`, 400, "Price must be greater than 0", "productPrice"},
			{"payment description", visitor, `{"qrType":"payment","productName":"n","productPrice":2}`, 400, "Product description is required", "productDescription"},
			{"pdf file", member, `{"qrType":"pdf","title":"x"}`, 400, "Please select a PDF file", "pdfFile"},
			{"pdf title", member, `{"qrType":"pdf","pdfFile":"1"}`, 400, "Title is required", "title"},
			{"images file", visitor, `{"qrType":"images","title":"x"}`, 400, "Please select an image file", "imageFile"},
			{"images title", visitor, `{"qrType":"images","imageFile":"1"}`, 400, "Title is required", "title"},
			{"social platform", visitor, `{"qrType":"social","url":"https://a.example"}`, 400, "Platform is required", "platform"},
			{"ratings business", visitor, `{"qrType":"ratings","platform":"yelp","url":"https://a.example"}`, 400, "Business name is required", "businessName"},
			{"social url", visitor, `{"qrType":"social","platform":"facebook"}`, 400, "URL is required", "url"},
			{"ratings platform", visitor, `{"qrType":"ratings","businessName":"B","url":"https://a.example"}`, 400, "Platform is required", "platform"},
			{"apps platform", visitor, `{"qrType":"apps","appName":"A","url":"https://a.example"}`, 400, "Platform is required", "platform"},
			{"email required", visitor, `{"qrType":"email"}`, 400, "Email is required", "email"},
			{"email invalid", visitor, `{"qrType":"email","email":"a@b"}`, 400, "Please enter a valid email", "email"},
			{"location address", visitor, `{"qrType":"location"}`, 400, "Address is required", "address"},
			{"apps name", visitor, `{"qrType":"apps","platform":"appstore","url":"https://a.example"}`, 400, "App name is required", "appName"},
			{"low contrast", visitor, `{"qrType":"url","url":"https://a.example","fgColor":"#EEEEEE"}`, 400, "", "fgColor"},
			{"bad colour", visitor, `{"qrType":"url","url":"https://a.example","bgColor":"white"}`, 400, "Please enter a colour like #1A2B3C", "bgColor"},
			{"bad shape", visitor, `{"qrType":"url","url":"https://a.example","dotShape":"star"}`, 400, "", "dotShape"},
			{"gradient angle as text", visitor, `{"qrType":"url","url":"https://a.example","gradientAngle":"90"}`, 400, "gradientAngle must be a number", "gradientAngle"},
			{"gradient angle 360", visitor, `{"qrType":"url","url":"https://a.example","gradientAngle":360}`, 400, render.GradientAngleMessage, "gradientAngle"},
			{"gradient angle -1", visitor, `{"qrType":"url","url":"https://a.example","gradientAngle":-1}`, 400, render.GradientAngleMessage, "gradientAngle"},
			{"gradient angle fraction", visitor, `{"qrType":"url","url":"https://a.example","gradientAngle":9.5}`, 400, "gradientAngle must be a number", "gradientAngle"},
			{"gradient type", visitor, `{"qrType":"url","url":"https://a.example","gradientType":"conic"}`, 400, "gradientType must be one of linear, radial", "gradientType"},
			{"gradient on eyes", visitor, `{"qrType":"url","url":"https://a.example","gradientOnEyes":"yes"}`, 400, "gradientOnEyes must be true or false", "gradientOnEyes"},
			{"eye frame shape", visitor, `{"qrType":"url","url":"https://a.example","cornerShape":"classy"}`, 400, "", "cornerShape"},
			{"too much data", visitor, body(t, map[string]any{"qrType": "url", "url": "https://a.example/" + strings.Repeat("x", 3000)}), 400,
				"The amount of data is too big to be stored in a QR Code", "data"},
			{"size", visitor, `{"qrType":"url","url":"https://a.example","size":5000}`, 400, "size must be between 64 and 1200 pixels", "size"},
			{"another user's logo", member, `{"qrType":"url","url":"https://a.example","logoId":999}`, 404, "Logo not found", "logoId"},
			{"missing pdf", member, `{"qrType":"pdf","pdfFile":"999","title":"x"}`, 404, "PDF file not found", "pdfFile"},
			{"missing image", visitor, `{"qrType":"images","imageFile":"999","title":"x"}`, 404, "Image file not found", "imageFile"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				m := expect(t, e.do(tc.c, "POST", "/api/generate-qrcode", tc.body), tc.status, tc.message)
				if tc.field != "" {
					errs, _ := m["errors"].(map[string]any)
					if errs[tc.field] == nil {
						t.Errorf("errors %v lack %s", m["errors"], tc.field)
					}
					if tc.message == "" && m["message"] != errs[tc.field] {
						t.Errorf("message %q, field message %q", m["message"], errs[tc.field])
					}
				}
			})
		}
		// Nothing was recorded or created by any refusal.
		if _, err := st.Generation(context.Background(), 1); err == nil {
			t.Error("a refused request was recorded")
		}
		if _, err := st.PaymentProduct(context.Background(), 1); err == nil {
			t.Error("a refused payment request created a product")
		}
	})
}

func TestGenerateOwnershipOfFiles(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		ann, _ := e.signedIn("ann@example.com")
		bob, _ := e.signedIn("bob@example.com")
		pdf := expect(t, e.postForm(ann, "/api/upload-pdf", part{"pdfFile", "%PDF-1.4\n%%EOF\n", "menu.pdf"}, part{"pdfTitle", "Menu", ""}), http.StatusCreated, "")
		logo := expect(t, e.postForm(ann, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 32, 32)), "logo.png"}), http.StatusCreated, "")
		// Ann may use her files.
		m := expect(t, e.do(ann, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "pdf", "pdfFile": idOf(pdf), "title": "Menu", "logoId": logo["id"],
		})), http.StatusOK, "")
		if m["data"] != pdf["pdfUrl"] {
			t.Errorf("data %q, want %q", m["data"], pdf["pdfUrl"])
		}
		// Bob may not.
		expect(t, e.do(bob, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "pdf", "pdfFile": idOf(pdf), "title": "Menu",
		})), http.StatusNotFound, "PDF file not found")
		expect(t, e.do(bob, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "url", "url": "https://a.example", "logoId": logo["id"],
		})), http.StatusNotFound, "Logo not found")
		// A blob of another kind is not a logo.
		expect(t, e.do(ann, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "url", "url": "https://a.example", "logoId": pdf["id"],
		})), http.StatusNotFound, "Logo not found")
	})
}

func TestDownload(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c := e.browser()
		const want = "https://example.com/download"
		gen := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "sessionId": "anon-7", "dotShape": "circle", "enableFrame": true,
		})), http.StatusOK, "")
		for _, format := range []string{"png", "svg", "pdf"} {
			r := e.do(c, "POST", "/api/download-qrcode", body(t, map[string]any{
				"qrType": "url", "url": want, "sessionId": "anon-7", "dotShape": "circle", "enableFrame": true,
				"format": format, "generationId": gen["id"],
			}))
			if r.StatusCode != 200 {
				t.Fatalf("%s: status %d %s", format, r.StatusCode, r.body)
			}
			if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="url.`+format+`"` {
				t.Errorf("%s: Content-Disposition %q", format, cd)
			}
			ct := map[string]string{"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"}[format]
			if r.Header.Get("Content-Type") != ct || r.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: headers %v", format, r.Header)
			}
			if got := dec.read(r.body, format); got != want {
				t.Errorf("%s decodes to %q, want %q", format, got, want)
			}
			if format == "png" {
				img, err := png.Decode(bytes.NewReader(r.body))
				if err != nil {
					t.Fatal(err)
				}
				// 960 px code plus the frame's 20%.
				if w := img.Bounds().Dx(); w != 1152 {
					t.Errorf("PNG width %d, want 1152 (960 + frame)", w)
				}
			}
		}
		for id, format := range map[int64]string{1: "png", 2: "svg", 3: "pdf"} {
			d, err := st.Download(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if d.DownloadType != format || d.SessionID != "anon-7" || d.QRType != "url" || d.Content != want ||
				d.Details["generationId"] != gen["id"] {
				t.Errorf("download %d: %+v", id, d)
			}
		}

		// Another session's generation is not found; nothing is recorded.
		expect(t, e.do(c, "POST", "/api/download-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "sessionId": "someone-else", "generationId": gen["id"],
		})), http.StatusNotFound, "Generation not found")
		other, _ := e.signedIn("other@example.com")
		expect(t, e.do(other, "POST", "/api/download-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "generationId": gen["id"],
		})), http.StatusNotFound, "Generation not found")
		expect(t, e.do(c, "POST", "/api/download-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "format": "gif",
		})), http.StatusBadRequest, "format must be png, svg, pdf or eps")
		expect(t, e.do(c, "POST", "/api/download-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "gradientColor": "#7C3AED",
		})), http.StatusForbidden, codes.MsgPremium)
		expect(t, e.do(c, "POST", "/api/download-qrcode", body(t, map[string]any{
			"qrType": "url", "url": want, "size": 1000,
		})), http.StatusBadRequest, "size must be between 64 and 640 pixels for a download")
		if _, err := st.Download(context.Background(), 4); err == nil {
			t.Error("a refused download was recorded")
		}
	})
}

// A payment code's download encodes the generated product, not a new one.
func TestDownloadKeepsPaymentProduct(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c := e.browser()
		fields := map[string]any{"qrType": "payment", "productName": "Cake", "productPrice": "3", "productDescription": "Slice", "sessionId": "p"}
		gen := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, fields)), http.StatusOK, "")
		fields["generationId"] = gen["id"]
		r := e.do(c, "POST", "/api/download-qrcode", body(t, fields))
		if r.StatusCode != 200 {
			t.Fatalf("status %d %s", r.StatusCode, r.body)
		}
		if got := dec.read(r.body, "png"); got != gen["data"] {
			t.Errorf("download encodes %q, want %q", got, gen["data"])
		}
		if _, err := st.PaymentProduct(context.Background(), 2); err == nil {
			t.Error("the download created a second product")
		}
		// Without a generation, a download makes its own product.
		delete(fields, "generationId")
		r = e.do(c, "POST", "/api/download-qrcode", body(t, fields))
		if got := dec.read(r.body, "png"); got != testConfig(t).BaseURL+"/payment?id=2" {
			t.Errorf("download without a generation encodes %q", got)
		}
	})
}

func TestTrackGeneration(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		m := expect(t, e.do(c, "POST", "/api/track-generation", body(t, map[string]any{
			"qrCodeId": nil, "qrData": "https://example.com", "qrType": "url",
			"foregroundColor": "#000000", "backgroundColor": "#FFFFFF", "hasLogo": false, "sessionId": "anon-3",
		})), http.StatusCreated, "")
		g, err := st.Generation(context.Background(), int64(m["id"].(float64)))
		if err != nil {
			t.Fatal(err)
		}
		if g.Content != "https://example.com" || g.SessionID != "anon-3" || g.QRType != "url" || g.UserID != nil || g.ForegroundColor != "#000000" {
			t.Errorf("generation %+v", g)
		}

		owner, uid := e.signedIn("owner@example.com")
		code := &store.QRCode{UserID: uid, QRType: "url", Style: store.Style{FgColor: "#000000", BgColor: "#FFFFFF", DotShape: "square",
			CornerShape: "square", InnerCornerShape: "square", FrameText: "SCAN ME", FrameColor: "#000000",
			FrameTextColor: "#FFFFFF", FrameStyle: "rounded"}}
		if err := st.CreateQRCode(context.Background(), code); err != nil {
			t.Fatal(err)
		}
		m = expect(t, e.do(owner, "POST", "/api/track-generation", body(t, map[string]any{
			"qrCodeId": code.ID, "qrData": map[string]any{"url": "https://example.com"}, "qrType": "url", "hasLogo": true,
		})), http.StatusCreated, "")
		g, _ = st.Generation(context.Background(), int64(m["id"].(float64)))
		if g.QRCodeID == nil || *g.QRCodeID != code.ID || g.UserID == nil || *g.UserID != uid || !g.HasLogo || g.Details["url"] != "https://example.com" {
			t.Errorf("generation %+v", g)
		}

		other, _ := e.signedIn("intruder@example.com")
		for _, tc := range []struct {
			c       *http.Client
			body    string
			status  int
			message string
		}{
			{other, body(t, map[string]any{"qrCodeId": code.ID, "qrType": "url"}), 404, "QR code not found"},
			{c, body(t, map[string]any{"qrCodeId": code.ID, "qrType": "url"}), 404, "QR code not found"},
			{c, `{"qrType":"sms"}`, 400, "This QR code type is not available yet"},
			{c, `{"qrType":"nope"}`, 400, "Unknown QR code type"},
			{c, `{}`, 400, "QR code type is required"},
			{c, `{"qrType":"url","qrData":42}`, 400, "qrData must be a string or an object"},
			{c, `{"qrType":"url","foregroundColor":"black"}`, 400, "Please enter a colour like #1A2B3C"},
			{c, `{"qrType":"url","hasLogo":"yes"}`, 400, "hasLogo must be true or false"},
			{c, `{"qrType":"url","qrCodeId":"7"}`, 400, "qrCodeId must be a number"},
			{c, `{"qrType":"url"`, 400, "Malformed JSON body"},
		} {
			expect(t, e.do(tc.c, "POST", "/api/track-generation", tc.body), tc.status, tc.message)
		}
		if _, err := st.Generation(context.Background(), 3); err == nil {
			t.Error("a refused tracking call was recorded")
		}
	})
}

func TestSubdomainInfo(t *testing.T) {
	e := start(t, storetest.Open(t), withConfig(func(c *config.Config) { c.BaseURL = "https://squarely.example" }))
	c := e.browser()
	for _, tc := range []struct {
		host string
		want string
	}{
		{"squarely.example", `{"isSubdomain":false,"qrType":null,"subdomain":null}`},
		{"www.squarely.example", `{"isSubdomain":false,"qrType":null,"subdomain":null}`},
		{"url.squarely.example", `{"isSubdomain":true,"qrType":"url","subdomain":"url"}`},
		{"Contact.Squarely.Example:443", `{"isSubdomain":true,"qrType":"contact","subdomain":"contact"}`},
		{"sms.squarely.example", `{"isSubdomain":true,"qrType":null,"subdomain":"sms"}`},
		{"acme.squarely.example", `{"isSubdomain":true,"qrType":null,"subdomain":"acme"}`},
		{"url.other.example", `{"isSubdomain":false,"qrType":null,"subdomain":null}`},
		{"evilsquarely.example", `{"isSubdomain":false,"qrType":null,"subdomain":null}`},
	} {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/subdomain-info", nil)
		req.Host = tc.host
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		got.ReadFrom(resp.Body)
		resp.Body.Close()
		if strings.TrimSpace(got.String()) != tc.want {
			t.Errorf("Host %s: %s, want %s", tc.host, got.String(), tc.want)
		}
	}
}

// BenchmarkPreview is the live preview's cost: one temporary, styled
// generation through the whole handler stack.
func BenchmarkPreview(b *testing.B) {
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	h := New(Deps{Store: storetest.Open(b), Config: cfg, Logger: slog.New(slog.DiscardHandler)})
	const req = `{"qrType":"url","url":"https://example.com/menu?table=12","temporary":true,"dotShape":"circle","cornerShape":"curve-square","enableFrame":true}`
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/api/generate-qrcode", strings.NewReader(req))
		r.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// Download options (issue 10): a PNG's exact size, a transparent background
// and the error correction level, each still decoding to what was asked.
func TestDownloadOptions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c := e.browser()
		const want = "https://example.com/poster"
		download := func(extra map[string]any) *response {
			fields := map[string]any{"qrType": "url", "url": want, "sessionId": "anon-9"}
			for k, v := range extra {
				fields[k] = v
			}
			return e.do(c, "POST", "/api/download-qrcode", body(t, fields))
		}
		pngOf := func(r *response) *image.NRGBA {
			t.Helper()
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d %s", r.StatusCode, r.body)
			}
			img, err := png.Decode(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			out := image.NewNRGBA(img.Bounds())
			draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
			return out
		}

		for _, tc := range []struct {
			pixels int
			style  map[string]any
		}{{256, nil}, {4096, nil}, {2048, map[string]any{"dotShape": "circle", "cornerShape": "circle"}}} {
			extra := map[string]any{"pixels": tc.pixels}
			maps.Copy(extra, tc.style)
			r := download(extra)
			img := pngOf(r)
			if w := img.Bounds().Dx(); w != tc.pixels {
				t.Errorf("pixels %d: PNG is %d wide", tc.pixels, w)
			}
			if got := dec.read(r.body, "png"); got != want {
				t.Errorf("pixels %d decodes to %q", tc.pixels, got)
			}
		}

		// Transparent: the corner (quiet zone) has no paint, yet the code scans.
		for _, style := range []map[string]any{nil, {"dotShape": "rounded"}} {
			extra := map[string]any{"transparent": true}
			maps.Copy(extra, style)
			r := download(extra)
			if a := pngOf(r).NRGBAAt(1, 1).A; a != 0 {
				t.Errorf("%v: corner alpha %d, want 0", style, a)
			}
			// Placed on white, as it would be printed or laid out.
			if got := dec.read(onWhite(t, pngOf(r)), "png"); got != want {
				t.Errorf("transparent PNG decodes to %q", got)
			}
			opaque := pngOf(download(style))
			if a := opaque.NRGBAAt(1, 1).A; a != 255 {
				t.Errorf("%v: opaque corner alpha %d", style, a)
			}
		}
		svg := download(map[string]any{"format": "svg", "transparent": true})
		if svg.StatusCode != http.StatusOK || strings.Contains(string(svg.body), `fill="#FFFFFF"`) || !strings.Contains(string(svg.body), `fill="none"`) {
			t.Errorf("transparent SVG: %d %s", svg.StatusCode, svg.body)
		}
		if got := dec.read(svg.body, "svg"); got != want {
			t.Errorf("transparent SVG decodes to %q", got)
		}

		// A lower level gives a smaller symbol (fewer modules across) that still scans.
		modules := func(level string) int {
			r := download(map[string]any{"format": "svg", "errorCorrectionLevel": level})
			if r.StatusCode != http.StatusOK {
				t.Fatalf("level %s: %d %s", level, r.StatusCode, r.body)
			}
			if got := dec.read(r.body, "svg"); got != want {
				t.Errorf("level %s decodes to %q", level, got)
			}
			var n int
			if _, err := fmt.Sscanf(string(r.body[bytes.Index(r.body, []byte("viewBox=")):]), `viewBox="0 0 %d`, &n); err != nil {
				t.Fatalf("level %s: no viewBox: %v", level, err)
			}
			return n
		}
		if l, h := modules("L"), modules("h"); l >= h {
			t.Errorf("level L has %d modules across, H %d", l, h)
		}

		before := downloadCount(t, st)
		for _, tc := range []struct {
			extra   map[string]any
			message string
		}{
			{map[string]any{"pixels": 255}, "pixels must be between 256 and 4096"},
			{map[string]any{"pixels": 4097}, "pixels must be between 256 and 4096"},
			{map[string]any{"pixels": -1}, "pixels must be between 256 and 4096"},
			{map[string]any{"pixels": 1024, "format": "svg"}, "pixels sets the size of PNG downloads only"},
			{map[string]any{"pixels": "4096"}, "pixels must be a number"},
			{map[string]any{"pixels": 1e12}, "pixels must be between 256 and 4096"},
			{map[string]any{"transparent": "yes"}, "transparent must be true or false"},
			{map[string]any{"errorCorrectionLevel": "X"}, "errorCorrectionLevel must be L, M, Q or H"},
			{map[string]any{"errorCorrectionLevel": 2}, "errorCorrectionLevel must be a string"},
		} {
			r := download(tc.extra)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(string(r.body), tc.message) {
				t.Errorf("%v: %d %s, want 400 %q", tc.extra, r.StatusCode, r.body, tc.message)
			}
		}
		if after := downloadCount(t, st); after != before {
			t.Errorf("refused downloads were recorded: %d → %d", before, after)
		}
	})
}

// downloadCount counts recorded downloads by probing ids (they are sequential).
func downloadCount(t *testing.T, st *store.Store) int {
	t.Helper()
	n := 0
	for {
		if _, err := st.Download(context.Background(), int64(n+1)); err != nil {
			return n
		}
		n++
	}
}

// onWhite flattens an image onto white and encodes it as PNG.
func onWhite(t *testing.T, img image.Image) []byte {
	t.Helper()
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Over)
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
