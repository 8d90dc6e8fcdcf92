package alerts_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/alerts"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

var quiet = slog.New(slog.DiscardHandler)

// event is a webhook event a test's sink received.
type event struct {
	workspaceID int64
	typ         string
	data        store.AlertData
}

// sink records the events emitted, as the webhooks' store method would
// queue them.
type sink struct {
	mu     sync.Mutex
	events []event
}

func (s *sink) emit(_ context.Context, tx *sql.Tx, workspaceID int64, typ string, data any) error {
	if tx == nil {
		panic("an alert's event must be emitted in its transaction")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, event{workspaceID, typ, data.(store.AlertData)})
	return nil
}

func (s *sink) list() []event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]event(nil), s.events...)
}

// site is a destination whose answer a test sets, counting its requests.
type site struct {
	*httptest.Server
	status   atomic.Int32 // the answer to GET
	head     atomic.Int32 // the answer to HEAD; 0 = as GET
	requests atomic.Int32
	mu       sync.Mutex
	methods  []string
}

func newSite(t *testing.T, status int) *site {
	s := &site{}
	s.status.Store(int32(status))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		s.methods = append(s.methods, r.Method)
		s.mu.Unlock()
		code := int(s.status.Load())
		if h := int(s.head.Load()); h != 0 && r.Method == http.MethodHead {
			code = h
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.methods...)
}

// env is one workspace with a code, a mail server and a runner on a clock.
type env struct {
	t      *testing.T
	st     *store.Store
	smtp   *mailtest.Server
	mailer mail.Mailer
	clock  *testenv.Clock
	sink   *sink
	owner  *store.User
	ws     int64
}

