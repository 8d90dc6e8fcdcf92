package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const (
	verifyLinkPattern   = `verify-email\?token=([A-Za-z0-9_-]+)`
	passwordLinkPattern = `set-password\?token=([A-Za-z0-9_-]+)`
)

// verifyEmail follows the newest verification link mailed to email in
// browser c and returns the user it signs in.
func (e *env) verifyEmail(c *http.Client, email string) map[string]any {
	e.t.Helper()
	token := e.mail.link(e.t, email, verifyLinkPattern)
	return expect(e.t, e.do(c, "POST", "/api/verify-email", `{"token":"`+token+`"}`), http.StatusOK, "")
}

// setPasswordByMail follows the newest set-password link mailed to email in
// browser c, choosing password.
func (e *env) setPasswordByMail(c *http.Client, email, password string) map[string]any {
	e.t.Helper()
	token := e.mail.link(e.t, email, passwordLinkPattern)
	return expect(e.t, e.do(c, "POST", "/api/set-password", `{"token":"`+token+`","password":"`+password+`"}`), http.StatusOK, "")
}

// signedOut checks that browser c's session has ended.
func (e *env) signedOut(c *http.Client, who string) {
	e.t.Helper()
	if r := e.do(c, "GET", "/api/user", ""); r.StatusCode != http.StatusUnauthorized {
		e.t.Errorf("%s is still signed in: %d %s", who, r.StatusCode, r.body)
	}
}

// countHashes is an option counting the server's bcrypt computations.
func countHashes(n *atomic.Int64) option {
	return func(d *Deps) { d.PasswordHashed = func() { n.Add(1) } }
}

func TestUpdateName(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, id := e.signedIn("name@example.com")
		u := expect(t, e.do(c, "PUT", "/api/update-name", `{"firstName":"  Ada ","lastName":" Lovelace  "}`), http.StatusOK, "")
		if u["firstName"] != "Ada" || u["lastName"] != "Lovelace" || u["id"] != float64(id) {
			t.Errorf("answer %v", u)
		}
		if got := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, ""); got["firstName"] != "Ada" || got["lastName"] != "Lovelace" {
			t.Errorf("GET /api/user after the update: %v", got)
		}
		long := strings.Repeat("é", maxNameLength+1)
		for _, tc := range []struct{ name, body, field, message string }{
			{"too long", `{"firstName":"` + long + `","lastName":""}`, "firstName", "First name must be at most 100 characters"},
			{"bidi override", `{"firstName":"Ada","lastName":"evil\u202Egnp.exe"}`, "lastName", "Last name must not contain control or formatting characters"},
			{"control", `{"firstName":"a\u0007b","lastName":""}`, "firstName", "First name must not contain control or formatting characters"},
			{"wrong type", `{"firstName":5}`, "firstName", "firstName must be a string"},
			{"NUL", `{"firstName":"a\u0000"}`, "", msgNUL},
			{"malformed", `{"firstName":`, "", "Malformed JSON body"},
		} {
			m := expect(t, e.do(c, "PUT", "/api/update-name", tc.body), http.StatusBadRequest, tc.message)
			if tc.field != "" {
				if errs, _ := m["errors"].(map[string]any); errs[tc.field] == nil {
					t.Errorf("%s: errors %v lack %s", tc.name, m["errors"], tc.field)
				}
			}
		}
		huge := `{"firstName":"` + strings.Repeat("a", 2<<20) + `"}`
		expect(t, e.do(c, "PUT", "/api/update-name", huge), http.StatusRequestEntityTooLarge, "")
		expect(t, e.do(c, "PUT", "/api/update-name", "firstName=x", "Content-Type", "application/x-www-form-urlencoded"), http.StatusUnsupportedMediaType, "")
		if got, _ := st.User(context.Background(), id); got.FirstName != "Ada" || got.LastName != "Lovelace" {
			t.Errorf("bad input changed the name to %q %q", got.FirstName, got.LastName)
		}
		// An emptied name is allowed (the register form sends none).
		if u := expect(t, e.do(c, "PUT", "/api/update-name", `{"firstName":" ","lastName":""}`), http.StatusOK, ""); u["firstName"] != "" {
			t.Errorf("emptied name %v", u["firstName"])
		}
	})
}

