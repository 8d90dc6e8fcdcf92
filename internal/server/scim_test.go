package server

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// scimClient calls a workspace's SCIM API with its bearer token, as an
// IdP's provisioning client does.
type scimClient struct {
	t     *testing.T
	e     *env
	ws    string // the workspace's id
	base  string
	token string
}

// newSCIMClient mints workspace ws's SCIM token as owner (signed in).
// scimWorkspace starts a server with a workspace, Acme, and returns a
// SCIM client of it.
func scimWorkspace(t *testing.T, st *store.Store) *scimClient {
	t.Helper()
	e := start(t, st)
	owner, _ := e.signedIn("owner@acme.test")
	ws := idOf(expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, ""))
	return newSCIMClient(t, e, owner, ws)
}

func newSCIMClient(t *testing.T, e *env, owner *http.Client, ws string) *scimClient {
	t.Helper()
	tok := expect(t, e.do(owner, "POST", "/api/workspaces/"+ws+"/scim-token", ""), http.StatusCreated, "")
	return &scimClient{t: t, e: e, ws: ws, base: "/scim/v2/" + ws, token: tok["token"].(string)}
}

func (c *scimClient) call(method, path, body string) (int, map[string]any) {
	c.t.Helper()
	r := c.e.do(c.e.browser(), method, c.base+path, body, "Authorization", "Bearer "+c.token, "Content-Type", "application/scim+json")
	var out map[string]any
	if len(r.body) > 0 {
		if err := json.Unmarshal(r.body, &out); err != nil {
			c.t.Fatalf("%s %s: %d %s", method, path, r.StatusCode, r.body)
		}
	}
	if r.StatusCode >= 400 && (out["schemas"] == nil || out["status"] != fmt.Sprint(r.StatusCode)) {
		c.t.Errorf("%s %s: %d is not in SCIM's error shape: %s", method, path, r.StatusCode, r.body)
	}
	return r.StatusCode, out
}

func (c *scimClient) want(status int, method, path, body string) map[string]any {
	c.t.Helper()
	got, out := c.call(method, path, body)
	if got != status {
		c.t.Fatalf("%s %s: %d, want %d: %v", method, path, got, status, out)
	}
	return out
}

