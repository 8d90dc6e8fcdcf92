package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// Account settings (spec 02 §2, §4, §7), passwords and proven addresses
// (issues 8 and 9).

// How long mailed links work: a trial's first set-password link and a new
// account's verification link wait a while for their owner; links asked
// for now (forgot password, claims) are used now.
const (
	trialLinkLifetime  = 7 * 24 * time.Hour
	verifyLinkLifetime = 7 * 24 * time.Hour
	resetLinkLifetime  = time.Hour
)

const (
	msgForgotMailed    = "If an account uses this email address, we have sent it a link to choose a new password. The link works once, for 1 hour."
	msgTooManyMails    = "Too many emails asked for. Please try again later."
	msgVerifyLinkBad   = "This link is invalid or has expired. Please ask for a new one."
	msgAlreadyVerified = "Your email address is already confirmed"
	msgVerifyMailed    = "We have sent a confirmation link to your email address."
)

// sendLink mails u a one-time link of the purpose, rendered with template
// (its Fields.Link); the database keeps only the token's SHA-256, and the
// token goes nowhere but the mail. Set-password links open /set-password,
// verification links /verify-email.
func (s *server) sendLink(ctx context.Context, u *store.User, purpose, template string, lifetime time.Duration) error {
	m, err := s.linkMail(ctx, u, purpose, template, lifetime)
	if err != nil {
		return err
	}
	return s.mailer.Send(ctx, m)
}

// linkMail makes the link's token and renders its mail.
func (s *server) linkMail(ctx context.Context, u *store.User, purpose, template string, lifetime time.Duration) (mail.Message, error) {
	token, hash := store.NewLinkToken()
	if err := s.store.CreatePasswordToken(ctx, u.ID, purpose, hash, s.now().Add(lifetime)); err != nil {
		return mail.Message{}, err
	}
	page := "/set-password"
	if purpose == store.LinkVerifyEmail {
		page = "/verify-email"
	}
	link := s.cfg.BaseURL + page + "?token=" + token
	return mail.Render(u.Email, template, mail.Data{BaseURL: s.cfg.BaseURL, Fields: map[string]any{"Link": link}})
}

// sendLinkAfter is sendLink for a new account, which works without the
// mail: the link is made now and mailed after the answer, so a slow or
// unreachable SMTP server (whose retries take minutes) cannot hold the
// sign-up. A failure is logged.
func (s *server) sendLinkAfter(r *http.Request, u *store.User, purpose, template string, lifetime time.Duration) {
	m, err := s.linkMail(r.Context(), u, purpose, template, lifetime)
	if err != nil {
		s.log.ErrorContext(r.Context(), "making a mailed link", "user", u.ID, "purpose", purpose, "err", err)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), backgroundMailTimeout)
		defer cancel()
		if err := s.mailer.Send(ctx, m); err != nil {
			s.log.Error("mailing a link", "user", u.ID, "purpose", purpose, "err", err)
		}
	}()
}

// mailLink is sendLink for a link someone asked for now: limited per
// e-mail address and per client address, counted before anything is sent.
// It reports whether it sent; otherwise it has answered (429 or 500).
func (s *server) mailLink(w http.ResponseWriter, r *http.Request, u *store.User, purpose, template string, lifetime time.Duration) bool {
	if !s.takeMail(w, r, u.Email) {
		return false
	}
	if err := s.sendLink(r.Context(), u, purpose, template, lifetime); err != nil {
		s.internalError(w, "mailing a link", err)
		return false
	}
	return true
}

// takeMail counts a mail asked for to email from the request's address.
func (s *server) takeMail(w http.ResponseWriter, r *http.Request, email string) bool {
	return s.accountMailsFrom.take(w, clientKey(r), msgTooManyMails) &&
		s.accountMails.take(w, strings.ToLower(email), msgTooManyMails)
}

