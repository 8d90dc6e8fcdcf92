package mailings_test

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const baseURL = "https://sq.example"

var quiet = slog.New(slog.DiscardHandler)

// db opens (again) one test database, so a test can "restart" the
// process, and writes rows other areas own straight into it.
type db struct {
	t           *testing.T
	driver, dsn string
	url, dir    string
}

func (d db) open() *store.Store { return openAt(d.t, d.url, d.dir) }

// subscribe adds newsletter subscriptions (the signup form is another area's).
func (d db) subscribe(emails ...string) {
	raw, err := sql.Open(d.driver, d.dsn)
	if err != nil {
		d.t.Fatal(err)
	}
	defer raw.Close()
	for _, e := range emails {
		if _, err := raw.Exec(`INSERT INTO newsletter_subscriptions (email) VALUES ($1)`, e); err != nil {
			d.t.Fatal(err)
		}
	}
}

// openEach runs fn on SQLite and on PostgreSQL.
func openEach(t *testing.T, fn func(t *testing.T, d db)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		fn(t, db{t: t, driver: "sqlite", dsn: filepath.Join(dir, "squarely.db") + "?_pragma=busy_timeout(5000)", dir: dir})
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.PostgresURL(t)
		fn(t, db{t: t, driver: "pgx", dsn: url, url: url})
	})
}

