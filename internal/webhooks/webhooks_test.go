package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/webhooks"
)

var quiet = slog.New(slog.DiscardHandler)

// clock is the runner's time, moved by the test so retries hours apart
// take no time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock starts an hour ahead, so that events queued at the real time
// are due on it.
func newClock() *clock { return &clock{t: time.Now().UTC().Add(time.Hour).Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// hit is one request a receiver got, with what its own check of the
// signature found.
type hit struct {
	id, timestamp, signature string
	body                     []byte
	verified                 bool // by this test's HMAC
	library                  bool // by the standard-webhooks library
}

// receiver is an HTTP endpoint that answers with status(n) to its nth
// request (from 1) and verifies every signature itself.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	secret string
	status func(n int) int
	mu     sync.Mutex
	hits   []hit
}

func newReceiver(t *testing.T, status func(n int) int) *receiver {
	rc := &receiver{t: t, status: status}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := hit{id: r.Header.Get("webhook-id"), timestamp: r.Header.Get("webhook-timestamp"),
			signature: r.Header.Get("webhook-signature"), body: body}
		rc.mu.Lock()
		secret := rc.secret
		rc.mu.Unlock()
		h.verified = verify(secret, h)
		if wh, err := standardwebhooks.NewWebhook(secret); err == nil {
			h.library = wh.VerifyIgnoringTimestamp(body, r.Header) == nil
		}
		rc.mu.Lock()
		rc.hits = append(rc.hits, h)
		n := len(rc.hits)
		rc.mu.Unlock()
		w.WriteHeader(rc.status(n))
		io.WriteString(w, "answer "+strconv.Itoa(n))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) got() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

// verify checks a Standard Webhooks signature without the package under
// test: HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret's
// base64-decoded bytes, as one of the space-separated "v1,…" values.
func verify(secret string, h hit) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) < 24 {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.id + "." + h.timestamp + "."))
	mac.Write(h.body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(h.signature) {
		raw, ok := strings.CutPrefix(sig, "v1,")
		got, err := base64.StdEncoding.DecodeString(raw)
		if ok && err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// fixture is a workspace with its owner.
type fixture struct {
	st    *store.Store
	ws    int64
	owner *store.User
}

func newFixture(t *testing.T, st *store.Store, email string) fixture {
	u := storetest.CreateUser(t, st, email)
	return fixture{st: st, ws: storetest.Personal(t, st, u.ID), owner: u}
}

// endpoint saves an endpoint to url as the store has it, with no URL
// check (the server's), so the dial-time check is what is tested.
func (f fixture) endpoint(t *testing.T, url string, events ...string) *store.WebhookEndpoint {
	t.Helper()
	e := &store.WebhookEndpoint{WorkspaceID: f.ws, URL: url, Events: events, Secret: webhooks.NewSecret()}
	if err := f.st.CreateWebhookEndpoint(context.Background(), e, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	return e
}

func (f fixture) deliveries(t *testing.T, endpoint int64) []*store.WebhookDelivery {
	t.Helper()
	list, _, err := f.st.WebhookDeliveries(context.Background(), f.ws, endpoint, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func (f fixture) test(t *testing.T, endpoint int64) {
	t.Helper()
	if err := f.st.SendWebhookTest(context.Background(), f.ws, endpoint, time.Now()); err != nil {
		t.Fatal(err)
	}
}

var private = netguard.Policy{AllowHTTP: true, AllowPrivate: true}

func runner(st *store.Store, c *clock, o webhooks.Options) *webhooks.Runner {
	o.Store, o.Logger, o.BaseURL = st, quiet, "https://sq.example"
	if o.Mailer == nil {
		o.Mailer = mail.LogMailer{Logger: quiet}
	}
	if c != nil {
		o.Now = c.Now
	}
	if o.Poll == 0 {
		o.Poll = 5 * time.Millisecond
	}
	return webhooks.NewRunner(o)
}

// run starts r until the test ends, or until the returned stop is called.
func run(t *testing.T, r *webhooks.Runner) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// waitFor polls cond for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// A change to a code reaches the endpoints subscribed to its event, signed
// so that an independent HMAC check and the standard-webhooks library both
// accept it; endpoints not subscribed, disabled or of another workspace
// get nothing.
func TestSignedEventsReachSubscribers(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		f, other := newFixture(t, st, "owner@example.com"), newFixture(t, st, "other@example.com")
		rc := newReceiver(t, func(int) int { return http.StatusNoContent })
		bystander := newReceiver(t, func(int) int { return http.StatusOK })
		e := f.endpoint(t, rc.srv.URL+"/hook", store.EventCodeCreated, store.EventCodePaused)
		rc.secret = e.Secret
		f.endpoint(t, bystander.srv.URL, store.EventCodeDeleted)
		off := f.endpoint(t, bystander.srv.URL, store.EventCodeCreated)
		if _, err := st.UpdateWebhookEndpoint(ctx, f.ws, off.ID, store.WebhookPatch{Enabled: new(bool)}, time.Now()); err != nil {
			t.Fatal(err)
		}
		other.endpoint(t, bystander.srv.URL, store.EventCodeCreated, store.EventCodePaused)

		d := storetest.NewDynamic(f.owner.ID, "menu1")
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := st.SetDynamicPaused(ctx, f.ws, d.ID, true, time.Now()); err != nil {
			t.Fatal(err)
		}
		run(t, runner(st, nil, webhooks.Options{Policy: private}))
		waitFor(t, "two deliveries", func() bool { return len(rc.got()) >= 2 })
		hits := rc.got()
		var types []string
		for _, h := range hits {
			if !h.verified || !h.library {
				t.Errorf("signature %q of %s not accepted (own check %v, library %v)", h.signature, h.id, h.verified, h.library)
			}
			if ts, _ := strconv.ParseInt(h.timestamp, 10, 64); time.Since(time.Unix(ts, 0)).Abs() > time.Minute {
				t.Errorf("webhook-timestamp %s is not now", h.timestamp)
			}
			var body struct {
				Type      string
				Timestamp time.Time
				Data      map[string]any
			}
			if err := json.Unmarshal(h.body, &body); err != nil {
				t.Fatal(err)
			}
			types = append(types, body.Type)
			if body.Data["id"] != "d_"+strconv.FormatInt(d.ID, 10) || body.Data["shortCode"] != "menu1" || body.Timestamp.IsZero() {
				t.Errorf("%s data = %v", body.Type, body.Data)
			}
			if body.Type == store.EventCodePaused && body.Data["isPaused"] != true {
				t.Errorf("code.paused data = %v", body.Data)
			}
		}
		// Deliveries run side by side: no order is promised.
		if slices.Sort(types); strings.Join(types, ",") != "code.created,code.paused" {
			t.Errorf("events = %v", types)
		}
		list := f.deliveries(t, e.ID)
		waitFor(t, "recorded deliveries", func() bool {
			list = f.deliveries(t, e.ID)
			return len(list) == 2 && list[0].Status == store.DeliverySucceeded && list[1].Status == store.DeliverySucceeded
		})
		for _, d := range list {
			if (d.EventUID != hits[0].id && d.EventUID != hits[1].id) || d.Attempts != 1 || *d.LastStatusCode != 204 {
				t.Errorf("delivery = %+v, hits %s %s", d, hits[0].id, hits[1].id)
			}
		}
		time.Sleep(50 * time.Millisecond)
		if n := len(bystander.got()); n != 0 {
			t.Errorf("unsubscribed, disabled and other workspaces' endpoints got %d requests", n)
		}
	})
}

// A receiver answering 500 twice then 200 gets the same event three
// times, with the same webhook-id and a fresh signature each time, 5 s and
// then 5 min apart.
func TestRetriesKeepTheEventID(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		c := newClock()
		rc := newReceiver(t, func(n int) int { return map[bool]int{true: 500, false: 200}[n <= 2] })
		e := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
		rc.secret = e.Secret
		f.test(t, e.ID)
		run(t, runner(st, c, webhooks.Options{Policy: private}))

		waitFor(t, "the first attempt", func() bool { return pending(f.deliveries(t, e.ID)[0], 1) })
		d := f.deliveries(t, e.ID)[0]
		if !d.NextAttemptAt.Equal(c.Now().Add(5*time.Second)) || *d.LastStatusCode != 500 || d.LastError != "HTTP 500: answer 1" {
			t.Fatalf("after one 500: %+v (next %v, now %v)", d, d.NextAttemptAt, c.Now())
		}
		c.Advance(4 * time.Second)
		time.Sleep(50 * time.Millisecond)
		if n := len(rc.got()); n != 1 {
			t.Fatalf("retried before its time: %d requests", n)
		}
		c.Advance(time.Second)
		waitFor(t, "the second attempt", func() bool { return pending(f.deliveries(t, e.ID)[0], 2) })
		if d := f.deliveries(t, e.ID)[0]; !d.NextAttemptAt.Equal(c.Now().Add(5 * time.Minute)) {
			t.Fatalf("second retry due %v, want 5 min after %v", d.NextAttemptAt, c.Now())
		}
		c.Advance(5 * time.Minute)
		waitFor(t, "success", func() bool { return f.deliveries(t, e.ID)[0].Status == store.DeliverySucceeded })
		hits := rc.got()
		if len(hits) != 3 {
			t.Fatalf("%d requests", len(hits))
		}
		for _, h := range hits {
			if h.id != hits[0].id || !strings.HasPrefix(h.id, "msg_") || !h.verified || !h.library {
				t.Errorf("attempt %+v: id %s (first %s), verified %v/%v", h.timestamp, h.id, hits[0].id, h.verified, h.library)
			}
		}
		if hits[0].timestamp == hits[2].timestamp {
			t.Error("every attempt carries the same webhook-timestamp")
		}
		if d := f.deliveries(t, e.ID)[0]; d.Attempts != 3 || *d.LastStatusCode != 200 || d.EventUID != hits[0].id {
			t.Errorf("delivery = %+v", d)
		}
	})
}

func pending(d *store.WebhookDelivery, attempts int) bool {
	return d.Status == store.DeliveryPending && d.Attempts == attempts
}

// After six retries the delivery is failed; the schedule is 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h. A manual retry makes it pending and sends it
// once more.
func TestBackoffThenFailed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		c := newClock()
		fail := true
		var mu sync.Mutex
		rc := newReceiver(t, func(int) int {
			mu.Lock()
			defer mu.Unlock()
			return map[bool]int{true: 502, false: 200}[fail]
		})
		e := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
		rc.secret = e.Secret
		f.test(t, e.ID)
		run(t, runner(st, c, webhooks.Options{Policy: private}))
		for i, wait := range webhooks.Backoff {
			waitFor(t, fmt.Sprintf("attempt %d", i+1), func() bool { return pending(f.deliveries(t, e.ID)[0], i+1) })
			if d := f.deliveries(t, e.ID)[0]; d.NextAttemptAt.Sub(c.Now()) != wait {
				t.Fatalf("after attempt %d the next is in %v, want %v", i+1, d.NextAttemptAt.Sub(c.Now()), wait)
			}
			c.Advance(wait)
		}
		waitFor(t, "failed", func() bool { return f.deliveries(t, e.ID)[0].Status == store.DeliveryFailed })
		c.Advance(24 * time.Hour)
		time.Sleep(50 * time.Millisecond)
		if d := f.deliveries(t, e.ID)[0]; d.Attempts != 7 || len(rc.got()) != 7 {
			t.Fatalf("failed after %d attempts, %d requests; want 7", d.Attempts, len(rc.got()))
		}
		mu.Lock()
		fail = false
		mu.Unlock()
		d := f.deliveries(t, e.ID)[0]
		if err := st.RetryWebhookDelivery(context.Background(), f.ws, e.ID, d.ID, c.Now()); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the manual retry", func() bool { return f.deliveries(t, e.ID)[0].Status == store.DeliverySucceeded })
		if hits := rc.got(); len(hits) != 8 || hits[7].id != hits[0].id {
			t.Errorf("%d requests after the retry", len(hits))
		}
	})
}

