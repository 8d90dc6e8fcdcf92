package bulkedit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// workspaceTotals is the workspace's scans and visitors as its rollups
// have them, humans and bots alike, over every day.
func workspaceTotals(t *testing.T, st *store.Store, ws int64) (scans, visitors int64) {
	t.Helper()
	var all string
	storetest.QueryRow(t, st, `SELECT COALESCE(string_agg(tally, ';;;'), '') FROM scan_workspace_days WHERE workspace_id = $1`, []any{ws}, &all)
	for _, tally := range strings.Split(all, ";;;") {
		if tally == "" {
			continue
		}
		var s, v int64
		if _, err := fmt.Sscanf(strings.SplitN(tally, "\n", 2)[0], "%d %d", &s, &v); err != nil {
			t.Fatalf("tally %q: %v", tally, err)
		}
		scans, visitors = scans+s, visitors+v
	}
	return scans, visitors
}

func scan(t *testing.T, st *store.Store, code int64, at time.Time, visitor string) {
	t.Helper()
	if err := st.RecordScans(context.Background(), []store.ScanEvent{{CodeID: code, ScannedAt: at, VisitorHash: visitor, DeviceType: "mobile"}}); err != nil {
		t.Fatal(err)
	}
}

// A moved code keeps its id, short code, scans and own rollups; its share
// of the workspace rollups (scans, and the visitors no other code of the
// workspace had) leaves the source for the target, and the scans after
// the move count in the target. It leaves its folder, takes the target's
// tags of the same names (made when missing), and its audit trail is in
// both logs.
func TestMoveKeepsShortCodesScansAndTags(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		src, refs := codes(t, st, 2, "mv")
		dst, others := codes(t, st, 1, "dst")
		user := userOf(t, st, src)
		actor := store.WithActor(ctx, store.Actor{Type: "user", ID: user, Email: "mv@example.com"})
		// Tags "Spring" (the target has "SPRING") and "new"; a folder.
		spring, fresh, target := &store.Tag{Name: "Spring"}, &store.Tag{Name: "new", Color: "#ff0000"}, &store.Tag{Name: "SPRING"}
		for _, tg := range []struct {
			ws  int64
			tag *store.Tag
		}{{src, spring}, {src, fresh}, {dst, target}} {
			if err := st.CreateTag(ctx, tg.ws, tg.tag, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		moved := refs[0].ID
		if err := st.SetCodeTags(actor, src, true, moved, []int64{spring.ID, fresh.ID}); err != nil {
			t.Fatal(err)
		}
		folder := &store.Folder{Name: "Menus"}
		if err := st.CreateFolder(ctx, src, folder, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.SetCodeFolder(actor, src, true, moved, &folder.ID); err != nil {
			t.Fatal(err)
		}
		// Visitor a scans both source codes, b the moved one and the
		// target's, c the moved one alone; on an old day and today.
		now := time.Now().UTC()
		for _, at := range []time.Time{now.Add(-72 * time.Hour), now.Add(-time.Minute)} {
			scan(t, st, moved, at, "a")
			scan(t, st, refs[1].ID, at, "a")
			scan(t, st, moved, at, "b")
			scan(t, st, others[0].ID, at, "b")
			scan(t, st, moved, at, "c")
		}
		if s, v := workspaceTotals(t, st, src); s != 8 || v != 6 {
			t.Fatalf("source before: %d scans, %d visitors; want 8, 6", s, v)
		}
		var scansBefore int64
		storetest.QueryRow(t, st, `SELECT scans FROM scan_counts WHERE dynamic_qr_code_id = $1`, []any{moved}, &scansBefore)

		var link int64
		storetest.QueryRow(t, st, `INSERT INTO share_links (workspace_id, token_hash, token_hint, code_id, created_at)
			VALUES ($1, 'h', 'h', $2, '2026-01-01T00:00:00Z') RETURNING id`, []any{src, moved}, &link)
		r := bulkedit.NewRunner(st, nil, nil)
		j, err := r.StartMove(ctx, src, dst, user, []store.CodeRef{refs[0]}, 0)
		if err != nil || j.Status != store.BulkEditDone || j.Processed != 1 || j.Failed != 0 {
			t.Fatalf("move: %+v, %v", j, err)
		}
		if s, v := workspaceTotals(t, st, src); s != 2 || v != 2 {
			t.Fatalf("source after: %d scans, %d visitors; want 2, 2 (a's, on two days)", s, v)
		}
		if s, v := workspaceTotals(t, st, dst); s != 8 || v != 6 {
			t.Fatalf("target after: %d scans, %d visitors; want 8, 6", s, v)
		}
		// A scan after the move is the target's (the recorder's cache knew
		// the code as the source's).
		scan(t, st, moved, now, "d")
		scan(t, st, moved, now, "e")
		if s, _ := workspaceTotals(t, st, src); s != 2 {
			t.Fatalf("source after new scans: %d scans, want 2", s)
		}
		if s, v := workspaceTotals(t, st, dst); s != 10 || v != 8 {
			t.Fatalf("target after new scans: %d scans, %d visitors; want 10, 8", s, v)
		}
		var ws int64
		var short string
		var inFolder bool
		var scansAfter int64
		storetest.QueryRow(t, st, `SELECT c.workspace_id, c.short_code, c.folder_id IS NOT NULL, n.scans FROM dynamic_qr_codes c
			JOIN scan_counts n ON n.dynamic_qr_code_id = c.id WHERE c.id = $1`, []any{moved}, &ws, &short, &inFolder, &scansAfter)
		if ws != dst || short != "mv0" || inFolder || scansAfter != scansBefore+2 {
			t.Fatalf("moved code: workspace %d, short code %q, in a folder %v, %d scans (%d before)", ws, short, inFolder, scansAfter, scansBefore)
		}
		var tags string
		storetest.QueryRow(t, st, `SELECT string_agg(t.name || '@' || t.workspace_id || t.color, ',' ORDER BY t.name) FROM dynamic_qr_code_tags x
			JOIN tags t ON t.id = x.tag_id WHERE x.dynamic_qr_code_id = $1`, []any{moved}, &tags)
		if want := fmt.Sprintf("SPRING@%d,new@%d#ff0000", dst, dst); tags != want {
			t.Fatalf("tags %q, want %q", tags, want)
		}
		// Audit: code.moved in both, the code's trail copied to the target.
		var inSrc, inDst int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.moved' AND target_id = $2`, []any{src, moved}, &inSrc)
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.moved' AND target_id = $2`, []any{dst, moved}, &inDst)
		var srcTrail int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND target_type = 'dynamic_code' AND target_id = $2 AND action <> 'code.moved'`, []any{src, moved}, &srcTrail)
		var dstTrail int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND target_type = 'dynamic_code' AND target_id = $2 AND action <> 'code.moved'`, []any{dst, moved}, &dstTrail)
		if inSrc != 1 || inDst != 1 || srcTrail == 0 || dstTrail != srcTrail {
			t.Fatalf("audit: code.moved %d in the source, %d in the target; trail %d in the source, %d copied", inSrc, inDst, srcTrail, dstTrail)
		}
		var revoked bool
		storetest.QueryRow(t, st, `SELECT revoked_at IS NOT NULL FROM share_links WHERE id = $1`, []any{link}, &revoked)
		if !revoked {
			t.Fatal("the source's share link of the moved code still works")
		}
		// The move is no bulk edit: not listed, no undo.
		if list, _ := st.BulkEditJobs(ctx, src, 10); len(list) != 0 {
			t.Fatalf("bulk edits list the move: %+v", list)
		}
		if _, _, err := r.Undo(ctx, src, j.ID, 0); err != store.ErrNotFound {
			t.Fatalf("undo of a move: %v, want ErrNotFound", err)
		}
	})
}

