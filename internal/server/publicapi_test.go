package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// newKey makes a personal API key for the signed-in browser c.
func (e *env) newKey(c *http.Client, name string) (string, float64) {
	e.t.Helper()
	m := expect(e.t, e.do(c, "POST", "/api/api-keys", `{"name":"`+name+`"}`), http.StatusCreated, "")
	key, _ := m["key"].(string)
	return key, m["id"].(float64)
}

// api calls /api/v1 with key as its Bearer token (none when ""), no cookie.
func (e *env) api(key, method, path, body string, header ...string) *response {
	e.t.Helper()
	if key != "" {
		header = append(header, "Authorization", "Bearer "+key)
	}
	return e.do(e.browser(), method, path, body, header...)
}

func TestAPIKeys(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")

		expect(t, e.do(e.browser(), "GET", "/api/api-keys", ""), http.StatusUnauthorized, "Not authenticated")
		expect(t, e.do(alice, "POST", "/api/api-keys", `{"name":"  "}`), http.StatusBadRequest, "Name is required")

		key, id := e.newKey(alice, "Shop")
		if !regexp.MustCompile(`^sq_[0-9A-Za-z]{40}$`).MatchString(key) {
			t.Fatalf("key %q is not sq_ and 40 base62 characters", key)
		}
		var list []map[string]any
		decodeList(t, e.do(alice, "GET", "/api/api-keys", ""), &list)
		if len(list) != 1 || list[0]["masked"] != key[:9]+"…"+key[len(key)-4:] || list[0]["name"] != "Shop" || list[0]["key"] != nil {
			t.Fatalf("listed keys = %v", list)
		}
		// Nothing of the key but its hash, prefix and last 4 is stored.
		if n := storetest.Count(t, st, "api_keys"); n != 1 {
			t.Fatalf("api_keys rows = %d", n)
		}
		if strings.Contains(e.logs.String(), key) {
			t.Error("the key was logged")
		}
		decodeList(t, e.do(bob, "GET", "/api/api-keys", ""), &list)
		if len(list) != 0 {
			t.Fatalf("bob sees %v", list)
		}

		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		path := fmt.Sprintf("/api/api-keys/%d", int64(id))
		expect(t, e.do(bob, "DELETE", path, ""), http.StatusNotFound, "API key not found")
		for _, bad := range []string{"0", "-1", "x", "99999999999999999999"} {
			expect(t, e.do(alice, "DELETE", "/api/api-keys/"+bad, ""), http.StatusNotFound, "API key not found")
		}
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		if r := e.do(alice, "DELETE", path, ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("revoke: %d %s", r.StatusCode, r.body)
		}
		// Revoked means refused at once, on this very instance.
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
	})
}

// A workspace keeps at most maxAPIKeys keys, also when creations race
// (on PostgreSQL 30 at once left 29 keys when the handler counted first).
func TestAPIKeyLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("keys@example.com")
		statuses := make(chan int, 30)
		var wg sync.WaitGroup
		for i := range cap(statuses) {
			wg.Go(func() { statuses <- e.do(alice, "POST", "/api/api-keys", fmt.Sprintf(`{"name":"k%d"}`, i)).StatusCode })
		}
		wg.Wait()
		close(statuses)
		got := map[int]int{}
		for s := range statuses {
			got[s]++
		}
		if got[http.StatusCreated] != maxAPIKeys || got[http.StatusConflict] != cap(statuses)-maxAPIKeys {
			t.Errorf("racing creations: %v, want %d created and the rest 409", got, maxAPIKeys)
		}
		if n := storetest.Count(t, st, "api_keys"); n != maxAPIKeys {
			t.Errorf("%d keys stored, want %d", n, maxAPIKeys)
		}
		expect(t, e.do(alice, "POST", "/api/api-keys", `{"name":"one more"}`), http.StatusConflict, "You have reached the limit of 20 API keys. Revoke one to create another.")
	})
}

func TestPublicAPIAuthentication(t *testing.T) {
	e := start(t, storetest.Open(t))
	c, _ := e.signedIn("cookie@example.com")
	// A session cookie is not a key, and a key needs no CSRF token or Origin.
	r := e.do(c, "GET", "/api/v1/codes", "")
	expect(t, r, http.StatusUnauthorized, "Missing API key: send Authorization: Bearer sq_…")
	if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("WWW-Authenticate = %q", r.Header.Get("WWW-Authenticate"))
	}
	expect(t, e.api("sq_notakey", "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
	key, _ := e.newKey(c, "k")
	expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com"}`,
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusCreated, "")
	expect(t, e.api(key, "GET", "/api/v1/nothing", ""), http.StatusNotFound, "Not found")
	expect(t, e.api(key, "PUT", "/api/v1/codes", "{}"), http.StatusMethodNotAllowed, "Method not allowed")

	// Guessing keys is limited like failed logins.
	for range testConfig(t).LoginRateLimit {
		e.api("sq_guess", "GET", "/api/v1/codes", "")
	}
	expect(t, e.api("sq_guess", "GET", "/api/v1/codes", ""), http.StatusTooManyRequests, "Too many invalid API keys. Please try again later.")
}

