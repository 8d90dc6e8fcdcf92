package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/store"
)

// What the generator, downloads and saving share: the caller's facts for
// internal/codes, which checks and prepares every code, and answering its
// refusals.

// caller is the request's user, workspace and plan as internal/codes
// sees them.
func (s *server) caller(r *http.Request) codes.Caller {
	u := auth.UserFrom(r.Context())
	who := codes.Caller{User: u, Keeps: workspaceOf(r) != nil}
	if u != nil {
		who.ClientID = codeClientID(r, u)
	}
	if ws := workspaceFrom(r.Context()); ws != nil {
		who.WorkspaceID, who.DynamicLimit = ws.ID, s.dynamicLimit(ws)
	}
	return who
}

// prepare checks and prepares req for the request's caller
// (codes.Creator.Prepare). On failure it has answered.
func (s *server) prepare(w http.ResponseWriter, r *http.Request, req codes.Request) (*codes.Prepared, bool) {
	p, err := s.creator.Prepare(r.Context(), req, s.caller(r))
	if err != nil {
		s.answerRefused(w, r, "preparing a code", err)
		return nil, false
	}
	return p, true
}

// answerRefused answers err from internal/codes: its refusal (the JSON
// error shape), 503 when no render slot freed up, a code's domain the
// workspace lacks, nothing when the client has gone, else 500.
func (s *server) answerRefused(w http.ResponseWriter, r *http.Request, doing string, err error) {
	rf, ok := codes.AsRefused(err)
	switch {
	case ok:
		writeRefused(w, rf)
	case errors.Is(err, errBusy):
		busy(w)
	case answerDomainRefused(w, err):
	case r.Context().Err() != nil:
	default:
		s.internalError(w, doing, err)
	}
}

// writeRefused answers a refusal in the API's error shape.
func writeRefused(w http.ResponseWriter, rf *codes.Refused) {
	writeJSON(w, rf.Status, apiError{Message: rf.Message, Errors: rf.Fields, Code: rf.Code})
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

// requestLogo checks the logo a request names (codes.Creator.Logo): the
// workspace's uploaded logo logoID, or a file sent with the request. On
// failure it has answered.
func (s *server) requestLogo(w http.ResponseWriter, r *http.Request, logoID *int64, file *upload) (*store.Blob, bool) {
	b, err := s.creator.Logo(r.Context(), logoID, file, s.caller(r))
	if err != nil {
		s.answerRefused(w, r, "reading a logo", err)
		return nil, false
	}
	return b, true
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
func typeDetails(p *codes.Prepared) map[string]any {
	f := func(k string) string { return strings.TrimSpace(p.Fields[k]) }
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
	switch p.QRType {
	case "url":
		withDomain("websiteUrl", f("url"))
	case "contact":
		for _, k := range []string{"firstName", "lastName", "email", "phoneNumber", "notes", "imageUrl"} {
			put(k, f(k))
		}
	case "payment":
		put("productName", f("productName"))
		d["productPrice"] = payload.PriceCents(p.Fields["productPrice"])
		put("productDescription", f("productDescription"))
		put("paymentUrl", p.Data)
		if p.Product != nil {
			d["productId"] = p.Product.ID
		}
	case "pdf", "images":
		prefix := map[string]string{"pdf": "pdf", "images": "image"}[p.QRType]
		put(prefix+"Title", f("title"))
		put("description", f("description"))
		put("url", p.Data)
		if p.File != nil {
			put("fileName", p.File.FileName)
			d[prefix+"Size"] = p.File.Size
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
		put("body", p.Fields["body"])
	case "location":
		for _, k := range []string{"address", "latitude", "longitude", "name", "description"} {
			put(k, f(k))
		}
	}
	return d
}
