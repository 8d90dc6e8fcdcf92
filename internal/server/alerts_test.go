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

// auditActions lists the actions of the workspace's audit log, newest first.
func auditActions(t *testing.T, e *env, c *http.Client, ws int64) []string {
	t.Helper()
	got := expect(t, e.do(c, "GET", fmt.Sprintf("/api/workspaces/%d/audit-log", ws), ""), http.StatusOK, "")
	var list []string
	for _, it := range got["items"].([]any) {
		list = append(list, it.(map[string]any)["action"].(string))
	}
	return list
}

// A code shows its health and mute in the app's JSON; muting is an edit of
// the caller's code only, audited, and refuses anything but a boolean.
func TestCodeAlertsMuteAndHealth(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("mute@example.com")
		other, _ := e.signedIn("other@example.com")
		d := e.createDynamic(c, "https://example.com/menu")
		id := int64(d["id"].(float64))
		if h := d["health"].(map[string]any); h["status"] != "unknown" || h["since"] != nil || d["alertsMuted"] != false {
			t.Fatalf("new code: health %v, muted %v", h, d["alertsMuted"])
		}
		path := fmt.Sprintf("/api/dynamic-qrcodes/%d/alerts", id)
		for _, body := range []string{`{`, `{}`, `{"muted":"yes"}`, `{"muted":1}`, `{"muted":null}`, "{\"muted\":\"\xff\"}", `[]`} {
			if r := e.do(c, "PUT", path, body); r.StatusCode != http.StatusBadRequest {
				t.Errorf("body %q: %d %s", body, r.StatusCode, r.body)
			}
		}
		expect(t, e.do(other, "PUT", path, `{"muted":true}`), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/999999/alerts", `{"muted":true}`), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/x/alerts", `{"muted":true}`), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(e.browser(), "PUT", path, `{"muted":true}`), http.StatusUnauthorized, "")
		var muted bool
		storetest.QueryRow(t, st, `SELECT alerts_muted FROM dynamic_qr_codes WHERE id = $1`, []any{id}, &muted)
		if muted {
			t.Fatal("a refused request muted the code")
		}

		// Parallel identical requests: one change, one audit entry.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { e.do(c, "PUT", path, `{"muted":true}`) })
		}
		wg.Wait()
		got := expect(t, e.do(c, "PUT", path, `{"muted":true}`), http.StatusOK, "")
		if got["alertsMuted"] != true {
			t.Fatalf("muted: %v", got["alertsMuted"])
		}
		ws := int64(expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")["workspace"].(map[string]any)["id"].(float64))
		if n := strings.Count(strings.Join(auditActions(t, e, c, ws), ","), "code.alerts_muted"); n != 1 {
			t.Fatalf("%d code.alerts_muted entries", n)
		}

		// What the checker recorded shows in the dashboard's list.
		var one int64
		storetest.QueryRow(t, st, `UPDATE dynamic_qr_codes SET health_status = 'down', health_reason = 'HTTP 404',
			health_url = destination, health_since = $2, health_checked_at = $2 WHERE id = $1 RETURNING id`,
			[]any{id, "2026-03-01T10:00:00.000000Z"}, &one)
		list := expect(t, e.do(c, "GET", "/api/codes", ""), http.StatusOK, "")["items"].([]any)
		item := list[0].(map[string]any)
		h := item["health"].(map[string]any)
		if h["status"] != "down" || h["reason"] != "HTTP 404" || h["url"] != "https://example.com/menu" ||
			h["since"] != "2026-03-01T10:00:00Z" || item["alertsMuted"] != true {
			t.Fatalf("listed: %v", item)
		}
		// The public API shows the same on the code.
		key, _ := e.newKey(c, "Alerts")
		v1 := expect(t, e.api(key, "GET", fmt.Sprintf("/api/v1/codes/d_%d", id), ""), http.StatusOK, "")
		if h, _ := v1["health"].(map[string]any); h["status"] != "down" || h["reason"] != "HTTP 404" || v1["alertsMuted"] != true {
			t.Fatalf("the public API's code: %v", v1)
		}
		expect(t, e.do(c, "PUT", path, `{"muted":false}`), http.StatusOK, "")
		if a := auditActions(t, e, c, ws); a[0] != "code.alerts_unmuted" {
			t.Fatalf("audit: %v", a)
		}
	})
}

// Each member chooses alert e-mails for themselves in a workspace they
// belong to; the choice shows in the workspace list and is audited.
func TestAlertEmailChoice(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("choice@example.com")
		other, _ := e.signedIn("other@example.com")
		ws := int64(expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")["workspace"].(map[string]any)["id"].(float64))
		path := fmt.Sprintf("/api/workspaces/%d/alert-emails", ws)
		listed := func() any {
			var list []map[string]any
			if err := json.Unmarshal(e.do(c, "GET", "/api/workspaces", "").body, &list); err != nil {
				t.Fatal(err)
			}
			for _, w := range list {
				if int64(w["id"].(float64)) == ws {
					return w["alertEmails"]
				}
			}
			t.Fatal("workspace not listed")
			return nil
		}
		if v := listed(); v != true {
			t.Fatalf("default alertEmails = %v", v)
		}
		for _, body := range []string{`{`, `{}`, `{"enabled":"no"}`, `{"enabled":0}`} {
			if r := e.do(c, "PUT", path, body); r.StatusCode != http.StatusBadRequest {
				t.Errorf("body %q: %d %s", body, r.StatusCode, r.body)
			}
		}
		expect(t, e.do(other, "PUT", path, `{"enabled":false}`), http.StatusNotFound, "")
		expect(t, e.do(e.browser(), "PUT", path, `{"enabled":false}`), http.StatusUnauthorized, "")
		if v := listed(); v != true {
			t.Fatalf("a refused request changed the choice: %v", v)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { e.do(c, "PUT", path, `{"enabled":false}`) })
		}
		wg.Wait()
		got := expect(t, e.do(c, "PUT", path, `{"enabled":false}`), http.StatusOK, "")
		if got["alertEmails"] != false || int64(got["id"].(float64)) != ws {
			t.Fatalf("answer: %v", got)
		}
		if v := listed(); v != false {
			t.Fatalf("listed alertEmails = %v", v)
		}
		if n := strings.Count(strings.Join(auditActions(t, e, c, ws), ","), "member.alert_emails_changed"); n != 1 {
			t.Fatalf("%d member.alert_emails_changed entries", n)
		}
	})
}
