package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/store"
)

// Limits on what generation records keep.
const (
	maxSessionID = 100
	maxUserAgent = 512
	maxReferrer  = 2048
	maxContent   = 8000 // bytes; more than any QR code holds
)

// Preview sizes a request may ask for, in pixels.
const (
	minPreviewPixels = 64
	maxPreviewPixels = 1200
	// A visitor's download is at most 3 × 640 = 1920 px: a styled PNG is
	// drawn in RGBA, and 3600 px would cost about 80 MB per request.
	maxDownloadPreview = 640
	// A PNG download may instead ask for its exact size (issue 10). 4096 px
	// is a poster at 300 dpi; a styled code is drawn in RGBA, about 64 MB at
	// that size, so the renderer's concurrency cap bounds the total.
	minDownloadPixels = 256
	maxDownloadPixels = 4096
)

// generateRequest is the JSON body of generate-qrcode and download-qrcode:
// the type's fields and the style fields travel flat beside these.
type generateRequest struct {
	QRType       string `json:"qrType"`
	LogoID       *int64 `json:"logoId"`
	ScanTracking bool   `json:"scanTracking"`
	Temporary    bool   `json:"temporary"`
	SessionID    string `json:"sessionId"`
	Size         int    `json:"size"`
	Format       string `json:"format"`       // download only
	GenerationID *int64 `json:"generationId"` // download only
	// Download options (issue 10): the PNG's exact pixel size, no
	// background, and the error correction level when no logo forces H.
	Pixels               int    `json:"pixels"`
	Transparent          bool   `json:"transparent"`
	ErrorCorrectionLevel string `json:"errorCorrectionLevel"`
	// Print output (issue 26): physical size, PNG density, CMYK.
	SizeMm     float64 `json:"sizeMm"`
	DPI        int     `json:"dpi"`
	ColorSpace string  `json:"colorSpace"`
	// Preflight only (issue 26): the reader's distance, and whether a size
	// that will not scan is a 400.
	DistanceCm float64 `json:"distanceCm"`
	Strict     bool    `json:"strict"`
	// A brand kit of the workspace (issue 26): the style fields left empty,
	// and the logo when logoId is absent, are the kit's.
	BrandKit *int64 `json:"brandKit"`

	style codes.Style
	raw   map[string]json.RawMessage // every member, for the type fields
}

func (g *generateRequest) UnmarshalJSON(b []byte) error {
	type plain generateRequest // without this method
	if err := json.Unmarshal(b, (*plain)(g)); err != nil {
		return err
	}
	// Decoded on its own, so a type error names the field as sent.
	if err := json.Unmarshal(b, &g.style); err != nil {
		return err
	}
	return json.Unmarshal(b, &g.raw)
}

// readGenerateRequest reads a generate-qrcode or download-qrcode body:
// the code request (a type field of the wrong JSON type is 400), the
// preview size in pixels (default 320) and the session id. On failure it
// has answered.
func (s *server) readGenerateRequest(w http.ResponseWriter, r *http.Request) (*generateRequest, codes.Request, int, bool) {
	g := new(generateRequest)
	if !decodeJSON(w, r, g) {
		return nil, codes.Request{}, 0, false
	}
	t := strings.TrimSpace(g.QRType)
	fields, fe := jsonTypeFields(g.raw, t)
	if len(fe) > 0 {
		writeRefused(w, codes.FieldsRefused(t, fe))
		return nil, codes.Request{}, 0, false
	}
	pixels := g.Size
	switch {
	case pixels == 0:
		pixels = codes.PreviewPixels
	case pixels < minPreviewPixels || pixels > maxPreviewPixels:
		fieldError(w, "size", "size must be between 64 and 1200 pixels")
		return nil, codes.Request{}, 0, false
	}
	if !checkSessionID(w, g.SessionID) {
		return nil, codes.Request{}, 0, false
	}
	if g.BrandKit != nil {
		k, st, ok := s.workspaceKit(w, r, strconv.FormatInt(*g.BrandKit, 10))
		if !ok {
			return nil, codes.Request{}, 0, false
		}
		style, err := kitUnderJSON(st, g.raw)
		if err != nil {
			s.internalError(w, "applying a brand kit", err)
			return nil, codes.Request{}, 0, false
		}
		g.style = style
		if g.LogoID == nil {
			g.LogoID = k.LogoID
		}
	}
	req := codes.Request{
		Kind: codes.Generated, QRType: t, Fields: fields, Style: g.style, LogoID: g.LogoID,
		ScanTracking: g.ScanTracking, Temporary: g.Temporary,
	}
	return g, req, pixels, true
}

