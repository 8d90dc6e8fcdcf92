package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// UTM presets: editors save and delete them, viewers read them, names are
// unique per workspace, bad input is refused by field and changes nothing,
// another workspace's preset is 404, and the count limit holds under a
// parallel burst.
func TestUTMPresetsAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed, viewer := f.members["editor"], f.members["viewer"]
		list := func(c *http.Client) []utmPresetJSON {
			t.Helper()
			r := e.do(c, "GET", "/api/utm-presets", "")
			var out []utmPresetJSON
			if r.StatusCode != http.StatusOK || json.Unmarshal(r.body, &out) != nil {
				t.Fatalf("GET /api/utm-presets: %d %s", r.StatusCode, r.body)
			}
			return out
		}
		if got := list(viewer); len(got) != 0 {
			t.Fatalf("a new workspace has presets %v", got)
		}
		p := expect(t, e.do(ed, "POST", "/api/utm-presets",
			`{"name":" Spring flyer ","source":"flyer","medium":"print","campaign":"spring 2026","term":"","content":"front"}`), http.StatusCreated, "")
		if p["name"] != "Spring flyer" || p["campaign"] != "spring 2026" || p["content"] != "front" || p["term"] != "" {
			t.Errorf("created %v", p)
		}
		if got := list(viewer); len(got) != 1 || got[0].Name != "Spring flyer" || got[0].Medium != "print" {
			t.Errorf("the viewer reads %v", got)
		}
		expect(t, e.do(ed, "POST", "/api/utm-presets", `{"name":"SPRING FLYER","source":"x"}`), http.StatusConflict, msgPresetTaken)

		before := fingerprint(t, st, f.ws)
		for _, c := range []struct{ body, field string }{
			{`{"name":"","source":"x"}`, "name"},
			{`{"name":"` + strings.Repeat("n", maxPresetName+1) + `","source":"x"}`, "name"},
			{`{"name":"Empty"}`, "source"},
			{`{"name":"Long","medium":"` + strings.Repeat("m", maxPresetValue+1) + `"}`, "medium"},
			{`{"name":"Ctl","term":"a\u0007b"}`, "term"},
			{`{"name":"Bidi","content":"a\u202eb"}`, "content"},
			{`{"name":"Bad","campaign":"a\ufffdb"}`, "campaign"},
			{`{"name":"a\ufffdb","source":"x"}`, "name"},
			{`{"name":"Typed","source":42}`, "source"},
			{`{"name":["x"],"source":"x"}`, "name"},
		} {
			r := e.do(ed, "POST", "/api/utm-presets", c.body)
			m := expect(t, r, http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[c.field] == nil {
				t.Errorf("%s: errors %v, want one for %s", c.body, m["errors"], c.field)
			}
		}
		for _, body := range []string{"{\"name\":\"a\xffb\",\"source\":\"x\"}", `{"name":`, `[]`, `{"name":"x","source":"y"} {}`, `{"name":"x","source":"\u0000"}`} {
			expect(t, e.do(ed, "POST", "/api/utm-presets", body), http.StatusBadRequest, "")
		}
		huge := `{"name":"Huge","source":"` + strings.Repeat("s", maxJSONBody) + `"}`
		expect(t, e.do(ed, "POST", "/api/utm-presets", huge), http.StatusRequestEntityTooLarge, "")
		expect(t, e.do(viewer, "POST", "/api/utm-presets", `{"name":"Viewer","source":"x"}`), http.StatusForbidden, "You are a viewer in Agency; only an editor or above can do this")
		expect(t, e.do(viewer, "DELETE", fmt.Sprintf("/api/utm-presets/%v", p["id"]), ""), http.StatusForbidden, "You are a viewer in Agency; only an editor or above can do this")
		// An outsider neither sees nor deletes the team's preset.
		if got := list(f.outsider); len(got) != 0 {
			t.Errorf("the outsider reads %v", got)
		}
		expect(t, e.do(f.outsider, "DELETE", fmt.Sprintf("/api/utm-presets/%v", p["id"]), ""), http.StatusNotFound, msgPresetMissing)
		if after := fingerprint(t, st, f.ws); after != before {
			t.Fatalf("refused requests changed the workspace:\n%s\n%s", before, after)
		}
		r := e.do(ed, "DELETE", fmt.Sprintf("/api/utm-presets/%v", p["id"]), "")
		if r.StatusCode != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.do(ed, "DELETE", fmt.Sprintf("/api/utm-presets/%v", p["id"]), ""), http.StatusNotFound, msgPresetMissing)
		log := expect(t, e.do(f.members["admin"], "GET", fmt.Sprintf("/api/workspaces/%d/audit-log", f.ws), ""), http.StatusOK, "")
		actions := []string{}
		for _, entry := range log["items"].([]any) {
			actions = append(actions, entry.(map[string]any)["action"].(string))
		}
		if !strings.HasPrefix(strings.Join(actions, ","), "utm_preset.deleted,utm_preset.created") {
			t.Errorf("audit actions %v", actions)
		}

		// A burst past the limit: exactly the limit is kept.
		var wg sync.WaitGroup
		codes := make(chan int, maxUTMPresets+10)
		for i := range maxUTMPresets + 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- e.do(ed, "POST", "/api/utm-presets", fmt.Sprintf(`{"name":"p%d","source":"s"}`, i)).StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		created := 0
		for c := range codes {
			switch c {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
			default:
				t.Errorf("a burst's request answered %d", c)
			}
		}
		if n := len(list(viewer)); created != maxUTMPresets || n != maxUTMPresets {
			t.Errorf("created %d, kept %d; want %d", created, n, maxUTMPresets)
		}
		expect(t, e.do(ed, "POST", "/api/utm-presets", `{"name":"One more","source":"s"}`), http.StatusConflict, msgPresetLimit)
	})
}
