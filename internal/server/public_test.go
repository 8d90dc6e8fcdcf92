package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func contactBody(fields map[string]any) string {
	m := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "subject": "Printing a menu code",
		"message": "How small can the code on our table cards be?", "inquiryType": "support"}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestContactStoresAndMails(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.SupportEmail = "help@squarely.test" }))
		m := expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(map[string]any{"name": "  Ada Lovelace  "})), http.StatusCreated, msgContactSent)
		if m["id"] == nil {
			t.Errorf("no id in %v", m)
		}
		if n := storetest.Count(t, st, "contact_messages"); n != 1 {
			t.Fatalf("%d contact messages stored, want 1", n)
		}
		e.mail.mu.Lock()
		defer e.mail.mu.Unlock()
		if len(e.mail.sent) != 1 {
			t.Fatalf("%d mails sent, want 1", len(e.mail.sent))
		}
		got := e.mail.sent[0]
		if got.To != "help@squarely.test" || got.Headers["Reply-To"] != "ada@example.com" {
			t.Errorf("mail to %q reply-to %q", got.To, got.Headers["Reply-To"])
		}
		if got.Subject != "[Squarely contact: support] Printing a menu code" {
			t.Errorf("subject %q", got.Subject)
		}
		for _, part := range []string{got.Text, got.HTML} {
			if !strings.Contains(part, "How small can the code on our table cards be?") || !strings.Contains(part, "Ada Lovelace") {
				t.Errorf("mail part lacks the message or name:\n%s", part)
			}
		}
	})
}

// Without a support address the message is kept and the log says why no mail went out.
func TestContactWithoutSupportEmail(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(nil)), http.StatusCreated, msgContactSent)
	if n := storetest.Count(t, st, "contact_messages"); n != 1 {
		t.Errorf("%d stored, want 1", n)
	}
	if len(e.mail.sent) != 0 {
		t.Errorf("mailed %d messages with no support address", len(e.mail.sent))
	}
	if !strings.Contains(e.logs.String(), "SQUARELY_SUPPORT_EMAIL is not set") {
		t.Errorf("log does not say why: %s", e.logs.String())
	}
}

func TestContactBadInput(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st, withConfig(func(c *config.Config) { c.SupportEmail = "help@squarely.test" }))
	huge := strings.Repeat("x", maxJSONBody+1)
	for _, tc := range []struct {
		name, body     string
		status         int
		message, field string
	}{
		{"short name", contactBody(map[string]any{"name": " A "}), 400, msgContactName, "name"},
		{"no name", contactBody(map[string]any{"name": nil}), 400, msgContactName, "name"},
		{"long name", contactBody(map[string]any{"name": strings.Repeat("é", 101)}), 400, "Name must be at most 100 characters", "name"},
		{"bad email", contactBody(map[string]any{"email": "ada@"}), 400, msgContactEmail, "email"},
		{"display-name email", contactBody(map[string]any{"email": "Ada <ada@example.com>"}), 400, msgContactEmail, "email"},
		{"header injection", contactBody(map[string]any{"email": "ada@example.com\r\nBcc: x@example.com"}), 400, msgContactEmail, "email"},
		{"short subject", contactBody(map[string]any{"subject": "Hi"}), 400, msgContactSubject, "subject"},
		{"long subject", contactBody(map[string]any{"subject": strings.Repeat("s", 201)}), 400, "Subject must be at most 200 characters", "subject"},
		{"short message", contactBody(map[string]any{"message": "Too short"}), 400, msgContactMessage, "message"},
		{"long message", contactBody(map[string]any{"message": strings.Repeat("m", 5001)}), 400, "Message must be at most 5000 characters", "message"},
		{"unknown inquiry type", contactBody(map[string]any{"inquiryType": "spam"}), 400, msgContactType, "inquiryType"},
		{"missing inquiry type", contactBody(map[string]any{"inquiryType": nil}), 400, msgContactType, "inquiryType"},
		{"wrong type", contactBody(map[string]any{"name": 42}), 400, "name must be a string", ""},
		{"NUL", contactBody(map[string]any{"message": "Hello there\u0000friend"}), 400, msgNUL, ""},
		{"malformed", `{"name":`, 400, "Malformed JSON body", ""},
		{"array", `[1,2]`, 400, "Request body must be a JSON object", ""},
		{"empty", ``, 400, "Request body is empty", ""},
		{"oversize", `{"message":"` + huge + `"}`, 413, "Request body too large", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := expect(t, e.do(e.browser(), "POST", "/api/contact", tc.body), tc.status, tc.message)
			if tc.field != "" {
				if errs, _ := m["errors"].(map[string]any); errs[tc.field] != tc.message {
					t.Errorf("errors = %v, want %s: %q", m["errors"], tc.field, tc.message)
				}
			}
		})
	}
	// Every rule at once: each field gets its own message.
	m := expect(t, e.do(e.browser(), "POST", "/api/contact", `{"name":"","email":"","subject":"","message":"","inquiryType":""}`), 400, msgContactName)
	if errs := m["errors"].(map[string]any); len(errs) != 5 {
		t.Errorf("errors = %v, want all five fields", errs)
	}
	r := e.do(e.browser(), "POST", "/api/contact", contactBody(nil), "Content-Type", "text/plain")
	expect(t, r, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
	if n := storetest.Count(t, st, "contact_messages"); n != 0 || len(e.mail.sent) != 0 {
		t.Errorf("bad input stored %d messages and mailed %d", n, len(e.mail.sent))
	}
}