// TestPublicAPIStyle: /api/v1 takes the gradient's settings and the new
// shapes, and refuses bad ones by field.
func TestPublicAPIStyle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key, _ := e.newKey(alice, "CRM")
		// The gradient's settings and the new shapes, and their refusals by field.
		g := expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://x.example/g","gradientColor":"#C2185B","gradientType":"radial","gradientOnEyes":true,"dotShape":"classy-rounded","cornerShape":"extra-rounded","innerCornerShape":"dot"}`), http.StatusCreated, "")
		if g["gradientType"] != "radial" || g["gradientAngle"] != 135.0 || g["gradientOnEyes"] != true || g["dotShape"] != "classy-rounded" || g["cornerShape"] != "extra-rounded" || g["innerCornerShape"] != "dot" {
			t.Errorf("styled code = %v", g)
		}
		for body, field := range map[string]string{
			`{"qrType":"url","url":"https://x.example","gradientAngle":"ninety"}`:  "gradientAngle",
			`{"qrType":"url","url":"https://x.example","gradientAngle":360}`:       "gradientAngle",
			`{"qrType":"url","url":"https://x.example","gradientAngle":-1}`:        "gradientAngle",
			`{"qrType":"url","url":"https://x.example","gradientType":"conic"}`:    "gradientType",
			`{"qrType":"url","url":"https://x.example","gradientOnEyes":"yes"}`:    "gradientOnEyes",
			`{"qrType":"url","url":"https://x.example","innerCornerShape":"star"}`: "innerCornerShape",
		} {
			m := expect(t, e.api(key, "POST", "/api/v1/codes", body), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
				t.Errorf("%s: errors %v, want one for %s", body, m["errors"], field)
			}
		}
	})
}

func TestPublicAPICodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 2 }))
		dec := newDecoders(t)
		alice, _ := e.signedIn("alice@example.com")
		key, _ := e.newKey(alice, "CRM")
		base := testConfig(t).BaseURL

		s := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"static","qrType":"url","url":"https://example.com/a","name":"Site","fgColor":"#112233"}`), http.StatusCreated, "")
		if !strings.HasPrefix(s["id"].(string), "s_") || s["kind"] != "static" || s["data"] != "https://example.com/a" || s["fgColor"] != "#112233" || s["name"] != "Site" {
			t.Fatalf("static code = %v", s)
		}
		d := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/menu","qrData":{"url":"https://example.com/menu"}}`), http.StatusCreated, "")
		code, _ := d["shortCode"].(string)
		if !strings.HasPrefix(d["id"].(string), "d_") || d["url"] != base+"/d/"+code || d["destination"] != "https://example.com/menu" {
			t.Fatalf("dynamic code = %v", d)
		}
		// The app sees the same codes.
		var appList []map[string]any
		decodeList(t, e.do(alice, "GET", "/api/dynamic-qrcodes", ""), &appList)
		if len(appList) != 1 || appList[0]["shortCode"] != code {
			t.Fatalf("app's dynamic list = %v", appList)
		}

		// The app's rules, word for word.
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"javascript:alert(1)"}`), http.StatusBadRequest, codes.MsgURLInvalid)
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":""}`), http.StatusBadRequest, "")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"sms"}`), http.StatusBadRequest, codes.MsgBlocked)
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://x.example","fgColor":"#FFFFFF","bgColor":"#FFFFFF"}`), http.StatusBadRequest, "")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"other","qrType":"url"}`), http.StatusBadRequest, "kind must be static or dynamic")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":["https://x.example"]}`), http.StatusBadRequest, "url must be a string, number or boolean")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"`+strings.Repeat("a", 5000)+`"}`), http.StatusBadRequest, "url is too long")
		expect(t, e.api(key, "POST", "/api/v1/codes", `[1]`), http.StatusBadRequest, "Request body must be a JSON object")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url",`), http.StatusBadRequest, "Malformed JSON body")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url"}`, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, "")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://x.example/\u0000"}`), http.StatusBadRequest, msgNUL)
		huge := `{"qrType":"url","name":"` + strings.Repeat("a", maxJSONBody) + `"}`
		expect(t, e.api(key, "POST", "/api/v1/codes", huge), http.StatusRequestEntityTooLarge, "Request body too large")
		expect(t, e.api(key, "POST", "/api/v1/codes", huge, "Idempotency-Key", "huge"), http.StatusRequestEntityTooLarge, "Request body too large")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/2"}`), http.StatusCreated, "")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/3"}`),
			http.StatusForbidden, "You have reached your limit of 2 dynamic QR codes. Please upgrade to create more."+msgFreeShared)

		// List, read, update.
		var list struct{ Data []map[string]any }
		json.Unmarshal(e.api(key, "GET", "/api/v1/codes", "").body, &list)
		if len(list.Data) != 3 {
			t.Fatalf("list = %v", list.Data)
		}
		json.Unmarshal(e.api(key, "GET", "/api/v1/codes?kind=static", "").body, &list)
		if len(list.Data) != 1 || list.Data[0]["id"] != s["id"] {
			t.Fatalf("static list = %v", list.Data)
		}
		dp := "/api/v1/codes/" + d["id"].(string)
		sp := "/api/v1/codes/" + s["id"].(string)
		if got := expect(t, e.api(key, "GET", dp, ""), http.StatusOK, ""); got["shortCode"] != code {
			t.Fatalf("GET = %v", got)
		}
		u := expect(t, e.api(key, "PATCH", dp, `{"name":"Menu","destination":"https://example.com/new"}`), http.StatusOK, "")
		if u["name"] != "Menu" || u["destination"] != "https://example.com/new" {
			t.Fatalf("PATCH = %v", u)
		}
		expectRedirect(t, e.scan(code, desktopUA), "https://example.com/new")
		expect(t, e.api(key, "PATCH", dp, `{"destination":"ftp://x"}`), http.StatusBadRequest, codes.MsgURLInvalid)
		expect(t, e.api(key, "PATCH", sp, `{"destination":"https://example.com"}`), http.StatusBadRequest, "Only dynamic codes have a destination")
		expect(t, e.api(key, "PATCH", sp, `{"name":"`+strings.Repeat("n", 101)+`"}`), http.StatusBadRequest, "Name must be at most 100 characters")
		if got := expect(t, e.api(key, "PATCH", sp, `{"name":"Renamed"}`), http.StatusOK, ""); got["name"] != "Renamed" {
			t.Fatalf("static PATCH = %v", got)
		}

		// Pause and resume.
		if got := expect(t, e.api(key, "POST", dp+"/pause", ""), http.StatusOK, ""); got["isPaused"] != true {
			t.Fatalf("pause = %v", got)
		}
		if r := e.scan(code, desktopUA); r.StatusCode == http.StatusFound {
			t.Fatal("a paused code still redirects")
		}
		expect(t, e.api(key, "POST", dp+"/resume", ""), http.StatusOK, "")
		expect(t, e.api(key, "POST", sp+"/pause", ""), http.StatusBadRequest, "Only dynamic codes can be paused")

		// Images scan, in every format; analytics and CSV.
		for _, f := range []string{"png", "svg", "pdf"} {
			img := e.api(key, "GET", dp+"/image?format="+f, "")
			if img.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", f, img.StatusCode, img.body)
			}
			if got := dec.read(img.body, f); got != base+"/d/"+code {
				t.Errorf("%s image decodes to %q", f, got)
			}
		}
		if got := dec.read(e.api(key, "GET", sp+"/image?format=png", "").body, "png"); got != "https://example.com/a" {
			t.Errorf("static image decodes to %q", got)
		}
		expect(t, e.api(key, "GET", dp+"/image?format=gif", ""), http.StatusBadRequest, "format must be png, svg, pdf or eps")
		a := expect(t, e.api(key, "GET", dp+"/analytics", ""), http.StatusOK, "")
		if a["totalScans"] == nil {
			t.Fatalf("analytics = %v", a)
		}
		if r := e.api(key, "GET", dp+"/scans.csv", ""); r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("scans.csv: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
		}
		expect(t, e.api(key, "GET", sp+"/analytics", ""), http.StatusBadRequest, "Only dynamic codes have analytics")

		// Delete.
		for _, p := range []string{dp, sp} {
			if r := e.api(key, "DELETE", p, ""); r.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE %s: %d %s", p, r.StatusCode, r.body)
			}
			expect(t, e.api(key, "GET", p, ""), http.StatusNotFound, msgCodeMissing)
		}
		if r := e.scan(code, desktopUA); r.StatusCode != http.StatusNotFound {
			t.Fatalf("deleted code's short URL: %d", r.StatusCode)
		}
		for _, p := range []string{"/api/v1/codes/12", "/api/v1/codes/x_1", "/api/v1/codes/d_", "/api/v1/codes/d_-1"} {
			expect(t, e.api(key, "GET", p, ""), http.StatusNotFound, msgCodeMissing)
		}
	})
}

func TestPublicAPIOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		aliceKey, _ := e.newKey(alice, "a")
		bobKey, _ := e.newKey(bob, "b")
		s := expect(t, e.api(aliceKey, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://alice.example"}`), http.StatusCreated, "")
		d := expect(t, e.api(aliceKey, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://alice.example"}`), http.StatusCreated, "")

		// A client's key acts for the client only.
		admin := e.admin("admin@example.com")
		cl := expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Acme","subdomain":"acme"}`), http.StatusCreated, "")
		rot := expect(t, e.do(admin, "POST", fmt.Sprintf("/api/white-label/clients/%d/rotate-key", int64(cl["id"].(float64))), ""), http.StatusOK, "")
		clientKey := rot["apiKey"].(string)
		cc := expect(t, e.api(clientKey, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://acme.example"}`), http.StatusCreated, "")
		acct, err := st.APIKeyAccess(t.Context(), publicapi.HashKey(clientKey))
		if err != nil {
			t.Fatal(err)
		}
		var ccID int64
		fmt.Sscanf(cc["id"].(string), "d_%d", &ccID)
		if got, err := st.DynamicCode(t.Context(), acct.Workspace.ID, ccID); err != nil || got.ClientID != int64(cl["id"].(float64)) {
			t.Fatalf("client code = %+v, %v; want client %v", got, err, cl["id"])
		}

		for _, other := range []string{bobKey, clientKey} {
			for _, id := range []string{s["id"].(string), d["id"].(string)} {
				p := "/api/v1/codes/" + id
				for _, call := range [][2]string{{"GET", p}, {"PATCH", p}, {"DELETE", p}, {"POST", p + "/pause"},
					{"POST", p + "/resume"}, {"GET", p + "/image"}, {"GET", p + "/analytics"}, {"GET", p + "/scans.csv"}} {
					body := ""
					if call[0] == "PATCH" {
						body = `{"name":"stolen"}`
					}
					r := e.api(other, call[0], call[1], body)
					if r.StatusCode != http.StatusNotFound && r.StatusCode != http.StatusBadRequest {
						t.Errorf("%s %s with another's key: %d %s", call[0], call[1], r.StatusCode, r.body)
					}
				}
			}
			var list struct{ Data []map[string]any }
			json.Unmarshal(e.api(other, "GET", "/api/v1/codes", "").body, &list)
			for _, c := range list.Data {
				if c["id"] == s["id"] || c["id"] == d["id"] {
					t.Errorf("another key lists alice's code %v", c["id"])
				}
			}
		}
		// Alice's codes are untouched, and the client's code is not hers.
		if got := expect(t, e.api(aliceKey, "GET", "/api/v1/codes/"+d["id"].(string), ""), http.StatusOK, ""); got["name"] == "stolen" || got["isPaused"] == true {
			t.Fatalf("alice's code changed: %v", got)
		}
		expect(t, e.api(aliceKey, "GET", "/api/v1/codes/"+cc["id"].(string), ""), http.StatusNotFound, msgCodeMissing)
		// The client's code belongs to the client and prints its host.
		if !strings.HasPrefix(cc["url"].(string), "http://acme.localhost:") {
			t.Errorf("client code URL = %v", cc["url"])
		}
		var list struct{ Data []map[string]any }
		json.Unmarshal(e.api(clientKey, "GET", "/api/v1/codes", "").body, &list)
		if len(list.Data) != 1 || list.Data[0]["id"] != cc["id"] {
			t.Errorf("client key lists %v", list.Data)
		}

		// A rotated client key is refused at once.
		expect(t, e.do(admin, "POST", fmt.Sprintf("/api/white-label/clients/%d/rotate-key", int64(cl["id"].(float64))), ""), http.StatusOK, "")
		expect(t, e.api(clientKey, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
	})
}

func TestPublicAPIIdempotency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("idem@example.com")
		key, _ := e.newKey(c, "k")
		body := `{"qrType":"url","url":"https://example.com/once"}`
		first := expect(t, e.api(key, "POST", "/api/v1/codes", body, "Idempotency-Key", "order-1"), http.StatusCreated, "")
		again := e.api(key, "POST", "/api/v1/codes", body, "Idempotency-Key", "order-1")
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || again.json(t)["id"] != first["id"] {
			t.Fatalf("replay: %d %s %s", again.StatusCode, again.Header.Get("Idempotent-Replayed"), again.body)
		}
		if n := storetest.Count(t, st, "qr_codes"); n != 1 {
			t.Fatalf("codes after a replay = %d, want 1", n)
		}
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com/other"}`, "Idempotency-Key", "order-1"),
			http.StatusUnprocessableEntity, "This Idempotency-Key was already used with a different request")
		// A refusal is an answer too: replayed, not retried.
		bad := `{"qrType":"url","url":""}`
		r1 := e.api(key, "POST", "/api/v1/codes", bad, "Idempotency-Key", "bad-1")
		r2 := e.api(key, "POST", "/api/v1/codes", bad, "Idempotency-Key", "bad-1")
		if r1.StatusCode != http.StatusBadRequest || r2.StatusCode != http.StatusBadRequest || string(r1.body) != string(r2.body) {
			t.Fatalf("refusal replay: %d %s / %d %s", r1.StatusCode, r1.body, r2.StatusCode, r2.body)
		}
		// The same Idempotency-Key under another API key is another request.
		other, _ := e.signedIn("other@example.com")
		otherKey, _ := e.newKey(other, "k")
		if got := expect(t, e.api(otherKey, "POST", "/api/v1/codes", body, "Idempotency-Key", "order-1"), http.StatusCreated, ""); got["id"] == first["id"] {
			t.Fatal("another key got alice's replay")
		}
		expect(t, e.api(key, "POST", "/api/v1/codes", body, "Idempotency-Key", "bad key with spaces"), http.StatusBadRequest, "")

		// Parallel repeats create one code.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				r := e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com/par"}`, "Idempotency-Key", "par-1")
				if r.StatusCode != http.StatusCreated && r.StatusCode != http.StatusConflict {
					t.Errorf("parallel repeat: %d %s", r.StatusCode, r.body)
				}
			})
		}
		wg.Wait()
		if n := storetest.Count(t, st, "qr_codes"); n != 3 {
			t.Fatalf("codes after parallel repeats = %d, want 3", n)
		}
	})
}

