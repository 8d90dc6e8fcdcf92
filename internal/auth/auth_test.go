package auth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestPasswords(t *testing.T) {
	s := &Service{}
	hash, err := s.HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if cost, _ := bcrypt.Cost([]byte(hash)); cost != 12 {
		t.Errorf("default cost %d, want 12", cost)
	}
	s.PasswordCost = bcrypt.MinCost
	u := &store.User{PasswordHash: hash}
	for _, tc := range []struct {
		name string
		u    *store.User
		pw   string
		want bool
	}{
		{"right", u, "correct horse", true},
		{"wrong", u, "correct horsE", false},
		{"empty", u, "", false},
		{"unknown user", nil, "correct horse", false},
		{"deleted user", &store.User{PasswordHash: hash, IsDeleted: true}, "correct horse", false},
		{"password-less user", &store.User{}, "", false},
		{"too long", u, "correct horse" + strings.Repeat("!", 80), false},
	} {
		if got := s.CheckPassword(tc.u, tc.pw); got != tc.want {
			t.Errorf("%s: CheckPassword = %v", tc.name, got)
		}
	}
	if _, err := s.HashPassword(strings.Repeat("a", 73)); !errors.Is(err, ErrPasswordTooLong) {
		t.Errorf("73 bytes: err %v, want ErrPasswordTooLong", err)
	}
	if _, err := s.HashPassword(strings.Repeat("a", 72)); err != nil {
		t.Errorf("72 bytes: %v", err)
	}
}

func TestIsHTTPS(t *testing.T) {
	plain := httptest.NewRequest("GET", "http://x/", nil)
	tls := httptest.NewRequest("GET", "https://x/", nil)
	proxied := httptest.NewRequest("GET", "http://x/", nil)
	proxied.Header.Set("X-Forwarded-Proto", "http, HTTPS")
	proxiedHTTP := httptest.NewRequest("GET", "http://x/", nil)
	proxiedHTTP.Header.Set("X-Forwarded-Proto", "https, http")

	direct := &Service{}
	behindProxy := &Service{Config: config.Config{TrustProxy: true}}
	for _, tc := range []struct {
		s    *Service
		r    *http.Request
		want bool
	}{
		{direct, plain, false}, {direct, tls, true}, {direct, proxied, false},
		{behindProxy, plain, false}, {behindProxy, tls, true}, {behindProxy, proxied, true}, {behindProxy, proxiedHTTP, false},
	} {
		if got := tc.s.IsHTTPS(tc.r); got != tc.want {
			t.Errorf("TrustProxy=%v TLS=%v X-Forwarded-Proto=%q: %v", tc.s.Config.TrustProxy, tc.r.TLS != nil, tc.r.Header.Get("X-Forwarded-Proto"), got)
		}
	}
}

func TestRequireAdmin(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		s := &Service{
			Store:        st,
			Config:       config.Config{AdminEmails: []string{"listed@example.com", "unproven@example.com"}},
			Now:          func() time.Time { return now },
			PasswordCost: bcrypt.MinCost,
		}
		ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("admin page")) })
		h := s.LoadUser(s.RequireAdmin(ok))

		// signIn returns the session cookie of a fresh session for a new user.
		signIn := func(username string, isAdmin, verified bool) *http.Cookie {
			u := &store.User{Username: username, Email: username, EmailVerified: verified}
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			if isAdmin {
				if err := st.SetAdmin(ctx, username, true); err != nil {
					t.Fatal(err)
				}
			}
			rec := httptest.NewRecorder()
			if err := s.SignIn(rec, httptest.NewRequest("POST", "/api/login", nil), u); err != nil {
				t.Fatal(err)
			}
			return rec.Result().Cookies()[0]
		}
		call := func(c *http.Cookie) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", "/api/admin/thing", nil)
			if c != nil {
				r.AddCookie(c)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			return rec
		}

		for _, tc := range []struct {
			name   string
			cookie *http.Cookie
			status int
			body   string
		}{
			{"signed out", nil, 401, `{"message":"Not authenticated"}`},
			{"plain user", signIn("plain@example.com", false, true), 403, `{"message":"Admin access required"}`},
			{"admin flag, unverified", signIn("flagged@example.com", true, false), 200, "admin page"},
			// Anyone can type a listed address: only a proven one counts.
			{"listed, unverified", signIn("unproven@example.com", false, false), 403, `{"message":"Admin access required"}`},
			{"listed in SQUARELY_ADMIN_EMAILS, verified", signIn("Listed@Example.com", false, true), 200, "admin page"},
		} {
			rec := call(tc.cookie)
			if rec.Code != tc.status || strings.TrimSpace(rec.Body.String()) != tc.body {
				t.Errorf("%s: %d %s, want %d %s", tc.name, rec.Code, rec.Body, tc.status, tc.body)
			}
		}
	})
}

func TestSessionStoresOnlyTokenHash(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := &Service{Store: st}
		u := &store.User{Username: "hash@example.com", Email: "hash@example.com"}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		if err := s.SignIn(rec, httptest.NewRequest("POST", "/", nil), u); err != nil {
			t.Fatal(err)
		}
		token := rec.Result().Cookies()[0].Value
		// The token itself is not a session id; only its hash finds the user.
		if _, _, err := st.SessionUser(ctx, token, time.Now(), SessionLifetime); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("token used as id: err %v, want ErrNotFound", err)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(&http.Cookie{Name: CookieName, Value: token})
		id, _ := sessionID(r)
		if len(id) != 64 || strings.Contains(id, token) {
			t.Errorf("id %q is not a SHA-256 hex", id)
		}
		if got, _, err := st.SessionUser(ctx, id, time.Now(), SessionLifetime); err != nil || got.ID != u.ID {
			t.Errorf("SessionUser(hash) = %v, %v", got, err)
		}
	})
}