// A move killed half way resumes on the next runner and moves each code
// once; the target's limit of live dynamic codes holds in every batch.
func TestMoveResumesAndHoldsTheLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		src, refs := codes(t, st, 450, "r")
		dst, _ := codes(t, st, 10, "rt")
		clk := &clock{t: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
		r := bulkedit.NewRunner(st, nil, clk.Now)
		j, err := r.StartMove(ctx, src, dst, userOf(t, st, src), refs, 400)
		if err != nil || j.Status != store.BulkEditQueued || j.Total != 450 {
			t.Fatalf("start: %+v, %v", j, err)
		}
		now := clk.Now()
		claimed, err := st.ClaimBulkEditJob(ctx, now, now.Add(30*time.Second))
		if err != nil || claimed.ID != j.ID {
			t.Fatalf("claim: %+v, %v", claimed, err)
		}
		if n, err := st.ApplyMove(ctx, claimed, 200, 400, now, now.Add(30*time.Second)); err != nil || n != 200 {
			t.Fatalf("first batch: %d, %v", n, err)
		}
		clk.Advance(31 * time.Second)
		r.Pass(ctx)
		got, err := st.BulkEditJob(ctx, src, j.ID)
		if err != nil || got.Status != store.BulkEditDone || got.Processed != 450 || got.Failed != 60 {
			t.Fatalf("after the takeover: %+v, %v", got, err)
		}
		if _, err := st.ApplyMove(ctx, claimed, 200, 400, now, now.Add(time.Minute)); err != store.ErrItemTaken {
			t.Fatalf("stale runner: %v, want ErrItemTaken", err)
		}
		var inDst, entries, left int
		storetest.QueryRow(t, st, `SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted`, []any{dst}, &inDst)
		storetest.QueryRow(t, st, `SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted`, []any{src}, &left)
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'code.moved'`, []any{src}, &entries)
		if inDst != 400 || left != 60 || entries != 390 {
			t.Fatalf("%d codes in the target (want 400), %d left (want 60), %d moves audited (want 390)", inDst, left, entries)
		}
		fails, err := st.BulkEditFailures(ctx, j.ID, 100)
		if err != nil || len(fails) != 60 || fails[0].Reason != store.MsgMoveLimit {
			t.Fatalf("failures: %d, %v", len(fails), err)
		}
	})
}

// A code on a custom domain moves only where the target has the domain
// verified, and prints the target's claim of it then.
func TestMoveCustomDomainRule(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		src, refs := codes(t, st, 1, "dm")
		dst, _ := codes(t, st, 1, "dmt")
		var claimA, claimB int64
		storetest.QueryRow(t, st, `INSERT INTO workspace_domains (workspace_id, domain, token, method, verified_at, created_at)
			VALUES ($1, 'go.example.com', 'a', 'dns', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') RETURNING id`, []any{src}, &claimA)
		storetest.QueryRow(t, st, `INSERT INTO workspace_domains (workspace_id, domain, token, created_at)
			VALUES ($1, 'go.example.com', 'b', '2026-01-01T00:00:00Z') RETURNING id`, []any{dst}, &claimB)
		var n int
		storetest.QueryRow(t, st, `UPDATE dynamic_qr_codes SET domain_id = $1 WHERE id = $2 RETURNING 1`, []any{claimA, refs[0].ID}, &n)
		r := bulkedit.NewRunner(st, nil, nil)
		j, err := r.StartMove(ctx, src, dst, userOf(t, st, src), refs, 0)
		if err != nil || j.Failed != 1 {
			t.Fatalf("move to a workspace without the domain: %+v, %v", j, err)
		}
		fails, _ := st.BulkEditFailures(ctx, j.ID, 10)
		if len(fails) != 1 || !strings.Contains(fails[0].Reason, "go.example.com") {
			t.Fatalf("failures: %+v", fails)
		}
		// The target proves the domain (the source's claim lapsed): the
		// code moves, printing the target's claim.
		storetest.QueryRow(t, st, `UPDATE workspace_domains SET verified_at = NULL WHERE id = $1 RETURNING 1`, []any{claimA}, &n)
		storetest.QueryRow(t, st, `UPDATE workspace_domains SET verified_at = '2026-02-01T00:00:00Z', method = 'dns' WHERE id = $1 RETURNING 1`, []any{claimB}, &n)
		j, err = r.StartMove(ctx, src, dst, userOf(t, st, src), refs, 0)
		if err != nil || j.Failed != 0 || j.Processed != 1 {
			t.Fatalf("move to the domain's workspace: %+v, %v", j, err)
		}
		var ws, domain int64
		storetest.QueryRow(t, st, `SELECT workspace_id, domain_id FROM dynamic_qr_codes WHERE id = $1`, []any{refs[0].ID}, &ws, &domain)
		if ws != dst || domain != claimB {
			t.Fatalf("code in %d on domain %d, want %d on %d", ws, domain, dst, claimB)
		}
	})
}

