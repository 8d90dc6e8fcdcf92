package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// Restyling and duplicating saved codes (issue 10, docs/API.md "Restyle
// and duplicate"). A restyle changes how a code looks, never what it
// encodes: a dynamic code keeps its short code, so printed copies still
// scan to the same place.

// restyleTarget is what a saved code's image is drawn from, as a restyle
// sees it.
type restyleTarget struct {
	data    string   // the encoded text, which a restyle keeps
	level   qr.Level // the code's error correction now
	dynamic bool     // only dynamic codes choose their error correction
}

// newStyle is a checked restyle form.
type newStyle struct {
	style codes.Style // normalized
	level qr.Level
	logo  *store.Blob // with data; nil = no logo
	file  *upload     // the logo file sent with the form, not stored yet
	svg   []byte      // the code drawn in the new style, at the preview size
}

// readNewStyle reads a restyle form for t: the style fields, logoFile or
// logoId (neither: no logo) and, for dynamic codes, errorCorrectionLevel
// (default: the code's), parsed and checked as on creation, then draws the
// code once so a style that would not scan is refused (400). On failure
// it has answered.
func (s *server) readNewStyle(w http.ResponseWriter, r *http.Request, t restyleTarget) (*newStyle, bool) {
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil || !s.applyBrandKit(w, r, form.values, form.file) {
		return nil, false
	}
	ns := &newStyle{level: t.level, file: form.file}
	if raw := strings.TrimSpace(form.get("errorCorrectionLevel")); raw != "" {
		l, ok := qr.ParseLevel(raw)
		switch {
		case !ok:
			fieldError(w, "errorCorrectionLevel", "errorCorrectionLevel must be L, M, Q or H")
			return nil, false
		case !t.dynamic && l != codes.StaticLevel:
			fieldError(w, "errorCorrectionLevel", "Static codes are always encoded at error correction H")
			return nil, false
		}
		ns.level = l
	}
	pixels := codes.PreviewPixels
	if raw := strings.TrimSpace(form.get("size")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < minPreviewPixels || n > maxPreviewPixels {
			fieldError(w, "size", "size must be between 64 and 1200 pixels")
			return nil, false
		}
		pixels = n
	}
	style, err := codes.FormStyle(form.get)
	if err == nil {
		style, err = style.Normalize()
	}
	if err != nil {
		renderRefused(w, err)
		return nil, false
	}
	ns.style = style
	logoID, err := codes.FormLogoID(form.get, form.file)
	if err != nil {
		s.answerRefused(w, r, "reading a logo id", err)
		return nil, false
	}
	return ns, s.drawNewStyle(w, r, t, ns, logoID, pixels)
}

// drawNewStyle checks the logo ns is to have (logoID, or the form's file)
// and draws t's code in ns at pixels, so a style that would not scan is
// refused (400). On failure it has answered.
func (s *server) drawNewStyle(w http.ResponseWriter, r *http.Request, t restyleTarget, ns *newStyle, logoID *int64, pixels int) bool {
	var ok bool
	if ns.logo, ok = s.requestLogo(w, r, logoID, ns.file); !ok {
		return false
	}
	var logo []byte
	if ns.logo != nil {
		logo = ns.logo.Data
	}
	ns.svg = s.renderCode(w, r, t.data, ns.style, codes.Options{Format: codes.SVG, Level: ns.level, Pixels: pixels, Logo: logo})
	return ns.svg != nil
}

// columns is ns as a saved code keeps it; a logo file sent with the form
// is stored now, under the uploads' limit. On failure it has answered.
func (s *server) columns(w http.ResponseWriter, r *http.Request, ns *newStyle) (store.Style, bool) {
	logo := ns.logo
	if ns.file != nil {
		var ok bool
		if !s.admitUpload(w, r) {
			return store.Style{}, false
		}
		if logo, ok = s.saveLogo(w, r, auth.UserFrom(r.Context()), ns.file); !ok {
			return store.Style{}, false
		}
	}
	st := codes.SavedStyle(ns.style, ns.level)
	if logo != nil {
		st.LogoFilePath, st.LogoFileName = logoPath(logo.ID), logo.FileName
	}
	return st, true
}

// staticTarget and dynamicTarget are the caller's code named by {id} as
// a restyle sees it. On failure they have answered (404).
func (s *server) staticTarget(w http.ResponseWriter, r *http.Request) (*store.QRCode, restyleTarget, bool) {
	q, ok := ownCode(s, w, r, s.store.QRCode)
	if !ok {
		return nil, restyleTarget{}, false
	}
	return q, restyleTarget{data: q.Content, level: codes.StaticLevel}, true
}

func (s *server) dynamicTarget(w http.ResponseWriter, r *http.Request) (*store.DynamicCode, restyleTarget, bool) {
	d, ok := ownCode(s, w, r, s.store.DynamicCode)
	if !ok {
		return nil, restyleTarget{}, false
	}
	level, ok := qr.ParseLevel(d.ErrorCorrectionLevel)
	if !ok {
		level = codes.DynamicLevel
	}
	return d, restyleTarget{data: s.codeURL(d), level: level, dynamic: true}, true
}

// restyleQRCode (PUT /api/qrcodes/{id}/style) replaces a static code's
// style; its content stays.
func (s *server) restyleQRCode(w http.ResponseWriter, r *http.Request) {
	q, t, ok := s.staticTarget(w, r)
	if !ok {
		return
	}
	ns, ok := s.readNewStyle(w, r, t)
	if !ok {
		return
	}
	st, ok := s.columns(w, r, ns)
	if !ok {
		return
	}
	q, err := s.store.SetQRCodeStyle(r.Context(), q.WorkspaceID, q.ID, st)
	answerCode(s, w, "restyling a QR code", q, err, func(q *store.QRCode) any { return qrCodeJSON(q) })
}