func TestDeleteAccount(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, _ := startRecording(t, st)
		c := e.browser()
		e.register(c, "leaving@example.com", "secret1")
		other := e.browser()
		expect(t, e.do(other, "POST", "/api/login", loginBody("leaving@example.com", "secret1")), http.StatusOK, "")
		code := e.createDynamic(c, "https://example.com/menu")["shortCode"].(string)
		expectRedirect(t, e.scan(code, "phone"), "https://example.com/menu") // now cached

		bystander, _ := e.signedIn("stays@example.com")
		kept := e.createDynamic(bystander, "https://example.com/kept")["shortCode"].(string)

		r := e.do(c, "POST", "/api/delete-account", "")
		expect(t, r, http.StatusOK, "Account deleted")
		if ck := r.cookie(); ck == nil || ck.MaxAge >= 0 {
			t.Errorf("the session cookie was not cleared: %+v", ck)
		}
		e.signedOut(c, "the deleting browser")
		e.signedOut(other, "the account's other browser")
		if r := e.scan(code, "phone"); r.StatusCode == http.StatusFound {
			t.Errorf("a deleted account's code still redirects to %s", r.Header.Get("Location"))
		}
		expectRedirect(t, e.scan(kept, "phone"), "https://example.com/kept")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("leaving@example.com", "secret1")), http.StatusUnauthorized, "")
		u, err := st.User(context.Background(), 1)
		if err != nil || !u.IsDeleted || u.DeletedAt == nil {
			t.Errorf("stored %+v, %v: want soft-deleted", u, err)
		}
		// The address is free again.
		e.register(e.browser(), "leaving@example.com", "secret2")
	})
}

func TestChangePassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.LoginRateLimit = 3 }))
		c := e.browser()
		e.register(c, "change@example.com", "old-secret")
		laptop := e.browser()
		expect(t, e.do(laptop, "POST", "/api/login", loginBody("change@example.com", "old-secret")), http.StatusOK, "")

		body := func(current, next, confirm string) string {
			b, _ := json.Marshal(map[string]string{"currentPassword": current, "newPassword": next, "confirmPassword": confirm})
			return string(b)
		}
		for _, tc := range []struct{ name, body, message string }{
			{"no current", body("", "new-secret", "new-secret"), "Current password is required"},
			{"short", body("old-secret", "12345", "12345"), "Password must be at least 6 characters"},
			{"too long", body("old-secret", strings.Repeat("x", 73), strings.Repeat("x", 73)), "Password must be at most 72 bytes"},
			{"no confirmation", body("old-secret", "new-secret", ""), "Please confirm your new password"},
			{"mismatch", body("old-secret", "new-secret", "new-secreT"), "Passwords don't match"},
			{"wrong type", `{"currentPassword":1}`, "currentPassword must be a string"},
		} {
			expect(t, e.do(c, "POST", "/api/change-password", tc.body), http.StatusBadRequest, tc.message)
		}
		// A wrong current password is refused and counts as a failed login.
		for range 2 {
			m := expect(t, e.do(c, "POST", "/api/change-password", body("wrong", "new-secret", "new-secret")), http.StatusBadRequest, "Current password is incorrect")
			if errs, _ := m["errors"].(map[string]any); errs["currentPassword"] == nil {
				t.Errorf("errors %v", m["errors"])
			}
		}
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("change@example.com", "wrong")), http.StatusUnauthorized, "")
		expect(t, e.do(c, "POST", "/api/change-password", body("old-secret", "new-secret", "new-secret")), http.StatusTooManyRequests, msgTooManyLogins)
		e.clock.Advance(time.Minute)

		expect(t, e.do(c, "POST", "/api/change-password", body("old-secret", "new-secret", "new-secret")), http.StatusOK, "Password updated")
		expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		e.signedOut(laptop, "the other session")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("change@example.com", "old-secret")), http.StatusUnauthorized, "")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("change@example.com", "new-secret")), http.StatusOK, "")
	})
}

