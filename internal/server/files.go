package server

import (
	"bytes"
	"errors"
	"html/template"
	"mime"
	"net/http"
	"strconv"

	"github.com/squarely/squarely/internal/store"
)

// Uploaded files are public by design: the pdf and images pages are what a
// printed code opens, and a saved code's logo is shown wherever the code is.
// Their ids are the blobs' ids, random below 2^53 so nobody can count
// through other people's uploads, and never reused, so a printed link
// cannot come to show another upload. Everything is served
// with the type the server sniffed at upload, nosniff, and a CSP without
// script, so no upload can run code on our origin.

// CSPs: a bare file allows only what a browser's own image or PDF viewer
// needs; a page may also frame its PDF from our origin.
const (
	blobCSP     = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'"
	filePageCSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-src 'self'; object-src 'self'; frame-ancestors 'none'"
)

// blobOfKind fetches the blob named by the {id} path value, with its data
// or without, if it is of kind. An id that is not a number is left to the
// React app (its placeholder pages, such as /pdf/preview); a missing blob
// is 404.
func (s *server) blobOfKind(w http.ResponseWriter, r *http.Request, kind string, withData bool) *store.Blob {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		s.app().ServeHTTP(w, r)
		return nil
	}
	fetch := s.store.BlobInfo
	if withData {
		fetch = s.store.Blob
	}
	b, err := fetch(r.Context(), id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("internal error", "doing", "fetching a file", "err", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return nil
	}
	if b == nil || b.Kind != kind {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.Error(w, "File not found", http.StatusNotFound)
		return nil
	}
	return b
}

// serveBlob answers the file itself, inline, with range and conditional
// request support. An id's content never changes, so it is cached for good.
func (s *server) serveBlob(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b := s.blobOfKind(w, r, kind, true)
		if b == nil {
			return
		}
		h := w.Header()
		h.Set("Content-Type", b.ContentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", blobCSP)
		// FormatMediaType gives "" for a name it cannot encode.
		h.Set("Content-Disposition", orDefault(mime.FormatMediaType("inline", map[string]string{"filename": orDefault(b.FileName, "file")}), "inline"))
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", `"`+b.SHA256+`"`)
		http.ServeContent(w, r, "", b.CreatedAt, bytes.NewReader(b.Data))
	}
}

// scanPageCSS is the look of every page a scan can land on (file pages,
// paused and unknown codes): the product's name and colours, readable on a
// phone, inline so the pages make no other request (their CSP allows only
// inline style).
const scanPageCSS = `body{margin:0;font-family:system-ui,-apple-system,sans-serif;color:#0f172a;background:#f8fafc;line-height:1.5}
.brand{display:flex;align-items:center;gap:8px;padding:14px 16px;background:#fff;border-bottom:1px solid #e2e8f0;font-weight:700;font-size:1.05rem;color:#0f172a}
.brand i{display:inline-block;width:22px;height:22px;border-radius:6px;background:linear-gradient(135deg,#3b82f6,#1e40af)}
main{max-width:960px;margin:0 auto;padding:24px 16px}
.notice{max-width:32rem;margin:10vh auto 0;padding:28px 20px;text-align:center;background:#fff;border:1px solid #e2e8f0;border-radius:16px}
h1{font-size:1.5rem;margin:0 0 8px;overflow-wrap:anywhere}
p{margin:0 0 16px;white-space:pre-line;overflow-wrap:anywhere;color:#334155}
a{color:#3b82f6}`

// scanPageBrand is the header naming the product on those pages.
const scanPageBrand = `<div class="brand"><i></i>Squarely</div>`

var filePage = template.Must(template.New("file").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
` + scanPageCSS + `
iframe { width: 100%; height: 80vh; border: 1px solid #e5e7eb; border-radius: 8px; background: #fff; }
img { display: block; max-width: 100%; height: auto; margin: 0 auto; border-radius: 8px; }
</style>
</head>
<body>
` + scanPageBrand + `
<main>
<h1>{{.Title}}</h1>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .PDF}}<iframe src="{{.FileURL}}" title="{{.Title}}"></iframe>{{else}}<img src="{{.FileURL}}" alt="{{.Title}}">{{end}}
<p><a href="{{.FileURL}}" download="{{.FileName}}">Download {{.FileName}}</a></p>
</main>
</body>
</html>
`))

// filePageHandler answers the page a pdf or images code opens: the
// upload's title and description (escaped) and the file.
func (s *server) filePageHandler(kind, prefix string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b := s.blobOfKind(w, r, kind, false)
		if b == nil {
			return
		}
		name := orDefault(b.FileName, "file")
		var buf bytes.Buffer
		err := filePage.Execute(&buf, map[string]any{
			"Title":       orDefault(b.Title, name),
			"Description": b.Description,
			"PDF":         kind == "pdf",
			"FileURL":     prefix + strconv.FormatInt(b.ID, 10) + "/file",
			"FileName":    name,
		})
		if err != nil {
			s.log.Error("internal error", "doing", "rendering a file page", "err", err)
			http.Error(w, "Internal server error", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", filePageCSP)
		h.Set("Cache-Control", "no-cache")
		w.Write(buf.Bytes())
	}
}