// Provisioning in the request shapes Okta and Entra ID document: users
// created, found by userName, grouped into roles, deactivated (Entra's
// "False") with their sessions ended on another instance, reactivated,
// deleted; an existing account joins and, not being the workspace's, keeps
// its sessions.
func TestSCIMProvisioning(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		other := start(t, st) // a second instance on the same database
		idp := newTestIdP(t, e)
		owner, _ := e.signedIn("owner@acme.test")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		ws, wsID := idOf(team), int64(team["id"].(float64))
		body, _ := json.Marshal(map[string]any{"idpMetadataXml": idp.metadata(), "roleMapping": map[string]string{"qr-editors": "editor"}})
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+ws+"/sso", string(body)), http.StatusOK, "")

		// The token: owners only, shown once, a new one replaces the old.
		stranger, _ := e.signedIn("stranger@example.com")
		expect(t, e.do(stranger, "POST", "/api/workspaces/"+ws+"/scim-token", ""), http.StatusNotFound, "")
		first := expect(t, e.do(owner, "POST", "/api/workspaces/"+ws+"/scim-token", ""), http.StatusCreated, "")
		tok := expect(t, e.do(owner, "POST", "/api/workspaces/"+ws+"/scim-token", ""), http.StatusCreated, "")
		if tok["baseUrl"] != testConfig(t).BaseURL+"/scim/v2/"+ws || !strings.HasPrefix(tok["token"].(string), "scim_") {
			t.Fatalf("token answer %v", tok)
		}
		c := &scimClient{t: t, e: e, base: "/scim/v2/" + ws, token: tok["token"].(string)}
		old := &scimClient{t: t, e: e, base: c.base, token: first["token"].(string)}
		old.want(http.StatusUnauthorized, "GET", "/Users", "")
		(&scimClient{t: t, e: e, base: c.base}).want(http.StatusUnauthorized, "GET", "/Users", "")
		personal := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")["workspace"].(map[string]any)
		(&scimClient{t: t, e: e, base: "/scim/v2/" + idOf(personal), token: c.token}).want(http.StatusUnauthorized, "GET", "/Users", "")

		if got := c.want(http.StatusOK, "GET", "/ServiceProviderConfig", ""); got["patch"].(map[string]any)["supported"] != true {
			t.Errorf("ServiceProviderConfig %v", got)
		}
		if got := c.want(http.StatusOK, "GET", "/ResourceTypes", ""); got["totalResults"] != float64(2) {
			t.Errorf("ResourceTypes %v", got)
		}
		c.want(http.StatusOK, "GET", "/Schemas", "")

		role := func(email string) string {
			var r string
			storetest.QueryRow(t, st, `SELECT COALESCE((SELECT m.role FROM workspace_members m JOIN users u ON u.id = m.user_id
				WHERE m.workspace_id = $1 AND u.username = $2), '')`, []any{wsID, email}, &r)
			return r
		}

		// Okta: filter first, then create.
		if got := c.want(http.StatusOK, "GET", `/Users?filter=userName%20eq%20%22ann%40acme.test%22&startIndex=1&count=100`, ""); got["totalResults"] != float64(0) {
			t.Fatalf("filter before create: %v", got)
		}
		ann := c.want(http.StatusCreated, "POST", "/Users", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],
			"userName":"Ann@Acme.test","name":{"givenName":"Ann","familyName":"Lee"},
			"emails":[{"primary":true,"value":"ann@acme.test","type":"work"}],"displayName":"Ann Lee","locale":"en-US","externalId":"00u1","groups":[],"active":true}`)
		annID := ann["id"].(string)
		if ann["userName"] != "ann@acme.test" || ann["active"] != true || ann["externalId"] != "00u1" || role("ann@acme.test") != "viewer" {
			t.Fatalf("created %v (role %q)", ann, role("ann@acme.test"))
		}
		if got := c.want(http.StatusOK, "GET", `/Users?filter=userName+eq+"ann@acme.test"`, ""); got["totalResults"] != float64(1) {
			t.Errorf("filter after create: %v", got)
		}
		c.want(http.StatusConflict, "POST", "/Users", `{"userName":"ann@acme.test"}`)
		c.want(http.StatusBadRequest, "GET", `/Users?filter=name.givenName+sw+"A"`, "")
		// Text PostgreSQL cannot store or compare with (500 there before).
		for _, path := range []string{`/Users?filter=userName+eq+"a%00b"`, `/Users?filter=externalId+eq+"a%ffb"`, `/Groups?filter=displayName+eq+"G%00"`} {
			if got := c.want(http.StatusBadRequest, "GET", path, ""); got["scimType"] != "invalidFilter" {
				t.Errorf("%s: %v", path, got)
			}
		}
		for path, body := range map[string]string{
			"/Users":  `{"userName":"zed@acme.test","externalId":"e\u00001"}`,
			"/Groups": "{\"displayName\":\"G\xff\"}",
		} {
			if got := c.want(http.StatusBadRequest, "POST", path, body); got["scimType"] != "invalidValue" {
				t.Errorf("POST %s %q: %v", path, body, got)
			}
		}
		for _, name := range []string{`qr\neditors`, `qr\reditors`, `qr\u0007editors`} {
			c.want(http.StatusBadRequest, "POST", "/Groups", `{"displayName":"`+name+`"}`)
		}
		if role("zed@acme.test") != "" {
			t.Error("a refused user was created")
		}

		// Entra ID: a group, then members added by PATCH.
		g := c.want(http.StatusCreated, "POST", "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"externalId":"8aa1","displayName":"qr-editors","members":[]}`)
		gID := g["id"].(string)
		c.want(http.StatusOK, "PATCH", "/Groups/"+gID, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
			"Operations":[{"op":"Add","path":"members","value":[{"value":"`+annID+`"}]}]}`)
		if r := role("ann@acme.test"); r != "editor" {
			t.Errorf("after joining qr-editors: %q", r)
		}
		// Okta's removal by path.
		c.want(http.StatusOK, "PATCH", "/Groups/"+gID, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
			"Operations":[{"op":"remove","path":"members[value eq \"`+annID+`\"]"}]}`)
		if r := role("ann@acme.test"); r != "viewer" {
			t.Errorf("after leaving qr-editors: %q", r)
		}
		c.want(http.StatusBadRequest, "PATCH", "/Groups/"+gID, `{"Operations":[{"op":"add","path":"members","value":[{"value":"999999"}]}]}`)

		// Ann signs in through the IdP (her account is the workspace's) on
		// this instance; her session works on the other one too.
		idp.signIn("ann@acme.test")
		annBrowser := e.browser()
		if to := idp.post(annBrowser, ws, idp.response(annBrowser, ws)); to != "/" {
			t.Fatalf("Ann's SAML sign-in went to %q", to)
		}
		annCookie := annBrowser.Jar.Cookies(mustURL(t, e.srv.URL))
		onOther := other.browser()
		onOther.Jar.SetCookies(mustURL(t, other.srv.URL), annCookie)
		expect(t, other.do(onOther, "GET", "/api/user", ""), http.StatusOK, "")

		// An existing account joins; its own key in the workspace is revoked when deprovisioned.
		bob, _ := e.signedIn("bob@example.com")
		b := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"bob@example.com","name":{"givenName":"Bob","familyName":"Old"},"active":true}`)
		if role("bob@example.com") != "viewer" || storetest.Count(t, st, "users") == 0 {
			t.Fatal("the existing account did not join")
		}
		if u, _ := st.UserByUsername(t.Context(), "bob@example.com"); u.FirstName == "Bob" {
			t.Error("provisioning renamed an account the workspace does not manage")
		}
		expect(t, e.do(bob, "POST", "/api/workspaces/"+ws+"/activate", ""), http.StatusOK, "")
		keys := storetest.Count(t, st, "api_keys")
		if err := st.SyncSSOMember(t.Context(), wsID, mustID(t, b["id"]), "bob@example.com", "admin", time.Now()); err != nil {
			t.Fatal(err)
		}
		expect(t, e.do(bob, "POST", "/api/api-keys", `{"name":"Bob's script"}`), http.StatusCreated, "")
		if storetest.Count(t, st, "api_keys") != keys+1 {
			t.Fatal("no key made")
		}

		// Entra ID deactivates with the string "False".
		c.want(http.StatusOK, "PATCH", "/Users/"+annID, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
			"Operations":[{"op":"Replace","path":"active","value":"False"}]}`)
		if r := role("ann@acme.test"); r != "" {
			t.Errorf("deactivated Ann is still a %s", r)
		}
		expect(t, other.do(onOther, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		expect(t, e.do(annBrowser, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		again := e.browser()
		if to := idp.post(again, ws, idp.response(again, ws)); to != "/auth?sso=suspended" {
			t.Errorf("a suspended account's sign-in went to %q", to)
		}
		// Nor by password, had she one.
		hash, _ := bcrypt.GenerateFromPassword([]byte("secret1"), bcrypt.MinCost)
		if err := st.SetPassword(t.Context(), mustID(t, annID), string(hash), ""); err != nil {
			t.Fatal(err)
		}
		r := e.do(e.browser(), "POST", "/api/login", `{"username":"ann@acme.test","password":"secret1"}`)
		if r.StatusCode != http.StatusForbidden || codeOf(r) != "account_suspended" {
			t.Errorf("a suspended account's password sign-in: %d %s", r.StatusCode, r.body)
		}
		if got := c.want(http.StatusOK, "GET", "/Users/"+annID, ""); got["active"] != false {
			t.Errorf("after deactivation: %v", got)
		}

		c.want(http.StatusOK, "PATCH", "/Users/"+b["id"].(string), `{"Operations":[{"op":"replace","value":{"active":false}}]}`)
		if storetest.Count(t, st, "api_keys") != keys {
			t.Error("the deprovisioned member's key in the workspace still works")
		}
		// Bob's account is his own: he stays signed in, without the workspace.
		me := expect(t, e.do(bob, "GET", "/api/user", ""), http.StatusOK, "")
		if idOf(me["workspace"].(map[string]any)) == ws {
			t.Error("Bob's session still acts in the workspace")
		}

		// Okta reactivates.
		c.want(http.StatusOK, "PATCH", "/Users/"+annID, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":true}}]}`)
		if r := role("ann@acme.test"); r != "viewer" {
			t.Errorf("reactivated Ann is %q", r)
		}
		back := e.browser()
		if to := idp.post(back, ws, idp.response(back, ws)); to != "/" {
			t.Errorf("reactivated Ann's sign-in went to %q", to)
		}

		// PUT replaces; DELETE deprovisions and forgets.
		put := c.want(http.StatusOK, "PUT", "/Users/"+annID, `{"userName":"ann@acme.test","name":{"givenName":"Anna","familyName":"Lee"},"externalId":"00u1","active":true}`)
		if put["name"].(map[string]any)["givenName"] != "Anna" {
			t.Errorf("PUT gave %v", put)
		}
		c.want(http.StatusNoContent, "DELETE", "/Users/"+annID, "")
		c.want(http.StatusNotFound, "GET", "/Users/"+annID, "")
		expect(t, e.do(back, "GET", "/api/user", ""), http.StatusUnauthorized, "")

		// Bad input changes nothing.
		users := storetest.Count(t, st, "users")
		c.want(http.StatusBadRequest, "POST", "/Users", `{"userName":`)
		c.want(http.StatusBadRequest, "POST", "/Users", `{"userName":"not an address"}`)
		c.want(http.StatusBadRequest, "POST", "/Users", `{"userName":"x@acme.test","active":"maybe"}`)
		c.want(http.StatusRequestEntityTooLarge, "POST", "/Users", `{"userName":"`+strings.Repeat("a", 1<<20)+`@acme.test"}`)
		c.want(http.StatusBadRequest, "PATCH", "/Users/"+b["id"].(string), `{"Operations":[{"op":"explode","path":"active","value":true}]}`)
		ownerID := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")["id"]
		c.want(http.StatusNotFound, "GET", "/Users/"+fmt.Sprint(mustID(t, ownerID)), "") // the owner is no SCIM User
		c.want(http.StatusNotFound, "GET", "/Nope", "")
		if storetest.Count(t, st, "users") != users {
			t.Error("refused requests made accounts")
		}
	})
}

func mustID(t *testing.T, v any) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(fmt.Sprint(v), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Bad SCIM input changes nothing and costs little: deactivating the
// workspace's last owner, refused, does not keep the request's other
// changes (it did: the names and externalId were saved before the
// refusal); a PatchOp naming a huge list of members is refused at once
// (each id was checked against every other, for seconds of CPU).
func TestSCIMRefusalsChangeNothing(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, ownerID := e.signedIn("owner@acme.test")
		ws := idOf(expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, ""))
		c := newSCIMClient(t, e, owner, ws)

		// The owner's own account, provisioned: the workspace's last owner.
		u := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"owner@acme.test","externalId":"00u1","active":true}`)
		id := u["id"].(string)
		if id != fmt.Sprint(ownerID) {
			t.Fatalf("provisioned %v, want the owner's account %d", u, ownerID)
		}
		for _, req := range []struct{ method, body string }{
			{"PUT", `{"userName":"owner@acme.test","externalId":"00u2","active":false}`},
			{"PATCH", `{"Operations":[{"op":"replace","path":"externalId","value":"00u3"},{"op":"replace","path":"active","value":false}]}`},
			{"PATCH", `{"Operations":[{"op":"replace","value":{"externalId":"00u4","active":"False"}}]}`},
		} {
			if got := c.want(http.StatusConflict, req.method, "/Users/"+id, req.body); got["scimType"] != "mutability" {
				t.Errorf("%s %s: %v", req.method, req.body, got)
			}
			if got := c.want(http.StatusOK, "GET", "/Users/"+id, ""); got["externalId"] != "00u1" || got["active"] != true {
				t.Errorf("after the refused %s %s: %v", req.method, req.body, got)
			}
		}
		var role string
		storetest.QueryRow(t, st, `SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, []any{mustID(t, ws), ownerID}, &role)
		if role != "owner" {
			t.Errorf("the last owner is now %q", role)
		}

		// A member list of nearly 1 MB, every id different.
		g := c.want(http.StatusCreated, "POST", "/Groups", `{"displayName":"qr-editors"}`)
		var b strings.Builder
		b.WriteString(`{"Operations":[{"op":"add","path":"members","value":[`)
		for i := 1; b.Len() < 1<<20-64; i++ {
			if i > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"value":"%d"}`, i)
		}
		b.WriteString(`]}]}`)
		// Refused by its length, before the ids are checked against each
		// other (which took 1-2 s of CPU): the early check's own message.
		if got := c.want(http.StatusBadRequest, "PATCH", "/Groups/"+g["id"].(string), b.String()); got["scimType"] != "invalidValue" ||
			got["detail"] != "A Group has at most 10,000 members" {
			t.Errorf("a huge member list: %v", got)
		}
		if got := c.want(http.StatusOK, "GET", "/Groups/"+g["id"].(string), ""); len(got["members"].([]any)) != 0 {
			t.Errorf("the refused PatchOp added members: %d", len(got["members"].([]any)))
		}
	})
}

// A userName (or primary e-mail) with control characters is no address,
// as everywhere else in the app (mail.ValidAddress): it was made an
// account with a line break in its address.
func TestSCIMUserNameMustBeAnAddress(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		c := scimWorkspace(t, st)
		users := storetest.Count(t, st, "users")
		for _, body := range []string{
			`{"userName":"ann\r\nbcc@acme.test"}`,
			`{"userName":"ann\tlee@acme.test"}`,
			`{"userName":"ann\u0007@acme.test"}`,
			`{"userName":"00u9","emails":[{"value":"ann\nlee@acme.test","primary":true}]}`,
		} {
			if got := c.want(http.StatusBadRequest, "POST", "/Users", body); got["scimType"] != "invalidValue" {
				t.Errorf("%s: %v", body, got)
			}
		}
		if n := storetest.Count(t, st, "users"); n != users {
			t.Errorf("refused Users made %d accounts", n-users)
		}
		c.want(http.StatusCreated, "POST", "/Users", `{"userName":"Ann.Lee+qr@Acme.test"}`)
	})
}

// Names and externalId are counted in characters, as the app counts
// names: a name of 100 characters in another script (300 bytes) is taken,
// one of 101 refused. They were counted in bytes under a message saying
// characters.
func TestSCIMNamesCountedInCharacters(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		c := scimWorkspace(t, st)
		name, id := strings.Repeat("名", 100), strings.Repeat("é", 256)
		u := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"ann@acme.test","name":{"givenName":"`+name+`","familyName":"Lee"},"externalId":"`+id+`"}`)
		if u["name"].(map[string]any)["givenName"] != name || u["externalId"] != id {
			t.Errorf("kept %v", u)
		}
		for _, body := range []string{
			`{"userName":"bob@acme.test","name":{"givenName":"` + name + `名","familyName":"Lee"}}`,
			`{"userName":"bob@acme.test","externalId":"` + id + `é"}`,
		} {
			if got := c.want(http.StatusBadRequest, "POST", "/Users", body); got["scimType"] != "invalidValue" {
				t.Errorf("%.60s…: %v", body, got)
			}
		}
		c.want(http.StatusBadRequest, "PATCH", "/Users/"+u["id"].(string), `{"Operations":[{"op":"replace","path":"name.familyName","value":"`+name+`名"}]}`)
	})
}

