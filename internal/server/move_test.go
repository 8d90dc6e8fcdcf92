package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/webhooks"
)

// newWorkspace makes a workspace of c's named name and makes active
// again the one c had.
func newWorkspace(t *testing.T, e *env, c *http.Client, name string) int64 {
	t.Helper()
	active := e.activeWorkspace(c)
	ws := expect(t, e.do(c, "POST", "/api/workspaces", `{"name":"`+name+`"}`), http.StatusCreated, "")
	expect(t, e.do(c, "POST", fmt.Sprintf("/api/workspaces/%d/activate", active), ""), http.StatusOK, "")
	return int64(ws["id"].(float64))
}

// setMember makes the user a member of the workspace with role.
func setMember(t *testing.T, st *store.Store, ws, user int64, role string) {
	t.Helper()
	var n int
	storetest.QueryRow(t, st, `INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, '2026-01-01T00:00:00Z')
		ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role RETURNING 1`, []any{ws, user, role}, &n)
}

// Moving needs an admin or owner in both workspaces: editors and viewers
// are refused by the source, a target where the caller is an editor
// refuses (403), one they are not a member of is as missing as one that
// does not exist (404). Bad input of every kind is 400 or 404. Nothing
// refused changes anything.
func TestMoveRightsAndBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ids := bulkCodes(t, e, f, 2, "mr", 0)
		target := newWorkspace(t, e, f.members["owner"], "Client")
		body := func(to int64) string {
			return fmt.Sprintf(`{"ids":["d_%d"],"toWorkspaceId":%d}`, ids[0], to)
		}
		before, beforeTarget := bulkFingerprint(t, st, f.ws), bulkFingerprint(t, st, target)
		for _, role := range []string{"editor", "viewer"} {
			expect(t, e.do(f.members[role], "POST", "/api/codes/move", body(target)), http.StatusForbidden, "")
		}
		// The admin is not in the target: as missing as a workspace that
		// does not exist.
		missing := e.do(f.members["admin"], "POST", "/api/codes/move", body(target))
		none := e.do(f.members["admin"], "POST", "/api/codes/move", body(999999))
		if missing.StatusCode != http.StatusNotFound || string(missing.body) != string(none.body) {
			t.Fatalf("not a member: %d %s; no such workspace: %d %s", missing.StatusCode, missing.body, none.StatusCode, none.body)
		}
		expect(t, e.do(f.outsider, "POST", "/api/codes/move", body(target)), http.StatusNotFound, "")
		setMember(t, st, target, f.memberIDs["admin"], "editor")
		got := expect(t, e.do(f.members["admin"], "POST", "/api/codes/move", body(target)), http.StatusForbidden, "")
		if !strings.Contains(got["message"].(string), "Client") {
			t.Errorf("refusal names not the target: %v", got)
		}
		// Bad input.
		for _, bad := range []struct {
			body   string
			status int
		}{
			{`{"ids":["d_1"],`, http.StatusBadRequest},
			{`{"ids":["d_1"]}`, http.StatusBadRequest},
			{fmt.Sprintf(`{"ids":["d_%d"],"toWorkspaceId":"%d"}`, ids[0], target), http.StatusBadRequest},
			{body(f.ws), http.StatusBadRequest},
			{fmt.Sprintf(`{"toWorkspaceId":%d}`, target), http.StatusBadRequest},
			{fmt.Sprintf(`{"ids":["d_%d"],"filter":{},"toWorkspaceId":%d}`, ids[0], target), http.StatusBadRequest},
			{fmt.Sprintf(`{"ids":["x_%d"],"toWorkspaceId":%d}`, ids[0], target), http.StatusBadRequest},
			{fmt.Sprintf(`{"ids":["d_999999"],"toWorkspaceId":%d}`, target), http.StatusNotFound},
			{fmt.Sprintf(`{"filter":{"sort":"name"},"toWorkspaceId":%d}`, target), http.StatusBadRequest},
			{fmt.Sprintf(`{"filter":{"q":"nothing matches this"},"toWorkspaceId":%d}`, target), http.StatusBadRequest},
			{fmt.Sprintf(`{"ids":[%s],"toWorkspaceId":%d}`, strings.Repeat(`"d_1",`, 10000)+`"d_2"`, target), http.StatusBadRequest},
		} {
			if r := e.do(f.members["owner"], "POST", "/api/codes/move", bad.body); r.StatusCode != bad.status {
				t.Errorf("%.80s: %d %s, want %d", bad.body, r.StatusCode, r.body, bad.status)
			}
		}
		if after := bulkFingerprint(t, st, target); after != beforeTarget {
			t.Fatalf("a refused move changed the target:\n%s\n%s", beforeTarget, after)
		}
		// Another workspace's code (the target's) is not found.
		outsiderCode := storetest.NewDynamic(f.memberIDs["owner"], "elsewhere1")
		outsiderCode.WorkspaceID = target
		if err := st.CreateDynamicCode(context.Background(), outsiderCode, 0); err != nil {
			t.Fatal(err)
		}
		expect(t, e.do(f.members["owner"], "POST", "/api/codes/move", fmt.Sprintf(`{"ids":["d_%d"],"toWorkspaceId":%d}`, outsiderCode.ID, target)), http.StatusNotFound, "")
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("a refused move changed the source:\n%s\n%s", before, after)
		}
		// An admin in both moves; so does the owner.
		setMember(t, st, target, f.memberIDs["admin"], "admin")
		got = expect(t, e.do(f.members["admin"], "POST", "/api/codes/move", body(target)), http.StatusOK, "")
		if got["status"] != "done" || got["processed"] != 1.0 || got["failed"] != 0.0 || got["toWorkspaceId"] != float64(target) {
			t.Fatalf("admin's move: %v", got)
		}
		expect(t, e.do(f.members["admin"], "GET", fmt.Sprintf("/api/codes/move/%v", got["id"]), ""), http.StatusOK, "")
		// A move is no bulk edit, nor a bulk edit a move.
		expect(t, e.do(f.members["admin"], "GET", fmt.Sprintf("/api/codes/bulk-edit/%v", got["id"]), ""), http.StatusNotFound, "")
		expect(t, e.do(f.members["admin"], "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", got["id"]), ""), http.StatusNotFound, "")
		expect(t, e.do(f.members["admin"], "GET", fmt.Sprintf("/api/codes/move/%d", f.bulkEdit), ""), http.StatusNotFound, "")
		// The moved code is the target's now: moving it again from the
		// source finds nothing.
		expect(t, e.do(f.members["owner"], "POST", "/api/codes/move", body(target)), http.StatusNotFound, "")
		if d := dynamicOf(t, st, target, ids[0]); d.ShortCode != "mr0" {
			t.Fatalf("moved code: %+v", d)
		}
	})
}

