package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/store"
)

// CookieName is the session cookie. It holds a random token; the database
// keeps only the token's SHA-256, so a leaked database cannot sign anyone in.
const CookieName = "squarely_session"

// SessionLifetime is how long a session lives after its last use.
const SessionLifetime = 30 * 24 * time.Hour

type userKey struct{}

// UserFrom returns the signed-in user of a request passed through
// LoadUser, or nil.
func UserFrom(ctx context.Context) *store.User {
	u, _ := ctx.Value(userKey{}).(*store.User)
	return u
}

// WithUser returns ctx carrying u as the request's user, for requests
// authenticated without a session (the public API's keys).
func WithUser(ctx context.Context, u *store.User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// ErrSuspended refuses a sign-in to an account its managing workspace
// has suspended (SCIM deprovisioning), until it reactivates it.
var ErrSuspended = errors.New("auth: the account is suspended by the organisation that manages it")

// SignIn starts a new session for u and sets its cookie. A session the
// request already carried is ended first: every sign-in gets a fresh token,
// so a token planted before sign-in (session fixation) is worthless.
func (s *Service) SignIn(w http.ResponseWriter, r *http.Request, u *store.User) error {
	return s.signIn(w, r, u, 0)
}

// signIn is SignIn for a session that signed in through workspace
// ssoWorkspaceID's IdP (0: none).
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, u *store.User, ssoWorkspaceID int64) error {
	if u.Suspended {
		return ErrSuspended
	}
	if id, ok := sessionID(r); ok {
		if err := s.Store.DeleteSession(r.Context(), id); err != nil {
			return err
		}
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.now()
	ip := clientIP(r)
	sess := &store.Session{
		ID:         hashToken(raw),
		UserID:     u.ID,
		CreatedAt:  now,
		LastSeenAt: now,
		ExpiresAt:  now.Add(SessionLifetime),
		IP:         ip,
		UserAgent:  userAgent(r),
		Country:    geo.Country(ip),

		SSOWorkspaceID: ssoWorkspaceID,
	}
	if err := s.Store.CreateSession(r.Context(), sess); err != nil {
		return err
	}
	s.setCookie(w, r, token, int(SessionLifetime/time.Second))
	// The sign-in stands without the device check: it only decides a mail.
	if err := s.rememberDevice(w, r, u, sess); err != nil {
		s.logger().Error("remembering a sign-in's device", "user", u.ID, "err", err)
	}
	// A proven address at a domain a team workspace takes in joins it
	// (issue 33 item 2); the sign-in stands without it.
	if u.EmailVerified {
		if _, err := s.Store.JoinByDomain(r.Context(), u.ID, u.Email, now); err != nil {
			s.logger().Error("joining a workspace by e-mail domain", "user", u.ID, "err", err)
		}
	}
	return nil
}

// DeviceCookie marks a browser for as long as it keeps it, so a sign-in
// from a browser the user has not used before can be told apart.
const DeviceCookie = "squarely_device"

const deviceLifetime = 2 * 365 * 24 * time.Hour

// rememberDevice records the browser's device cookie (giving it one
// first) among the user's devices, and calls NewDevice when the user had
// signed in elsewhere but never from it.
func (s *Service) rememberDevice(w http.ResponseWriter, r *http.Request, u *store.User, sess *store.Session) error {
	id, ok := tokenID(r, DeviceCookie)
	if !ok {
		raw := make([]byte, 32)
		rand.Read(raw)
		id = hashToken(raw)
		s.setLaxCookie(w, r, DeviceCookie, "/", base64.RawURLEncoding.EncodeToString(raw), int(deviceLifetime/time.Second))
	}
	isNew, err := s.Store.RememberDevice(r.Context(), u.ID, id, sess.CreatedAt)
	if err != nil {
		return err
	}
	if isNew && s.NewDevice != nil {
		s.NewDevice(r, u, sess)
	}
	return nil
}

// clientIP is the request's client address without its port.
func clientIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// maxUserAgent bounds the User-Agent kept with a session, in bytes.
const maxUserAgent = 512

// userAgent is the request's User-Agent as kept with a session: at most
// maxUserAgent bytes, invalid UTF-8 (a rune cut in two included) dropped.
func userAgent(r *http.Request) string {
	ua := r.UserAgent()
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	return strings.ToValidUTF8(ua, "")
}

// SignOut ends the request's session, if any, and clears the cookie.
func (s *Service) SignOut(w http.ResponseWriter, r *http.Request) error {
	if id, ok := sessionID(r); ok {
		if err := s.Store.DeleteSession(r.Context(), id); err != nil {
			return err
		}
	}
	s.setCookie(w, r, "", -1)
	return nil
}

// SetPassword stores passwordHash as u's password and ends every other
// session of u (and every mailed set-password link): whoever knew the old
// password, or held a session, is out. The request's own session stays.
func (s *Service) SetPassword(r *http.Request, userID int64, passwordHash string) error {
	keep, _ := sessionID(r)
	return s.Store.SetPassword(r.Context(), userID, passwordHash, keep)
}

// LoadUser puts the user of a valid session cookie into the request
// context (see UserFrom). A use slides the session's expiry (at most once
// a minute), and the request that slid it re-issues the cookie so the
// browser keeps it as long as the server does. No other answer sets the
// cookie: a request still in flight with the old token when the browser
// signs in (which ends the old session) would otherwise answer after the
// sign-in and put the dead token back, or clear the new one, signing the
// person out. So a malformed cookie is cleared, but a well-formed one the
// server no longer knows is only ignored: the request goes on signed out.
func (s *Service) LoadUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := sessionID(r)
		if !ok {
			if _, err := r.Cookie(CookieName); err == nil {
				s.setCookie(w, r, "", -1)
			}
			next.ServeHTTP(w, r)
			return
		}
		u, slid, err := s.Store.SessionUser(r.Context(), id, s.now(), SessionLifetime)
		switch {
		case errors.Is(err, store.ErrNotFound):
			next.ServeHTTP(w, r)
		case err != nil:
			s.logger().ErrorContext(r.Context(), "loading session", "err", err)
			writeMessage(w, http.StatusInternalServerError, "Internal server error")
		default:
			if slid {
				c, _ := r.Cookie(CookieName)
				s.setCookie(w, r, c.Value, int(SessionLifetime/time.Second))
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, u)))
		}
	})
}