func newEnv(t *testing.T, st *store.Store) *env {
	e := &env{t: t, st: st, smtp: mailtest.Start(t, mailtest.Options{}), sink: &sink{},
		clock: testenv.NewClock(time.Now().UTC().Truncate(time.Second))}
	m, err := mail.NewSMTP(mail.SMTPOptions{URL: e.smtp.URL(), From: "hello@squarely.test", Backoff: time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e.mailer = m
	e.owner = storetest.CreateUser(t, st, "owner@example.com")
	e.ws = storetest.Personal(t, st, e.owner.ID)
	return e
}

func (e *env) runner(st *store.Store, policy netguard.Policy) *alerts.Runner {
	return alerts.NewRunner(alerts.Options{Store: st, Mailer: e.mailer, Events: e.sink.emit, BaseURL: "https://sq.example",
		Checker: &alerts.Checker{Policy: policy, Timeout: 5 * time.Second}, Interval: time.Hour, Now: e.clock.Now, Logger: quiet})
}

// code saves a dynamic code of the owner redirecting to dest.
func (e *env) code(short, dest string) *store.DynamicCode {
	d := storetest.NewDynamic(e.owner.ID, short)
	d.Destination = dest
	if err := e.st.CreateDynamicCode(context.Background(), d, 0); err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) health(id int64) store.Health {
	d, err := e.st.DynamicCode(context.Background(), e.ws, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return d.Health
}

// pass moves the clock by an interval and makes one pass.
func (e *env) pass(r *alerts.Runner) {
	e.t.Helper()
	e.clock.Add(time.Hour)
	if err := r.Pass(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

var private = netguard.Policy{AllowHTTP: true, AllowPrivate: true}

// A destination turning 404 raises one alert after two failed checks: one
// mail, one event, the code down with reason and time; the first success
// after raises recovered.
func TestDestinationDownAndRecovered(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		dest := newSite(t, 200)
		d := e.code("down1", dest.URL+"/menu")
		r := e.runner(st, private)

		e.pass(r)
		if h := e.health(d.ID); h.Status != store.HealthOK || h.CheckedAt == nil {
			t.Fatalf("after a good check: %+v", h)
		}
		// Not due again before an interval passed: no request.
		before := dest.requests.Load()
		if err := r.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := dest.requests.Load(); n != before {
			t.Fatalf("a code checked again within its interval: %d requests, had %d", n, before)
		}

		dest.status.Store(404)
		e.pass(r)
		firstFailure := e.clock.Now().UTC().Truncate(time.Microsecond)
		if h := e.health(d.ID); h.Status != store.HealthOK || len(e.sink.list()) != 0 || len(e.smtp.Messages()) != 0 {
			t.Fatalf("one failure alerted: %+v, %v", h, e.sink.list())
		}
		e.pass(r)
		e.pass(r) // still down: no second alert
		h := e.health(d.ID)
		if h.Status != store.HealthDown || h.Reason != "HTTP 404" || h.URL != dest.URL+"/menu" || h.Since == nil || !h.Since.Equal(firstFailure) {
			t.Fatalf("down: %+v, want since %v", h, firstFailure)
		}
		events := e.sink.list()
		if len(events) != 1 || events[0].typ != store.AlertDestinationDown || events[0].workspaceID != e.ws ||
			events[0].data.CodeID != d.ID || events[0].data.ShortCode != "down1" || events[0].data.Reason != "HTTP 404" ||
			events[0].data.Destination != dest.URL+"/menu" {
			t.Fatalf("events: %+v", events)
		}
		msgs := e.smtp.Messages()
		if len(msgs) != 1 || msgs[0].To[0] != "owner@example.com" || !strings.Contains(msgs[0].Header.Get("Subject"), "unreachable") ||
			!strings.Contains(msgs[0].Text, "HTTP 404") || !strings.Contains(msgs[0].Text, dest.URL+"/menu") {
			t.Fatalf("mail: %+v", msgs)
		}
		// It names the workspace and links to the dashboard in it.
		if !strings.Contains(msgs[0].Header.Get("Subject"), " in Personal ") || !strings.Contains(msgs[0].Text, `of the workspace "Personal"`) ||
			!strings.Contains(msgs[0].Text, fmt.Sprintf("/dashboard?workspace=%d", e.ws)) {
			t.Fatalf("the mail does not name or link its workspace: %s\n%s", msgs[0].Header.Get("Subject"), msgs[0].Text)
		}

		dest.status.Store(200)
		e.pass(r)
		if h := e.health(d.ID); h.Status != store.HealthOK || h.Reason != "" || h.Since != nil {
			t.Fatalf("recovered: %+v", h)
		}
		events = e.sink.list()
		if len(events) != 2 || events[1].typ != store.AlertDestinationRecovered || events[1].data.Reason != "HTTP 404" {
			t.Fatalf("events: %+v", events)
		}
		if msgs := e.smtp.Messages(); len(msgs) != 2 || !strings.Contains(msgs[1].Header.Get("Subject"), "answers again") {
			t.Fatalf("mail: %+v", msgs)
		}
	})
}

// 401, 403, 405 and 429 are a live server keeping the checker out: never
// an alert. 410 and 5xx are failures like 404.
func TestStatusesThatAreNotFailures(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		r := e.runner(st, private)
		live := map[int]*store.DynamicCode{}
		for _, code := range []int{401, 403, 405, 429, 301} {
			live[code] = e.code(fmt.Sprint("live", code), newSite(t, code).URL)
		}
		dead := map[int]*store.DynamicCode{}
		for _, code := range []int{410, 500, 503} {
			dead[code] = e.code(fmt.Sprint("dead", code), newSite(t, code).URL)
		}
		for range 3 {
			e.pass(r)
		}
		for code, d := range live {
			if h := e.health(d.ID); h.Status != store.HealthOK {
				t.Errorf("HTTP %d: %+v", code, h)
			}
		}
		for code, d := range dead {
			if h := e.health(d.ID); h.Status != store.HealthDown || h.Reason != fmt.Sprint("HTTP ", code) {
				t.Errorf("HTTP %d: %+v", code, h)
			}
		}
		if n := len(e.sink.list()); n != len(dead) {
			t.Errorf("%d events, want %d", n, len(dead))
		}
	})
}

// A server refusing HEAD (405, 501), or answering it 404 alone, is asked
// with GET, which decides.
func TestHeadFallsBackToGet(t *testing.T) {
	for _, head := range []int{405, 501, 404} {
		s := newSite(t, 200)
		s.head.Store(int32(head))
		c := &alerts.Checker{Policy: private}
		res := c.Check(context.Background(), []string{s.URL})[s.URL]
		if res.Failed || res.Skipped {
			t.Errorf("HEAD %d, GET 200: %+v", head, res)
		}
		if m := s.seen(); strings.Join(m, ",") != "HEAD,GET" {
			t.Errorf("HEAD %d: requests %v", head, m)
		}
	}
	s := newSite(t, 404)
	s.head.Store(405)
	c := &alerts.Checker{Policy: private}
	if res := c.Check(context.Background(), []string{s.URL})[s.URL]; !res.Failed || res.Reason != "HTTP 404" {
		t.Errorf("HEAD 405, GET 404: %+v", res)
	}
	// A good HEAD is enough.
	ok := newSite(t, 200)
	c.Check(context.Background(), []string{ok.URL})
	if m := ok.seen(); strings.Join(m, ",") != "HEAD" {
		t.Errorf("HEAD 200: requests %v", m)
	}
}

// One request at a time per host, however many of its URLs are checked
// and however many workers run; each URL is asked once; other hosts are
// checked alongside.
func TestPoliteConcurrency(t *testing.T) {
	type host struct {
		srv            *httptest.Server
		inFlight, peak atomic.Int32
		hits           sync.Map
	}
	var all atomic.Int32
	var allPeak atomic.Int32
	newHost := func() *host {
		h := &host{}
		h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := h.inFlight.Add(1)
			a := all.Add(1)
			for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
			}
			for p := allPeak.Load(); a > p && !allPeak.CompareAndSwap(p, a); p = allPeak.Load() {
			}
			time.Sleep(20 * time.Millisecond)
			v, _ := h.hits.LoadOrStore(r.URL.Path, new(atomic.Int32))
			v.(*atomic.Int32).Add(1)
			h.inFlight.Add(-1)
			all.Add(-1)
		}))
		t.Cleanup(h.srv.Close)
		return h
	}
	hosts := []*host{newHost(), newHost(), newHost()}
	var urls []string
	for _, h := range hosts {
		for i := range 6 {
			u := h.srv.URL + "/p" + string(rune('a'+i))
			urls = append(urls, u, u) // each twice
		}
	}
	c := &alerts.Checker{Policy: private, Concurrency: 8}
	results := c.Check(context.Background(), urls)
	if len(results) != 18 {
		t.Fatalf("%d results", len(results))
	}
	for i, h := range hosts {
		if p := h.peak.Load(); p != 1 {
			t.Errorf("host %d: %d requests at once", i, p)
		}
		h.hits.Range(func(k, v any) bool {
			if n := v.(*atomic.Int32).Load(); n != 1 {
				t.Errorf("host %d %s: asked %d times", i, k, n)
			}
			return true
		})
	}
	if p := allPeak.Load(); p < 2 || p > 3 {
		t.Errorf("%d requests at once over 3 hosts, want 2 or 3", p)
	}
}