// A move by filter keeps each code's short code, scans and routing, and
// the code redirects as before (its cached lookup dropped); tags go by
// name, a code on a custom domain the target lacks stays, both
// workspaces' webhooks get code.moved and both audit logs the move.
func TestMoveKeepsCodesWorking(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := start(t, st)
		owner, ownerID := e.signedIn("mover@example.com")
		src := e.activeWorkspace(owner)
		target := newWorkspace(t, e, owner, "Client")
		var ids []int64
		for i := range 3 {
			d := storetest.NewDynamic(ownerID, fmt.Sprintf("keep%d", i))
			d.WorkspaceID, d.Destination, d.Name = src, fmt.Sprintf("https://shop.example/%d", i), "Spring menu"
			if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, d.ID)
		}
		routing := `{"rules":[{"when":{"os":["ios"]},"destination":"https://apps.example/ios"}]}`
		expect(t, e.do(owner, "PUT", fmt.Sprintf("/api/dynamic-qrcodes/%d/routing", ids[0]), routing), http.StatusOK, "")
		tag := expect(t, e.do(owner, "POST", "/api/tags", `{"name":"Spring"}`), http.StatusCreated, "")
		expect(t, e.do(owner, "PUT", fmt.Sprintf("/api/dynamic-qrcodes/%d/tags", ids[0]), fmt.Sprintf(`{"tagIds":[%v]}`, tag["id"])), http.StatusOK, "")
		// The third code prints a domain only the source has.
		var domain int64
		storetest.QueryRow(t, st, `INSERT INTO workspace_domains (workspace_id, domain, token, method, verified_at, created_at)
			VALUES ($1, 'go.example.com', 'a', 'dns', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') RETURNING id`, []any{src}, &domain)
		var n int
		storetest.QueryRow(t, st, `UPDATE dynamic_qr_codes SET domain_id = $1 WHERE id = $2 RETURNING 1`, []any{domain, ids[2]}, &n)
		for _, ws := range []int64{src, target} {
			hook := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/in", Events: []string{store.EventCodeMoved}, Secret: webhooks.NewSecret()}
			if err := st.CreateWebhookEndpoint(ctx, hook, 0, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.RecordScans(ctx, []store.ScanEvent{{CodeID: ids[0], ScannedAt: time.Now(), VisitorHash: "v", DeviceType: "mobile"}}); err != nil {
			t.Fatal(err)
		}
		visitor := e.browser()
		first := e.do(visitor, "GET", "/d/keep1", "") // cached from now on
		if first.StatusCode != http.StatusFound {
			t.Fatalf("redirect before: %d", first.StatusCode)
		}

		// The source's share link and digest of the first code would show
		// another workspace's scans after the move.
		link := expect(t, e.do(owner, "POST", "/api/share-links", fmt.Sprintf(`{"scope":{"codeId":%d}}`, ids[0])), http.StatusCreated, "")
		expect(t, e.do(owner, "POST", "/api/report-schedules", fmt.Sprintf(`{"scope":{"codeId":%d},"frequency":"weekly","weekday":"friday",
			"hour":8,"timeZone":"UTC","format":["csv"],"recipients":["mover@example.com"]}`, ids[0])), http.StatusCreated, "")
		expect(t, e.do(owner, "POST", "/api/report-schedules", `{"scope":{"workspace":true},"frequency":"daily",
			"hour":8,"timeZone":"UTC","format":["csv"],"recipients":["mover@example.com"]}`), http.StatusCreated, "")

		got := expect(t, e.do(owner, "POST", "/api/codes/move", fmt.Sprintf(`{"filter":{"q":"spring menu"},"toWorkspaceId":%d}`, target)), http.StatusOK, "")
		if got["status"] != "done" || got["total"] != 3.0 || got["processed"] != 3.0 || got["failed"] != 1.0 {
			t.Fatalf("move: %v", got)
		}
		fails := got["failures"].([]any)
		if len(fails) != 1 || fails[0].(map[string]any)["id"] != fmt.Sprintf("d_%d", ids[2]) ||
			!strings.Contains(fails[0].(map[string]any)["reason"].(string), "go.example.com") {
			t.Fatalf("failures: %v", fails)
		}
		moved := dynamicOf(t, st, target, ids[0])
		if moved.ShortCode != "keep0" || moved.Routing == nil || len(moved.Routing.Rules) != 1 || len(moved.Tags) != 1 || moved.Tags[0].Name != "Spring" {
			t.Fatalf("moved code: %+v", moved)
		}
		if moved.Tags[0].ID == int64(tag["id"].(float64)) {
			t.Fatal("the moved code kept the source's tag")
		}
		if r := e.do(e.browser(), "GET", "/s/"+link["token"].(string), ""); r.StatusCode != http.StatusGone {
			t.Errorf("the moved code's share link: %d, want 410", r.StatusCode)
		}
		schedules := expect(t, e.do(owner, "GET", "/api/report-schedules", ""), http.StatusOK, "")["schedules"].([]any)
		if len(schedules) != 1 || schedules[0].(map[string]any)["scope"].(map[string]any)["workspace"] != true {
			t.Errorf("the source's schedules after the move: %v, want the workspace's alone", schedules)
		}
		var scans int64
		storetest.QueryRow(t, st, `SELECT scans FROM scan_counts WHERE dynamic_qr_code_id = $1`, []any{ids[0]}, &scans)
		if scans != 1 {
			t.Fatalf("scans after the move: %d", scans)
		}
		if _, err := st.DynamicCode(ctx, src, ids[2]); err != nil {
			t.Fatalf("the code on the source's domain moved: %v", err)
		}
		for _, code := range []string{"keep0", "keep1"} {
			r := e.do(visitor, "GET", "/d/"+code, "")
			if r.StatusCode != http.StatusFound || !strings.HasPrefix(r.Header.Get("Location"), "https://shop.example/") {
				t.Fatalf("redirect of %s after the move: %d %q", code, r.StatusCode, r.Header.Get("Location"))
			}
		}
		for _, ws := range []int64{src, target} {
			var events, entries int
			storetest.QueryRow(t, st, `SELECT count(*) FROM webhook_events WHERE workspace_id = $1 AND type = 'code.moved'`, []any{ws}, &events)
			storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.moved'`, []any{ws}, &entries)
			if events != 2 || entries != 2 {
				t.Errorf("workspace %d: %d code.moved events, %d audit entries; want 2 of each", ws, events, entries)
			}
		}
		var body string
		storetest.QueryRow(t, st, `SELECT body FROM webhook_events WHERE workspace_id = $1 AND type = 'code.moved' ORDER BY id LIMIT 1`, []any{target}, &body)
		if !strings.Contains(body, `"shortCode":"keep`) || !strings.Contains(body, fmt.Sprintf(`"toWorkspaceId":%d`, target)) {
			t.Errorf("event body: %s", body)
		}
		// The audit log the admins read shows it.
		log := expect(t, e.do(owner, "GET", fmt.Sprintf("/api/workspaces/%d/audit-log", target), ""), http.StatusOK, "")
		if !strings.Contains(fmt.Sprint(log), "code.moved") {
			t.Errorf("target's audit log: %v", log)
		}
	})
}

