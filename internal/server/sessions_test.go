package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const chromeOnWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

// sessionsOf lists the sessions through the API in browser c.
func (e *env) sessionsOf(c *http.Client) []map[string]any {
	e.t.Helper()
	r := e.do(c, "GET", "/api/sessions", "")
	if r.StatusCode != http.StatusOK {
		e.t.Fatalf("GET /api/sessions: %d %s", r.StatusCode, r.body)
	}
	var list []map[string]any
	if err := json.Unmarshal(r.body, &list); err != nil {
		e.t.Fatal(err)
	}
	return list
}

// heldSMTP is a real SMTP server that holds each message while hold is
// set, until release is closed: a mail server that hangs.
type heldSMTP struct {
	*mailtest.Server
	hold    atomic.Bool
	release chan struct{}
}

// startHeldSMTP starts a server over st that mails through a heldSMTP.
func startHeldSMTP(t *testing.T, st *store.Store) (*env, *heldSMTP) {
	h := &heldSMTP{release: make(chan struct{})}
	h.Server = mailtest.Start(t, mailtest.Options{Refuse: func(string, int) *smtp.SMTPError {
		if h.hold.Load() {
			<-h.release
		}
		return nil
	}})
	mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: h.URL(), From: "hello@squarely.test", Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return start(t, st, func(d *Deps) { d.Mailer = mailer }), h
}

// answersWhileHeld sends the request while the server holds mail and
// fails the test unless it answers want within 10 s.
func (h *heldSMTP) answersWhileHeld(t *testing.T, want int, send func() *response) {
	t.Helper()
	answered := make(chan int, 1)
	go func() { answered <- send().StatusCode }()
	select {
	case code := <-answered:
		if code != want {
			t.Fatalf("answered %d, want %d", code, want)
		}
	case <-time.After(10 * time.Second):
		close(h.release)
		t.Fatal("the request waited for the SMTP server")
	}
}

// arrived waits for the message to to with the subject; the test fails
// if it has not come within 20 s.
func (h *heldSMTP) arrived(t *testing.T, to, subject string) mailtest.Received {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		messages := h.Messages()
		if i := slices.IndexFunc(messages, func(m mailtest.Received) bool {
			return m.To[0] == to && m.Header.Get("Subject") == subject
		}); i >= 0 {
			return messages[i]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q to %s never arrived", subject, to)
		}
	}
}

// The new-device mail is queued by the sign-in and sent after it (issue
// 32 item 5): a sign-in answers while the SMTP server holds the message,
// and the message arrives once the server lets it through.
func TestNewDeviceMailLeavesSignIn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, held := startHeldSMTP(t, st)
		e.register(e.browser(), "sam@example.com", "secret1")

		held.hold.Store(true)
		held.answersWhileHeld(t, http.StatusOK, func() *response {
			return e.do(e.browser(), "POST", "/api/login", loginBody("sam@example.com", "secret1"), "User-Agent", chromeOnWindows)
		})
		close(held.release)
		if m := held.arrived(t, "sam@example.com", "New sign-in to your Squarely account"); !strings.Contains(m.Text, `Browser, as it reported itself: "`+chromeOnWindows+`"`) {
			t.Errorf("new-device mail %+v", m)
		}
	})
}

