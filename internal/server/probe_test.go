package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// The attacker's probe of issue 21: each test here failed before its fix.

// Addresses under .invalid (the hidden users of client API keys) are
// refused like any invalid address, never with a 500, and nothing is
// mailed to them.
func TestHiddenAddressesRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		admin := e.admin("boss@example.com")
		cl := expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Acme","subdomain":"acme"}`), http.StatusCreated, "")
		id := int64(cl["id"].(float64))
		key := expect(t, e.do(admin, "POST", fmt.Sprintf("/api/white-label/clients/%d/rotate-key", id), ""), http.StatusOK, "")["apiKey"].(string)
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "") // the hidden user exists
		hidden := fmt.Sprintf("client-%d@api.invalid", id)                   // store.clientAccountName
		mailed := len(e.mail.sent)

		for _, address := range []string{hidden, strings.ToUpper(hidden), "someone@example.invalid"} {
			for _, tc := range []struct {
				path, body, field, message string
			}{
				{"/api/register", registerBody(address, "secret-123"), "email", "Invalid email address"},
				{"/api/activate-trial", `{"email":"` + address + `"}`, "email", msgTrialEmailInvalid},
				{"/api/forgot-password", `{"email":"` + address + `"}`, "email", "Invalid email address"},
				{"/api/login", loginBody(address, "secret-123"), "username", "Invalid email address"},
			} {
				r := e.do(e.browser(), "POST", tc.path, tc.body)
				m := expect(t, r, http.StatusBadRequest, "")
				if errs, _ := m["errors"].(map[string]any); errs[tc.field] != tc.message {
					t.Errorf("%s %s: %s, want %q on %s", tc.path, address, r.body, tc.message, tc.field)
				}
			}
		}
		time.Sleep(50 * time.Millisecond) // forgot-password mails after its answer
		if n := len(e.mail.sent); n != mailed {
			t.Errorf("%d mails sent to hidden addresses", n-mailed)
		}
		// The key still works, and its account is still hidden.
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
	})
}

// One address's wrong passwords lock out that account from that address,
// not another account's right password from the same address; a looser
// ceiling per address still stops a spray across accounts.
func TestLoginFailuresPerAddressAndAccount(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.LoginRateLimit = 2 }))
		for _, u := range []string{"victim@example.com", "neighbour@example.com", "late@example.com"} {
			e.register(e.browser(), u, "right-pass")
		}
		login := func(user, password string) *response {
			return e.do(e.browser(), "POST", "/api/login", loginBody(user, password))
		}
		for range 2 {
			expect(t, login("victim@example.com", "wrong-pass"), http.StatusUnauthorized, "Invalid username or password")
		}
		expect(t, login("victim@example.com", "right-pass"), http.StatusTooManyRequests, msgTooManyLogins)
		// Same address, another account: its right password works.
		expect(t, login("neighbour@example.com", "right-pass"), http.StatusOK, "")

		// The ceiling: 10 × 2 failures a minute from the address, whatever
		// the accounts (2 so far); then even a right password waits.
		for i := range 9 {
			for range 2 {
				expect(t, login(fmt.Sprintf("nobody%d@example.com", i), "wrong-pass"), http.StatusUnauthorized, "")
			}
		}
		expect(t, login("late@example.com", "right-pass"), http.StatusTooManyRequests, msgTooManyLogins)
		e.clock.Advance(time.Minute)
		expect(t, login("late@example.com", "right-pass"), http.StatusOK, "")
		expect(t, login("victim@example.com", "right-pass"), http.StatusOK, "")
	})
}

// /api/v1 checks the key before any limiter of its address: failed logins
// do not lock out valid keys, and bad keys have a counter of their own.
func TestAPIKeysIgnoreLoginFailures(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("integrator@example.com")
		key, _ := e.newKey(c, "k")
		limit := testConfig(t).LoginRateLimit
		for range limit {
			expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("integrator@example.com", "wrong-pass")), http.StatusUnauthorized, "")
		}
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("integrator@example.com", "wrong-pass")), http.StatusTooManyRequests, msgTooManyLogins)
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")

		// A token without our prefix is an invalid key, not a missing one.
		expect(t, e.api("nope", "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
		for range limit - 1 {
			expect(t, e.api("sq_guess", "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
		}
		expect(t, e.api("sq_guess", "GET", "/api/v1/codes", ""), http.StatusTooManyRequests, "Too many invalid API keys. Please try again later.")
		// A burst of valid calls from the same address all pass.
		var wg sync.WaitGroup
		statuses := make(chan int, 10)
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- e.api(key, "GET", "/api/v1/codes", "").StatusCode
			}()
		}
		wg.Wait()
		close(statuses)
		for s := range statuses {
			if s != http.StatusOK {
				t.Errorf("a valid key after bad ones: %d", s)
			}
		}
		// Bad keys are not failed logins: another account signs in.
		e.register(e.browser(), "colleague@example.com", "right-pass")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("colleague@example.com", "right-pass")), http.StatusOK, "")
	})
}

