package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/server/respond"
)

// baseURLToken stands for SQUARELY_BASE_URL in the build's prerendered
// pages, sitemap.xml and robots.txt (web/src/app/prerender.tsx): canonical
// links, Open Graph URLs and the sitemap must be absolute.
const baseURLToken = "__SQUARELY_BASE_URL__"

// webApp serves the React app from fsys: files that exist as themselves,
// a prerendered page as dir/index.html for /dir, and the app's shell
// (spa.html, or index.html in a build without prerendered pages) for the
// other paths of the app's pages (web.Routes, the client router's list,
// matched as the router does: case-insensitively, ":name" for any one
// segment, a trailing slash ignored). A route whose pages the build
// prerendered (/blog/:id, one file a post) has those pages only. Every
// other path gets the shell with status 404, so the client router shows its
// not-found page and search engines see no page there: so do the shell
// itself (/spa.html) and a file's name with a trailing slash. Files under /assets/ carry a content hash in
// their names, so they are cached for good and a missing one is a plain
// 404; everything else is revalidated.
//
// Answers are compressed when the client accepts it: assets from the
// gzip and brotli copies the build wrote beside them (NAME.gz, NAME.br),
// pages from a gzip made here at start, once their base URL is filled in.
//
// The shell of a page of the app carries the answers boot gives for its
// request (boot.go), so it is the session's own and never stored, and
// module preloads of the page's code, which the build lists by route
// (route-preloads.json, web/vite.config.ts).
type webApp struct {
	fsys     fs.FS
	pages    map[string]*textFile // HTML, XML and text files, read at start
	fallback string
	routes   [][]string // the app's page paths, split into segments
	boot     func(w http.ResponseWriter, r *http.Request) []byte
	preloads []routePreloads
}

// routePreloads are the <link rel="modulepreload"> elements of a route's
// page, whose path is split into segments as routes are.
type routePreloads struct {
	route []string
	links []byte
}

// preloadFile is a name the build gives a chunk of the app's code: nothing
// else goes into a page's links.
var preloadFile = regexp.MustCompile(`^assets/[A-Za-z0-9._-]+\.js$`)

// readPreloads reads the build's route-preloads.json, route → the files its
// page's code needs beyond the app's entry. A build without it, or with an
// unreadable one, has no preloads: its pages still load their code, later.
func readPreloads(fsys fs.FS) []routePreloads {
	b, err := fs.ReadFile(fsys, "route-preloads.json")
	if err != nil {
		return nil
	}
	var byRoute map[string][]string
	if json.Unmarshal(b, &byRoute) != nil {
		return nil
	}
	var preloads []routePreloads
	for _, route := range slices.Sorted(maps.Keys(byRoute)) {
		var links bytes.Buffer
		for _, file := range byRoute[route] {
			if preloadFile.MatchString(file) {
				fmt.Fprintf(&links, `<link rel="modulepreload" crossorigin href="/%s">`, file)
			}
		}
		if links.Len() > 0 {
			preloads = append(preloads, routePreloads{route: strings.Split(strings.Trim(route, "/"), "/"), links: links.Bytes()})
		}
	}
	return preloads
}

// preloadLinks are the module preloads of the page at name (a cleaned
// path without its leading slash), if the build listed any. Of two routes
// that match, the one with more fixed segments is the page, as the
// client router ranks them.
func (a *webApp) preloadLinks(name string) []byte {
	segments := strings.Split(name, "/")
	var links []byte
	best := -1
	for _, p := range a.preloads {
		if len(p.route) != len(segments) || !matchSegments(p.route, segments) {
			continue
		}
		if fixed := len(p.route) - strings.Count(strings.Join(p.route, "/"), ":"); fixed > best {
			links, best = p.links, fixed
		}
	}
	return links
}

// textFile is a text file of the build with the base URL in place.
type textFile struct {
	plain, gzip []byte
}

func spa(fsys fs.FS, baseURL string, routes []string, boot func(w http.ResponseWriter, r *http.Request) []byte) http.Handler {
	a := &webApp{fsys: fsys, pages: map[string]*textFile{}, fallback: "index.html", boot: boot, preloads: readPreloads(fsys)}
	// A build that cannot be walked serves nothing but its 404s and the
	// fallback's 500, which names the problem.
	fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(name, "assets/") {
			return nil
		}
		switch path.Ext(name) {
		case ".html", ".xml", ".txt":
			if b, err := fs.ReadFile(fsys, name); err == nil {
				a.pages[name] = newTextFile(bytes.ReplaceAll(b, []byte(baseURLToken), []byte(baseURL)))
			}
		}
		return nil
	})
	if _, ok := a.pages["spa.html"]; ok {
		a.fallback = "spa.html"
	}
	for _, route := range routes {
		segments := strings.Split(strings.Trim(route, "/"), "/")
		if !a.prerendered(segments) {
			a.routes = append(a.routes, segments)
		}
	}
	return a
}

// prerendered reports whether the build holds pages of a route with a
// ":name" segment, which then has those pages only.
func (a *webApp) prerendered(route []string) bool {
	if !strings.Contains(strings.Join(route, "/"), ":") {
		return false
	}
	for name := range a.pages {
		if dir, ok := strings.CutSuffix(name, "/index.html"); ok {
			if segments := strings.Split(dir, "/"); len(segments) == len(route) && matchSegments(route, segments) {
				return true
			}
		}
	}
	return false
}

