package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// The signed-in devices a user can see and end (issue 27), and the mail
// about a sign-in from a new one.

// sessionsPage is where the account's sessions are listed and ended.
const sessionsPage = "/account-settings#sessions"

type sessionResponse struct {
	ID         string    `json:"id"`
	Current    bool      `json:"current"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	IP         string    `json:"ip"`
	UserAgent  string    `json:"userAgent"`
	Location   string    `json:"location"` // ISO country code, "" when unknown
}

// listSessions (GET /api/sessions) answers the signed-in user's sessions,
// the most recently used first; current marks the one asking.
func (s *server) listSessions(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.UserSessions(r.Context(), auth.UserFrom(r.Context()).ID, s.now())
	if err != nil {
		s.internalError(w, "listing sessions", err)
		return
	}
	current, _ := auth.SessionID(r)
	out := make([]sessionResponse, 0, len(list))
	for _, x := range list {
		out = append(out, sessionResponse{
			ID: x.ID, Current: x.ID == current, CreatedAt: x.CreatedAt, LastSeenAt: x.LastSeenAt,
			IP: x.IP, UserAgent: x.UserAgent, Location: x.Country,
		})
	}
	writeJSON(w, http.StatusOK, out)
}

// deleteSession (DELETE /api/sessions/{id}) ends one of the user's
// sessions at once: its next request is signed out. Ending the current
// one signs out.
func (s *server) deleteSession(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionParam(w, r)
	if !ok {
		return
	}
	err := s.store.DeleteUserSession(r.Context(), auth.UserFrom(r.Context()).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgSessionMissing)
		return
	}
	if err != nil {
		s.internalError(w, "ending a session", err)
		return
	}
	if current, _ := auth.SessionID(r); current == id {
		if err := s.auth.SignOut(w, r); err != nil {
			s.internalError(w, "signing out", err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Session ended"})
}

// revokeOtherSessions (POST /api/sessions/revoke-others) ends every
// session of the user but the one asking.
func (s *server) revokeOtherSessions(w http.ResponseWriter, r *http.Request) {
	current, _ := auth.SessionID(r)
	n, err := s.store.DeleteOtherSessions(r.Context(), auth.UserFrom(r.Context()).ID, current)
	if err != nil {
		s.internalError(w, "ending sessions", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Signed out of every other session", "ended": n})
}

// maxMailedUserAgent bounds, in bytes, the User-Agent a new-device mail
// quotes.
const maxMailedUserAgent = 160

// reportedUserAgent is a sign-in's User-Agent as a new-device mail quotes
// it: whoever signs in writes it, so it is the browser's words and not
// ours, in quotes, cut on a rune boundary (with "…") and with control and
// formatting characters (such as bidirectional overrides) as spaces.
func reportedUserAgent(ua string) string {
	ua = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, ua))
	if ua == "" {
		return "none"
	}
	if cut := truncate(ua, maxMailedUserAgent); cut != ua {
		ua = cut + "…"
	}
	return `"` + ua + `"`
}

// mailNewDevice tells u about a sign-in from a browser u has not used
// before: when, with what (the User-Agent, quoted), from which country,
// and where to end it. The mail is queued (the outbox sends it), so the
// sign-in never waits for SMTP; a failure to queue it is logged, and the
// sign-in goes on.
func (s *server) mailNewDevice(r *http.Request, u *store.User, sess *store.Session) {
	country := sess.Country
	if country == "" {
		country = "unknown"
	}
	err := s.store.QueueMail(context.WithoutCancel(r.Context()), u.Email, "account_new_device", map[string]any{
		"Time":    sess.CreatedAt.UTC().Format("2 January 2006, 15:04 UTC"),
		"Browser": reportedUserAgent(sess.UserAgent),
		"Country": country,
		"IP":      sess.IP,
		"Link":    s.cfg.BaseURL + sessionsPage,
	}, s.now())
	if err != nil {
		s.log.Error("queueing the mail of a new-device sign-in", "user", u.ID, "err", err)
		return
	}
	s.outbox.Wake()
}

// signInProviders (GET /api/auth/providers) tells the sign-in page which
// single sign-on button to show (the OpenID Connect provider by its label)
// and the instance's sign-up policy.
// Whether Google is on is told once, by the white-label config's
// googleSignIn, which every page has fetched already.
func (s *server) signInProviders(w http.ResponseWriter, r *http.Request) {
	var oidc any
	if s.auth.OIDC != nil {
		oidc = map[string]string{"name": s.auth.OIDC.Name}
	}
	// The sign-up policy, so the app shows it before anyone fills a form.
	domains := s.cfg.SignupDomains
	if domains == nil {
		domains = []string{}
	}
	// "Sign in with SSO" once a workspace has SAML set up.
	saml, err := s.store.AnySSO(r.Context())
	if err != nil {
		s.internalError(w, "reading single sign-on", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"oidc": oidc, "saml": saml, "signup": s.cfg.Signup, "signupDomains": domains})
}
