package server

import (
	"errors"
	"net/http"

	"github.com/squarely/squarely/internal/store"
)

// Workspace domain capture (issue 33 item 2): an owner makes everyone who
// signs in with a verified address at the company's domain join the team
// workspace (store.SetAutoJoin, store.JoinByDomain at each sign-in).

// setAutoJoin (PUT /api/workspaces/{id}/auto-join {domain, role}, owners):
// the domain must be proven by one of the workspace's verified custom
// domains (the domain itself or one under it); the role is admin, editor
// or viewer. Answers the workspace.
func (s *server) setAutoJoin(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Domain string `json:"domain"`
		Role   string `json:"role"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	var v validation
	domain, problem := s.normalizeDomain(in.Domain)
	if problem != "" {
		v.add("domain", problem)
	}
	if in.Role != store.RoleAdmin && in.Role != store.RoleEditor && in.Role != store.RoleViewer {
		v.add("role", "role must be admin, editor or viewer")
	}
	if v.failed(w) {
		return
	}
	s.saveAutoJoin(w, r, domain, in.Role)
}

// clearAutoJoin (DELETE /api/workspaces/{id}/auto-join, owners) stops it.
func (s *server) clearAutoJoin(w http.ResponseWriter, r *http.Request) {
	s.saveAutoJoin(w, r, "", "")
}

func (s *server) saveAutoJoin(w http.ResponseWriter, r *http.Request, domain, role string) {
	ws := workspaceFrom(r.Context())
	err := s.store.SetAutoJoin(r.Context(), ws.ID, domain, role)
	switch {
	case errors.Is(err, store.ErrAutoJoinPersonal):
		writeError(w, http.StatusConflict, "A personal workspace takes no members by domain")
	case errors.Is(err, store.ErrDomainUnverified):
		fieldError(w, "domain", "Verify "+domain+", or a domain under it, as a custom domain of this workspace first")
	case errors.Is(err, store.ErrConflict):
		writeJSON(w, http.StatusConflict, apiError{Message: "Another workspace already takes in " + domain + " addresses",
			Errors: map[string]string{"domain": "Another workspace already takes in " + domain + " addresses"}})
	case err != nil:
		s.internalError(w, "setting auto-join", err)
	default:
		ws.AutoJoinDomain, ws.AutoJoinRole = domain, role
		writeJSON(w, http.StatusOK, toWorkspaceJSON(ws))
	}
}
