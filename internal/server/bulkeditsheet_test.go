package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// postEditSheet uploads a spreadsheet update.
func (e *env) postEditSheet(c *http.Client, name, content string, dryRun bool) *response {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if dryRun {
		mw.WriteField("dryRun", "true")
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(content))
	mw.Close()
	return e.do(c, "POST", "/api/codes/bulk-edit/sheet", buf.String(), "Content-Type", mw.FormDataContentType())
}

func tagNames(d *store.DynamicCode) []string {
	var names []string
	for _, t := range d.Tags {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

// A CSV keyed by short code and an XLSX keyed by id change different
// fields of different codes: the dry run shows each row and changes
// nothing, rows naming no code of the workspace (or one named before)
// fail with the reason, a row whose change a code cannot take fails in
// the job while the others go, and each job's undo restores its codes.
func TestBulkEditSheet(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		ctx := context.Background()
		ids := bulkCodes(t, e, f, 3, "sh", 0)
		expect(t, e.do(ed, "POST", "/api/tags", `{"name":"Spring"}`), http.StatusCreated, "")
		expect(t, e.do(ed, "POST", "/api/tags", `{"name":"Menu"}`), http.StatusCreated, "")
		folder := int64(expect(t, e.do(ed, "POST", "/api/folders", `{"name":"Menus"}`), http.StatusCreated, "")["id"].(float64))
		domain := verifiedDomain(t, st, f.ws, "go.sheet.example")
		_, otherID := e.signedIn("other@example.com")
		theirs := storetest.NewDynamic(otherID, "theirs")
		theirs.WorkspaceID = storetest.Personal(t, st, otherID)
		if err := st.CreateDynamicCode(ctx, theirs, 0); err != nil {
			t.Fatal(err)
		}

		csv := "shortCode,destination,paused,tags\n" +
			"sh0,https://new.example/{shortCode},,Spring; menu\n" + // row 2
			"sh1,,true,\n" + // row 3
			"sh2,javascript:alert(1),,\n" + // row 4: fails in the job
			"nosuch,https://x.example,,\n" + // row 5
			"sh0,https://dup.example,,\n" + // row 6
			"theirs,https://x.example,,\n" + // row 7
			"nosuch2,,maybe,\n" // row 8
		before := bulkFingerprint(t, st, f.ws)
		dry := expect(t, e.postEditSheet(ed, "update.csv", csv, true), http.StatusOK, "")
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("the dry run changed the database:\n%s\n%s", before, after)
		}
		rows, failures := dry["rows"].([]any), dry["failures"].([]any)
		if dry["selected"] != 7.0 || dry["changing"] != 2.0 || len(rows) != 2 {
			t.Fatalf("dry run = %v", dry)
		}
		r0 := rows[0].(map[string]any)
		if r0["row"] != 2.0 || r0["id"] != fmt.Sprintf("d_%d", ids[0]) || r0["after"].(map[string]any)["destination"] != "https://new.example/sh0" ||
			len(r0["after"].(map[string]any)["tags"].([]any)) != 2 {
			t.Fatalf("dry run row = %v", r0)
		}
		if r1 := rows[1].(map[string]any); r1["row"] != 3.0 || r1["after"].(map[string]any)["paused"] != true {
			t.Fatalf("dry run row = %v", r1)
		}
		want := []struct {
			row    float64
			reason string
		}{{4, "valid URL"}, {5, "No code of this workspace has this short code"}, {6, "Row 2 already names this code"},
			{7, "No code of this workspace has this short code"}, {8, "paused must be true or false"}}
		if len(failures) != len(want) {
			t.Fatalf("failures = %v", failures)
		}
		for i, w := range want {
			got := failures[i].(map[string]any)
			if got["row"] != w.row || !strings.Contains(got["reason"].(string), w.reason) {
				t.Errorf("failure %d = %v, want row %v %q", i, got, w.row, w.reason)
			}
		}

		started := expect(t, e.postEditSheet(ed, "update.csv", csv, false), http.StatusAccepted, "")
		if started["total"] != 3.0 || len(started["failures"].([]any)) != 4 {
			t.Fatalf("started = %v", started)
		}
		job := awaitBulkEdit(t, e, ed, started["id"])
		if job["status"] != "done" || job["total"] != 3.0 || job["processed"] != 3.0 || job["failed"] != 1.0 ||
			job["changes"].(map[string]any)["sheet"] != "update.csv" {
			t.Fatalf("job = %v", job)
		}
		d0, d1, d2 := dynamicOf(t, st, f.ws, ids[0]), dynamicOf(t, st, f.ws, ids[1]), dynamicOf(t, st, f.ws, ids[2])
		if d0.Destination != "https://new.example/sh0" || !slices.Equal(tagNames(d0), []string{"Menu", "Spring"}) || d0.IsPaused {
			t.Fatalf("sh0 = %s %v %v", d0.Destination, tagNames(d0), d0.IsPaused)
		}
		if !d1.IsPaused || d1.Destination != "https://old.example/1" || d2.Destination != "https://old.example/2" {
			t.Fatalf("sh1 paused %v, %s; sh2 %s", d1.IsPaused, d1.Destination, d2.Destination)
		}
		var audited int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.bulk_edited'`, []any{f.ws}, &audited)
		if audited != 2 {
			t.Fatalf("%d code.bulk_edited entries, want 2", audited)
		}

		// An XLSX keyed by id: a folder and a domain; a static code takes
		// the folder, but not a domain.
		xlsx := xlsxOf(t, [][]any{
			{"ID", "Folder", "Domain"},
			{fmt.Sprintf("d_%d", ids[2]), "menus", "go.sheet.example"},
			{fmt.Sprintf("s_%d", f.static), "Menus", ""},
			{fmt.Sprintf("s_%d", f.static+1000), "Menus", ""},
			{fmt.Sprintf("d_%d", theirs.ID), "Menus", ""},
			{fmt.Sprintf("d_%d", ids[1]), "", "go.sheet.example"},
			{"x_1", "Menus", ""},
			{fmt.Sprintf("d_%d", ids[0]), "Nowhere", ""},
		})
		before = bulkFingerprint(t, st, f.ws)
		dry = expect(t, e.postEditSheet(ed, "update.xlsx", xlsx, true), http.StatusOK, "")
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("the dry run changed the database:\n%s\n%s", before, after)
		}
		if dry["selected"] != 7.0 || dry["changing"] != 3.0 || len(dry["failures"].([]any)) != 4 {
			t.Fatalf("xlsx dry run = %v", dry)
		}
		started2 := expect(t, e.postEditSheet(ed, "update.xlsx", xlsx, false), http.StatusAccepted, "")
		job2 := awaitBulkEdit(t, e, ed, started2["id"])
		if job2["status"] != "done" || job2["total"] != 3.0 || job2["failed"] != 0.0 {
			t.Fatalf("xlsx job = %v", job2)
		}
		d2 = dynamicOf(t, st, f.ws, ids[2])
		d1 = dynamicOf(t, st, f.ws, ids[1])
		if d2.FolderID == nil || *d2.FolderID != folder || d2.DomainID == nil || *d2.DomainID != domain || d1.DomainID == nil || d1.FolderID != nil {
			t.Fatalf("sh2 folder %v domain %v; sh1 domain %v folder %v", d2.FolderID, d2.DomainID, d1.DomainID, d1.FolderID)
		}
		if q, err := st.QRCode(ctx, f.ws, f.static); err != nil || q.FolderID == nil || *q.FolderID != folder {
			t.Fatalf("static folder: %v", err)
		}

		// Each undo restores its own job's codes.
		for _, id := range []any{started2["id"], started["id"]} {
			undo := expect(t, e.do(ed, "POST", fmt.Sprintf("/api/codes/bulk-edit/%v/undo", id), ""), http.StatusOK, "")
			if len(undo["skipped"].([]any)) != 0 {
				t.Fatalf("undo = %v", undo)
			}
		}
		for i, id := range ids {
			d := dynamicOf(t, st, f.ws, id)
			if d.Destination != fmt.Sprintf("https://old.example/%d", i) || d.IsPaused || len(d.Tags) != 0 || d.FolderID != nil || d.DomainID != nil {
				t.Fatalf("sh%d after undo: %s paused %v tags %v folder %v domain %v", i, d.Destination, d.IsPaused, tagNames(d), d.FolderID, d.DomainID)
			}
		}
		if q, _ := st.QRCode(ctx, f.ws, f.static); q.FolderID != nil {
			t.Fatalf("static folder after undo: %v", *q.FolderID)
		}
	})
}

