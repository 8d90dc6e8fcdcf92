package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/store"
)

// Moving codes to another workspace (docs/API.md "Moving codes"): the
// request is read and both workspaces' rights checked here; the job is
// internal/bulkedit's, each code's move internal/store's (move.go).

const (
	msgMoveMissing  = "Move not found"
	msgMoveFailures = 100 // failed codes a move's progress lists
)

// createMove (POST /api/codes/move, an admin or owner of the current
// workspace) {"ids" or "filter", "toWorkspaceId"}: the caller must be an
// admin or owner of the target too (404 when not a member at all). A move
// of at most bulkedit.SmallMove codes answers 200 with its result, a
// larger one 202 {"id","total"}.
func (s *server) createMove(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IDs           []string                   `json:"ids"`
		Filter        map[string]json.RawMessage `json:"filter"`
		ToWorkspaceID int64                      `json:"toWorkspaceId"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	from := workspaceFrom(r.Context())
	switch {
	case in.ToWorkspaceID <= 0:
		fieldError(w, "toWorkspaceId", "toWorkspaceId must be the id of a workspace")
		return
	case in.ToWorkspaceID == from.ID:
		fieldError(w, "toWorkspaceId", "The codes are in this workspace already")
		return
	}
	user := auth.UserFrom(r.Context())
	to, err := s.store.MemberWorkspace(r.Context(), user.ID, in.ToWorkspaceID)
	if errors.Is(err, store.ErrNotFound) {
		writeJSON(w, http.StatusNotFound, apiError{Message: msgWorkspaceMissing, Errors: map[string]string{"toWorkspaceId": msgWorkspaceMissing}})
		return
	} else if err != nil {
		s.internalError(w, "finding the workspace", err)
		return
	}
	if !s.twoFactorMet(w, r, to) || !s.ssoMet(w, r, to) {
		return
	}
	if !auth.Allowed(to.Role, auth.PermManage) {
		writeError(w, http.StatusForbidden, roleTooWeak(r, to, auth.PermManage))
		return
	}
	refs, ok := s.bulkSelection(w, r, in.IDs, in.Filter, nil)
	if !ok {
		return
	}
	limit := s.dynamicLimit(to)
	if limit > 0 {
		// All or nothing: every batch holds the limit again, under the
		// lock a creation takes, for moves and creations meanwhile.
		dynamic := 0
		for _, ref := range refs {
			if ref.Dynamic {
				dynamic++
			}
		}
		n, grows, err := s.store.DynamicUsedForMove(r.Context(), from.ID, to.ID)
		if err != nil {
			s.internalError(w, "counting dynamic codes", err)
			return
		}
		if grows && dynamic > 0 && n+dynamic > limit {
			writeError(w, http.StatusForbidden, fmt.Sprintf("%s moves %d dynamic codes and has room for %d: nothing was moved. %s",
				to.Name, dynamic, max(0, limit-n), s.limitMessage()))
			return
		}
	}
	j, err := s.bulkEditRunner.StartMove(r.Context(), from.ID, to.ID, user.ID, refs, limit)
	if err != nil {
		s.internalError(w, "starting a move", err)
		return
	}
	if j.FinishedAt == nil {
		writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "total": j.Total})
		return
	}
	s.writeMove(w, r, j)
}

// moveJSON is a move as GET /api/codes/move/{id} shows it.
type moveJSON struct {
	ID            int64              `json:"id"`
	Status        string             `json:"status"`
	ToWorkspaceID int64              `json:"toWorkspaceId"`
	Total         int                `json:"total"`
	Processed     int                `json:"processed"`
	Failed        int                `json:"failed"`
	Error         string             `json:"error,omitempty"`
	Failures      []bulkedit.Failure `json:"failures"` // the first msgMoveFailures
	CreatedAt     time.Time          `json:"createdAt"`
	FinishedAt    *time.Time         `json:"finishedAt"`
}

func (s *server) writeMove(w http.ResponseWriter, r *http.Request, j *store.BulkEditJob) {
	list, err := s.store.BulkEditFailures(r.Context(), j.ID, msgMoveFailures)
	if err != nil {
		s.internalError(w, "reading a move", err)
		return
	}
	failures := make([]bulkedit.Failure, len(list))
	for i, f := range list {
		failures[i] = bulkedit.Failure{ID: bulkedit.ID(f.Dynamic, f.ID), Reason: f.Reason}
	}
	writeJSON(w, http.StatusOK, moveJSON{ID: j.ID, Status: j.Status, ToWorkspaceID: *j.MoveTo, Total: j.Total, Processed: j.Processed,
		Failed: j.Failed, Error: j.Error, Failures: failures, CreatedAt: j.CreatedAt, FinishedAt: j.FinishedAt})
}

// move (GET /api/codes/move/{id}) is a move's progress, in the workspace
// the codes left.
func (s *server) move(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgMoveMissing)
	if !ok {
		return
	}
	j, err := s.store.BulkEditJob(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && j.MoveTo == nil):
		writeError(w, http.StatusNotFound, msgMoveMissing)
	case err != nil:
		s.internalError(w, "reading a move", err)
	default:
		s.writeMove(w, r, j)
	}
}
