package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// totpCode is the code of secret at the server's clock plus offset steps.
func (e *env) totpCode(secret string, offset int64) string {
	e.t.Helper()
	code, err := auth.TOTPCode(secret, auth.TOTPStep(e.clock.Now())+offset)
	if err != nil {
		e.t.Fatal(err)
	}
	return code
}

// enableTOTP sets up and enables TOTP for the signed-in browser c and
// returns the secret and the recovery codes.
func (e *env) enableTOTP(c *http.Client) (secret string, recovery []string) {
	e.t.Helper()
	setup := expect(e.t, e.do(c, "POST", "/api/2fa/totp/setup", ""), http.StatusOK, "")
	secret = setup["secret"].(string)
	r := expect(e.t, e.do(c, "POST", "/api/2fa/totp/enable", `{"code":"`+e.totpCode(secret, 0)+`"}`), http.StatusOK, "")
	for _, c := range r["recoveryCodes"].([]any) {
		recovery = append(recovery, c.(string))
	}
	return secret, recovery
}

// verifiedUser registers email with password in a new browser, proves the
// address and returns the signed-in browser.
func (e *env) verifiedUser(email, password string) *http.Client {
	e.t.Helper()
	c := e.browser()
	e.register(c, email, password)
	e.verifyEmail(c, email)
	return c
}

// passwordStep signs in with a password in a new browser and checks that
// it asks for the second factor without signing in.
func (e *env) passwordStep(email, password string, header ...string) *http.Client {
	e.t.Helper()
	c := e.browser()
	r := e.do(c, "POST", "/api/login", loginBody(email, password), header...)
	m := expect(e.t, r, http.StatusOK, "")
	if m["twoFactorRequired"] != true || fmt.Sprint(m["methods"]) != "[totp recovery]" || m["id"] != nil {
		e.t.Fatalf("login answered %v, want twoFactorRequired with the methods and no user", m)
	}
	if r.cookie() != nil {
		e.t.Fatal("the password alone set a session cookie")
	}
	expect(e.t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
	return c
}

func codeBody(field, code string) string {
	b, _ := json.Marshal(map[string]string{field: code})
	return string(b)
}

func TestTOTPSetupAndEnable(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)

		// An unproven address cannot turn it on: a squatter's 2FA would lock out the owner.
		unverified := e.browser()
		e.register(unverified, "squat@example.com", "secret1")
		expect(t, e.do(unverified, "POST", "/api/2fa/totp/setup", ""), http.StatusForbidden, msgVerifyBefore2FA)
		expect(t, e.do(e.browser(), "POST", "/api/2fa/totp/setup", ""), http.StatusUnauthorized, "")

		c := e.verifiedUser("ann@example.com", "secret1")
		expect(t, e.do(c, "POST", "/api/2fa/totp/enable", `{"code":"123456"}`), http.StatusConflict, msgTOTPNotSetUp)
		setup := expect(t, e.do(c, "POST", "/api/2fa/totp/setup", ""), http.StatusOK, "")
		secret := setup["secret"].(string)
		if !regexp.MustCompile(`^[A-Z2-7]{32}$`).MatchString(secret) {
			t.Fatalf("secret %q, want 160 bits of base32", secret)
		}
		otp, _ := url.Parse(setup["otpauthUrl"].(string))
		q := otp.Query()
		if otp.Scheme != "otpauth" || otp.Host != "totp" || otp.Path != "/Squarely:ann@example.com" ||
			q.Get("secret") != secret || q.Get("issuer") != "Squarely" || q.Get("digits") != "6" || q.Get("period") != "30" || q.Get("algorithm") != "SHA1" {
			t.Errorf("otpauthUrl %s", otp)
		}
		png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(setup["qrCode"].(string), "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		if got := dec.read(png, "png"); got != setup["otpauthUrl"] {
			t.Errorf("the QR code reads %q, want %q", got, setup["otpauthUrl"])
		}
		status := expect(t, e.do(c, "GET", "/api/2fa", ""), http.StatusOK, "")
		if status["totp"] != false {
			t.Errorf("status %v before enabling", status)
		}

		// A set-up secret does not guard sign-in until enabled.
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("ann@example.com", "secret1")), http.StatusOK, "")

		for _, body := range []string{`{"code":""}`, `{}`, `{"code":"` + strings.Repeat("1", 100) + `"}`} {
			expect(t, e.do(c, "POST", "/api/2fa/totp/enable", body), http.StatusBadRequest, "Enter the 6-digit code from your authenticator app")
		}
		expect(t, e.do(c, "POST", "/api/2fa/totp/enable", `{"code":12}`), http.StatusBadRequest, "")
		expect(t, e.do(c, "POST", "/api/2fa/totp/enable", `{"code":"000000x"}`), http.StatusBadRequest, msgCodeWrong)
		expect(t, e.do(c, "POST", "/api/2fa/totp/enable", codeBody("code", e.totpCode(secret, 2))), http.StatusBadRequest, msgCodeWrong)

		r := expect(t, e.do(c, "POST", "/api/2fa/totp/enable", codeBody("code", e.totpCode(secret, -1))), http.StatusOK, "")
		codes := r["recoveryCodes"].([]any)
		seen := map[string]bool{}
		for _, rc := range codes {
			if !regexp.MustCompile(`^[a-z2-9]{5}-[a-z2-9]{5}$`).MatchString(rc.(string)) || seen[rc.(string)] {
				t.Errorf("recovery code %q malformed or repeated", rc)
			}
			seen[rc.(string)] = true
		}
		if len(codes) != 10 {
			t.Errorf("%d recovery codes, want 10", len(codes))
		}
		status = expect(t, e.do(c, "GET", "/api/2fa", ""), http.StatusOK, "")
		if status["totp"] != true || status["recoveryCodesLeft"] != float64(10) {
			t.Errorf("status %v after enabling", status)
		}
		expect(t, e.do(c, "POST", "/api/2fa/totp/setup", ""), http.StatusConflict, msgTOTPAlreadyOn)
		expect(t, e.do(c, "POST", "/api/2fa/totp/enable", codeBody("code", e.totpCode(secret, 0))), http.StatusConflict, msgTOTPAlreadyOn)
		// Recovery codes are stored hashed, never as shown.
		if n := storetest.Count(t, st, `recovery_codes WHERE code_hash = '`+codes[0].(string)+`'`); n != 0 {
			t.Error("a recovery code is stored in the clear")
		}
	})
}

