// Package auth signs users in and out: bcrypt passwords, server-side
// sessions behind an HttpOnly cookie, Google sign-in, and the middleware
// that tells handlers who is asking (RequireUser, RequireAdmin).
package auth

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
)

// Service holds what signing in needs. Set the fields, then use it from
// many goroutines; it must not be copied after first use.
type Service struct {
	Store  *store.Store
	Config config.Config    // TrustProxy and AdminEmails are read
	Now    func() time.Time // nil = time.Now
	Logger *slog.Logger     // nil = slog.Default()
	Google *Google          // nil = Google sign-in is off
	OIDC   *OIDC            // nil = OpenID Connect sign-in is off
	// NewDevice, when set, is called after a sign-in from a browser the
	// user has not signed in from before (not the account's first).
	NewDevice func(r *http.Request, u *store.User, sess *store.Session)

	// PasswordCost is the bcrypt cost; 0 = DefaultPasswordCost. Tests
	// lower it to keep the suite fast.
	PasswordCost int
	// Hashed, when set, is called after each bcrypt computation (hash or
	// check); tests count them.
	Hashed func()

	dummyOnce sync.Once
	dummyHash []byte
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// IsHTTPS reports whether the browser reached us over HTTPS: directly, or,
// when SQUARELY_TRUST_PROXY is set, through a load balancer that says so.
func (s *Service) IsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !s.Config.TrustProxy {
		return false
	}
	// The nearest proxy's value is the last one of a comma-separated list.
	proto := r.Header.Get("X-Forwarded-Proto")
	if i := strings.LastIndexByte(proto, ','); i >= 0 {
		proto = proto[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// IsAdmin reports whether u may use the admin tools: flagged in the
// database (squarely admin grant) or, once the address is verified, listed
// in SQUARELY_ADMIN_EMAILS. The list is checked on every request, so an
// address listed before its owner registers counts as soon as they prove
// it; anyone can type a listed address, so an unproven one grants nothing.
func (s *Service) IsAdmin(u *store.User) bool {
	return u != nil && (u.IsAdmin || u.EmailVerified && (s.Config.IsAdminEmail(u.Email) || s.Config.IsAdminEmail(u.Username)))
}

// writeMessage answers with the API's error shape {"message": …}; the
// server package owns the full helper, which auth cannot import.
func writeMessage(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"message": message})
}
