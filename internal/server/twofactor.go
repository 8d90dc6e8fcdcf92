package server

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// Two-factor sign-in (issue 27): TOTP set up and enabled from the account
// settings, recovery codes, and the second step of a sign-in.

const (
	msgCodeWrong          = "Invalid code"
	msgRecoveryCodeWrong  = "Invalid recovery code"
	msgPendingGone        = "Your sign-in has expired. Please sign in again."
	msgTOTPAlreadyOn      = "Two-factor authentication is already on"
	msgTOTPOff            = "Two-factor authentication is not on"
	msgTOTPNotSetUp       = "Set up two-factor authentication first"
	msgVerifyBefore2FA    = "Confirm your email address before turning on two-factor authentication"
	msgPasswordOrCode     = "Enter your password or a code from your authenticator app"
	msgPasswordOrCodeBad  = "Incorrect password or code"
	msgCodeReused         = "This code was just used, wait for the next one"
	totpIssuer            = "Squarely"
	totpQRPixels          = 240
	maxSecondFactorLength = 64 // bytes of a typed code; longer cannot be one
	msgSuspended          = "This account is deactivated by the organisation that manages it"
)

// signInOrChallenge signs u in and answers status with the user, or, when
// u has a second factor, starts a pending sign-in and answers 200
// {"twoFactorRequired": true, "methods": [...]}.
func (s *server) signInOrChallenge(w http.ResponseWriter, r *http.Request, u *store.User, status int) {
	methods, err := s.auth.SignInOrChallenge(w, r, u)
	if errors.Is(err, auth.ErrSuspended) {
		writeJSON(w, http.StatusForbidden, apiError{Message: msgSuspended, Code: "account_suspended"})
		return
	}
	if err != nil {
		s.internalError(w, "signing in", err)
		return
	}
	if methods != nil {
		writeJSON(w, http.StatusOK, map[string]any{"twoFactorRequired": true, "methods": methods})
		return
	}
	writeJSON(w, status, s.userJSON(r, u))
}

// twoFactorStatus (GET /api/2fa) says what the signed-in user has set up.
func (s *server) twoFactorStatus(w http.ResponseWriter, r *http.Request) {
	f, err := s.store.TwoFactorOf(r.Context(), auth.UserFrom(r.Context()).ID)
	if err != nil {
		s.internalError(w, "reading second factors", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"totp": f.TOTP, "recoveryCodesLeft": f.RecoveryCodes})
}

// setupTOTP (POST /api/2fa/totp/setup) gives the signed-in user a new TOTP
// secret, as text, as an otpauth:// URL and as a QR code of it (a PNG data
// URL drawn by our renderer). It works only once enabled with a code.
func (s *server) setupTOTP(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	if !u.EmailVerified {
		writeError(w, http.StatusForbidden, msgVerifyBefore2FA)
		return
	}
	secret := auth.NewTOTPSecret()
	err := s.store.SetupTOTP(r.Context(), u.ID, secret, s.now())
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, msgTOTPAlreadyOn)
		return
	}
	if err != nil {
		s.internalError(w, "setting up TOTP", err)
		return
	}
	otpURL := auth.TOTPURL(totpIssuer, u.Email, secret)
	style, err := codes.Style{}.Normalize()
	if err != nil {
		s.internalError(w, "styling a TOTP code", err)
		return
	}
	var png bytes.Buffer
	if err := codes.Write(&png, otpURL, style, codes.Options{Format: codes.PNG, Pixels: totpQRPixels}); err != nil {
		s.internalError(w, "drawing a TOTP code", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{
		"secret":     secret,
		"otpauthUrl": otpURL,
		"qrCode":     "data:image/png;base64," + base64.StdEncoding.EncodeToString(png.Bytes()),
	})
}

