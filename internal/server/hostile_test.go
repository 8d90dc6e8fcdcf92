package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// NUL characters would make PostgreSQL fail (a 500); every way in refuses
// them with a 400 and stores nothing.
func TestNULCharactersRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("nul@example.com")
		code := e.createDynamic(c, "https://example.com/")
		for _, r := range []*response{
			e.do(c, "POST", "/api/generate-qrcode", `{"qrType":"url","url":"https://example.com/","sessionId":"s\u0000"}`),
			e.do(c, "POST", "/api/track-generation", `{"qrType":"url","qrData":{"k\u0000":"v"}}`),
			e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(code), `{"name":"a\u0000b"}`),
			e.do(e.browser(), "POST", "/api/register", `{"email":"n2@example.com","password":"secret1","firstName":"a\u0000"}`),
		} {
			expect(t, r, http.StatusBadRequest, msgNUL)
		}
		for _, r := range []*response{
			e.postForm(c, "/api/qrcodes", part{"qrType", "email", ""}, part{"email", "a@example.com", ""}, part{"subject", "a\x00b", ""}),
			e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/", ""}, part{"name", "a\x00b", ""}),
		} {
			if m := expect(t, r, http.StatusBadRequest, msgNUL); m["errors"] == nil {
				t.Errorf("%s: no field named in %v", r.Request.URL.Path, m)
			}
		}

		ctx := context.Background()
		a, err := st.UserAnalytics(ctx, uid, uid, e.clock.Now().Add(-analyticsWindow))
		if err != nil {
			t.Fatal(err)
		}
		if a.TotalGenerations != 0 || a.StaticQRCodes != 0 || a.DynamicQRCodes != 1 {
			t.Errorf("refused requests stored something: %+v", a)
		}
		if d, err := st.DynamicCode(ctx, uid, int64(code["id"].(float64))); err != nil || d.Name != code["name"] {
			t.Errorf("refused rename changed the code: %v %v", d, err)
		}
		if _, err := st.UserByUsername(ctx, "n2@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("refused registration created a user (err %v)", err)
		}
		// A backslash before u0000 is not a NUL.
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(code), `{"name":"a\\u0000b"}`), http.StatusOK, "")
	})
}

// Visitors' requests that store records are limited per address; previews
// and signed-in users are not.
func TestAnonymousWritesLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		from := func(c *http.Client, addr, path, body string) *response {
			return e.do(c, "POST", path, body, "X-Forwarded-For", addr)
		}
		const gen = `{"qrType":"url","url":"https://example.com/"}`
		v := e.browser()
		for i := 1; i <= anonWritesPerHour; i++ {
			m := expect(t, from(v, "203.0.113.5", "/api/generate-qrcode", gen), http.StatusOK, "")
			if m["id"] != float64(i) {
				t.Fatalf("generation %d got id %v", i, m["id"])
			}
		}
		const msg = "Too many QR codes from this address. Please try again later or sign in."
		r := from(v, "203.0.113.5", "/api/generate-qrcode", gen)
		expect(t, r, http.StatusTooManyRequests, msg)
		if r.Header.Get("Retry-After") != "3600" {
			t.Errorf("Retry-After %q, want 3600", r.Header.Get("Retry-After"))
		}
		expect(t, from(v, "203.0.113.5", "/api/download-qrcode", gen), http.StatusTooManyRequests, msg)
		expect(t, from(v, "203.0.113.5", "/api/track-generation", `{"qrType":"url"}`), http.StatusTooManyRequests, msg)
		expect(t, from(v, "203.0.113.5", "/api/generate-qrcode", `{"qrType":"payment","productName":"Tea","productPrice":"2.50"}`), http.StatusTooManyRequests, msg)
		// Previews store nothing and go on.
		expect(t, from(v, "203.0.113.5", "/api/generate-qrcode", `{"qrType":"url","url":"https://example.com/","temporary":true}`), http.StatusOK, "")
		// A signed-in user at the same address is not limited.
		c := e.browser()
		expect(t, from(c, "203.0.113.6", "/api/register", registerBody("lim@example.com", "secret1")), http.StatusCreated, "")
		expect(t, from(c, "203.0.113.5", "/api/generate-qrcode", gen), http.StatusOK, "")
		// Another address is not limited, and the refusals stored nothing.
		if m := expect(t, from(v, "203.0.113.7", "/api/generate-qrcode", gen), http.StatusOK, ""); m["id"] != float64(anonWritesPerHour+2) {
			t.Errorf("id %v after the refusals, want %d", m["id"], anonWritesPerHour+2)
		}
		if _, err := st.PaymentProduct(context.Background(), 1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a refused payment code created a product (err %v)", err)
		}
		e.clock.Advance(time.Hour)
		expect(t, from(v, "203.0.113.5", "/api/generate-qrcode", gen), http.StatusOK, "")
	})
}