func openAt(t *testing.T, url, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// addUsers creates n live users user0@example.com … and returns their addresses.
func addUsers(t *testing.T, st *store.Store, n int) []string {
	t.Helper()
	var list []string
	for i := range n {
		email := fmt.Sprintf("user%d@example.com", i)
		if err := st.CreateUser(context.Background(), &store.User{Username: email, Email: email, FirstName: fmt.Sprint("U", i)}); err != nil {
			t.Fatal(err)
		}
		list = append(list, email)
	}
	return list
}

func smtpMailer(t *testing.T, srv *mailtest.Server) mail.Mailer {
	t.Helper()
	m, err := mail.NewSMTP(mail.SMTPOptions{URL: srv.URL(), From: "hello@squarely.test", Backoff: time.Millisecond, Attempts: 4, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func runner(st *store.Store, m mail.Mailer, owner string) *mailings.Runner {
	return mailings.NewRunner(mailings.Options{Store: st, Mailer: m, BaseURL: baseURL, Leased: jobs.Leased{Owner: owner, Poll: 20 * time.Millisecond, Logger: quiet}})
}

// runUntilDone runs r until mailing id is done (or fails the test).
func runUntilDone(t *testing.T, st *store.Store, r *mailings.Runner, id int64) *store.Mailing {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	return waitDone(t, st, id)
}

func waitDone(t *testing.T, st *store.Store, id int64) *store.Mailing {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		m, err := st.Mailing(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status == "done" {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailing not done: %+v", m)
		}
	}
}

func newMailing(t *testing.T, st *store.Store, m *store.Mailing) *store.Mailing {
	t.Helper()
	if err := st.CreateMailing(context.Background(), m, time.Now()); err != nil {
		t.Fatal(err)
	}
	return m
}

// receivedOnce checks that each address got exactly one message.
func receivedOnce(t *testing.T, srv *mailtest.Server, want []string) {
	t.Helper()
	count := map[string]int{}
	for _, m := range srv.Messages() {
		for _, to := range m.To {
			count[to]++
		}
	}
	for _, addr := range want {
		if count[addr] != 1 {
			t.Errorf("%s received %d messages, want 1", addr, count[addr])
		}
		delete(count, addr)
	}
	for addr, n := range count {
		t.Errorf("%s received %d unexpected messages", addr, n)
	}
}

func TestThousandRecipientsThroughTemporaryRefusalsEachMailedOnce(t *testing.T) {
	openEach(t, func(t *testing.T, d db) {
		st := d.open()
		users := addUsers(t, st, 1000)
		var refused atomic.Int64
		srv := mailtest.Start(t, mailtest.Options{Refuse: func(to string, attempt int) *smtp.SMTPError {
			h := fnv.New32a()
			h.Write([]byte(to))
			if attempt == 1 && h.Sum32()%10 == 0 { // one message in ten, on its first try
				refused.Add(1)
				return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
			}
			return nil
		}})
		m := newMailing(t, st, &store.Mailing{Kind: store.MailingWelcome})
		if m.Counts.Total != 1000 {
			t.Fatalf("mailing has %d recipients", m.Counts.Total)
		}
		done := runUntilDone(t, st, runner(st, smtpMailer(t, srv), "a"), m.ID)
		if done.Counts.Sent != 1000 || done.Counts.Failed+done.Counts.Interrupted+done.Counts.Pending != 0 {
			t.Errorf("counts %+v", done.Counts)
		}
		if refused.Load() < 50 {
			t.Errorf("only %d refusals: the test did not exercise retries", refused.Load())
		}
		receivedOnce(t, srv, users)

		got := srv.Messages()[0]
		if got.Header.Get("Subject") != "Welcome to Squarely" ||
			!strings.HasPrefix(got.Header.Get("List-Unsubscribe"), "<"+baseURL+"/unsubscribe?token=") ||
			got.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" ||
			!strings.Contains(got.Text, baseURL+"/unsubscribe?token=") || !strings.Contains(got.HTML, baseURL+"/dashboard") {
			t.Errorf("message: %v\n%s\n%s", got.Header, got.Text, got.HTML)
		}
	})
}

// crashingMailer delivers through next, and after the n-th delivery closes
// the store, as if the process died between the SMTP server's 250 and
// the database write that records it.
type crashingMailer struct {
	next  mail.Mailer
	st    *store.Store
	n     int
	count atomic.Int64
}

func (c *crashingMailer) Send(ctx context.Context, m mail.Message) error {
	err := c.next.Send(ctx, m)
	if c.count.Add(1) == int64(c.n) {
		c.st.Close()
	}
	return err
}

func TestKilledMidSendResumesWithoutMailingAnyoneTwice(t *testing.T) {
	openEach(t, func(t *testing.T, d db) {
		st := d.open()
		users := addUsers(t, st, 30)
		srv := mailtest.Start(t, mailtest.Options{})
		m := newMailing(t, st, &store.Mailing{Kind: store.MailingWelcome})

		crash := &crashingMailer{next: smtpMailer(t, srv), st: st, n: 12}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { runner(st, crash, "dead").Run(ctx); close(done) }()
		for deadline := time.Now().Add(time.Minute); crash.count.Load() < 12; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the first runner never reached the crash")
			}
		}
		cancel()
		<-done
		if n := len(srv.Messages()); n != 12 {
			t.Fatalf("before the restart the server got %d messages, want 12", n)
		}

		// "Restart": a new process opens the database; once the dead
		// runner's lease has run out it resumes the mailing.
		st2 := d.open()
		r2 := mailings.NewRunner(mailings.Options{Store: st2, Mailer: smtpMailer(t, srv), BaseURL: baseURL, Leased: jobs.Leased{Owner: "new", Logger: quiet,
			Poll: 20 * time.Millisecond, Now: func() time.Time { return time.Now().Add(2 * time.Minute) }}})
		final := runUntilDone(t, st2, r2, m.ID)
		if final.Counts.Interrupted != 1 || final.Counts.Sent != 29 || final.Counts.Total != 30 {
			t.Errorf("counts %+v, want 29 sent and the one in flight interrupted", final.Counts)
		}
		receivedOnce(t, srv, users)
	})
}

// stoppingMailer cancels the runner's context during its n-th send.
type stoppingMailer struct {
	next   mail.Mailer
	n      int
	cancel context.CancelFunc
	count  atomic.Int64
}

func (s *stoppingMailer) Send(ctx context.Context, m mail.Message) error {
	if s.count.Add(1) == int64(s.n) {
		s.cancel()
	}
	return s.next.Send(ctx, m)
}

func TestStoppedRunnerFinishesItsMessageAndAnotherResumesAtOnce(t *testing.T) {
	openEach(t, func(t *testing.T, d db) {
		st := d.open()
		users := addUsers(t, st, 20)
		srv := mailtest.Start(t, mailtest.Options{})
		m := newMailing(t, st, &store.Mailing{Kind: store.MailingWelcome})

		ctx, cancel := context.WithCancel(context.Background())
		stop := &stoppingMailer{next: smtpMailer(t, srv), n: 7, cancel: cancel}
		runner(st, stop, "first").Run(ctx) // returns once stopped
		mid, err := st.Mailing(context.Background(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if mid.Counts.Sent != 7 || mid.Counts.Sending != 0 || mid.Status == "done" {
			t.Fatalf("after the stop: %+v %s", mid.Counts, mid.Status)
		}
		// The lease was released: a runner with the real clock resumes.
		final := runUntilDone(t, st, runner(st, smtpMailer(t, srv), "second"), m.ID)
		if final.Counts.Sent != 20 || final.Counts.Interrupted != 0 {
			t.Errorf("counts %+v", final.Counts)
		}
		receivedOnce(t, srv, users)
	})
}

func TestTwoInstancesShareOneMailingWithoutDuplicates(t *testing.T) {
	openEach(t, func(t *testing.T, d db) {
		st, st2 := d.open(), d.open()
		users := addUsers(t, st, 60)
		srv := mailtest.Start(t, mailtest.Options{})
		m := newMailing(t, st, &store.Mailing{Kind: store.MailingWelcome})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { runner(st, smtpMailer(t, srv), "one").Run(ctx) })
		wg.Go(func() { runner(st2, smtpMailer(t, srv), "two").Run(ctx) })
		final := waitDone(t, st, m.ID)
		cancel()
		wg.Wait()
		if final.Counts.Sent != 60 {
			t.Errorf("counts %+v", final.Counts)
		}
		receivedOnce(t, srv, users)
	})
}

func TestMailingsSkipUnsubscribedAndDeletedAddresses(t *testing.T) {
	openEach(t, func(t *testing.T, d db) {
		ctx := context.Background()
		st := d.open()
		users := addUsers(t, st, 4)
		d.subscribe("fan@example.com", "Leaver@example.com", "late@example.com")
		// Before the mailing: user0 and the leaver unsubscribe.
		for _, e := range []string{"user0@example.com", "leaver@example.com"} {
			if err := st.Unsubscribe(ctx, e, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		welcome := newMailing(t, st, &store.Mailing{Kind: store.MailingWelcome})
		news := newMailing(t, st, &store.Mailing{Kind: store.MailingNewsletter, Subject: "News", Content: "Hello\n\nWorld", IncludeStats: true})
		if welcome.Counts.Total != 3 || news.Counts.Total != 2 {
			t.Fatalf("recipients: welcome %d, newsletter %d", welcome.Counts.Total, news.Counts.Total)
		}
		// After the mailings were queued: user1 is deleted, user2 and the
		// late subscriber unsubscribe. Each takes effect at once.
		if err := st.SoftDeleteUser(ctx, 2, time.Now()); err != nil { // user1
			t.Fatal(err)
		}
		for _, e := range []string{"user2@example.com", "late@example.com"} {
			if err := st.Unsubscribe(ctx, e, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		srv := mailtest.Start(t, mailtest.Options{})
		r := runner(st, smtpMailer(t, srv), "x")
		runUntilDone(t, st, r, welcome.ID)
		final := runUntilDone(t, st, r, news.ID)
		if final.Counts.Sent != 1 || final.Counts.Skipped != 1 {
			t.Errorf("newsletter counts %+v", final.Counts)
		}
		receivedOnce(t, srv, []string{users[3], "fan@example.com"})
		for _, got := range srv.Messages() {
			if got.To[0] == "fan@example.com" {
				if got.Header.Get("Subject") != "News" || !strings.Contains(got.HTML, "<p style=\"white-space:pre-line\">World</p>") ||
					!strings.Contains(got.Text, "Squarely in numbers: 3 users") || got.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
					t.Errorf("newsletter: %v\n%s\n%s", got.Header, got.Text, got.HTML)
				}
			}
		}
	})
}

func TestUnsubscribeTokens(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	tok := mailings.UnsubscribeToken(key, "ann@example.com")
	if got, ok := mailings.ParseUnsubscribeToken(key, tok); !ok || got != "ann@example.com" {
		t.Fatalf("round trip: %q %v", got, ok)
	}
	other := mailings.UnsubscribeToken(key, "bob@example.com")
	forged := strings.Split(other, ".")[0] + "." + strings.Split(tok, ".")[1]
	for _, bad := range []string{"", "x", "a.b", forged, tok + "A", mailings.UnsubscribeToken([]byte("other key"), "ann@example.com"), strings.Repeat("a", 2000) + ".b"} {
		if got, ok := mailings.ParseUnsubscribeToken(key, bad); ok {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
}
