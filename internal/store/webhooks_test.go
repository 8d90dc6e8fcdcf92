package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// queued lists the events queued for the endpoint, oldest first, as
// "type" or "type:changed fields", with their data.
func queued(t *testing.T, st *store.Store, endpoint int64) ([]string, []map[string]any) {
	t.Helper()
	list, _, err := st.WebhookDeliveries(context.Background(), endpointWorkspace(t, st, endpoint), endpoint, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	var data []map[string]any
	for i := len(list) - 1; i >= 0; i-- {
		var body string
		storetest.QueryRow(t, st, `SELECT body FROM webhook_events WHERE uid = $1`, []any{list[i].EventUID}, &body)
		var ev struct {
			Type string
			Data map[string]any
		}
		if err := json.Unmarshal([]byte(body), &ev); err != nil {
			t.Fatal(err)
		}
		name := ev.Type
		if changed, ok := ev.Data["changed"].([]any); ok {
			var fields []string
			for _, f := range changed {
				fields = append(fields, f.(string))
			}
			name += ":" + strings.Join(fields, ",")
		}
		types = append(types, name)
		data = append(data, ev.Data)
	}
	return types, data
}

func endpointWorkspace(t *testing.T, st *store.Store, endpoint int64) int64 {
	var ws int64
	storetest.QueryRow(t, st, `SELECT workspace_id FROM webhook_endpoints WHERE id = $1`, []any{endpoint}, &ws)
	return ws
}

// Every change to a code queues its event in the change's own
// transaction: a change that fails queues nothing, and a change that
// changes nothing queues nothing.
func TestCodeChangesQueueEvents(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Now()
		u := storetest.CreateUser(t, st, "owner@example.com")
		ws := storetest.Personal(t, st, u.ID)
		all := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/all", Events: store.WebhookEventTypes, Secret: "whsec_c2VjcmV0"}
		if err := st.CreateWebhookEndpoint(ctx, all, 0, now); err != nil {
			t.Fatal(err)
		}
		deletes := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/deletes", Events: []string{store.EventCodeDeleted}, Secret: "whsec_c2VjcmV0"}
		if err := st.CreateWebhookEndpoint(ctx, deletes, 0, now); err != nil {
			t.Fatal(err)
		}

		d := storetest.CreateDynamic(t, st, u.ID, "menu")
		if err := st.CreateDynamicCode(ctx, storetest.NewDynamic(u.ID, "menu"), 0); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a taken short code: %v", err)
		}
		mustDo := func(_ any, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		mustDo(st.RenameDynamicCode(ctx, ws, d.ID, "Dinner", now))
		mustDo(st.RenameDynamicCode(ctx, ws, d.ID, "Dinner", now)) // no change
		mustDo(st.SetDynamicDestination(ctx, ws, d.ID, "https://example.com/dinner", now))
		mustDo(st.SetDynamicPaused(ctx, ws, d.ID, true, now))
		mustDo(st.SetDynamicPaused(ctx, ws, d.ID, false, now))
		mustDo(st.SetDynamicRouting(ctx, ws, d.ID, &store.Routing{ScanLimit: new(int64(5))}, now))
		tag, folder := &store.Tag{Name: "Summer", Color: "#22c55e"}, &store.Folder{Name: "Menus"}
		if err := st.CreateTag(ctx, ws, tag, now); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateFolder(ctx, ws, folder, now); err != nil {
			t.Fatal(err)
		}
		mustDo(nil, st.SetCodeTags(ctx, ws, true, d.ID, []int64{tag.ID}))
		mustDo(nil, st.SetCodeTags(ctx, ws, true, d.ID, []int64{tag.ID})) // no change
		mustDo(nil, st.SetCodeFolder(ctx, ws, true, d.ID, &folder.ID))
		if _, err := st.RenameDynamicCode(ctx, ws+1000, d.ID, "Theirs", now); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another workspace's rename: %v", err)
		}
		mustDo(st.DeleteDynamicCode(ctx, ws, d.ID, now))

		q := &store.QRCode{WorkspaceID: ws, UserID: u.ID, Name: "Flyer", QRType: "url", URL: "https://example.com/f",
			QRData: `{"url":"https://example.com/f"}`, Content: "https://example.com/f", Style: storetest.DefaultStyle()}
		if err := st.CreateQRCode(ctx, q); err != nil {
			t.Fatal(err)
		}
		mustDo(st.RenameQRCode(ctx, ws, q.ID, "Poster"))
		mustDo(st.DuplicateQRCode(ctx, ws, q.ID, store.QRCodeCopy{Name: "Poster copy", CreatedAt: now}))
		if err := st.DeleteQRCode(ctx, ws, q.ID, now); err != nil {
			t.Fatal(err)
		}

		types, data := queued(t, st, all.ID)
		want := []string{"code.created", "code.updated:name", "code.updated:destination", "code.paused", "code.resumed",
			"code.updated:routing", "code.updated:tags", "code.updated:folder", "code.deleted",
			"code.created", "code.updated:name", "code.created", "code.deleted"}
		if !slices.Equal(types, want) {
			t.Fatalf("events\n%v\nwant\n%v", types, want)
		}
		if data[0]["id"] != "d_"+itoa(d.ID) || data[0]["shortCode"] != "menu" || data[0]["destination"] != "https://example.com/menu" ||
			data[2]["destination"] != "https://example.com/dinner" || data[3]["isPaused"] != true || data[8]["name"] != "Dinner" ||
			data[9]["id"] != "s_"+itoa(q.ID) || data[11]["name"] != "Poster copy" {
			t.Errorf("data %v", data)
		}
		if types, _ := queued(t, st, deletes.ID); !slices.Equal(types, []string{"code.deleted", "code.deleted"}) {
			t.Errorf("the deletes endpoint got %v", types)
		}
		// A workspace with no endpoint writes no event at all.
		other := storetest.CreateUser(t, st, "other@example.com")
		before := storetest.Count(t, st, "webhook_events")
		storetest.CreateDynamic(t, st, other.ID, "quiet")
		if after := storetest.Count(t, st, "webhook_events"); after != before {
			t.Errorf("%d events for a workspace without endpoints", after-before)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A payment is told once, however often Stripe repeats it; a finished bulk
// job is told with its counts.
func TestPaymentAndBulkEvents(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "owner@example.com")
		ws := storetest.Personal(t, st, u.ID)
		e := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/", Secret: "whsec_c2VjcmV0",
			Events: []string{store.EventPaymentSucceeded, store.EventBulkCompleted}}
		if err := st.CreateWebhookEndpoint(ctx, e, 0, time.Now()); err != nil {
			t.Fatal(err)
		}
		p := &store.PaymentProduct{UserID: &u.ID, WorkspaceID: &ws, ProductName: "Coffee", ProductPrice: 350}
		if err := st.CreatePaymentProduct(ctx, p); err != nil {
			t.Fatal(err)
		}
		pay := store.Payment{PaymentIntentID: "pi_1", ProductID: &p.ID, Amount: 350, Currency: "eur", Status: "succeeded"}
		for i, id := range []string{"evt_1", "evt_2"} {
			if _, err := st.ApplyPayment(ctx, store.StripeEvent{ID: id, Type: "payment_intent.succeeded", ObjectID: "pi_1", At: time.Now().Add(time.Duration(i) * time.Second)}, pay); err != nil {
				t.Fatal(err)
			}
		}
		job := &store.BulkJob{UserID: u.ID, FileName: "codes.csv", Total: 2}
		if err := st.CreateBulkJob(ctx, job, nil); err != nil {
			t.Fatal(err)
		}
		if err := st.FinishBulkJob(ctx, job.ID, store.BulkDone, "", time.Now()); err != nil {
			t.Fatal(err)
		}
		types, data := queued(t, st, e.ID)
		if !slices.Equal(types, []string{"payment.succeeded", "bulk.completed"}) {
			t.Fatalf("events %v", types)
		}
		if data[0]["paymentIntentId"] != "pi_1" || data[0]["amount"] != 350.0 || data[0]["currency"] != "eur" ||
			data[1]["id"] != float64(job.ID) || data[1]["fileName"] != "codes.csv" || data[1]["status"] != store.BulkDone {
			t.Errorf("data %v", data)
		}
	})
}