// A code that opens one of the source's hosted pages (by a routing rule
// here) stays: pages do not move.
func TestMoveLeavesCodesOpeningPages(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		src, refs := codes(t, st, 2, "pg")
		dst, _ := codes(t, st, 1, "pgt")
		var n int
		storetest.QueryRow(t, st, `UPDATE dynamic_qr_codes SET routing = $1 WHERE id = $2 RETURNING 1`,
			[]any{`{"rules":[{"when":{"os":["ios"]},"pageId":1}]}`, refs[0].ID}, &n)
		j, err := bulkedit.NewRunner(st, nil, nil).StartMove(ctx, src, dst, userOf(t, st, src), refs, 0)
		if err != nil || j.Processed != 2 || j.Failed != 1 {
			t.Fatalf("move: %+v, %v", j, err)
		}
		fails, _ := st.BulkEditFailures(ctx, j.ID, 10)
		if len(fails) != 1 || fails[0].ID != refs[0].ID || fails[0].Reason != store.MsgMovePage {
			t.Fatalf("failures: %+v", fails)
		}
		if _, err := st.DynamicCode(ctx, src, refs[0].ID); err != nil {
			t.Fatalf("the code opening a page moved: %v", err)
		}
	})
}

// Two moves racing into a target with room for one code: one moves, the
// other's code stays, failed with the limit's reason.
func TestConcurrentMovesHoldTheLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		a, refsA := codes(t, st, 1, "ca")
		b, refsB := codes(t, st, 1, "cb")
		dst, _ := codes(t, st, 2, "ct")
		now := time.Now()
		var jobs []*store.BulkEditJob
		for _, m := range []struct {
			from int64
			refs []store.CodeRef
		}{{a, refsA}, {b, refsB}} {
			to := dst
			j := &store.BulkEditJob{WorkspaceID: m.from, UserID: userOf(t, st, m.from), Changes: `{"move":{"limit":3}}`, MoveTo: &to}
			if err := st.CreateClaimedBulkEditJob(ctx, j, m.refs, now, now.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, j)
		}
		errs := make(chan error, 2)
		for _, j := range jobs {
			go func() {
				_, err := st.ApplyMove(ctx, j, 10, 3, now, now.Add(time.Minute))
				errs <- err
			}()
		}
		for range jobs {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		var inDst int
		storetest.QueryRow(t, st, `SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted`, []any{dst}, &inDst)
		failed := 0
		for _, j := range jobs {
			fails, err := st.BulkEditFailures(ctx, j.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fails {
				if f.Reason != store.MsgMoveLimit {
					t.Fatalf("failure: %+v", f)
				}
				failed++
			}
		}
		if inDst != 3 || failed != 1 {
			t.Fatalf("%d codes in the target (want 3), %d refused (want 1)", inDst, failed)
		}
	})
}