// A PUT (which replaces the User) or a PATCH giving another userName is
// refused, 400 mutability, and keeps nothing of the request: userName is
// the account's e-mail address, which SCIM does not change. It was
// silently ignored (200, the old userName kept, the rest saved). The same
// address, in another case or as the primary e-mail, still goes through.
func TestSCIMUserNameChangeRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		c := scimWorkspace(t, st)
		id := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"ann@acme.test","name":{"givenName":"Ann","familyName":"Lee"},"externalId":"00u1"}`)["id"].(string)
		c.want(http.StatusCreated, "POST", "/Users", `{"userName":"bob@acme.test"}`)
		users := storetest.Count(t, st, "users")
		for _, req := range []struct{ method, body string }{
			{"PUT", `{"userName":"ann.lee@acme.test","name":{"givenName":"Anna","familyName":"Lee"},"externalId":"00u2","active":true}`},
			{"PUT", `{"userName":"bob@acme.test","name":{"givenName":"Anna","familyName":"Lee"},"externalId":"00u2"}`},
			{"PUT", `{"userName":"00u2","emails":[{"value":"ann.lee@acme.test","primary":true}],"externalId":"00u2"}`},
			{"PATCH", `{"Operations":[{"op":"replace","path":"userName","value":"ann.lee@acme.test"},{"op":"replace","path":"externalId","value":"00u2"}]}`},
			{"PATCH", `{"Operations":[{"op":"Replace","value":{"userName":"ann.lee@acme.test","externalId":"00u2"}}]}`},
		} {
			got := c.want(http.StatusBadRequest, req.method, "/Users/"+id, req.body)
			if got["scimType"] != "mutability" || !strings.Contains(got["detail"].(string), "userName") {
				t.Errorf("%s %s: %v", req.method, req.body, got)
			}
			if u := c.want(http.StatusOK, "GET", "/Users/"+id, ""); u["userName"] != "ann@acme.test" || u["externalId"] != "00u1" ||
				u["name"].(map[string]any)["givenName"] != "Ann" {
				t.Errorf("after the refused %s %s: %v", req.method, req.body, u)
			}
		}
		if n := storetest.Count(t, st, "users"); n != users {
			t.Errorf("refused renames made %d accounts", n-users)
		}
		var email string
		storetest.QueryRow(t, st, `SELECT email FROM users WHERE id = $1`, []any{mustID(t, id)}, &email)
		if email != "ann@acme.test" {
			t.Errorf("the account's address is now %q", email)
		}
		// The same address: a PUT in another case, by its primary e-mail,
		// and a PATCH repeating it.
		for _, req := range []struct{ method, body string }{
			{"PUT", `{"userName":"Ann@Acme.test","name":{"givenName":"Anna","familyName":"Lee"},"externalId":"00u2","active":true}`},
			{"PUT", `{"userName":"00u3","emails":[{"value":"ann@acme.test","primary":true}],"name":{"givenName":"Anna","familyName":"Lee"},"externalId":"00u3"}`},
			{"PATCH", `{"Operations":[{"op":"replace","path":"userName","value":"ann@acme.test"},{"op":"replace","path":"externalId","value":"00u4"}]}`},
		} {
			if u := c.want(http.StatusOK, req.method, "/Users/"+id, req.body); u["userName"] != "ann@acme.test" {
				t.Errorf("%s %s: %v", req.method, req.body, u)
			}
		}
		if u := c.want(http.StatusOK, "GET", "/Users/"+id, ""); u["externalId"] != "00u4" || u["name"].(map[string]any)["givenName"] != "Anna" {
			t.Errorf("after the same address: %v", u)
		}
	})
}

// A User provisioned inactive whose account is a member already leaves the
// workspace, as deactivating does: it stayed a member, with its role, while
// SCIM answered "active": false (and a PATCH to false changed nothing). The
// last owner is refused, and stays an active owner.
func TestSCIMProvisionedInactiveMemberLeaves(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ws := fmt.Sprint(f.ws)
		c := newSCIMClient(t, e, f.members["owner"], ws)
		role := func(who string) string {
			var r string
			storetest.QueryRow(t, st, `SELECT COALESCE((SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2), '')`,
				[]any{f.ws, f.memberIDs[who]}, &r)
			return r
		}

		u := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"editor@example.com","active":false}`)
		if u["active"] != false || role("editor") != "" {
			t.Errorf("provisioned inactive: %v, still a member as %q", u["active"], role("editor"))
		}
		me := expect(t, e.do(f.members["editor"], "GET", "/api/user", ""), http.StatusOK, "")
		if w, _ := me["workspace"].(map[string]any); w != nil && idOf(w) == ws {
			t.Error("the inactive User's session still acts in the workspace")
		}

		if got := c.want(http.StatusConflict, "POST", "/Users", `{"userName":"owner@example.com","active":false}`); got["scimType"] != "mutability" {
			t.Errorf("the last owner provisioned inactive: %v", got)
		}
		if role("owner") != "owner" {
			t.Errorf("the last owner is now %q", role("owner"))
		}
		if got := c.want(http.StatusOK, "GET", "/Users/"+fmt.Sprint(f.memberIDs["owner"]), ""); got["active"] != true {
			t.Errorf("the last owner's User: %v", got)
		}
	})
}