// A sender address gets a few messages an hour, also in a parallel burst;
// another address from the same client is still heard, up to the client's limit.
func TestContactRateLimit(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	var wg sync.WaitGroup
	statuses := make(chan int, 20)
	for range 20 {
		wg.Go(func() { statuses <- e.do(e.browser(), "POST", "/api/contact", contactBody(nil)).StatusCode })
	}
	wg.Wait()
	close(statuses)
	counts := map[int]int{}
	for s := range statuses {
		counts[s]++
	}
	if counts[http.StatusCreated] != contactsPerSenderPerHour || counts[http.StatusTooManyRequests] != 20-contactsPerSenderPerHour {
		t.Fatalf("burst of 20 from one sender: %v", counts)
	}
	if n := storetest.Count(t, st, "contact_messages"); n != contactsPerSenderPerHour {
		t.Fatalf("%d stored, want %d", n, contactsPerSenderPerHour)
	}
	r := e.do(e.browser(), "POST", "/api/contact", contactBody(map[string]any{"email": "ADA@example.com"}))
	expect(t, r, http.StatusTooManyRequests, msgContactSender)
	if r.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(map[string]any{"email": "grace@example.com"})), http.StatusCreated, msgContactSent)
	e.clock.Advance(61 * time.Minute)
	expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(nil)), http.StatusCreated, msgContactSent)

	// Many sender addresses from one client stop at the client's limit.
	e.clock.Advance(61 * time.Minute)
	for i := range contactsPerClientPerHour {
		expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(map[string]any{"email": fmt.Sprintf("s%d@example.com", i)})), http.StatusCreated, "")
	}
	expect(t, e.do(e.browser(), "POST", "/api/contact", contactBody(map[string]any{"email": "next@example.com"})), http.StatusTooManyRequests, msgContactClient)
}

func TestNewsletterSignup(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		expect(t, e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":" Fin@Example.com "}`), http.StatusOK, msgSubscribed)
		// Already subscribed (in any case, and many at once): success, still one row.
		var wg sync.WaitGroup
		for range 6 {
			wg.Go(func() {
				if r := e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":"fin@example.com"}`); r.StatusCode != http.StatusOK {
					t.Errorf("repeat sign-up: %d %s", r.StatusCode, r.body)
				}
			})
		}
		wg.Wait()
		if n := storetest.Count(t, st, "newsletter_subscriptions"); n != 1 {
			t.Errorf("%d subscriptions, want 1", n)
		}
	})
}

func TestNewsletterSignupBadInput(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	for _, tc := range []struct {
		body    string
		status  int
		message string
	}{
		{`{"email":""}`, 400, msgNewsletterEmail},
		{`{}`, 400, msgNewsletterEmail},
		{`{"email":"a@b"}`, 400, msgNewsletterEmail},
		{`{"email":"` + strings.Repeat("a", 250) + `@example.com"}`, 400, msgNewsletterEmail},
		{`{"email":["a@example.com"]}`, 400, "email must be a string"},
		{`{"email":"a\u0000@example.com"}`, 400, msgNUL},
		{`{"email":"a@example.com"} {}`, 400, "Request body must hold a single JSON value"},
		{`{"email":"` + strings.Repeat("x", maxJSONBody) + `"}`, 413, "Request body too large"},
	} {
		expect(t, e.do(e.browser(), "POST", "/api/newsletter-signup", tc.body), tc.status, tc.message)
	}
	if n := storetest.Count(t, st, "newsletter_subscriptions"); n != 0 {
		t.Errorf("bad input stored %d subscriptions", n)
	}
	// Sign-ups count as a visitor's writes: a flood from one address stops.
	for i := range anonWritesPerHour {
		r := e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":"reader`+strings.Repeat("x", i%3)+`@example.com"}`)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("sign-up %d: %d %s", i, r.StatusCode, r.body)
		}
	}
	expect(t, e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":"late@example.com"}`), http.StatusTooManyRequests, "")
}
