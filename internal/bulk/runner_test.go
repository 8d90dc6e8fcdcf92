package bulk

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// testClock is a time source a test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// queueJob saves a job of rows static codes (every fifth dynamic) and one
// refused row for user.
func queueJob(t *testing.T, st *store.Store, user *store.User, rows, dynamicLimit int, now time.Time) *store.BulkJob {
	t.Helper()
	items := []store.BulkItem{{Row: 2, Status: store.ItemFailed, Column: "url", Error: "Please enter a valid URL"}}
	for i := range rows {
		url := fmt.Sprintf("https://example.com/item/%d", i)
		c := store.BulkCode{Name: fmt.Sprintf("Item %d", i), QRType: "url", URL: url, QRData: `{"url":"` + url + `"}`,
			Content: url, Style: storetest.DefaultStyle()}
		if i%5 == 0 {
			c.Dynamic, c.Destination, c.Content = true, url, ""
		}
		items = append(items, store.BulkItem{Row: i + 3, Status: store.ItemPending, Code: c})
	}
	j := &store.BulkJob{UserID: user.ID, FileName: "rows.csv", FileSHA256: "x", Total: len(items), Processed: 1, Failed: 1, DynamicLimit: dynamicLimit, CreatedAt: now}
	if err := st.CreateBulkJob(context.Background(), j, items); err != nil {
		t.Fatal(err)
	}
	return j
}

// waitFor polls the job until done reports true, failing after a while.
func waitFor(t *testing.T, st *store.Store, j *store.BulkJob, done func(*store.BulkJob) bool) *store.BulkJob {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := st.BulkJob(context.Background(), j.UserID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if done(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("job stuck: %+v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkSavedOnce checks that every pending row of the job became exactly
// one code: as many codes as rows, and each item points at its own.
func checkSavedOnce(t *testing.T, st *store.Store, j *store.BulkJob, rows int) {
	t.Helper()
	if n := storetest.Count(t, st, "qr_codes") + storetest.Count(t, st, "dynamic_qr_codes"); n != rows {
		t.Fatalf("%d codes saved for %d rows", n, rows)
	}
	items, err := st.BulkItems(context.Background(), j.ID, 0, rows+10, store.ItemDone)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != rows {
		t.Fatalf("%d items done, want %d", len(items), rows)
	}
	seen := map[string]bool{}
	for _, it := range items {
		key := "d"
		switch {
		case it.QRCodeID != nil:
			key = fmt.Sprint("q", *it.QRCodeID)
		case it.DynamicCodeID != nil && it.ShortCode != "":
			key = fmt.Sprint("d", *it.DynamicCodeID)
		default:
			t.Fatalf("row %d is done without a code", it.Row)
		}
		if seen[key] {
			t.Fatalf("row %d shares code %s", it.Row, key)
		}
		seen[key] = true
	}
}

func TestRunnerResumesAStoppedJob(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		clock := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		user := storetest.CreateUser(t, st, "bulk@example.com")
		const rows = 250
		j := queueJob(t, st, user, rows, 0, clock.Now())

		// The first runner stops after one batch: a graceful stop releases
		// the job with its saved rows.
		ctx, stop := context.WithCancel(context.Background())
		first := NewRunner(st, nil, clock.Now)
		first.afterBatch = func(*store.BulkJob) { stop() }
		first.Run(ctx)
		got := waitFor(t, st, j, func(*store.BulkJob) bool { return true })
		if got.Status != store.BulkRunning || got.Processed != 1+batchSize {
			t.Fatalf("after a stop: status %s, processed %d; want running, %d", got.Status, got.Processed, 1+batchSize)
		}

		second := NewRunner(st, nil, clock.Now)
		ctx2, stop2 := context.WithCancel(context.Background())
		defer stop2()
		go second.Run(ctx2)
		got = waitFor(t, st, j, func(j *store.BulkJob) bool { return j.Status == store.BulkDone })
		if got.Processed != rows+1 || got.Failed != 1 || got.Attempts != 2 {
			t.Fatalf("done job: %+v", got)
		}
		checkSavedOnce(t, st, j, rows)
	})
}

func TestRunnerTakesOverAJobWhoseRunnerDied(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		clock := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		user := storetest.CreateUser(t, st, "bulk@example.com")
		const rows = 120
		j := queueJob(t, st, user, rows, 0, clock.Now())

		// A runner that was killed: it holds the lease and saved one batch,
		// and never releases it.
		ctx := context.Background()
		now := clock.Now()
		claimed, err := st.ClaimBulkJob(ctx, now, now.Add(lease))
		if err != nil {
			t.Fatal(err)
		}
		items, err := st.BulkItems(ctx, j.ID, 0, 40, store.ItemPending)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SaveBulkItems(ctx, claimed, items, now, now.Add(lease), msgLimitAtSave); err != nil {
			t.Fatal(err)
		}

		// While the lease holds, another runner leaves the job alone.
		other := NewRunner(st, nil, clock.Now)
		other.drain(ctx)
		if got := waitFor(t, st, j, func(*store.BulkJob) bool { return true }); got.Processed != 41 {
			t.Fatalf("a leased job was touched: processed %d", got.Processed)
		}
		// Saving the same items again (the dead runner's retry) saves nothing.
		if err := st.SaveBulkItems(ctx, claimed, items, now, now.Add(lease), msgLimitAtSave); err != store.ErrItemTaken {
			t.Fatalf("saving done items again: %v, want ErrItemTaken", err)
		}

		clock.Advance(lease + time.Second)
		other.drain(ctx)
		got := waitFor(t, st, j, func(j *store.BulkJob) bool { return j.Status == store.BulkDone })
		if got.Processed != rows+1 {
			t.Fatalf("done job: %+v", got)
		}
		checkSavedOnce(t, st, j, rows)
	})
}

func TestRunnerGivesUpAJobThatKeepsStopping(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		clock := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		user := storetest.CreateUser(t, st, "bulk@example.com")
		j := queueJob(t, st, user, 10, 0, clock.Now())
		ctx := context.Background()
		for range maxAttempts {
			now := clock.Now()
			if _, err := st.ClaimBulkJob(ctx, now, now.Add(lease)); err != nil {
				t.Fatal(err)
			}
			clock.Advance(lease + time.Second)
		}
		NewRunner(st, nil, clock.Now).drain(ctx)
		got := waitFor(t, st, j, func(*store.BulkJob) bool { return true })
		if got.Status != store.BulkFailed || got.Error != msgGaveUp || got.Processed != got.Total || got.Failed != got.Total {
			t.Fatalf("given-up job: %+v", got)
		}
		if n := storetest.Count(t, st, "qr_codes"); n != 0 {
			t.Fatalf("%d codes saved by a given-up job", n)
		}
	})
}

func TestRunnerKeepsTheDynamicLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		clock := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		user := storetest.CreateUser(t, st, "bulk@example.com")
		j := queueJob(t, st, user, 20, 2, clock.Now()) // rows 0, 5, 10, 15 dynamic
		NewRunner(st, nil, clock.Now).drain(context.Background())
		got := waitFor(t, st, j, func(j *store.BulkJob) bool { return j.Status == store.BulkDone })
		if got.Failed != 1+2 || storetest.Count(t, st, "dynamic_qr_codes") != 2 || storetest.Count(t, st, "qr_codes") != 16 {
			t.Fatalf("limit 2: job %+v, %d dynamic, %d static", got, storetest.Count(t, st, "dynamic_qr_codes"), storetest.Count(t, st, "qr_codes"))
		}
	})
}
