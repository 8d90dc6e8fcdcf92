package server

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beevik/etree"
	crew "github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// testIdP is a SAML identity provider in the test's process: crewjam's
// own IdentityProvider, signing with a key of its own, answering for the
// user the test sets, its responses captured instead of auto-posted.
type testIdP struct {
	t   *testing.T
	idp *crew.IdentityProvider
	srv *httptest.Server
	e   *env

	mu       sync.Mutex
	session  *crew.Session
	audience string // when set, the SP's entity ID the IdP believes in
}

func newTestIdP(t *testing.T, e *env) *testIdP {
	// An RSA key, as most IdPs sign with.
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test IdP"},
		NotBefore: e.clock.Now().Add(-time.Hour), NotAfter: e.clock.Now().AddDate(1, 0, 0), KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := &testIdP{t: t, e: e}
	mux := http.NewServeMux()
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	base, _ := url.Parse(p.srv.URL)
	p.idp = &crew.IdentityProvider{
		Key: key, Certificate: cert,
		MetadataURL:             *base.JoinPath("metadata"),
		SSOURL:                  *base.JoinPath("sso"),
		ServiceProviderProvider: p,
		SessionProvider:         p,
		ResponseWriter:          p,
		Clock:                   dsig.NewFakeClockAt(e.clock.Now()),
	}
	mux.HandleFunc("/sso", p.idp.ServeSSO)
	mux.HandleFunc("/metadata", p.idp.ServeMetadata)
	return p
}