// Wrong set-password tokens count as failed logins, so guessing (each try
// costs a bcrypt hash) stops at the login limit.
func TestSetPasswordAttemptsLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.LoginRateLimit = 3 }))
		for range 3 {
			expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"guess","password":"secret1"}`), http.StatusBadRequest, msgPasswordLinkBad)
		}
		r := e.do(e.browser(), "POST", "/api/set-password", `{"token":"guess","password":"secret1"}`)
		expect(t, r, http.StatusTooManyRequests, "Too many failed attempts. Please try again in a minute.")
		if r.Header.Get("Retry-After") != "60" {
			t.Errorf("Retry-After %q, want 60", r.Header.Get("Retry-After"))
		}
		e.clock.Advance(time.Minute)
		expect(t, e.do(e.browser(), "POST", "/api/set-password", `{"token":"guess","password":"secret1"}`), http.StatusBadRequest, msgPasswordLinkBad)
	})
}

// Every signed-in route answers 401 without a session, and every id route
// answers a malformed, negative, zero or overflowing id as not found.
func TestSignedInRoutesAndMalformedIDs(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		type route struct{ method, path, body string }
		signedIn := []route{
			{"GET", "/api/user", ""},
			{"POST", "/api/qrcodes", ""}, {"GET", "/api/qrcodes", ""},
			{"POST", "/api/upload-pdf", ""}, {"POST", "/api/upload-logo", ""},
			{"POST", "/api/dynamic-qrcodes", ""}, {"GET", "/api/dynamic-qrcodes", ""}, {"GET", "/api/dynamic-qrcodes/paused", ""},
			{"GET", "/api/user-analytics", ""}, {"GET", "/api/trial-status", ""},
			{"PUT", "/api/update-name", `{"firstName":"x"}`}, {"POST", "/api/delete-account", ""},
			{"POST", "/api/change-password", `{}`}, {"POST", "/api/resend-verification", ""},
			{"GET", "/api/analytics", ""}, {"GET", "/api/analytics/breakdown.csv?by=country", ""},
		}
		idRoutes := []route{
			{"GET", "/api/qrcodes/%s/image", ""}, {"PATCH", "/api/qrcodes/%s", `{"name":"x"}`}, {"DELETE", "/api/qrcodes/%s", ""},
			{"PUT", "/api/dynamic-qrcodes/%s", `{"destination":"https://example.com/"}`},
			{"PATCH", "/api/dynamic-qrcodes/%s", `{"name":"x"}`}, {"DELETE", "/api/dynamic-qrcodes/%s", ""},
			{"POST", "/api/dynamic-qrcodes/%s/pause", ""}, {"POST", "/api/dynamic-qrcodes/%s/resume", ""},
			{"GET", "/api/dynamic-qrcodes/%s/image", ""}, {"GET", "/api/dynamic-qrcodes/%s/analytics", ""},
			{"GET", "/api/dynamic-qrcodes/%s/scans.csv", ""}, {"GET", "/api/dynamic-qrcodes/%s/breakdown.csv?by=country", ""},
			{"PUT", "/api/qrcodes/%s", ""}, {"PUT", "/api/qrcodes/%s/style", ""}, {"PUT", "/api/dynamic-qrcodes/%s/style", ""},
			{"POST", "/api/qrcodes/%s/style/preview", ""}, {"POST", "/api/dynamic-qrcodes/%s/style/preview", ""},
			{"POST", "/api/qrcodes/%s/duplicate", ""}, {"POST", "/api/dynamic-qrcodes/%s/duplicate", ""},
		}
		for _, rt := range signedIn {
			expect(t, e.do(e.browser(), rt.method, rt.path, rt.body), http.StatusUnauthorized, "Not authenticated")
		}
		c, _ := e.signedIn("ids@example.com")
		for _, rt := range idRoutes {
			expect(t, e.do(e.browser(), rt.method, fmt.Sprintf(rt.path, "1"), rt.body), http.StatusUnauthorized, "Not authenticated")
			for _, id := range []string{"-1", "0", "abc", "1.5", "9223372036854775808", "%00"} {
				expect(t, e.do(c, rt.method, fmt.Sprintf(rt.path, id), rt.body), http.StatusNotFound, msgCodeMissing)
			}
		}
	})
}

// Signed-in users' stored files are limited per account: uploads and logos
// sent with a saved or dynamic code count alike; other accounts and codes
// without a file are not affected.
func TestUserUploadsLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("uploader@example.com")
		logo := string(pngBytes(t, 4, 4))
		for range userUploadsPerHour - 2 {
			expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", logo, "l.png"}), http.StatusCreated, "")
		}
		url := []part{{"qrType", "url", ""}, {"url", "https://example.com/", ""}}
		expect(t, e.postForm(c, "/api/qrcodes", append(url, part{"logoFile", logo, "l.png"})...), http.StatusCreated, "")
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/", ""}, part{"logoFile", logo, "l.png"}), http.StatusCreated, "")
		expectBlobs(t, st, userUploadsPerHour)

		const msg = "Too many uploads. Please try again later."
		r := e.postForm(c, "/api/upload-logo", part{"logoFile", logo, "l.png"})
		expect(t, r, http.StatusTooManyRequests, msg)
		if r.Header.Get("Retry-After") != "3600" {
			t.Errorf("Retry-After %q, want 3600", r.Header.Get("Retry-After"))
		}
		expect(t, e.postForm(c, "/api/upload-pdf", part{"pdfFile", "%PDF-1.4\n", "a.pdf"}), http.StatusTooManyRequests, msg)
		expect(t, e.postForm(c, "/api/upload-image", part{"imageFile", logo, "i.png"}), http.StatusTooManyRequests, msg)
		expect(t, e.postForm(c, "/api/qrcodes", append(url, part{"logoFile", logo, "l.png"})...), http.StatusTooManyRequests, msg)
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/", ""}, part{"logoFile", logo, "l.png"}), http.StatusTooManyRequests, msg)
		expectBlobs(t, st, userUploadsPerHour)
		// Codes without a file, and other accounts, go on.
		expect(t, e.postForm(c, "/api/qrcodes", url...), http.StatusCreated, "")
		other, _ := e.signedIn("other-uploader@example.com")
		expect(t, e.postForm(other, "/api/upload-logo", part{"logoFile", logo, "l.png"}), http.StatusCreated, "")
		e.clock.Advance(time.Hour)
		expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", logo, "l.png"}), http.StatusCreated, "")
	})
}