// Two instances claiming at once never hold the same delivery; a lease
// runs out and the delivery can be claimed again.
func TestWebhookClaimsAreExclusive(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			ctx := context.Background()
			u := storetest.CreateUser(t, a, "owner@example.com")
			ws := storetest.Personal(t, a, u.ID)
			e := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/", Secret: "whsec_c2VjcmV0", Events: []string{store.EventWebhookTest}}
			if err := a.CreateWebhookEndpoint(ctx, e, 0, time.Now()); err != nil {
				t.Fatal(err)
			}
			for range 60 {
				if err := a.SendWebhookTest(ctx, ws, e.ID, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			now := time.Now().Add(time.Second)
			var mu sync.Mutex
			held := map[int64]string{}
			var wg sync.WaitGroup
			for i, st := range []*store.Store{a, b, a, b} {
				owner := string(rune('p' + i))
				wg.Go(func() {
					for {
						jobs, err := st.ClaimWebhookDeliveries(ctx, owner, now, time.Minute, 7)
						if err != nil {
							t.Error(err)
							return
						}
						if len(jobs) == 0 {
							return
						}
						mu.Lock()
						for _, j := range jobs {
							if prev, dup := held[j.ID]; dup {
								t.Errorf("delivery %d claimed by %s and %s", j.ID, prev, owner)
							}
							held[j.ID] = owner
						}
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if len(held) != 60 {
				t.Fatalf("%d of 60 claimed", len(held))
			}
			if jobs, _ := b.ClaimWebhookDeliveries(ctx, "late", now.Add(30*time.Second), time.Minute, 100); len(jobs) != 0 {
				t.Errorf("%d claimed while leased", len(jobs))
			}
			if jobs, _ := b.ClaimWebhookDeliveries(ctx, "late", now.Add(61*time.Second), time.Minute, 100); len(jobs) != 60 {
				t.Errorf("%d claimed after the leases ran out", len(jobs))
			}
		})
	}
}

// A batch looks through a bounded number of scan ids: a workspace whose
// scans are few among another's many gets them in a later batch, each
// once, and a batch never reads more than WebhookScanReach ids.
func TestScanBatchesReachPastOtherWorkspaces(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Now()
		u, other := storetest.CreateUser(t, st, "owner@example.com"), storetest.CreateUser(t, st, "busy@example.com")
		ours, theirs := storetest.CreateDynamic(t, st, u.ID, "quiet"), storetest.CreateDynamic(t, st, other.ID, "busy")
		e := &store.WebhookEndpoint{WorkspaceID: storetest.Personal(t, st, u.ID), URL: "https://hooks.example.com/scans",
			Events: []string{store.EventScanCreated}, Secret: "whsec_c2VjcmV0"}
		if err := st.CreateWebhookEndpoint(ctx, e, 0, now); err != nil {
			t.Fatal(err)
		}
		record := func(code int64, n int, referrer string) {
			t.Helper()
			batch := make([]store.ScanEvent, n)
			for i := range batch {
				batch[i] = store.ScanEvent{CodeID: code, ScannedAt: now, Referrer: fmt.Sprintf("%s/%d", referrer, i)}
			}
			if err := st.RecordScans(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		record(theirs.ID, store.WebhookScanReach+500, "https://theirs.example")
		record(ours.ID, 3, "https://after.example")

		var batches [][]string
		for i := range 3 {
			if _, err := st.BatchWebhookScans(ctx, now.Add(time.Duration(i)*time.Second)); err != nil {
				t.Fatal(err)
			}
			_, data := queued(t, st, e.ID)
			batches = batches[:0]
			for _, d := range data {
				var refs []string
				for _, s := range d["scans"].([]any) {
					refs = append(refs, s.(map[string]any)["referrer"].(string))
				}
				batches = append(batches, refs)
			}
			if i == 0 && len(batches) != 0 {
				t.Fatalf("the first batch reached past %d ids: %v", store.WebhookScanReach, batches)
			}
		}
		want := [][]string{{"https://after.example/0", "https://after.example/1", "https://after.example/2"}}
		if !slices.EqualFunc(batches, want, slices.Equal) {
			t.Fatalf("batches %v, want %v", batches, want)
		}
	})
}

// A retry makes a delivery due now: a failed one, a pending one waiting
// for its next attempt, a succeeded one. A delivery a runner holds is
// ErrConflict and stays with its runner: no second claim sends it twice.
func TestRetryWebhookDelivery(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "owner@example.com")
		ws := storetest.Personal(t, s, u.ID)
		e := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/", Secret: "whsec_c2VjcmV0", Events: []string{store.EventWebhookTest}}
		now := time.Now().Truncate(time.Second)
		if err := s.CreateWebhookEndpoint(ctx, e, 0, now); err != nil {
			t.Fatal(err)
		}
		if err := s.SendWebhookTest(ctx, ws, e.ID, now); err != nil {
			t.Fatal(err)
		}
		claim := func(owner string, at time.Time) []*store.WebhookJob {
			t.Helper()
			jobs, err := s.ClaimWebhookDeliveries(ctx, owner, at, time.Minute, 10)
			if err != nil {
				t.Fatal(err)
			}
			return jobs
		}
		jobs := claim("a", now.Add(time.Second))
		if len(jobs) != 1 {
			t.Fatalf("%d jobs claimed, want 1", len(jobs))
		}
		id := jobs[0].ID
		// In flight: refused, and nobody else may take it.
		if err := s.RetryWebhookDelivery(ctx, ws, e.ID, id, now.Add(2*time.Second)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("retry in flight: %v, want ErrConflict", err)
		}
		if jobs := claim("b", now.Add(3*time.Second)); len(jobs) != 0 {
			t.Fatalf("a delivery in flight was claimed again after a retry: %d", len(jobs))
		}
		// A failure schedules the next attempt an hour on: pending, not due.
		later := now.Add(time.Hour)
		if _, err := s.FinishWebhookAttempt(ctx, id, "a", store.WebhookAttempt{StatusCode: 500, Error: "HTTP 500", NextAttemptAt: &later}, now.Add(4*time.Second)); err != nil {
			t.Fatal(err)
		}
		if jobs := claim("b", now.Add(5*time.Second)); len(jobs) != 0 {
			t.Fatalf("claimed before its next attempt: %d", len(jobs))
		}
		if err := s.RetryWebhookDelivery(ctx, ws, e.ID, id, now.Add(6*time.Second)); err != nil {
			t.Fatalf("retry of a pending delivery: %v", err)
		}
		jobs = claim("b", now.Add(7*time.Second))
		if len(jobs) != 1 || jobs[0].ID != id || jobs[0].Attempts != 1 {
			t.Fatalf("after the retry: %+v, want delivery %d with its 1 attempt kept", jobs, id)
		}
		if _, err := s.FinishWebhookAttempt(ctx, id, "b", store.WebhookAttempt{OK: true, StatusCode: 200}, now.Add(8*time.Second)); err != nil {
			t.Fatal(err)
		}
		if err := s.RetryWebhookDelivery(ctx, ws, e.ID, id, now.Add(9*time.Second)); err != nil {
			t.Fatalf("retry of a succeeded delivery: %v", err)
		}
		if jobs := claim("c", now.Add(10*time.Second)); len(jobs) != 1 {
			t.Fatalf("a succeeded delivery's retry: %d jobs", len(jobs))
		}
		if err := s.RetryWebhookDelivery(ctx, ws, e.ID, id+1000, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an unknown delivery: %v", err)
		}
		if err := s.RetryWebhookDelivery(ctx, ws+1000, e.ID, id, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's delivery: %v", err)
		}
	})
}
