package bulkedit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// codes makes n dynamic codes of a new user's workspace, short codes
// p0…, redirecting to https://old.example/{i}.
func codes(t *testing.T, st *store.Store, n int, prefix string) (ws int64, refs []store.CodeRef) {
	u := storetest.CreateUser(t, st, prefix+"@example.com")
	ws = storetest.Personal(t, st, u.ID)
	for i := range n {
		d := storetest.NewDynamic(u.ID, fmt.Sprintf("%s%d", prefix, i))
		d.WorkspaceID, d.Destination = ws, fmt.Sprintf("https://old.example/%d", i)
		if err := st.CreateDynamicCode(context.Background(), d, 0); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, store.CodeRef{Dynamic: true, ID: d.ID})
	}
	return ws, refs
}

func userOf(t *testing.T, st *store.Store, ws int64) int64 {
	var id int64
	storetest.QueryRow(t, st, `SELECT personal_user_id FROM workspaces WHERE id = $1`, []any{ws}, &id)
	return id
}

// A runner killed in the middle of a job (its lease left to run out)
// leaves it to the next, which finishes it: every code is changed once,
// with one audit entry each, and the killed runner cannot write again.
func TestResumeAfterAKillChangesEachCodeOnce(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		ws, refs := codes(t, st, 450, "k")
		clk := &clock{t: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
		r := bulkedit.NewRunner(st, nil, clk.Now)
		c := bulkedit.Changes{Destination: &bulkedit.Destination{Template: "{destination}x"}}
		j, err := r.Start(ctx, ws, userOf(t, st, ws), refs, c)
		if err != nil {
			t.Fatal(err)
		}
		edit := func(code store.BulkEditCode, _ string) (store.CodeFields, string) { return c.Edit(code) }
		// The first runner claims the job, changes one batch, and dies.
		now := clk.Now()
		claimed, err := st.ClaimBulkEditJob(ctx, now, now.Add(30*time.Second))
		if err != nil || claimed.ID != j.ID {
			t.Fatalf("claim: %+v, %v", claimed, err)
		}
		if n, err := st.ApplyBulkEdit(ctx, claimed, 200, edit, now, now.Add(30*time.Second)); err != nil || n != 200 {
			t.Fatalf("first batch: %d, %v", n, err)
		}
		// While its lease holds, nobody takes the job over.
		r.Pass(ctx)
		if got, _ := st.BulkEditJob(ctx, ws, j.ID); got.Status != store.BulkEditRunning || got.Processed != 200 {
			t.Fatalf("during the lease: %+v", got)
		}
		clk.Advance(31 * time.Second)
		r.Pass(ctx)
		got, err := st.BulkEditJob(ctx, ws, j.ID)
		if err != nil || got.Status != store.BulkEditDone || got.Processed != 450 || got.Failed != 0 {
			t.Fatalf("after the takeover: %+v, %v", got, err)
		}
		// The dead runner's lease is gone: it cannot write again.
		if _, err := st.ApplyBulkEdit(ctx, claimed, 200, edit, now, now.Add(time.Minute)); err != store.ErrItemTaken {
			t.Fatalf("stale runner: %v, want ErrItemTaken", err)
		}
		var twice, entries int
		storetest.QueryRow(t, st, `SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND destination NOT LIKE '%x' OR destination LIKE '%xx'`, []any{ws}, &twice)
		storetest.QueryRow(t, st, `SELECT count(DISTINCT target_id) FROM audit_log WHERE workspace_id = $1 AND action = 'code.bulk_edited'`, []any{ws}, &entries)
		var all int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.bulk_edited'`, []any{ws}, &all)
		if twice != 0 || entries != 450 || all != 450 {
			t.Fatalf("codes not changed exactly once: %d wrong, %d codes audited in %d entries", twice, entries, all)
		}
	})
}

