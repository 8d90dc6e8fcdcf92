package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// A sign-in of an account with a second factor is pending until the
// second factor comes: the browser holds a token in PendingCookie for
// PendingLifetime, and nothing else (no session) until then.
const (
	PendingCookie   = "squarely_2fa"
	PendingLifetime = 5 * time.Minute
)

// Second-factor methods, as the API names them.
const (
	MethodTOTP     = "totp"
	MethodWebAuthn = "webauthn"
	MethodRecovery = "recovery"
)

// SecondFactors returns the methods that can finish a sign-in of u, or
// nil when u has no second factor. TOTP turns the second factor on;
// passkeys then serve as one too (alone, a passkey signs in without a
// password, see the server's passkeys).
func (s *Service) SecondFactors(ctx context.Context, u *store.User) ([]string, error) {
	f, err := s.Store.TwoFactorOf(ctx, u.ID)
	if err != nil || !f.TOTP {
		return nil, err
	}
	methods := []string{MethodTOTP}
	if f.Passkeys > 0 {
		methods = append(methods, MethodWebAuthn)
	}
	return append(methods, MethodRecovery), nil
}

// SignInOrChallenge signs u in when u has no second factor and returns nil
// methods. Otherwise it starts a pending sign-in (no session) and returns
// the methods that can finish it (see CompletePending).
func (s *Service) SignInOrChallenge(w http.ResponseWriter, r *http.Request, u *store.User) (methods []string, err error) {
	return s.signInOrChallenge(w, r, u, 0)
}

// SignInThroughIdP is SignInOrChallenge for a sign-in through workspace
// ssoWorkspaceID's SAML IdP: the session it starts (now, or once the second
// factor is given) counts as signed in through it.
func (s *Service) SignInThroughIdP(w http.ResponseWriter, r *http.Request, u *store.User, ssoWorkspaceID int64) (methods []string, err error) {
	return s.signInOrChallenge(w, r, u, ssoWorkspaceID)
}

func (s *Service) signInOrChallenge(w http.ResponseWriter, r *http.Request, u *store.User, ssoWorkspaceID int64) (methods []string, err error) {
	if u.Suspended {
		return nil, ErrSuspended
	}
	methods, err = s.SecondFactors(r.Context(), u)
	if err != nil {
		return nil, err
	}
	if methods == nil {
		return nil, s.signIn(w, r, u, ssoWorkspaceID)
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	now := s.now()
	if err := s.Store.CreatePendingLogin(r.Context(), hashToken(raw), u.ID, ssoWorkspaceID, now, now.Add(PendingLifetime)); err != nil {
		return nil, err
	}
	s.setLaxCookie(w, r, PendingCookie, "/api/", base64.RawURLEncoding.EncodeToString(raw), int(PendingLifetime/time.Second))
	return methods, nil
}

// PendingUser returns the user of the request's pending sign-in;
// store.ErrNotFound when there is none or it expired.
func (s *Service) PendingUser(r *http.Request) (*store.User, error) {
	id, ok := pendingID(r)
	if !ok {
		return nil, store.ErrNotFound
	}
	return s.Store.PendingLoginUser(r.Context(), id, s.now())
}

// CompletePending ends the request's pending sign-in and signs u in. It
// reports false when the pending sign-in was gone (expired, or completed
// by a parallel request), and then signs nobody in.
func (s *Service) CompletePending(w http.ResponseWriter, r *http.Request, u *store.User) (bool, error) {
	id, ok := pendingID(r)
	if !ok {
		return false, nil
	}
	ended, ssoWorkspaceID, err := s.Store.EndPendingLogin(r.Context(), id, s.now())
	if err != nil || !ended {
		return false, err
	}
	s.setLaxCookie(w, r, PendingCookie, "/api/", "", -1)
	return true, s.signIn(w, r, u, ssoWorkspaceID)
}

func pendingID(r *http.Request) (string, bool) { return tokenID(r, PendingCookie) }
