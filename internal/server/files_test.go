package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

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
		if !bytes.Equal(r.body, imgData) || r.Header.Get("Content-Disposition") != `inline; filename*=utf-8''%C3%A9t%C3%A9.png` {
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

		// Wrong kinds and unknown ids are 404; words are the app's pages.
		for _, path := range []string{"/images/" + pdfID, "/images/" + pdfID + "/file", "/pdf/" + imgID, "/pdf/" + imgID + "/file",
			"/logo/" + pdfID, "/logo/999", "/pdf/999"} {
			if r := e.do(visitor, "GET", path, ""); r.StatusCode != http.StatusNotFound || r.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s: status %d", path, r.StatusCode)
			}
		}
		if r := e.do(visitor, "GET", "/pdf/preview", ""); r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), "<title>app</title>") {
			t.Errorf("/pdf/preview is not the app: %d %s", r.StatusCode, r.body)
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
		if !strings.Contains(pausedPage, `<div class="brand">`) || !strings.Contains(filePageSource(t), scanPageBrand) {
			t.Error("the paused and file pages do not carry the product's header")
		}
	})
}

// filePageSource renders the file page template with sample values.
func filePageSource(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	if err := filePage.Execute(&b, map[string]any{"Title": "T", "Description": "D", "PDF": false, "FileURL": "/images/1/file", "FileName": "f.png"}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
