// Package scim is SCIM 2.0 provisioning (RFC 7643, RFC 7644) for a team
// workspace (issue 33 item 4): an identity provider (Okta, Entra ID, …)
// creates, updates, deactivates and deletes its people as Users, and its
// groups as Groups whose names map to roles as single sign-on's do. It
// answers at /scim/v2/{workspaceId}/… with the workspace's bearer token.
package scim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/saml"
	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
)

const (
	schemaUser  = "urn:ietf:params:scim:schemas:core:2.0:User"
	schemaGroup = "urn:ietf:params:scim:schemas:core:2.0:Group"
	schemaList  = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	schemaError = "urn:ietf:params:scim:api:messages:2.0:Error"
	maxBody     = 1 << 20
	maxPage     = 200
)

// Accounts makes new accounts under the instance's sign-up policy
// (auth.Service.CreateAccount).
type Accounts interface {
	CreateAccount(ctx context.Context, u *store.User, save func(context.Context, *store.User) error) error
}

// Server answers the SCIM API of every workspace.
type Server struct {
	Store    *store.Store
	Accounts Accounts
	BaseURL  string
	Now      func() time.Time
	Log      *slog.Logger
}

// NewToken is a new SCIM bearer token and the hash the store keeps.
func NewToken() (token, hash string) {
	t, _ := store.NewLinkToken()
	token = "scim_" + t
	return token, store.TokenHash(token)
}

// request is one SCIM call: its workspace and what follows it in the path.
type request struct {
	w     http.ResponseWriter
	r     *http.Request
	ws    int64
	parts []string // e.g. ["Users", "12"]
}