// Loopback (and every private address) is refused unless allowed: no
// request reaches it, and the code is neither up nor down.
func TestPrivateAddressRefusedUnlessAllowed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		dest := newSite(t, 404)
		d := e.code("private", dest.URL)
		r := e.runner(st, netguard.Policy{AllowHTTP: true})
		for range 3 {
			e.pass(r)
		}
		if n := dest.requests.Load(); n != 0 {
			t.Fatalf("%d requests reached a loopback address", n)
		}
		if h := e.health(d.ID); h.Status != store.HealthUnknown || len(e.sink.list()) != 0 {
			t.Fatalf("refused address: %+v, %v", h, e.sink.list())
		}
		c := &alerts.Checker{Policy: netguard.Policy{AllowHTTP: true}}
		if res := c.Check(context.Background(), []string{dest.URL})[dest.URL]; !res.Skipped || !strings.Contains(res.Reason, "loopback") {
			t.Fatalf("refused: %+v", res)
		}
		allowed := e.runner(st, private)
		e.pass(allowed)
		e.pass(allowed)
		if h := e.health(d.ID); h.Status != store.HealthDown || dest.requests.Load() == 0 {
			t.Fatalf("allowed: %+v", h)
		}
	})
}

// addMember puts a new user into the workspace with role.
func (e *env) addMember(email, role string) *store.User {
	u := storetest.CreateUser(e.t, e.st, email)
	var id int64
	storetest.QueryRow(e.t, e.st, `INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
		VALUES ($1, $2, $3, $4) RETURNING user_id`, []any{e.ws, u.ID, role, "2026-01-01T00:00:00.000000Z"}, &id)
	return u
}