// The target's limit of live dynamic codes is all or nothing: a move
// that would pass it moves nothing (403, as a creation past it), one
// within it moves all. A free plan shared by both workspaces counts the
// codes already, so moving between them needs no room.
func TestMoveDynamicLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 3 }))
		owner, ownerID := e.signedIn("agency@example.com")
		src := e.activeWorkspace(owner)
		client, clientID := e.signedIn("client@example.com")
		target := e.activeWorkspace(client)
		setMember(t, st, target, ownerID, "admin")
		mk := func(ws, user int64, prefix string, n int) []string {
			var ids []string
			for i := range n {
				d := storetest.NewDynamic(user, fmt.Sprintf("%s%d", prefix, i))
				d.WorkspaceID = ws
				if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, fmt.Sprintf(`"d_%d"`, d.ID))
			}
			return ids
		}
		mine := mk(src, ownerID, "lim", 3)
		mk(target, clientID, "cli", 2)
		before := bulkFingerprint(t, st, src)
		got := expect(t, e.do(owner, "POST", "/api/codes/move", fmt.Sprintf(`{"ids":[%s],"toWorkspaceId":%d}`, strings.Join(mine[:2], ","), target)), http.StatusForbidden, "")
		if !strings.Contains(got["message"].(string), "nothing was moved") {
			t.Fatalf("over the limit: %v", got)
		}
		if after := bulkFingerprint(t, st, src); after != before {
			t.Fatal("a refused move changed the source")
		}
		got = expect(t, e.do(owner, "POST", "/api/codes/move", fmt.Sprintf(`{"ids":[%s],"toWorkspaceId":%d}`, mine[0], target)), http.StatusOK, "")
		if got["processed"] != 1.0 || got["failed"] != 0.0 {
			t.Fatalf("within the limit: %v", got)
		}
		// The agency's own second workspace shares its free plan, at 3 of
		// 3: the codes move there all the same.
		mine = append(mine, mk(src, ownerID, "more", 1)...)
		second := newWorkspace(t, e, owner, "Second")
		got = expect(t, e.do(owner, "POST", "/api/codes/move", fmt.Sprintf(`{"ids":[%s],"toWorkspaceId":%d}`, strings.Join(mine[1:], ","), second)), http.StatusOK, "")
		if got["processed"] != 3.0 || got["failed"] != 0.0 {
			t.Fatalf("between workspaces sharing a plan: %v", got)
		}
	})
}