// An account without a password (Google, trial) sets its first one without
// a current password.
func TestChangePasswordFirstPassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeGoogle(t)
		e := startWithGoogle(t, st, f)
		f.identity = map[string]any{"sub": "g-1", "email": "google@example.com", "email_verified": true}
		c := e.browser()
		if to := e.googleSignIn(c, nil); to != "/" {
			t.Fatalf("redirected to %q", to)
		}
		if m := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, ""); m["hasPassword"] != false {
			t.Errorf("hasPassword = %v", m["hasPassword"])
		}
		expect(t, e.do(c, "POST", "/api/change-password", `{"newPassword":"first-secret","confirmPassword":"first-secret"}`), http.StatusOK, "Password updated")
		if m := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, ""); m["hasPassword"] != true {
			t.Errorf("hasPassword = %v after setting one", m["hasPassword"])
		}
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("google@example.com", "first-secret")), http.StatusOK, "")
		// From now on the current password is needed.
		expect(t, e.do(c, "POST", "/api/change-password", `{"newPassword":"second-secret","confirmPassword":"second-secret"}`), http.StatusBadRequest, "Current password is required")
	})
}

func TestForgotPassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		e.register(c, "forgot@example.com", "lost-secret")
		forgot := func(email string) *response {
			return e.do(e.browser(), "POST", "/api/forgot-password", `{"email":"`+email+`"}`)
		}
		known := forgot("Forgot@Example.com")
		unknown := forgot("nobody@example.com")
		e.mail.sentTo(t, "forgot@example.com", 2) // the verification link, then this one
		expect(t, known, http.StatusOK, msgForgotMailed)
		if string(known.body) != string(unknown.body) || unknown.StatusCode != known.StatusCode {
			t.Errorf("answers differ: %s / %s", known.body, unknown.body)
		}
		for _, m := range e.mail.sent {
			if m.To == "nobody@example.com" {
				t.Error("a mail went to an address without an account")
			}
		}
		expect(t, e.do(e.browser(), "POST", "/api/forgot-password", `{"email":"not-an-email"}`), http.StatusBadRequest, "Invalid email address")
		expect(t, e.do(e.browser(), "POST", "/api/forgot-password", `{"email":["x"]}`), http.StatusBadRequest, "email must be a string")

		token := e.mail.link(t, "forgot@example.com", passwordLinkPattern)
		if strings.Contains(e.logs.String(), token) {
			t.Error("the token is in the log")
		}
		// Single use: the link signs in once and ends the other sessions.
		d := e.browser()
		expect(t, e.do(d, "POST", "/api/set-password", `{"token":"`+token+`","password":"found-secret"}`), http.StatusOK, "")
		e.signedOut(c, "the session from before the reset")
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"`+token+`","password":"again-secret"}`), http.StatusBadRequest, msgPasswordLinkBad)
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("forgot@example.com", "found-secret")), http.StatusOK, "")

		// A link works for one hour.
		before := e.mail.sentTo(t, "forgot@example.com", 0)
		expect(t, forgot("forgot@example.com"), http.StatusOK, msgForgotMailed)
		e.mail.sentTo(t, "forgot@example.com", before+1)
		late := e.mail.link(t, "forgot@example.com", passwordLinkPattern)
		e.clock.Advance(time.Hour)
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"`+late+`","password":"late-secret"}`), http.StatusBadRequest, msgPasswordLinkBad)

		// Requests are limited per e-mail, whether or not it has an account.
		for range 3 {
			expect(t, forgot("nobody@example.com"), http.StatusOK, msgForgotMailed)
		}
		expect(t, forgot("nobody@example.com"), http.StatusTooManyRequests, msgTooManyMails)
		expect(t, forgot("forgot@example.com"), http.StatusOK, msgForgotMailed)
	})
}