// metadata is the IdP's metadata XML, as an owner would paste it.
func (p *testIdP) metadata() string {
	b, err := xml.Marshal(p.idp.Metadata())
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

func (p *testIdP) signIn(email string, groups ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.e.clock.Now()
	// Groups go as Okta sends them: a "groups" attribute.
	var values []crew.AttributeValue
	for _, g := range groups {
		values = append(values, crew.AttributeValue{Type: "xs:string", Value: g})
	}
	p.session = &crew.Session{ID: "s-" + email, CreateTime: now, ExpireTime: now.Add(time.Hour), Index: "1",
		NameID: email, NameIDFormat: string(crew.EmailAddressNameIDFormat), UserEmail: email,
		UserGivenName: "Ida", UserSurname: "Pro",
		CustomAttributes: []crew.Attribute{{Name: "groups", NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic", Values: values}}}
}

// GetSession is crew.SessionProvider: the user the test signed in.
func (p *testIdP) GetSession(w http.ResponseWriter, _ *http.Request, _ *crew.IdpAuthnRequest) *crew.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session
}

// GetServiceProvider is crew.ServiceProviderProvider: the SP's published
// metadata, or (audience set) one that names another entity.
func (p *testIdP) GetServiceProvider(_ *http.Request, id string) (*crew.EntityDescriptor, error) {
	// The SP names itself by the instance's base URL; the test's server is elsewhere.
	res, err := http.Get(strings.Replace(id, testConfig(p.t).BaseURL, p.e.srv.URL, 1))
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	md, err := samlsp.ParseMetadata(body)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.audience != "" {
		md.EntityID = p.audience
	}
	return md, nil
}

// WriteResponse is crew.ResponseWriter: the form the browser would post,
// as JSON.
func (p *testIdP) WriteResponse(w http.ResponseWriter, req *crew.IdpAuthnRequest) error {
	form, err := req.PostBinding()
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(form)
}

// response runs a sign-in in c up to the IdP's answer: the SAMLResponse
// it would post to the ACS.
func (p *testIdP) response(c *http.Client, ws string) string {
	p.t.Helper()
	r := p.e.do(c, "GET", "/auth/saml/"+ws+"/login", "")
	if r.StatusCode != http.StatusFound {
		p.t.Fatalf("login: %d %s", r.StatusCode, r.body)
	}
	res, err := c.Get(r.Header.Get("Location"))
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	var form crew.IdpAuthnRequestForm
	if err := json.NewDecoder(res.Body).Decode(&form); err != nil {
		p.t.Fatalf("IdP answered %d: %v", res.StatusCode, err)
	}
	return form.SAMLResponse
}

// post posts a SAMLResponse to the ACS from the IdP's origin, and returns
// where the browser is sent.
func (p *testIdP) post(c *http.Client, ws, samlResponse string) string {
	p.t.Helper()
	r := p.e.do(c, "POST", "/auth/saml/"+ws+"/acs", url.Values{"SAMLResponse": {samlResponse}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", p.srv.URL, "Sec-Fetch-Site", "cross-site")
	if r.StatusCode != http.StatusFound {
		p.t.Fatalf("ACS: %d %s", r.StatusCode, r.body)
	}
	return r.Header.Get("Location")
}

// editXML changes a SAMLResponse's XML with edit.
func editXML(t *testing.T, samlResponse string, edit func(root *etree.Element)) string {
	raw, _ := base64.StdEncoding.DecodeString(samlResponse)
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(raw); err != nil {
		t.Fatal(err)
	}
	edit(doc.Root())
	out, _ := doc.WriteToBytes()
	return base64.StdEncoding.EncodeToString(out)
}

func TestSAMLSignIn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		idp := newTestIdP(t, e)
		ctx := context.Background()
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		ws := idOf(team)
		wsID := int64(team["id"].(float64))
		path := "/api/workspaces/" + ws + "/sso"

		// Before the set-up: the addresses to give the IdP, and no SP.
		got := expect(t, e.do(owner, "GET", path, ""), http.StatusOK, "")
		if got["configured"] != false || got["acsUrl"] != testConfig(t).BaseURL+"/auth/saml/"+ws+"/acs" {
			t.Fatalf("sso = %v", got)
		}
		expect(t, e.do(e.browser(), "GET", "/auth/saml/"+ws+"/metadata", ""), http.StatusNotFound, msgSSOMissing)
		// The login and the ACS are a browser's navigations: back to the
		// sign-in page, which says so, not a JSON 404 shown as the page.
		for _, r := range []*response{
			e.do(e.browser(), "GET", "/auth/saml/"+ws+"/login", ""),
			e.do(e.browser(), "POST", "/auth/saml/"+ws+"/acs", "SAMLResponse=x", "Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "cross-site"),
		} {
			if r.StatusCode != http.StatusFound || r.Header.Get("Location") != "/auth?sso=missing" {
				t.Errorf("without single sign-on: %d to %q %s", r.StatusCode, r.Header.Get("Location"), r.body)
			}
		}

		// Bad set-ups change nothing.
		body := func(m map[string]any) string { b, _ := json.Marshal(m); return string(b) }
		expect(t, e.do(owner, "PUT", path, `{}`), http.StatusBadRequest, "")
		expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": "<nope/>"})), http.StatusBadRequest, "")
		expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(), "defaultRole": "owner"})),
			http.StatusBadRequest, "defaultRole must be admin, editor or viewer")
		expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(), "roleMapping": map[string]string{"x": "owner"}})),
			http.StatusBadRequest, "")
		expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataUrl": "http://127.0.0.1:1/metadata"})), http.StatusBadRequest, "")
		if _, err := st.WorkspaceSSO(ctx, wsID); err == nil {
			t.Fatal("a refused set-up was stored")
		}
		// Only owners.
		personal := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")["workspace"].(map[string]any)
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+idOf(personal)+"/sso", body(map[string]any{"idpMetadataXml": idp.metadata()})),
			http.StatusConflict, "A personal workspace has no single sign-on")
		stranger, _ := e.signedIn("stranger@example.com")
		expect(t, e.do(stranger, "GET", path, ""), http.StatusNotFound, "")

		expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(),
			"roleMapping": map[string]string{"qr-editors": "editor", "qr-admins": "admin"}, "defaultRole": "viewer"})), http.StatusOK, "")
		// A change of roles alone keeps the IdP.
		kept := expect(t, e.do(owner, "PUT", path, body(map[string]any{"roleMapping": map[string]string{"qr-editors": "editor", "qr-admins": "admin"}})), http.StatusOK, "")
		if kept["configured"] != true || kept["idpEntityId"] != idp.idp.MetadataURL.String() {
			t.Fatalf("after a roles-only PUT: %v", kept)
		}
		md := e.do(e.browser(), "GET", "/auth/saml/"+ws+"/metadata", "")
		if md.StatusCode != http.StatusOK || !strings.Contains(string(md.body), "/auth/saml/"+ws+"/acs") {
			t.Fatalf("metadata: %d %s", md.StatusCode, md.body)
		}

		role := func(email string) string {
			var r string
			storetest.QueryRow(t, st, `SELECT COALESCE((SELECT m.role FROM workspace_members m JOIN users u ON u.id = m.user_id
				WHERE m.workspace_id = $1 AND u.username = $2), '')`, []any{wsID, email}, &r)
			return r
		}

		t.Run("good sign-in creates the account and maps the group to a role", func(t *testing.T) {
			idp.signIn("ida@acme.test", "qr-editors", "everyone")
			c := e.browser()
			if to := idp.post(c, ws, idp.response(c, ws)); to != "/" {
				t.Fatalf("went to %q", to)
			}
			u := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
			if u["username"] != "ida@acme.test" || u["firstName"] != "Ida" {
				t.Errorf("user = %v", u)
			}
			if r := role("ida@acme.test"); r != "editor" {
				t.Errorf("role = %q, want editor", r)
			}
			if active := u["workspace"].(map[string]any); idOf(active) != ws {
				t.Errorf("active workspace = %v, want the IdP's", active)
			}
			// Next sign-in follows the IdP's groups; no group gives the default.
			idp.signIn("ida@acme.test", "qr-admins")
			c2 := e.browser()
			idp.post(c2, ws, idp.response(c2, ws))
			if r := role("ida@acme.test"); r != "admin" {
				t.Errorf("role after regrouping = %q", r)
			}
			idp.signIn("vic@acme.test")
			c3 := e.browser()
			idp.post(c3, ws, idp.response(c3, ws))
			if r := role("vic@acme.test"); r != "viewer" {
				t.Errorf("no group gave %q, want viewer", r)
			}
		})

		// refused checks a response's refusal: the browser back at the
		// sign-in page, signed out, and reason logged since the subtest began.
		var mark int
		refused := func(t *testing.T, c *http.Client, to, reason string) {
			t.Helper()
			if to != "/auth?sso=failed" {
				t.Errorf("went to %q, want /auth?sso=failed", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			if logged := e.logs.String()[mark:]; !strings.Contains(logged, reason) {
				t.Errorf("log lacks %q:\n%s", reason, logged)
			}
			mark = len(e.logs.String())
		}

		t.Run("replayed response", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.signIn("rita@acme.test")
			c := e.browser()
			resp := idp.response(c, ws)
			if to := idp.post(c, ws, resp); to != "/" {
				t.Fatalf("first post went to %q", to)
			}
			a := e.browser()
			refused(t, a, idp.post(a, ws, resp), "answers no open request")
		})

		t.Run("replayed assertion under an IdP-initiated response", func(t *testing.T) {
			mark = len(e.logs.String())
			// Even with IdP-initiated sign-in on, an assertion counts once.
			expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(), "allowIdpInitiated": true})), http.StatusOK, "")
			defer func() {
				expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(),
					"roleMapping": map[string]string{"qr-editors": "editor", "qr-admins": "admin"}})), http.StatusOK, "")
			}()
			idp.signIn("una@acme.test")
			resp := idp.unsolicited(ws)
			c := e.browser()
			if to := idp.post(c, ws, resp); to != "/" {
				t.Fatalf("IdP-initiated (allowed) went to %q", to)
			}
			a := e.browser()
			refused(t, a, idp.post(a, ws, resp), "assertion has already been used")
		})

		t.Run("IdP-initiated refused unless allowed", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.signIn("ivy@acme.test")
			c := e.browser()
			refused(t, c, idp.post(c, ws, idp.unsolicited(ws)), "`InResponseTo` does not match")
			if _, err := st.UserByUsername(ctx, "ivy@acme.test"); err == nil {
				t.Error("a refused response created an account")
			}
		})

		t.Run("unsigned assertion", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.signIn("uma@acme.test")
			c := e.browser()
			resp := editXML(t, idp.response(c, ws), func(root *etree.Element) {
				for _, sig := range root.FindElements("//Signature") {
					sig.Parent().RemoveChild(sig)
				}
			})
			refused(t, c, idp.post(c, ws, resp), "the assertion is not signed")
		})

		t.Run("tampered assertion", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.signIn("tess@acme.test", "everyone")
			c := e.browser()
			resp := editXML(t, idp.response(c, ws), func(root *etree.Element) {
				for _, v := range root.FindElements("//Attribute[@Name='groups']/AttributeValue") {
					if v.Text() == "everyone" {
						v.SetText("qr-admins")
					}
				}
			})
			refused(t, c, idp.post(c, ws, resp), "Signature could not be verified")
			if r := role("tess@acme.test"); r != "" {
				t.Errorf("a tampered response made a member (%s)", r)
			}
		})

		t.Run("wrong audience", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.mu.Lock()
			idp.audience = "https://evil.example/sp"
			idp.mu.Unlock()
			defer func() { idp.mu.Lock(); idp.audience = ""; idp.mu.Unlock() }()
			idp.signIn("aud@acme.test")
			c := e.browser()
			refused(t, c, idp.post(c, ws, idp.response(c, ws)), "AudienceRestriction")
		})

		t.Run("expired", func(t *testing.T) {
			mark = len(e.logs.String())
			idp.signIn("old@acme.test")
			c := e.browser()
			resp := idp.response(c, ws)
			e.clock.Advance(5 * time.Minute) // past the assertion's validity and clock skew, within the request's
			defer e.clock.Advance(-5 * time.Minute)
			refused(t, c, idp.post(c, ws, resp), "expired")
		})

		t.Run("response for another request", func(t *testing.T) {
			mark = len(e.logs.String())
			// A response to a request this SP never made (InResponseTo forged
			// by an IdP's own AuthnRequest for our entity).
			idp.signIn("irt@acme.test")
			c := e.browser()
			resp := idp.response(c, ws)
			wrong := editXML(t, resp, func(root *etree.Element) { root.CreateAttr("InResponseTo", "id-never-sent") })
			refused(t, c, idp.post(c, ws, wrong), "answers no open request")
		})

		t.Run("another workspace's request", func(t *testing.T) {
			mark = len(e.logs.String())
			other := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Other"}`), http.StatusCreated, "")
			expect(t, e.do(owner, "PUT", "/api/workspaces/"+idOf(other)+"/sso", body(map[string]any{"idpMetadataXml": idp.metadata()})), http.StatusOK, "")
			idp.signIn("cross@acme.test")
			c := e.browser()
			refused(t, c, idp.post(c, idOf(other), idp.response(c, ws)), "answers no open request")
		})

		t.Run("an existing account at an unproven domain is not taken over", func(t *testing.T) {
			e.verifiedUser("kim@acme.test", "secret1")
			idp.signIn("kim@acme.test")
			c := e.browser()
			if to := idp.post(c, ws, idp.response(c, ws)); to != "/auth?sso=account_exists" {
				t.Fatalf("went to %q", to)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		})

		t.Run("enforced: members need the IdP, the break-glass owner does not", func(t *testing.T) {
			idp.signIn("ida@acme.test", "qr-editors")
			viaIdP := e.browser()
			idp.post(viaIdP, ws, idp.response(viaIdP, ws))
			// Ida also has a password session (an account made by SAML has none, so
			// make a member who signs in by password instead).
			pw, _ := e.signedIn("pat@example.com")
			patID := expect(t, e.do(pw, "GET", "/api/user", ""), http.StatusOK, "")["id"].(float64)
			if err := st.SyncSSOMember(ctx, wsID, int64(patID), "pat@example.com", "editor", time.Now()); err != nil {
				t.Fatal(err)
			}
			expect(t, e.do(pw, "POST", "/api/workspaces/"+ws+"/activate", ""), http.StatusOK, "")
			expect(t, e.do(pw, "GET", "/api/codes", ""), http.StatusOK, "")
			// A second owner, by password.
			second, secondID := e.signedIn("second@example.com")
			if err := st.SyncSSOMember(ctx, wsID, secondID, "second@example.com", "editor", time.Now()); err != nil {
				t.Fatal(err)
			}
			if r := e.do(owner, "PATCH", "/api/workspaces/"+ws+"/members/"+fmt.Sprint(secondID), `{"role":"owner"}`); r.StatusCode != http.StatusNoContent {
				t.Fatalf("promote: %d %s", r.StatusCode, r.body)
			}
			expect(t, e.do(second, "POST", "/api/workspaces/"+ws+"/activate", ""), http.StatusOK, "")

			expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(), "enforceSso": true,
				"roleMapping": map[string]string{"qr-editors": "editor"}})), http.StatusOK, "")
			r := expect(t, e.do(pw, "GET", "/api/codes", ""), http.StatusForbidden, msgSSORequired)
			if r["code"] != "sso_required" {
				t.Errorf("refusal = %v", r)
			}
			expect(t, e.do(pw, "GET", "/api/workspaces/"+ws+"/members", ""), http.StatusForbidden, msgSSORequired)
			// The session that came through the IdP, and the owner who turned it on, go on.
			expect(t, e.do(viaIdP, "GET", "/api/codes", ""), http.StatusOK, "")
			expect(t, e.do(owner, "GET", "/api/codes", ""), http.StatusOK, "")
			// Another owner who did not sign in through the IdP is refused too.
			expect(t, e.do(second, "GET", "/api/codes", ""), http.StatusForbidden, msgSSORequired)
			// The break-glass member must be an owner.
			expect(t, e.do(owner, "PUT", path, body(map[string]any{"idpMetadataXml": idp.metadata(), "enforceSso": true,
				"breakGlassUserId": int64(patID)})), http.StatusBadRequest, "The break-glass member must be an owner of this workspace")
			// Turning single sign-on off lifts the requirement.
			if r := e.do(owner, "DELETE", path, ""); r.StatusCode != http.StatusNoContent {
				t.Fatalf("delete: %d %s", r.StatusCode, r.body)
			}
			expect(t, e.do(pw, "GET", "/api/codes", ""), http.StatusOK, "")
			expect(t, e.do(owner, "DELETE", path, ""), http.StatusNotFound, msgSSOMissing)
		})
	})
}

