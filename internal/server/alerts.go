package server

import (
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// Alerts (issue 24 item 5; the checks themselves run in internal/alerts):
// a dynamic code shows its destinations' health, its alerts can be muted,
// and each member chooses whether the workspace's alerts reach them by
// e-mail (docs/API.md "Alerts").

// healthJSON is a code's health as the API shows it.
type healthJSON struct {
	Status    string     `json:"status"` // unknown, ok or down
	Reason    string     `json:"reason"` // why url fails, e.g. "HTTP 404"
	URL       string     `json:"url"`
	Since     *time.Time `json:"since"` // the first failed check of the streak
	CheckedAt *time.Time `json:"checkedAt"`
}

func toHealthJSON(h store.Health) healthJSON {
	return healthJSON{Status: h.Status, Reason: h.Reason, URL: h.URL, Since: h.Since, CheckedAt: h.CheckedAt}
}

// setAlertsMuted (PUT /api/dynamic-qrcodes/{id}/alerts {"muted"}) mutes or
// unmutes a code's alerts: no mail and no webhook event, while its health
// is still checked and shown.
func (s *server) setAlertsMuted(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var in struct {
		Muted *bool `json:"muted"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.Muted == nil {
		fieldError(w, "muted", "muted must be true or false")
		return
	}
	d, err := s.store.SetDynamicAlertsMuted(r.Context(), wsID(r), id, *in.Muted)
	answerCode(s, w, "muting a code's alerts", d, err, func(d *store.DynamicCode) any { return s.dynamicJSON(d) })
}

// setAlertEmails (PUT /api/workspaces/{id}/alert-emails {"enabled"}) sets
// whether the caller gets the workspace's alerts by e-mail. Any member may
// choose; only owners and admins are mailed.
func (s *server) setAlertEmails(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Enabled *bool `json:"enabled"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.Enabled == nil {
		fieldError(w, "enabled", "enabled must be true or false")
		return
	}
	ws := workspaceFrom(r.Context())
	if err := s.store.SetAlertEmails(r.Context(), ws.ID, auth.UserFrom(r.Context()).ID, *in.Enabled); err != nil {
		s.internalError(w, "setting the alert e-mail choice", err)
		return
	}
	out := *ws
	out.AlertEmails = *in.Enabled
	writeJSON(w, http.StatusOK, toWorkspaceJSON(&out))
}