// A workspace's only two owners, both SCIM Users, turned off at once: one
// leaves, the other is the last owner (409) and stays. On PostgreSQL each
// request counted the other owner before either left, and in some rounds
// both left, leaving the workspace with none.
func TestSCIMOwnersTurnedOffAtOnceKeepOne(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		for round := range 12 {
			a, b := fmt.Sprintf("a%d@acme.test", round), fmt.Sprintf("b%d@acme.test", round)
			owner, _ := e.signedIn(a)
			_, bID := e.signedIn(b)
			ws := idOf(expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, ""))
			if err := st.SyncSSOMember(t.Context(), mustID(t, ws), bID, b, "owner", time.Now()); err != nil {
				t.Fatal(err)
			}
			c := newSCIMClient(t, e, owner, ws)
			ids := []string{
				c.want(http.StatusCreated, "POST", "/Users", `{"userName":"`+a+`"}`)["id"].(string),
				c.want(http.StatusCreated, "POST", "/Users", `{"userName":"`+b+`"}`)["id"].(string),
			}
			statuses := make(chan int, len(ids))
			for _, id := range ids {
				go func() {
					status, _ := c.call("PATCH", "/Users/"+id, `{"Operations":[{"op":"replace","path":"active","value":false}]}`)
					statuses <- status
				}()
			}
			got := []int{<-statuses, <-statuses}
			var owners int
			storetest.QueryRow(t, st, `SELECT count(*) FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'`, []any{mustID(t, ws)}, &owners)
			if owners != 1 || got[0]+got[1] != http.StatusOK+http.StatusConflict {
				t.Fatalf("round %d: answers %v, %d owners left; want 200 and 409, one owner", round, got, owners)
			}
		}
	})
}

