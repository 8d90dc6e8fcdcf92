package server

import (
	"net/http"
	"time"
)

// routes is the table of every route. API routes go on api (paths under
// /api/, JSON in and out); everything else on site. Wrap a handler in
// user(…) to require a signed-in user (401 otherwise), or in
// s.auth.RequireAdmin for admins only (403).
func (s *server) routes() http.Handler {
	user := func(h http.HandlerFunc) http.Handler { return s.auth.RequireUser(h) }

	api := http.NewServeMux()
	// Account and session (spec 01 §7 "Session").
	api.HandleFunc("POST /api/register", s.register)
	api.HandleFunc("POST /api/login", s.login)
	api.HandleFunc("POST /api/logout", s.logout)
	api.Handle("GET /api/user", user(s.currentUser))

	// Generator: previews, downloads, saved static codes, uploads (issue 4).
	api.HandleFunc("POST /api/generate-qrcode", s.generateQRCode)
	api.HandleFunc("POST /api/download-qrcode", s.downloadQRCode)
	api.HandleFunc("POST /api/track-generation", s.trackGeneration)
	api.HandleFunc("GET /api/subdomain-info", s.subdomainInfo)
	api.Handle("POST /api/qrcodes", user(s.createQRCode))
	api.Handle("GET /api/qrcodes", user(s.listQRCodes))
	api.Handle("GET /api/qrcodes/{id}/image", user(s.qrCodeImage))
	api.Handle("POST /api/upload-pdf", user(s.uploadPDF))
	api.HandleFunc("POST /api/upload-image", s.uploadImage(newLimiter(anonUploadsPerHour, time.Hour, s.now)))
	api.Handle("POST /api/upload-logo", user(s.uploadLogo))

	site := http.NewServeMux()
	site.Handle("/api/", s.auth.LoadUser(jsonFallback(api)))
	site.HandleFunc("GET /auth/google", s.auth.GoogleStart)
	site.HandleFunc("GET /auth/google/callback", s.auth.GoogleCallback)
	// Uploaded files and their pages (issue 4).
	site.HandleFunc("GET /logo/{id}", s.serveBlob("logo"))
	site.HandleFunc("GET /pdf/{id}", s.filePageHandler("pdf", "/pdf/"))
	site.HandleFunc("GET /pdf/{id}/file", s.serveBlob("pdf"))
	site.HandleFunc("GET /images/{id}", s.filePageHandler("image", "/images/"))
	site.HandleFunc("GET /images/{id}/file", s.serveBlob("image"))
	site.Handle("/", spa(s.web))

	return s.middleware(site)
}

// jsonFallback serves api, answering paths it does not know with a JSON 404
// and known paths with the wrong method with a JSON 405, where ServeMux
// would answer in plain text.
func jsonFallback(api *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := api.Handler(r)
		if pattern != "" {
			api.ServeHTTP(w, r)
			return
		}
		// ServeMux's own answer tells 404 from 405 and sets Allow.
		probe := &statusProbe{header: w.Header()}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			writeError(w, http.StatusMethodNotAllowed, "Method not allowed")
			return
		}
		writeError(w, http.StatusNotFound, "Not found")
	})
}

// statusProbe is a ResponseWriter that keeps headers and status and drops the body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
