package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// adminEndpoints is every admin route with a body it would accept.
var adminEndpoints = []struct{ method, path, body string }{
	{"GET", "/api/newsletter/stats", ""},
	{"POST", "/api/send-newsletter", `{"subject":"S","content":"C","includeStats":true}`},
	{"POST", "/api/send-welcome-to-all", `{}`},
	{"POST", "/api/send-scan-notifications", `{}`},
	{"POST", "/api/send-pause-notifications", `{}`},
	{"GET", "/api/mailings", ""},
	{"GET", "/api/mailings/1", ""},
	{"POST", "/api/send-test-email", `{}`},
}

func TestAdminEndpointsRefuseOthers(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		member := e.browser()
		e.register(member, "member@example.com", "member-pass-1")
		registered := len(e.mail.sent) // the verification link
		for _, ep := range adminEndpoints {
			expect(t, e.do(e.browser(), ep.method, ep.path, ep.body), http.StatusUnauthorized, "Not authenticated")
			expect(t, e.do(member, ep.method, ep.path, ep.body), http.StatusForbidden, "Admin access required")
		}
		if n := storetest.Count(t, st, "mailings"); n != 0 {
			t.Errorf("refused requests queued %d mailings", n)
		}
		if len(e.mail.sent) != registered {
			t.Errorf("refused requests sent %d e-mails", len(e.mail.sent)-registered)
		}
	})
}

// adminEnv is a server mailing through a real SMTP server, with a mailing
// runner, and a signed-in admin.
type adminEnv struct {
	*env
	smtp  *mailtest.Server
	admin *http.Client
}

func startAdmin(t *testing.T, st *store.Store, withRunner bool) *adminEnv {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	smtpServer := mailtest.Start(t, mailtest.Options{})
	mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: smtpServer.URL(), From: "hello@squarely.test", Backoff: time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var runner *mailings.Runner
	e := start(t, st, func(d *Deps) {
		d.Mailer = mailer
		if withRunner {
			runner = mailings.NewRunner(mailings.Options{Store: st, Mailer: mailer, BaseURL: d.Config.BaseURL, Leased: jobs.Leased{Logger: quiet, Poll: time.Hour}})
			d.Mailings = runner
		}
	})
	if runner != nil {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { runner.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	a := &adminEnv{env: e, smtp: smtpServer, admin: e.browser()}
	e.register(a.admin, "boss@example.com", "boss-pass-12")
	if err := st.SetAdmin(context.Background(), "boss@example.com", true); err != nil {
		t.Fatal(err)
	}
	return a
}

// waitMailing polls the progress endpoint until the mailing is done.
func (a *adminEnv) waitMailing(id any) map[string]any {
	a.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		m := expect(a.t, a.do(a.admin, "GET", fmt.Sprint("/api/mailings/", id), ""), http.StatusOK, "")
		if m["status"] == "done" {
			return m
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("mailing not done: %v", m)
		}
	}
}

// received returns the messages the SMTP server got for to.
func (a *adminEnv) received(to string) []mailtest.Received {
	var out []mailtest.Received
	for _, m := range a.smtp.Messages() {
		// Registering mails a verification link (issue 8); only mailings count here.
		if len(m.To) == 1 && m.To[0] == to && m.Header.Get("Subject") != "Confirm your Squarely email address" {
			out = append(out, m)
		}
	}
	return out
}

func checkBulkHeaders(t *testing.T, m mailtest.Received, base string) string {
	t.Helper()
	lu := m.Header.Get("List-Unsubscribe")
	if !strings.HasPrefix(lu, "<"+base+"/unsubscribe?token=") || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("unsubscribe headers: %q, %q", lu, m.Header.Get("List-Unsubscribe-Post"))
	}
	link := strings.Trim(lu, "<>")
	if !strings.Contains(m.Text, link) || !strings.Contains(m.HTML, strings.ReplaceAll(link, "&", "&amp;")) {
		t.Errorf("the body lacks the unsubscribe link %s:\n%s", link, m.Text)
	}
	if m.Text == "" || m.HTML == "" || m.Header.Get("From") == "" {
		t.Errorf("parts or From missing: %v", m.Header)
	}
	return link
}

