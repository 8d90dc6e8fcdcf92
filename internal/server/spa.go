package server

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// spa serves the React app from fsys: files that exist as themselves, and
// index.html for every other path so the client router can answer it
// (its own routes, case-insensitively, and its not-found page). Files under
// /assets/ carry a content hash in their names, so they are cached for good
// and a missing one is a real 404; everything else is revalidated.
func spa(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		immutable := strings.HasPrefix(name, "assets/")
		if serveFile(w, r, fsys, name, immutable) {
			return
		}
		if immutable {
			http.NotFound(w, r)
			return
		}
		if !serveFile(w, r, fsys, "index.html", false) {
			http.Error(w, "index.html is missing from the web app build", http.StatusInternalServerError)
		}
	})
}

// serveFile serves the regular file name, reporting false when there is none.
func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string, immutable bool) bool {
	f, err := fsys.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if immutable {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			return false
		}
		content = bytes.NewReader(data)
	}
	http.ServeContent(w, r, info.Name(), info.ModTime(), content)
	return true
}