// An instance stopped between a 500 and the retry, and one killed while
// sending, lose nothing: a new process (its own store and runner) sends
// the retry when due, and the killed one's delivery once its lease runs
// out, each exactly once.
func TestRestartMidRetryDeliversOnce(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			first, second := storetest.OpenTwice(t, db)
			f := newFixture(t, first, "owner@example.com")
			c := newClock()
			rc := newReceiver(t, func(n int) int { return map[bool]int{true: 500, false: 200}[n == 1] })
			e := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
			rc.secret = e.Secret
			f.test(t, e.ID)
			stop := run(t, runner(first, c, webhooks.Options{Policy: private, Leased: jobs.Leased{Owner: "first"}}))
			waitFor(t, "the failed attempt", func() bool { return pending(f.deliveries(t, e.ID)[0], 1) })
			stop()

			// The "killed" instance claimed a second event and never finished.
			f.test(t, e.ID)
			claimed, err := first.ClaimWebhookDeliveries(context.Background(), "killed", c.Now(), time.Minute, 10)
			if err != nil || len(claimed) != 1 {
				t.Fatalf("claim: %v, %d jobs", err, len(claimed))
			}

			c.Advance(5 * time.Second)
			run(t, runner(second, c, webhooks.Options{Policy: private, Leased: jobs.Leased{Owner: "second"}}))
			waitFor(t, "the retry", func() bool { return len(rc.got()) == 2 })
			time.Sleep(50 * time.Millisecond)
			if n := len(rc.got()); n != 2 {
				t.Fatalf("the leased delivery was sent before its lease ran out (%d requests)", n)
			}
			c.Advance(time.Minute)
			waitFor(t, "the abandoned delivery", func() bool { return len(rc.got()) == 3 })
			// Recorded before the clock jumps: a day's jump while it is in
			// flight would end its lease and, rightly, send it again.
			waitFor(t, "the abandoned delivery's success", func() bool {
				return !slices.ContainsFunc(f.deliveries(t, e.ID), func(d *store.WebhookDelivery) bool { return d.Status != store.DeliverySucceeded })
			})
			c.Advance(24 * time.Hour)
			time.Sleep(100 * time.Millisecond)
			hits := rc.got()
			if len(hits) != 3 || hits[0].id != hits[1].id || hits[2].id == hits[0].id || hits[2].id != claimed[0].EventUID {
				t.Fatalf("requests: %d, ids %v", len(hits), hits)
			}
			for _, d := range f.deliveries(t, e.ID) {
				if d.Status != store.DeliverySucceeded {
					t.Errorf("delivery %+v", d)
				}
			}
		})
	}
}