func TestAdminMailingsReachEveryoneOverSMTP(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		a := startAdmin(t, st, true)
		ctx := context.Background()
		owner := a.browser()
		a.register(owner, "owner@example.com", "owner-pass-1")
		code := a.createDynamic(owner, "https://example.com/menu", part{"name", "Menu", ""})
		paused := a.createDynamic(owner, "https://example.com/old", part{"name", "Old flyer", ""})
		expect(t, a.do(owner, "POST", fmt.Sprint("/api/dynamic-qrcodes/", paused["id"], "/pause"), ""), http.StatusOK, "")
		now := a.clock.Now()
		codeID := int64(code["id"].(float64))
		err := st.RecordScans(ctx, []store.ScanEvent{
			{CodeID: codeID, ScannedAt: now.Add(-24 * time.Hour)},
			{CodeID: codeID, ScannedAt: now.Add(-48 * time.Hour)},
			{CodeID: codeID, ScannedAt: now.Add(-10 * 24 * time.Hour)}, // older than 7 days
		})
		if err != nil {
			t.Fatal(err)
		}

		stats := expect(t, a.do(a.admin, "GET", "/api/newsletter/stats", ""), http.StatusOK, "")
		if stats["totalUsers"] != 2.0 || stats["newUsers"] != 2.0 || stats["totalQRCodes"] != 2.0 || stats["newQRCodes"] != 2.0 || stats["mailEnabled"] != true {
			t.Errorf("stats %v", stats)
		}

		// The welcome mailing: both users, answered at once with the counts.
		m := expect(t, a.do(a.admin, "POST", "/api/send-welcome-to-all", ""), http.StatusAccepted, "Sending to 2 recipients.")
		if m["totalUsers"] != 2.0 || m["successCount"] != 0.0 {
			t.Errorf("queued: %v", m)
		}
		done := a.waitMailing(m["id"])
		if done["successCount"] != 2.0 || done["totalUsers"] != 2.0 {
			t.Errorf("done: %v", done)
		}
		for _, to := range []string{"boss@example.com", "owner@example.com"} {
			got := a.received(to)
			if len(got) != 1 || got[0].Header.Get("Subject") != "Welcome to Squarely" {
				t.Fatalf("%s received %d welcome messages", to, len(got))
			}
			checkBulkHeaders(t, got[0], testConfig(t).BaseURL)
		}

		// Scan and pause notifications go to the owner only.
		done = a.waitMailing(expect(t, a.do(a.admin, "POST", "/api/send-scan-notifications", ""), http.StatusAccepted, "")["id"])
		if done["successCount"] != 1.0 {
			t.Errorf("scans: %v", done)
		}
		done = a.waitMailing(expect(t, a.do(a.admin, "POST", "/api/send-pause-notifications", ""), http.StatusAccepted, "")["id"])
		if done["successCount"] != 1.0 {
			t.Errorf("paused: %v", done)
		}
		got := a.received("owner@example.com")
		if len(got) != 3 {
			t.Fatalf("owner received %d messages", len(got))
		}
		scans, pause := got[1], got[2]
		if scans.Header.Get("Subject") != "Your QR code scans of the last 7 days" || !strings.Contains(scans.Text, "scanned 2 times") ||
			!strings.Contains(scans.Text, "- Menu: 2") || !strings.Contains(scans.Text, "- Old flyer: 0") {
			t.Errorf("scan notification:\n%s", scans.Text)
		}
		if pause.Header.Get("Subject") != "Some of your QR codes are paused" || !strings.Contains(pause.Text, "- Old flyer") || strings.Contains(pause.Text, "Menu") {
			t.Errorf("pause notification:\n%s", pause.Text)
		}
		link := checkBulkHeaders(t, pause, testConfig(t).BaseURL)

		// The owner unsubscribes with one click: the next mailing skips them.
		u, _ := url.Parse(link)
		req, _ := http.NewRequest("POST", a.srv.URL+u.RequestURI(), strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("one-click unsubscribe: %d", resp.StatusCode)
		}
		done = a.waitMailing(expect(t, a.do(a.admin, "POST", "/api/send-welcome-to-all", ""), http.StatusAccepted, "Sending to 1 recipients.")["id"])
		if len(a.received("owner@example.com")) != 3 || len(a.received("boss@example.com")) != 2 {
			t.Errorf("after unsubscribing: owner %d, boss %d messages", len(a.received("owner@example.com")), len(a.received("boss@example.com")))
		}

		// The newsletter goes to live subscriptions only (none here but
		// what the test adds is another area's form), so it is queued and done.
		n := expect(t, a.do(a.admin, "POST", "/api/send-newsletter", `{"subject":" Hello ","content":"News"}`), http.StatusAccepted, "")
		if n["subject"] != "Hello" || a.waitMailing(n["id"])["totalUsers"] != 0.0 {
			t.Errorf("newsletter: %v", n)
		}
		list := expect(t, a.do(a.admin, "GET", "/api/mailings", ""), http.StatusOK, "")["mailings"].([]any)
		if len(list) != 5 || list[0].(map[string]any)["kind"] != "newsletter" {
			t.Errorf("mailings list: %v", list)
		}

		// The test e-mail reaches the admin at once.
		expect(t, a.do(a.admin, "POST", "/api/send-test-email", ""), http.StatusOK, "Test e-mail sent to boss@example.com.")
		boss := a.received("boss@example.com")
		if last := boss[len(boss)-1]; last.Header.Get("Subject") != "Squarely test e-mail" || last.HTML == "" {
			t.Errorf("test e-mail: %v", last.Header)
		}
	})
}