// checkSessionID refuses an overlong anonymous id.
func checkSessionID(w http.ResponseWriter, id string) bool {
	if utf8.RuneCountInString(id) > maxSessionID {
		fieldError(w, "sessionId", "sessionId must be at most 100 characters")
		return false
	}
	return true
}

// generateQRCode (POST /api/generate-qrcode) renders the form as SVG for
// the preview and, unless it is a temporary preview, records the generation.
func (s *server) generateQRCode(w http.ResponseWriter, r *http.Request) {
	in, req, pixels, ok := s.readGenerateRequest(w, r)
	if !ok {
		return
	}
	u := auth.UserFrom(r.Context())
	if !s.admitPreview(w, r, u) || (!in.Temporary && !s.admitRecord(w, r, u)) {
		return
	}
	p, ok := s.prepare(w, r, req)
	if !ok {
		return
	}
	svg := s.renderCode(w, r, p.Data, p.Style, codes.Options{Format: codes.SVG, Level: codes.StaticLevel, Pixels: pixels, Logo: p.LogoData()})
	if svg == nil {
		return
	}
	out := map[string]any{"qrCode": string(svg), "data": p.Data}
	if !in.Temporary {
		g := &store.Generation{
			CodeEvent:       s.codeEvent(r, u, in.SessionID, p),
			ForegroundColor: p.Style.FgColor,
			BackgroundColor: p.Style.BgColor,
			GeneratedAt:     s.now(),
		}
		if err := s.store.CreateGeneration(r.Context(), g); err != nil {
			s.internalError(w, "recording a generation", err)
			return
		}
		out["id"] = g.ID
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// codeEvent describes who asked for p, for generation and download records.
func (s *server) codeEvent(r *http.Request, u *store.User, sessionID string, p *codes.Prepared) store.CodeEvent {
	return store.CodeEvent{
		UserID:    ownerOf(u),
		SessionID: strings.TrimSpace(sessionID),
		IPAddress: clientIP(r),
		UserAgent: truncate(r.UserAgent(), maxUserAgent),
		Referrer:  truncate(r.Referer(), maxReferrer),
		QRType:    p.QRType,
		Content:   p.Data,
		HasLogo:   p.Logo != nil,
		Details:   typeDetails(p),
	}
}

// checkFilePixels is why a PNG's exact width n (download-qrcode's pixels,
// the image routes' ?pixels=) is refused, or "": PNG only, 256-4096, and
// not with a print size, which sets the pixels itself.
func checkFilePixels(n int, f codes.Format, p codes.Print) string {
	switch {
	case p.SizeMm != 0:
		return "Set either pixels or sizeMm, not both"
	case f != codes.PNG:
		return "pixels sets the size of PNG downloads only"
	case n < minDownloadPixels || n > maxDownloadPixels:
		return fmt.Sprintf("pixels must be between %d and %d", minDownloadPixels, maxDownloadPixels)
	}
	return ""
}

// downloadQRCode (POST /api/download-qrcode) answers the code as a file
// and records the download. With generationId it encodes exactly what that
// generation encoded (a payment code keeps its product); the generation must
// be the caller's (same user, or same anonymous session).
func (s *server) downloadQRCode(w http.ResponseWriter, r *http.Request) {
	in, req, pixels, ok := s.readGenerateRequest(w, r)
	if !ok {
		return
	}
	format := codes.PNG
	if in.Format != "" {
		f, ok := codes.ParseFormat(in.Format)
		if !ok {
			fieldError(w, "format", codes.FormatMessage)
			return
		}
		format = f
	}
	cmyk, ok := codes.ParseColorSpace(in.ColorSpace)
	if !ok {
		fieldError(w, "colorSpace", codes.ColorSpaceMessage)
		return
	}
	printOpt := codes.Print{SizeMm: in.SizeMm, DPI: in.DPI, CMYK: cmyk}
	if err := printOpt.Check(format); err != nil {
		renderRefused(w, err)
		return
	}
	if pixels > maxDownloadPreview {
		fieldError(w, "size", "size must be between 64 and 640 pixels for a download")
		return
	}
	filePixels := pixels * codes.DownloadScale
	if in.Pixels != 0 {
		if msg := checkFilePixels(in.Pixels, format, printOpt); msg != "" {
			fieldError(w, "pixels", msg)
			return
		}
		filePixels = in.Pixels
	}
	level := codes.StaticLevel
	if raw := strings.TrimSpace(in.ErrorCorrectionLevel); raw != "" {
		l, ok := qr.ParseLevel(raw)
		if !ok {
			fieldError(w, "errorCorrectionLevel", "errorCorrectionLevel must be L, M, Q or H")
			return
		}
		level = l
	}
	u := auth.UserFrom(r.Context())
	if !s.admitPreview(w, r, u) || !s.admitRecord(w, r, u) {
		return
	}
	var gen *store.Generation
	if in.GenerationID != nil {
		g, err := s.store.Generation(r.Context(), *in.GenerationID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.internalError(w, "fetching a generation", err)
			return
		}
		if g == nil || !generationOf(g, u, in.SessionID) {
			writeError(w, http.StatusNotFound, "Generation not found")
			return
		}
		if g.QRType != req.QRType {
			fieldError(w, "generationId", "The generation is of another QR code type")
			return
		}
		gen = g
	}
	// A download is never a preview, but with a generation Prepare only
	// checks: the generation made the code (and any payment product).
	req.Temporary = gen != nil
	p, ok := s.prepare(w, r, req)
	if !ok {
		return
	}
	if gen != nil {
		p.Data = gen.Content
	}
	if p.Logo != nil {
		level = qr.H // a logo hides modules: only H recovers them
	}
	opt := codes.Options{Format: format, Level: level, Pixels: filePixels, Logo: p.LogoData(), Transparent: in.Transparent, Print: printOpt}
	file := s.renderCode(w, r, p.Data, p.Style, opt)
	if file == nil {
		return
	}
	d := &store.Download{CodeEvent: s.codeEvent(r, u, in.SessionID, p), DownloadType: string(format), DownloadedAt: s.now()}
	if gen != nil {
		d.Details["generationId"] = gen.ID
	}
	if err := s.store.CreateDownload(r.Context(), d); err != nil {
		s.internalError(w, "recording a download", err)
		return
	}
	serveCodeFile(w, file, format, p.QRType+"."+string(format), true)
}

// generationOf reports whether g was made by u, or by the visitor whose
// browser keeps sessionID.
func generationOf(g *store.Generation, u *store.User, sessionID string) bool {
	if g.UserID != nil {
		return u != nil && *g.UserID == u.ID
	}
	return u == nil && sessionID != "" && g.SessionID == strings.TrimSpace(sessionID)
}

// serveCodeFile answers a rendered code. The SVG is ours (no script), but
// it is sent with a CSP that would block any anyway.
func serveCodeFile(w http.ResponseWriter, file []byte, format codes.Format, name string, attachment bool) {
	h := w.Header()
	h.Set("Content-Type", format.ContentType())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	h.Set("Cache-Control", "no-store")
	disposition := "inline"
	if attachment {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", disposition+`; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	w.Write(file)
}

// trackGeneration (POST /api/track-generation) records a generation the
// client made itself, with the spec 01 §7 body. qrCodeId, when given, must
// be one of the caller's saved static codes.
func (s *server) trackGeneration(w http.ResponseWriter, r *http.Request) {
	var in struct {
		QRCodeID        *int64          `json:"qrCodeId"`
		QRData          json.RawMessage `json:"qrData"`
		QRType          string          `json:"qrType"`
		ForegroundColor string          `json:"foregroundColor"`
		BackgroundColor string          `json:"backgroundColor"`
		HasLogo         bool            `json:"hasLogo"`
		SessionID       string          `json:"sessionId"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	in.QRType = strings.TrimSpace(in.QRType)
	if err := codes.CheckType(in.QRType); err != nil {
		s.answerRefused(w, r, "checking a type", err)
		return
	}
	if !checkSessionID(w, in.SessionID) {
		return
	}
	var content string
	details := map[string]any{}
	if len(in.QRData) > 0 && string(in.QRData) != "null" {
		// qrData is the encoded text, or the type fields as an object.
		if err := json.Unmarshal(in.QRData, &content); err != nil {
			if err := json.Unmarshal(in.QRData, &details); err != nil {
				fieldError(w, "qrData", "qrData must be a string or an object")
				return
			}
		}
	}
	if len(content) > maxContent || len(in.QRData) > maxContent {
		fieldError(w, "qrData", "qrData is too long")
		return
	}
	colors := []*string{&in.ForegroundColor, &in.BackgroundColor}
	for i, name := range []string{"foregroundColor", "backgroundColor"} {
		c := strings.TrimSpace(*colors[i])
		if c == "" {
			continue
		}
		if _, err := render.ParseColor(c); err != nil {
			fieldError(w, name, "Please enter a colour like #1A2B3C")
			return
		}
		*colors[i] = c
	}
	u := auth.UserFrom(r.Context())
	if !s.admitRecord(w, r, u) {
		return
	}
	if in.QRCodeID != nil {
		ws := workspaceFrom(r.Context())
		if u == nil || ws == nil {
			writeError(w, http.StatusNotFound, msgCodeMissing)
			return
		}
		if _, err := s.store.QRCode(r.Context(), ws.ID, *in.QRCodeID); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				writeError(w, http.StatusNotFound, msgCodeMissing)
				return
			}
			s.internalError(w, "fetching a QR code", err)
			return
		}
	}
	g := &store.Generation{
		CodeEvent: store.CodeEvent{
			QRCodeID:  in.QRCodeID,
			UserID:    ownerOf(u),
			SessionID: strings.TrimSpace(in.SessionID),
			IPAddress: clientIP(r),
			UserAgent: truncate(r.UserAgent(), maxUserAgent),
			Referrer:  truncate(r.Referer(), maxReferrer),
			QRType:    in.QRType,
			Content:   content,
			HasLogo:   in.HasLogo,
			Details:   details,
		},
		ForegroundColor: in.ForegroundColor,
		BackgroundColor: in.BackgroundColor,
		GeneratedAt:     s.now(),
	}
	if err := s.store.CreateGeneration(r.Context(), g); err != nil {
		s.internalError(w, "recording a generation", err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": g.ID})
}

// subdomainInfo (GET /api/subdomain-info) tells the generator which type a
// subdomain preselects: url.example.com preselects url when the site is
// example.com (SQUARELY_BASE_URL). www is the site itself.
func (s *server) subdomainInfo(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"isSubdomain": false, "qrType": nil, "subdomain": nil}
	base, err := url.Parse(s.cfg.BaseURL)
	host := strings.ToLower(hostOnly(r.Host))
	if err == nil {
		suffix := "." + strings.ToLower(base.Hostname())
		if sub, ok := strings.CutSuffix(host, suffix); ok && sub != "" && sub != "www" {
			out["isSubdomain"], out["subdomain"] = true, sub
			if slices.Contains(payload.Types(), sub) && !payload.Blocked(sub) {
				out["qrType"] = sub
			}
		}
	}
	// A white-label client's host names its client (issue 14).
	if c := requestClient(r); c != nil {
		out["clientId"] = c.ID
	}
	writeJSON(w, http.StatusOK, out)
}

// hostOnly drops the port of a Host header.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return h
}

// clientIP is the address of the request's client (behind a trusted proxy,
// the one it saw: see forwardedFor).
func clientIP(r *http.Request) string {
	return hostOnly(r.RemoteAddr)
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
