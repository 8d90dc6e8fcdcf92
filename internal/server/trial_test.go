package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestTrialForSignedInUser(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("trial@example.com")
		status := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		want := map[string]any{"isActive": false, "hasExpired": false, "trialUsed": false, "daysRemaining": 0.0, "subscriptionStatus": "free",
			"dynamicQRUsed": 0.0, "dynamicQRLimit": 12.0, "canCreateDynamicQR": true}
		for k, v := range want {
			if status[k] != v {
				t.Errorf("before: %s = %v, want %v", k, status[k], v)
			}
		}

		m := expect(t, e.do(c, "POST", "/api/activate-trial", `{"email":"trial@example.com"}`), http.StatusOK, "Free trial activated")
		user := m["user"].(map[string]any)
		if user["trialActivated"] != true || user["trialStartDate"] != "2026-03-01T12:00:00Z" || user["trialEndDate"] != "2026-03-04T12:00:00Z" {
			t.Errorf("user after activation: %v", user)
		}
		for _, tc := range []struct {
			after  time.Duration
			days   float64
			active bool
		}{{0, 3, true}, {36 * time.Hour, 2, true}, {24 * time.Hour, 1, true}, {11*time.Hour + 59*time.Minute, 1, true}, {time.Minute, 0, false}} {
			e.clock.Advance(tc.after)
			s := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
			if s["daysRemaining"] != tc.days || s["isActive"] != tc.active || s["hasExpired"] != !tc.active {
				t.Errorf("at %v: %v", e.clock.Now(), s)
			}
		}
		expect(t, e.do(c, "POST", "/api/activate-trial", `{"email":"trial@example.com"}`), http.StatusConflict, "Your free trial has already been used")

		// The account's trial is used: a workspace it makes offers none and starts none.
		team := expect(t, e.do(c, "POST", "/api/workspaces", `{"name":"Second try"}`), http.StatusCreated, "")
		expect(t, e.do(c, "POST", "/api/workspaces/"+idOf(team)+"/activate", ""), http.StatusOK, "")
		s := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if s["trialUsed"] != true || s["isActive"] != false || s["hasExpired"] != false {
			t.Errorf("a new workspace of a used account: %v", s)
		}
		expect(t, e.do(c, "POST", "/api/activate-trial", `{"email":"trial@example.com"}`), http.StatusConflict, "Your free trial has already been used")
		if s := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, ""); s["isActive"] != false {
			t.Errorf("after a refused activation: %v", s)
		}
	})
}

// Issue 32 item 3: while the trial runs the workspace has what a
// subscription adds (no dynamic-code limit, for every way of making one),
// and loses it when the trial ends; the codes made meanwhile stay.
func TestTrialGivesPremiumRights(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 2 }))
		c, _ := e.signedIn("premium-trial@example.com")
		msg := "You have reached your limit of 2 dynamic QR codes. Please upgrade to create more." + msgFreeShared
		first := e.createDynamic(c, "https://example.com/1")
		e.createDynamic(c, "https://example.com/2")
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/3", ""}), http.StatusForbidden, msg)

		expect(t, e.do(c, "POST", "/api/activate-trial", `{"email":"premium-trial@example.com"}`), http.StatusOK, "Free trial activated")
		e.createDynamic(c, "https://example.com/3")
		e.createDynamic(c, "https://example.com/4")
		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(first)+"/duplicate", ""), http.StatusCreated, "")
		s := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if s["isActive"] != true || s["canCreateDynamicQR"] != true || s["dynamicQRUsed"] != 5.0 || s["dynamicQRLimit"] != 2.0 {
			t.Errorf("during the trial: %v", s)
		}

		// A second before its end it still holds; at its end it is over.
		e.clock.Advance(trialLength - time.Second)
		e.createDynamic(c, "https://example.com/6")
		e.clock.Advance(time.Second)
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/7", ""}), http.StatusForbidden, msg)
		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(first)+"/duplicate", ""), http.StatusForbidden, msg)
		s = expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if s["isActive"] != false || s["hasExpired"] != true || s["canCreateDynamicQR"] != false || s["dynamicQRUsed"] != 6.0 {
			t.Errorf("after the trial: %v", s)
		}
		// The codes made during the trial keep working.
		expectRedirect(t, e.scan(first["shortCode"].(string), iPhoneUA), "https://example.com/1")
	})
}

