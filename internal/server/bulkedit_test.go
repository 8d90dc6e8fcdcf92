package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// bulkCodes makes n dynamic codes in the team's workspace, in folder
// (0: none), short codes prefix0…, redirecting to https://old.example/i.
func bulkCodes(t *testing.T, e *env, f *teamFixture, n int, prefix string, folder int64) []int64 {
	t.Helper()
	owner := f.memberIDs["owner"]
	var ids []int64
	for i := range n {
		d := storetest.NewDynamic(owner, fmt.Sprintf("%s%d", prefix, i))
		d.WorkspaceID, d.Destination = f.ws, fmt.Sprintf("https://old.example/%d", i)
		if err := e.store.CreateDynamicCode(context.Background(), d, 0); err != nil {
			t.Fatal(err)
		}
		if folder != 0 {
			if err := e.store.SetCodeFolder(context.Background(), f.ws, true, d.ID, &folder); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, d.ID)
	}
	return ids
}

// awaitBulkEdit waits for job id to finish and answers it.
func awaitBulkEdit(t *testing.T, e *env, c *http.Client, id any) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		j := expect(t, e.do(c, "GET", fmt.Sprintf("/api/codes/bulk-edit/%v", id), ""), http.StatusOK, "")
		if j["status"] == "done" || j["status"] == "failed" {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("bulk edit not finished: %v", j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runBulkEdit starts a bulk edit of body and waits for it.
func runBulkEdit(t *testing.T, e *env, c *http.Client, body string) map[string]any {
	t.Helper()
	started := expect(t, e.do(c, "POST", "/api/codes/bulk-edit", body), http.StatusAccepted, "")
	return awaitBulkEdit(t, e, c, started["id"])
}

func dynamicOf(t *testing.T, st *store.Store, ws, id int64) *store.DynamicCode {
	t.Helper()
	d, err := st.DynamicCode(context.Background(), ws, id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// bulkFingerprint is everything a bulk edit could change in a workspace.
func bulkFingerprint(t *testing.T, st *store.Store, ws int64) string {
	t.Helper()
	var out string
	storetest.QueryRow(t, st, `SELECT
		(SELECT COALESCE(string_agg(name || '|' || destination || '|' || is_paused || '|' || is_deleted || '|' || COALESCE(folder_id, 0) || '|' ||
			COALESCE(domain_id, 0) || '|' || COALESCE(routing, '') || '|' || fg_color || '|' || updated_at, ',' ORDER BY id), '') FROM dynamic_qr_codes WHERE workspace_id = $1) || ';' ||
		(SELECT COALESCE(string_agg(name || '|' || is_deleted || '|' || COALESCE(folder_id, 0) || '|' || fg_color, ',' ORDER BY id), '') FROM qr_codes WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM dynamic_qr_code_tags) || ';' || (SELECT count(*) FROM qr_code_tags) || ';' ||
		(SELECT count(*) FROM audit_log WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM bulk_edit_jobs) || ';' || (SELECT count(*) FROM bulk_edit_items) || ';' ||
		(SELECT count(*) FROM webhook_events)`, []any{ws}, &out)
	return out
}

// A folder's codes get a new host by filter: the dry run shows it and
// changes nothing; the job changes them (redirects follow at once, one
// audit entry a code and one for the job), leaves a code made after it
// alone, and its undo takes it back, except a code changed since.
func TestBulkEditReplaceHostDryRunApplyUndo(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		folder := int64(expect(t, e.do(ed, "POST", "/api/folders", `{"name":"Menus"}`), http.StatusCreated, "")["id"].(float64))
		ids := bulkCodes(t, e, f, 3, "menu", folder)
		outside := bulkCodes(t, e, f, 1, "else", 0)[0]
		// The redirect is cached before the change.
		if got := e.do(e.browser(), "GET", "/d/menu0", ""); got.Header.Get("Location") != "https://old.example/0" {
			t.Fatalf("before: %d %s", got.StatusCode, got.Header.Get("Location"))
		}
		body := fmt.Sprintf(`{"filter":{"folder":%d},"changes":{"destination":{"replace":{"from":"https://old.example","to":"https://new.example"}}}}`, folder)

		before := bulkFingerprint(t, st, f.ws)
		dry := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", strings.TrimSuffix(body, "}")+`,"dryRun":true}`), http.StatusOK, "")
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("the dry run changed the database:\n%s\n%s", before, after)
		}
		rows := dry["rows"].([]any)
		if dry["selected"] != 3.0 || dry["changing"] != 3.0 || len(rows) != 3 || len(dry["failures"].([]any)) != 0 {
			t.Fatalf("dry run = %v", dry)
		}
		row := rows[0].(map[string]any) // newest first, as the list
		if row["id"] != fmt.Sprintf("d_%d", ids[2]) || row["before"].(map[string]any)["destination"] != "https://old.example/2" ||
			row["after"].(map[string]any)["destination"] != "https://new.example/2" {
			t.Fatalf("dry run row = %v", row)
		}

		started := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", body), http.StatusAccepted, "")
		// Made after the job: not in its selection.
		late := bulkCodes(t, e, f, 1, "late", folder)[0]
		job := awaitBulkEdit(t, e, ed, started["id"])
		if job["status"] != "done" || job["total"] != 3.0 || job["processed"] != 3.0 || job["failed"] != 0.0 || job["undoUntil"] == nil {
			t.Fatalf("job = %v", job)
		}
		for i, id := range ids {
			if d := dynamicOf(t, st, f.ws, id); d.Destination != fmt.Sprintf("https://new.example/%d", i) {
				t.Fatalf("code %d: %s", i, d.Destination)
			}
		}
		if d := dynamicOf(t, st, f.ws, late); d.Destination != "https://old.example/0" {
			t.Fatalf("the code made after the job changed: %s", d.Destination)
		}
		if d := dynamicOf(t, st, f.ws, outside); d.Destination != "https://old.example/0" {
			t.Fatalf("a code outside the filter changed: %s", d.Destination)
		}
		// The code list's search finds them by their new host.
		if found := expect(t, e.do(ed, "GET", "/api/codes?q=new.example", ""), http.StatusOK, "")["items"].([]any); len(found) != 3 {
			t.Fatalf("search by the new host finds %d codes", len(found))
		}
		if got := e.do(e.browser(), "GET", "/d/menu0", ""); got.Header.Get("Location") != "https://new.example/0" {
			t.Fatalf("the redirect still goes to %s", got.Header.Get("Location"))
		}
		var perCode, perJob int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.bulk_edited'`, []any{f.ws}, &perCode)
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'bulk_edit.started' AND actor_id = $2`,
			[]any{f.ws, f.memberIDs["editor"]}, &perJob)
		if perCode != 3 || perJob != 1 {
			t.Fatalf("audit entries: %d a code, %d for the job", perCode, perJob)
		}
		list := expect(t, e.do(f.members["viewer"], "GET", "/api/codes/bulk-edit", ""), http.StatusOK, "")["items"].([]any)
		if len(list) != 2 || list[0].(map[string]any)["id"] != started["id"] {
			t.Fatalf("history = %v", list)
		}

		// One code is changed again; the undo leaves it and lists it.
		expect(t, e.do(ed, "PUT", fmt.Sprintf("/api/dynamic-qrcodes/%d", ids[1]), `{"destination":"https://mine.example"}`), http.StatusOK, "")
		expect(t, e.do(f.members["viewer"], "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", started["id"]), ""), http.StatusForbidden, "")
		undo := expect(t, e.do(ed, "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", started["id"]), ""), http.StatusOK, "")
		skipped := undo["skipped"].([]any)
		if undo["restored"] != 2.0 || len(skipped) != 1 || skipped[0].(map[string]any)["id"] != fmt.Sprintf("d_%d", ids[1]) {
			t.Fatalf("undo = %v", undo)
		}
		for i, want := range []string{"https://old.example/0", "https://mine.example", "https://old.example/2"} {
			if d := dynamicOf(t, st, f.ws, ids[i]); d.Destination != want {
				t.Fatalf("code %d after the undo: %s", i, d.Destination)
			}
		}
		if got := e.do(e.browser(), "GET", "/d/menu0", ""); got.Header.Get("Location") != "https://old.example/0" {
			t.Fatalf("after the undo the redirect goes to %s", got.Header.Get("Location"))
		}
		if j := awaitBulkEditStatus(t, e, ed, started["id"]); j["status"] != "undone" || j["undoUntil"] != nil {
			t.Fatalf("undone job = %v", j)
		}
		// Past the window, no undo.
		other := runBulkEdit(t, e, ed, fmt.Sprintf(`{"ids":["d_%d"],"changes":{"paused":true}}`, ids[0]))
		e.clock.Advance(25 * time.Hour)
		expect(t, e.do(ed, "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", other["id"]), ""), http.StatusConflict, "")
	})
}

func awaitBulkEditStatus(t *testing.T, e *env, c *http.Client, id any) map[string]any {
	return expect(t, e.do(c, "GET", fmt.Sprintf("/api/codes/bulk-edit/%v", id), ""), http.StatusOK, "")
}

// Every change kind through the API, by ids of both kinds: what a static
// code cannot take fails with its reason, the rest changes.
func TestBulkEditChangeKinds(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		ids := bulkCodes(t, e, f, 2, "kind", 0)
		d0, d1, s := fmt.Sprintf("d_%d", ids[0]), fmt.Sprintf("d_%d", ids[1]), fmt.Sprintf("s_%d", f.static)
		sel := fmt.Sprintf(`"ids":[%q,%q,%q]`, d0, d1, s)
		idOfNew := func(path, body string) string {
			return strconv.Itoa(int(expect(t, e.do(ed, "POST", path, body), http.StatusCreated, "")["id"].(float64)))
		}
		folder := idOfNew("/api/folders", `{"name":"Spring"}`)
		tagA := idOfNew("/api/tags", `{"name":"spring","color":"#112233"}`)
		tagB := idOfNew("/api/tags", `{"name":"old","color":"#112233"}`)
		kit := idOfNew("/api/brand-kits", `{"name":"Spring","fgColor":"#1a2b3c"}`)
		expect(t, e.do(ed, "PUT", fmt.Sprintf("/api/dynamic-qrcodes/%d/tags", ids[0]), `{"tagIds":[`+tagB+`]}`), http.StatusOK, "")

		// A template on the dynamic codes; the static one fails.
		job := runBulkEdit(t, e, ed, `{`+sel+`,"changes":{"destination":"https://new.example/{shortCode}?from={name}"}}`)
		if job["failed"] != 1.0 || job["processed"] != 3.0 {
			t.Fatalf("job = %v", job)
		}
		if d := dynamicOf(t, st, f.ws, ids[1]); d.Destination != "https://new.example/kind1?from=Menu" {
			t.Fatalf("template: %s", d.Destination)
		}
		// Tags, folder, kit, pause, routing: one job.
		runBulkEdit(t, e, ed, `{`+sel+`,"changes":{"addTags":[`+tagA+`],"removeTags":[`+tagB+`],"folderId":`+folder+`,"brandKitId":`+kit+`}}`)
		for _, id := range ids {
			d := dynamicOf(t, st, f.ws, id)
			if len(d.Tags) != 1 || strconv.FormatInt(d.Tags[0].ID, 10) != tagA || d.FolderID == nil || strconv.FormatInt(*d.FolderID, 10) != folder ||
				d.Style.FgColor != "#1A2B3C" {
				t.Fatalf("code %d: tags %v folder %v fg %s", id, d.Tags, d.FolderID, d.Style.FgColor)
			}
		}
		q, err := st.QRCode(ctx, f.ws, f.static)
		if err != nil || len(q.Tags) != 1 || q.FolderID == nil || q.Style.FgColor != "#1A2B3C" || q.Style.ErrorCorrectionLevel != "H" {
			t.Fatalf("static code: %+v, %v", q, err)
		}
		runBulkEdit(t, e, ed, fmt.Sprintf(`{"ids":[%q],"changes":{"paused":true,"routing":{"scanLimit":5},"folderId":null}}`, d0))
		d := dynamicOf(t, st, f.ws, ids[0])
		if !d.IsPaused || d.Routing == nil || d.Routing.ScanLimit == nil || *d.Routing.ScanLimit != 5 || d.FolderID != nil {
			t.Fatalf("paused %v routing %+v folder %v", d.IsPaused, d.Routing, d.FolderID)
		}
		if got := e.do(e.browser(), "GET", "/d/kind0", ""); got.StatusCode == http.StatusFound {
			t.Fatalf("a paused code still redirects")
		}
		runBulkEdit(t, e, ed, fmt.Sprintf(`{"ids":[%q],"changes":{"routing":null,"paused":false}}`, d0))
		if d := dynamicOf(t, st, f.ws, ids[0]); d.IsPaused || d.Routing != nil {
			t.Fatalf("resumed %v routing %+v", d.IsPaused, d.Routing)
		}
		// A deletion hides the codes from the list and their redirects;
		// its undo brings them back.
		del := runBulkEdit(t, e, ed, `{`+sel+`,"changes":{"delete":true}}`)
		if got := e.do(e.browser(), "GET", "/d/kind1", ""); got.StatusCode != http.StatusNotFound {
			t.Fatalf("a deleted code answers %d", got.StatusCode)
		}
		listed := expect(t, e.do(ed, "GET", "/api/codes?q=kind", ""), http.StatusOK, "")["items"].([]any)
		if len(listed) != 0 {
			t.Fatalf("deleted codes listed: %v", listed)
		}
		expect(t, e.do(ed, "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", del["id"]), ""), http.StatusOK, "")
		if got := e.do(e.browser(), "GET", "/d/kind1", ""); got.StatusCode != http.StatusFound {
			t.Fatalf("an undeleted code answers %d", got.StatusCode)
		}
		if _, err := st.QRCode(ctx, f.ws, f.static); err != nil {
			t.Fatalf("the static code is not back: %v", err)
		}
	})
}

// Refused requests answer a clear error and change nothing: viewers,
// malformed bodies, unknown changes, other workspaces' ids and things,
// empty selections, too many ids, a filter's paging keys.
func TestBulkEditRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		ids := bulkCodes(t, e, f, 1, "ref", 0)
		mine := fmt.Sprintf("d_%d", ids[0])
		otherC, otherID := e.signedIn("other@example.com")
		theirs := storetest.NewDynamic(otherID, "theirs")
		theirs.WorkspaceID = storetest.Personal(t, st, otherID)
		if err := st.CreateDynamicCode(context.Background(), theirs, 0); err != nil {
			t.Fatal(err)
		}
		theirFolder := expect(t, e.do(otherC, "POST", "/api/folders", `{"name":"Theirs"}`), http.StatusCreated, "")["id"].(float64)
		many := make([]string, 10001)
		for i := range many {
			many[i] = fmt.Sprintf("d_%d", i+1)
		}
		manyIDs, _ := json.Marshal(many)
		before := bulkFingerprint(t, st, f.ws)
		for _, c := range []struct {
			who    *http.Client
			body   string
			status int
		}{
			{f.members["viewer"], `{"ids":["` + mine + `"],"changes":{"paused":true}}`, http.StatusForbidden},
			{ed, `{"ids":["` + mine + `"],"changes":{"paused":true}`, http.StatusBadRequest},
			{ed, `{"ids":"` + mine + `","changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{"colour":"red"}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{"paused":"yes"}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{"delete":true,"paused":true}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{"destination":{"replace":{"from":"","to":"x"}}}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"changes":{"routing":{"scanLimit":-1}}}`, http.StatusBadRequest},
			{ed, fmt.Sprintf(`{"ids":["%s","d_%d"],"changes":{"paused":true}}`, mine, theirs.ID), http.StatusNotFound},
			{ed, `{"ids":["` + mine + `","x_1"],"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, fmt.Sprintf(`{"ids":["%s"],"changes":{"folderId":%v}}`, mine, theirFolder), http.StatusNotFound},
			{ed, `{"ids":["` + mine + `"],"changes":{"addTags":[999999]}}`, http.StatusNotFound},
			{ed, `{"ids":["` + mine + `"],"changes":{"brandKitId":999999}}`, http.StatusNotFound},
			{ed, `{"ids":["` + mine + `"],"changes":{"domainId":999999}}`, http.StatusNotFound},
			{ed, `{"ids":[],"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"ids":["` + mine + `"],"filter":{},"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"filter":{"q":"no such code anywhere"},"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"filter":{"sort":"name"},"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"filter":{"status":"gone"},"changes":{"paused":true}}`, http.StatusBadRequest},
			{ed, `{"ids":` + string(manyIDs) + `,"changes":{"paused":true}}`, http.StatusBadRequest},
			{e.browser(), `{"ids":["` + mine + `"],"changes":{"paused":true}}`, http.StatusUnauthorized},
		} {
			if got := e.do(c.who, "POST", "/api/codes/bulk-edit", c.body); got.StatusCode != c.status || !strings.Contains(string(got.body), `"message"`) {
				t.Errorf("%.80s: %d %s, want %d", c.body, got.StatusCode, got.body, c.status)
			}
		}
		// A foreign tag is named under the change that names it.
		for _, change := range []string{"addTags", "removeTags"} {
			got := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", `{"ids":["`+mine+`"],"changes":{"`+change+`":[999999]}}`), http.StatusNotFound, "Tag not found")
			if errs, _ := got["errors"].(map[string]any); errs["changes."+change] == nil {
				t.Errorf("%s: %v", change, got)
			}
		}
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("a refused request changed the database:\n%s\n%s", before, after)
		}
		// Another workspace's job is not found, nor undone.
		job := runBulkEdit(t, e, ed, `{"ids":["`+mine+`"],"changes":{"paused":true}}`)
		expect(t, e.do(otherC, "GET", fmt.Sprintf("/api/codes/bulk-edit/%v", job["id"]), ""), http.StatusNotFound, msgBulkEditMissing)
		expect(t, e.do(otherC, "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", job["id"]), ""), http.StatusNotFound, msgBulkEditMissing)
		// Parallel starts each make their own job; each code still changes once.
		done := make(chan *response, 5)
		for range 5 {
			go func() {
				done <- e.do(ed, "POST", "/api/codes/bulk-edit", `{"ids":["`+mine+`"],"changes":{"destination":"{destination}/x"}}`)
			}()
		}
		for range 5 {
			got := <-done
			if got.StatusCode != http.StatusAccepted {
				t.Fatalf("parallel start: %d %s", got.StatusCode, got.body)
			}
			awaitBulkEdit(t, e, ed, got.json(t)["id"])
		}
		if d := dynamicOf(t, st, f.ws, ids[0]); d.Destination != "https://old.example/0/x/x/x/x/x" {
			t.Fatalf("after five jobs: %s", d.Destination)
		}
	})
}

// The public API starts filter jobs with a key's codes:write scope and
// follows them with codes:read; a key limited to a folder selects in it
// alone and cannot move codes out of it.
func TestBulkEditPublicAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ids := bulkCodes(t, e, f, 2, "api", 0)
		started := expect(t, e.api(f.key, "POST", "/api/v1/codes/bulk-edit",
			`{"filter":{"q":"old.example","kind":"dynamic"},"changes":{"destination":{"replace":{"from":"old","to":"new"}}}}`), http.StatusAccepted, "")
		deadline := time.Now().Add(30 * time.Second)
		for {
			j := expect(t, e.api(f.key, "GET", fmt.Sprintf("/api/v1/bulk-edits/%v", started["id"]), ""), http.StatusOK, "")
			if j["status"] == "done" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("not done: %v", j)
			}
			time.Sleep(50 * time.Millisecond)
		}
		for i, id := range ids {
			if d := dynamicOf(t, st, f.ws, id); d.Destination != fmt.Sprintf("https://new.example/%d", i) {
				t.Fatalf("code %d: %s", i, d.Destination)
			}
		}
		expect(t, e.api(f.outsiderKey, "GET", fmt.Sprintf("/api/v1/bulk-edits/%v", started["id"]), ""), http.StatusNotFound, "")

		// A repeat with the same Idempotency-Key answers the first job.
		body := `{"ids":["` + fmt.Sprintf("d_%d", ids[0]) + `"],"changes":{"destination":"{destination}/again"}}`
		first := expect(t, e.api(f.key, "POST", "/api/v1/codes/bulk-edit", body, "Idempotency-Key", "edit-1"), http.StatusAccepted, "")
		replay := e.api(f.key, "POST", "/api/v1/codes/bulk-edit", body, "Idempotency-Key", "edit-1")
		if replay.StatusCode != http.StatusAccepted || replay.json(t)["id"] != first["id"] || replay.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %d %s", replay.StatusCode, replay.body)
		}
		var jobs int
		storetest.QueryRow(t, st, `SELECT count(*) FROM bulk_edit_jobs WHERE workspace_id = $1`, []any{f.ws}, &jobs)
		if jobs != 3 { // the fixture's, the filter job, this one
			t.Fatalf("%d jobs after a replay", jobs)
		}

		// A key limited to a folder edits in it alone.
		owner := f.members["owner"]
		folder := expect(t, e.do(owner, "POST", "/api/folders", `{"name":"Keyed"}`), http.StatusCreated, "")["id"].(float64)
		fk := e.keyWith(owner, fmt.Sprintf(`,"folderId":%v`, folder))
		inside := bulkCodes(t, e, f, 1, "infolder", int64(folder))[0]
		expect(t, e.api(fk, "POST", "/api/v1/codes/bulk-edit", fmt.Sprintf(`{"ids":["d_%d"],"changes":{"paused":true}}`, ids[1])), http.StatusNotFound, "")
		expect(t, e.api(fk, "POST", "/api/v1/codes/bulk-edit", `{"filter":{"folder":999999},"changes":{"paused":true}}`), http.StatusForbidden, "")
		expect(t, e.api(fk, "POST", "/api/v1/codes/bulk-edit", `{"filter":{},"changes":{"folderId":null}}`), http.StatusForbidden, "")
		dry := expect(t, e.api(fk, "POST", "/api/v1/codes/bulk-edit", `{"filter":{},"changes":{"paused":true},"dryRun":true}`), http.StatusOK, "")
		if rows := dry["rows"].([]any); dry["selected"] != 1.0 || rows[0].(map[string]any)["id"] != fmt.Sprintf("d_%d", inside) {
			t.Fatalf("a folder key selects %v", dry)
		}
		expect(t, e.api("", "POST", "/api/v1/codes/bulk-edit", `{"filter":{},"changes":{"paused":true}}`), http.StatusUnauthorized, "")
	})
}

// A domain change moves dynamic codes to a verified domain (static ones
// fail with the reason); the list and a bulk edit then select by domain.
func TestBulkEditDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		ids := bulkCodes(t, e, f, 2, "dom", 0)
		domain := verifiedDomain(t, st, f.ws, "go.brand.example")
		job := runBulkEdit(t, e, ed, fmt.Sprintf(`{"ids":["d_%d","s_%d"],"changes":{"domainId":%d}}`, ids[0], f.static, domain))
		if job["failed"] != 1.0 {
			t.Fatalf("job = %v", job)
		}
		if d := dynamicOf(t, st, f.ws, ids[0]); d.DomainID == nil || *d.DomainID != domain {
			t.Fatalf("domain %v", d.DomainID)
		}
		listed := expect(t, e.do(ed, "GET", fmt.Sprintf("/api/codes?domain=%d", domain), ""), http.StatusOK, "")["items"].([]any)
		if len(listed) != 1 || listed[0].(map[string]any)["id"] != float64(ids[0]) {
			t.Fatalf("by domain: %v", listed)
		}
		if got := expect(t, e.do(ed, "GET", fmt.Sprintf("/api/codes?domain=%d&kind=static", domain), ""), http.StatusOK, "")["items"].([]any); len(got) != 0 {
			t.Fatalf("static codes by domain: %v", got)
		}
		// Back to the base URL by a domain filter.
		runBulkEdit(t, e, ed, fmt.Sprintf(`{"filter":{"domain":%d},"changes":{"domainId":null}}`, domain))
		if d := dynamicOf(t, st, f.ws, ids[0]); d.DomainID != nil {
			t.Fatalf("domain after clearing: %v", *d.DomainID)
		}
	})
}

// One code named thrice by ids spelt differently ("d_5", "d_05", "d_+5")
// is changed once: a replace whose result still holds its from is not
// applied again, and the job counts the code once.
func TestBulkEditSameCodeSpeltTwice(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		id := bulkCodes(t, e, f, 1, "twice", 0)[0]
		// The spellings far enough apart to be changed in different
		// batches (of 200), each reading the code as the last left it.
		ids := []string{fmt.Sprintf(`"d_%d"`, id)}
		for _, other := range bulkCodes(t, e, f, 200, "other", 0) {
			ids = append(ids, fmt.Sprintf(`"d_%d"`, other))
		}
		ids = append(ids, fmt.Sprintf(`"d_0%d"`, id), fmt.Sprintf(`"d_+%d"`, id))
		body := `{"ids":[` + strings.Join(ids, ",") + `],"changes":{"destination":{"replace":{"from":"old.example","to":"old.example/x"}}}}`
		job := runBulkEdit(t, e, ed, body)
		if d := dynamicOf(t, st, f.ws, id); d.Destination != "https://old.example/x/0" || job["total"] != 201.0 {
			t.Fatalf("destination %s, job %v", d.Destination, job)
		}
	})
}

// null is not a value of paused (true or false) nor of addTags and
// removeTags (lists of tag ids): 400 on the change, and nothing changes:
// a paused code is not resumed.
func TestBulkEditNullChangesRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		id := bulkCodes(t, e, f, 1, "null", 0)[0]
		mine := fmt.Sprintf("d_%d", id)
		runBulkEdit(t, e, ed, `{"ids":["`+mine+`"],"changes":{"paused":true}}`)
		before := bulkFingerprint(t, st, f.ws)
		for _, change := range []string{"paused", "addTags", "removeTags"} {
			for _, dry := range []string{"false", "true"} {
				body := `{"ids":["` + mine + `"],"changes":{"` + change + `":null},"dryRun":` + dry + `}`
				got := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", body), http.StatusBadRequest, "")
				if _, named := got["errors"].(map[string]any)["changes."+change]; !named {
					t.Errorf("%s: %v", body, got)
				}
			}
		}
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("a refused request changed the database:\n%s\n%s", before, after)
		}
		if !dynamicOf(t, st, f.ws, id).IsPaused {
			t.Fatal("the code was resumed")
		}
	})
}

// A new destination over the length limit fails its code with the reason,
// whose excerpt of it is cut on a character: the job records the failure
// (PostgreSQL refuses text cut inside a character) and finishes.
func TestBulkEditLongNonASCIIDestinationFails(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		id := bulkCodes(t, e, f, 1, "long", 0)[0]
		// 19 bytes, then 2-byte characters: the 200th byte ends inside one.
		// The template is within 2048 bytes; filled in, it is past them.
		template := "https://ab.example/" + strings.Repeat("é", 1000) + "{destination}{destination}"
		job := runBulkEdit(t, e, ed, `{"ids":["`+fmt.Sprintf("d_%d", id)+`"],"changes":{"destination":"`+template+`"}}`)
		if job["status"] != "done" || job["failed"] != 1.0 {
			t.Fatalf("job = %v", job)
		}
		var reason string
		storetest.QueryRow(t, st, `SELECT error FROM bulk_edit_items WHERE job_id = $1`, []any{job["id"]}, &reason)
		if !strings.Contains(reason, "https://ab.example/éé") || !utf8.ValidString(reason) {
			t.Fatalf("reason %q", reason)
		}
		if d := dynamicOf(t, st, f.ws, id); d.Destination != "https://old.example/0" {
			t.Fatalf("destination changed to %.40s", d.Destination)
		}
	})
}

// A destination change's length limit is a destination's, in bytes, and
// its message says so: a template of 1,119 characters (2,219 bytes) was
// taken by the "at most 2048 characters" check and then failed every code;
// a replace past it was told only that it needs a non-empty from. The app,
// the public API and a spreadsheet's cell say the same.
func TestBulkEditDestinationLimitInBytes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		mine := fmt.Sprintf("d_%d", bulkCodes(t, e, f, 1, "bytes", 0)[0])
		before, jobs := bulkFingerprint(t, st, f.ws), storetest.Count(t, st, "bulk_edit_jobs")
		long := "https://ab.example/" + strings.Repeat("é", 1100)
		for _, c := range []struct{ change, msg string }{
			{`"` + long + `"`, "destination must be a URL template of at most 2048 bytes"},
			{`{"replace":{"from":"old.example","to":"` + long + `"}}`, "replace.from and replace.to must each be at most 2048 bytes"},
			{`{"replace":{"from":"` + strings.Repeat("é", 1025) + `","to":"x"}}`, "replace.from and replace.to must each be at most 2048 bytes"},
		} {
			for _, dry := range []string{"false", "true"} {
				body := `{"ids":["` + mine + `"],"changes":{"destination":` + c.change + `},"dryRun":` + dry + `}`
				got := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", body), http.StatusBadRequest, c.msg)
				if got["errors"].(map[string]any)["changes.destination"] != c.msg {
					t.Errorf("%.60s: %v", body, got["errors"])
				}
				expect(t, e.api(f.key, "POST", "/api/v1/codes/bulk-edit", body), http.StatusBadRequest, c.msg)
			}
		}
		// A spreadsheet's cell past the limit fails its row with the same words.
		got := expect(t, e.postEditSheet(ed, "a.csv", "shortCode,destination\nbytes0,"+long+"\n", true), http.StatusOK, "")
		if fails, _ := got["failures"].([]any); len(fails) != 1 ||
			fails[0].(map[string]any)["reason"] != "destination must be a URL (or a template) of at most 2048 bytes" {
			t.Errorf("a long cell: %v", got)
		}
		if after := bulkFingerprint(t, st, f.ws); after != before || storetest.Count(t, st, "bulk_edit_jobs") != jobs {
			t.Fatalf("a refused request changed the database:\n%s\n%s", before, after)
		}
		// 2048 bytes is within the limit.
		exact := "https://ab.example/" + strings.Repeat("a", 2048-19)
		expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", `{"ids":["`+mine+`"],"changes":{"destination":"`+exact+`"},"dryRun":true}`), http.StatusOK, "")
	})
}

// A replace whose from is its to would change no destination: it is 400 on
// changes.destination, dry run or not, in the app and the public API, and
// no job is made.
func TestBulkEditReplaceWithItselfRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		mine := fmt.Sprintf("d_%d", bulkCodes(t, e, f, 1, "same", 0)[0])
		before, jobs := bulkFingerprint(t, st, f.ws), storetest.Count(t, st, "bulk_edit_jobs")
		const msg = "replace.to must differ from replace.from: replacing a text with itself changes nothing"
		for _, body := range []string{
			`{"ids":["` + mine + `"],"changes":{"destination":{"replace":{"from":"old.example","to":"old.example"}}}}`,
			`{"ids":["` + mine + `"],"changes":{"destination":{"replace":{"from":"old","to":"old"}},"paused":true}}`,
			`{"ids":["` + mine + `"],"changes":{"destination":{"replace":{"from":"é","to":"\u00e9"}}},"dryRun":true}`,
			`{"filter":{"kind":"dynamic"},"changes":{"destination":{"replace":{"from":"https","to":"https"}}}}`,
		} {
			got := expect(t, e.do(ed, "POST", "/api/codes/bulk-edit", body), http.StatusBadRequest, msg)
			if got["errors"].(map[string]any)["changes.destination"] != msg {
				t.Errorf("%s: %v", body, got)
			}
			expect(t, e.api(f.key, "POST", "/api/v1/codes/bulk-edit", body), http.StatusBadRequest, msg)
		}
		if n := storetest.Count(t, st, "bulk_edit_jobs"); n != jobs {
			t.Fatalf("%d jobs made", n-jobs)
		}
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("a refused request changed the database:\n%s\n%s", before, after)
		}
		// Differing only in case is a change.
		runBulkEdit(t, e, ed, `{"ids":["`+mine+`"],"changes":{"destination":{"replace":{"from":"old.example","to":"OLD.example"}}}}`)
	})
}