// unsolicited is an IdP-initiated response for the workspace's SP.
func (p *testIdP) unsolicited(ws string) string {
	p.t.Helper()
	rec := httptest.NewRecorder()
	p.idp.ServeIDPInitiated(rec, httptest.NewRequest("GET", p.srv.URL+"/start", nil), testConfig(p.t).BaseURL+"/auth/saml/"+ws+"/metadata", "")
	var form crew.IdpAuthnRequestForm
	if err := json.NewDecoder(rec.Body).Decode(&form); err != nil {
		p.t.Fatalf("IdP-initiated: %d %s", rec.Code, rec.Body)
	}
	return form.SAMLResponse
}

// "Sign in with SSO" finds the workspace by the address's domain, once the
// workspace has proven it; parallel posts of one response sign in once.
func TestSAMLFindAndRace(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		idp := newTestIdP(t, e)
		ctx := context.Background()
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		ws, wsID := idOf(team), int64(team["id"].(float64))
		b, _ := json.Marshal(map[string]any{"idpMetadataXml": idp.metadata()})
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/sso", string(b)), http.StatusOK, "")

		c := e.browser()
		expect(t, e.do(c, "POST", "/api/auth/sso", `{"email":"staff@acme.test"}`), http.StatusNotFound,
			"No workspace signs in acme.test addresses through single sign-on")
		expect(t, e.do(c, "POST", "/api/auth/sso", `{"email":"nobody"}`), http.StatusBadRequest, "Enter your work e-mail address")
		expect(t, e.do(c, "POST", "/api/auth/sso", `{"email":"a@%.test"}`), http.StatusBadRequest, "Enter your work e-mail address")
		d := &store.Domain{Domain: "qr.acme.test", Token: "tok-acme"}
		if err := st.CreateDomain(ctx, wsID, d, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordDomainCheck(ctx, wsID, d.ID, "dns", "", time.Now()); err != nil {
			t.Fatal(err)
		}
		got := expect(t, e.do(c, "POST", "/api/auth/sso", `{"email":"Staff@ACME.test"}`), http.StatusOK, "")
		if got["loginUrl"] != "/auth/saml/"+ws+"/login" {
			t.Errorf("found %v", got)
		}

		// With the domain proven, an existing verified account links.
		kim := e.verifiedUser("kim@acme.test", "secret1")
		want := expect(t, e.do(kim, "GET", "/api/user", ""), http.StatusOK, "")["id"]
		idp.signIn("kim@acme.test")
		resp := idp.response(c, ws)
		var wg sync.WaitGroup
		var mu sync.Mutex
		home := 0
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b := e.browser()
				r := e.do(b, "POST", "/auth/saml/"+ws+"/acs", url.Values{"SAMLResponse": {resp}}.Encode(),
					"Content-Type", "application/x-www-form-urlencoded", "Origin", idp.srv.URL)
				if r.StatusCode == http.StatusFound && r.Header.Get("Location") == "/" {
					mu.Lock()
					home++
					mu.Unlock()
					if u := expect(t, e.do(b, "GET", "/api/user", ""), http.StatusOK, ""); u["id"] != want {
						t.Errorf("signed in as %v, want %v", u["id"], want)
					}
				}
			}()
		}
		wg.Wait()
		if home != 1 {
			t.Errorf("%d of 8 parallel posts of one response signed in, want 1", home)
		}
	})
}

