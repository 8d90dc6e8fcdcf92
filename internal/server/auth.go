package server

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// userResponse is the user as the API shows it; never the password hash.
// The subscription and trial are those of the workspace the request acts
// on (issue 22), shown in Workspace.
type userResponse struct {
	ID                 int64         `json:"id"`
	Username           string        `json:"username"`
	Email              string        `json:"email"`
	FirstName          string        `json:"firstName"`
	LastName           string        `json:"lastName"`
	ClientID           int64         `json:"clientId"`
	GoogleID           string        `json:"googleId,omitempty"`
	SubscriptionStatus string        `json:"subscriptionStatus"`
	TrialActivated     bool          `json:"trialActivated"`
	TrialStartDate     *time.Time    `json:"trialStartDate"`
	TrialEndDate       *time.Time    `json:"trialEndDate"`
	IsAdmin            bool          `json:"isAdmin"`
	CreatedAt          time.Time     `json:"createdAt"`
	Workspace          *workspaceRef `json:"workspace"`
	// HasPassword tells the Change Password dialog whether to ask for the
	// current one; EmailVerified whether the address was proven.
	HasPassword   bool `json:"hasPassword"`
	EmailVerified bool `json:"emailVerified"`
}

// userJSON shows u with the workspace r acts on, or, on a route outside
// one (signing in, registering), u's personal workspace.
func (s *server) userJSON(r *http.Request, u *store.User) userResponse {
	out := userResponse{
		ID:            u.ID,
		Username:      u.Username,
		Email:         u.Email,
		FirstName:     u.FirstName,
		LastName:      u.LastName,
		ClientID:      u.ClientID,
		GoogleID:      u.GoogleID,
		IsAdmin:       s.auth.IsAdmin(u),
		CreatedAt:     u.CreatedAt,
		HasPassword:   u.PasswordHash != "",
		EmailVerified: u.EmailVerified,
	}
	ws := workspaceFrom(r.Context())
	if ws == nil || auth.UserFrom(r.Context()) == nil || auth.UserFrom(r.Context()).ID != u.ID {
		var err error
		if ws, err = s.store.PersonalWorkspace(r.Context(), u.ID); err != nil {
			s.log.ErrorContext(r.Context(), "reading a personal workspace", "user", u.ID, "err", err)
			out.SubscriptionStatus = "free"
			return out
		}
	}
	out.SubscriptionStatus = ws.SubscriptionStatus
	out.TrialActivated, out.TrialStartDate, out.TrialEndDate = ws.TrialActivated, ws.TrialStartDate, ws.TrialEndDate
	out.Workspace = &workspaceRef{ID: ws.ID, Name: ws.Name, Role: ws.Role, Require2FA: ws.Require2FA}
	return out
}

const maxNameLength = 100 // characters, for firstName and lastName

const (
	msgTooManyAccounts = "Too many accounts created from this address. Please try again later."
	msgAccountExists   = "An account with this email already exists"
	msgClaimMailed     = "This email already has an account that has not been confirmed. We have sent a link to that address: follow it to choose your password and sign in."
	msgNoPasswordYet   = "This account has no password yet. We have sent a link to its email address to choose one."
	msgTooManyLogins   = "Too many failed login attempts. Please try again in a minute."
	msgTooManyStarts   = "Too many sign-ins started from this address. Please try again in a minute."
	msgAccountLocked   = "Too many failed login attempts for this account. Please try again later."
	msgHashingBusy     = "Too many attempts at once. Please try again in a moment."
)