// 1,000 scans recorded in parallel while the runner batches them reach the
// receiver in batches of at most 100, at most one a second, each scan in
// exactly one batch; another workspace's scans in none.
func TestScanBatchesHoldEachScanOnce(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		f, other := newFixture(t, st, "owner@example.com"), newFixture(t, st, "other@example.com")
		code := storetest.CreateDynamic(t, st, f.owner.ID, "busy")
		foreign := storetest.CreateDynamic(t, st, other.owner.ID, "theirs")
		// Scans from before the endpoint existed are not sent.
		if err := st.RecordScans(ctx, []store.ScanEvent{{CodeID: code.ID, ScannedAt: time.Now(), Referrer: "before"}}); err != nil {
			t.Fatal(err)
		}
		rc := newReceiver(t, func(int) int { return 200 })
		e := f.endpoint(t, rc.srv.URL, store.EventScanCreated)
		rc.secret = e.Secret
		c := newClock()
		// The clock moves a second every 3 ms while scans come in: the
		// default minute's lease would last 180 ms, which a loaded machine's
		// delivery can outlive (and a batch be claimed again). A day's
		// lease lasts longer than the test.
		run(t, runner(st, c, webhooks.Options{Policy: private, Leased: jobs.Leased{Lease: 24 * time.Hour}}))
		// The clock moves a second at a time while scans come in.
		ticking, stopTicking := context.WithCancel(ctx)
		go func() {
			for ticking.Err() == nil {
				c.Advance(time.Second)
				time.Sleep(3 * time.Millisecond)
			}
		}()
		defer stopTicking()

		const writers, each, chunk = 10, 100, 10
		var wg sync.WaitGroup
		var failed atomic.Int64
		for w := range writers {
			wg.Go(func() {
				for start := 0; start < each; start += chunk {
					var batch []store.ScanEvent
					for i := start; i < start+chunk; i++ {
						n := w*each + i
						batch = append(batch, store.ScanEvent{CodeID: code.ID, ScannedAt: time.Now(), DeviceType: "mobile",
							Referrer: fmt.Sprintf("https://ref.example/%d", n), Country: "FR"},
							store.ScanEvent{CodeID: foreign.ID, ScannedAt: time.Now(), Referrer: "foreign"})
					}
					if err := st.RecordScans(ctx, batch); err != nil {
						failed.Add(1)
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		seen := map[string]int{}
		var stamps []time.Time
		waitFor(t, "1,000 scans", func() bool {
			clear(seen)
			stamps = stamps[:0]
			for _, h := range rc.got() {
				var body struct {
					Type      string
					Timestamp time.Time
					Data      struct{ Scans []map[string]any }
				}
				if err := json.Unmarshal(h.body, &body); err != nil || body.Type != store.EventScanCreated || !h.verified {
					t.Fatalf("batch %s: %v", h.body, err)
				}
				if n := len(body.Data.Scans); n == 0 || n > 100 {
					t.Fatalf("a batch of %d scans", n)
				}
				stamps = append(stamps, body.Timestamp)
				for _, s := range body.Data.Scans {
					seen[s["referrer"].(string)]++
					if s["code_id"] != float64(code.ID) || s["short_code"] != "busy" || s["device_type"] != "mobile" ||
						s["country"] != "FR" || s["is_bot"] != false || s["scanned_at"] == "" {
						t.Fatalf("scan %v", s)
					}
				}
			}
			return len(seen) >= writers*each
		})
		stopTicking()
		time.Sleep(50 * time.Millisecond)
		total := 0
		for ref, n := range seen {
			if n != 1 || !strings.HasPrefix(ref, "https://ref.example/") {
				t.Errorf("scan %s sent %d times", ref, n)
			}
			total += n
		}
		if total != writers*each || len(rc.got()) < 10 {
			t.Errorf("%d scans in %d batches", total, len(rc.got()))
		}
		// Batches are sent side by side; by their own time they are a
		// second apart at least.
		slices.SortFunc(stamps, time.Time.Compare)
		for i := 1; i < len(stamps); i++ {
			if stamps[i].Sub(stamps[i-1]) < time.Second {
				t.Errorf("batches %d and %d are %v apart", i-1, i, stamps[i].Sub(stamps[i-1]))
			}
		}
	})
}

// Every address form that reaches the host itself or a private network is
// refused on the address dialled, whatever the saved URL says, and the
// receiver behind them gets nothing.
func TestPrivateAddressesRefusedWhenDialled(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		rc := newReceiver(t, func(int) int { return 200 })
		port := rc.srv.Listener.Addr().(*net.TCPAddr).Port
		urls := map[string]string{
			"loopback":         fmt.Sprintf("http://127.0.0.1:%d/", port),
			"IPv6 loopback":    fmt.Sprintf("http://[::1]:%d/", port),
			"private":          fmt.Sprintf("http://10.0.0.7:%d/", port),
			"metadata":         "http://169.254.169.254/latest/meta-data/",
			"name to loopback": fmt.Sprintf("http://localhost:%d/", port),
			"mapped IPv4":      fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port),
		}
		ids := map[string]int64{}
		for name, u := range urls {
			e := f.endpoint(t, u, store.EventWebhookTest)
			ids[name] = e.ID
			f.test(t, e.ID)
		}
		stop := run(t, runner(st, newClock(), webhooks.Options{Policy: netguard.Policy{AllowHTTP: true}, Timeout: 2 * time.Second}))
		for name, id := range ids {
			waitFor(t, name, func() bool { return f.deliveries(t, id)[0].Attempts == 1 })
			if d := f.deliveries(t, id)[0]; !strings.Contains(d.LastError, "not allowed") || d.LastStatusCode != nil {
				t.Errorf("%s (%s): %q", name, urls[name], d.LastError)
			}
		}
		if n := len(rc.got()); n != 0 {
			t.Errorf("the receiver got %d requests", n)
		}
		stop()
		// An http:// endpoint, once plain HTTP is no longer allowed.
		plain := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
		f.test(t, plain.ID)
		run(t, runner(st, newClock(), webhooks.Options{Policy: netguard.Policy{AllowPrivate: true}}))
		waitFor(t, "the http endpoint", func() bool { return f.deliveries(t, plain.ID)[0].Attempts == 1 })
		if d := f.deliveries(t, plain.ID)[0]; d.LastError != "refused: the URL must use https" || len(rc.got()) != 0 {
			t.Errorf("http endpoint without AllowHTTP: %q, %d requests", d.LastError, len(rc.got()))
		}
	})
}

