package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// A workspace that requires 2FA (issue 27 item 5): only its owner, with
// TOTP themselves, turns it on; a member without TOTP is refused every
// workspace route with two_factor_required and changes nothing, yet keeps
// the account routes to set it up or switch workspace; API keys work on.
func TestWorkspaceRequires2FA(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner, admin, editor := f.members["owner"], f.members["admin"], f.members["editor"]
		ws := fmt.Sprintf("/api/workspaces/%d", f.ws)
		d := "/api/dynamic-qrcodes/" + strconv.FormatInt(f.dynamic, 10)

		// Who may turn it on.
		expect(t, e.do(admin, "PATCH", ws, `{"require2fa":true}`), http.StatusForbidden, msgNoPermission)
		expect(t, e.do(admin, "PATCH", ws, `{"name":"Renamed","require2fa":false}`), http.StatusForbidden, msgNoPermission)
		expect(t, e.do(owner, "PATCH", ws, `{"require2fa":"yes"}`), http.StatusBadRequest, "")
		bad := expect(t, e.do(owner, "PATCH", ws, `{"require2fa":true}`), http.StatusBadRequest, msgRequire2FAOwnTOTP)
		if errs, _ := bad["errors"].(map[string]any); errs["require2fa"] != msgRequire2FAOwnTOTP {
			t.Fatalf("errors = %v", bad["errors"])
		}
		if got := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, ""); got["workspace"].(map[string]any)["require2fa"] != false {
			t.Fatalf("refused requests turned the requirement on: %v", got["workspace"])
		}
		kit := idOf(expect(t, e.do(owner, "POST", "/api/brand-kits", `{"name":"Agency","fgColor":"#003300"}`), http.StatusCreated, ""))
		e.verifyEmail(owner, "owner@example.com")
		e.enableTOTP(owner)
		on := expect(t, e.do(owner, "PATCH", ws, `{"require2fa":true}`), http.StatusOK, "")
		if on["require2fa"] != true || on["name"] != "Agency" {
			t.Fatalf("PATCH answered %v", on)
		}
		log, err := st.AuditLog(context.Background(), f.ws, 0, 1)
		if err != nil || len(log) != 1 || log[0].Action != "workspace.require_2fa_changed" ||
			log[0].Details != `{"require2fa":{"after":true,"before":false}}` || log[0].Actor.ID != f.memberIDs["owner"] {
			t.Fatalf("audit log = %+v, %v", log[0], err)
		}

		// The member without TOTP sees where they stand, and nothing else.
		u := expect(t, e.do(editor, "GET", "/api/user", ""), http.StatusOK, "")
		if w := u["workspace"].(map[string]any); int64(w["id"].(float64)) != f.ws || w["require2fa"] != true {
			t.Fatalf("GET /api/user workspace = %v", w)
		}
		var list []map[string]any
		if err := json.Unmarshal(e.do(editor, "GET", "/api/workspaces", "").body, &list); err != nil || len(list) != 2 ||
			list[0]["require2fa"] != false || list[1]["require2fa"] != true {
			t.Fatalf("workspaces = %v, %v", list, err)
		}
		before := fingerprint(t, st, f.ws)
		for _, r := range []struct{ method, path, body string }{
			{"GET", "/api/codes", ""},
			{"GET", "/api/dynamic-qrcodes", ""},
			{"GET", d + "/analytics", ""},
			{"PATCH", d, `{"name":"Hijacked"}`},
			{"PUT", d, `{"destination":"https://example.com/evil"}`},
			{"POST", d + "/pause", ""},
			{"DELETE", d, ""},
			{"GET", ws + "/members", ""},
			{"DELETE", fmt.Sprintf("%s/members/%d", ws, f.memberIDs["viewer"]), ""},
		} {
			got := expect(t, e.do(editor, r.method, r.path, r.body), http.StatusForbidden, msgTwoFactorRequired)
			if got["code"] != "two_factor_required" {
				t.Fatalf("%s %s: code %v", r.method, r.path, got["code"])
			}
		}
		// Nor through the routes visitors use too: no image stored into the
		// workspace, no drawing with its brand kit.
		image := part{"imageFile", string(pngBytes(t, 8, 8)), "cat.png"}
		got := expect(t, e.postForm(editor, "/api/upload-image", image), http.StatusForbidden, msgTwoFactorRequired)
		if got["code"] != "two_factor_required" {
			t.Fatalf("upload-image: code %v", got["code"])
		}
		for _, path := range []string{"/api/generate-qrcode", "/api/download-qrcode", "/api/preflight"} {
			expect(t, e.do(editor, "POST", path, `{"qrType":"text","text":"hi","sizeMm":30,"brandKit":`+kit+`}`), http.StatusForbidden, msgTwoFactorRequired)
		}
		expect(t, e.do(editor, "POST", "/api/track-generation", `{"qrType":"text"}`), http.StatusForbidden, msgTwoFactorRequired)
		// A visitor still uses them, outside any workspace.
		expect(t, e.postForm(e.browser(), "/api/upload-image", image), http.StatusCreated, "")
		expect(t, e.do(e.browser(), "POST", "/api/generate-qrcode", `{"qrType":"text","text":"hi","temporary":true}`), http.StatusOK, "")
		if after := fingerprint(t, st, f.ws); after != before {
			t.Fatalf("refused requests changed the workspace:\n%s\n%s", before, after)
		}
		// The account stays theirs: 2FA, sessions, switching workspace.
		expect(t, e.do(editor, "GET", "/api/2fa", ""), http.StatusOK, "")
		if got := e.do(editor, "GET", "/api/sessions", ""); got.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/sessions: %d %s", got.StatusCode, got.body)
		}
		expect(t, e.do(editor, "POST", fmt.Sprintf("/api/workspaces/%v/activate", list[0]["id"]), ""), http.StatusOK, "")
		expect(t, e.do(editor, "GET", "/api/codes", ""), http.StatusOK, "")
		expect(t, e.do(editor, "POST", ws+"/activate", ""), http.StatusOK, "")
		expect(t, e.do(editor, "GET", "/api/codes", ""), http.StatusForbidden, msgTwoFactorRequired)
		// The owner's API key is no person signing in.
		expect(t, e.api(f.key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		expect(t, e.api(f.key, "PATCH", "/api/v1/codes/d_"+strconv.FormatInt(f.dynamic, 10), `{"name":"By key"}`), http.StatusOK, "")

		// With TOTP on, the member works again.
		e.enableTOTP(editor)
		expect(t, e.do(editor, "GET", "/api/codes", ""), http.StatusOK, "")
		expect(t, e.do(editor, "PATCH", d, `{"name":"Now allowed"}`), http.StatusOK, "")

		// The owner turns it off again: audited, and a member without TOTP is let in.
		expect(t, e.do(owner, "PATCH", ws, `{"require2fa":false}`), http.StatusOK, "")
		log, err = st.AuditLog(context.Background(), f.ws, 0, 1)
		if err != nil || log[0].Details != `{"require2fa":{"after":false,"before":true}}` {
			t.Fatalf("audit log = %+v, %v", log[0], err)
		}
		expect(t, e.do(f.members["viewer"], "GET", "/api/codes", ""), http.StatusOK, "")
	})
}