// A move of more than 200 codes is a job: 202 {"id","total"}, followed at
// GET /api/codes/move/{id} until it is done, every code moved once.
func TestMoveLargeRunsAsAJob(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		folder := expect(t, e.do(f.members["owner"], "POST", "/api/folders", `{"name":"Menus"}`), http.StatusCreated, "")
		bulkCodes(t, e, f, 201, "big", int64(folder["id"].(float64)))
		target := newWorkspace(t, e, f.members["owner"], "Client")
		started := expect(t, e.do(f.members["owner"], "POST", "/api/codes/move",
			fmt.Sprintf(`{"filter":{"folder":%v},"toWorkspaceId":%d}`, folder["id"], target)), http.StatusAccepted, "")
		if started["total"] != 201.0 {
			t.Fatalf("started: %v", started)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			j := expect(t, e.do(f.members["owner"], "GET", fmt.Sprintf("/api/codes/move/%v", started["id"]), ""), http.StatusOK, "")
			if j["status"] == "done" {
				if j["processed"] != 201.0 || j["failed"] != 0.0 {
					t.Fatalf("done: %v", j)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("move not finished: %v", j)
			}
			time.Sleep(50 * time.Millisecond)
		}
		var moved, inFolder, entries int
		storetest.QueryRow(t, st, `SELECT count(*), count(folder_id) FROM dynamic_qr_codes WHERE workspace_id = $1 AND short_code LIKE 'big%'`, []any{target}, &moved, &inFolder)
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.moved'`, []any{f.ws}, &entries)
		if moved != 201 || inFolder != 0 || entries != 201 {
			t.Fatalf("%d codes moved (%d in a folder), %d audited", moved, inFolder, entries)
		}
	})
}