// updateName (PUT /api/update-name {firstName, lastName}) changes the
// signed-in user's name, trimmed, and answers the user as stored.
func (s *server) updateName(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FirstName string `json:"firstName"`
		LastName  string `json:"lastName"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	in.FirstName, in.LastName = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)
	var v validation
	checkNames(&v, in.FirstName, in.LastName)
	if v.failed(w) {
		return
	}
	u := auth.UserFrom(r.Context())
	if err := s.store.UpdateUserName(r.Context(), u.ID, in.FirstName, in.LastName); err != nil {
		s.internalError(w, "updating a name", err)
		return
	}
	s.writeFreshUser(w, r, u.ID)
}

// writeFreshUser answers the user as the store now has it.
func (s *server) writeFreshUser(w http.ResponseWriter, r *http.Request, id int64) {
	u, err := s.store.User(r.Context(), id)
	if err != nil {
		s.internalError(w, "reading a user", err)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(r, u))
}

// deleteAccount (POST /api/delete-account) soft-deletes the signed-in user:
// every session of the account ends, and its dynamic codes stop
// redirecting at once (their cached redirects are dropped).
func (s *server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	if err := s.store.SoftDeleteUser(r.Context(), u.ID, s.now()); err != nil {
		s.internalError(w, "deleting an account", err)
		return
	}
	s.domains.invalidate() // the domains of workspaces deleted with it were released
	if err := s.auth.SignOut(w, r); err != nil {
		s.internalError(w, "signing out", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Account deleted"})
}

// changePassword (POST /api/change-password {currentPassword, newPassword,
// confirmPassword}) replaces the signed-in user's password and ends every
// other session of the account. An account without a password (Google,
// trial) sets its first one without a current password. A wrong current
// password counts as a failed login, per address and per account.
func (s *server) changePassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CurrentPassword string `json:"currentPassword"`
		NewPassword     string `json:"newPassword"`
		ConfirmPassword string `json:"confirmPassword"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	u := auth.UserFrom(r.Context())
	hasPassword := u.PasswordHash != ""
	var v validation
	if hasPassword && in.CurrentPassword == "" {
		v.add("currentPassword", "Current password is required")
	}
	checkNewPassword(&v, "newPassword", in.NewPassword)
	switch {
	case in.ConfirmPassword == "":
		v.add("confirmPassword", "Please confirm your new password")
	case in.ConfirmPassword != in.NewPassword:
		v.add("confirmPassword", "Passwords don't match")
	}
	if v.failed(w) {
		return
	}

	if hasPassword {
		if !s.takeLoginAttempt(w, r, u.Username) {
			return
		}
		match, ok := s.checkPassword(w, r, u, in.CurrentPassword)
		if !ok {
			return
		}
		if !match {
			fieldError(w, "currentPassword", "Current password is incorrect")
			return
		}
		s.refundLoginAttempt(r, u.Username)
	}
	hash, ok := s.hashPassword(w, r, in.NewPassword)
	if !ok {
		return
	}
	if err := s.auth.SetPassword(r, u.ID, hash); err != nil {
		s.internalError(w, "changing a password", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Password updated"})
}

// forgotPassword (POST /api/forgot-password {email}) mails the account of
// the address, if there is one, a set-password link that works once for an
// hour. The answer is the same either way, and as fast; requests are
// limited per address and per e-mail whether or not it has an account.
func (s *server) forgotPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if !validEmail(email) {
		fieldError(w, "email", "Invalid email address")
		return
	}
	if !s.takeMail(w, r, email) {
		return
	}
	// Looking the address up and mailing happen after the answer, so the
	// answer takes the same time whether or not the address has an account.
	go s.mailPasswordReset(email)
	writeJSON(w, http.StatusOK, map[string]string{"message": msgForgotMailed})
}

// backgroundMailTimeout bounds a mail no request waits for (forgot
// password's lookup and mail, a new account's link), retries included.
const backgroundMailTimeout = time.Minute

// mailPasswordReset mails the account of email, if there is one, a
// set-password link; failures are logged, since no one waits for them.
func (s *server) mailPasswordReset(email string) {
	ctx, cancel := context.WithTimeout(context.Background(), backgroundMailTimeout)
	defer cancel()
	u, err := s.store.UserByUsername(ctx, email)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		s.log.Error("looking up a user for a set-password link", "err", err)
	default:
		if err := s.sendLink(ctx, u, store.LinkSetPassword, "account_password", resetLinkLifetime); err != nil {
			s.log.Error("mailing a set-password link", "user", u.ID, "err", err)
		}
	}
}

// verifyEmail (POST /api/verify-email {token}) proves the address a
// verification link was mailed to: the account becomes verified, every
// session of it ends, and the follower of the link is signed in (after
// its second factor, when it has one).
func (s *server) verifyEmail(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token string `json:"token"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	token := strings.TrimSpace(in.Token)
	if token == "" {
		fieldError(w, "token", msgVerifyLinkBad)
		return
	}
	// Guessing links is limited like guessing passwords.
	key := clientKey(r)
	if !s.logins.take(w, key, "Too many failed attempts. Please try again in a minute.") {
		return
	}
	u, err := s.store.VerifyEmail(r.Context(), store.TokenHash(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		fieldError(w, "token", msgVerifyLinkBad)
		return
	}
	if err != nil {
		s.internalError(w, "verifying an email", err)
		return
	}
	s.logins.refund(key)
	s.signInOrChallenge(w, r, u, http.StatusOK)
}

// resendVerification (POST /api/resend-verification) mails the signed-in
// user a new verification link.
func (s *server) resendVerification(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	if u.EmailVerified {
		writeError(w, http.StatusConflict, msgAlreadyVerified)
		return
	}
	if s.mailLink(w, r, u, store.LinkVerifyEmail, "account_verify", verifyLinkLifetime) {
		writeJSON(w, http.StatusOK, map[string]string{"message": msgVerifyMailed})
	}
}
