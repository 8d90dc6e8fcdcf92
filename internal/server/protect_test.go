package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// unlock posts the password page's form as a browser would.
func (e *env) unlock(code, password string, header ...string) *response {
	e.t.Helper()
	body := url.Values{"password": {password}}.Encode()
	return e.do(e.browser(), "POST", "/d/"+code, body, append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)...)
}

func setPassword(e *env, c *http.Client, id, password string) *response {
	e.t.Helper()
	return e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/password", `{"password":"`+password+`"}`)
}

func TestProtectedCodeAsksForItsPassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		c, _ := e.signedIn("protect@example.com")
		d := e.createDynamic(c, "https://example.com/secret-menu")
		code, id := d["shortCode"].(string), idOf(d)
		if d["isProtected"] != false {
			t.Fatalf("a new code is protected: %v", d["isProtected"])
		}
		// Scanned once before, so the cache holds the open code: the change
		// must reach the next scan anyway.
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/secret-menu")

		m := expect(t, setPassword(e, c, id, "open sesame"), http.StatusOK, "")
		if m["isProtected"] != true || strings.Contains(string(setPassword(e, c, id, "open sesame").body), "sesame") {
			t.Fatalf("after setting: %v", m)
		}

		r := e.scan(code, iPhoneUA)
		expectPage(t, r, http.StatusOK, "Password required")
		if r.Header.Get("Location") != "" || strings.Contains(string(r.body), "secret-menu") {
			t.Fatalf("the page reveals the destination: %v %s", r.Header, r.body)
		}
		if csp := r.Header.Get("Content-Security-Policy"); csp != pageCSP || r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("headers: CSP %q Cache-Control %q", csp, r.Header.Get("Cache-Control"))
		}
		if !strings.Contains(string(r.body), `<form method="post">`) || !strings.Contains(string(r.body), `name="password"`) {
			t.Errorf("no password form: %s", r.body)
		}

		wrong := e.unlock(code, "open sesame!")
		expectPage(t, wrong, http.StatusUnauthorized, msgCodePasswordWrong)
		right := e.unlock(code, "open sesame")
		if right.StatusCode != http.StatusSeeOther || right.Header.Get("Location") != "https://example.com/secret-menu" {
			t.Fatalf("right password: %d %q", right.StatusCode, right.Header.Get("Location"))
		}

		// Counted once per page shown: the scan before, the page; not the
		// wrong guess nor the unlocking POST.
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		if list[0]["scanCount"] != 2.0 || list[0]["isProtected"] != true {
			t.Errorf("scanCount %v isProtected %v; want 2 and true", list[0]["scanCount"], list[0]["isProtected"])
		}

		// A paused protected code stays 410 on both the scan and the form.
		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/pause", ""), http.StatusOK, "")
		expectPage(t, e.scan(code, iPhoneUA), http.StatusGone, "paused")
		expectPage(t, e.unlock(code, "open sesame"), http.StatusGone, "paused")
		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/resume", ""), http.StatusOK, "")

		// Clearing opens the code again at the next scan.
		m = expect(t, setPassword(e, c, id, ""), http.StatusOK, "")
		if m["isProtected"] != false {
			t.Fatalf("after clearing: %v", m)
		}
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/secret-menu")
		// A form posted from a page shown before the clearing still gets there.
		if r := e.unlock(code, "anything"); r.StatusCode != http.StatusSeeOther {
			t.Errorf("unlocking an open code: %d", r.StatusCode)
		}
		expectPage(t, e.unlock("nosuchcode", "x"), http.StatusNotFound, "404")
	})
}

func TestCodePasswordOwnerAndInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, _ := e.signedIn("owner@example.com")
		other, _ := e.signedIn("other@example.com")
		d := e.createDynamic(owner, "https://example.com/a")
		code, id := d["shortCode"].(string), idOf(d)

		expect(t, setPassword(e, other, id, "stolen1"), http.StatusNotFound, msgCodeMissing)
		expect(t, setPassword(e, e.browser(), id, "nosession"), http.StatusUnauthorized, "")
		expect(t, setPassword(e, owner, "99999", "secret1"), http.StatusNotFound, msgCodeMissing)
		expect(t, setPassword(e, owner, "abc", "secret1"), http.StatusNotFound, msgCodeMissing)

		for body, msg := range map[string]string{
			`{"password":"short"}`:                           "Password must be at least 6 characters",
			`{"password":"` + strings.Repeat("é", 37) + `"}`: "Password must be at most 72 bytes",
			`{"password":"abc\u0000defg"}`:                   "Text must not contain NUL characters",
			`{"password":12345678}`:                          "",
			`{}`:                                             "Password is required (empty removes it)",
			`{"password":`:                                   "Malformed JSON body",
			`{"password":"secret1","extra":` + strings.Repeat("[", 1<<16): "",
		} {
			r := e.do(owner, "PUT", "/api/dynamic-qrcodes/"+id+"/password", body)
			if r.StatusCode/100 != 4 {
				t.Errorf("%.40q: %d, want a 4xx", body, r.StatusCode)
			}
			m := r.json(t)
			if msg != "" && m["message"] != msg {
				t.Errorf("%.40q: message %q, want %q", body, m["message"], msg)
			}
		}
		// Nothing above changed the code.
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/a")

		// The unlock form refuses a huge body without reading it all.
		expect(t, e.do(e.browser(), "POST", "/d/"+code, "password="+strings.Repeat("a", 1<<20),
			"Content-Type", "application/x-www-form-urlencoded"), http.StatusBadRequest, "")
	})
}

func TestCodePasswordGuessesAreLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("limit@example.com")
		d := e.createDynamic(c, "https://example.com/limited")
		code, id := d["shortCode"].(string), idOf(d)
		expect(t, setPassword(e, c, id, "right-one"), http.StatusOK, "")

		// Right answers are refunded: they never use up the allowance.
		for range codePasswordTriesPerAddress + 2 {
			if r := e.unlock(code, "right-one"); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("right password: %d", r.StatusCode)
			}
		}
		// Wrong guesses from one address, in a parallel burst: at most the
		// allowance is checked (the per-address cap on hashes at once may
		// turn some of those away too), the rest 429, and then even the
		// right password waits.
		var wg sync.WaitGroup
		statuses := make(chan int, codePasswordTriesPerAddress+5)
		for range codePasswordTriesPerAddress + 5 {
			wg.Go(func() { statuses <- e.unlock(code, "wrong-guess").StatusCode })
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if n := counts[http.StatusUnauthorized]; n < 1 || n > codePasswordTriesPerAddress || n+counts[http.StatusTooManyRequests] != codePasswordTriesPerAddress+5 {
			t.Fatalf("burst answers %v, want at most %d × 401 and the rest 429", counts, codePasswordTriesPerAddress)
		}
		r := e.unlock(code, "right-one")
		expect(t, r, http.StatusTooManyRequests, msgCodePasswordTries)
		if r.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		// After the window the address may try again.
		e.clock.Advance(codePasswordWindow)
		if r := e.unlock(code, "right-one"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("after the window: %d", r.StatusCode)
		}
	})
}

func TestCodePasswordGuessesAreLimitedPerCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, _ := e.signedIn("percode@example.com")
		d := e.createDynamic(c, "https://example.com/target")
		other := e.createDynamic(c, "https://example.com/other")
		code, id := d["shortCode"].(string), idOf(d)
		expect(t, setPassword(e, c, id, "right-one"), http.StatusOK, "")
		expect(t, setPassword(e, c, idOf(other), "right-one"), http.StatusOK, "")

		// Guesses spread over many addresses, each under its own allowance,
		// still run out the code's.
		for i := range codePasswordTriesPerCode {
			addr := fmt.Sprintf("198.51.100.%d", i%250+1)
			if r := e.unlock(code, "wrong-guess", "X-Forwarded-For", addr); r.StatusCode != http.StatusUnauthorized {
				t.Fatalf("guess %d from %s: %d", i, addr, r.StatusCode)
			}
		}
		expect(t, e.unlock(code, "right-one", "X-Forwarded-For", "203.0.113.9"), http.StatusTooManyRequests, msgCodePasswordTries)
		// Another code is not affected.
		if r := e.unlock(other["shortCode"].(string), "right-one", "X-Forwarded-For", "203.0.113.9"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("the other code: %d", r.StatusCode)
		}
	})
}