// An endpoint is disabled after 100 failed attempts in a row, or after
// failing for 3 days, and its workspace's owners get one e-mail each time
// (through a real SMTP server); a disabled endpoint gets no new events.
func TestFailingEndpointDisabledAndOwnersMailed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		smtpSrv := mailtest.Start(t, mailtest.Options{})
		mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: smtpSrv.URL(), From: "hello@squarely.test", Backoff: time.Millisecond, Attempts: 2, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, st, "owner@example.com")
		rc := newReceiver(t, func(int) int { return http.StatusServiceUnavailable })
		c := newClock()

		// 100 in a row.
		burst := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
		for range 105 {
			f.test(t, burst.ID)
		}
		stop := run(t, runner(st, c, webhooks.Options{Policy: private, Mailer: mailer}))
		waitFor(t, "the burst disabled", func() bool {
			e, err := st.WebhookEndpoint(ctx, f.ws, burst.ID)
			return err == nil && !e.Enabled
		})
		waitFor(t, "the mail", func() bool { return len(smtpSrv.Messages()) == 1 })
		stop()
		e, _ := st.WebhookEndpoint(ctx, f.ws, burst.ID)
		if e.ConsecutiveFailures < 100 || e.ConsecutiveFailures > 100+16 || e.DisabledReason != "Disabled after 100 failed attempts in a row" {
			t.Errorf("disabled after %d failures: %q", e.ConsecutiveFailures, e.DisabledReason)
		}
		msg := smtpSrv.Messages()[0]
		if msg.To[0] != "owner@example.com" || !strings.Contains(msg.Text, burst.URL) || !strings.Contains(msg.Text, "100 failed attempts") ||
			!strings.Contains(msg.Text, "HTTP 503") || !strings.Contains(msg.Text, "https://sq.example/webhooks") {
			t.Errorf("mail to %v:\n%s", msg.To, msg.Text)
		}

		// Three days.
		slow := f.endpoint(t, rc.srv.URL, store.EventWebhookTest, store.EventCodeCreated)
		f.test(t, slow.ID)
		run(t, runner(st, c, webhooks.Options{Policy: private, Mailer: mailer}))
		waitFor(t, "the first failure", func() bool { return f.deliveries(t, slow.ID)[0].Attempts == 1 })
		c.Advance(72*time.Hour - time.Second)
		f.test(t, slow.ID)
		waitFor(t, "the second failure", func() bool { return f.deliveries(t, slow.ID)[0].Attempts == 1 && len(f.deliveries(t, slow.ID)) == 2 })
		if e, _ := st.WebhookEndpoint(ctx, f.ws, slow.ID); !e.Enabled {
			t.Fatal("disabled before 3 days")
		}
		c.Advance(2 * time.Second)
		f.test(t, slow.ID)
		waitFor(t, "disabled after 3 days", func() bool {
			e, _ := st.WebhookEndpoint(ctx, f.ws, slow.ID)
			return !e.Enabled
		})
		waitFor(t, "the second mail", func() bool { return len(smtpSrv.Messages()) == 2 })
		if e, _ := st.WebhookEndpoint(ctx, f.ws, slow.ID); e.DisabledReason != "Disabled after failing for 3 days" {
			t.Errorf("reason %q", e.DisabledReason)
		}
		before := len(f.deliveries(t, slow.ID))
		storetest.CreateDynamic(t, st, f.owner.ID, "later")
		if after := len(f.deliveries(t, slow.ID)); after != before {
			t.Errorf("a disabled endpoint got %d new deliveries", after-before)
		}
		// Enabled again, it starts afresh and its waiting deliveries go out.
		if _, err := st.UpdateWebhookEndpoint(ctx, f.ws, slow.ID, store.WebhookPatch{Enabled: ptr(true)}, c.Now()); err != nil {
			t.Fatal(err)
		}
		if e, _ := st.WebhookEndpoint(ctx, f.ws, slow.ID); !e.Enabled || e.ConsecutiveFailures != 0 || e.FailingSince != nil || e.DisabledReason != "" {
			t.Errorf("re-enabled: %+v", e)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// No more than InFlight deliveries are sent at once by one instance.
func TestInFlightBound(t *testing.T) {
	st := storetest.Open(t)
	f := newFixture(t, st, "owner@example.com")
	release := make(chan struct{})
	var now, most atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		now.Add(-1)
	}))
	t.Cleanup(srv.Close)
	e := f.endpoint(t, srv.URL, store.EventWebhookTest)
	for range 10 {
		f.test(t, e.ID)
	}
	run(t, runner(st, newClock(), webhooks.Options{Policy: private, InFlight: 3}))
	waitFor(t, "three in flight", func() bool { return now.Load() == 3 })
	time.Sleep(100 * time.Millisecond)
	if m := most.Load(); m != 3 {
		t.Fatalf("%d in flight at once", m)
	}
	close(release)
	waitFor(t, "all sent", func() bool {
		for _, d := range f.deliveries(t, e.ID) {
			if d.Status != store.DeliverySucceeded {
				return false
			}
		}
		return true
	})
	if m := most.Load(); m != 3 {
		t.Errorf("%d in flight at once", m)
	}
}