func TestTOTPLogin(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner := e.verifiedUser("bo@example.com", "secret1")
		secret, recovery := e.enableTOTP(owner)
		login2FA := func(c *http.Client, field, code string) *response {
			return e.do(c, "POST", "/api/login/2fa", codeBody(field, code))
		}

		t.Run("no pending sign-in", func(t *testing.T) {
			expect(t, e.do(e.browser(), "GET", "/api/login/2fa", ""), http.StatusUnauthorized, msgPendingGone)
			expect(t, login2FA(e.browser(), "code", e.totpCode(secret, 1)), http.StatusUnauthorized, msgPendingGone)
			expect(t, e.do(e.browser(), "POST", "/api/login/2fa", `{}`), http.StatusBadRequest, "")
			expect(t, e.do(e.browser(), "POST", "/api/login/2fa", `{"code":`), http.StatusBadRequest, "")
		})

		t.Run("wrong, replayed and right codes", func(t *testing.T) {
			c := e.passwordStep("bo@example.com", "secret1")
			m := expect(t, e.do(c, "GET", "/api/login/2fa", ""), http.StatusOK, "")
			if fmt.Sprint(m["methods"]) != "[totp recovery]" {
				t.Errorf("pending methods %v", m)
			}
			expect(t, login2FA(c, "code", "000000"), http.StatusUnauthorized, msgCodeWrong)
			expect(t, login2FA(c, "code", e.totpCode(secret, 2)), http.StatusUnauthorized, msgCodeWrong) // beyond the drift
			// The code that enabled TOTP was taken then.
			expect(t, login2FA(c, "code", e.totpCode(secret, 0)), http.StatusUnauthorized, msgCodeReused)
			r := login2FA(c, "code", e.totpCode(secret, 1)) // the next step: drift
			u := expect(t, r, http.StatusOK, "")
			if u["username"] != "bo@example.com" || r.cookie() == nil {
				t.Fatalf("second step answered %v", u)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
			// The pending sign-in is used up.
			expect(t, login2FA(c, "code", e.totpCode(secret, 1)), http.StatusUnauthorized, msgPendingGone)
			// The same code cannot finish another sign-in, nor an older one,
			// and the person is told to wait for the next; a wrong code is
			// still just wrong.
			c2 := e.passwordStep("bo@example.com", "secret1")
			expect(t, login2FA(c2, "code", e.totpCode(secret, 1)), http.StatusUnauthorized, msgCodeReused)
			expect(t, login2FA(c2, "code", e.totpCode(secret, -1)), http.StatusUnauthorized, msgCodeReused)
			expect(t, login2FA(c2, "code", "000000"), http.StatusUnauthorized, msgCodeWrong)
			e.clock.Advance(60 * time.Second) // two steps on: the used step is still in the drift window
			expect(t, login2FA(c2, "code", e.totpCode(secret, -1)), http.StatusUnauthorized, msgCodeReused)
			expect(t, login2FA(c2, "code", e.totpCode(secret, 0)), http.StatusOK, "")
		})

		t.Run("recovery codes work once", func(t *testing.T) {
			c := e.passwordStep("bo@example.com", "secret1")
			expect(t, login2FA(c, "recoveryCode", "aaaaa-aaaaa"), http.StatusUnauthorized, msgRecoveryCodeWrong)
			expect(t, login2FA(c, "recoveryCode", " "+strings.ToUpper(recovery[3])+" "), http.StatusOK, "")
			c = e.passwordStep("bo@example.com", "secret1")
			expect(t, login2FA(c, "recoveryCode", recovery[3]), http.StatusUnauthorized, msgRecoveryCodeWrong)
			expect(t, login2FA(c, "recoveryCode", strings.ReplaceAll(recovery[4], "-", "")), http.StatusOK, "")
			status := expect(t, e.do(c, "GET", "/api/2fa", ""), http.StatusOK, "")
			if status["recoveryCodesLeft"] != float64(8) {
				t.Errorf("status %v, want 8 codes left", status)
			}
		})

		t.Run("a pending sign-in expires after 5 minutes", func(t *testing.T) {
			e.clock.Advance(30 * time.Second)
			c := e.passwordStep("bo@example.com", "secret1")
			e.clock.Advance(5*time.Minute - time.Second)
			expect(t, e.do(c, "GET", "/api/login/2fa", ""), http.StatusOK, "")
			e.clock.Advance(time.Second)
			expect(t, e.do(c, "GET", "/api/login/2fa", ""), http.StatusUnauthorized, msgPendingGone)
			expect(t, login2FA(c, "code", e.totpCode(secret, 0)), http.StatusUnauthorized, msgPendingGone)
			expect(t, login2FA(c, "recoveryCode", recovery[5]), http.StatusUnauthorized, msgPendingGone)
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		})

		t.Run("mailed links ask for the second factor too", func(t *testing.T) {
			e.clock.Advance(30 * time.Second)
			before := e.mail.sentTo(t, "bo@example.com", 0)
			expect(t, e.do(e.browser(), "POST", "/api/forgot-password", `{"email":"bo@example.com"}`), http.StatusOK, "")
			e.mail.sentTo(t, "bo@example.com", before+1) // forgot-password mails after its answer
			token := e.mail.link(t, "bo@example.com", passwordLinkPattern)
			c := e.browser()
			r := e.do(c, "POST", "/api/set-password", `{"token":"`+token+`","password":"new-secret"}`)
			if m := expect(t, r, http.StatusOK, ""); m["twoFactorRequired"] != true || r.cookie() != nil {
				t.Fatalf("set-password answered %v", m)
			}
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			expect(t, login2FA(c, "code", e.totpCode(secret, 0)), http.StatusOK, "")
			expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		})
	})
}