// A spreadsheet update's job, each item with its own changes, resumes
// after a kill as any other: every code takes its own row's change once.
func TestItemsResumeWithTheirOwnChanges(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		ws, refs := codes(t, st, 250, "i")
		clk := &clock{t: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
		r := bulkedit.NewRunner(st, nil, clk.Now)
		items := make([]bulkedit.Item, len(refs))
		for i, ref := range refs {
			items[i] = bulkedit.Item{Row: i + 2, Ref: ref, Changes: bulkedit.Changes{Destination: &bulkedit.Destination{Template: fmt.Sprintf("https://row.example/%d", i)}}}
		}
		j, err := r.StartItems(ctx, ws, userOf(t, st, ws), "rows.csv", items)
		if err != nil || j.Changes != `{"sheet":"rows.csv"}` {
			t.Fatalf("start: %+v, %v", j, err)
		}
		// The first runner changes one batch by the items' own changes, and dies.
		edit := func(code store.BulkEditCode, own string) (store.CodeFields, string) {
			var c bulkedit.Changes
			if err := json.Unmarshal([]byte(own), &c); err != nil {
				t.Fatalf("item changes %q: %v", own, err)
			}
			return c.Edit(code)
		}
		now := clk.Now()
		claimed, err := st.ClaimBulkEditJob(ctx, now, now.Add(30*time.Second))
		if err != nil || claimed.ID != j.ID {
			t.Fatalf("claim: %+v, %v", claimed, err)
		}
		if n, err := st.ApplyBulkEdit(ctx, claimed, 200, edit, now, now.Add(30*time.Second)); err != nil || n != 200 {
			t.Fatalf("first batch: %d, %v", n, err)
		}
		clk.Advance(31 * time.Second)
		r.Pass(ctx)
		if got, err := st.BulkEditJob(ctx, ws, j.ID); err != nil || got.Status != store.BulkEditDone || got.Processed != 250 || got.Failed != 0 {
			t.Fatalf("after the takeover: %+v, %v", got, err)
		}
		for i, ref := range refs {
			d, err := st.DynamicCode(ctx, ws, ref.ID)
			if err != nil || d.Destination != fmt.Sprintf("https://row.example/%d", i) {
				t.Fatalf("code %d: %v %v", i, d.Destination, err)
			}
		}
		var entries int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.bulk_edited'`, []any{ws}, &entries)
		if entries != 250 {
			t.Fatalf("%d audit entries, want 250", entries)
		}
	})
}