// A PUT or PATCH that changes active and another attribute is one change:
// when saving the attribute fails, the deactivation (or reactivation) is
// not kept either. It was saved first, on its own: a request answered 500
// left the User deactivated (membership gone, account suspended) or
// reactivated. The failure is the database's, made by a test trigger.
func TestSCIMUserUpdateIsAllOrNothing(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		c := scimWorkspace(t, st)
		ws := c.ws
		// A new account, which the workspace manages: deactivating suspends it.
		id := c.want(http.StatusCreated, "POST", "/Users", `{"userName":"ann@acme.test","name":{"givenName":"Ann","familyName":"Lee"},"externalId":"00u1"}`)["id"].(string)
		refuseSCIMWrites(t, st)

		type state struct {
			role                  string
			active, suspended     bool
			given, family, extern string
			audited               int
		}
		read := func() state {
			t.Helper()
			var s state
			storetest.QueryRow(t, st, `SELECT COALESCE((SELECT role FROM workspace_members WHERE workspace_id = p.workspace_id AND user_id = p.user_id), ''),
				p.active, u.suspended_at IS NOT NULL, u.first_name, u.last_name, p.external_id, (SELECT count(*) FROM audit_log)
				FROM scim_users p JOIN users u ON u.id = p.user_id WHERE p.workspace_id = $1 AND p.user_id = $2`,
				[]any{mustID(t, ws), mustID(t, id)}, &s.role, &s.active, &s.suspended, &s.given, &s.family, &s.extern, &s.audited)
			return s
		}
		for _, active := range []bool{true, false} {
			if !active {
				c.want(http.StatusOK, "PATCH", "/Users/"+id, `{"Operations":[{"op":"replace","path":"active","value":false}]}`)
			}
			before := read()
			if before.active != active || (before.role != "") != active || before.suspended == active {
				t.Fatalf("before: %+v", before)
			}
			flip := fmt.Sprint(!active)
			for _, req := range []struct{ method, body string }{
				{"PUT", `{"userName":"ann@acme.test","name":{"givenName":"Boom","familyName":"Lee"},"externalId":"00u1","active":` + flip + `}`},
				{"PUT", `{"userName":"ann@acme.test","name":{"givenName":"Ann","familyName":"Lee"},"externalId":"boom","active":` + flip + `}`},
				{"PATCH", `{"Operations":[{"op":"replace","path":"active","value":"` + flip + `"},{"op":"replace","path":"name.givenName","value":"Boom"}]}`},
				{"PATCH", `{"Operations":[{"op":"replace","value":{"externalId":"boom","active":` + flip + `,"name":{"familyName":"Ng"}}}]}`},
			} {
				c.want(http.StatusInternalServerError, req.method, "/Users/"+id, req.body)
				if got := read(); got != before {
					t.Errorf("active %v, the failed %s %s left %+v, was %+v", active, req.method, req.body, got, before)
				}
			}
		}
	})
}