func TestTrialBadEmail(t *testing.T) {
	e := start(t, storetest.Open(t))
	for body, msg := range map[string]string{
		`{"email":""}`:             msgTrialEmailRequired,
		`{"email":"   "}`:          msgTrialEmailRequired,
		`{}`:                       msgTrialEmailRequired,
		`{"email":"not-an-email"}`: msgTrialEmailInvalid,
		`{"email":"a@b"}`:          msgTrialEmailInvalid,
	} {
		r := e.do(e.browser(), "POST", "/api/activate-trial", body)
		m := expect(t, r, http.StatusBadRequest, msg)
		if m["errors"].(map[string]any)["email"] != msg || r.cookie() != nil {
			t.Errorf("%s: %v, cookie %v", body, m, r.cookie())
		}
	}
	expect(t, e.do(e.browser(), "POST", "/api/activate-trial", `{"email":1}`), http.StatusBadRequest, "email must be a string")
}

func TestTrialForVisitor(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		r := e.do(c, "POST", "/api/activate-trial", `{"email":" New@Example.com "}`)
		m := expect(t, r, http.StatusOK, "Free trial activated")
		if user := m["user"].(map[string]any); user["username"] != "new@example.com" || user["trialActivated"] != true {
			t.Errorf("user: %v", user)
		}
		if ck := r.cookie(); ck == nil || ck.Value == "" {
			t.Fatal("the new account is not signed in")
		}
		expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		if s := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, ""); s["isActive"] != true || s["daysRemaining"] != 3.0 {
			t.Errorf("status: %v", s)
		}

		// The set-password link was mailed.
		token := e.mail.link(t, "new@example.com", `http://localhost:8080/set-password\?token=([A-Za-z0-9_-]{43})`)

		// No password yet: logging in fails until the link is used.
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("new@example.com", "secret1")), http.StatusUnauthorized, "")
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"`+token+`","password":"abc"}`), http.StatusBadRequest, "Password must be at least 6 characters")
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"wrong","password":"secret1"}`), http.StatusBadRequest, msgPasswordLinkBad)
		other := e.browser()
		set := e.do(other, "POST", "/api/set-password", `{"token":"`+token+`","password":"secret1"}`)
		if u := expect(t, set, http.StatusOK, ""); u["username"] != "new@example.com" || set.cookie() == nil {
			t.Fatalf("set-password: %v", u)
		}
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("new@example.com", "secret1")), http.StatusOK, "")
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"`+token+`","password":"other12"}`), http.StatusBadRequest, msgPasswordLinkBad)

		// An existing account's e-mail never signs a visitor in.
		for _, email := range []string{"new@example.com", "NEW@example.com"} {
			r := e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"`+email+`"}`)
			expect(t, r, http.StatusConflict, msgTrialAccountExists)
			if ck := r.cookie(); ck != nil && ck.Value != "" {
				t.Errorf("%s: a session cookie was set", email)
			}
		}
	})
}

func TestSetPasswordLinkExpires(t *testing.T) {
	e := start(t, storetest.Open(t))
	expect(t, e.do(e.browser(), "POST", "/api/activate-trial", `{"email":"late@example.com"}`), http.StatusOK, "")
	token := e.mail.link(t, "late@example.com", `set-password\?token=([A-Za-z0-9_-]+)`)
	e.clock.Advance(trialLinkLifetime)
	expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"`+token+`","password":"secret1"}`), http.StatusBadRequest, msgPasswordLinkBad)
}