// Bad uploads are refused with a reason and change nothing.
func TestBulkEditSheetRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		rf := bulkCodes(t, e, f, 1, "rf", 0)
		before := bulkFingerprint(t, st, f.ws)
		for _, c := range []struct {
			who           *http.Client
			name, content string
			status        int
			message       string
		}{
			{f.members["viewer"], "a.csv", "shortCode,paused\nrf0,true\n", http.StatusForbidden, ""},
			{e.browser(), "a.csv", "shortCode,paused\nrf0,true\n", http.StatusUnauthorized, ""},
			{ed, "a.csv", "shortCode,paused\n" + strings.Repeat("x", 10<<20), http.StatusRequestEntityTooLarge, "at most 10 MB"},
			{ed, "a.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", http.StatusBadRequest, "must be a CSV"},
			{ed, "a.csv", "", http.StatusBadRequest, "Please choose a CSV or XLSX file"},
			{ed, "a.csv", "\n\n", http.StatusBadRequest, "The file is empty"},
			{ed, "a.csv", "shortCode,colour,Name,paused\nrf0,red,x,true\n", http.StatusBadRequest, `Unknown columns in the header row: \"colour\", \"Name\"`},
			{ed, "a.csv", "destination,paused\nhttps://x.example,true\n", http.StatusBadRequest, "must have a shortCode or an id column"},
			{ed, "a.csv", "shortCode,id,paused\nrf0,d_1,true\n", http.StatusBadRequest, "must have a shortCode or an id column"},
			{ed, "a.csv", "shortCode\nrf0\n", http.StatusBadRequest, "must name a column to change"},
			{ed, "a.csv", "shortCode,paused,Paused\nrf0,true,true\n", http.StatusBadRequest, "appears twice"},
			{ed, "a.csv", "shortCode,paused\nnosuch,true\n,true\n", http.StatusBadRequest, "No row of the file names a code of this workspace"},
			{ed, "a.csv", "shortCode,paused\n" + strings.Repeat("rf0,true\n", 10001), http.StatusBadRequest, "more than 10000 rows"},
		} {
			got := e.postEditSheet(c.who, c.name, c.content, false)
			if got.StatusCode != c.status || !strings.Contains(string(got.body), c.message) {
				t.Errorf("%s %.40q: %d %s, want %d %q", c.name, c.content, got.StatusCode, got.body, c.status, c.message)
			}
		}
		expect(t, e.do(ed, "POST", "/api/codes/bulk-edit/sheet", `{"file":"x"}`), http.StatusUnsupportedMediaType, "")
		// One code named twice, spelt two ways (d_5, d_05): the second row fails.
		dup := expect(t, e.postEditSheet(ed, "a.csv", fmt.Sprintf("id,paused\nd_%d,true\nd_0%d,true\n", rf[0], rf[0]), true), http.StatusOK, "")
		if fails, _ := dup["failures"].([]any); len(fails) != 1 || !strings.Contains(fmt.Sprint(fails[0]), "Row 2 already names this code") {
			t.Errorf("one code spelt two ways: %v", dup)
		}
		if after := bulkFingerprint(t, st, f.ws); after != before {
			t.Fatalf("a refused upload changed the database:\n%s\n%s", before, after)
		}

		// A burst of uploads by one account: each starts a job or is told
		// to wait (one upload of an account at a time), and each job
		// started is one job.
		const n = 6
		results := make(chan *response, n)
		for range n {
			go func() { results <- e.postEditSheet(ed, "a.csv", "shortCode,paused\nrf0,true\n", false) }()
		}
		started := 0
		for range n {
			switch got := <-results; got.StatusCode {
			case http.StatusAccepted:
				started++
			case http.StatusTooManyRequests:
			default:
				t.Errorf("burst: %d %s", got.StatusCode, got.body)
			}
		}
		var jobs int
		storetest.QueryRow(t, st, `SELECT count(*) FROM bulk_edit_jobs WHERE workspace_id = $1`, []any{f.ws}, &jobs)
		if started == 0 || jobs != started+1 { // the team fixture's job too
			t.Fatalf("%d started, %d jobs", started, jobs)
		}
	})
}