// A muted code goes down on its card but raises no mail or event; a
// member who turned alert e-mails off gets none, other owners and admins
// do, editors never.
func TestMuteAndEmailChoice(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := newEnv(t, st)
		e.addMember("admin@example.com", store.RoleAdmin)
		e.addMember("editor@example.com", store.RoleEditor)
		if err := st.SetAlertEmails(ctx, e.ws, e.owner.ID, false); err != nil {
			t.Fatal(err)
		}
		if ws, err := st.MemberWorkspace(ctx, e.owner.ID, e.ws); err != nil || ws.AlertEmails {
			t.Fatalf("owner's choice: %+v, %v", ws, err)
		}
		dead := newSite(t, 404)
		muted := e.code("muted", dead.URL+"/a")
		if _, err := st.SetDynamicAlertsMuted(ctx, e.ws, muted.ID, true); err != nil {
			t.Fatal(err)
		}
		loud := e.code("loud", dead.URL+"/b")
		r := e.runner(st, private)
		e.pass(r)
		e.pass(r)
		if h := e.health(muted.ID); h.Status != store.HealthDown {
			t.Fatalf("muted code's health: %+v", h)
		}
		events := e.sink.list()
		if len(events) != 1 || events[0].data.CodeID != loud.ID {
			t.Fatalf("events: %+v", events)
		}
		msgs := e.smtp.Messages()
		if len(msgs) != 1 || msgs[0].To[0] != "admin@example.com" {
			var to []string
			for _, m := range msgs {
				to = append(to, m.To...)
			}
			t.Fatalf("mailed %v, want the admin only", to)
		}
	})
}

// Two instances checking at once raise one alert: each round's claim is
// exclusive and the state moves under the row.
func TestInstancesDoNotDoubleAlert(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			e := newEnv(t, a)
			dead := newSite(t, 500)
			for i := range 20 {
				e.code("multi"+string(rune('a'+i)), dead.URL+"/"+string(rune('a'+i)))
			}
			ra, rb := e.runner(a, private), e.runner(b, private)
			for range 3 {
				e.clock.Add(time.Hour)
				var wg sync.WaitGroup
				for _, r := range []*alerts.Runner{ra, rb} {
					wg.Go(func() {
						if err := r.Pass(context.Background()); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
			}
			if n := len(e.sink.list()); n != 20 {
				t.Errorf("%d events for 20 codes", n)
			}
			if n := len(e.smtp.Messages()); n != 20 {
				t.Errorf("%d mails for 20 codes", n)
			}
			// Each code was asked once per round: 3 rounds, HEAD and GET.
			if n := dead.requests.Load(); n != 20*3*2 {
				t.Errorf("%d requests, want %d", n, 20*3*2)
			}
		})
	}
}

// scans records n human scans of code on the UTC day day.
func scans(t *testing.T, st *store.Store, code int64, day time.Time, n int) {
	t.Helper()
	events := make([]store.ScanEvent, n)
	for i := range events {
		events[i] = store.ScanEvent{CodeID: code, ScannedAt: day.Add(time.Duration(i) * time.Minute), DeviceType: "mobile",
			OS: "iOS", Browser: "Safari", VisitorHash: fmt.Sprint("v", i), Route: store.RouteDefault}
	}
	if err := st.RecordScans(context.Background(), events); err != nil {
		t.Fatal(err)
	}
}