// Each change kind as Edit makes it, on a dynamic and a static code.
func TestEditEachKind(t *testing.T) {
	folder, tag := int64(7), int64(3)
	paused := true
	kit := storetest.DefaultStyle()
	kit.FgColor, kit.ErrorCorrectionLevel = "#112233", "M"
	dyn := store.BulkEditCode{Dynamic: true, ID: 1, Name: "Menu", ShortCode: "abc",
		Fields: store.CodeFields{Destination: "https://old.example/menu", Tags: []int64{1, 3}, Style: storetest.DefaultStyle()}}
	dyn.Fields.Style.ErrorCorrectionLevel = "Q"
	static := store.BulkEditCode{ID: 2, Name: "Flyer", Fields: store.CodeFields{Tags: []int64{}}}
	for _, tc := range []struct {
		name    string
		c       bulkedit.Changes
		code    store.BulkEditCode
		want    func(f store.CodeFields) bool
		refused string
	}{
		{"replace", bulkedit.Changes{Destination: &bulkedit.Destination{From: "https://old.example", To: "https://new.example"}}, dyn,
			func(f store.CodeFields) bool { return f.Destination == "https://new.example/menu" }, ""},
		{"replace missing", bulkedit.Changes{Destination: &bulkedit.Destination{From: "https://else.example", To: "https://new.example"}}, dyn,
			func(f store.CodeFields) bool { return f.Destination == "https://old.example/menu" }, ""},
		{"template", bulkedit.Changes{Destination: &bulkedit.Destination{Template: "https://new.example/{shortCode}?n={name}&from={destination}"}}, dyn,
			func(f store.CodeFields) bool {
				return f.Destination == "https://new.example/abc?n=Menu&from=https://old.example/menu"
			}, ""},
		{"bad url", bulkedit.Changes{Destination: &bulkedit.Destination{From: "https://", To: "javascript:"}}, dyn, nil, "URL"},
		{"static destination", bulkedit.Changes{Destination: &bulkedit.Destination{Template: "https://x.example"}}, static, nil, bulkedit.MsgStaticDestination},
		{"routing clear", bulkedit.Changes{SetRouting: true}, dyn, func(f store.CodeFields) bool { return f.Routing == nil }, ""},
		{"tags", bulkedit.Changes{AddTags: []int64{2, 3}, RemoveTags: []int64{1}}, dyn,
			func(f store.CodeFields) bool { return fmt.Sprint(f.Tags) == "[2 3]" }, ""},
		{"tags replaced", bulkedit.Changes{SetTags: true, Tags: []int64{5, 2, 5}}, dyn,
			func(f store.CodeFields) bool { return fmt.Sprint(f.Tags) == "[2 5]" }, ""},
		{"tags cleared", bulkedit.Changes{SetTags: true, Tags: []int64{}}, dyn,
			func(f store.CodeFields) bool { return len(f.Tags) == 0 }, ""},
		{"folder", bulkedit.Changes{SetFolder: true, FolderID: &folder}, static,
			func(f store.CodeFields) bool { return f.FolderID != nil && *f.FolderID == 7 }, ""},
		{"domain", bulkedit.Changes{SetDomain: true, DomainID: &tag}, dyn,
			func(f store.CodeFields) bool { return f.DomainID != nil && *f.DomainID == 3 }, ""},
		{"static domain", bulkedit.Changes{SetDomain: true}, static, nil, bulkedit.MsgStaticDomain},
		{"pause", bulkedit.Changes{Paused: &paused}, dyn, func(f store.CodeFields) bool { return f.Paused }, ""},
		{"static pause", bulkedit.Changes{Paused: &paused}, static, nil, bulkedit.MsgStaticPause},
		{"kit keeps a dynamic code's level", bulkedit.Changes{Style: &kit}, dyn,
			func(f store.CodeFields) bool {
				return f.Style.FgColor == "#112233" && f.Style.ErrorCorrectionLevel == "Q"
			}, ""},
		{"kit puts a static code at H", bulkedit.Changes{Style: &kit}, static,
			func(f store.CodeFields) bool {
				return f.Style.FgColor == "#112233" && f.Style.ErrorCorrectionLevel == "H"
			}, ""},
		{"delete", bulkedit.Changes{Delete: true}, static, func(f store.CodeFields) bool { return f.Deleted }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, reason := tc.c.Edit(tc.code)
			switch {
			case tc.refused != "" && !strings.Contains(reason, tc.refused):
				t.Fatalf("reason %q, want one with %q", reason, tc.refused)
			case tc.refused == "" && (reason != "" || !tc.want(f)):
				t.Fatalf("after %+v, reason %q", f, reason)
			}
		})
	}
}

