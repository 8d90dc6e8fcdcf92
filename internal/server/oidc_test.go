package server

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// fakeOP is a minimal OpenID provider: discovery, an authorization
// endpoint that approves at once, a token endpoint that redeems each code
// once for the PKCE verifier matching its challenge, and ID tokens signed
// (RS256) with a key published at the JWKS endpoint.
type fakeOP struct {
	t   *testing.T
	srv *httptest.Server
	key *rsa.PrivateKey

	mu     sync.Mutex
	claims map[string]any    // the ID token's identity claims, set by the test
	nonce  string            // when set, the ID token carries this nonce instead of the one asked for
	codes  map[string]opCode // issued, unredeemed codes
}

type opCode struct{ challenge, nonce string }

func newFakeOP(t *testing.T) *fakeOP {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeOP{t: t, key: key, codes: map[string]opCode{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer":                                f.srv.URL,
			"authorization_endpoint":                f.srv.URL + "/authorize",
			"token_endpoint":                        f.srv.URL + "/token",
			"jwks_uri":                              f.srv.URL + "/jwks",
			"response_types_supported":              []string{"code"},
			"subject_types_supported":               []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"},
			"code_challenge_methods_supported":      []string{"S256"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != "squarely" || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" ||
			q.Get("code_challenge") == "" || q.Get("state") == "" || q.Get("nonce") == "" || !strings.Contains(q.Get("scope"), "openid") {
			http.Error(w, "bad authorize request: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		code := rand.Text()
		f.mu.Lock()
		f.codes[code] = opCode{q.Get("code_challenge"), q.Get("nonce")}
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		f.mu.Lock()
		c, found := f.codes[r.PostForm.Get("code")]
		delete(f.codes, r.PostForm.Get("code")) // single-use
		nonce, claims := f.nonce, f.claims
		f.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case id != "squarely" || secret != "op-secret":
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":"invalid_client"}`))
			return
		case !found || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		if nonce == "" {
			nonce = c.nonce
		}
		now := time.Now()
		payload := map[string]any{"iss": f.srv.URL, "aud": "squarely", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": nonce}
		for k, v := range claims {
			payload[k] = v
		}
		json.NewEncoder(w).Encode(map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 300, "id_token": f.sign(payload)})
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOP) sign(payload map[string]any) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: f.key, KeyID: "k1"}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		f.t.Fatal(err)
	}
	b, _ := json.Marshal(payload)
	jws, err := signer.Sign(b)
	if err != nil {
		f.t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *fakeOP) set(claims map[string]any, nonce string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claims, f.nonce = claims, nonce
}

// startWithOIDC runs the server with OIDC sign-in against f.
func startWithOIDC(t *testing.T, st *store.Store, f *fakeOP) *env {
	o := &auth.OIDC{Issuer: f.srv.URL, ClientID: "squarely", ClientSecret: "op-secret", Name: "Acme SSO"}
	e := start(t, st, func(d *Deps) { d.OIDC = o })
	o.RedirectURL = e.srv.URL + "/auth/oidc/callback"
	return e
}

func TestOIDCSignIn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeOP(t)
		e := startWithOIDC(t, st, f)
		ctx := context.Background()

		p := expect(t, e.do(e.browser(), "GET", "/api/auth/providers", ""), http.StatusOK, "")
		if p["oidc"].(map[string]any)["name"] != "Acme SSO" || p["signup"] != "open" || p["saml"] != false || len(p) != 4 {
			t.Errorf("providers %v", p)
		}

		t.Run("good login creates, then finds, the account", func(t *testing.T) {
			f.set(map[string]any{"sub": "op-1", "email": "Olga@Example.com", "email_verified": true, "given_name": "Olga", "family_name": "Ek"}, "")
			c := e.browser()
			if to := e.followCallback(c, e.providerFlow(c, "/auth/oidc")); to != "/" {
				t.Fatalf("went to %q, want /", to)
			}
			u := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
			if u["username"] != "olga@example.com" || u["firstName"] != "Olga" || u["emailVerified"] != true || u["hasPassword"] != false {
				t.Errorf("user %v", u)
			}
			c2 := e.browser()
			e.followCallback(c2, e.providerFlow(c2, "/auth/oidc"))
			if again := expect(t, e.do(c2, "GET", "/api/user", ""), http.StatusOK, ""); again["id"] != u["id"] {
				t.Errorf("second sign-in gave user %v, want %v", again["id"], u["id"])
			}
		})

		t.Run("verified e-mail links an existing account", func(t *testing.T) {
			reg := e.verifiedUser("pia@example.com", "secret1")
			want := expect(t, e.do(reg, "GET", "/api/user", ""), http.StatusOK, "")
			f.set(map[string]any{"sub": "op-pia", "email": "pia@example.com", "email_verified": "true"}, "")
			c := e.browser()
			e.followCallback(c, e.providerFlow(c, "/auth/oidc"))
			if u := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, ""); u["id"] != want["id"] {
				t.Errorf("signed in as %v, want %v", u["id"], want["id"])
			}
		})

		t.Run("bad state", func(t *testing.T) {
			f.set(map[string]any{"sub": "op-state", "email": "state@example.com", "email_verified": true}, "")
			c := e.browser()
			cb := e.providerFlow(c, "/auth/oidc")
			q := cb.Query()
			q.Set("state", "forged")
			cb.RawQuery = q.Encode()
			if to := e.followCallback(c, cb); to != "/auth?oidc=failed" {
				t.Fatalf("went to %q", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			if _, err := st.UserByUsername(ctx, "state@example.com"); err == nil {
				t.Error("a bad state created an account")
			}
			e.expectLogged("state does not match")
		})

		t.Run("replayed code", func(t *testing.T) {
			f.set(map[string]any{"sub": "op-1", "email": "olga@example.com", "email_verified": true}, "")
			c := e.browser()
			used := e.providerFlow(c, "/auth/oidc")
			if to := e.followCallback(c, used); to != "/" {
				t.Fatalf("went to %q", to)
			}
			// An attacker who saw the callback URL starts a flow of their own
			// and presents the used code with their state.
			a := e.browser()
			fresh := e.providerFlow(a, "/auth/oidc")
			q := used.Query()
			q.Set("state", fresh.Query().Get("state"))
			used.RawQuery = q.Encode()
			if to := e.followCallback(a, used); to != "/auth?oidc=failed" {
				t.Fatalf("replayed code went to %q", to)
			}
			expect(t, e.do(a, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			e.expectLogged("invalid_grant")
		})

		t.Run("wrong nonce", func(t *testing.T) {
			f.set(map[string]any{"sub": "op-1", "email": "olga@example.com", "email_verified": true}, "a-nonce-from-another-flow")
			c := e.browser()
			if to := e.followCallback(c, e.providerFlow(c, "/auth/oidc")); to != "/auth?oidc=failed" {
				t.Fatalf("went to %q", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			e.expectLogged("nonce does not match")
		})

		t.Run("unverified e-mail links and creates nothing", func(t *testing.T) {
			e.register(e.browser(), "victim@example.com", "secret1")
			for _, claims := range []map[string]any{
				{"sub": "op-attacker", "email": "victim@example.com", "email_verified": false},
				{"sub": "op-attacker", "email": "fresh@example.com"},
			} {
				f.set(claims, "")
				c := e.browser()
				if to := e.followCallback(c, e.providerFlow(c, "/auth/oidc")); to != "/auth?oidc=failed" {
					t.Fatalf("%v went to %q", claims, to)
				}
				expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			}
			if _, err := st.UserByIdentity(ctx, f.srv.URL, "op-attacker"); err == nil {
				t.Error("an unverified e-mail was linked")
			}
			if _, err := st.UserByUsername(ctx, "fresh@example.com"); err == nil {
				t.Error("an unverified e-mail created an account")
			}
			e.expectLogged(`has not verified the e-mail \"victim@example.com\"`)
		})

		t.Run("the second factor is asked for", func(t *testing.T) {
			c := e.verifiedUser("tfa@example.com", "secret1")
			secret, _ := e.enableTOTP(c)
			f.set(map[string]any{"sub": "op-tfa", "email": "tfa@example.com", "email_verified": true}, "")
			b := e.browser()
			if to := e.followCallback(b, e.providerFlow(b, "/auth/oidc")); to != "/auth?twoFactor=required" {
				t.Fatalf("went to %q", to)
			}
			expect(t, e.do(b, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			expect(t, e.do(b, "POST", "/api/login/2fa", codeBody("code", e.totpCode(secret, 1))), http.StatusOK, "")
		})
	})
}

func TestOIDCUnavailable(t *testing.T) {
	e := start(t, storetest.Open(t))
	for _, p := range []string{"/auth/oidc", "/auth/oidc/callback?code=x&state=y"} {
		r := e.do(e.browser(), "GET", p, "")
		if r.StatusCode != http.StatusFound || r.Header.Get("Location") != "/auth?oidc=unavailable" {
			t.Errorf("%s: %d to %q", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if p := expect(t, e.do(e.browser(), "GET", "/api/auth/providers", ""), http.StatusOK, ""); p["oidc"] != nil {
		t.Errorf("providers %v with OIDC off", p)
	}

	// A provider that cannot be reached fails the sign-in, not the server.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	e = start(t, storetest.Open(t), func(d *Deps) { d.OIDC = &auth.OIDC{Issuer: down.URL, ClientID: "squarely", Name: "SSO"} })
	if r := e.do(e.browser(), "GET", "/auth/oidc", ""); r.Header.Get("Location") != "/auth?oidc=failed" {
		t.Errorf("unreachable provider: %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	e.expectLogged("discovering")
}

// SQUARELY_OIDC_GROUPS_CLAIM: the provider's groups give the role the
// workspace that takes in the user's domain maps them to.
func TestOIDCGroupsMapToRoles(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeOP(t)
		o := &auth.OIDC{Issuer: f.srv.URL, ClientID: "squarely", ClientSecret: "op-secret", Name: "Acme SSO", GroupsClaim: "groups"}
		e := start(t, st, func(d *Deps) { d.OIDC = o })
		o.RedirectURL = e.srv.URL + "/auth/oidc/callback"
		ctx := context.Background()
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		ws, wsID := idOf(team), int64(team["id"].(float64))
		d := &store.Domain{Domain: "qr.acme.test", Token: "tok-acme"}
		if err := st.CreateDomain(ctx, wsID, d, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordDomainCheck(ctx, wsID, d.ID, "dns", "", time.Now()); err != nil {
			t.Fatal(err)
		}
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/auto-join", `{"domain":"acme.test","role":"viewer"}`), http.StatusOK, "")
		b, _ := json.Marshal(map[string]any{"idpMetadataXml": newTestIdP(t, e).metadata(), "roleMapping": map[string]string{"qr-admins": "admin"}})
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/sso", string(b)), http.StatusOK, "")
		role := func(email string) string {
			var r string
			storetest.QueryRow(t, st, `SELECT COALESCE((SELECT m.role FROM workspace_members m JOIN users u ON u.id = m.user_id
				WHERE m.workspace_id = $1 AND u.username = $2), '')`, []any{wsID, email}, &r)
			return r
		}

		f.set(map[string]any{"sub": "op-g1", "email": "gus@acme.test", "email_verified": true, "groups": []string{"everyone", "qr-admins"}}, "")
		c := e.browser()
		if to := e.followCallback(c, e.providerFlow(c, "/auth/oidc")); to != "/" {
			t.Fatalf("went to %q", to)
		}
		if r := role("gus@acme.test"); r != "admin" {
			t.Errorf("mapped role %q, want admin", r)
		}
		// Without a mapped group: the workspace's default.
		f.set(map[string]any{"sub": "op-g1", "email": "gus@acme.test", "email_verified": true, "groups": "everyone"}, "")
		c2 := e.browser()
		e.followCallback(c2, e.providerFlow(c2, "/auth/oidc"))
		if r := role("gus@acme.test"); r != "viewer" {
			t.Errorf("after leaving the group: %q, want viewer", r)
		}
	})
}