// A sheet keyed by short code cannot name a short code the workspace has
// on two hosts: that row fails, asking for the code's id, and no code
// changes.
func TestBulkEditSheetShortCodeOnSeveralHosts(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, aliceID := e.signedIn("alice@example.com")
		ws := storetest.Personal(t, st, aliceID)
		domain := verifiedDomain(t, st, ws, "go.twin.example")
		for _, on := range []*int64{nil, &domain} {
			d := storetest.NewDynamic(aliceID, "twin")
			d.WorkspaceID, d.ShortCodeChosen, d.DomainID = ws, true, on
			if err := st.CreateDynamicCode(context.Background(), d, 0); err != nil {
				t.Fatal(err)
			}
		}
		dry := expect(t, e.postEditSheet(alice, "twin.csv", "shortCode,destination\ntwin,https://new.example/\n", true), http.StatusOK, "")
		failures := dry["failures"].([]any)
		if len(dry["rows"].([]any)) != 0 || len(failures) != 1 || !strings.Contains(failures[0].(map[string]any)["reason"].(string), "Several codes") {
			t.Fatalf("dry run = %v", dry)
		}
	})
}

// A sheet's tag and folder names are found as the database's unique
// indexes compare names (sameName), on both databases: "Été" is "été"
// and "İnfo" is "info" where the database takes them for one name, and
// where it tells them apart (SQLite) the row gets the tag "Été" and the
// folder "İnfo" themselves (strings.ToLower made them "été" and "info":
// the row got the other). A tag or folder made under a name the database
// takes for one it has is a 409.
func TestBulkEditSheetNamesAsTheDatabase(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		bulkCodes(t, e, f, 2, "nm", 0)
		made := func(path, name string, same bool, existing int64) int64 {
			t.Helper()
			body, _ := json.Marshal(map[string]string{"name": name})
			r := e.do(ed, "POST", path, string(body))
			if same {
				expect(t, r, http.StatusConflict, "")
				return existing
			}
			return int64(expect(t, r, http.StatusCreated, "")["id"].(float64))
		}
		sameTag, sameFolder := sameName(t, st, "été", "Été"), sameName(t, st, "info", "İnfo")
		wantTag := made("/api/tags", "Été", sameTag, made("/api/tags", "été", false, 0))
		wantFolder := made("/api/folders", "İnfo", sameFolder, made("/api/folders", "info", false, 0))
		// A second, distinct tag and folder whose names strings.ToLower folds to those
		made("/api/tags", "K", false, 0)
		dry := expect(t, e.postEditSheet(ed, "names.csv", "shortCode,tags,folder\nnm0,Été,\nnm1,,İnfo\n", true), http.StatusOK, "")
		rows, _ := dry["rows"].([]any)
		if len(rows) != 2 {
			t.Fatalf("dry run %v", dry)
		}
		tags, _ := rows[0].(map[string]any)["after"].(map[string]any)["tags"].([]any)
		if len(tags) != 1 || tags[0] != float64(wantTag) {
			t.Errorf("tag Été (one name with été to the database: %t): tags %v, want [%d]", sameTag, tags, wantTag)
		}
		if got := rows[1].(map[string]any)["after"].(map[string]any)["folderId"]; got != float64(wantFolder) {
			t.Errorf("folder İnfo (one name with info to the database: %t): folder %v, want %d", sameFolder, got, wantFolder)
		}
	})
}