// The IdP's metadata by URL: fetched once through the webhook address
// rules (here allowing the test's loopback IdP), and kept with the URL.
func TestSAMLMetadataURL(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.WebhookAllowHTTP, c.WebhookAllowPrivate = true, true }))
		idp := newTestIdP(t, e)
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		path := "/api/workspaces/" + idOf(team) + "/sso"
		got := expect(t, e.do(owner, "PUT", path, `{"idpMetadataUrl":"`+idp.srv.URL+`/metadata"}`), http.StatusOK, "")
		if got["idpMetadataUrl"] != idp.srv.URL+"/metadata" || got["idpEntityId"] != idp.srv.URL+"/metadata" {
			t.Errorf("set up by URL: %v", got)
		}
		expect(t, e.do(owner, "PUT", path, `{"idpMetadataUrl":"`+idp.srv.URL+`/sso"}`), http.StatusBadRequest, "")
		expect(t, e.do(owner, "PUT", path, `{"idpMetadataUrl":"`+idp.srv.URL+`/metadata","idpMetadataXml":"<x/>"}`), http.StatusBadRequest,
			"Give the metadata XML or its URL, not both")
	})
}

// Over HTTPS a response counts only in the browser that started its
// request: another browser posting it (login CSRF) is refused.
func TestSAMLResponseBoundToBrowser(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		idp := newTestIdP(t, e)
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		ws := idOf(team)
		b, _ := json.Marshal(map[string]any{"idpMetadataXml": idp.metadata()})
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/sso", string(b)), http.StatusOK, "")

		https := []string{"X-Forwarded-Proto", "https"}
		start := func(c *http.Client) string {
			r := e.do(c, "GET", "/auth/saml/"+ws+"/login", "", https...)
			if r.StatusCode != http.StatusFound || !strings.Contains(r.Header.Get("Set-Cookie"), "SameSite=None") {
				t.Fatalf("login: %d %v", r.StatusCode, r.Header)
			}
			res, err := c.Get(r.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var form crew.IdpAuthnRequestForm
			json.NewDecoder(res.Body).Decode(&form)
			return form.SAMLResponse
		}
		post := func(cookie, resp string) string {
			h := append([]string{"Content-Type", "application/x-www-form-urlencoded", "Origin", idp.srv.URL}, https...)
			if cookie != "" {
				h = append(h, "Cookie", samlRequestCookie+"="+cookie)
			}
			r := e.do(e.browser(), "POST", "/auth/saml/"+ws+"/acs", url.Values{"SAMLResponse": {resp}}.Encode(), h...)
			return r.Header.Get("Location")
		}
		idp.signIn("mallory@acme.test")
		resp := start(e.browser())
		raw, _ := base64.StdEncoding.DecodeString(resp)
		var id string
		if m := regexp.MustCompile(`InResponseTo="([^"]+)"`).FindSubmatch(raw); m != nil {
			id = string(m[1])
		}
		if to := post("", resp); to != "/auth?sso=failed" {
			t.Errorf("without the browser's cookie: %q", to)
		}
		if to := post("id-of-another-request", resp); to != "/auth?sso=failed" {
			t.Errorf("with another request's cookie: %q", to)
		}
		if !strings.Contains(e.logs.String(), "a request this browser did not start") {
			t.Error("the refusal's reason is not logged")
		}
		if to := post(id, resp); to != "/" {
			t.Errorf("in the browser that started it: %q", to)
		}
	})
}

