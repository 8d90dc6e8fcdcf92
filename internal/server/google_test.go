package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// fakeGoogle is an OAuth 2.0 provider with PKCE: /authorize approves at
// once, /token exchanges a code only for the verifier matching the
// challenge, /userinfo returns the identity set by the test.
type fakeGoogle struct {
	t        *testing.T
	srv      *httptest.Server
	identity map[string]any

	mu         sync.Mutex
	challenges map[string]string // code → code_challenge
	tokens     map[string]bool   // issued access tokens
}

func newFakeGoogle(t *testing.T) *fakeGoogle {
	f := &fakeGoogle{t: t, challenges: map[string]string{}, tokens: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != "client-id" || q.Get("response_type") != "code" ||
			q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" ||
			!strings.Contains(q.Get("scope"), "email") {
			http.Error(w, "bad authorize request: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		code := "code-" + q.Get("state")
		f.mu.Lock()
		f.challenges[code] = q.Get("code_challenge")
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		f.mu.Lock()
		challenge, ok := f.challenges[r.PostForm.Get("code")]
		delete(f.challenges, r.PostForm.Get("code")) // codes are single-use
		f.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case r.PostForm.Get("grant_type") != "authorization_code",
			r.PostForm.Get("client_id") != "client-id", r.PostForm.Get("client_secret") != "client-secret":
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		case !ok, base64.RawURLEncoding.EncodeToString(sum[:]) != challenge:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		f.mu.Lock()
		f.tokens["at-"+r.PostForm.Get("code")] = true
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": "at-" + r.PostForm.Get("code"), "token_type": "Bearer", "expires_in": 3600})
	})
	mux.HandleFunc("GET /userinfo", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		ok := f.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		f.mu.Unlock()
		if !ok {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(f.identity)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// startWithGoogle runs the server with Google sign-in against fake f.
func startWithGoogle(t *testing.T, st *store.Store, f *fakeGoogle) *env {
	g := &auth.Google{
		ClientID:     "client-id",
		ClientSecret: "client-secret",
		AuthURL:      f.srv.URL + "/authorize",
		TokenURL:     f.srv.URL + "/token",
		UserInfoURL:  f.srv.URL + "/userinfo",
	}
	e := start(t, st, func(d *Deps) { d.Google = g })
	g.RedirectURL = e.srv.URL + "/auth/google/callback" // known once the server listens
	return e
}

// googleSignIn walks the redirects of a Google sign-in in browser c, with
// tamper applied to the callback URL, and returns where it ends.
func (e *env) googleSignIn(c *http.Client, tamper func(*url.URL)) string {
	e.t.Helper()
	callback := e.providerFlow(c, "/auth/google")
	if tamper != nil {
		tamper(callback)
	}
	return e.followCallback(c, callback)
}

// providerFlow walks a sign-in's start (start: /auth/google, /auth/oidc)
// to the provider in browser c and returns the callback URL the provider
// sends it back to.
func (e *env) providerFlow(c *http.Client, start string) *url.URL {
	e.t.Helper()
	r := e.do(c, "GET", start, "")
	if r.StatusCode != http.StatusFound {
		e.t.Fatalf("%s: %d %s", start, r.StatusCode, r.body)
	}
	resp, err := c.Get(r.Header.Get("Location")) // the provider
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("provider: %d", resp.StatusCode)
	}
	callback, _ := url.Parse(resp.Header.Get("Location"))
	return callback
}

// followCallback follows a provider's callback URL in c and returns where
// it sends the browser.
func (e *env) followCallback(c *http.Client, callback *url.URL) string {
	e.t.Helper()
	r := e.do(c, "GET", callback.RequestURI(), "")
	if r.StatusCode != http.StatusFound {
		e.t.Fatalf("callback: %d %s", r.StatusCode, r.body)
	}
	return r.Header.Get("Location")
}

func TestGoogleSignIn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeGoogle(t)
		e := startWithGoogle(t, st, f)
		ctx := context.Background()

		t.Run("new user", func(t *testing.T) {
			f.identity = map[string]any{"sub": "g-new", "email": "New.Person@Gmail.com", "email_verified": true, "given_name": "New", "family_name": "Person"}
			c := e.browser()
			if to := e.googleSignIn(c, nil); to != "/" {
				t.Fatalf("redirected to %q, want /", to)
			}
			u := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
			if u["username"] != "new.person@gmail.com" || u["googleId"] != "g-new" || u["firstName"] != "New" || u["lastName"] != "Person" {
				t.Errorf("user %v", u)
			}
			stored, err := st.UserByUsername(ctx, "new.person@gmail.com")
			if err != nil || stored.PasswordHash != "" {
				t.Fatalf("stored %+v, %v: want a password-less user", stored, err)
			}
			// The same Google account signs in to the same user again.
			c2 := e.browser()
			e.googleSignIn(c2, nil)
			if again := expect(t, e.do(c2, "GET", "/api/user", ""), 200, ""); again["id"] != u["id"] {
				t.Errorf("second sign-in gave user %v, want %v", again["id"], u["id"])
			}
		})

		t.Run("existing user linked by verified e-mail", func(t *testing.T) {
			reg := e.register(e.browser(), "has.password@example.com", "secret1")
			e.verifyEmail(e.browser(), "has.password@example.com")
			f.identity = map[string]any{"sub": "g-link", "email": "Has.Password@example.com", "email_verified": "true"}
			c := e.browser()
			if to := e.googleSignIn(c, nil); to != "/" {
				t.Fatalf("redirected to %q", to)
			}
			u := expect(t, e.do(c, "GET", "/api/user", ""), 200, "")
			if u["id"] != reg["id"] || u["googleId"] != "g-link" {
				t.Errorf("user %v, want id %v linked to g-link", u, reg["id"])
			}
			// The password still works too.
			expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("has.password@example.com", "secret1")), 200, "")
		})

		t.Run("unverified e-mail is not linked", func(t *testing.T) {
			e.register(e.browser(), "victim@example.com", "secret1")
			f.identity = map[string]any{"sub": "g-attacker", "email": "victim@example.com", "email_verified": false}
			c := e.browser()
			if to := e.googleSignIn(c, nil); to != "/auth?google=failed" {
				t.Fatalf("redirected to %q, want /auth?google=failed", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			if u, _ := st.UserByUsername(ctx, "victim@example.com"); u == nil || u.GoogleID != "" {
				t.Errorf("victim %+v was linked", u)
			}
			// Nor does an unverified address create an account.
			f.identity = map[string]any{"sub": "g-unverified", "email": "fresh@example.com"}
			if to := e.googleSignIn(e.browser(), nil); to != "/auth?google=failed" {
				t.Errorf("redirected to %q", to)
			}
			if _, err := st.UserByGoogleID(ctx, "g-unverified"); err == nil {
				t.Error("an unverified e-mail created an account")
			}
			e.expectLogged(`google has not verified the e-mail`)
		})

		t.Run("bad state", func(t *testing.T) {
			f.identity = map[string]any{"sub": "g-state", "email": "state@example.com", "email_verified": true}
			c := e.browser()
			to := e.googleSignIn(c, func(u *url.URL) {
				q := u.Query()
				q.Set("state", "forged")
				u.RawQuery = q.Encode()
			})
			if to != "/auth?google=failed" {
				t.Fatalf("redirected to %q", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			if _, err := st.UserByGoogleID(ctx, "g-state"); err == nil {
				t.Error("bad state created an account")
			}
			e.expectLogged(`state does not match`)
		})

		t.Run("callback without the start cookie", func(t *testing.T) {
			c := e.browser()
			to := e.googleSignIn(c, func(*url.URL) {
				u, _ := url.Parse(e.srv.URL)
				c.Jar.SetCookies(u, []*http.Cookie{{Name: "squarely_google", Value: "", MaxAge: -1, Path: "/auth/google"}})
			})
			if to != "/auth?google=failed" {
				t.Errorf("redirected to %q", to)
			}
			e.expectLogged(`no state cookie`)
		})

		t.Run("wrong PKCE verifier is refused by the provider", func(t *testing.T) {
			c := e.browser()
			to := e.googleSignIn(c, func(*url.URL) {
				u, _ := url.Parse(e.srv.URL + "/auth/google/")
				for _, ck := range c.Jar.Cookies(u) {
					if ck.Name == "squarely_google" {
						state, _, _ := strings.Cut(ck.Value, ".")
						c.Jar.SetCookies(u, []*http.Cookie{{Name: ck.Name, Value: state + ".wrong-verifier-wrong-verifier-wrong-verifier", Path: "/auth/google"}})
					}
				}
			})
			if to != "/auth?google=failed" {
				t.Errorf("redirected to %q", to)
			}
			e.expectLogged(`invalid_grant`)
		})

		t.Run("user denied access", func(t *testing.T) {
			to := e.googleSignIn(e.browser(), func(u *url.URL) { u.RawQuery = "error=access_denied&" + u.RawQuery })
			if to != "/auth?google=failed" {
				t.Errorf("redirected to %q", to)
			}
			e.expectLogged(`access_denied`)
		})
	})
}

func TestGoogleUnavailable(t *testing.T) {
	e := start(t, storetest.Open(t))
	for _, p := range []string{"/auth/google", "/auth/google/callback?code=x&state=y"} {
		r := e.do(e.browser(), "GET", p, "")
		if r.StatusCode != http.StatusFound || r.Header.Get("Location") != "/auth?google=unavailable" {
			t.Errorf("%s: %d to %q, want 302 to /auth?google=unavailable", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
}

// expectLogged checks that the server logged why a Google sign-in failed.
func (e *env) expectLogged(reason string) {
	e.t.Helper()
	if !strings.Contains(e.logs.String(), reason) {
		e.t.Errorf("log lacks %q:\n%s", reason, e.logs.String())
	}
}