func TestNewsletterInputIsChecked(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		a := startAdmin(t, st, false) // no runner: queued mailings stay queued
		for _, tc := range []struct {
			body    string
			status  int
			message string
		}{
			{`{"subject":"","content":"x"}`, 400, msgNewsletterMissing},
			{`{"subject":"x","content":"   "}`, 400, msgNewsletterMissing},
			{`{"subject":"a\nBcc: x@example.com","content":"x"}`, 400, "The subject must be a single line."},
			{`{"subject":"` + strings.Repeat("s", 201) + `","content":"x"}`, 400, "The subject must be at most 200 characters."},
			{`{"subject":"x","content":"` + strings.Repeat("c", 50_001) + `"}`, 400, "The content must be at most 50,000 characters."},
			{`{"subject":5,"content":"x"}`, 400, "subject must be a string"},
			{`{"subject":"x","content":"x","includeStats":"yes"}`, 400, "includeStats must be true or false"},
			{`{"subject":"a\u0000b","content":"x"}`, 400, msgNUL},
			{`{"subject":"x"`, 400, "Malformed JSON body"},
			{`[]`, 400, "Request body must be a JSON object"},
			{`{"subject":"x","content":"` + strings.Repeat("c", 1<<20) + `"}`, 413, "Request body too large"},
		} {
			expect(t, a.do(a.admin, "POST", "/api/send-newsletter", tc.body), tc.status, tc.message)
		}
		if n := storetest.Count(t, st, "mailings"); n != 0 {
			t.Fatalf("refused input queued %d mailings", n)
		}

		// A burst of the same mailing queues it once; the rest are told
		// that it is still being sent.
		var wg sync.WaitGroup
		statuses := make(chan int, 20)
		for range 20 {
			wg.Go(func() {
				req, _ := http.NewRequest("POST", a.srv.URL+"/api/send-welcome-to-all", nil)
				resp, err := a.admin.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			})
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[http.StatusAccepted] != 1 || count[http.StatusConflict] != 19 {
			t.Errorf("burst answers %v, want one 202 and nineteen 409", count)
		}
		expect(t, a.do(a.admin, "GET", "/api/mailings/999999", ""), http.StatusNotFound, "Mailing not found")
		expect(t, a.do(a.admin, "GET", "/api/mailings/abc", ""), http.StatusNotFound, "Mailing not found")
	})
}

func TestMailingsAreRefusedWhileMailIsOff(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, func(d *Deps) { d.Mailer = mail.LogMailer{Logger: slog.New(slog.DiscardHandler)} })
		admin := e.browser()
		e.register(admin, "boss@example.com", "boss-pass-12")
		if err := st.SetAdmin(context.Background(), "boss@example.com", true); err != nil {
			t.Fatal(err)
		}
		if stats := expect(t, e.do(admin, "GET", "/api/newsletter/stats", ""), http.StatusOK, ""); stats["mailEnabled"] != false {
			t.Errorf("stats %v", stats)
		}
		for _, ep := range adminEndpoints[1:5] {
			expect(t, e.do(admin, ep.method, ep.path, ep.body), http.StatusServiceUnavailable, msgMailOff)
		}
		expect(t, e.do(admin, "POST", "/api/send-test-email", ""), http.StatusServiceUnavailable, msgMailOff)
		if n := storetest.Count(t, st, "mailings"); n != 0 {
			t.Errorf("%d mailings queued with mail off", n)
		}
	})
}

func TestUnsubscribePage(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		ctx := context.Background()
		key, err := mailings.UnsubscribeKey(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		link := mailings.UnsubscribeURL("", key, "reader@example.com")
		c := e.browser()

		// A GET (a person or a link scanner) only shows the button.
		r := e.do(c, "GET", link, "")
		if r.StatusCode != 200 || !strings.Contains(string(r.body), `<form method="post">`) || !strings.Contains(string(r.body), "reader@example.com") ||
			!strings.Contains(r.Header.Get("Content-Security-Policy"), "form-action 'self'") {
			t.Fatalf("GET: %d %s", r.StatusCode, r.body)
		}
		if yes, _ := st.IsUnsubscribed(ctx, "reader@example.com"); yes {
			t.Fatal("a GET unsubscribed")
		}
		// Forged or damaged tokens change nothing.
		for _, bad := range []string{"/unsubscribe", "/unsubscribe?token=abc", link + "x", mailings.UnsubscribeURL("", []byte("another key"), "reader@example.com")} {
			if r := e.do(c, "POST", bad, ""); r.StatusCode != 400 || !strings.Contains(string(r.body), "not valid") {
				t.Errorf("POST %s: %d", bad, r.StatusCode)
			}
		}
		if yes, _ := st.IsUnsubscribed(ctx, "reader@example.com"); yes {
			t.Fatal("a bad token unsubscribed")
		}
		// The button's POST unsubscribes at once.
		r = e.do(c, "POST", link, "", "Origin", e.srv.URL, "Content-Type", "application/x-www-form-urlencoded")
		if r.StatusCode != 200 || !strings.Contains(string(r.body), "You are unsubscribed") {
			t.Fatalf("POST: %d %s", r.StatusCode, r.body)
		}
		if yes, _ := st.IsUnsubscribed(ctx, "reader@example.com"); !yes {
			t.Fatal("not unsubscribed")
		}
	})
}