// Requests for mails are limited per client address too, across e-mails.
func TestForgotPasswordLimitedPerAddress(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.AccountMailRateLimit = 1 }))
		for i := range 10 {
			expect(t, e.do(e.browser(), "POST", "/api/forgot-password", fmt.Sprintf(`{"email":"n%d@example.com"}`, i)), http.StatusOK, "")
		}
		expect(t, e.do(e.browser(), "POST", "/api/forgot-password", `{"email":"n10@example.com"}`), http.StatusTooManyRequests, msgTooManyMails)
	})
}

func TestVerifyEmail(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		if u := e.register(c, "new@example.com", "secret1"); u["emailVerified"] != false {
			t.Errorf("a new account is verified: %v", u)
		}
		// The account works at once.
		expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		token := e.mail.link(t, "new@example.com", verifyLinkPattern)
		phone := e.browser()
		u := expect(t, e.do(phone, "POST", "/api/verify-email", `{"token":"`+token+`"}`), http.StatusOK, "")
		if u["emailVerified"] != true {
			t.Errorf("after the link: %v", u)
		}
		expect(t, e.do(phone, "GET", "/api/user", ""), http.StatusOK, "")
		e.signedOut(c, "the session from before the verification")
		expect(t, e.do(e.browser(), "POST", "/api/verify-email", `{"token":"`+token+`"}`), http.StatusBadRequest, msgVerifyLinkBad)
		expect(t, e.do(e.browser(), "POST", "/api/verify-email", `{"token":""}`), http.StatusBadRequest, msgVerifyLinkBad)
		expect(t, e.do(phone, "POST", "/api/resend-verification", ""), http.StatusConflict, msgAlreadyVerified)

		d := e.browser()
		e.register(d, "later@example.com", "secret1")
		expect(t, e.do(d, "POST", "/api/resend-verification", ""), http.StatusOK, msgVerifyMailed)
		e.verifyEmail(e.browser(), "later@example.com")
		if strings.Contains(e.logs.String(), token) {
			t.Error("a token is in the log")
		}
	})
}

// A visitor's trial for someone else's address signs in at once, but the
// owner claims the account through the mail and the squatter's session
// dies; registering the address does not sign the squatter in either.
func TestTrialSquattingDefeated(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.AdminEmails = []string{"owner@example.com"} }))
		squatter := e.browser()
		m := expect(t, e.do(squatter, "POST", "/api/activate-trial", `{"email":"owner@example.com"}`), http.StatusOK, msgTrialActivated)
		if u := m["user"].(map[string]any); u["emailVerified"] != false || u["isAdmin"] != false {
			t.Errorf("the squatter's trial user %v", u)
		}
		expect(t, e.do(squatter, "GET", "/api/user", ""), http.StatusOK, "")

		// The owner registers: no 409, no session, a claim link by mail.
		owner := e.browser()
		r := e.do(owner, "POST", "/api/register", registerBody("owner@example.com", "owner-secret"))
		expect(t, r, http.StatusAccepted, msgClaimMailed)
		if r.cookie() != nil {
			t.Error("registering a held address set a cookie")
		}
		u := e.setPasswordByMail(owner, "owner@example.com", "owner-secret")
		if u["emailVerified"] != true || u["isAdmin"] != true {
			t.Errorf("the owner after the claim: %v", u)
		}
		e.signedOut(squatter, "the squatter")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("owner@example.com", "owner-secret")), http.StatusOK, "")
	})
}

// Registering someone else's address with a password does not keep it: the
// owner's claim ends the squatter's session and password.
func TestRegisterSquattingDefeated(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		squatter := e.browser()
		e.register(squatter, "victim@example.com", "squatter-secret")
		owner := e.browser()
		expect(t, e.do(owner, "POST", "/api/register", registerBody("victim@example.com", "owner-secret")), http.StatusAccepted, msgClaimMailed)
		e.setPasswordByMail(owner, "victim@example.com", "owner-secret")
		e.signedOut(squatter, "the squatter")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("victim@example.com", "squatter-secret")), http.StatusUnauthorized, "")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("victim@example.com", "owner-secret")), http.StatusOK, "")
		// Proven now: a second registration is refused.
		refused := expect(t, e.do(e.browser(), "POST", "/api/register", registerBody("victim@example.com", "x-secret")), http.StatusConflict, msgAccountExists)
		if fields, _ := refused["errors"].(map[string]any); fields["email"] != msgAccountExists {
			t.Errorf("the refusal names no field, so the form cannot mark the address: %v", refused)
		}
	})
}