// Starting a passkey or SAML sign-in saves a row (a ceremony, an
// AuthnRequest) before anyone is known: the starts are counted per client
// address with its failed sign-ins, so one client cannot fill those tables.
func TestSignInStartsLimitedPerAddress(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.LoginRateLimit = 1 })) // 10 per address a minute
		idp := newTestIdP(t, e)
		owner, _ := e.signedIn("owner@acme.test")
		ws := idOf(expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, ""))
		b, _ := json.Marshal(map[string]any{"idpMetadataXml": idp.metadata()})
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/sso", string(b)), http.StatusOK, "")

		visitor := e.browser()
		for range 6 {
			expect(t, e.do(visitor, "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
		}
		for range 4 {
			if r := e.do(visitor, "GET", "/auth/saml/"+ws+"/login", ""); r.StatusCode != http.StatusFound {
				t.Fatalf("SAML start within the limit: %d %s", r.StatusCode, r.body)
			}
		}
		// The passkey start is the app's fetch: a JSON 429. The SAML start
		// is a browser's navigation: back to the sign-in page, which says
		// to wait (?sso=busy), not a JSON body shown as the page.
		expect(t, e.do(visitor, "POST", "/api/webauthn/login/begin", `{}`), http.StatusTooManyRequests, msgTooManyStarts)
		if r := e.do(visitor, "GET", "/auth/saml/"+ws+"/login", ""); r.StatusCode != http.StatusFound ||
			r.Header.Get("Location") != "/auth?sso=busy" || strings.Contains(string(r.body), msgTooManyStarts) {
			t.Errorf("SAML start over the limit: %d to %q %s", r.StatusCode, r.Header.Get("Location"), r.body)
		}
		if n, m := storetest.Count(t, st, "webauthn_ceremonies"), storetest.Count(t, st, "saml_requests"); n != 6 || m != 4 {
			t.Errorf("%d ceremonies and %d SAML requests saved, want 6 and 4", n, m)
		}
		// The next minute starts again, and a burst at once gets no more
		// than the limit.
		e.clock.Advance(time.Minute)
		var ok, limited atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				switch e.do(visitor, "POST", "/api/webauthn/login/begin", `{}`).StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					limited.Add(1)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 10 || limited.Load() != 6 || storetest.Count(t, st, "webauthn_ceremonies") != 16 {
			t.Errorf("16 starts at once: %d allowed, %d refused, %d ceremonies in all; want 10, 6 and 16", ok.Load(), limited.Load(), storetest.Count(t, st, "webauthn_ceremonies"))
		}
	})
}
