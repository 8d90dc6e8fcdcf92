package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/squarely/squarely/internal/scim"
	"github.com/squarely/squarely/internal/store"
)

// SCIM provisioning (issue 33 item 4): the protocol is package scim's,
// mounted at /scim/v2/{ws}/; owners make the workspace's token here.

func (s *server) scimHandler() http.Handler {
	return &scim.Server{Store: s.store, Accounts: s.auth, BaseURL: s.cfg.BaseURL, Now: s.now, Log: s.log}
}

// newSCIMToken (POST /api/workspaces/{id}/scim-token, owners) makes the
// workspace's SCIM token, shown once; it replaces the one before.
func (s *server) newSCIMToken(w http.ResponseWriter, r *http.Request) {
	token, hash := scim.NewToken()
	err := s.store.SetSCIMToken(r.Context(), wsID(r), hash, s.now())
	if errors.Is(err, store.ErrSSOPersonal) {
		writeError(w, http.StatusConflict, "A personal workspace has no SCIM provisioning")
		return
	}
	if err != nil {
		s.internalError(w, "making a SCIM token", err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"token": token,
		"baseUrl": s.cfg.BaseURL + "/scim/v2/" + strconv.FormatInt(wsID(r), 10)})
}
