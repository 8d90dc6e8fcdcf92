package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// An owner makes a proven domain's verified addresses join the team: the
// route checks the domain and role, and the next sign-in of a verified
// address there lands in the workspace, while an unverified one does not.
func TestAutoJoinRoutes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, _ := e.signedIn("owner@example.com")
		team := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Acme"}`), http.StatusCreated, "")
		path := "/api/workspaces/" + idOf(team) + "/auto-join"
		ws := int64(team["id"].(float64))

		expect(t, e.do(owner, "PUT", path, `{"domain":"acme.test","role":"owner"}`), http.StatusBadRequest, "role must be admin, editor or viewer")
		expect(t, e.do(owner, "PUT", path, `{"domain":"https://acme.test/x","role":"editor"}`), http.StatusBadRequest, "")
		expect(t, e.do(owner, "PUT", path, `{"domain":"acme.test","role":"editor"}`), http.StatusBadRequest,
			"Verify acme.test, or a domain under it, as a custom domain of this workspace first")
		d := &store.Domain{Domain: "qr.acme.test", Token: "tok-acme"}
		ctx := context.Background()
		if err := st.CreateDomain(ctx, ws, d, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordDomainCheck(ctx, ws, d.ID, "dns", "", time.Now()); err != nil {
			t.Fatal(err)
		}
		got := expect(t, e.do(owner, "PUT", path, `{"domain":"Acme.Test","role":"editor"}`), http.StatusOK, "")
		if aj, _ := got["autoJoin"].(map[string]any); aj["domain"] != "acme.test" || aj["role"] != "editor" {
			t.Fatalf("workspace = %v", got)
		}
		personal := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")["workspace"].(map[string]any)
		expect(t, e.do(owner, "PUT", "/api/workspaces/"+idOf(personal)+"/auto-join", `{"domain":"acme.test","role":"editor"}`),
			http.StatusConflict, "A personal workspace takes no members by domain")

		// A verified address joins at sign-in; an unverified one does not.
		staff := e.verifiedUser("staff@acme.test", "secret1")
		if !strings.Contains(string(e.do(staff, "GET", "/api/workspaces", "").body), `"name":"Acme"`) {
			t.Error("a verified address at the domain did not join")
		}
		unproven := e.browser()
		e.register(unproven, "new@acme.test", "secret1")
		if strings.Contains(string(e.do(unproven, "GET", "/api/workspaces", "").body), `"name":"Acme"`) {
			t.Error("an unverified address joined")
		}
		if r := e.do(owner, "DELETE", path, ""); r.StatusCode != http.StatusOK {
			t.Fatalf("clear: %d %s", r.StatusCode, r.body)
		}
		late := e.verifiedUser("late@acme.test", "secret1")
		if strings.Contains(string(e.do(late, "GET", "/api/workspaces", "").body), `"name":"Acme"`) {
			t.Error("an address joined after auto-join was turned off")
		}
	})
}
