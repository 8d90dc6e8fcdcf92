package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// What the generator, downloads and saving share: checking a code request
// (type, premium options, fields, style, referenced files) and rendering it.

// premiumMessage refuses premium options to visitors (403).
const premiumMessage = "This feature requires an account. Please sign in or create a free account."

// blockedMessage refuses the 'Future Feature' types to everyone (400).
const blockedMessage = "This QR code type is not available yet"

// codeLevel is the error correction of static codes: high, as spec 01 §9
// asks for previews and custom renderings (a logo needs it anyway).
const codeLevel = qr.H

// codeRequest is a code as the generator's form describes it.
type codeRequest struct {
	qrType       string
	fields       payload.Fields
	style        codes.Style
	logoID       *int64  // an uploaded logo
	logoFile     *upload // or a logo sent with the request (saving)
	scanTracking bool
	temporary    bool // a live preview: placeholders allowed, nothing created
}

// preparedCode is a checked codeRequest, ready to render.
type preparedCode struct {
	qrType  string
	fields  payload.Fields
	style   codes.Style // normalized
	logo    *store.Blob // with data; nil = none
	file    *store.Blob // the pdf or image a pdf/images code points at (no data)
	product *store.PaymentProduct
	data    string // the exact text to encode
}

// logoData is the logo image to render, or nil.
func (p *preparedCode) logoData() []byte {
	if p.logo == nil {
		return nil
	}
	return p.logo.Data
}

// fieldError answers 400 with one field's message.
func fieldError(w http.ResponseWriter, field, message string) {
	writeJSON(w, http.StatusBadRequest, apiError{Message: message, Errors: map[string]string{field: message}})
}

// renderRefused answers 400 when err is a refusal the user can fix (a style
// that would not scan, too much data) and reports whether it did.
func renderRefused(w http.ResponseWriter, err error) bool {
	field, msg, ok := codes.Refusal(err)
	if ok {
		fieldError(w, field, msg)
	}
	return ok
}

// checkType refuses missing, unknown and blocked types.
func checkType(w http.ResponseWriter, t string) bool {
	switch {
	case t == "":
		fieldError(w, "qrType", "QR code type is required")
	case !slices.Contains(payload.Types(), t):
		fieldError(w, "qrType", payload.UnknownType)
	case payload.Blocked(t):
		fieldError(w, "qrType", blockedMessage)
	default:
		return true
	}
	return false
}