func TestPublicAPIRateLimit(t *testing.T) {
	e := start(t, storetest.Open(t), withConfig(func(c *config.Config) { c.APIRateLimit = 3 }))
	c, _ := e.signedIn("rate@example.com")
	key, _ := e.newKey(c, "k")
	other, _ := e.newKey(c, "other")
	for i := range 3 {
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		got := e.api(other, "GET", "/api/v1/codes", "")
		if got.Header.Get("RateLimit-Limit") != "3" || got.Header.Get("RateLimit-Remaining") != fmt.Sprint(2-i) {
			t.Fatalf("call %d: RateLimit-Limit %q Remaining %q", i, got.Header.Get("RateLimit-Limit"), got.Header.Get("RateLimit-Remaining"))
		}
	}
	r := e.api(key, "GET", "/api/v1/codes", "")
	expect(t, r, http.StatusTooManyRequests, "Rate limit of 3 requests per minute exceeded")
	if r.Header.Get("Retry-After") != "60" || r.Header.Get("RateLimit-Remaining") != "0" {
		t.Fatalf("429 headers: Retry-After %q Remaining %q", r.Header.Get("Retry-After"), r.Header.Get("RateLimit-Remaining"))
	}
	// A 429 creates nothing, even with an Idempotency-Key.
	expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com"}`, "Idempotency-Key", "x"), http.StatusTooManyRequests, "")
	e.clock.Advance(time.Minute)
	expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")

	// Under a parallel burst the limit holds exactly.
	e.clock.Advance(time.Minute)
	var mu sync.Mutex
	ok := 0
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			if e.api(key, "GET", "/api/v1/codes", "").StatusCode == http.StatusOK {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ok != 3 {
		t.Fatalf("%d of 12 parallel calls passed a limit of 3", ok)
	}
}

func TestPublicAPIBatch(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("batch@example.com")
		key, _ := e.newKey(c, "k")
		r := expect(t, e.api(key, "POST", "/api/v1/codes/batch", `{"codes":[
			{"qrType":"url","url":"https://example.com/1"},
			{"qrType":"url","url":"not a url"},
			null,
			{"kind":"dynamic","qrType":"url","destination":"https://example.com/2"}]}`), http.StatusOK, "")
		results, _ := r["results"].([]any)
		if r["created"] != 2.0 || r["failed"] != 2.0 || len(results) != 4 {
			t.Fatalf("batch = %v", r)
		}
		second := results[1].(map[string]any)
		if second["status"] != 400.0 || second["error"].(map[string]any)["message"] == "" {
			t.Fatalf("refused item = %v", second)
		}
		if n := storetest.Count(t, st, "qr_codes") + storetest.Count(t, st, "dynamic_qr_codes"); n != 2 {
			t.Fatalf("codes stored = %d, want 2", n)
		}
		expect(t, e.api(key, "POST", "/api/v1/codes/batch", `{"codes":[]}`), http.StatusBadRequest, "codes must hold at least one code")
		many := "[" + strings.TrimSuffix(strings.Repeat(`{},`, publicapi.MaxBatchCodes+1), ",") + "]"
		expect(t, e.api(key, "POST", "/api/v1/codes/batch", `{"codes":`+many+`}`), http.StatusBadRequest, "A batch holds at most 1,000 codes")
	})
}