// Undo restores what the job changed, except a code changed again since
// (listed), and is refused once its window has ended; the codes a job
// deleted come back with it, and after the window they are settled.
func TestUndo(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		ws, refs := codes(t, st, 3, "u")
		clk := &clock{t: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
		r := bulkedit.NewRunner(st, nil, clk.Now)
		run := func(c bulkedit.Changes, refs []store.CodeRef) *store.BulkEditJob {
			j, err := r.Start(ctx, ws, userOf(t, st, ws), refs, c)
			if err != nil {
				t.Fatal(err)
			}
			r.Pass(ctx)
			if j, err = st.BulkEditJob(ctx, ws, j.ID); err != nil || j.Status != store.BulkEditDone {
				t.Fatalf("job: %+v, %v", j, err)
			}
			return j
		}
		paused := true
		j := run(bulkedit.Changes{Destination: &bulkedit.Destination{From: "old", To: "new"}, Paused: &paused}, refs)
		// One code is changed again meanwhile.
		if _, err := st.SetDynamicDestination(ctx, ws, refs[1].ID, "https://later.example", clk.Now()); err != nil {
			t.Fatal(err)
		}
		clk.Advance(23 * time.Hour)
		restored, skipped, err := r.Undo(ctx, ws, j.ID, 0)
		if err != nil || restored != 2 || len(skipped) != 1 || skipped[0].ID != refs[1].ID {
			t.Fatalf("undo: %d, %+v, %v", restored, skipped, err)
		}
		for i, want := range []string{"https://old.example/0", "https://later.example", "https://old.example/2"} {
			d, err := st.DynamicCode(ctx, ws, refs[i].ID)
			if err != nil || d.Destination != want || d.IsPaused != (i == 1) {
				t.Fatalf("code %d after the undo: %+v, %v", i, d, err)
			}
		}
		if got, _ := st.BulkEditJob(ctx, ws, j.ID); got.Status != store.BulkEditUndone {
			t.Fatalf("status %q", got.Status)
		}
		// Another workspace's job is not found; a closed window refuses.
		if _, _, err := r.Undo(ctx, ws+1000, j.ID, 0); err != store.ErrNotFound && !strings.Contains(fmt.Sprint(err), "not found") {
			t.Fatalf("other workspace: %v", err)
		}
		del := run(bulkedit.Changes{Delete: true}, refs[:1])
		if _, err := st.DynamicCode(ctx, ws, refs[0].ID); err == nil {
			t.Fatal("a deleted code is still found")
		}
		if _, err := st.RedirectsByShortCode(ctx, "u0"); err == nil {
			t.Fatal("a deleted code still redirects")
		}
		if _, _, err := r.Undo(ctx, ws, del.ID, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RedirectsByShortCode(ctx, "u0"); err != nil {
			t.Fatalf("the undone deletion does not redirect: %v", err)
		}
		del = run(bulkedit.Changes{Delete: true}, refs[:1])
		clk.Advance(bulkedit.UndoWindow + time.Minute)
		if _, _, err := r.Undo(ctx, ws, del.ID, 0); err != store.ErrUndoClosed {
			t.Fatalf("after the window: %v", err)
		}
		r.Pass(ctx) // settles it
		var settled bool
		storetest.QueryRow(t, st, `SELECT settled FROM bulk_edit_jobs WHERE id = $1`, []any{del.ID}, &settled)
		if !settled {
			t.Fatal("the job was not settled after its window")
		}
	})
}

// An undo brings deleted dynamic codes back only while the workspace is
// under its limit: the rest stay deleted, listed.
func TestUndoDeletionUnderTheLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		ws, refs := codes(t, st, 3, "lim")
		r := bulkedit.NewRunner(st, nil, nil)
		j, err := r.Start(ctx, ws, userOf(t, st, ws), refs[:2], bulkedit.Changes{Delete: true})
		if err != nil {
			t.Fatal(err)
		}
		r.Pass(ctx)
		// A new code takes one of the freed places (limit 3: 2 live now).
		d := storetest.NewDynamic(userOf(t, st, ws), "limnew")
		d.WorkspaceID = ws
		if err := st.CreateDynamicCode(ctx, d, 3); err != nil {
			t.Fatal(err)
		}
		restored, skipped, err := r.Undo(ctx, ws, j.ID, 3)
		if err != nil || restored != 1 || len(skipped) != 1 || skipped[0].Reason != store.MsgUndoLimit || skipped[0].ID != refs[1].ID {
			t.Fatalf("undo: %d restored, %+v, %v", restored, skipped, err)
		}
		if n, _ := st.CountDynamicCodes(ctx, ws, time.Now()); n != 3 {
			t.Fatalf("%d live codes after the undo, want the limit", n)
		}
	})
}