// A slow receiver times out, a huge answer is read no further than 64 KB,
// and a redirect is not followed.
func TestTimeoutsBodiesRedirects(t *testing.T) {
	st := storetest.Open(t)
	f := newFixture(t, st, "owner@example.com")
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	t.Cleanup(slow.Close)
	var written atomic.Int64
	var hungUp atomic.Bool
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for range 2048 { // 64 MB
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				hungUp.Store(true)
				return
			}
		}
	}))
	t.Cleanup(huge.Close)
	var followed atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { followed.Add(1) }))
	t.Cleanup(target.Close)
	redirect := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	t.Cleanup(redirect.Close)

	ids := map[string]int64{}
	for name, u := range map[string]string{"slow": slow.URL, "huge": huge.URL, "redirect": redirect.URL} {
		e := f.endpoint(t, u, store.EventWebhookTest)
		ids[name] = e.ID
		f.test(t, e.ID)
	}
	started := time.Now()
	run(t, runner(st, newClock(), webhooks.Options{Policy: private, Timeout: 300 * time.Millisecond}))
	for name, id := range ids {
		waitFor(t, name, func() bool { return f.deliveries(t, id)[0].Attempts == 1 })
	}
	if d := f.deliveries(t, ids["slow"])[0]; d.LastError != "timed out" || time.Since(started) > 8*time.Second {
		t.Errorf("slow: %q after %v", d.LastError, time.Since(started))
	}
	if d := f.deliveries(t, ids["huge"])[0]; !strings.HasPrefix(d.LastError, "HTTP 500: xxx") || len(d.LastError) > 220 {
		t.Errorf("huge: %d characters %.40q", len(d.LastError), d.LastError)
	}
	if d := f.deliveries(t, ids["redirect"])[0]; *d.LastStatusCode != 307 || followed.Load() != 0 {
		t.Errorf("redirect: %d, followed %d times", *d.LastStatusCode, followed.Load())
	}
	// The runner hangs up after its 64 KB: the server's writes fail once
	// the loopback socket buffers (a few MB, tuned by the kernel) are full,
	// long before 64 MB.
	waitFor(t, "the huge answer's reader hung up", hungUp.Load)
	if n := written.Load(); n > 32<<20 {
		t.Errorf("the huge answer was read to %d bytes", n)
	}
}