// PATCH /api/v1/codes/batch changes each code as the single PATCH would,
// answers each item's outcome in order, changes nothing for a refused
// item, and honours Idempotency-Key.
func TestPublicAPIBatchUpdate(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("batch@example.com")
		key, _ := e.newKey(c, "k")
		other, _ := e.signedIn("other@example.com")
		otherKey, _ := e.newKey(other, "k")
		made := func(key, body string) map[string]any {
			return expect(t, e.api(key, "POST", "/api/v1/codes", body), http.StatusCreated, "")
		}
		menu := made(key, `{"kind":"dynamic","qrType":"url","destination":"https://old.example/menu","name":"Menu"}`)
		bar := made(key, `{"kind":"dynamic","qrType":"url","destination":"https://old.example/bar","name":"Bar"}`)
		flyer := made(key, `{"qrType":"url","url":"https://old.example/flyer","name":"Flyer"}`)
		theirs := made(otherKey, `{"kind":"dynamic","qrType":"url","destination":"https://theirs.example/","name":"Theirs"}`)
		// 101 static codes: their renames span two transactions.
		var many []string
		for i := range 101 {
			many = append(many, fmt.Sprintf(`{"qrType":"text","text":"n%d","name":"Old %d"}`, i, i))
		}
		created := expect(t, e.api(key, "POST", "/api/v1/codes/batch", `{"codes":[`+strings.Join(many, ",")+`]}`), http.StatusOK, "")
		if created["created"] != 101.0 {
			t.Fatalf("batch create = %v", created["failed"])
		}

		items := []string{
			`{"id":"` + menu["id"].(string) + `","destination":"https://new.example/menu","name":"Spring menu"}`,
			`{"id":"` + theirs["id"].(string) + `","name":"Mine now"}`,
			`{"id":"` + flyer["id"].(string) + `","destination":"https://new.example/flyer"}`,
			`{"id":"` + bar["id"].(string) + `","destination":"javascript:alert(1)"}`,
			`{"id":"x_1","name":"Nobody"}`,
			`null`,
			`{"id":"` + bar["id"].(string) + `","name":"` + strings.Repeat("n", 101) + `"}`,
			`{"id":"` + flyer["id"].(string) + `","name":"Poster"}`,
		}
		for _, code := range created["results"].([]any) {
			id := code.(map[string]any)["code"].(map[string]any)["id"].(string)
			items = append(items, `{"id":"`+id+`","name":"Renamed"}`)
		}
		body := `{"items":[` + strings.Join(items, ",") + `]}`
		r := expect(t, e.api(key, "PATCH", "/api/v1/codes/batch", body, "Idempotency-Key", "rebrand-1"), http.StatusOK, "")
		results := r["results"].([]any)
		if r["updated"] != 103.0 || r["failed"] != 6.0 || len(results) != len(items) {
			t.Fatalf("batch update: updated %v failed %v, %d results", r["updated"], r["failed"], len(results))
		}
		want := []struct {
			status  float64
			message string
		}{
			{200, ""}, {404, msgCodeMissing}, {400, "Only dynamic codes have a destination"}, {400, codes.MsgURLInvalid},
			{404, msgCodeMissing}, {400, "Each change must be a JSON object"}, {400, "Name must be at most 100 characters"}, {200, ""},
		}
		for i, w := range want {
			got := results[i].(map[string]any)
			if got["index"] != float64(i) || got["status"] != w.status {
				t.Errorf("item %d: %v", i, got)
				continue
			}
			if w.message != "" && got["error"].(map[string]any)["message"] != w.message {
				t.Errorf("item %d: error %v, want %q", i, got["error"], w.message)
			}
		}
		if code := results[0].(map[string]any)["code"].(map[string]any); code["name"] != "Spring menu" || code["destination"] != "https://new.example/menu" {
			t.Errorf("changed code = %v", code)
		}
		expectRedirect(t, e.scan(menu["shortCode"].(string), desktopUA), "https://new.example/menu")
		// Refused items changed nothing.
		if got := expect(t, e.api(key, "GET", "/api/v1/codes/"+bar["id"].(string), ""), http.StatusOK, ""); got["name"] != "Bar" || got["destination"] != "https://old.example/bar" {
			t.Errorf("refused code changed: %v", got)
		}
		if got := expect(t, e.api(otherKey, "GET", "/api/v1/codes/"+theirs["id"].(string), ""), http.StatusOK, ""); got["name"] != "Theirs" {
			t.Errorf("another workspace's code changed: %v", got)
		}
		if n := storetest.Count(t, st, "qr_codes WHERE name = 'Renamed'"); n != 101 {
			t.Errorf("%d codes renamed, want 101", n)
		}

		// A repeat is the first answer, changing nothing; the key with
		// another body is refused.
		audit := storetest.Count(t, st, "audit_log")
		again := e.api(key, "PATCH", "/api/v1/codes/batch", body, "Idempotency-Key", "rebrand-1")
		if again.StatusCode != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %d %s", again.StatusCode, again.Header.Get("Idempotent-Replayed"))
		}
		if n := storetest.Count(t, st, "audit_log"); n != audit {
			t.Errorf("a replay wrote %d audit entries", n-audit)
		}
		expect(t, e.api(key, "PATCH", "/api/v1/codes/batch", `{"items":[{"id":"`+menu["id"].(string)+`","name":"X"}]}`, "Idempotency-Key", "rebrand-1"),
			http.StatusUnprocessableEntity, "This Idempotency-Key was already used with a different request")

		expect(t, e.api(key, "PATCH", "/api/v1/codes/batch", `{"items":[]}`), http.StatusBadRequest, "items must hold at least one change")
		tooMany := "[" + strings.TrimSuffix(strings.Repeat(`{"id":"s_1"},`, publicapi.MaxBatchCodes+1), ",") + "]"
		expect(t, e.api(key, "PATCH", "/api/v1/codes/batch", `{"items":`+tooMany+`}`), http.StatusBadRequest, "A batch holds at most 1,000 changes")
		expect(t, e.api(key, "PATCH", "/api/v1/codes/batch", `{"items":[{"id":"s_1","name":5}]}`), http.StatusBadRequest, "")
		expect(t, e.api("", "PATCH", "/api/v1/codes/batch", body), http.StatusUnauthorized, "")
	})
}