func TestTOTPDisableAndRegenerate(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.verifiedUser("cy@example.com", "secret1")
		expect(t, e.do(c, "POST", "/api/2fa/disable", `{"password":"secret1"}`), http.StatusConflict, msgTOTPOff)
		secret, recovery := e.enableTOTP(c)

		// A session alone cannot turn it off or mint codes.
		for _, path := range []string{"/api/2fa/disable", "/api/2fa/recovery-codes"} {
			expect(t, e.do(c, "POST", path, `{}`), http.StatusBadRequest, msgPasswordOrCode)
			expect(t, e.do(c, "POST", path, `{"password":"wrong"}`), http.StatusBadRequest, msgPasswordOrCodeBad)
			expect(t, e.do(c, "POST", path, `{"code":"000000"}`), http.StatusBadRequest, msgPasswordOrCodeBad)
			expect(t, e.do(c, "POST", path, `{"code":"`+recovery[0]+`x"}`), http.StatusBadRequest, msgPasswordOrCodeBad)
			expect(t, e.do(c, "POST", path, `{"password":5}`), http.StatusBadRequest, "")
			expect(t, e.do(e.browser(), "POST", path, `{"password":"secret1"}`), http.StatusUnauthorized, "")
		}

		// Regenerating with a recovery code: the old codes stop working.
		r := expect(t, e.do(c, "POST", "/api/2fa/recovery-codes", codeBody("code", recovery[0])), http.StatusOK, "")
		fresh := r["recoveryCodes"].([]any)
		if len(fresh) != 10 {
			t.Fatalf("%d new codes", len(fresh))
		}
		p := e.passwordStep("cy@example.com", "secret1")
		expect(t, e.do(p, "POST", "/api/login/2fa", codeBody("recoveryCode", recovery[1])), http.StatusUnauthorized, msgRecoveryCodeWrong)
		expect(t, e.do(p, "POST", "/api/login/2fa", codeBody("recoveryCode", fresh[0].(string))), http.StatusOK, "")

		// Disabling with a TOTP code; the same code cannot be used twice.
		e.clock.Advance(30 * time.Second)
		code := e.totpCode(secret, 0)
		expect(t, e.do(c, "POST", "/api/2fa/recovery-codes", codeBody("code", code)), http.StatusOK, "")
		expect(t, e.do(c, "POST", "/api/2fa/disable", codeBody("code", code)), http.StatusBadRequest, msgCodeReused)
		expect(t, e.do(c, "POST", "/api/2fa/disable", codeBody("code", e.totpCode(secret, 1))), http.StatusOK, "")
		if s := expect(t, e.do(c, "GET", "/api/2fa", ""), http.StatusOK, ""); s["totp"] != false || s["recoveryCodesLeft"] != float64(0) {
			t.Errorf("status %v after disabling", s)
		}
		expect(t, e.do(e.browser(), "POST", "/api/login", loginBody("cy@example.com", "secret1")), http.StatusOK, "")

		// And with the password.
		e.clock.Advance(30 * time.Second)
		e.enableTOTP(c)
		expect(t, e.do(c, "POST", "/api/2fa/disable", `{"password":"secret1"}`), http.StatusOK, "")
		if s := expect(t, e.do(c, "GET", "/api/2fa", ""), http.StatusOK, ""); s["totp"] != false {
			t.Errorf("status %v after disabling with the password", s)
		}
	})
}

func TestTOTPWrongCodesLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c := e.verifiedUser("dee@example.com", "secret1")
		secret, _ := e.enableTOTP(c)
		burst := func(pending *http.Client, addr func(i int) string) map[int]int {
			statuses := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for i := range 50 {
				wg.Go(func() {
					r := e.do(pending, "POST", "/api/login/2fa", `{"code":"000000"}`, "X-Forwarded-For", addr(i))
					mu.Lock()
					statuses[r.StatusCode]++
					mu.Unlock()
				})
			}
			wg.Wait()
			return statuses
		}

		// From one address: the address limit (10 a minute) holds under 50 at once.
		p := e.passwordStep("dee@example.com", "secret1", "X-Forwarded-For", "203.0.113.5")
		got := burst(p, func(int) string { return "203.0.113.5" })
		if got[http.StatusUnauthorized] != 10 || got[http.StatusTooManyRequests] != 40 {
			t.Fatalf("50 parallel wrong codes from one address: %v, want 10×401 and 40×429", got)
		}
		// Even the right code is refused while limited.
		expect(t, e.do(p, "POST", "/api/login/2fa", codeBody("code", e.totpCode(secret, 1)), "X-Forwarded-For", "203.0.113.5"), http.StatusTooManyRequests, msgTooManyLogins)

		// From many addresses: the account limit (30 an hour, 10 spent) holds.
		e.clock.Advance(time.Minute)
		p = e.passwordStep("dee@example.com", "secret1", "X-Forwarded-For", "203.0.113.6")
		got = burst(p, func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) })
		if got[http.StatusUnauthorized] != 20 || got[http.StatusTooManyRequests] != 30 {
			t.Fatalf("50 parallel wrong codes from 50 addresses: %v, want 20×401 and 30×429", got)
		}
		expect(t, e.do(p, "POST", "/api/login/2fa", codeBody("code", e.totpCode(secret, 0)), "X-Forwarded-For", "198.51.100.200"), http.StatusTooManyRequests, msgAccountLocked)
		e.clock.Advance(time.Hour)
		p = e.passwordStep("dee@example.com", "secret1", "X-Forwarded-For", "203.0.113.6")
		expect(t, e.do(p, "POST", "/api/login/2fa", codeBody("code", e.totpCode(secret, 0)), "X-Forwarded-For", "203.0.113.6"), http.StatusOK, "")
	})
}

func TestGoogleSignInAsksForSecondFactor(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		f := newFakeGoogle(t)
		e := startWithGoogle(t, st, f)
		c := e.verifiedUser("gina@example.com", "secret1")
		secret, _ := e.enableTOTP(c)
		f.identity = map[string]any{"sub": "g-gina", "email": "gina@example.com", "email_verified": true}

		g := e.browser()
		if to := e.googleSignIn(g, nil); to != "/auth?twoFactor=required" {
			t.Fatalf("Google sign-in went to %q, want /auth?twoFactor=required", to)
		}
		expect(t, e.do(g, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		expect(t, e.do(g, "POST", "/api/login/2fa", `{"code":"000000"}`), http.StatusUnauthorized, msgCodeWrong)
		u := expect(t, e.do(g, "POST", "/api/login/2fa", codeBody("code", e.totpCode(secret, 1))), http.StatusOK, "")
		if u["googleId"] != "g-gina" {
			t.Errorf("signed in as %v", u)
		}
		expect(t, e.do(g, "GET", "/api/user", ""), http.StatusOK, "")
	})
}
