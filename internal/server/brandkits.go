package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// Brand kits (issue 26 item 3, docs/API.md "Brand kits"): a workspace's
// saved designs. A kit keeps the style fields exactly as codes.Style
// names them, checked by the same Normalize as a code's, so every style
// field the renderer offers is a kit's too. Applying a kit fills the style
// fields a request leaves empty, and its logo when the request names none:
// what a request sets itself wins.

const (
	maxBrandKitName = 60
	maxBrandKits    = 50 // per workspace
	msgKitMissing   = "Brand kit not found"
	msgKitTaken     = "A brand kit with this name already exists"
	msgKitLimit     = "A workspace can have at most 50 brand kits"
	// kitSample stands for the codes a kit will style when it is checked
	// for scanning: the style's checks do not depend on the text.
	kitSample = "https://example.com/brand-kit"
)

// brandKitJSON is a kit as the API shows it; the style fields are flat.
type brandKitJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	codes.Style
	LogoID       *int64    `json:"logoId"`
	LogoFileName string    `json:"logoFileName"`
	IsDefault    bool      `json:"isDefault"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// kitStyle is the style a kit keeps.
func kitStyle(k *store.BrandKit) (codes.Style, error) {
	var st codes.Style
	err := json.Unmarshal([]byte(k.Style), &st)
	return st, err
}

func kitJSON(k *store.BrandKit) (brandKitJSON, error) {
	st, err := kitStyle(k)
	return brandKitJSON{
		ID: k.ID, Name: k.Name, Style: st, LogoID: k.LogoID, LogoFileName: k.LogoFileName,
		IsDefault: k.IsDefault, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt,
	}, err
}

// listBrandKits (GET /api/brand-kits): the workspace's kits by name.
func (s *server) listBrandKits(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.BrandKits(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing brand kits", err)
		return
	}
	out := make([]brandKitJSON, len(list))
	for i, k := range list {
		if out[i], err = kitJSON(k); err != nil {
			s.internalError(w, "reading a brand kit", err)
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// kitBody is a kit's JSON body. The style fields are decoded on their own,
// so a type error names the field as sent.
type kitBody struct {
	Name      *string         `json:"name"`
	LogoID    json.RawMessage `json:"logoId"`
	IsDefault *bool           `json:"isDefault"`
	style     codes.Style
}

func (b *kitBody) UnmarshalJSON(data []byte) error {
	type plain kitBody // without this method
	if err := json.Unmarshal(data, (*plain)(b)); err != nil {
		return err
	}
	return json.Unmarshal(data, &b.style)
}

// readBrandKit reads a kit's body over k, whose style is current: the
// members sent replace the kit's, the others stay (a new kit starts from
// the defaults). The style is checked as a code's is, and must scan; the
// logo must be one of the workspace's. On failure it has answered.
func (s *server) readBrandKit(w http.ResponseWriter, r *http.Request, k *store.BrandKit, current codes.Style) bool {
	in := kitBody{style: current}
	if !decodeJSON(w, r, &in) {
		return false
	}
	if in.Name != nil {
		k.Name = strings.TrimSpace(*in.Name)
	}
	if in.IsDefault != nil {
		k.IsDefault = *in.IsDefault
	}
	v := &validation{}
	checkName(v, "name", k.Name, maxBrandKitName)
	if v.failed(w) {
		return false
	}
	style, err := in.style.Normalize()
	if err == nil {
		err = codes.Check(kitSample, style, codes.StaticLevel)
	}
	if err != nil {
		if !renderRefused(w, err) {
			s.internalError(w, "checking a brand kit", err)
		}
		return false
	}
	switch raw := strings.TrimSpace(string(in.LogoID)); raw {
	case "":
	case "null":
		k.LogoID = nil
	default:
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			fieldError(w, "logoId", "logoId must be a number")
			return false
		}
		logo, ok := s.requestLogo(w, r, &id, nil)
		if !ok {
			return false
		}
		k.LogoID, k.LogoFileName = &logo.ID, logo.FileName
	}
	b, err := json.Marshal(style)
	if err != nil {
		s.internalError(w, "encoding a brand kit", err)
		return false
	}
	k.Style = string(b)
	return true
}

// answerKit answers a kit after a change, or why it failed.
func (s *server) answerKit(w http.ResponseWriter, status int, k *store.BrandKit, err error) {
	var out brandKitJSON
	if err == nil {
		out, err = kitJSON(k)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgKitMissing)
	case errors.Is(err, store.ErrConflict):
		writeJSON(w, http.StatusConflict, apiError{Message: msgKitTaken, Errors: map[string]string{"name": msgKitTaken}})
	case errors.Is(err, store.ErrKitLimit):
		writeError(w, http.StatusConflict, msgKitLimit)
	case err != nil:
		s.internalError(w, "saving a brand kit", err)
	default:
		writeJSON(w, status, out)
	}
}

// createBrandKit (POST /api/brand-kits {name, style fields, logoId?,
// isDefault?}) — 201; a taken name or a full workspace 409.
func (s *server) createBrandKit(w http.ResponseWriter, r *http.Request) {
	k := &store.BrandKit{}
	if !s.readBrandKit(w, r, k, codes.Style{}) {
		return
	}
	err := s.store.CreateBrandKit(r.Context(), wsID(r), k, maxBrandKits, s.now())
	s.answerKit(w, http.StatusCreated, k, err)
}

// updateBrandKit (PUT /api/brand-kits/{id}): the members sent replace
// the kit's; "logoId": null removes its logo.
func (s *server) updateBrandKit(w http.ResponseWriter, r *http.Request) {
	k, style, ok := s.workspaceKit(w, r, r.PathValue("id"))
	if !ok || !s.readBrandKit(w, r, k, style) {
		return
	}
	err := s.store.UpdateBrandKit(r.Context(), wsID(r), k, s.now())
	s.answerKit(w, http.StatusOK, k, err)
}

// deleteBrandKit (DELETE /api/brand-kits/{id}) — 204. Codes styled with
// it keep their style.
func (s *server) deleteBrandKit(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgKitMissing)
	if !ok {
		return
	}
	switch err := s.store.DeleteBrandKit(r.Context(), wsID(r), id); {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgKitMissing)
	case err != nil:
		s.internalError(w, "deleting a brand kit", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// workspaceKit is the kit of the request's workspace whose id raw names,
// and its style. Another workspace's kit, or none, is 404 (field
// brandKit); so is any kit for a visitor. On failure it has answered.
func (s *server) workspaceKit(w http.ResponseWriter, r *http.Request, raw string) (*store.BrandKit, codes.Style, bool) {
	missing := func() {
		writeJSON(w, http.StatusNotFound, apiError{Message: msgKitMissing, Errors: map[string]string{"brandKit": msgKitMissing}})
	}
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	ws := workspaceFrom(r.Context())
	if err != nil || id <= 0 || ws == nil {
		missing()
		return nil, codes.Style{}, false
	}
	k, err := s.store.BrandKit(r.Context(), ws.ID, id)
	var st codes.Style
	if err == nil {
		st, err = kitStyle(k)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		missing()
	case err != nil:
		s.internalError(w, "fetching a brand kit", err)
	default:
		return k, st, true
	}
	return nil, codes.Style{}, false
}

// applyBrandKit applies the kit a form's brandKit names (its id), if any:
// the form's empty style fields take the kit's, and a form with neither a
// logo file nor a logoId takes the kit's logo. On failure it has answered.
func (s *server) applyBrandKit(w http.ResponseWriter, r *http.Request, values map[string]string, file *upload) bool {
	raw := strings.TrimSpace(values["brandKit"])
	if raw == "" {
		return true
	}
	k, st, ok := s.workspaceKit(w, r, raw)
	if !ok {
		return false
	}
	codes.UnderKit(values, st)
	if k.LogoID != nil && file == nil && strings.TrimSpace(values["logoId"]) == "" {
		values["logoId"] = strconv.FormatInt(*k.LogoID, 10)
	}
	return true
}

// kitUnderJSON is the style of a JSON body (its members raw) over the
// kit's style st: the members that are empty or null take the kit's.
func kitUnderJSON(st codes.Style, raw map[string]json.RawMessage) (codes.Style, error) {
	given := map[string]json.RawMessage{}
	for k, v := range raw {
		if s := string(v); s != `""` && s != "null" {
			given[k] = v
		}
	}
	b, err := json.Marshal(given)
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	return st, err
}