// negotiate picks the copy of p the client takes: its bytes and their
// Content-Encoding ("" = plain). A file with a gzip copy varies by
// Accept-Encoding.
func (p *textFile) negotiate(w http.ResponseWriter, r *http.Request) ([]byte, string) {
	if p.gzip == nil {
		return p.plain, ""
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
		return p.gzip, "gzip"
	}
	return p.plain, ""
}

func newTextFile(b []byte) *textFile {
	p := &textFile{plain: b}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	zw.Write(b)
	zw.Close()
	if buf.Len() < len(b) {
		p.gzip = buf.Bytes()
	}
	return p
}

func (a *webApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if strings.HasPrefix(name, "assets/") {
		if !a.serveFile(w, r, name, true) {
			http.NotFound(w, r)
		}
		return
	}
	// The shell has no page of its own, and a file is not a directory.
	asFile := name == "index.html" || (name != "spa.html" && !strings.HasSuffix(r.URL.Path, "/"))
	if (asFile && a.serveFile(w, r, name, false)) || a.serveFile(w, r, path.Join(name, "index.html"), false) {
		return
	}
	if !a.isRoute(name) {
		a.serveNotFound(w, r)
		return
	}
	if !a.serveShell(w, r, name) {
		http.Error(w, "index.html is missing from the web app build", http.StatusInternalServerError)
	}
}

// serveShell answers with the app's shell for its page at name, with the
// page's module preloads before its </head> and the answers boot gives for
// r before its </body>, reporting false when the build has no shell.
func (a *webApp) serveShell(w http.ResponseWriter, r *http.Request, name string) bool {
	p, ok := a.pages[a.fallback]
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("Vary", "Cookie")
	page := p.plain
	if links := a.preloadLinks(name); links != nil {
		if i := bytes.Index(page, []byte("</head>")); i >= 0 {
			page = slices.Concat(page[:i], links, page[i:])
		}
	}
	if a.boot != nil {
		if i := bytes.LastIndex(page, []byte("</body>")); i >= 0 {
			page = slices.Concat(page[:i], a.boot(w, r), page[i:])
		}
	}
	if r.Method == http.MethodHead {
		return true
	}
	if len(page) >= respond.CompressedMin {
		h.Add("Vary", "Accept-Encoding")
		if acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			respond.WriteGzipped(w, page)
			return true
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.Write(page)
	return true
}

// isRoute reports whether name (a cleaned path without its leading slash)
// is the path of one of the app's pages.
func (a *webApp) isRoute(name string) bool {
	segments := strings.Split(name, "/")
	for _, route := range a.routes {
		if len(route) == len(segments) && matchSegments(route, segments) {
			return true
		}
	}
	return false
}

func matchSegments(route, segments []string) bool {
	for i, part := range route {
		if !strings.HasPrefix(part, ":") && !strings.EqualFold(part, segments[i]) {
			return false
		}
	}
	return true
}

// serveNotFound answers 404 with the app's shell, which shows the not-found
// page. ServeContent cannot send a 404, and a range of a 404 makes no sense.
func (a *webApp) serveNotFound(w http.ResponseWriter, r *http.Request) {
	p, ok := a.pages[a.fallback]
	if !ok {
		http.Error(w, "index.html is missing from the web app build", http.StatusInternalServerError)
		return
	}
	body, encoding := p.negotiate(w, r)
	if encoding != "" {
		w.Header().Set("Content-Encoding", encoding)
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// serveFile serves name, compressed when the client takes it, reporting
// false when there is no such regular file.
func (a *webApp) serveFile(w http.ResponseWriter, r *http.Request, name string, immutable bool) bool {
	accept := r.Header.Get("Accept-Encoding")
	if p, ok := a.pages[name]; ok {
		body, encoding := p.negotiate(w, r)
		serveBytes(w, r, name, encoding, immutable, bytes.NewReader(body))
		return true
	}
	if !a.isFile(name) {
		return false
	}
	sent, encoding := name, ""
	hasBr, hasGzip := a.isFile(name+".br"), a.isFile(name+".gz")
	switch {
	case hasBr && acceptsEncoding(accept, "br"):
		sent, encoding = name+".br", "br"
	case hasGzip && acceptsEncoding(accept, "gzip"):
		sent, encoding = name+".gz", "gzip"
	}
	if hasBr || hasGzip {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	f, err := a.fsys.Open(sent)
	if err != nil {
		return false
	}
	defer f.Close()
	content, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			return false
		}
		content = bytes.NewReader(data)
	}
	serveBytes(w, r, name, encoding, immutable, content)
	return true
}

func (a *webApp) isFile(name string) bool {
	info, err := fs.Stat(a.fsys, name)
	return err == nil && info.Mode().IsRegular()
}

// serveBytes answers with content, the file name's bytes in encoding ("" =
// as they are). The type comes from the name, since encoded bytes cannot
// be sniffed.
func serveBytes(w http.ResponseWriter, r *http.Request, name, encoding string, immutable bool, content io.ReadSeeker) {
	if immutable {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	if encoding != "" {
		w.Header().Set("Content-Encoding", encoding)
	}
	// No modification time: embedded files have none, and the hashed names
	// and no-cache revalidation do the caching.
	http.ServeContent(w, r, name, time.Time{}, content)
}
