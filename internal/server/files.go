package server

import (
	"bytes"
	"errors"
	"html/template"
	"mime"
	"net/http"
	"regexp"
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

// placeholderPage is an {id} of the app's placeholder pages (/pdf/preview).
var placeholderPage = regexp.MustCompile(`^[a-z]{1,32}$`)

// CSPs: a bare file allows only what a browser's own image or PDF viewer
// needs; a page may also frame its PDF from our origin.
const (
	blobCSP     = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'"
	filePageCSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-src 'self'; object-src 'self'; frame-ancestors 'none'"
)

// blobOfKind fetches the blob named by the {id} path value, with its data
// or without, if it is of kind. A word of letters is left to the React app
// (its placeholder pages, such as /pdf/preview); a missing blob, or an id
// that is neither, is 404.
func (s *server) blobOfKind(w http.ResponseWriter, r *http.Request, kind string, withData bool) *store.Blob {
	raw := r.PathValue("id")
	id, ok := parseID(raw)
	if !ok && placeholderPage.MatchString(raw) {
		s.app().ServeHTTP(w, r)
		return nil
	}
	var b *store.Blob
	var err error
	if ok {
		fetch := s.store.BlobInfo
		if withData {
			fetch = s.store.Blob
		}
		b, err = fetch(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "fetching a file", "err", err)
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
// The data is read from the database a chunk at a time as it is sent
// (store.BlobReader), never whole: a 304 or HEAD reads none of it.
func (s *server) serveBlob(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if kind == "image" && r.URL.Query().Has("w") {
			s.serveScaled(w, r)
			return
		}
		b := s.blobOfKind(w, r, kind, false)
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
		data := s.store.BlobReader(r.Context(), b)
		http.ServeContent(w, r, "", b.CreatedAt, data)
		// The headers are sent by now: a failed read cuts the body short
		// (shorter than its Content-Length), which is all a client can be told.
		if err := data.Err(); err != nil && r.Context().Err() == nil {
			s.log.ErrorContext(r.Context(), "internal error", "doing", "sending a file", "err", err)
		}
	}
}

// filePage is the page a pdf or images code opens, in the look of the
// other scan pages (scanpages.go).
var filePage = template.Must(template.Must(scanPages.Clone()).New("file").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
{{template "style" .Brand}}
iframe { width: 100%; height: 80vh; border: 1px solid #e5e7eb; border-radius: 8px; background: #fff; }
img { display: block; max-width: 100%; height: auto; margin: 0 auto; border-radius: 8px; }
</style>
</head>
<body>
{{template "brand" .Brand}}
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
			"Brand":       s.blobBrand(r, b),
		})
		if err != nil {
			s.log.ErrorContext(r.Context(), "internal error", "doing", "rendering a file page", "err", err)
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

// blobBrand is the brand of a file page: its uploader's client, or the
// host's for an upload made without an account.
func (s *server) blobBrand(r *http.Request, b *store.Blob) scanBrand {
	if b.OwnerID == nil {
		return s.hostBrand(r)
	}
	u, err := s.store.User(r.Context(), *b.OwnerID)
	if err != nil {
		s.log.ErrorContext(r.Context(), "reading a file's owner for its page", "err", err)
		return productBrand
	}
	return s.clientBrand(r.Context(), u.ClientID)
}
