package server

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// userResponse is the user as the API shows it; never the password hash.
type userResponse struct {
	ID                 int64      `json:"id"`
	Username           string     `json:"username"`
	Email              string     `json:"email"`
	FirstName          string     `json:"firstName"`
	LastName           string     `json:"lastName"`
	ClientID           int64      `json:"clientId"`
	GoogleID           string     `json:"googleId,omitempty"`
	SubscriptionStatus string     `json:"subscriptionStatus"`
	TrialActivated     bool       `json:"trialActivated"`
	TrialStartDate     *time.Time `json:"trialStartDate"`
	TrialEndDate       *time.Time `json:"trialEndDate"`
	IsAdmin            bool       `json:"isAdmin"`
	CreatedAt          time.Time  `json:"createdAt"`
}

func (s *server) userJSON(u *store.User) userResponse {
	return userResponse{
		ID:                 u.ID,
		Username:           u.Username,
		Email:              u.Email,
		FirstName:          u.FirstName,
		LastName:           u.LastName,
		ClientID:           u.ClientID,
		GoogleID:           u.GoogleID,
		SubscriptionStatus: u.SubscriptionStatus,
		TrialActivated:     u.TrialActivated,
		TrialStartDate:     u.TrialStartDate,
		TrialEndDate:       u.TrialEndDate,
		IsAdmin:            s.auth.IsAdmin(u),
		CreatedAt:          u.CreatedAt,
	}
}

const maxNameLength = 100 // characters, for firstName and lastName

const msgTooManyAccounts = "Too many accounts created from this address. Please try again later."

// register (POST /api/register) creates a password account and signs it in.
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
	checkNewPassword(&v, in.Password)
	if in.ConfirmPassword != nil && *in.ConfirmPassword != in.Password {
		v.add("confirmPassword", "Passwords don't match")
	}
	if utf8.RuneCountInString(in.FirstName) > maxNameLength {
		v.add("firstName", "First name must be at most 100 characters")
	}
	if utf8.RuneCountInString(in.LastName) > maxNameLength {
		v.add("lastName", "Last name must be at most 100 characters")
	}
	if v.failed(w) {
		return
	}

	hash, err := s.auth.HashPassword(in.Password)
	if err != nil {
		s.internalError(w, "hashing a password", err)
		return
	}
	u := &store.User{
		ClientID:     requestClientID(r),
		Username:     email,
		Email:        email,
		PasswordHash: hash,
		FirstName:    in.FirstName,
		LastName:     in.LastName,
	}
	if s.createAndSignIn(w, r, u, "An account with this email already exists") {
		writeJSON(w, http.StatusCreated, s.userJSON(u))
	}
}

// checkNewPassword adds a new password's problem to v: at least 6
// characters, and at most the 72 bytes bcrypt reads.
func checkNewPassword(v *validation, password string) {
	switch {
	case utf8.RuneCountInString(password) < 6:
		v.add("password", "Password must be at least 6 characters")
	case len(password) > auth.MaxPasswordBytes:
		v.add("password", "Password must be at most 72 bytes")
	}
}

// createAndSignIn creates the account u and signs it in, reporting whether
// it did. Otherwise it has answered: 409 with taken when the e-mail has an
// account already, or 500.
func (s *server) createAndSignIn(w http.ResponseWriter, r *http.Request, u *store.User, taken string) bool {
	err := s.store.CreateUser(r.Context(), u)
	if errors.Is(err, store.ErrConflict) {
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

// login (POST /api/login) signs in with username (the e-mail) and password.
// Failures per client address are limited; while limited, even the right
// password is refused, so guessing cannot go on behind the 429s.
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
	if in.Username == "" {
		v.add("username", "Username is required")
	}
	if in.Password == "" {
		v.add("password", "Password is required")
	}
	if v.failed(w) {
		return
	}

	key := clientKey(r)
	if !s.logins.admit(w, key, "Too many failed login attempts. Please try again in a minute.") {
		return
	}
	u, err := s.store.UserByUsername(r.Context(), in.Username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, "looking up a user", err)
		return
	}
	if !s.auth.CheckPassword(u, in.Password) {
		s.logins.add(key)
		writeError(w, http.StatusUnauthorized, "Invalid username or password")
		return
	}
	if err := s.auth.SignIn(w, r, u); err != nil {
		s.internalError(w, "signing in", err)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(u))
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
	writeJSON(w, http.StatusOK, s.userJSON(auth.UserFrom(r.Context())))
}

// internalError logs err and answers a JSON 500 that reveals nothing.
func (s *server) internalError(w http.ResponseWriter, doing string, err error) {
	s.log.Error("internal error", "doing", doing, "err", err)
	writeError(w, http.StatusInternalServerError, "Internal server error")
}
