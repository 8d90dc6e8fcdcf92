package server

import (
	"errors"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// The free trial (spec 01 §3, §4, §9): 3 days, no card. While it runs the
// workspace has premium rights, what a subscription adds (premium).

const trialLength = 3 * 24 * time.Hour

const (
	msgTrialEmailRequired = "Please enter your email address to activate your free trial."
	msgTrialEmailInvalid  = "Please enter a valid email"
	msgTrialUsed          = "Your free trial has already been used"
	msgTrialAccountExists = "An account with this email already exists. Please log in to activate your free trial."
	msgTrialActivated     = "Free trial activated"
	msgPasswordLinkBad    = "This link is invalid or has expired. Please ask for a new one."
)

type trialStatus struct {
	IsActive   bool `json:"isActive"`
	HasExpired bool `json:"hasExpired"`
	// TrialUsed: the signed-in account started its one trial, in this
	// workspace or another, so none is offered here.
	TrialUsed          bool   `json:"trialUsed"`
	DaysRemaining      int    `json:"daysRemaining"`
	SubscriptionStatus string `json:"subscriptionStatus"`
	DynamicQRUsed      int    `json:"dynamicQRUsed"`
	DynamicQRLimit     int    `json:"dynamicQRLimit"`
	CanCreateDynamicQR bool   `json:"canCreateDynamicQR"`
}

// trialRunning reports whether the workspace's trial has started and not ended.
func (s *server) trialRunning(ws *store.Workspace) bool {
	return ws.TrialActivated && ws.TrialEndDate != nil && ws.TrialEndDate.After(s.now())
}

// trialStatus (GET /api/trial-status, signed in). daysRemaining counts
// started days (2.1 days left is 3); premium rights (a subscription, the
// running trial) can always create.
func (s *server) trialStatus(w http.ResponseWriter, r *http.Request) {
	ws := workspaceFrom(r.Context())
	used, err := s.store.CountDynamicCodes(r.Context(), ws.ID, s.now())
	if err != nil {
		s.internalError(w, "counting dynamic codes", err)
		return
	}
	now := s.now()
	u := auth.UserFrom(r.Context())
	st := trialStatus{
		TrialUsed:          ws.TrialActivated || (u != nil && u.TrialActivated),
		SubscriptionStatus: ws.SubscriptionStatus,
		DynamicQRUsed:      used,
		DynamicQRLimit:     s.cfg.DynamicLimit,
	}
	if ws.TrialActivated && ws.TrialEndDate != nil {
		st.IsActive = s.trialRunning(ws)
		st.HasExpired = !st.IsActive
		if st.IsActive {
			st.DaysRemaining = int(math.Ceil(ws.TrialEndDate.Sub(now).Hours() / 24))
		}
	}
	limit := s.dynamicLimit(ws)
	st.CanCreateDynamicQR = limit == 0 || used < limit
	writeJSON(w, http.StatusOK, st)
}

// activateTrial (POST /api/activate-trial {email}) starts the trial of the
// signed-in user, or, for a visitor with a new e-mail, creates a
// password-less account on trial, signs it in and mails it a link to set a
// password. That account stays unverified until the link is followed, which
// ends every other session: whoever typed someone else's address loses the
// account the moment its owner claims it. A visitor is never signed in to
// an existing account: they are asked to log in.
func (s *server) activateTrial(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	switch {
	case email == "":
		fieldError(w, "email", msgTrialEmailRequired)
		return
	case !validEmail(email):
		fieldError(w, "email", msgTrialEmailInvalid)
		return
	}
	ctx := r.Context()
	now := s.now()
	end := now.Add(trialLength)

	if u := auth.UserFrom(ctx); u != nil {
		// The trial is the active workspace's, a matter for its owners.
		ws := workspaceFrom(ctx)
		if ws == nil || !auth.Allowed(ws.Role, auth.PermOwn) {
			writeError(w, http.StatusForbidden, msgNoPermission)
			return
		}
		err := s.store.ActivateTrial(ctx, ws.ID, u.ID, now, end)
		if errors.Is(err, store.ErrConflict) {
			writeError(w, http.StatusConflict, msgTrialUsed)
			return
		}
		if err != nil {
			s.internalError(w, "activating a trial", err)
			return
		}
		fresh, err := s.store.MemberWorkspace(ctx, u.ID, ws.ID)
		if err != nil {
			s.internalError(w, "reading a workspace", err)
			return
		}
		actor, _ := store.ActorFrom(ctx)
		r = withWorkspace(r, fresh, actor)
		writeJSON(w, http.StatusOK, map[string]any{"message": msgTrialActivated, "user": s.userJSON(r, u)})
		return
	}

	// A visitor creates an account: limited like registration.
	if !s.signup.take(w, clientKey(r), msgTooManyAccounts) {
		return
	}
	u := &store.User{Username: email, Email: email, TrialActivated: true, TrialStartDate: &now, TrialEndDate: &end, CreatedAt: now}
	if !s.createAndSignIn(w, r, u, msgTrialAccountExists) {
		return
	}
	s.sendLinkAfter(r, u, store.LinkSetPassword, "trial_password", trialLinkLifetime)
	writeJSON(w, http.StatusOK, map[string]any{"message": msgTrialActivated, "user": s.userJSON(r, u)})
}

// setPassword (POST /api/set-password {token, password}) sets the password
// of the account a set-password link was sent to, and signs it in (after
// its second factor, when it has one). Following the link proves the
// address and ends every other session.
// Attempts count as failed logins until one succeeds, and the link is
// checked before the password is hashed, so guessing links costs no CPU.
func (s *server) setPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	token := strings.TrimSpace(in.Token)
	var v validation
	if token == "" {
		v.add("token", msgPasswordLinkBad)
	}
	checkNewPassword(&v, "password", in.Password)
	if v.failed(w) {
		return
	}
	key := clientKey(r)
	if !s.logins.take(w, key, "Too many failed attempts. Please try again in a minute.") {
		return
	}
	valid, err := s.store.PasswordTokenValid(r.Context(), store.LinkSetPassword, store.TokenHash(token), s.now())
	if err != nil {
		s.internalError(w, "checking a set-password link", err)
		return
	}
	if !valid {
		fieldError(w, "token", msgPasswordLinkBad)
		return
	}
	hash, ok := s.hashPassword(w, r, in.Password)
	if !ok {
		return
	}
	u, err := s.store.UsePasswordToken(r.Context(), store.TokenHash(token), s.now(), hash)
	if errors.Is(err, store.ErrNotFound) { // used by a parallel request meanwhile
		fieldError(w, "token", msgPasswordLinkBad)
		return
	}
	if err != nil {
		s.internalError(w, "setting a password", err)
		return
	}
	s.logins.refund(key)
	s.signInOrChallenge(w, r, u, http.StatusOK)
}