// keyWith makes a key for c with the given limits (a JSON fragment after
// the name) and answers it.
func (e *env) keyWith(c *http.Client, limits string) string {
	e.t.Helper()
	m := expect(e.t, e.do(c, "POST", "/api/api-keys", `{"name":"scoped"`+limits+`}`), http.StatusCreated, "")
	return m["key"].(string)
}

// Every keyed /api/v1 route refuses a key without its scope (403
// insufficient_scope, naming it) and lets a key with only that scope past
// the check; keys made without scopes keep every one.
func TestPublicAPIScopes(t *testing.T) {
	e := start(t, storetest.Open(t))
	// A workspace keeps at most 20 keys: the two sets live in two.
	c, _ := e.signedIn("scopes@example.com")
	c2, _ := e.signedIn("scopes2@example.com")
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	consts, err := os.ReadFile("publicapi/scopes.go")
	if err != nil {
		t.Fatal(err)
	}
	scopes := map[string]string{}
	for _, m := range regexp.MustCompile(`(Scope\w+)\s*=\s*"([^"]+)"`).FindAllStringSubmatch(string(consts), -1) {
		scopes[m[1]] = m[2]
	}
	only, without := map[string]string{}, map[string]string{}
	for _, s := range publicapi.Scopes {
		only[s] = e.keyWith(c, `,"scopes":["`+s+`"]`)
		var rest []string
		for _, o := range publicapi.Scopes {
			if o != s {
				rest = append(rest, `"`+o+`"`)
			}
		}
		without[s] = e.keyWith(c2, `,"scopes":[`+strings.Join(rest, ",")+`]`)
	}
	full, _ := e.newKey(c, "full")
	fill := strings.NewReplacer("{id}", "d_1", "{deliveryId}", "1")
	routes := regexp.MustCompile(`v1\.Handle\("([A-Z]+) (/api/v1/[^"]*)", key\(auth\.Perm\w+, publicapi\.(\w+)`).FindAllStringSubmatch(string(src), -1)
	if len(routes) < 20 {
		t.Fatalf("read %d routes", len(routes))
	}
	for _, m := range routes {
		method, path, scope := m[1], fill.Replace(m[2]), scopes[m[3]]
		expect(t, e.api(without[scope], method, path, `{}`), http.StatusForbidden, "This API key does not have the scope "+scope)
		for _, k := range []string{only[scope], full} {
			if r := e.api(k, method, path, `{}`); r.StatusCode == http.StatusForbidden && strings.Contains(string(r.body), "insufficient_scope") {
				t.Errorf("%s %s: a key with %s refused: %s", method, path, scope, r.body)
			}
		}
	}
	r := e.api(without[publicapi.ScopeCodesWrite], "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com"}`)
	if m := r.json(t); r.StatusCode != http.StatusForbidden || m["code"] != "insufficient_scope" {
		t.Errorf("refusal = %d %v", r.StatusCode, m)
	}
	if n := storetest.Count(t, e.store, "qr_codes"); n != 0 {
		t.Errorf("a refused key made %d codes", n)
	}
	var list []map[string]any
	decodeList(t, e.do(c, "GET", "/api/api-keys", ""), &list)
	for _, k := range list {
		if k["name"] == "full" && k["scopes"] != nil {
			t.Errorf("a key made without scopes lists %v", k["scopes"])
		}
	}
}

// A key's limits are checked when it is made; an expired key is refused;
// a key limited to a folder sees, changes and makes only that folder's
// codes, and stops when the folder is deleted.
func TestPublicAPIKeyLimits(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		now := e.clock.Now()
		c, _ := e.signedIn("limits@example.com")
		other, _ := e.signedIn("other@example.com")
		theirFolder := expect(t, e.do(other, "POST", "/api/folders", `{"name":"Theirs"}`), http.StatusCreated, "")["id"].(float64)
		folder := expect(t, e.do(c, "POST", "/api/folders", `{"name":"Shop"}`), http.StatusCreated, "")["id"].(float64)
		fid := fmt.Sprint(folder)

		for _, tc := range []struct{ body, field string }{
			{`,"scopes":[]`, "scopes"},
			{`,"scopes":["codes:read","codes:admin"]`, "scopes"},
			{`,"scopes":["codes:read","codes:read"]`, "scopes"},
			{`,"folderId":` + fmt.Sprint(theirFolder), "folderId"},
			{`,"folderId":` + fid + `,"scopes":["webhooks:write"]`, "scopes"},
			{`,"expiresAt":"tomorrow"`, "expiresAt"},
			{`,"expiresAt":"` + now.Add(-time.Minute).Format(time.RFC3339) + `"`, "expiresAt"},
		} {
			m := expect(t, e.do(c, "POST", "/api/api-keys", `{"name":"k"`+tc.body+`}`), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[tc.field] == nil {
				t.Errorf("%s: %v", tc.body, m)
			}
		}
		if n := storetest.Count(t, st, "api_keys"); n != 0 {
			t.Fatalf("refused keys stored: %d", n)
		}

		// Expiry.
		soon := e.keyWith(c, `,"expiresAt":"`+now.Add(time.Hour).UTC().Format(time.RFC3339)+`"`)
		expect(t, e.api(soon, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		e.clock.Advance(2 * time.Hour)
		expect(t, e.api(soon, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "API key expired")

		// A folder key: its default scopes, its folder's codes only.
		full, _ := e.newKey(c, "full")
		outside := expect(t, e.api(full, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/out"}`), http.StatusCreated, "")
		fk := e.keyWith(c, `,"folderId":`+fid)
		var keys []map[string]any
		decodeList(t, e.do(c, "GET", "/api/api-keys", ""), &keys)
		if keys[0]["folderId"] != folder || fmt.Sprint(keys[0]["scopes"]) != "[codes:read codes:write analytics:read]" {
			t.Errorf("folder key listed as %v", keys[0])
		}
		inside := expect(t, e.api(fk, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/in"}`), http.StatusCreated, "")
		if inside["folderId"] != folder {
			t.Errorf("a folder key's code is in folder %v", inside["folderId"])
		}
		var list struct{ Data []map[string]any }
		json.Unmarshal(e.api(fk, "GET", "/api/v1/codes", "").body, &list)
		if len(list.Data) != 1 || list.Data[0]["id"] != inside["id"] {
			t.Errorf("folder key lists %v", list.Data)
		}
		out := "/api/v1/codes/" + outside["id"].(string)
		expect(t, e.api(fk, "GET", out, ""), http.StatusNotFound, msgCodeMissing)
		expect(t, e.api(fk, "PATCH", out, `{"name":"Taken"}`), http.StatusNotFound, msgCodeMissing)
		expect(t, e.api(fk, "GET", out+"/analytics", ""), http.StatusNotFound, msgCodeMissing)
		if r := e.api(fk, "DELETE", out, ""); r.StatusCode != http.StatusNotFound {
			t.Errorf("folder key deleted a code outside: %d", r.StatusCode)
		}
		batch := expect(t, e.api(fk, "PATCH", "/api/v1/codes/batch", `{"items":[{"id":"`+outside["id"].(string)+`","name":"Taken"},{"id":"`+inside["id"].(string)+`","name":"Mine"}]}`), http.StatusOK, "")
		if batch["updated"] != 1.0 || batch["failed"] != 1.0 {
			t.Errorf("folder key's batch = %v", batch)
		}
		if got := expect(t, e.api(full, "GET", out, ""), http.StatusOK, ""); got["name"] == "Taken" {
			t.Error("a code outside the folder was renamed")
		}
		expect(t, e.api(fk, "GET", "/api/v1/webhooks", ""), http.StatusForbidden, "This API key does not have the scope webhooks:read")
		expect(t, e.api(fk, "GET", "/api/v1/codes/"+inside["id"].(string), ""), http.StatusOK, "")

		// Deleting the folder revokes its keys.
		if r := e.do(c, "DELETE", "/api/folders/"+fid, ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("delete folder: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.api(fk, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
	})
}
