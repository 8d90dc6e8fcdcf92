package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// admin signs up email in a new browser and makes it an admin.
func (e *env) admin(email string) *http.Client {
	e.t.Helper()
	c, _ := e.signedIn(email)
	if err := e.store.SetAdmin(context.Background(), email, true); err != nil {
		e.t.Fatal(err)
	}
	return c
}

// onHost sends a request as if it came by host.
func (e *env) onHost(c *http.Client, host, method, path, body string) *response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return &response{Response: resp, body: b}
}

func TestWhiteLabelClientAdmin(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		admin := e.admin("admin@example.com")
		user, _ := e.signedIn("user@example.com")

		expect(t, e.do(e.browser(), "GET", "/api/white-label/clients", ""), http.StatusUnauthorized, "Not authenticated")
		for _, call := range [][3]string{{"GET", "/api/white-label/clients", ""}, {"POST", "/api/white-label/clients", `{"name":"X"}`},
			{"PUT", "/api/white-label/clients/1", `{"name":"X"}`}, {"DELETE", "/api/white-label/clients/1", ""},
			{"POST", "/api/white-label/clients/1/rotate-key", ""}} {
			expect(t, e.do(user, call[0], call[1], call[2]), http.StatusForbidden, "Admin access required")
		}

		// Empty optional fields may come absent; colours default. The new
		// client's key is in the answer whole, once, and it works at once.
		c := expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":" Acme ","subdomain":"Acme","customDomain":"QR.Acme.test"}`), http.StatusCreated, "")
		firstKey, _ := c["apiKey"].(string)
		if c["name"] != "Acme" || c["subdomain"] != "acme" || c["customDomain"] != "qr.acme.test" || c["primaryColor"] != "#3B82F6" ||
			c["secondaryColor"] != "#1E40AF" || c["isActive"] != true || !strings.HasPrefix(firstKey, "sq_") ||
			c["apiKeyMasked"] != firstKey[:9]+"…"+firstKey[len(firstKey)-4:] {
			t.Fatalf("created = %v", c)
		}
		expect(t, e.api(firstKey, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		id := int64(c["id"].(float64))
		expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Other","subdomain":"acme"}`), http.StatusConflict,
			"Another client already uses this custom domain or subdomain")
		expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Other","customDomain":"qr.acme.test"}`), http.StatusConflict, "")
		for body, field := range map[string]string{
			`{"name":""}`:                                                    "name",
			`{"name":"X","subdomain":"a.b"}`:                                 "subdomain",
			`{"name":"X","subdomain":"www"}`:                                 "subdomain",
			`{"name":"X","customDomain":"localhost"}`:                        "customDomain",
			`{"name":"X","customDomain":"evil.localhost"}`:                   "customDomain",
			`{"name":"X","customDomain":"a b.test"}`:                         "customDomain",
			`{"name":"X","primaryColor":"red"}`:                              "primaryColor",
			`{"name":"X","secondaryColor":"#12345"}`:                         "secondaryColor",
			`{"name":"X","logoUrl":"http://x.test/l.png"}`:                   "logoUrl",
			`{"name":"X","logoUrl":"javascript:alert(1)"}`:                   "logoUrl",
			`{"name":"X","customFavicon":"https://x.test/a\"b"}`:             "customFavicon",
			`{"name":"X","customCSS":"body{}</style><script>x()</script>"}`:  "customCSS",
			`{"name":"X","customCSS":"` + strings.Repeat("a", 10_001) + `"}`: "customCSS",
		} {
			m := expect(t, e.do(admin, "POST", "/api/white-label/clients", body), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
				t.Errorf("%.60s: errors %v, want %s", body, m["errors"], field)
			}
		}
		expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":1}`), http.StatusBadRequest, "name must be a string")

		u := expect(t, e.do(admin, "PUT", fmt.Sprintf("/api/white-label/clients/%d", id),
			`{"name":"Acme Co","subdomain":"acme","primaryColor":"#ff0000","logoUrl":"https://cdn.acme.test/logo.png","customCSS":"h1{color:red}","removeSquarelyBranding":true}`),
			http.StatusOK, "")
		if u["name"] != "Acme Co" || u["primaryColor"] != "#FF0000" || u["customDomain"] != "" || u["removeSquarelyBranding"] != true {
			t.Fatalf("updated = %v", u)
		}
		expect(t, e.do(admin, "PUT", "/api/white-label/clients/999", `{"name":"X"}`), http.StatusNotFound, "Client not found")

		// The key is shown once, then masked.
		rot := expect(t, e.do(admin, "POST", fmt.Sprintf("/api/white-label/clients/%d/rotate-key", id), ""), http.StatusOK, "")
		key, _ := rot["apiKey"].(string)
		if !strings.HasPrefix(key, "sq_") || rot["apiKeyMasked"] != key[:9]+"…"+key[len(key)-4:] {
			t.Fatalf("rotation = %v", rot)
		}
		expect(t, e.api(firstKey, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
		var list []map[string]any
		decodeList(t, e.do(admin, "GET", "/api/white-label/clients", ""), &list)
		if len(list) != 2 || list[0]["id"] != 1.0 || list[1]["apiKey"] != nil || list[1]["apiKeyMasked"] != rot["apiKeyMasked"] {
			t.Fatalf("list = %v", list)
		}

		expect(t, e.do(admin, "DELETE", "/api/white-label/clients/1", ""), http.StatusConflict, "The default client cannot be deleted")
		if r := e.do(admin, "DELETE", fmt.Sprintf("/api/white-label/clients/%d", id), ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.do(admin, "DELETE", fmt.Sprintf("/api/white-label/clients/%d", id), ""), http.StatusNotFound, "Client not found")
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
	})
}

// The sign-in pages learn whether to offer Google (issue 21) from the
// site's config alone, which says what /auth/google does; the providers
// do not answer it.
func TestConfigTellsGoogleSignIn(t *testing.T) {
	st := storetest.Open(t)
	for want, opt := range map[bool]option{
		false: func(*Deps) {},
		true: func(d *Deps) {
			d.Config.GoogleClientID, d.Config.GoogleClientSecret = "id.apps.googleusercontent.com", "secret"
			d.Google = auth.NewGoogle(d.Config)
		},
	} {
		e := start(t, st, opt)
		if got := expect(t, e.do(e.browser(), "GET", "/api/white-label/config", ""), http.StatusOK, ""); got["googleSignIn"] != want {
			t.Errorf("googleSignIn = %v, want %v", got["googleSignIn"], want)
		}
		if got := expect(t, e.do(e.browser(), "GET", "/api/auth/providers", ""), http.StatusOK, ""); got["google"] != nil || got["oidc"] != nil {
			t.Errorf("providers = %v, want oidc null and no word of Google", got)
		}
		start := e.do(e.browser(), "GET", "/auth/google", "")
		if redirects := start.StatusCode == http.StatusFound && strings.HasPrefix(start.Header.Get("Location"), "https://accounts.google.com/"); redirects != want {
			t.Errorf("GET /auth/google: %d %q, want a redirect to Google %v", start.StatusCode, start.Header.Get("Location"), want)
		}
	}
}

func TestWhiteLabelThemingByHost(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		admin := e.admin("admin@example.com")
		c := expect(t, e.do(admin, "POST", "/api/white-label/clients",
			`{"name":"Acme","subdomain":"acme","customDomain":"qr.acme.test","primaryColor":"#112233","secondaryColor":"#445566","customCSS":"h1{color:red}","customFavicon":"https://acme.test/f.ico"}`),
			http.StatusCreated, "")
		id := int64(c["id"].(float64))
		port := e.srv.URL[strings.LastIndexByte(e.srv.URL, ':'):]

		config := func(host string) map[string]any {
			t.Helper()
			r := e.onHost(e.browser(), host, "GET", "/api/white-label/config", "")
			return expect(t, r, http.StatusOK, "")
		}
		for _, host := range []string{"qr.acme.test", "QR.ACME.TEST" + port, "acme.localhost" + port} {
			got := config(host)
			if got["name"] != "Acme" || got["primaryColor"] != "#112233" || got["secondaryColor"] != "#445566" ||
				got["customCSS"] != "h1{color:red}" || got["customFavicon"] != "https://acme.test/f.ico" || got["isDefault"] != false {
				t.Errorf("config on %s = %v", host, got)
			}
		}
		for _, host := range []string{"localhost" + port, "unknown.test", "other.localhost" + port, "x.acme.localhost"} {
			if got := config(host); got["name"] != "Squarely" || got["primaryColor"] != "#3B82F6" || got["isDefault"] != true || got["googleSignIn"] != false {
				t.Errorf("config on %s = %v", host, got)
			}
		}
		info := expect(t, e.onHost(e.browser(), "acme.localhost"+port, "GET", "/api/subdomain-info", ""), http.StatusOK, "")
		if info["isSubdomain"] != true || info["subdomain"] != "acme" || info["clientId"] != float64(id) {
			t.Errorf("subdomain-info = %v", info)
		}

		// Registering on the client's host makes a client account; its
		// dynamic codes print the client's host and scan on every host.
		b := e.browser()
		reg := expect(t, e.onHost(b, "acme.localhost"+port, "POST", "/api/register", registerBody("member@acme.test", "secret1")), http.StatusCreated, "")
		if reg["clientId"] != float64(id) {
			t.Fatalf("registered on the client's host: clientId %v", reg["clientId"])
		}
		key := expect(t, e.onHost(b, "acme.localhost"+port, "POST", "/api/api-keys", `{"name":"k"}`), http.StatusCreated, "")["key"].(string)
		d := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://acme.test/menu"}`), http.StatusCreated, "")
		code := d["shortCode"].(string)
		if d["url"] != "http://qr.acme.test/d/"+code {
			t.Errorf("client code URL = %v, want its custom domain", d["url"])
		}
		// A team workspace belongs to the client of the host it was made on
		// (issue 22).
		w := expect(t, e.onHost(b, "acme.localhost"+port, "POST", "/api/workspaces", `{"name":"Team"}`), http.StatusCreated, "")
		var wsClient int64
		storetest.QueryRow(t, st, `SELECT client_id FROM workspaces WHERE id = $1`, []any{int64(w["id"].(float64))}, &wsClient)
		if wsClient != id {
			t.Errorf("workspace made on Acme's host belongs to client %d, want %d", wsClient, id)
		}
		for _, host := range []string{"qr.acme.test", "localhost" + port, "unknown.test"} {
			r := e.onHost(e.browser(), host, "GET", "/d/"+code, "")
			if r.StatusCode != http.StatusFound || r.Header.Get("Location") != "https://acme.test/menu" {
				t.Errorf("scan on %s: %d %s", host, r.StatusCode, r.Header.Get("Location"))
			}
		}

		// An inactive client falls back to the default site, at once on
		// the instance that made the change.
		c["isActive"] = false
		body, _ := json.Marshal(c)
		expect(t, e.do(admin, "PUT", fmt.Sprintf("/api/white-label/clients/%d", id), string(body)), http.StatusOK, "")
		if got := config("qr.acme.test"); got["name"] != "Squarely" {
			t.Errorf("inactive client's host still themed: %v", got)
		}
		reg = expect(t, e.onHost(e.browser(), "acme.localhost"+port, "POST", "/api/register", registerBody("late@acme.test", "secret1")), http.StatusCreated, "")
		if reg["clientId"] != 1.0 {
			t.Errorf("registered on an inactive client's host: clientId %v", reg["clientId"])
		}
	})
}