// register (POST /api/register) creates a password account and signs it
// in; the account works at once and is mailed a link that proves its
// address, unless the request brings the token of a pending invitation to
// that address (invitationToken: the invitation's mailed link proved it),
// which confirms it at once. An address held by an account nobody has
// proven, or by one without a password, is not refused: it is mailed a
// link to claim the account (choose a password), and nobody is signed in.
func (s *server) register(w http.ResponseWriter, r *http.Request) {
	// Every attempt counts, so probing for taken e-mails is limited too.
	if !s.signup.take(w, clientKey(r), msgTooManyAccounts) {
		return
	}

	var in struct {
		Username        string  `json:"username"`
		Email           string  `json:"email"`
		Password        string  `json:"password"`
		ConfirmPassword *string `json:"confirmPassword"`
		FirstName       string  `json:"firstName"`
		LastName        string  `json:"lastName"`
		InvitationToken string  `json:"invitationToken"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.TrimSpace(in.Email)
	if email == "" {
		email = strings.TrimSpace(in.Username)
	}
	email = strings.ToLower(email)
	in.FirstName, in.LastName = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)

	var v validation
	if !validEmail(email) {
		v.add("email", "Invalid email address")
	}
	checkNewPassword(&v, "password", in.Password)
	if in.ConfirmPassword != nil && *in.ConfirmPassword != in.Password {
		v.add("confirmPassword", "Passwords don't match")
	}
	checkNames(&v, in.FirstName, in.LastName)
	if v.failed(w) {
		return
	}
	if !s.cfg.PasswordLogin {
		writeJSON(w, http.StatusForbidden, apiError{Message: msgPasswordRegisterOff, Code: codePasswordLoginOff})
		return
	}

	held, err := s.store.UserByUsername(r.Context(), email)
	switch {
	case err == nil && held.EmailVerified && held.PasswordHash != "":
		writeJSON(w, http.StatusConflict, apiError{Message: msgAccountExists, Errors: map[string]string{"email": msgAccountExists}})
		return
	case err == nil:
		message, template := msgClaimMailed, "account_claim"
		if held.EmailVerified {
			message, template = msgNoPasswordYet, "account_password"
		}
		if s.mailLink(w, r, held, store.LinkSetPassword, template, resetLinkLifetime) {
			writeJSON(w, http.StatusAccepted, map[string]string{"message": message})
		}
		return
	case !errors.Is(err, store.ErrNotFound):
		s.internalError(w, "looking up a user", err)
		return
	}

	hash, ok := s.hashPassword(w, r, in.Password)
	if !ok {
		return
	}
	invited, err := s.invitedAddress(r, in.InvitationToken, email)
	if err != nil {
		s.internalError(w, "reading an invitation", err)
		return
	}
	u := &store.User{
		ClientID:      requestClientID(r),
		Username:      email,
		Email:         email,
		EmailVerified: invited,
		PasswordHash:  hash,
		FirstName:     in.FirstName,
		LastName:      in.LastName,
	}
	if !s.createAndSignIn(w, r, u, msgAccountExists) {
		return
	}
	if !invited {
		s.sendLinkAfter(r, u, store.LinkVerifyEmail, "account_verify", verifyLinkLifetime)
	}
	writeJSON(w, http.StatusCreated, s.userJSON(r, u))
}

// invitedAddress reports whether token is the link of a pending invitation
// to email: its holder got it by mail there. An empty, unknown or expired
// token, or another address's, is simply not one.
func (s *server) invitedAddress(r *http.Request, token, email string) (bool, error) {
	if token == "" || len(token) > 256 {
		return false, nil
	}
	p, err := s.store.PreviewInvitation(r.Context(), store.TokenHash(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil && strings.EqualFold(p.Email, email), err
}

// checkNewPassword adds a new password's problem to v under field: at
// least 6 characters, and at most the 72 bytes bcrypt reads.
func checkNewPassword(v *validation, field, password string) {
	switch {
	case utf8.RuneCountInString(password) < 6:
		v.add(field, "Password must be at least 6 characters")
	case len(password) > auth.MaxPasswordBytes:
		v.add(field, "Password must be at most 72 bytes")
	}
}

// checkNames adds the problems of a trimmed first and last name to v: at
// most maxNameLength characters, and no control or invisible formatting
// characters (bidi overrides would make a name display as another).
func checkNames(v *validation, firstName, lastName string) {
	for _, f := range []struct{ field, label, value string }{
		{"firstName", "First name", firstName},
		{"lastName", "Last name", lastName},
	} {
		switch {
		case utf8.RuneCountInString(f.value) > maxNameLength:
			v.add(f.field, f.label+" must be at most 100 characters")
		case strings.ContainsFunc(f.value, isControlOrFormat):
			v.add(f.field, f.label+" must not contain control or formatting characters")
		}
	}
}

// isControlOrFormat reports control and invisible formatting characters,
// which names must not contain.
func isControlOrFormat(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// hashPassword hashes password under the per-address cap on hashes running
// at once; otherwise it has answered (429 or 500).
func (s *server) hashPassword(w http.ResponseWriter, r *http.Request, password string) (string, bool) {
	leave, ok := s.hashing.enter(w, clientKey(r), msgHashingBusy)
	if !ok {
		return "", false
	}
	defer leave()
	hash, err := s.auth.HashPassword(password)
	if err != nil {
		s.internalError(w, "hashing a password", err)
		return "", false
	}
	return hash, true
}

// checkPassword compares password with u's under the same cap; ok is false
// when it has answered 429.
func (s *server) checkPassword(w http.ResponseWriter, r *http.Request, u *store.User, password string) (match, ok bool) {
	leave, ok := s.hashing.enter(w, clientKey(r), msgHashingBusy)
	if !ok {
		return false, false
	}
	defer leave()
	return s.auth.CheckPassword(u, password), true
}

// With SQUARELY_PASSWORD_LOGIN=false (issue 33 item 1) people sign in
// and register through Google, OpenID Connect or a passkey.
const (
	codePasswordLoginOff   = "password_login_off"
	msgPasswordLoginOff    = "Password sign-in is off on this instance: sign in with single sign-on or a passkey."
	msgPasswordRegisterOff = "Registration with a password is off on this instance: sign up with single sign-on."
)

// createAndSignIn creates the account u and signs it in, reporting whether
// it did. Otherwise it has answered: 403 with the sign-up policy's code
// when it refuses the address, 409 with taken when the e-mail has an
// account already, or 500.
func (s *server) createAndSignIn(w http.ResponseWriter, r *http.Request, u *store.User, taken string) bool {
	err := s.auth.CreateAccount(r.Context(), u, s.store.CreateUser)
	var refused *auth.SignupRefused
	switch {
	case errors.As(err, &refused):
		writeJSON(w, http.StatusForbidden, apiError{Message: refused.Message, Code: refused.Code})
		return false
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, taken)
		return false
	}
	if err != nil {
		s.internalError(w, "creating a user", err)
		return false
	}
	if err := s.auth.SignIn(w, r, u); err != nil {
		s.internalError(w, "signing in a new user", err)
		return false
	}
	return true
}

// loginsPerAddressFactor: a client address may fail this many times
// SQUARELY_LOGIN_RATE_LIMIT logins a minute across accounts (people behind
// one address each mistype their own password).
const loginsPerAddressFactor = 10

// takeLoginAttempt counts a password attempt before the password is
// checked: per client address and account, per client address across
// accounts (a looser ceiling), and per account from any address;
// refundLoginAttempt takes them back when it was right, so only failures
// count.
func (s *server) takeLoginAttempt(w http.ResponseWriter, r *http.Request, username string) bool {
	account := strings.ToLower(username)
	return s.logins.take(w, clientKey(r)+" "+account, msgTooManyLogins) &&
		s.addressLogins.take(w, clientKey(r), msgTooManyLogins) &&
		s.accountLogins.take(w, account, msgAccountLocked)
}

func (s *server) refundLoginAttempt(r *http.Request, username string) {
	account := strings.ToLower(username)
	s.logins.refund(clientKey(r) + " " + account)
	s.addressLogins.refund(clientKey(r))
	s.accountLogins.refund(account)
}

// login (POST /api/login) signs in with username (the e-mail) and password,
// or with a second factor on asks for it (signInOrChallenge). Failures are limited per client address and per account; while limited,
// even the right password is refused, so guessing cannot go on behind the
// 429s. An account without a password is mailed a link to choose one.
func (s *server) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	in.Username = strings.TrimSpace(in.Username)
	var v validation
	switch {
	case in.Username == "":
		v.add("username", "Username is required")
	case strings.Contains(in.Username, "@") && !validEmail(in.Username):
		// Hidden accounts (client API keys, under .invalid) never sign in.
		v.add("username", "Invalid email address")
	}
	if in.Password == "" {
		v.add("password", "Password is required")
	}
	if v.failed(w) {
		return
	}
	if !s.cfg.PasswordLogin {
		if !s.cfg.IsAdminEmail(in.Username) {
			writeJSON(w, http.StatusForbidden, apiError{Message: msgPasswordLoginOff, Code: codePasswordLoginOff})
			return
		}
		// Break-glass: an admin still gets in by password, and it shows.
		s.log.WarnContext(r.Context(), "password sign-in of an admin while SQUARELY_PASSWORD_LOGIN=false", "username", in.Username, "client", clientKey(r))
	}

	if !s.takeLoginAttempt(w, r, in.Username) {
		return
	}
	u, err := s.store.UserByUsername(r.Context(), in.Username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, "looking up a user", err)
		return
	}
	if u != nil && u.PasswordHash == "" {
		// A trial or Google account: no password to check, so a way in.
		if s.mailLink(w, r, u, store.LinkSetPassword, "account_password", resetLinkLifetime) {
			writeError(w, http.StatusUnauthorized, msgNoPasswordYet)
		}
		return
	}
	match, ok := s.checkPassword(w, r, u, in.Password)
	if !ok {
		return
	}
	if !match {
		writeError(w, http.StatusUnauthorized, "Invalid username or password")
		return
	}
	s.refundLoginAttempt(r, in.Username)
	s.signInOrChallenge(w, r, u, http.StatusOK)
}

// logout (POST /api/logout) ends the session server-side; fine without one.
func (s *server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.auth.SignOut(w, r); err != nil {
		s.internalError(w, "signing out", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Logged out"})
}

// currentUser (GET /api/user) returns the signed-in user.
func (s *server) currentUser(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.userJSON(r, auth.UserFrom(r.Context())))
}

// internalError logs err and answers a JSON 500 that reveals nothing.
func (s *server) internalError(w http.ResponseWriter, doing string, err error) {
	s.log.ErrorContext(logContext(w), "internal error", "doing", doing, "err", err)
	writeError(w, http.StatusInternalServerError, "Internal server error")
}