// RequireUser answers 401 unless LoadUser found a signed-in user.
func (s *Service) RequireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if UserFrom(r.Context()) == nil {
			writeMessage(w, http.StatusUnauthorized, "Not authenticated")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// RequireAdmin answers 401 when signed out and 403 unless the user IsAdmin.
func (s *Service) RequireAdmin(next http.Handler) http.Handler {
	return s.RequireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.IsAdmin(UserFrom(r.Context())) {
			writeMessage(w, http.StatusForbidden, "Admin access required")
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// setCookie queues the session cookie, replacing one queued earlier in the
// same response (LoadUser's refresh before a handler signs out or in).
// maxAge < 0 deletes the cookie.
func (s *Service) setCookie(w http.ResponseWriter, r *http.Request, token string, maxAge int) {
	queued := w.Header().Values("Set-Cookie")
	w.Header().Del("Set-Cookie")
	for _, v := range queued {
		if !strings.HasPrefix(v, CookieName+"=") {
			w.Header().Add("Set-Cookie", v)
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    token,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   s.IsHTTPS(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// sessionID returns the stored id (token hash) for the request's cookie,
// if it holds a well-formed token.
func sessionID(r *http.Request) (string, bool) { return tokenID(r, CookieName) }

// tokenID returns the stored id (token hash) of the random token in the
// request's cookie name, if it holds a well-formed one.
func tokenID(r *http.Request, name string) (string, bool) {
	c, err := r.Cookie(name)
	if err != nil {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || len(raw) != 32 {
		return "", false
	}
	return hashToken(raw), true
}

func hashToken(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// SessionID returns the stored id (token hash) of the request's session
// cookie, if it holds a well-formed token: what a session's settings, such
// as its active workspace, are kept under.
func SessionID(r *http.Request) (string, bool) { return sessionID(r) }