// forgot-password answers as fast for an address without an account as for
// one whose account is mailed through a real SMTP server: the median times
// of 20 tries each are within 5 ms.
func TestForgotPasswordSameTime(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		// A mail server across the internet takes a while to accept a
		// message; 20 ms is a near one.
		smtpServer := mailtest.Start(t, mailtest.Options{STARTTLS: true, Refuse: func(string, int) *smtp.SMTPError {
			time.Sleep(20 * time.Millisecond)
			return nil
		}})
		mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: smtpServer.URL(), From: "hello@squarely.test", TLSConfig: smtpServer.ClientTLS, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		e := start(t, st, func(d *Deps) {
			d.Mailer = mailer
			d.Config.AccountMailRateLimit = 1000
		})
		e.register(e.browser(), "known@example.com", "right-pass")
		timed := func(email string) time.Duration {
			began := time.Now()
			expect(t, e.do(e.browser(), "POST", "/api/forgot-password", `{"email":"`+email+`"}`), http.StatusOK, msgForgotMailed)
			return time.Since(began)
		}
		// Each try waits for the mail before the next, so that sending it
		// does not slow the next try down.
		delivered := func() int {
			got := 0
			for _, m := range smtpServer.Messages() {
				if slices.Contains(m.To, "unknown@example.com") {
					t.Fatal("a mail went to an address without an account")
				}
				if slices.Contains(m.To, "known@example.com") && strings.Contains(m.Text, "/set-password?token=") {
					got++
				}
			}
			return got
		}
		settle := func(want int) {
			for deadline := time.Now().Add(20 * time.Second); delivered() < want; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d set-password mails arrived, want %d", delivered(), want)
				}
			}
		}
		timed("known@example.com") // warm up connections and templates
		settle(1)
		timed("unknown@example.com")
		var known, unknown []time.Duration
		for i := range 20 {
			known = append(known, timed("known@example.com"))
			settle(i + 2)
			unknown = append(unknown, timed("unknown@example.com"))
			time.Sleep(5 * time.Millisecond) // its lookup, after the answer
		}
		median := func(d []time.Duration) time.Duration { slices.Sort(d); return (d[9] + d[10]) / 2 }
		mk, mu := median(known), median(unknown)
		t.Logf("median known %v, unknown %v", mk, mu)
		if diff := mk - mu; diff > 5*time.Millisecond || diff < -5*time.Millisecond {
			t.Errorf("medians differ by %v", diff)
		}
		// Every link arrived, and only to the account.
		if n := delivered(); n != 21 {
			t.Errorf("%d set-password mails, want 21", n)
		}
	})
}

// Deleting an account ends its newsletter subscription; a subscription
// older than its account's deletion is left out of newsletters; one made
// after it counts.
func TestDeletedAccountGetsNoNewsletter(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		ctx := context.Background()
		leaving, _ := e.signedIn("leaving@example.com")
		old, _ := e.signedIn("old@example.com")
		for _, email := range []string{"Leaving@Example.com", "old@example.com", "staying@example.com"} {
			expect(t, e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":"`+email+`"}`), http.StatusOK, "")
		}
		expect(t, e.do(leaving, "POST", "/api/delete-account", ""), http.StatusOK, "Account deleted")
		expect(t, e.do(old, "POST", "/api/delete-account", ""), http.StatusOK, "Account deleted")
		audience := func() int {
			t.Helper()
			m := &store.Mailing{Kind: store.MailingNewsletter, Subject: "News", Content: "Hello"}
			if err := st.CreateMailing(ctx, m, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
			// One mailing of a kind at a time: finish this one.
			claimed, err := st.ClaimMailing(ctx, "test", e.clock.Now(), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			for {
				r, err := st.NextRecipient(ctx, claimed.ID, "test", e.clock.Now())
				if err != nil {
					break
				}
				if err := st.FinishRecipient(ctx, r.ID, "sent", "", e.clock.Now()); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.FinishMailing(ctx, claimed.ID, "test", e.clock.Now()); err != nil {
				t.Fatal(err)
			}
			return m.Counts.Total
		}
		if n := audience(); n != 1 {
			t.Errorf("newsletter to %d addresses, want 1 (the deleted accounts' subscriptions ended)", n)
		}
		// A subscription dated before its account's deletion (as rows from
		// before this rule are) is still left out.
		if err := st.Subscribe(ctx, "old@example.com", e.clock.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		if n := audience(); n != 1 {
			t.Errorf("newsletter to %d addresses, want 1 (a subscription older than the deletion)", n)
		}
		// Subscribing again after the deletion is a new wish.
		e.clock.Advance(time.Minute)
		expect(t, e.do(e.browser(), "POST", "/api/newsletter-signup", `{"email":"leaving@example.com"}`), http.StatusOK, "")
		if n := audience(); n != 2 {
			t.Errorf("newsletter to %d addresses, want 2", n)
		}
	})
}
