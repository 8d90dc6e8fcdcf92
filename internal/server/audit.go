package server

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// The audit log of a workspace (issue 22 item 4): owners and admins read
// who changed what, newest first, a page at a time or all of it as CSV.

const (
	auditPageDefault = 50
	auditPageMax     = 100
	auditCSVBatch    = 500
)

type auditActorJSON struct {
	Type  string `json:"type"`
	ID    int64  `json:"id"`
	Email string `json:"email"`
}

type auditTargetJSON struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type auditEntryJSON struct {
	At      time.Time       `json:"at"`
	Actor   auditActorJSON  `json:"actor"`
	Action  string          `json:"action"`
	Target  auditTargetJSON `json:"target"`
	Details json.RawMessage `json:"details"`
}

// pageParams reads limit (1..max, default def) and cursor (an id the page
// continues below; "" = from the newest). On failure it has answered 400.
func pageParams(w http.ResponseWriter, r *http.Request, def, max int) (limit int, cursor int64, ok bool) {
	limit = def
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > max {
			fieldError(w, "limit", "limit must be a number from 1 to "+strconv.Itoa(max))
			return 0, 0, false
		}
		limit = n
	}
	if v := r.URL.Query().Get("cursor"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			fieldError(w, "cursor", "cursor is not one this list gave")
			return 0, 0, false
		}
		cursor = n
	}
	return limit, cursor, true
}

// auditLog (GET /api/workspaces/{id}/audit-log?limit=&cursor=, admin).
func (s *server) auditLog(w http.ResponseWriter, r *http.Request) {
	limit, cursor, ok := pageParams(w, r, auditPageDefault, auditPageMax)
	if !ok {
		return
	}
	list, err := s.store.AuditLog(r.Context(), wsID(r), cursor, limit+1)
	if err != nil {
		s.internalError(w, "reading the audit log", err)
		return
	}
	var next *string
	if len(list) > limit {
		list = list[:limit]
		c := strconv.FormatInt(list[limit-1].ID, 10)
		next = &c
	}
	items := make([]auditEntryJSON, len(list))
	for i, e := range list {
		items[i] = auditEntryJSON{
			At:      e.At,
			Actor:   auditActorJSON{e.Actor.Type, e.Actor.ID, e.Actor.Email},
			Action:  e.Action,
			Target:  auditTargetJSON{e.Target.Type, e.Target.ID, e.Target.Name},
			Details: json.RawMessage(e.Details),
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": next})
}

// auditLogCSV (GET /api/workspaces/{id}/audit-log.csv, admin) is the whole
// log, newest first, read in batches.
func (s *server) auditLogCSV(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="audit-log-`+strconv.FormatInt(wsID(r), 10)+`.csv"`)
	h.Set("Cache-Control", "no-store")
	cw := csv.NewWriter(w)
	cw.Write([]string{"at", "actor_type", "actor_id", "actor_email", "action", "target_type", "target_id", "target_name", "details"})
	var before int64
	for {
		list, err := s.store.AuditLog(r.Context(), wsID(r), before, auditCSVBatch)
		if err != nil {
			// The header is sent: all that can be done is to log and stop.
			s.log.Error("writing the audit log CSV", "err", err)
			break
		}
		for _, e := range list {
			cw.Write([]string{e.At.UTC().Format(time.RFC3339), e.Actor.Type, strconv.FormatInt(e.Actor.ID, 10), csvCell(e.Actor.Email),
				e.Action, e.Target.Type, strconv.FormatInt(e.Target.ID, 10), csvCell(e.Target.Name), csvCell(e.Details)})
		}
		if len(list) < auditCSVBatch {
			break
		}
		before = list[len(list)-1].ID
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		s.log.Error("writing the audit log CSV", "err", err)
	}
}
