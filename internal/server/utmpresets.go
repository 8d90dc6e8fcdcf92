package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/store"
)

// UTM presets (issue 23 item 3): a workspace's saved UTM parameters, which
// the Edit Dynamic QR Code dialog's UTM builder fills its fields from.

const (
	maxPresetName    = 50
	maxPresetValue   = 100
	maxUTMPresets    = 50 // per workspace
	msgPresetMissing = "UTM preset not found"
	msgPresetTaken   = "A UTM preset with this name already exists"
)

var msgPresetLimit = "A workspace keeps at most " + strconv.Itoa(maxUTMPresets) + " UTM presets. Delete one to save another."

type utmPresetJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Source   string `json:"source"`
	Medium   string `json:"medium"`
	Campaign string `json:"campaign"`
	Term     string `json:"term"`
	Content  string `json:"content"`
}

func presetJSON(p *store.UTMPreset) utmPresetJSON {
	return utmPresetJSON{p.ID, p.Name, p.Source, p.Medium, p.Campaign, p.Term, p.Content}
}

// listUTMPresets (GET /api/utm-presets).
func (s *server) listUTMPresets(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.UTMPresets(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing UTM presets", err)
		return
	}
	out := make([]utmPresetJSON, len(list))
	for i, p := range list {
		out[i] = presetJSON(p)
	}
	writeJSON(w, http.StatusOK, out)
}

// createUTMPreset (POST /api/utm-presets {name, source, medium, campaign,
// term, content}) — 201; a taken name or a full workspace 409.
func (s *server) createUTMPreset(w http.ResponseWriter, r *http.Request) {
	var in utmPresetJSON
	if !decodeJSON(w, r, &in) {
		return
	}
	p := &store.UTMPreset{Name: strings.TrimSpace(in.Name)}
	v := &validation{}
	if strings.ContainsRune(p.Name, utf8.RuneError) {
		v.add("name", "Name must be UTF-8 text")
	}
	checkName(v, "name", p.Name, maxPresetName)
	values := []struct {
		field string
		in    string
		out   *string
	}{
		{"source", in.Source, &p.Source}, {"medium", in.Medium, &p.Medium}, {"campaign", in.Campaign, &p.Campaign},
		{"term", in.Term, &p.Term}, {"content", in.Content, &p.Content},
	}
	empty := true
	for _, f := range values {
		*f.out = strings.TrimSpace(f.in)
		empty = empty && *f.out == ""
		checkUTMValue(v, f.field, *f.out)
	}
	if empty {
		v.add("source", "Fill in at least one UTM parameter")
	}
	if v.failed(w) {
		return
	}
	err := s.store.CreateUTMPreset(r.Context(), wsID(r), p, maxUTMPresets, s.now())
	switch {
	case errors.Is(err, store.ErrConflict):
		writeJSON(w, http.StatusConflict, apiError{Message: msgPresetTaken, Errors: map[string]string{"name": msgPresetTaken}})
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, msgPresetLimit)
	case err != nil:
		s.internalError(w, "saving a UTM preset", err)
	default:
		writeJSON(w, http.StatusCreated, presetJSON(p))
	}
}

// checkUTMValue adds to v the problem of a trimmed UTM value, if any: at
// most maxPresetValue characters of UTF-8 text (a U+FFFD, sent escaped, marks
// text lost on the way), no control or invisible formatting characters.
func checkUTMValue(v *validation, field, value string) {
	switch {
	case strings.ContainsRune(value, utf8.RuneError):
		v.add(field, "Must be UTF-8 text")
	case utf8.RuneCountInString(value) > maxPresetValue:
		v.add(field, "Must be at most "+strconv.Itoa(maxPresetValue)+" characters")
	case strings.ContainsFunc(value, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }):
		v.add(field, "Must not contain control or formatting characters")
	}
}

// deleteUTMPreset (DELETE /api/utm-presets/{id}) — 204.
func (s *server) deleteUTMPreset(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgPresetMissing)
	if !ok {
		return
	}
	err := s.store.DeleteUTMPreset(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgPresetMissing)
	case err != nil:
		s.internalError(w, "deleting a UTM preset", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
