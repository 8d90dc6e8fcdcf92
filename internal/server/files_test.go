package server

import (
	"bytes"
	"context"
	"image/color"
	"net/http"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// checkFileHeaders checks what every served upload carries.
func checkFileHeaders(t *testing.T, r *response, contentType string) {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d: %s", r.Request.URL.Path, r.StatusCode, r.body)
	}
	if ct := r.Header.Get("Content-Type"); ct != contentType {
		t.Errorf("%s: Content-Type %q, want %q", r.Request.URL.Path, ct, contentType)
	}
	if r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: no nosniff", r.Request.URL.Path)
	}
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.HasPrefix(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
		t.Errorf("%s: CSP %q", r.Request.URL.Path, csp)
	}
}

func TestServeFiles(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("files@example.com")
		const doc = "%PDF-1.4\n% test\n%%EOF\n"
		pdf := expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", doc, "menu.pdf"},
			part{"pdfTitle", `<script>alert("t")</script> Menu`, ""}, part{"pdfDescription", `Tom & Jerry's "café"`, ""}), http.StatusCreated, "")
		pdfID := itoa(int64(pdf["id"].(float64)))
		imgData := pngBytes(t, 6, 6)
		img := expect(t, e.postForm(c, "/api/upload-image", part{"imageFile", string(imgData), "été.png"}, part{"imageTitle", "Photo", ""}), http.StatusCreated, "")
		imgID := itoa(int64(img["id"].(float64)))
		logo := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(imgData), "logo.png"}), http.StatusCreated, "")
		logoID := itoa(int64(logo["id"].(float64)))

		visitor := e.browser() // files are public
		r := e.do(visitor, "GET", "/pdf/"+pdfID+"/file", "")
		checkFileHeaders(t, r, "application/pdf")
		if string(r.body) != doc || r.Header.Get("Content-Disposition") != `inline; filename=menu.pdf` {
			t.Errorf("pdf file: %q, %q", r.body, r.Header.Get("Content-Disposition"))
		}
		r = e.do(visitor, "GET", "/images/"+imgID+"/file", "")
		checkFileHeaders(t, r, "image/png")
		storedImg, err := st.Blob(context.Background(), int64(img["id"].(float64)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.body, storedImg.Data) || r.Header.Get("Content-Disposition") != `inline; filename*=utf-8''%C3%A9t%C3%A9.png` {
			t.Errorf("image file: %d bytes, %q", len(r.body), r.Header.Get("Content-Disposition"))
		}
		r = e.do(visitor, "GET", "/logo/"+logoID, "")
		checkFileHeaders(t, r, "image/png")
		etag := r.Header.Get("ETag")
		if !bytes.Equal(r.body, imgData) || etag == "" || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("logo: %d bytes, ETag %q, Cache-Control %q", len(r.body), etag, r.Header.Get("Cache-Control"))
		}
		if r := e.do(visitor, "GET", "/logo/"+logoID, "", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match: status %d", r.StatusCode)
		}
		r = e.do(visitor, "GET", "/pdf/"+pdfID+"/file", "", "Range", "bytes=0-4")
		if r.StatusCode != http.StatusPartialContent || string(r.body) != "%PDF-" {
			t.Errorf("Range: status %d, %q", r.StatusCode, r.body)
		}

		// The pages escape what the uploader typed and show the file.
		r = e.do(visitor, "GET", "/pdf/"+pdfID, "")
		checkFileHeaders(t, r, "text/html; charset=utf-8")
		page := string(r.body)
		for _, want := range []string{
			`<title>&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt; Menu</title>`,
			`Tom &amp; Jerry&#39;s &#34;café&#34;`,
			`<iframe src="/pdf/` + pdfID + `/file"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("pdf page lacks %s:\n%s", want, page)
			}
		}
		if strings.Contains(page, "<script>") {
			t.Error("pdf page holds a script tag")
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self'") {
			t.Errorf("the page cannot frame its PDF: %q", csp)
		}
		r = e.do(visitor, "GET", "/images/"+imgID, "")
		checkFileHeaders(t, r, "text/html; charset=utf-8")
		if !strings.Contains(string(r.body), `<img src="/images/`+imgID+`/file" alt="Photo">`) {
			t.Errorf("image page:\n%s", r.body)
		}

		// Wrong kinds and unknown ids are 404; words go to the app.
		for _, path := range []string{"/images/" + pdfID, "/images/" + pdfID + "/file", "/pdf/" + imgID, "/pdf/" + imgID + "/file",
			"/logo/" + pdfID, "/logo/999", "/pdf/999"} {
			if r := e.do(visitor, "GET", path, ""); r.StatusCode != http.StatusNotFound || r.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s: status %d", path, r.StatusCode)
			}
		}
		// A word is no file id: the app answers it, and since no route of
		// the app is /pdf/preview, with its not-found page and status 404.
		if r := e.do(visitor, "GET", "/pdf/preview", ""); r.StatusCode != http.StatusNotFound || !strings.Contains(string(r.body), "<title>app</title>") {
			t.Errorf("/pdf/preview is not the app's not-found page: %d %s", r.StatusCode, r.body)
		}
	})
}

// The pages a scan can land on carry the product's name and inline style,
// and ask for nothing from anywhere else (issue 10).
func TestScanPagesLookLikeTheProduct(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		r := e.scan("NoSuchCode", iPhoneUA)
		expectPage(t, r, http.StatusNotFound, "404 Page Not Found")
		page := string(r.body)
		for _, want := range []string{`<div class="brand">`, "Squarely", "<style>", `name="viewport"`} {
			if !strings.Contains(page, want) {
				t.Errorf("the unknown-code page lacks %q", want)
			}
		}
		for _, outside := range []string{"src=", "href=", "url(", "@import"} {
			if strings.Contains(page, outside) {
				t.Errorf("the unknown-code page refers elsewhere (%q): %s", outside, page)
			}
		}
	})
}

// The pages of a code whose owner belongs to a white-label client wear the
// client's name and colours (escaped); a plain user's wear the product's.
// An unknown code wears the brand of the host it was scanned on.
func TestScanPagesWearTheOwnersBrand(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		admin := e.admin("admin@example.com")
		expect(t, e.do(admin, "POST", "/api/white-label/clients",
			`{"name":"Acme <Menus> & Co","subdomain":"acme","primaryColor":"#C0FFEE","secondaryColor":"#123456"}`), http.StatusCreated, "")
		port := e.srv.URL[strings.LastIndexByte(e.srv.URL, ':'):]
		// A client's account signs in on its client's host.
		member := e.browser()
		member.Transport = onHostTransport{"acme.localhost" + port, member.Transport}
		e.register(member, "member@acme.test", "secret1")
		plain, _ := e.signedIn("plain@example.com")

		// pages answers the paused page, the password page and the pdf
		// page of a code of c's.
		pages := func(c *http.Client) map[string]*response {
			t.Helper()
			paused := e.createDynamic(c, "https://example.com/paused")
			expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(paused)+"/pause", ""), http.StatusOK, "")
			locked := e.createDynamic(c, "https://example.com/locked")
			expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(locked)+"/password", `{"password":"secret1"}`), http.StatusOK, "")
			pdf := expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", "%PDF-1.4\n%%EOF\n", "m.pdf"}), http.StatusCreated, "")
			return map[string]*response{
				"paused":   e.scan(paused["shortCode"].(string), iPhoneUA),
				"password": e.scan(locked["shortCode"].(string), iPhoneUA),
				"pdf":      e.do(e.browser(), "GET", "/pdf/"+idOf(pdf), ""),
			}
		}
		const acmeHeader = `<i></i>Acme &lt;Menus&gt; &amp; Co</div>`
		for name, r := range pages(member) {
			page := string(r.body)
			if !strings.Contains(page, acmeHeader) || !strings.Contains(page, "#C0FFEE") || !strings.Contains(page, "#123456") {
				t.Errorf("the client member's %s page lacks the client's name or colours:\n%s", name, page)
			}
			if strings.Contains(page, "Squarely") || strings.Contains(page, appPrimaryColor) {
				t.Errorf("the client member's %s page shows the product's brand:\n%s", name, page)
			}
		}
		for name, r := range pages(plain) {
			page := string(r.body)
			if !strings.Contains(page, `<i></i>Squarely</div>`) || !strings.Contains(page, appPrimaryColor) || strings.Contains(page, "Acme") {
				t.Errorf("the plain user's %s page does not show the product's brand:\n%s", name, page)
			}
		}
		unknown := e.onHost(e.browser(), "acme.localhost"+port, "GET", "/d/NoSuchCode", "")
		if unknown.StatusCode != http.StatusNotFound || !strings.Contains(string(unknown.body), acmeHeader) {
			t.Errorf("unknown code on the client's host: %d %s", unknown.StatusCode, unknown.body)
		}
	})
}

func TestBrandOfRefusesMalformedColours(t *testing.T) {
	c := &store.Client{ID: 7, Name: "X", IsActive: true, PrimaryColor: "red;}body{display:none", SecondaryColor: "#000000"}
	if b := brandOf(c); b.Primary != productBrand.Primary || b.Secondary != productBrand.Secondary || b.Name != "X" {
		t.Errorf("brandOf a malformed colour = %+v", b)
	}
	c.PrimaryColor = "#ABCDEF"
	if b := brandOf(c); b.Primary != "#ABCDEF" || b.Secondary != "#000000" {
		t.Errorf("brandOf = %+v", b)
	}
	c.IsActive = false
	if b := brandOf(c); b != productBrand {
		t.Errorf("an inactive client's brand = %+v", b)
	}
}

// TestScanPageContrast: the scan pages' links and button text meet WCAG
// AA (4.5:1) on their backgrounds — the product's pages in the app's blue
// with white text, a client's light or dark colours with ink or white —
// and the page's CSS uses those colours, with phone margins.
func TestScanPageContrast(t *testing.T) {
	white, page := color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0xf8, 0xfa, 0xfc, 0xff} // #f8fafc
	ratio := func(a, b string) float64 {
		ca, err := render.ParseColor(a)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := render.ParseColor(b)
		if err != nil {
			t.Fatal(err)
		}
		return render.Contrast(ca, cb)
	}
	if productBrand.Primary != "#2563EB" || productBrand.OnPrimary != "#FFFFFF" || productBrand.Link != "#2563EB" {
		t.Errorf("the product's scan brand %+v, want the app's blue #2563EB with white text", productBrand)
	}
	for _, c := range []struct{ primary, secondary, link, onPrimary string }{
		{"#3B82F6", "#1E40AF", "#1E40AF", inkColor}, // the white-label default: white on it is 3.68:1
		{"#C0FFEE", "#123456", "#123456", inkColor},
		{"#FFEE00", "#FFFF99", inkColor, inkColor},
		{"#7C3AED", "#000000", "#7C3AED", whiteColor},
	} {
		b := brandOf(&store.Client{ID: 7, Name: "X", IsActive: true, PrimaryColor: c.primary, SecondaryColor: c.secondary})
		if b.Link != c.link || b.OnPrimary != c.onPrimary {
			t.Errorf("%s/%s: link %s, button text %s; want %s, %s", c.primary, c.secondary, b.Link, b.OnPrimary, c.link, c.onPrimary)
		}
		for _, bg := range []color.RGBA{white, page} {
			l, _ := render.ParseColor(b.Link)
			if r := render.Contrast(l, bg); r < minTextContrast {
				t.Errorf("%s: link %s on %v is %.2f:1", c.primary, b.Link, bg, r)
			}
		}
		if r := ratio(b.OnPrimary, b.Primary); r < minTextContrast {
			t.Errorf("%s: button text %s is %.2f:1", c.primary, b.OnPrimary, r)
		}
	}
	var buf bytes.Buffer
	if err := scanPages.ExecuteTemplate(&buf, "notice", notice{Title: "t", Heading: "h", Text: "x", Form: true, Brand: productBrand}); err != nil {
		t.Fatal(err)
	}
	css := buf.String()
	for _, want := range []string{"a{color:#2563EB}", "background:#2563EB;color:#FFFFFF", "@media (max-width:480px){main{padding:16px 12px}.notice{margin:16px 12px 0;"} {
		if !strings.Contains(css, want) {
			t.Errorf("the page's CSS lacks %q:\n%s", want, css)
		}
	}
}

// onHostTransport sends every request as if it came by host.
type onHostTransport struct {
	host string
	rt   http.RoundTripper
}

func (h onHostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.rt.RoundTrip(r)
}
