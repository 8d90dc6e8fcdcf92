package server

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// API keys (docs/API.md "API keys"): users' personal keys, managed under
// account settings; clients' keys are rotated on the white-label page.

const (
	maxAPIKeyName = 100
	// maxAPIKeys bounds the keys one workspace keeps.
	maxAPIKeys = 20
)

// maskedKey shows a key as its prefix…last4, "" when there is none.
func maskedKey(prefix, last4 string) string {
	if prefix == "" {
		return ""
	}
	return prefix + "…" + last4
}

// apiKeyResponse is a personal key as the API shows it; key (the whole
// key) only in the answer that made it.
type apiKeyResponse struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Masked    string    `json:"masked"`
	Key       string    `json:"key,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	// CreatedBy is the member who made it: the key acts with their role.
	CreatedBy keyCreator `json:"createdBy"`
	// Scopes (null: all its maker's role allows), the one folder it is
	// limited to (null: none) and when it expires (null: never).
	Scopes    []string   `json:"scopes"`
	FolderID  *int64     `json:"folderId"`
	ExpiresAt *time.Time `json:"expiresAt"`
}

type keyCreator struct {
	UserID int64  `json:"userId"`
	Email  string `json:"email"`
	Name   string `json:"name"`
}

func apiKeyJSON(k *store.APIKey) apiKeyResponse {
	return apiKeyResponse{ID: k.ID, Name: k.Name, Masked: maskedKey(k.Prefix, k.Last4), CreatedAt: k.CreatedAt,
		CreatedBy: keyCreator{UserID: k.UserID, Email: k.CreatorEmail, Name: k.CreatorName},
		Scopes:    k.Scopes, FolderID: k.FolderID, ExpiresAt: k.ExpiresAt}
}

// listAPIKeys (GET /api/api-keys, signed in) lists the caller's keys, masked.
func (s *server) listAPIKeys(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.APIKeys(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing API keys", err)
		return
	}
	out := make([]apiKeyResponse, len(list))
	for i, k := range list {
		out[i] = apiKeyJSON(k)
	}
	writeJSON(w, http.StatusOK, out)
}

// createAPIKey (POST /api/api-keys {name, scopes?, folderId?, expiresAt?},
// signed in) makes a key and answers it whole, the only time it is shown.
func (s *server) createAPIKey(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name      string   `json:"name"`
		Scopes    []string `json:"scopes"`
		FolderID  *int64   `json:"folderId"`
		ExpiresAt *string  `json:"expiresAt"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	limits, ok := s.keyLimits(w, r, in.Scopes, in.FolderID, in.ExpiresAt)
	if !ok {
		return
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		fieldError(w, "name", "Name is required")
		return
	case utf8.RuneCountInString(name) > maxAPIKeyName:
		fieldError(w, "name", "Name must be at most 100 characters")
		return
	}
	u := auth.UserFrom(r.Context())
	key, parts := publicapi.NewKey()
	k := &store.APIKey{WorkspaceID: wsID(r), UserID: u.ID, Name: name, Prefix: parts.Prefix, Last4: parts.Last4,
		CreatorEmail: u.Username, CreatorName: strings.TrimSpace(u.FirstName + " " + u.LastName), KeyLimits: limits}
	switch err := s.store.CreateAPIKey(r.Context(), k, parts.Hash, maxAPIKeys, s.now()); {
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, "You have reached the limit of 20 API keys. Revoke one to create another.")
		return
	case err != nil:
		s.internalError(w, "creating an API key", err)
		return
	}
	out := apiKeyJSON(k)
	out.Key = key
	writeJSON(w, http.StatusCreated, out)
}

// keyLimits checks a new key's scopes, folder and expiry: known scopes, a
// folder of the workspace (its key only codes' scopes), an expiry in the
// future (RFC 3339). On refusal it has answered 400.
func (s *server) keyLimits(w http.ResponseWriter, r *http.Request, scopes []string, folderID *int64, expiresAt *string) (store.KeyLimits, bool) {
	l := store.KeyLimits{Scopes: scopes, FolderID: folderID}
	if expiresAt != nil {
		t, err := time.Parse(time.RFC3339, *expiresAt)
		switch {
		case err != nil:
			fieldError(w, "expiresAt", "expiresAt must be a date and time such as 2027-01-31T18:00:00Z")
			return l, false
		case !t.After(s.now()):
			fieldError(w, "expiresAt", "expiresAt must be in the future")
			return l, false
		}
		l.ExpiresAt = &t
	}
	if folderID != nil {
		folders, err := s.store.Folders(r.Context(), wsID(r))
		if err != nil {
			s.internalError(w, "listing folders", err)
			return l, false
		}
		if !slices.ContainsFunc(folders, func(f *store.Folder) bool { return f.ID == *folderID }) {
			fieldError(w, "folderId", "Folder not found")
			return l, false
		}
	}
	if field, problem := publicapi.CheckLimits(&l); problem != "" {
		fieldError(w, field, problem)
		return l, false
	}
	return l, true
}

// msgAPIKeyMissing answers a key that is not the workspace's, or a malformed id.
const msgAPIKeyMissing = "API key not found"

// deleteAPIKey (DELETE /api/api-keys/{id}, signed in) revokes one of the
// caller's keys at once. 204; 404 when it is not theirs.
func (s *server) deleteAPIKey(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgAPIKeyMissing)
	if !ok {
		return
	}
	err := s.store.DeleteAPIKey(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgAPIKeyMissing)
	case err != nil:
		s.internalError(w, "revoking an API key", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