// restyleDynamicCode (PUT /api/dynamic-qrcodes/{id}/style) replaces a
// dynamic code's style and error correction; its short code and
// destination stay.
func (s *server) restyleDynamicCode(w http.ResponseWriter, r *http.Request) {
	d, t, ok := s.dynamicTarget(w, r)
	if !ok {
		return
	}
	ns, ok := s.readNewStyle(w, r, t)
	if !ok {
		return
	}
	st, ok := s.columns(w, r, ns)
	if !ok {
		return
	}
	d, err := s.store.SetDynamicStyle(r.Context(), d.WorkspaceID, d.ID, st, s.now())
	s.answerDynamic(w, d, err)
}

// previewStyle (POST /api/qrcodes/{id}/style/preview and
// /api/dynamic-qrcodes/{id}/style/preview) draws the code in the form's
// style without saving anything: the restyle dialog's live preview.
func (s *server) previewStyle(dynamic bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var t restyleTarget
		var ok bool
		if dynamic {
			_, t, ok = s.dynamicTarget(w, r)
		} else {
			_, t, ok = s.staticTarget(w, r)
		}
		if !ok || !s.admitPreview(w, r, auth.UserFrom(r.Context())) {
			return
		}
		ns, ok := s.readNewStyle(w, r, t)
		if !ok {
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusOK, map[string]any{"qrCode": string(ns.svg), "data": t.data})
	}
}

// copyName is the name of a duplicate: "{name} (copy)", cut to the longest
// name a code may have.
func copyName(name string) string {
	n := name + " (copy)"
	for utf8.RuneCountInString(n) > codes.MaxName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
		n = strings.TrimRight(name, " ") + " (copy)"
	}
	return n
}

// duplicateQRCode (POST /api/qrcodes/{id}/duplicate) saves a copy of a
// static code as a new one. A payment code's copy gets a product of its
// own, so each code counts its own payments.
func (s *server) duplicateQRCode(w http.ResponseWriter, r *http.Request) {
	q, ok := ownCode(s, w, r, s.store.QRCode)
	if !ok {
		return
	}
	c := store.QRCodeCopy{Name: copyName(q.Name), CreatedAt: s.now()}
	if q.PaymentProductID != nil {
		if c.Content, c.PaymentProductID, ok = s.copyProduct(w, r, q); !ok {
			return
		}
	}
	q, err := s.store.DuplicateQRCode(r.Context(), q.WorkspaceID, q.ID, c)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgCodeMissing)
	case err != nil:
		s.internalError(w, "duplicating a QR code", err)
	default:
		writeJSON(w, http.StatusCreated, qrCodeJSON(q))
	}
}

// copyProduct creates a copy of payment code q's product and returns what
// the duplicate encodes (the copy's payment link) and the copy's id. On
// failure it has answered.
func (s *server) copyProduct(w http.ResponseWriter, r *http.Request, q *store.QRCode) (string, *int64, bool) {
	ctx := r.Context()
	p, err := s.store.PaymentProduct(ctx, *q.PaymentProductID)
	if err != nil {
		s.internalError(w, "fetching a payment product", err)
		return "", nil, false
	}
	var fields payload.Fields
	if err := json.Unmarshal([]byte(q.QRData), &fields); err != nil {
		s.internalError(w, "reading a payment code's fields", err)
		return "", nil, false
	}
	c := &store.PaymentProduct{
		UserID: p.UserID, WorkspaceID: p.WorkspaceID, ProductName: p.ProductName, ProductDescription: p.ProductDescription,
		ProductPrice: p.ProductPrice, CreatedAt: s.now(),
	}
	if err := s.store.CreatePaymentProduct(ctx, c); err != nil {
		s.internalError(w, "copying a payment product", err)
		return "", nil, false
	}
	data, err := payload.Build("payment", fields, payload.Options{BaseURL: s.cfg.BaseURL, ProductID: strconv.FormatInt(c.ID, 10)})
	if err != nil {
		s.internalError(w, "building a payment link", err)
		return "", nil, false
	}
	return data, &c.ID, true
}

// duplicateDynamicCode (POST /api/dynamic-qrcodes/{id}/duplicate) saves a
// copy of a dynamic code under a new short code: same destination, type
// and style, counted against the dynamic limit exactly like a creation.
// The copy has no scans, no password and is not paused.
func (s *server) duplicateDynamicCode(w http.ResponseWriter, r *http.Request) {
	d, ok := ownCode(s, w, r, s.store.DynamicCode)
	if !ok {
		return
	}
	now := s.now()
	c := &store.DynamicCode{
		ClientID: d.ClientID, WorkspaceID: d.WorkspaceID, UserID: auth.UserFrom(r.Context()).ID, Name: copyName(d.Name), Destination: d.Destination,
		QRType: d.QRType, QRData: d.QRData, Platform: d.Platform, Style: d.Style, CreatedAt: now, UpdatedAt: now,
		DomainID: d.DomainID, Domain: d.Domain,
	}
	if s.insertDynamic(w, r, c, s.dynamicLimit(workspaceFrom(r.Context()))) {
		writeJSON(w, http.StatusCreated, s.dynamicJSON(c))
	}
}