// ServeHTTP answers /scim/v2/{ws}/{rest...}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ws, err := strconv.ParseInt(r.PathValue("ws"), 10, 64)
	if err != nil || ws <= 0 {
		fail(w, http.StatusNotFound, "", "No such workspace")
		return
	}
	if !s.authorized(r, ws) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="SCIM"`)
		fail(w, http.StatusUnauthorized, "", "A valid SCIM bearer token for this workspace is required")
		return
	}
	q := &request{w: w, r: r, ws: ws, parts: strings.Split(strings.Trim(r.PathValue("rest"), "/"), "/")}
	switch {
	case len(q.parts) == 1 && q.parts[0] == "ServiceProviderConfig" && r.Method == http.MethodGet:
		write(w, http.StatusOK, serviceProviderConfig(s.BaseURL, ws))
	case len(q.parts) == 1 && q.parts[0] == "ResourceTypes" && r.Method == http.MethodGet:
		write(w, http.StatusOK, listOf(resourceTypes(s.BaseURL, ws)))
	case len(q.parts) == 1 && q.parts[0] == "Schemas" && r.Method == http.MethodGet:
		write(w, http.StatusOK, listOf(schemas()))
	case q.parts[0] == "Users" && len(q.parts) <= 2:
		s.users(q)
	case q.parts[0] == "Groups" && len(q.parts) <= 2:
		s.groups(q)
	default:
		fail(w, http.StatusNotFound, "", "No such SCIM endpoint")
	}
}

func (s *Server) authorized(r *http.Request, ws int64) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" || len(token) > 256 {
		return false
	}
	owner, err := s.Store.SCIMTokenWorkspace(r.Context(), store.TokenHash(strings.TrimSpace(token)))
	return err == nil && owner == ws
}

// resource reads the workspace's User or Group (kind) that the path's
// second part names, with find; on failure it has answered (404, 500).
func resource[T any](s *Server, q *request, kind string, find func(ctx context.Context, ws, id int64) (T, error)) (T, bool) {
	var zero T
	id, err := strconv.ParseInt(q.parts[1], 10, 64)
	if err != nil {
		fail(q.w, http.StatusNotFound, "", "No such "+kind)
		return zero, false
	}
	v, err := find(q.r.Context(), q.ws, id)
	if errors.Is(err, store.ErrNotFound) {
		fail(q.w, http.StatusNotFound, "", "No such "+kind)
		return zero, false
	}
	if err != nil {
		s.internal(q, "reading a "+strings.ToLower(kind), err)
		return zero, false
	}
	return v, true
}

// write answers v as SCIM JSON.
func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/scim+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fail answers SCIM's error shape (RFC 7644 §3.12).
func fail(w http.ResponseWriter, status int, scimType, detail string) {
	body := map[string]any{"schemas": []string{schemaError}, "status": strconv.Itoa(status), "detail": detail}
	if scimType != "" {
		body["scimType"] = scimType
	}
	write(w, status, body)
}

func (s *Server) internal(q *request, doing string, err error) {
	s.Log.ErrorContext(q.r.Context(), "SCIM: "+doing, "workspace", q.ws, "err", err)
	fail(q.w, http.StatusInternalServerError, "", "Internal server error")
}

// decode reads the body (JSON, at most 1 MB) into dst; on failure it has answered.
func decode(q *request, dst any) bool {
	b, err := io.ReadAll(http.MaxBytesReader(q.w, q.r.Body, maxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		fail(q.w, http.StatusRequestEntityTooLarge, "", "The request body is larger than 1 MB")
		return false
	}
	if err == nil {
		err = respond.DecodeValue(b, dst)
	}
	switch {
	case errors.Is(err, respond.ErrNUL) || errors.Is(err, respond.ErrNotUTF8):
		// Stored, it would fail on PostgreSQL; read, it would be damaged.
		fail(q.w, http.StatusBadRequest, "invalidValue", "The request body must be UTF-8 text without NUL characters")
		return false
	case err != nil:
		fail(q.w, http.StatusBadRequest, "invalidSyntax", "The request body is not a JSON object of the expected shape")
		return false
	}
	return true
}

// filterRE is the one filter form IdPs send: attribute eq "value".
var filterRE = regexp.MustCompile(`(?i)^\s*([A-Za-z.]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$`)

// page reads startIndex (1-based) and count.
func page(q *request) (offset, limit int) {
	offset, limit = 0, 100
	if n, err := strconv.Atoi(q.r.URL.Query().Get("startIndex")); err == nil && n > 1 {
		offset = n - 1
	}
	if n, err := strconv.Atoi(q.r.URL.Query().Get("count")); err == nil && n >= 0 {
		limit = min(n, maxPage)
	}
	return offset, limit
}

// filter reads ?filter= as (attribute, value) with attribute among allowed
// (compared without case, answered as allowed spells it); on a filter it
// cannot answer it has answered 400 invalidFilter.
func filter(q *request, allowed ...string) (attr, value string, ok bool) {
	raw := q.r.URL.Query().Get("filter")
	if raw == "" {
		return "", "", true
	}
	m := filterRE.FindStringSubmatch(raw)
	// A value that is not UTF-8 (read as U+FFFD), or holds a NUL, which
	// PostgreSQL refuses to compare with, is no filter either.
	if m != nil && utf8.ValidString(raw) && strings.IndexByte(raw, 0) < 0 {
		for _, a := range allowed {
			if strings.EqualFold(a, m[1]) {
				v, err := strconv.Unquote(`"` + m[2] + `"`)
				if err == nil {
					return a, v, true
				}
			}
		}
	}
	fail(q.w, http.StatusBadRequest, "invalidFilter", "Only filters of the form "+strings.Join(allowed, " eq \"…\", ")+` eq "…" are supported`)
	return "", "", false
}

func listOf[T any](items []T) map[string]any {
	return map[string]any{"schemas": []string{schemaList}, "totalResults": len(items), "startIndex": 1, "itemsPerPage": len(items), "Resources": items}
}

func (s *Server) location(ws int64, kind string, id int64) string {
	return fmt.Sprintf("%s/scim/v2/%d/%s/%d", strings.TrimSuffix(s.BaseURL, "/"), ws, kind, id)
}

// roleOf is the role the account's groups in the workspace map to, by the
// workspace's single sign-on mapping (viewer without one).
func (s *Server) roleOf(ctx context.Context, ws, userID int64) (string, error) {
	mapping, def := map[string]string{}, store.RoleViewer
	c, err := s.Store.WorkspaceSSO(ctx, ws)
	switch {
	case err == nil:
		mapping, def = c.RoleMapping, c.DefaultRole
	case !errors.Is(err, store.ErrNotFound):
		return "", err
	}
	groups, err := s.Store.SCIMUserGroups(ctx, ws, userID)
	if err != nil {
		return "", err
	}
	return saml.MapRole(groups, mapping, def), nil
}

// flexBool is a SCIM boolean as IdPs send it: true, or Entra ID's "True".
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case bool:
		*b = flexBool(x)
	case string:
		p, err := strconv.ParseBool(strings.ToLower(x))
		if err != nil {
			return fmt.Errorf("scim: %q is not a boolean", x)
		}
		*b = flexBool(p)
	default:
		return errors.New("scim: not a boolean")
	}
	return nil
}

// patchOp is one operation of a PatchOp request.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

type patchRequest struct {
	Schemas    []string  `json:"schemas"`
	Operations []patchOp `json:"Operations"`
}