// enableTOTP (POST /api/2fa/totp/enable {code}) turns on the secret set up
// last once code proves the app has it, and answers the recovery codes,
// shown this once. Wrong codes count as failed logins.
func (s *server) enableTOTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code string `json:"code"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.Code == "" || len(in.Code) > maxSecondFactorLength {
		fieldError(w, "code", "Enter the 6-digit code from your authenticator app")
		return
	}
	u := auth.UserFrom(r.Context())
	secret, enabled, err := s.store.TOTPSecret(r.Context(), u.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusConflict, msgTOTPNotSetUp)
		return
	case err != nil:
		s.internalError(w, "reading a TOTP secret", err)
		return
	case enabled:
		writeError(w, http.StatusConflict, msgTOTPAlreadyOn)
		return
	}
	if !s.takeLoginAttempt(w, r, u.Username) {
		return
	}
	steps := auth.MatchTOTP(secret, in.Code, s.now())
	if len(steps) == 0 {
		fieldError(w, "code", msgCodeWrong)
		return
	}
	s.refundLoginAttempt(r, u.Username)
	plain, hashes := auth.NewRecoveryCodes()
	err = s.store.EnableTOTP(r.Context(), u.ID, steps[len(steps)-1], hashes, s.now())
	if errors.Is(err, store.ErrNotFound) { // enabled, or set up anew, meanwhile
		writeError(w, http.StatusConflict, msgTOTPNotSetUp)
		return
	}
	if err != nil {
		s.internalError(w, "enabling TOTP", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"recoveryCodes": plain})
}

// disableTwoFactor (POST /api/2fa/disable {password} or {code}) turns TOTP
// off and drops the recovery codes, given the password or a code (TOTP or
// recovery): a session alone cannot.
func (s *server) disableTwoFactor(w http.ResponseWriter, r *http.Request) {
	u, ok := s.confirmTwoFactorChange(w, r)
	if !ok {
		return
	}
	if err := s.store.DisableTOTP(r.Context(), u.ID); err != nil {
		s.internalError(w, "disabling TOTP", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Two-factor authentication is off"})
}

// regenerateRecoveryCodes (POST /api/2fa/recovery-codes {password} or
// {code}) replaces every recovery code with 10 new ones, shown this once.
func (s *server) regenerateRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	u, ok := s.confirmTwoFactorChange(w, r)
	if !ok {
		return
	}
	plain, hashes := auth.NewRecoveryCodes()
	if err := s.store.ReplaceRecoveryCodes(r.Context(), u.ID, hashes); err != nil {
		s.internalError(w, "replacing recovery codes", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"recoveryCodes": plain})
}

// confirmTwoFactorChange reads {password} or {code} (a TOTP or recovery
// code) and checks it for the signed-in user, whose TOTP must be on. The
// attempt counts as a failed login until it is right. Otherwise it has
// answered.
func (s *server) confirmTwoFactorChange(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	var in struct {
		Password string `json:"password"`
		Code     string `json:"code"`
	}
	if !decodeJSON(w, r, &in) {
		return nil, false
	}
	u := auth.UserFrom(r.Context())
	if in.Password == "" && in.Code == "" || len(in.Code) > maxSecondFactorLength {
		fieldError(w, "code", msgPasswordOrCode)
		return nil, false
	}
	f, err := s.store.TwoFactorOf(r.Context(), u.ID)
	if err != nil {
		s.internalError(w, "reading second factors", err)
		return nil, false
	}
	if !f.TOTP {
		writeError(w, http.StatusConflict, msgTOTPOff)
		return nil, false
	}
	if !s.takeLoginAttempt(w, r, u.Username) {
		return nil, false
	}
	var match, ok bool
	if in.Password != "" {
		if match, ok = s.checkPassword(w, r, u, in.Password); !ok {
			return nil, false
		}
	} else if match, err = s.checkSecondFactor(r, u, in.Code); errors.Is(err, auth.ErrTOTPReused) {
		fieldError(w, "code", msgCodeReused)
		return nil, false
	} else if err != nil {
		s.internalError(w, "checking a code", err)
		return nil, false
	}
	if !match {
		fieldError(w, "code", msgPasswordOrCodeBad)
		return nil, false
	}
	s.refundLoginAttempt(r, u.Username)
	return u, true
}

// checkSecondFactor reports whether code is a fresh TOTP code or an unused
// recovery code of u, using it up.
func (s *server) checkSecondFactor(r *http.Request, u *store.User, code string) (bool, error) {
	ok, err := s.auth.CheckTOTP(r.Context(), u, code)
	if ok || err != nil {
		return ok, err // a reused code is not a recovery code either
	}
	return s.auth.CheckRecoveryCode(r.Context(), u, code)
}

// pendingLogin (GET /api/login/2fa) answers the methods that can finish
// the browser's pending sign-in, or 401 when it has none.
func (s *server) pendingLogin(w http.ResponseWriter, r *http.Request) {
	u, ok := s.pendingUser(w, r)
	if !ok {
		return
	}
	methods, err := s.auth.SecondFactors(r.Context(), u)
	if err != nil {
		s.internalError(w, "reading second factors", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"methods": methods})
}

// pendingUser returns the user of the request's pending sign-in; otherwise
// it has answered (401 when there is none or it expired).
func (s *server) pendingUser(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	u, err := s.auth.PendingUser(r)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusUnauthorized, msgPendingGone)
		return nil, false
	}
	if err != nil {
		s.internalError(w, "reading a pending sign-in", err)
		return nil, false
	}
	return u, true
}

// loginSecondFactor (POST /api/login/2fa {code} or {recoveryCode})
// finishes a pending sign-in. Attempts count against the client address
// and the account before the code is checked, like passwords.
func (s *server) loginSecondFactor(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code         string `json:"code"`
		RecoveryCode string `json:"recoveryCode"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	switch {
	case in.Code == "" && in.RecoveryCode == "":
		fieldError(w, "code", "Enter the 6-digit code from your authenticator app")
		return
	case len(in.Code) > maxSecondFactorLength:
		fieldError(w, "code", msgCodeWrong)
		return
	case len(in.RecoveryCode) > maxSecondFactorLength:
		fieldError(w, "recoveryCode", msgRecoveryCodeWrong)
		return
	}
	u, ok := s.pendingUser(w, r)
	if !ok || !s.takeLoginAttempt(w, r, u.Username) {
		return
	}
	var (
		match bool
		err   error
	)
	if in.Code != "" {
		match, err = s.auth.CheckTOTP(r.Context(), u, in.Code)
	} else {
		match, err = s.auth.CheckRecoveryCode(r.Context(), u, in.RecoveryCode)
	}
	if errors.Is(err, auth.ErrTOTPReused) {
		writeJSON(w, http.StatusUnauthorized, apiError{Message: msgCodeReused, Errors: map[string]string{"code": msgCodeReused}})
		return
	}
	if err != nil {
		s.internalError(w, "checking a code", err)
		return
	}
	if !match {
		field, message := "code", msgCodeWrong
		if in.Code == "" {
			field, message = "recoveryCode", msgRecoveryCodeWrong
		}
		writeJSON(w, http.StatusUnauthorized, apiError{Message: message, Errors: map[string]string{field: message}})
		return
	}
	s.refundLoginAttempt(r, u.Username)
	s.finishPending(w, r, u)
}

// finishPending signs in the user of the request's pending sign-in, whose
// second factor was just proven, and answers the user.
func (s *server) finishPending(w http.ResponseWriter, r *http.Request, u *store.User) {
	done, err := s.auth.CompletePending(w, r, u)
	if err != nil {
		s.internalError(w, "signing in", err)
		return
	}
	if !done {
		writeError(w, http.StatusUnauthorized, msgPendingGone)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(r, u))
}