// Events and their finished deliveries are deleted after 30 days; an event
// with a delivery still pending is kept.
func TestOldEventsPruned(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		rc := newReceiver(t, func(int) int { return 200 })
		ok := f.endpoint(t, rc.srv.URL, store.EventWebhookTest)
		dead := f.endpoint(t, "http://127.0.0.1:1/", store.EventWebhookTest)
		f.test(t, ok.ID)
		f.test(t, dead.ID)
		c := newClock()
		stop := run(t, runner(st, c, webhooks.Options{Policy: private}))
		waitFor(t, "both attempted", func() bool {
			return f.deliveries(t, ok.ID)[0].Status == store.DeliverySucceeded && f.deliveries(t, dead.ID)[0].Attempts == 1
		})
		stop()
		c.Advance(webhooks.Keep + time.Hour)
		run(t, runner(st, c, webhooks.Options{Policy: private}))
		waitFor(t, "the finished event deleted", func() bool { return len(f.deliveries(t, ok.ID)) == 0 })
		if n := len(f.deliveries(t, dead.ID)); n != 1 {
			t.Errorf("the pending delivery's event: %d deliveries left", n)
		}
	})
}

// On the real clock with the default poll, a backlog of scans goes out a
// batch a second: never two within a second, and not a poll later either.
func TestScanBatchesEverySecond(t *testing.T) {
	st := storetest.Open(t)
	ctx := context.Background()
	f := newFixture(t, st, "owner@example.com")
	code := storetest.CreateDynamic(t, st, f.owner.ID, "steady")
	rc := newReceiver(t, func(int) int { return 200 })
	e := f.endpoint(t, rc.srv.URL, store.EventScanCreated)
	rc.secret = e.Secret
	var scans []store.ScanEvent
	for range 350 {
		scans = append(scans, store.ScanEvent{CodeID: code.ID, ScannedAt: time.Now()})
	}
	if err := st.RecordScans(ctx, scans); err != nil {
		t.Fatal(err)
	}
	r := webhooks.NewRunner(webhooks.Options{Store: st, Leased: jobs.Leased{Logger: quiet}, Mailer: mail.LogMailer{Logger: quiet}, Policy: private})
	run(t, r)
	waitFor(t, "four batches", func() bool { return len(rc.got()) == 4 })
	var stamps []time.Time
	for _, h := range rc.got() {
		var body struct{ Timestamp time.Time }
		json.Unmarshal(h.body, &body)
		stamps = append(stamps, body.Timestamp)
	}
	slices.SortFunc(stamps, time.Time.Compare)
	for i := 1; i < len(stamps); i++ {
		if gap := stamps[i].Sub(stamps[i-1]); gap < time.Second || gap > 1500*time.Millisecond {
			t.Errorf("batches %d and %d are %v apart", i-1, i, gap)
		}
	}
}