// refuseSCIMWrites makes st's database refuse, as a failing write would,
// to set an account's first name to "Boom" or a SCIM User's externalId to
// "boom": triggers, made over a connection of their own.
func refuseSCIMWrites(t *testing.T, st *store.Store) {
	t.Helper()
	var driver, dsn string
	var stmts []string
	if st.Dialect() == store.Postgres {
		var name string
		storetest.QueryRow(t, st, `SELECT current_database()`, nil, &name)
		u := mustURL(t, testenv.PostgresURL(t))
		u.Path = "/" + name
		driver, dsn = "pgx", u.String()
		stmts = []string{
			`CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
			`CREATE TRIGGER test_refuse_name BEFORE UPDATE OF first_name ON users FOR EACH ROW
				WHEN (NEW.first_name = 'Boom') EXECUTE FUNCTION test_refuse()`,
			`CREATE TRIGGER test_refuse_external_id BEFORE UPDATE OF external_id ON scim_users FOR EACH ROW
				WHEN (NEW.external_id = 'boom') EXECUTE FUNCTION test_refuse()`,
		}
	} else {
		storetest.QueryRow(t, st, `SELECT file FROM pragma_database_list WHERE name = 'main'`, nil, &dsn)
		driver, dsn = "sqlite", dsn+"?_pragma=busy_timeout(5000)"
		stmts = []string{
			`CREATE TRIGGER test_refuse_name BEFORE UPDATE OF first_name ON users
				WHEN NEW.first_name = 'Boom' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
			`CREATE TRIGGER test_refuse_external_id BEFORE UPDATE OF external_id ON scim_users
				WHEN NEW.external_id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
		}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
