package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestGroupRollupsFollowTheirCodes builds a tag's and a folder's rows with
// a first view, then changes one thing at a time that they are summed
// from, without anything else that would rebuild them: a code joins the
// tag, late scans reach a closed day, a code leaves the folder, a day
// closes, a code is deleted. After each, every view of the tag and the
// folder (whole UTC days, days of another zone, all time, with bots)
// equals a recount of the scan events; another workspace's view of them
// finds nothing.
func TestGroupRollupsFollowTheirCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "groups@example.com")
		other := storetest.CreateUser(t, s, "other@example.com")
		ws := storetest.Personal(t, s, u.ID)
		var codes []*store.DynamicCode
		for i := range 4 {
			codes = append(codes, storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("group%d", i)))
		}
		tag, folder := &store.Tag{Name: "Flyers", Color: "#2563eb"}, &store.Folder{Name: "Autumn"}
		if err := s.CreateTag(ctx, ws, tag, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateFolder(ctx, ws, folder, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, c := range codes[:2] {
			if err := s.SetCodeTags(ctx, ws, true, c.ID, []int64{tag.ID}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range codes[1:3] {
			if err := s.SetCodeFolder(ctx, ws, true, c.ID, &folder.ID); err != nil {
				t.Fatal(err)
			}
		}
		open := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
		if err := store.SetOpenDay(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		n := 0
		scan := func(code *store.DynamicCode, at time.Time) {
			t.Helper()
			n++
			e := store.ScanEvent{CodeID: code.ID, ScannedAt: at, DeviceType: "mobile", Country: []string{"DE", "FR", ""}[n%3],
				VisitorHash: fmt.Sprintf("v%d", n%5), IsBot: n%7 == 0}
			if err := s.RecordScans(ctx, []store.ScanEvent{e}); err != nil {
				t.Fatal(err)
			}
		}
		for day := range 6 {
			for i, c := range codes {
				for h := range 1 + (day+i)%3 {
					scan(c, open.AddDate(0, 0, day-4).Add(time.Duration(3+7*h+i)*time.Hour))
				}
			}
		}
		zone, err := time.LoadLocation("America/Los_Angeles")
		if err != nil {
			t.Fatal(err)
		}
		views := func(t *testing.T) {
			t.Helper()
			for _, q := range []store.ScanQuery{{WorkspaceID: ws, TagID: tag.ID}, {WorkspaceID: ws, FolderID: folder.ID}} {
				for _, r := range [][2]time.Time{
					{open.AddDate(0, 0, -5), open.AddDate(0, 0, 3)},
					{open.AddDate(0, 0, -3), open.AddDate(0, 0, -1)},
					{time.Date(2026, 10, 16, 0, 0, 0, 0, zone), time.Date(2026, 10, 22, 0, 0, 0, 0, zone)},
				} {
					for _, bots := range []bool{false, true} {
						v := q
						v.From, v.To, v.Bots = r[0], r[1], bots
						want := checkRecount(t, s, v)
						if got, err := s.ScanCount(ctx, v); err != nil || got != want.Scans {
							t.Fatalf("%+v: count %d, %v; want %d", v, got, err, want.Scans)
						}
						if want.Scans == 0 {
							t.Fatalf("%+v: no scans to compare", v)
						}
					}
				}
				first, ok, err := s.FirstScan(ctx, q)
				all := q
				all.From, all.To, all.Bots = open.AddDate(0, 0, -10), open.AddDate(0, 0, 10), true
				want, rerr := store.RecountReport(ctx, s, all)
				if err != nil || rerr != nil || !ok || !first.Equal(want.Slots[0].Start) {
					t.Fatalf("%+v: first scan %v %v %v; recount %v", q, first, ok, err, rerr)
				}
				q.WorkspaceID, q.From, q.To = other.ID, all.From, all.To
				if r, err := s.ScanReport(ctx, q); err != nil || r.Scans+r.BotScans != 0 {
					t.Fatalf("another workspace reads the group: %+v, %v", r, err)
				}
			}
		}
		// What each group's rows were last summed for (scan_*_rollups).
		summedFor := func(table, owner string, id int64) (version int64, members string) {
			t.Helper()
			err := store.ReadDB(s).QueryRowContext(ctx, `SELECT code_version, members FROM `+table+` WHERE `+owner+` = $1`, id).Scan(&version, &members)
			if err != nil {
				t.Fatal(err)
			}
			return version, members
		}
		t.Run("built", views)
		if err := s.SetCodeTags(ctx, ws, true, codes[2].ID, []int64{tag.ID}); err != nil {
			t.Fatal(err)
		}
		t.Run("a code joins the tag", views)
		// Late scans of every code: two the tag's rows list (1, 2), one that
		// left the tag and one that joined it since its last view (0, 3).
		// The tag's and the folder's rows take them at once and move to the
		// workspace's new version, so no view sums them again.
		if err := s.SetCodeTags(ctx, ws, true, codes[0].ID, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCodeTags(ctx, ws, true, codes[3].ID, []int64{tag.ID}); err != nil {
			t.Fatal(err)
		}
		for i, c := range codes {
			scan(c, open.AddDate(0, 0, -3+i%2).Add(20*time.Hour))
		}
		var version int64
		if err := store.ReadDB(s).QueryRowContext(ctx, `SELECT version FROM code_rollup_versions WHERE workspace_id = $1`, ws).Scan(&version); err != nil {
			t.Fatal(err)
		}
		for table, id := range map[string]int64{"scan_tag_rollups tag_id": tag.ID, "scan_folder_rollups folder_id": folder.ID} {
			name, owner, _ := strings.Cut(table, " ")
			if had, _ := summedFor(name, owner, id); had != version {
				t.Errorf("%s %d: summed at version %d after late scans, the workspace's is %d", name, id, had, version)
			}
		}
		t.Run("late scans", views)
		if err := s.SetCodeTags(ctx, ws, true, codes[0].ID, []int64{tag.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCodeTags(ctx, ws, true, codes[3].ID, nil); err != nil {
			t.Fatal(err)
		}
		t.Run("the tag's codes back", views)
		if err := s.SetCodeFolder(ctx, ws, true, codes[2].ID, nil); err != nil {
			t.Fatal(err)
		}
		t.Run("a code leaves the folder", views)
		if n, err := s.CloseScanDays(ctx, open.AddDate(0, 0, 1).Add(store.CloseGrace)); err != nil || n != 1 {
			t.Fatalf("closed %d days, %v", n, err)
		}
		t.Run("a day closed", views)
		// A deletion takes the code's rows out of the groups summed with
		// it, which keep the rest: the views below equal the recount with
		// no group summed again (same version, the code gone from its list).
		unchanged := func(t *testing.T, table, owner string, id, version, gone int64) {
			t.Helper()
			v, members := summedFor(table, owner, id)
			if v != version || strings.Contains(","+members+",", fmt.Sprintf(",%d,", gone)) {
				t.Errorf("%s %d: version %d (was %d), members %q after code %d's deletion", table, id, v, version, members, gone)
			}
		}
		tagBefore, _ := summedFor("scan_tag_rollups", "tag_id", tag.ID)
		folderBefore, _ := summedFor("scan_folder_rollups", "folder_id", folder.ID)
		if _, err := s.DeleteDynamicCode(ctx, ws, codes[0].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		t.Run("a code deleted", views)
		unchanged(t, "scan_tag_rollups", "tag_id", tag.ID, tagBefore, codes[0].ID)
		unchanged(t, "scan_folder_rollups", "folder_id", folder.ID, folderBefore, codes[0].ID)
		// A code that left the folder after its rows were summed with it,
		// then deleted, is taken out of the folder's rows too.
		if err := s.SetCodeFolder(ctx, ws, true, codes[3].ID, &folder.ID); err != nil {
			t.Fatal(err)
		}
		t.Run("a code joins the folder", views)
		if err := s.SetCodeFolder(ctx, ws, true, codes[3].ID, nil); err != nil {
			t.Fatal(err)
		}
		folderBefore, _ = summedFor("scan_folder_rollups", "folder_id", folder.ID)
		if _, err := s.DeleteDynamicCode(ctx, ws, codes[3].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		t.Run("a code that left the folder deleted", views)
		unchanged(t, "scan_folder_rollups", "folder_id", folder.ID, folderBefore, codes[3].ID)
		// Late scans, then a deletion before any view: the rows took the
		// scans in place and lose the code's rows with them.
		scan(codes[1], open.AddDate(0, 0, -4).Add(22*time.Hour))
		if _, err := s.DeleteDynamicCode(ctx, ws, codes[2].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		t.Run("a code deleted after late scans", views)
	})
}

// TestGroupRowsWhileCodesChange deletes, untags and scans late a tag's and
// a folder's codes through one store while another, as a second instance
// would, keeps viewing the tag and the folder (which builds and updates
// their rows); once all is done, the views equal a recount. A build that
// wrote rows summed with a code deleted meanwhile, or a deletion that
// missed rows being written, would count the code's scans.
func TestGroupRowsWhileCodesChange(t *testing.T) {
	ctx := context.Background()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			u := storetest.CreateUser(t, a, "race@example.com")
			ws := storetest.Personal(t, a, u.ID)
			tag, folder := &store.Tag{Name: "Race", Color: "#2563eb"}, &store.Folder{Name: "Race"}
			if err := a.CreateTag(ctx, ws, tag, time.Now()); err != nil {
				t.Fatal(err)
			}
			if err := a.CreateFolder(ctx, ws, folder, time.Now()); err != nil {
				t.Fatal(err)
			}
			open := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
			if err := store.SetOpenDay(ctx, a, open); err != nil {
				t.Fatal(err)
			}
			var codes []*store.DynamicCode
			var events []store.ScanEvent
			for i := range 12 {
				c := storetest.CreateDynamic(t, a, u.ID, fmt.Sprintf("race%02d", i))
				codes = append(codes, c)
				if err := a.SetCodeTags(ctx, ws, true, c.ID, []int64{tag.ID}); err != nil {
					t.Fatal(err)
				}
				if err := a.SetCodeFolder(ctx, ws, true, c.ID, &folder.ID); err != nil {
					t.Fatal(err)
				}
				for d := range 5 {
					events = append(events, store.ScanEvent{CodeID: c.ID, ScannedAt: open.AddDate(0, 0, d-5).Add(time.Duration(i) * time.Hour),
						DeviceType: "mobile", Country: "DE", VisitorHash: fmt.Sprintf("v%d", (i+d)%4)})
				}
			}
			if err := a.RecordScans(ctx, events); err != nil {
				t.Fatal(err)
			}
			views := []store.ScanQuery{{WorkspaceID: ws, TagID: tag.ID}, {WorkspaceID: ws, FolderID: folder.ID}}
			for i := range views {
				views[i].From, views[i].To = open.AddDate(0, 0, -6), open.AddDate(0, 0, 1)
			}
			done := make(chan struct{})
			var viewing sync.WaitGroup
			viewing.Go(func() {
				for {
					select {
					case <-done:
						return
					default:
					}
					for _, v := range views {
						if _, err := b.ScanReport(ctx, v); err != nil {
							t.Error(err)
							return
						}
					}
				}
			})
			change := func() error {
				for i, c := range codes[:8] {
					switch i % 3 {
					case 0:
						if _, err := a.DeleteDynamicCode(ctx, ws, c.ID, time.Now()); err != nil {
							return err
						}
					case 1: // leaves the tag, then goes
						if err := a.SetCodeTags(ctx, ws, true, c.ID, nil); err != nil {
							return err
						}
						if _, err := a.DeleteDynamicCode(ctx, ws, c.ID, time.Now()); err != nil {
							return err
						}
					}
					// A late scan into a closed day of a code that stays,
					// which goes into the groups' rows as it is saved.
					late := store.ScanEvent{CodeID: codes[8+i%4].ID, ScannedAt: open.AddDate(0, 0, -2-i%3).Add(time.Duration(i) * time.Minute), DeviceType: "desktop"}
					if err := a.RecordScans(ctx, []store.ScanEvent{late}); err != nil {
						return err
					}
					time.Sleep(time.Duration(i%3) * time.Millisecond)
				}
				return nil
			}
			err := change()
			close(done)
			viewing.Wait()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range views {
				checkRecount(t, b, v)
				checkRecount(t, a, v)
			}
		})
	}
}