// A code scanned under 20% of its usual daily scans on the last closed
// day raises alert.scans_dropped, once a week at most; a code averaging
// under 20 a day, one within 20%, and a muted one raise nothing.
func TestScansDropped(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := newEnv(t, st)
		// The rollups' per-code rows start at the day the store was made:
		// every earlier day is closed.
		today := time.Now().UTC().Truncate(24 * time.Hour)
		yesterday := today.AddDate(0, 0, -1)
		e.clock.Set(today.Add(9 * time.Hour))
		up := newSite(t, 200)
		history := func(short string, perDay, lastDay int) *store.DynamicCode {
			d := e.code(short, up.URL+"/"+short)
			for i := 1; i <= store.DropWindow; i++ {
				scans(t, st, d.ID, yesterday.AddDate(0, 0, -i), perDay)
			}
			scans(t, st, d.ID, yesterday, lastDay)
			return d
		}
		dropped := history("dropped", 30, 5) // 5 < 20% of 30
		history("quiet", 19, 0)              // averages under the floor
		history("steady", 30, 6)             // exactly 20%: not under
		muted := history("muted", 30, 0)
		if _, err := st.SetDynamicAlertsMuted(ctx, e.ws, muted.ID, true); err != nil {
			t.Fatal(err)
		}

		raise := func() []*store.Alert {
			t.Helper()
			a, err := st.RaiseScanDrops(ctx, e.clock.Now(), e.sink.emit)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		// Instances looking at once raise it once.
		var mu sync.Mutex
		var got []*store.Alert
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				a, err := st.RaiseScanDrops(ctx, e.clock.Now(), e.sink.emit)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				got = append(got, a...)
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(got) != 1 || got[0].CodeID != dropped.ID || got[0].Type != store.AlertScansDropped {
			t.Fatalf("alerts: %+v", got)
		}
		data := got[0].Data
		if *data.Scans != 5 || *data.DailyAverage != 30 || data.Day != yesterday.Format(time.DateOnly) || data.ShortCode != "dropped" {
			t.Fatalf("data: %+v (scans %d, average %v)", data, *data.Scans, *data.DailyAverage)
		}
		if ev := e.sink.list(); len(ev) != 1 || ev[0].typ != store.AlertScansDropped || ev[0].data.CodeID != dropped.ID {
			t.Fatalf("events: %+v", ev)
		}
		// The runner mails it.
		r := e.runner(st, private)
		if err := r.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		msgs := e.smtp.Messages()
		if len(msgs) != 1 || !strings.Contains(msgs[0].Header.Get("Subject"), "dropped") ||
			!strings.Contains(msgs[0].Text, "scanned 5 times on "+data.Day) || !strings.Contains(msgs[0].Text, "against 30 a day") {
			t.Fatalf("mail: %+v", msgs)
		}

		// Once a week: not again six days on, again after seven.
		e.clock.Add(6 * 24 * time.Hour)
		if got := raise(); len(got) != 0 {
			t.Fatalf("raised again within a week: %+v", got)
		}
		e.clock.Add(24*time.Hour + time.Minute)
		if got := raise(); len(got) != 1 || got[0].CodeID != dropped.ID {
			t.Fatalf("a week on: %+v", got)
		}
	})
}

// A name that does not exist is a failure (.invalid never resolves); an
// unused port, a refused connection.
func TestTransportFailures(t *testing.T) {
	c := &alerts.Checker{Policy: private, Timeout: 5 * time.Second}
	closed := newSite(t, 200)
	closed.Close()
	res := c.Check(context.Background(), []string{"http://nothing.invalid/", closed.URL + "/x", "ftp://example.com/"})
	if r := res["http://nothing.invalid/"]; !r.Failed || !strings.HasPrefix(r.Reason, "DNS lookup failed") {
		t.Errorf("unknown host: %+v", r)
	}
	if r := res[closed.URL+"/x"]; !r.Failed || !strings.HasPrefix(r.Reason, "connection failed") {
		t.Errorf("closed port: %+v", r)
	}
	if r := res["ftp://example.com/"]; !r.Skipped {
		t.Errorf("ftp: %+v", r)
	}
}

// An alert raised by an instance that stopped before mailing it is mailed
// by the next pass of any instance, once.
func TestAlertMailSurvivesRestart(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		e := newEnv(t, st)
		d := e.code("restart", "https://example.com/gone")
		for range store.FailuresToAlert {
			e.clock.Add(time.Hour)
			targets, err := st.ClaimLinkChecks(ctx, e.clock.Now(), e.clock.Now().Add(-time.Hour), 10)
			if err != nil || len(targets) != 1 || targets[0].CodeID != d.ID {
				t.Fatalf("claimed %+v, %v", targets, err)
			}
			if _, err := st.RecordLinkCheck(ctx, targets[0], store.LinkResult{URL: d.Destination, Reason: "HTTP 410"}, e.clock.Now(), e.sink.emit); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(e.smtp.Messages()); n != 0 {
			t.Fatalf("%d mails before any runner", n)
		}
		// The code is not due: the pass only mails.
		r := e.runner(st, netguard.Policy{AllowHTTP: true})
		for range 2 {
			if err := r.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if msgs := e.smtp.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Text, "HTTP 410") {
			t.Fatalf("mail: %+v", msgs)
		}
	})
}
