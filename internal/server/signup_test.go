package server

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/saml"
	"github.com/squarely/squarely/internal/scim"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// signupPaths are every way a new account is made, each trying email in a
// fresh browser and answering whether the account was made and, when it
// was refused, the code the app was given (from the JSON answer or the
// sign-in page's query).
var signupPaths = map[string]func(e *env, f *signupFakes, email string) (made bool, code string){
	"register": func(e *env, _ *signupFakes, email string) (bool, string) {
		r := e.do(e.browser(), "POST", "/api/register", registerBody(email, "secret1"))
		return r.StatusCode == http.StatusCreated, codeOf(r)
	},
	"trial": func(e *env, _ *signupFakes, email string) (bool, string) {
		r := e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"`+email+`"}`)
		return r.StatusCode == http.StatusOK, codeOf(r)
	},
	"google": func(e *env, f *signupFakes, email string) (bool, string) {
		f.google.identity = map[string]any{"sub": "g-" + email, "email": email, "email_verified": true}
		return redirected(e.googleSignIn(e.browser(), nil))
	},
	"oidc": func(e *env, f *signupFakes, email string) (bool, string) {
		f.op.set(map[string]any{"sub": "op-" + email, "email": email, "email_verified": true}, "")
		c := e.browser()
		return redirected(e.followCallback(c, e.providerFlow(c, "/auth/oidc")))
	},
	"saml": func(e *env, f *signupFakes, email string) (bool, string) {
		f.idp.signIn(email)
		c := e.browser()
		return redirected(f.idp.post(c, f.ws, f.idp.response(c, f.ws)))
	},
	"scim": func(e *env, f *signupFakes, email string) (bool, string) {
		status, out := f.scim.call("POST", "/Users", `{"userName":"`+email+`"}`)
		if status == http.StatusForbidden {
			// SCIM's error shape carries no code: the detail is the policy's message.
			for code, msg := range map[string]string{"signup_closed": "does not take new accounts", "signup_invite_only": "by invitation only", "signup_domain": "are for addresses at"} {
				if strings.Contains(fmt.Sprint(out["detail"]), msg) {
					return false, code
				}
			}
		}
		return status == http.StatusCreated, ""
	},
}

// signupFakes are the outside parts the paths use: Google, an OpenID
// provider, and a team workspace (ws) with a SAML IdP and a SCIM client.
type signupFakes struct {
	google *fakeGoogle
	op     *fakeOP
	idp    *testIdP
	ws     string
	scim   *scimClient
}

func codeOf(r *response) string {
	var body struct{ Code string }
	if r.StatusCode == http.StatusForbidden {
		json.Unmarshal(r.body, &body)
	}
	return body.Code
}

// redirected reads where a provider's callback sent the browser: home
// (signed in), or the sign-in page with the refusal's code.
func redirected(to string) (bool, string) {
	code, _ := strings.CutPrefix(to, "/auth?signup=")
	return to == "/", map[bool]string{true: code}[code != to]
}

// Every path that makes an account, under each sign-up policy: refused
// addresses get the policy's code and no account; allowed ones get theirs;
// existing accounts still sign in through a provider on a closed instance.
func TestSignupPolicy(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		for _, policy := range []struct {
			name, signup string
			domains      []string
			// refused and allowed are the local parts tried at the
			// policy's domain (example.com unless it names others).
			refused, code string
			allowed       string
		}{
			{name: "closed", signup: config.SignupClosed, refused: "nobody", code: "signup_closed"},
			{name: "invite", signup: config.SignupInvite, refused: "stranger", code: "signup_invite_only", allowed: "invited"},
			{name: "domains", signup: config.SignupOpen, domains: []string{"acme.test"}, refused: "outsider", code: "signup_domain", allowed: "staff"},
		} {
			t.Run(policy.name, func(t *testing.T) {
				f := &signupFakes{google: newFakeGoogle(t), op: newFakeOP(t)}
				e := startWithProviders(t, st, f, func(c *config.Config) { c.Signup, c.SignupDomains = policy.signup, policy.domains })
				p := expect(t, e.do(e.browser(), "GET", "/api/auth/providers", ""), http.StatusOK, "")
				if p["signup"] != policy.signup {
					t.Errorf("providers tell %v", p)
				}
				domain := "example.com"
				if policy.domains != nil {
					domain = policy.domains[0]
				}
				for name, path := range signupPaths {
					refused := policy.refused + "-" + name + "@" + strings.Replace(domain, "acme.test", "elsewhere.test", 1)
					if made, code := path(e, f, refused); made || code != policy.code {
						t.Errorf("%s: %s made=%v code=%q, want %q", name, refused, made, code, policy.code)
					}
					if _, err := st.UserByUsername(context.Background(), refused); err == nil {
						t.Errorf("%s: an account was made for %s", name, refused)
					}
					if policy.allowed == "" {
						continue
					}
					allowed := policy.allowed + "-" + name + "@" + domain
					if policy.signup == config.SignupInvite {
						invite(t, st, allowed)
					}
					if made, code := path(e, f, allowed); !made {
						t.Errorf("%s: %s refused (%q)", name, allowed, code)
					}
				}
			})
		}

		t.Run("existing accounts sign in on a closed instance", func(t *testing.T) {
			f := &signupFakes{google: newFakeGoogle(t), op: newFakeOP(t)}
			open := startWithProviders(t, st, f, func(*config.Config) {})
			if made, _ := signupPaths["google"](open, f, "early@example.com"); !made {
				t.Fatal("an open instance refused a new account")
			}
			closed := startWithProviders(t, st, f, func(c *config.Config) { c.Signup = config.SignupClosed })
			if made, code := signupPaths["google"](closed, f, "early@example.com"); !made {
				t.Errorf("an existing account was refused (%q)", code)
			}
		})
	})
}

// startWithProviders runs the server with Google and OpenID Connect sign-in
// against f's fakes and cfg's changes.
func startWithProviders(t *testing.T, st *store.Store, f *signupFakes, cfg func(*config.Config)) *env {
	g := &auth.Google{ClientID: "client-id", ClientSecret: "client-secret",
		AuthURL: f.google.srv.URL + "/authorize", TokenURL: f.google.srv.URL + "/token", UserInfoURL: f.google.srv.URL + "/userinfo"}
	o := &auth.OIDC{Issuer: f.op.srv.URL, ClientID: "squarely", ClientSecret: "op-secret", Name: "Acme SSO"}
	e := start(t, st, withConfig(cfg), func(d *Deps) { d.Google, d.OIDC = g, o })
	g.RedirectURL = e.srv.URL + "/auth/google/callback"
	o.RedirectURL = e.srv.URL + "/auth/oidc/callback"
	// A team workspace, made as an operator would (sign-up may be closed),
	// with its IdP and SCIM token.
	ctx := context.Background()
	owner := storetest.CreateUser(t, st, fmt.Sprintf("owner-%d@idp.test", time.Now().UnixNano()))
	ws, err := st.CreateWorkspace(ctx, owner.ID, 1, "Team", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	f.idp, f.ws = newTestIdP(t, e), fmt.Sprint(ws.ID)
	keyPEM, certPEM, err := saml.NewKeyPair("Team", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetSSO(ctx, &store.SSO{WorkspaceID: ws.ID, IdPMetadataXML: f.idp.metadata(), RoleMapping: map[string]string{},
		DefaultRole: store.RoleViewer, SPKeyPEM: keyPEM, SPCertPEM: certPEM}, time.Now()); err != nil {
		t.Fatal(err)
	}
	token, hash := scim.NewToken()
	if err := st.SetSCIMToken(ctx, ws.ID, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.scim = &scimClient{t: t, e: e, base: "/scim/v2/" + f.ws, token: token}
	return e
}

// invite has a workspace invite email, as its admin would.
func invite(t *testing.T, st *store.Store, email string) {
	t.Helper()
	owner := storetest.CreateUser(t, st, "owner-"+email)
	inv := &store.Invitation{WorkspaceID: storetest.Personal(t, st, owner.ID), Email: email, Role: store.RoleEditor,
		InvitedBy: owner.ID, ExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now()}
	if err := st.CreateInvitation(context.Background(), inv, "hash-"+email); err != nil {
		t.Fatal(err)
	}
}

// Only CreateAccount, which checks the sign-up policy, saves a new
// account: store.CreateUser is called from the functions signupPaths
// covers and from no other, so a new way to make accounts fails here
// until it goes through CreateAccount and into the matrix above.
func TestAccountsMadeOnlyThroughThePolicy(t *testing.T) {
	var callers []string
	// The product's code: the benchmarks' seeders make accounts directly.
	for _, root := range []string{"../../internal", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				strings.Contains(filepath.ToSlash(path), "internal/store/") {
				return nil
			}
			file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				ast.Inspect(fn, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "CreateUser" {
						callers = append(callers, filepath.Base(path)+":"+fn.Name.Name)
					}
					return true
				})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(callers)
	// google.go and oidc.go save through identityUser's CreateAccount;
	// auth.go's createAndSignIn passes CreateUser to CreateAccount; the
	// admin's command is how a closed instance gets accounts, by design.
	// SCIM's createUser (users.go) passes it to CreateAccount too.
	want := []string{"auth.go:createAndSignIn", "google.go:create", "main.go:adminCreateUser", "oidc.go:create", "users.go:createUser"}
	if !slices.Equal(callers, want) {
		t.Errorf("store.CreateUser is used by %v, want only %v", callers, want)
	}
}

// SQUARELY_PASSWORD_LOGIN=false: no password registration or sign-in,
// except an admin's, which is logged; nothing is hashed for the refused.
func TestPasswordLoginOff(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		open := start(t, st, withConfig(func(c *config.Config) { c.AdminEmails = []string{"boss@example.com"} }))
		open.register(open.browser(), "staff@example.com", "secret1")
		open.register(open.browser(), "boss@example.com", "secret1")

		e := start(t, st, withConfig(func(c *config.Config) {
			c.PasswordLogin, c.AdminEmails = false, []string{"boss@example.com"}
		}))
		if got := expect(t, e.do(e.browser(), "GET", "/api/white-label/config", ""), http.StatusOK, ""); got["passwordLogin"] != false {
			t.Errorf("config tells passwordLogin %v", got["passwordLogin"])
		}
		r := e.do(e.browser(), "POST", "/api/register", registerBody("new@example.com", "secret1"))
		if r.StatusCode != http.StatusForbidden || codeOf(r) != "password_login_off" {
			t.Errorf("register: %d %s", r.StatusCode, r.body)
		}
		if _, err := st.UserByUsername(context.Background(), "new@example.com"); err == nil {
			t.Error("a password account was made")
		}
		r = e.do(e.browser(), "POST", "/api/login", `{"username":"staff@example.com","password":"secret1"}`)
		if r.StatusCode != http.StatusForbidden || codeOf(r) != "password_login_off" {
			t.Errorf("staff login: %d %s", r.StatusCode, r.body)
		}
		boss := e.browser()
		expect(t, e.do(boss, "POST", "/api/login", `{"username":"boss@example.com","password":"secret1"}`), http.StatusOK, "")
		expect(t, e.do(boss, "GET", "/api/user", ""), http.StatusOK, "")
		if !strings.Contains(e.logs.String(), "password sign-in of an admin while SQUARELY_PASSWORD_LOGIN=false") {
			t.Error("the break-glass sign-in was not logged")
		}
	})
}

// SQUARELY_PUBLIC_GENERATOR=false: every visitor route answers 403
// sign_in_required; members generate as before.
func TestPublicGeneratorOff(t *testing.T) {
	e := start(t, storetest.Open(t), withConfig(func(c *config.Config) { c.PublicGenerator = false }))
	if got := expect(t, e.do(e.browser(), "GET", "/api/white-label/config", ""), http.StatusOK, ""); got["publicGenerator"] != false {
		t.Errorf("config tells publicGenerator %v", got["publicGenerator"])
	}
	body := `{"qrType":"url","url":"https://example.com"}`
	for _, path := range []string{"/api/generate-qrcode", "/api/download-qrcode", "/api/preflight", "/api/track-generation", "/api/upload-image"} {
		r := e.do(e.browser(), "POST", path, body)
		if r.StatusCode != http.StatusForbidden || codeOf(r) != "sign_in_required" {
			t.Errorf("visitor %s: %d %s", path, r.StatusCode, r.body)
		}
	}
	c, _ := e.signedIn("member@example.com")
	if r := e.do(c, "POST", "/api/generate-qrcode", body); r.StatusCode != http.StatusOK {
		t.Errorf("member generate: %d %s", r.StatusCode, r.body)
	}
}