// Deleting an endpoint while its deliveries are being recorded neither
// deadlocks nor fails: the deletion and the attempts lock the endpoint
// first.
func TestDeleteWhileDelivering(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		var answered atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond)
			answered.Add(1)
			w.WriteHeader(500)
		}))
		t.Cleanup(srv.Close)
		for round := range 10 {
			e := f.endpoint(t, srv.URL, store.EventWebhookTest)
			for range 60 {
				f.test(t, e.ID)
			}
			from := answered.Load()
			stop := run(t, runner(st, newClock(), webhooks.Options{Policy: private}))
			// While the first answers are being recorded.
			waitFor(t, "answers", func() bool { return answered.Load() >= from+4 })
			if err := st.DeleteWebhookEndpoint(context.Background(), f.ws, e.ID); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			stop()
			if n := storetest.Count(t, st, "webhook_deliveries"); n != 0 {
				t.Fatalf("round %d: %d deliveries left", round, n)
			}
		}
	})
}

// An answer with NUL bytes (which PostgreSQL's text refuses) is still
// recorded: the attempt counts, its error and response kept without them.
func TestAnswerWithNULRecorded(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, "owner@example.com")
		ids := map[int]int64{}
		for _, status := range []int{200, 500} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(status)
				io.WriteString(w, "bad\x00answer")
			}))
			t.Cleanup(srv.Close)
			e := f.endpoint(t, srv.URL, store.EventWebhookTest)
			ids[status] = e.ID
			f.test(t, e.ID)
		}
		run(t, runner(st, newClock(), webhooks.Options{Policy: private}))
		for status, id := range ids {
			waitFor(t, fmt.Sprintf("the %d attempt recorded", status), func() bool { return f.deliveries(t, id)[0].Attempts == 1 })
			d, err := st.WebhookDelivery(context.Background(), f.ws, id, f.deliveries(t, id)[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if *d.LastStatusCode != status || strings.ContainsRune(d.LastError+d.LastResponse, 0) || !strings.Contains(d.LastResponse, "answer") {
				t.Errorf("%d: status %d, error %q, response %q", status, *d.LastStatusCode, d.LastError, d.LastResponse)
			}
		}
	})
}