// Google sign-in never links to an unverified account: it claims it, and
// the squatter's session and password stop working.
func TestGoogleSquattingDefeated(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeGoogle(t)
		e := startWithGoogle(t, st, f)
		squatter := e.browser()
		e.register(squatter, "owner@gmail.com", "squatter-secret")
		f.identity = map[string]any{"sub": "g-owner", "email": "owner@gmail.com", "email_verified": true}
		owner := e.browser()
		if to := e.googleSignIn(owner, nil); to != "/" {
			t.Fatalf("redirected to %q", to)
		}
		u := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")
		if u["googleId"] != "g-owner" || u["emailVerified"] != true || u["hasPassword"] != false {
			t.Errorf("the owner after the Google claim: %v", u)
		}
		e.signedOut(squatter, "the squatter")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("owner@gmail.com", "squatter-secret")), http.StatusUnauthorized, "")
	})
}

// A signed-in trial account gets back in after signing out: login explains
// that there is no password and mails a link.
func TestTrialAccountGetsBackIn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		expect(t, e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"trial@example.com"}`), http.StatusOK, "")
		first := e.mail.link(t, "trial@example.com", passwordLinkPattern)
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("trial@example.com", "guess")), http.StatusUnauthorized, msgNoPasswordYet)
		second := e.mail.link(t, "trial@example.com", passwordLinkPattern)
		if second == first {
			t.Fatal("no new link was mailed")
		}
		e.setPasswordByMail(e.browser(), "trial@example.com", "trial-secret")
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("trial@example.com", "trial-secret")), http.StatusOK, "")
	})
}

// 100 parallel wrong logins check at most the limit of passwords: each is
// counted before its check, and refused once over.
func TestParallelWrongLoginsLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		var hashes atomic.Int64
		e := start(t, st, countHashes(&hashes))
		e.register(e.browser(), "target@example.com", "right-secret")
		hashes.Store(0)
		var unauthorized, limited atomic.Int64
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				req, _ := http.NewRequest("POST", e.srv.URL+"/api/login", strings.NewReader(loginBody("target@example.com", "wrong")))
				req.Header.Set("Content-Type", "application/json")
				resp, err := e.srv.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusUnauthorized:
					unauthorized.Add(1)
				case http.StatusTooManyRequests:
					limited.Add(1)
				default:
					t.Errorf("status %d", resp.StatusCode)
				}
			})
		}
		wg.Wait()
		limit := int64(testConfig(t).LoginRateLimit)
		if got := hashes.Load(); got > limit || got != unauthorized.Load() {
			t.Errorf("%d passwords checked (%d answers 401), want at most %d", got, unauthorized.Load(), limit)
		}
		if limited.Load() < 100-limit {
			t.Errorf("%d answers 429, want at least %d", limited.Load(), 100-limit)
		}
	})
}

// Logins are limited per account across addresses (a botnet), and two
// instances over one database share the limits.
func TestLoginLimitPerAccountAcrossAddressesAndInstances(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		var hashes atomic.Int64
		cfg := withConfig(func(c *config.Config) { c.TrustProxy = true; c.LoginAccountRateLimit = 5 })
		a := start(t, st, cfg, countHashes(&hashes))
		b := start(t, st, cfg, countHashes(&hashes))
		a.register(a.browser(), "botnet@example.com", "right-secret")
		hashes.Store(0)
		for i := range 20 {
			e := []*env{a, b}[i%2]
			r := e.do(e.browser(), "POST", "/api/login", loginBody("botnet@example.com", "wrong"), "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1))
			if i < 5 {
				expect(t, r, http.StatusUnauthorized, "Invalid username or password")
			} else {
				expect(t, r, http.StatusTooManyRequests, msgAccountLocked)
			}
		}
		if hashes.Load() != 5 {
			t.Errorf("%d passwords checked, want 5", hashes.Load())
		}
		// Another account from the same addresses is not affected.
		a.register(a.browser(), "other@example.com", "other-secret")
		expect(t, b.do(b.browser(), "POST", "/api/login", loginBody("other@example.com", "other-secret"), "X-Forwarded-For", "203.0.113.1"), http.StatusOK, "")
		// The ceiling per address across accounts is shared between the
		// instances too.
		limit := testConfig(t).LoginRateLimit
		for i := range loginsPerAddressFactor*limit + 2 {
			e := []*env{a, b}[i%2]
			r := e.do(e.browser(), "POST", "/api/login", loginBody(fmt.Sprintf("u%d@example.com", i), "wrong"), "X-Forwarded-For", "198.51.100.8")
			want := http.StatusUnauthorized
			if i >= loginsPerAddressFactor*limit {
				want = http.StatusTooManyRequests
			}
			expect(t, r, want, "")
		}
	})
}

// Parallel set-password attempts: wrong links cost no hash at all, and one
// link sets one password however many use it at once.
func TestParallelSetPassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		var hashes atomic.Int64
		e := start(t, st, countHashes(&hashes), withConfig(func(c *config.Config) { c.LoginRateLimit = 100 }))
		expect(t, e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"race@example.com"}`), http.StatusOK, "")
		token := e.mail.link(t, "race@example.com", passwordLinkPattern)
		parallel := func(n int, body func(i int) string) map[int]int {
			var mu sync.Mutex
			statuses := map[int]int{}
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					req, _ := http.NewRequest("POST", e.srv.URL+"/api/set-password", strings.NewReader(body(i)))
					req.Header.Set("Content-Type", "application/json")
					resp, err := e.srv.Client().Do(req)
					if err != nil {
						t.Error(err)
						return
					}
					resp.Body.Close()
					mu.Lock()
					statuses[resp.StatusCode]++
					mu.Unlock()
				})
			}
			wg.Wait()
			return statuses
		}
		got := parallel(40, func(i int) string { return fmt.Sprintf(`{"token":"guess-%d","password":"secret1"}`, i) })
		if got[http.StatusBadRequest] != 40 || hashes.Load() != 0 {
			t.Errorf("wrong links: statuses %v, %d hashes; want 40 × 400 and none", got, hashes.Load())
		}
		got = parallel(20, func(i int) string { return fmt.Sprintf(`{"token":"%s","password":"secret-%d"}`, token, i) })
		if got[http.StatusOK] != 1 {
			t.Errorf("one link used in parallel: statuses %v, want exactly one 200", got)
		}
		if n := hashes.Load(); n > 20 || n < 1 {
			t.Errorf("%d hashes", n)
		}
	})
}

// At most HashesPerAddress password hashes run at once per address; more
// at once are refused rather than queued.
func TestHashesPerAddressCapped(t *testing.T) {
	g := newGate(2)
	leave1, ok1 := g.enter(nopWriter{}, "a", "")
	leave2, ok2 := g.enter(nopWriter{}, "a", "")
	_, ok3 := g.enter(nopWriter{}, "a", "")
	_, okB := g.enter(nopWriter{}, "b", "")
	if !ok1 || !ok2 || ok3 || !okB {
		t.Fatalf("enter: %v %v %v, other key %v; want true true false, true", ok1, ok2, ok3, okB)
	}
	leave1()
	if _, ok := g.enter(nopWriter{}, "a", ""); !ok {
		t.Error("a slot freed by leave was not reused")
	}
	leave2()
}

type nopWriter struct{}

func (nopWriter) Header() http.Header         { return http.Header{} }
func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (nopWriter) WriteHeader(int)             {}
