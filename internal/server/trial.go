package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// The free trial (spec 01 §3, §4, §9): 3 days, no card. The dynamic limit
// is the same with or without it; only an active subscription lifts it.

const (
	trialLength = 3 * 24 * time.Hour
	// passwordLinkLifetime is how long the set-password link of a
	// password-less trial account works.
	passwordLinkLifetime = 7 * 24 * time.Hour
)

const (
	msgTrialEmailRequired = "Please enter your email address to activate your free trial."
	msgTrialEmailInvalid  = "Please enter a valid email"
	msgTrialUsed          = "Your free trial has already been used"
	msgTrialAccountExists = "An account with this email already exists. Please log in to activate your free trial."
	msgTrialActivated     = "Free trial activated"
	msgPasswordLinkBad    = "This link is invalid or has expired. Please ask for a new one."
)

type trialStatus struct {
	IsActive           bool   `json:"isActive"`
	HasExpired         bool   `json:"hasExpired"`
	DaysRemaining      int    `json:"daysRemaining"`
	SubscriptionStatus string `json:"subscriptionStatus"`
	DynamicQRUsed      int    `json:"dynamicQRUsed"`
	DynamicQRLimit     int    `json:"dynamicQRLimit"`
	CanCreateDynamicQR bool   `json:"canCreateDynamicQR"`
}

// trialStatus (GET /api/trial-status, signed in). daysRemaining counts
// started days (2.1 days left is 3); an active subscriber can always create.
func (s *server) trialStatus(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	used, err := s.store.CountDynamicCodes(r.Context(), u.ID)
	if err != nil {
		s.internalError(w, "counting dynamic codes", err)
		return
	}
	now := s.now()
	st := trialStatus{
		SubscriptionStatus: u.SubscriptionStatus,
		DynamicQRUsed:      used,
		DynamicQRLimit:     s.cfg.DynamicLimit,
	}
	if u.TrialActivated && u.TrialEndDate != nil {
		left := u.TrialEndDate.Sub(now)
		st.IsActive = left > 0
		st.HasExpired = !st.IsActive
		if st.IsActive {
			st.DaysRemaining = int(math.Ceil(left.Hours() / 24))
		}
	}
	limit := s.dynamicLimit(u)
	st.CanCreateDynamicQR = limit == 0 || used < limit
	writeJSON(w, http.StatusOK, st)
}

// activateTrial (POST /api/activate-trial {email}) starts the trial of the
// signed-in user, or, for a visitor with a new e-mail, creates a
// password-less account on trial, signs it in and mails it a link to set a
// password. A visitor is never signed in to an existing account: they are
// asked to log in.
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
		err := s.store.ActivateTrial(ctx, u.ID, now, end)
		if errors.Is(err, store.ErrConflict) {
			writeError(w, http.StatusConflict, msgTrialUsed)
			return
		}
		if err != nil {
			s.internalError(w, "activating a trial", err)
			return
		}
		fresh, err := s.store.User(ctx, u.ID)
		if err != nil {
			s.internalError(w, "reading a user", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"message": msgTrialActivated, "user": s.userJSON(fresh)})
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
	// The account works without the mail; a failure is logged, not fatal.
	if err := s.sendPasswordLink(r, u); err != nil {
		s.log.Error("sending a set-password link", "user", u.ID, "err", err)
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": msgTrialActivated, "user": s.userJSON(u)})
}

// sendPasswordLink mails u a one-time link to {base}/set-password?token=…;
// the database keeps only the token's SHA-256.
func (s *server) sendPasswordLink(r *http.Request, u *store.User) error {
	raw := make([]byte, 32)
	rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	if err := s.store.CreatePasswordToken(r.Context(), u.ID, tokenHash(token), s.now().Add(passwordLinkLifetime)); err != nil {
		return err
	}
	link := s.cfg.BaseURL + "/set-password?token=" + token
	m, err := mail.Render(u.Email, "trial_password", mail.Data{BaseURL: s.cfg.BaseURL, Fields: map[string]any{"Link": link}})
	if err != nil {
		return err
	}
	return s.mailer.Send(r.Context(), m)
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// setPassword (POST /api/set-password {token, password}) sets the password
// of the account a set-password link was sent to, and signs it in.
func (s *server) setPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	var v validation
	if strings.TrimSpace(in.Token) == "" {
		v.add("token", msgPasswordLinkBad)
	}
	checkNewPassword(&v, in.Password)
	if v.failed(w) {
		return
	}
	// Bad links count as failed logins: each attempt costs a bcrypt hash.
	key := clientKey(r)
	if !s.logins.admit(w, key, "Too many failed attempts. Please try again in a minute.") {
		return
	}
	hash, err := s.auth.HashPassword(in.Password)
	if err != nil {
		s.internalError(w, "hashing a password", err)
		return
	}
	u, err := s.store.UsePasswordToken(r.Context(), tokenHash(strings.TrimSpace(in.Token)), s.now(), hash)
	if errors.Is(err, store.ErrNotFound) {
		s.logins.add(key)
		fieldError(w, "token", msgPasswordLinkBad)
		return
	}
	if err != nil {
		s.internalError(w, "setting a password", err)
		return
	}
	if err := s.auth.SignIn(w, r, u); err != nil {
		s.internalError(w, "signing in", err)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(u))
}