// prepareCode checks req for user u (nil for a visitor) in the order a user
// can act on: the type, premium options (403), the style, the type's
// fields, then the files they name (404 when missing or another user's).
// A non-temporary payment code gets its product here, after every check
// has passed. On failure it has answered.
func (s *server) prepareCode(w http.ResponseWriter, r *http.Request, u *store.User, req codeRequest) (*preparedCode, bool) {
	if !checkType(w, req.qrType) {
		return nil, false
	}
	if u == nil && (payload.NeedsAccount(req.qrType) || strings.TrimSpace(req.style.GradientColor) != "" ||
		req.logoID != nil || req.logoFile != nil || req.scanTracking) {
		writeError(w, http.StatusForbidden, premiumMessage)
		return nil, false
	}
	style, err := req.style.Normalize()
	if err != nil {
		renderRefused(w, err)
		return nil, false
	}
	p := &preparedCode{qrType: req.qrType, fields: req.fields, style: style}

	// A preview may come before the upload: it points at a placeholder.
	fileField := map[string]string{"pdf": "pdfFile", "images": "imageFile"}[req.qrType]
	placeholder := req.temporary && fileField != "" && strings.TrimSpace(req.fields[fileField]) == ""
	if placeholder {
		p.fields = maps.Clone(req.fields)
		p.fields[fileField] = "preview"
	}
	if fe := payload.Validate(req.qrType, p.fields); len(fe) > 0 {
		writeFieldErrors(w, req.qrType, fe)
		return nil, false
	}

	ctx := r.Context()
	if fileField != "" && !placeholder {
		id, _ := strconv.ParseInt(strings.TrimSpace(p.fields[fileField]), 10, 64)
		kind, msg := "image", "Image file not found"
		if req.qrType == "pdf" {
			kind, msg = "pdf", "PDF file not found"
		}
		b, err := s.store.BlobInfo(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.internalError(w, "fetching an upload", err)
			return nil, false
		}
		// PDFs need an account, so they have an owner; images may be a
		// visitor's, and their pages are public anyway.
		if b == nil || b.Kind != kind || (kind == "pdf" && !ownedBy(b, r)) {
			writeJSON(w, http.StatusNotFound, apiError{Message: msg, Errors: map[string]string{fileField: msg}})
			return nil, false
		}
		p.file = b
	}
	logo, ok := s.requestLogo(w, r, u, req.logoID, req.logoFile)
	if !ok {
		return nil, false
	}
	p.logo = logo

	switch {
	case req.qrType == "payment" && req.temporary:
		price := payload.PriceCents(p.fields["productPrice"])
		p.data = s.cfg.BaseURL + "/payment?temp=true&name=" + url.QueryEscape(strings.TrimSpace(p.fields["productName"])) +
			"&price=" + fmt.Sprintf("%d.%02d", price/100, price%100)
	case req.qrType == "payment":
		// Check the style before the product exists, with an id longer
		// than any real one, so a refusal leaves nothing behind.
		if !s.checkRender(w, r, s.cfg.BaseURL+"/payment?id=99999999999", p) {
			return nil, false
		}
		p.product = &store.PaymentProduct{
			UserID:             ownerOf(u),
			WorkspaceID:        workspaceOf(r),
			ProductName:        strings.TrimSpace(p.fields["productName"]),
			ProductDescription: strings.TrimSpace(p.fields["productDescription"]),
			ProductPrice:       payload.PriceCents(p.fields["productPrice"]),
			CreatedAt:          s.now(),
		}
		if err := s.store.CreatePaymentProduct(ctx, p.product); err != nil {
			s.internalError(w, "creating a payment product", err)
			return nil, false
		}
		p.data, err = payload.Build("payment", p.fields, payload.Options{BaseURL: s.cfg.BaseURL, ProductID: strconv.FormatInt(p.product.ID, 10)})
	case placeholder:
		p.data = s.cfg.BaseURL + map[string]string{"pdf": "/pdf/preview", "images": "/image-placeholder"}[req.qrType]
	default:
		p.data, err = payload.Build(req.qrType, p.fields, payload.Options{BaseURL: s.cfg.BaseURL})
	}
	if err != nil {
		s.internalError(w, "building a payload", err)
		return nil, false
	}
	return p, true
}

// requestLogo checks the logo a request names: u's uploaded logo logoID,
// or a file sent with the request (checked, not stored). It returns the
// logo with its data, nil for none. On failure it has answered: 404 `Logo
// not found` (missing, not a logo, or another user's), or 415.
func (s *server) requestLogo(w http.ResponseWriter, r *http.Request, u *store.User, logoID *int64, file *upload) (*store.Blob, bool) {
	switch {
	case file != nil:
		if !s.normalizeLogo(w, r, file) {
			return nil, false
		}
		return &store.Blob{Kind: "logo", FileName: orDefault(file.name, "logo"), Data: file.data}, true
	case logoID != nil:
		b, err := s.store.Blob(r.Context(), *logoID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.internalError(w, "fetching a logo", err)
			return nil, false
		}
		if b == nil || b.Kind != "logo" || !ownedBy(b, r) {
			writeJSON(w, http.StatusNotFound, apiError{Message: "Logo not found", Errors: map[string]string{"logoId": "Logo not found"}})
			return nil, false
		}
		if _, err := s.renderLogo(r.Context(), b); err != nil {
			if errors.Is(err, errBusy) {
				busy(w)
			} else if r.Context().Err() == nil && !renderRefused(w, err) {
				s.internalError(w, "reading a logo", err)
			}
			return nil, false
		}
		return b, true
	}
	return nil, true
}

// formLogoID reads a form's logoId, nil when absent; a form that sends a
// logo file ignores it. On failure it has answered 400.
func formLogoID(w http.ResponseWriter, form *multipartForm) (*int64, bool) {
	v := strings.TrimSpace(form.get("logoId"))
	if v == "" || form.file != nil {
		return nil, true
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		fieldError(w, "logoId", "logoId must be a number")
		return nil, false
	}
	return &id, true
}

// checkRender lays out data with p's style without keeping the image, and
// answers 400 when the renderer refuses it.
func (s *server) checkRender(w http.ResponseWriter, r *http.Request, data string, p *preparedCode) bool {
	done, ok := s.startRender(w, r)
	if !ok {
		return false
	}
	defer done()
	err := codes.Write(io.Discard, data, p.style, codes.Options{Format: codes.SVG, Level: codeLevel, Pixels: codes.PreviewPixels, Logo: p.logoData()})
	if err != nil {
		if !renderRefused(w, err) {
			s.internalError(w, "rendering a code", err)
		}
		return false
	}
	return true
}