// TestSignUpDoesNotWaitForMail: a new account's link (registration's
// verification link, a visitor's trial's set-password link) is mailed
// after the answer, so an SMTP server that hangs does not hold the
// sign-up, and the mail arrives once the server lets it through.
func TestSignUpDoesNotWaitForMail(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, held := startHeldSMTP(t, st)
		held.hold.Store(true)
		held.answersWhileHeld(t, http.StatusCreated, func() *response {
			return e.do(e.browser(), "POST", "/api/register", registerBody("reg@example.com", "secret1"))
		})
		held.answersWhileHeld(t, http.StatusOK, func() *response {
			return e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"trial@example.com"}`)
		})
		close(held.release)
		held.arrived(t, "reg@example.com", "Confirm your Squarely email address")
		held.arrived(t, "trial@example.com", "Your Squarely free trial: choose a password")
	})
}

func TestSessionsListAndEnd(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		home := e.browser()
		e.register(home, "sam@example.com", "secret1")
		mailsBefore := len(e.mail.sent)

		// A sign-in from another browser: listed with its address, agent and country, and mailed.
		away := e.browser()
		expect(t, e.do(away, "POST", "/api/login", loginBody("sam@example.com", "secret1"),
			"X-Forwarded-For", "8.8.8.8", "User-Agent", chromeOnWindows), http.StatusOK, "")
		list := e.sessionsOf(home)
		if len(list) != 2 {
			t.Fatalf("%d sessions, want 2: %v", len(list), list)
		}
		newest, first := list[0], list[1]
		if newest["ip"] != "8.8.8.8" { // both were last seen at the same instant
			newest, first = first, newest
		}
		if newest["current"] != false || newest["ip"] != "8.8.8.8" || newest["location"] != "US" || newest["userAgent"] != chromeOnWindows {
			t.Errorf("the new session is listed as %v", newest)
		}
		if first["current"] != true || first["location"] != "" || first["id"] == newest["id"] {
			t.Errorf("the current session is listed as %v", first)
		}
		awayID := currentSession(t, e.sessionsOf(away))
		if awayID != newest["id"] {
			t.Error("the other browser does not see its own session as current")
		}
		// The mail is queued by the sign-in and sent just after it.
		var sent []mail.Message
		for deadline := time.Now().Add(10 * time.Second); len(sent) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			e.mail.mu.Lock()
			sent = slices.Clone(e.mail.sent[mailsBefore:])
			e.mail.mu.Unlock()
		}
		if len(sent) != 1 || sent[0].To != "sam@example.com" || sent[0].Subject != "New sign-in to your Squarely account" ||
			!strings.Contains(sent[0].Text, `Browser, as it reported itself: "`+chromeOnWindows+`"`) || !strings.Contains(sent[0].Text, "Country: US") ||
			!strings.Contains(sent[0].Text, "When: 1 March 2026, 12:00 UTC") ||
			!strings.Contains(sent[0].Text, testConfig(t).BaseURL+"/account-settings#sessions") {
			t.Fatalf("new-device mails %+v", sent)
		}
		// Signing in again from a known browser mails nothing.
		expect(t, e.do(away, "POST", "/api/login", loginBody("sam@example.com", "secret1"), "X-Forwarded-For", "8.8.8.8"), http.StatusOK, "")
		if err := e.outbox.Drain(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := len(e.mail.sent) - mailsBefore; n != 1 {
			t.Errorf("%d mails after a sign-in from a known browser, want still 1", n)
		}
		awayID = currentSession(t, e.sessionsOf(away)) // the sign-in started a new session

		// Another user cannot see or end these sessions.
		other := e.browser()
		e.register(other, "eve@example.com", "secret1")
		expect(t, e.do(other, "DELETE", "/api/sessions/"+awayID, ""), http.StatusNotFound, "Session not found")
		expect(t, e.do(other, "DELETE", "/api/sessions/nope", ""), http.StatusNotFound, "Session not found")
		expect(t, e.do(e.browser(), "DELETE", "/api/sessions/"+awayID, ""), http.StatusUnauthorized, "")
		expect(t, e.do(e.browser(), "GET", "/api/sessions", ""), http.StatusUnauthorized, "")
		if len(e.sessionsOf(other)) != 1 {
			t.Error("eve sees sessions that are not hers")
		}

		// Ending one session signs that browser out at once.
		expect(t, e.do(home, "DELETE", "/api/sessions/"+awayID, ""), http.StatusOK, "Session ended")
		expect(t, e.do(away, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		expect(t, e.do(home, "GET", "/api/user", ""), http.StatusOK, "")

		// Revoke others keeps only the asking session.
		for range 3 {
			expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("sam@example.com", "secret1")), http.StatusOK, "")
		}
		if n := len(e.sessionsOf(home)); n != 4 {
			t.Fatalf("%d sessions, want 4", n)
		}
		m := expect(t, e.do(home, "POST", "/api/sessions/revoke-others", ""), http.StatusOK, "")
		if m["ended"] != float64(3) {
			t.Errorf("revoke-others answered %v", m)
		}
		if list := e.sessionsOf(home); len(list) != 1 || list[0]["current"] != true {
			t.Errorf("after revoke-others: %v", list)
		}
		if len(e.sessionsOf(other)) != 1 {
			t.Error("revoke-others ended another user's session")
		}

		// Ending the current session signs out.
		homeID := currentSession(t, e.sessionsOf(home))
		r := e.do(home, "DELETE", "/api/sessions/"+homeID, "")
		expect(t, r, http.StatusOK, "")
		if c := r.cookie(); c == nil || c.MaxAge >= 0 {
			t.Errorf("ending the current session left the cookie: %+v", c)
		}
		expect(t, e.do(home, "GET", "/api/user", ""), http.StatusUnauthorized, "")
	})
}

func TestSessionLastSeenWrittenOncePerMinute(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		e.register(c, "lea@example.com", "secret1")
		seen := func() string { return e.sessionsOf(c)[0]["lastSeenAt"].(string) }
		first := seen()
		e.clock.Advance(59 * time.Second)
		if got := seen(); got != first {
			t.Errorf("lastSeenAt moved to %s within a minute", got)
		}
		e.clock.Advance(2 * time.Second)
		e.do(c, "GET", "/api/user", "")
		if got := seen(); got == first || !strings.HasPrefix(got, "2026-03-01T12:01:01") {
			t.Errorf("lastSeenAt %s after a minute, want 12:01:01", got)
		}
	})
}

// currentSession returns the id of the session marked current.
func currentSession(t *testing.T, list []map[string]any) string {
	t.Helper()
	for _, x := range list {
		if x["current"] == true {
			return x["id"].(string)
		}
	}
	t.Fatalf("no current session in %v", list)
	return ""
}

// The new-device mail quotes the sign-in's User-Agent as the browser's
// words, bounded: whoever signs in writes it, and it must not read as ours.
func TestNewDeviceMailQuotesUserAgent(t *testing.T) {
	e := start(t, storetest.Open(t))
	e.register(e.browser(), "ua@example.com", "secret1")
	lure := "Squarely Security: your account is locked, call +1 555 0100 now\u202e"
	// The override (3 bytes) is mailed as a space: the third é then
	// straddles the bound, and is cut whole.
	xs := strings.Repeat("x", maxMailedUserAgent-len(lure)-3)
	ua := lure + xs + "ééé" + strings.Repeat("y", 300)
	expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("ua@example.com", "secret1"), "User-Agent", ua), http.StatusOK, "")
	var m mail.Message
	for deadline := time.Now().Add(10 * time.Second); m.Subject == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		e.mail.mu.Lock()
		for _, sent := range e.mail.sent {
			if sent.Subject == "New sign-in to your Squarely account" {
				m = sent
			}
		}
		e.mail.mu.Unlock()
	}
	quoted := `Browser, as it reported itself: "` + strings.ReplaceAll(lure, "\u202e", " ") + xs + "éé…\"\n"
	if !strings.Contains(m.Text, quoted) || strings.Contains(m.Text, "Device") || strings.Contains(m.Text, "yyy") {
		t.Fatalf("the mail does not quote the User-Agent, bounded:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, "<code>&#34;Squarely Security: your account is locked") || strings.Contains(m.HTML, "\u202e") {
		t.Fatalf("the HTML mail does not quote the User-Agent:\n%s", m.HTML)
	}
}