// renderCode renders data in format at pixels (PNG and SVG) and error
// correction level, in a render slot. On failure it has answered and
// returns nil.
func (s *server) renderCode(w http.ResponseWriter, r *http.Request, data string, style codes.Style, opt codes.Options) []byte {
	done, ok := s.startRender(w, r)
	if !ok {
		return nil
	}
	defer done()
	var buf bytes.Buffer
	err := codes.Write(&buf, data, style, opt)
	if err != nil {
		if !renderRefused(w, err) {
			s.internalError(w, "rendering a code", err)
		}
		return nil
	}
	return buf.Bytes()
}

// ownedBy reports whether b is a file of the workspace r acts on.
func ownedBy(b *store.Blob, r *http.Request) bool {
	ws := workspaceFrom(r.Context())
	return ws != nil && b.WorkspaceID != nil && *b.WorkspaceID == ws.ID
}

// writeFieldErrors answers 400 with the type's field errors; the message is
// the first in form order.
func writeFieldErrors(w http.ResponseWriter, qrType string, fe payload.FieldErrors) {
	msg := ""
	for _, k := range append(payload.FieldNames(qrType), "qrType") {
		if m, ok := fe[k]; ok {
			msg = m
			break
		}
	}
	if msg == "" {
		msg = fe.Error()
	}
	writeJSON(w, http.StatusBadRequest, apiError{Message: msg, Errors: fe})
}

// jsonTypeFields reads type t's fields from a JSON object's members. A
// field may be a string or a number (the form's number inputs); null is
// empty.
func jsonTypeFields(raw map[string]json.RawMessage, t string) (payload.Fields, payload.FieldErrors) {
	f := payload.Fields{}
	var fe payload.FieldErrors
	for _, k := range payload.FieldNames(t) {
		v, ok := raw[k]
		if !ok {
			continue
		}
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			continue // the body already decoded, so this cannot happen
		}
		switch x := val.(type) {
		case nil:
		case string:
			f[k] = x
		case float64:
			f[k] = strings.TrimSpace(string(v))
		default:
			if fe == nil {
				fe = payload.FieldErrors{}
			}
			fe[k] = "Must be a string"
		}
	}
	return f, fe
}

// typeDetails is the type-specific part of a generation or download record
// (spec 02 §3's per-type logging tables, folded into a JSON column).
func typeDetails(p *preparedCode) map[string]any {
	f := func(k string) string { return strings.TrimSpace(p.fields[k]) }
	d := map[string]any{}
	put := func(k, v string) {
		if v != "" {
			d[k] = v
		}
	}
	withDomain := func(key, raw string) {
		put(key, raw)
		if u, err := url.Parse(raw); err == nil {
			put("urlDomain", u.Hostname())
			if key == "websiteUrl" {
				put("urlPath", u.EscapedPath())
			}
		}
	}
	switch p.qrType {
	case "url":
		withDomain("websiteUrl", f("url"))
	case "contact":
		for _, k := range []string{"firstName", "lastName", "email", "phoneNumber", "notes", "imageUrl"} {
			put(k, f(k))
		}
	case "payment":
		put("productName", f("productName"))
		d["productPrice"] = payload.PriceCents(p.fields["productPrice"])
		put("productDescription", f("productDescription"))
		put("paymentUrl", p.data)
		if p.product != nil {
			d["productId"] = p.product.ID
		}
	case "pdf", "images":
		prefix := map[string]string{"pdf": "pdf", "images": "image"}[p.qrType]
		put(prefix+"Title", f("title"))
		put("description", f("description"))
		put("url", p.data)
		if p.file != nil {
			put("fileName", p.file.FileName)
			d[prefix+"Size"] = p.file.Size
		}
	case "social":
		put("platform", f("platform"))
		withDomain("profileUrl", f("url"))
	case "ratings":
		put("businessName", f("businessName"))
		put("platform", f("platform"))
		withDomain("reviewUrl", f("url"))
	case "apps":
		for _, k := range []string{"appName", "platform", "url", "appDescription", "appDeveloper", "appCategory"} {
			put(k, f(k))
		}
	case "email":
		put("recipient", f("email"))
		put("subject", f("subject"))
		put("body", p.fields["body"])
	case "location":
		for _, k := range []string{"address", "latitude", "longitude", "name", "description"} {
			put(k, f(k))
		}
	}
	return d
}
