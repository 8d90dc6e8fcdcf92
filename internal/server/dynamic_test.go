package server

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const (
	iPhoneUA  = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	slackUA   = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
	desktopUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)

// withRecorder gives the server a recorder the test closes to flush scans.
func withRecorder(r *scans.Recorder) option { return func(d *Deps) { d.Recorder = r } }

// startRecording starts a server whose scans the returned recorder holds
// until the test closes it.
func startRecording(t *testing.T, st *store.Store, opts ...option) (*env, *scans.Recorder) {
	rec := scans.NewRecorder(st, scans.Options{Interval: time.Hour, BatchSize: 1 << 20})
	t.Cleanup(func() { rec.Close(context.Background()) })
	return start(t, st, append(opts, withRecorder(rec))...), rec
}

// createDynamic creates a dynamic code to dest and returns its record.
func (e *env) createDynamic(c *http.Client, dest string, extra ...part) map[string]any {
	e.t.Helper()
	parts := append([]part{{"destination", dest, ""}, {"qrType", "url", ""}, {"qrData", `{"url":"` + dest + `"}`, ""},
		{"qrStyle", "squares", ""}, {"errorCorrectionLevel", "M", ""}}, extra...)
	return expect(e.t, e.postForm(c, "/api/dynamic-qrcodes", parts...), http.StatusCreated, "")
}

// scan opens a short URL as a phone would, without following the redirect.
func (e *env) scan(code, userAgent string) *response {
	e.t.Helper()
	return e.do(e.browser(), "GET", "/d/"+code, "", "User-Agent", userAgent, "Referer", "https://chat.example/room/42?secret=1")
}

func expectRedirect(t *testing.T, r *response, location string) {
	t.Helper()
	if r.StatusCode != http.StatusFound || r.Header.Get("Location") != location {
		t.Fatalf("GET %s: %d Location %q, want 302 to %q", r.Request.URL.Path, r.StatusCode, r.Header.Get("Location"), location)
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", r.Header.Get("Cache-Control"))
	}
}

func expectPage(t *testing.T, r *response, status int, text string) {
	t.Helper()
	if r.StatusCode != status || !strings.Contains(string(r.body), text) || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET %s: %d %q %s, want %d with %q", r.Request.URL.Path, r.StatusCode, r.Header.Get("Content-Type"), r.body, status, text)
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", r.Header.Get("Cache-Control"))
	}
}

func idOf(m map[string]any) string { return fmt.Sprint(int64(m["id"].(float64))) }

func TestDynamicCodeLifecycle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("dyn@example.com")
		base := testConfig(t).BaseURL

		d := e.createDynamic(c, "https://example.com/menu", part{"name", "  Menu  ", ""}, part{"fgColor", "#1a2b3c", ""})
		code, _ := d["shortCode"].(string)
		if !regexp.MustCompile(`^[0-9A-Za-z]{8}$`).MatchString(code) {
			t.Fatalf("shortCode %q is not 8 base62 characters", code)
		}
		if d["shortUrl"] != base+"/d/"+code || d["data"] != d["shortUrl"] || d["qrMode"] != "dynamic" ||
			d["destination"] != "https://example.com/menu" || d["name"] != "Menu" || d["fgColor"] != "#1A2B3C" ||
			d["scanCount"] != 0.0 || d["isPaused"] != false {
			t.Fatalf("created record = %v", d)
		}
		id := idOf(d)

		// The image encodes the short URL, in every format.
		for _, f := range []string{"svg", "png", "pdf"} {
			img := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/image?format="+f, "")
			if img.StatusCode != http.StatusOK {
				t.Fatalf("%s image: %d %s", f, img.StatusCode, img.body)
			}
			if got := dec.read(img.body, f); got != base+"/d/"+code {
				t.Errorf("%s image decodes to %q", f, got)
			}
		}
		dl := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/image?format=png&download=1", "")
		if dl.StatusCode != http.StatusOK || !strings.Contains(dl.Header.Get("Content-Disposition"), `attachment; filename="url.png"`) {
			t.Errorf("download: %d %q", dl.StatusCode, dl.Header.Get("Content-Disposition"))
		}

		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/menu")

		// An edit applies to the very next scan.
		m := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":" https://example.org/new "}`), http.StatusOK, "")
		if m["destination"] != "https://example.org/new" || m["shortCode"] != code {
			t.Errorf("after PUT: %v", m)
		}
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.org/new")

		m = expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"  Lunch "}`), http.StatusOK, "")
		if m["name"] != "Lunch" {
			t.Errorf("renamed to %q", m["name"])
		}
		m = expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"   "}`), http.StatusOK, "")
		if m["name"] != "Lunch" {
			t.Errorf("a blank name changed it to %q", m["name"])
		}

		m = expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/pause", ""), http.StatusOK, "")
		if m["isPaused"] != true || m["pausedAt"] == nil {
			t.Errorf("after pause: %v", m)
		}
		expectPage(t, e.scan(code, iPhoneUA), http.StatusGone, "This QR code is paused")
		var active, paused []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &active)
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes/paused", ""), &paused)
		if len(active) != 0 || len(paused) != 1 || paused[0]["shortCode"] != code {
			t.Fatalf("active %v, paused %v", active, paused)
		}

		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/resume", ""), http.StatusOK, "")
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.org/new")
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &active)
		if len(active) != 1 || active[0]["isPaused"] != false {
			t.Fatalf("after resume: %v", active)
		}

		if r := e.do(c, "DELETE", "/api/dynamic-qrcodes/"+id, ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE: %d %s", r.StatusCode, r.body)
		}
		expectPage(t, e.scan(code, iPhoneUA), http.StatusNotFound, "404 Page Not Found")
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &active)
		if len(active) != 0 {
			t.Errorf("deleted code still listed: %v", active)
		}
		expect(t, e.do(c, "DELETE", "/api/dynamic-qrcodes/"+id, ""), http.StatusNotFound, msgCodeMissing)
		expectPage(t, e.scan("NoSuchCd", iPhoneUA), http.StatusNotFound, "404 Page Not Found")

		// Scans are answered without the per-request Info log.
		if strings.Contains(e.logs.String(), "path=/d/") {
			t.Error("redirects are logged at Info")
		}
	})
}

func decodeList(t *testing.T, r *response, into *[]map[string]any) {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", r.Request.URL.Path, r.StatusCode, r.body)
	}
	*into = nil
	if err := json.Unmarshal(r.body, into); err != nil {
		t.Fatalf("%s: %v in %s", r.Request.URL.Path, err, r.body)
	}
}

func TestDynamicCodeBadInput(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	c, _ := e.signedIn("bad@example.com")

	for _, tc := range []struct {
		parts   []part
		status  int
		message string
	}{
		{[]part{{"qrType", "url", ""}}, 400, codes.MsgURLRequired},
		{[]part{{"destination", "   ", ""}}, 400, codes.MsgURLRequired},
		{[]part{{"destination", "javascript:alert(1)", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "JavaScript://example.com/%0aalert(1)", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "data:text/html,<script>alert(1)</script>", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "/relative/path", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "//example.com/x", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "ftp://example.com/f", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://exa mple.com", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com/\u202Eexe.pdf", ""}}, 400, codes.MsgURLInvalid}, // shown reversed
		{[]part{{"destination", "https://exa\u200Bmple.com", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com/a\u00A0b", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com/a\u2028b", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com/\x7f", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://user:pw@example.com", ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com/" + strings.Repeat("a", codes.MaxDestination), ""}}, 400, codes.MsgURLInvalid},
		{[]part{{"destination", "https://example.com", ""}, {"qrData", "{not json", ""}}, 400, "qrData must be a JSON object"},
		{[]part{{"destination", "https://example.com", ""}, {"qrStyle", "dots", ""}}, 400, "qrStyle must be squares"},
		{[]part{{"destination", "https://example.com", ""}, {"errorCorrectionLevel", "Z", ""}}, 400, "errorCorrectionLevel must be L, M, Q or H"},
		{[]part{{"destination", "https://example.com", ""}, {"qrType", "sms", ""}}, 400, codes.MsgBlocked},
		{[]part{{"destination", "https://example.com", ""}, {"qrType", "fax", ""}}, 400, "Unknown QR code type"},
		{[]part{{"destination", "https://example.com", ""}, {"fgColor", "#FFFFFF", ""}}, 400, ""},
		{[]part{{"destination", "https://example.com", ""}, {"name", strings.Repeat("n", 101), ""}}, 400, "Name must be at most 100 characters"},
		{[]part{{"destination", "https://example.com", ""}, {"name", "invoice\u202Efdp.exe", ""}}, 400, "Name must not contain control or text direction characters"},
		{[]part{{"destination", "https://example.com", ""}, {"logoId", "999999", ""}}, 404, "Logo not found"},
		{[]part{{"destination", "https://example.com", ""}, {"logoFile", "not an image", "logo.png"}}, 415, ""},
	} {
		r := e.postForm(c, "/api/dynamic-qrcodes", tc.parts...)
		expect(t, r, tc.status, tc.message)
	}
	var list []map[string]any
	decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
	if len(list) != 0 {
		t.Fatalf("refused requests created codes: %v", list)
	}

	// Non-ASCII letters are fine: an IDN host, an accented path.
	e.createDynamic(c, "https://bücher.example/straße")
	d := e.createDynamic(c, "https://example.com")
	id := idOf(d)
	for _, bad := range []string{`{"destination":"javascript:alert(1)"}`, `{"destination":""}`, `{"destination":"mailto:a@example.com"}`} {
		r := e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, bad)
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("PUT %s: %d", bad, r.StatusCode)
		}
	}
	expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":`), http.StatusBadRequest, "Malformed JSON body")
	// The create view's regenerate also sends the type and its fields.
	expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/b","qrType":"nope"}`), http.StatusBadRequest, "")
	expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/b","qrData":[1]}`), http.StatusBadRequest, "qrData must be a JSON object")
	expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/b","qrData":"{}"}`), http.StatusBadRequest, "qrData must be a JSON object")
	decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
	for _, m := range list {
		if idOf(m) == id && (m["destination"] != "https://example.com" || m["qrType"] != "url") {
			t.Errorf("refused PUTs changed the code: %v", m)
		}
	}
	m := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/b","qrType":"pdf","qrData":{"title":"Menu"}}`), http.StatusOK, "")
	if m["destination"] != "https://example.com/b" || m["qrType"] != "pdf" || fmt.Sprint(m["qrData"]) != "map[title:Menu]" {
		t.Errorf("PUT with type and fields: %v", m)
	}
	m = expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/c"}`), http.StatusOK, "")
	if m["qrType"] != "pdf" || fmt.Sprint(m["qrData"]) != "map[title:Menu]" {
		t.Errorf("a PUT of the destination alone changed the type or fields: %v", m)
	}
	expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"`+strings.Repeat("x", 101)+`"}`), http.StatusBadRequest, "Name must be at most 100 characters")
	for _, bidi := range []string{`\u202E`, `\u2066`, `\u200F`, `\u061C`} {
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"Menu`+bidi+`gpj.exe"}`), http.StatusBadRequest, "Name must not contain control or text direction characters")
	}
	expect(t, e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/image?format=gif", ""), http.StatusBadRequest, "format must be png, svg, pdf or eps")
	for _, path := range []string{"/api/dynamic-qrcodes/abc/pause", "/api/dynamic-qrcodes/-1/pause", "/api/dynamic-qrcodes/99999/pause"} {
		expect(t, e.do(c, "POST", path, ""), http.StatusNotFound, msgCodeMissing)
	}
}

// Another user's codes are not found, whatever the route; no session is 401.
func TestDynamicCodeOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, _ := e.signedIn("owner@example.com")
		other, _ := e.signedIn("other@example.com")
		d := e.createDynamic(owner, "https://example.com/mine")
		id := idOf(d)
		// Ids are per table: take a static id no dynamic code has.
		var sid string
		for sid == "" || sid == id {
			static := expect(t, e.postForm(owner, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/s", ""}), http.StatusCreated, "")
			sid = idOf(static)
		}

		routes := []struct{ method, path, body string }{
			{"PUT", "/api/dynamic-qrcodes/" + id, `{"destination":"https://evil.example"}`},
			{"PATCH", "/api/dynamic-qrcodes/" + id, `{"name":"stolen"}`},
			{"POST", "/api/dynamic-qrcodes/" + id + "/pause", ""},
			{"POST", "/api/dynamic-qrcodes/" + id + "/resume", ""},
			{"GET", "/api/dynamic-qrcodes/" + id + "/image", ""},
			{"GET", "/api/dynamic-qrcodes/" + id + "/analytics", ""},
			{"GET", "/api/dynamic-qrcodes/" + id + "/scans.csv", ""},
			{"DELETE", "/api/dynamic-qrcodes/" + id, ""},
			{"PATCH", "/api/qrcodes/" + sid, `{"name":"stolen"}`},
			{"DELETE", "/api/qrcodes/" + sid, ""},
		}
		for _, rt := range routes {
			expect(t, e.do(other, rt.method, rt.path, rt.body), http.StatusNotFound, msgCodeMissing)
			expect(t, e.do(e.browser(), rt.method, rt.path, rt.body), http.StatusUnauthorized, "Not authenticated")
		}
		for _, path := range []string{"/api/dynamic-qrcodes", "/api/dynamic-qrcodes/paused", "/api/user-analytics", "/api/trial-status"} {
			expect(t, e.do(e.browser(), "GET", path, ""), http.StatusUnauthorized, "Not authenticated")
		}
		expect(t, e.postForm(e.browser(), "/api/dynamic-qrcodes", part{"destination", "https://example.com", ""}), http.StatusUnauthorized, "Not authenticated")
		var list []map[string]any
		decodeList(t, e.do(other, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 0 {
			t.Errorf("another user's list shows %v", list)
		}
		// Pausing a static code: the route is for dynamic codes only.
		expect(t, e.do(owner, "POST", "/api/dynamic-qrcodes/"+sid+"/pause", ""), http.StatusNotFound, msgCodeMissing)
		// Nothing changed.
		expectRedirect(t, e.scan(d["shortCode"].(string), iPhoneUA), "https://example.com/mine")
	})
}

func TestStaticRenameAndDelete(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	c, _ := e.signedIn("static@example.com")
	q := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com", ""}, part{"name", "Old", ""}), http.StatusCreated, "")
	id := idOf(q)
	m := expect(t, e.do(c, "PATCH", "/api/qrcodes/"+id, `{"name":"  New name "}`), http.StatusOK, "")
	if m["name"] != "New name" || m["qrMode"] != "static" || m["url"] != "https://example.com" {
		t.Errorf("after rename: %v", m)
	}
	m = expect(t, e.do(c, "PATCH", "/api/qrcodes/"+id, `{"name":""}`), http.StatusOK, "")
	if m["name"] != "New name" {
		t.Errorf("a blank name changed it to %v", m["name"])
	}
	if r := e.do(c, "DELETE", "/api/qrcodes/"+id, ""); r.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.StatusCode, r.body)
	}
	var list []map[string]any
	decodeList(t, e.do(c, "GET", "/api/qrcodes", ""), &list)
	if len(list) != 0 {
		t.Errorf("deleted code listed: %v", list)
	}
	expect(t, e.do(c, "PATCH", "/api/qrcodes/"+id, `{"name":"x"}`), http.StatusNotFound, msgCodeMissing)
}

// signInAs creates a user directly in the store (to set what no API sets,
// such as a subscription) and signs in through the API.
func (e *env) signInAs(u *store.User) *http.Client {
	e.t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("secret1"), bcrypt.MinCost)
	if err != nil {
		e.t.Fatal(err)
	}
	u.PasswordHash = string(hash)
	if err := e.store.CreateUser(context.Background(), u); err != nil {
		e.t.Fatal(err)
	}
	c := e.browser()
	expect(e.t, e.do(c, "POST", "/api/login", loginBody(u.Username, "secret1")), http.StatusOK, "")
	return c
}

func TestDynamicLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 3 }))
		c, _ := e.signedIn("limit@example.com")
		const msg = "You have reached your limit of 3 dynamic QR codes. Please upgrade to create more." + msgFreeShared

		// Concurrent creations at the limit: exactly the free slots pass,
		// and the logos sent with the refused ones are not left behind.
		e.createDynamic(c, "https://example.com/0")
		var wg sync.WaitGroup
		statuses := make([]int, 6)
		logo := string(pngBytes(t, 16, 16))
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/n", ""}, part{"logoFile", logo, "logo.png"}).StatusCode
			})
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusForbidden:
			default:
				t.Errorf("status %d", s)
			}
		}
		if created != 2 {
			t.Fatalf("%d created concurrently at the limit, want 2 (statuses %v)", created, statuses)
		}
		if n := storetest.Count(t, st, "blobs"); n != created {
			t.Errorf("%d logos stored for %d codes with one", n, created)
		}
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/4", ""}), http.StatusForbidden, msg)
		status := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if status["dynamicQRUsed"] != 3.0 || status["dynamicQRLimit"] != 3.0 || status["canCreateDynamicQR"] != false {
			t.Errorf("trial status at the limit: %v", status)
		}

		// Deleting one frees a slot.
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		e.do(c, "DELETE", "/api/dynamic-qrcodes/"+idOf(list[0]), "")
		e.createDynamic(c, "https://example.com/again")

		// An active subscription lifts the limit (and the trial, TestTrialGivesPremiumRights).
		sub := e.signInAs(&store.User{Username: "sub@example.com", Email: "sub@example.com", SubscriptionStatus: "active"})
		for i := range 4 {
			e.createDynamic(sub, fmt.Sprintf("https://example.com/s%d", i))
		}
		status = expect(t, e.do(sub, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if status["canCreateDynamicQR"] != true || status["subscriptionStatus"] != "active" || status["dynamicQRUsed"] != 4.0 {
			t.Errorf("subscriber's status: %v", status)
		}
	})
}

func TestRedirectRecordsScans(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		c, _ := e.signedIn("scans@example.com")
		d := e.createDynamic(c, "https://example.com/scan-me")
		code, id := d["shortCode"].(string), idOf(d)

		for _, ua := range []string{iPhoneUA, iPhoneUA, desktopUA, slackUA, "=cmd|' /C calc'!A0"} {
			expectRedirect(t, e.scan(code, ua), "https://example.com/scan-me")
		}
		// HEAD is answered but not counted.
		if r := e.do(e.browser(), "HEAD", "/d/"+code, ""); r.StatusCode != http.StatusFound {
			t.Errorf("HEAD: %d", r.StatusCode)
		}
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}

		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		// The formula-looking agent is an unknown client: counted as human.
		if list[0]["scanCount"] != 4.0 || list[0]["lastScannedAt"] == nil {
			t.Errorf("scanCount %v lastScannedAt %v; want 4 humans (the bot left out)", list[0]["scanCount"], list[0]["lastScannedAt"])
		}
		a := expect(t, e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics", ""), http.StatusOK, "")
		if a["totalScans"] != 5.0 || a["humanScans"] != 4.0 || a["botScans"] != 1.0 || a["uniqueVisitors"] != 3.0 {
			t.Errorf("analytics totals: %v", a)
		}
		daily := a["series"].([]any)
		today := daily[len(daily)-1].(map[string]any)
		if len(daily) != 30 || today["start"] != e.clock.Now().UTC().Truncate(24*time.Hour).Format(time.RFC3339) || today["scans"] != 4.0 {
			t.Errorf("series: %d entries, last %v", len(daily), today)
		}
		if fmt.Sprint(a["devices"]) != "map[desktop:1 mobile:2]" && fmt.Sprint(a["devices"]) != "map[Unknown:1 desktop:1 mobile:2]" {
			t.Errorf("devices: %v", a["devices"])
		}
		if fmt.Sprint(a["referrers"]) != "[map[count:4 referrer:https://chat.example]]" {
			t.Errorf("referrers (origins only): %v", a["referrers"])
		}

		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/scans.csv", "")
		if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("CSV: %d %v", r.StatusCode, r.Header)
		}
		rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil || len(rows) != 6 || rows[0][0] != "scanned_at" {
			t.Fatalf("CSV rows %v, %v", rows, err)
		}
		for _, row := range rows[1:] {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
					t.Errorf("CSV cell %q could run as a formula", cell)
				}
			}
			if strings.Contains(strings.Join(row, ","), "secret") || strings.Contains(strings.Join(row, ","), "127.0.0.1") {
				t.Errorf("CSV row keeps a referrer path or an address: %v", row)
			}
		}

		u := expect(t, e.do(c, "GET", "/api/user-analytics", ""), http.StatusOK, "")
		ov := u["overview"].(map[string]any)
		if ov["totalScans"] != 4.0 || ov["dynamicQrCodes"] != 1.0 || ov["totalQrCodes"] != 1.0 {
			t.Errorf("overview: %v", ov)
		}
		perf := u["dynamicQrPerformance"].([]any)
		if len(perf) != 1 || perf[0].(map[string]any)["scans"] != 4.0 {
			t.Errorf("dynamicQrPerformance: %v", perf)
		}
		for _, k := range []string{"qrTypeDistribution", "recentActivity", "topPerformingQrCodes"} {
			if u[k] == nil {
				t.Errorf("user analytics lacks %s: %v", k, u)
			}
		}
	})
}

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "Safari": "Safari", "=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)", "\t=x": "'\t=x",
		"＝1+1": "'＝1+1", "＋1": "'＋1", "－1": "'－1", "＠SUM(A1)": "'＠SUM(A1)", "﹦1": "'﹦1", "Café": "Café",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// failingSink takes no scans: a redirect test must not depend on it.
type failingSink struct{}

func (failingSink) RecordScans(context.Context, []store.ScanEvent) error { return errDown }
func (failingSink) Secret(context.Context, string, []byte) ([]byte, error) {
	return nil, errDown
}

var errDown = fmt.Errorf("database down")

// A cached code is answered without the database: with the store closed,
// a warm code still redirects.
func TestRedirectFromCacheWithoutDatabase(t *testing.T) {
	st := storetest.Open(t)
	rec := scans.NewRecorder(failingSink{}, scans.Options{})
	e := start(t, st, withRecorder(rec))
	c, _ := e.signedIn("cache@example.com")
	code := e.createDynamic(c, "https://example.com/cached")["shortCode"].(string)
	expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/cached")
	st.Close()
	expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/cached")
	// An unknown code needs the database: 503, not a wrong answer.
	if r := e.scan("Unknown1", iPhoneUA); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("unknown code with the database down: %d", r.StatusCode)
	}
	// A code longer than any short code is not looked up (nor cached).
	expectPage(t, e.scan(strings.Repeat("x", store.MaxShortCode+1), iPhoneUA), http.StatusNotFound, "")
}

// A logo (uploaded before, or sent with the form) is kept and drawn; the
// code is then encoded at H so it still scans.
func TestDynamicCodeWithLogo(t *testing.T) {
	e := start(t, storetest.Open(t))
	dec := newDecoders(t)
	c, _ := e.signedIn("logo@example.com")
	other, _ := e.signedIn("other-logo@example.com")
	base := testConfig(t).BaseURL

	up := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 16, 16)), "brand.png"}), http.StatusCreated, "")
	logoID := idOf(up)
	expect(t, e.postForm(other, "/api/dynamic-qrcodes", part{"destination", "https://example.com", ""}, part{"logoId", logoID, ""}), http.StatusNotFound, "Logo not found")
	expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com", ""}, part{"logoId", "x", ""}), http.StatusBadRequest, "logoId must be a number")

	byID := e.createDynamic(c, "https://example.com/a", part{"logoId", logoID, ""}, part{"logoSize", "large", ""})
	sent := e.createDynamic(c, "https://example.com/b", part{"logoFile", string(pngBytes(t, 16, 16)), "sent.png"})
	for _, d := range []map[string]any{byID, sent} {
		if !strings.HasPrefix(d["logoFilePath"].(string), "/logo/") || d["logoFileName"] == "" {
			t.Errorf("logo not kept: %v", d)
		}
		img := e.do(c, "GET", "/api/dynamic-qrcodes/"+idOf(d)+"/image?format=png", "")
		if img.StatusCode != http.StatusOK {
			t.Fatalf("image: %d %s", img.StatusCode, img.body)
		}
		if got := dec.read(img.body, "png"); got != base+"/d/"+d["shortCode"].(string) {
			t.Errorf("image with a logo decodes to %q", got)
		}
	}
	if byID["logoSize"] != "large" || byID["logoFilePath"] != "/logo/"+logoID {
		t.Errorf("logo by id: %v", byID)
	}
}

// A JSON string with a lone UTF-16 surrogate escape (a \uD800–\uDBFF not
// followed by a \uDC00–\uDFFF, or the latter alone) is 400: encoding/json
// would read it as U+FFFD and the code would keep the damage. An escaped
// backslash before "ud800" and a real pair are text like any other.
func TestLoneSurrogateEscapesRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("surrogate@example.com")
		key, _ := e.newKey(c, "surrogates")
		d := e.createDynamic(c, "https://example.com/menu", part{"name", "Menu", ""})
		id := idOf(d)
		for _, bad := range []string{`\ud800`, `\udc00x`, `\uD83D`, `\ud83dx`, `\ud800\u0041`, `\ud800\ud800`, `\ude00\ud83d`, `\\\ud800`} {
			expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/a`+bad+`"}`), http.StatusBadRequest, respond.MsgSurrogate)
			expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"Lunch `+bad+`"}`), http.StatusBadRequest, respond.MsgSurrogate)
			expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","name":"n`+bad+`","destination":"https://example.com/b","qrData":{"url":"https://example.com/b"}}`), http.StatusBadRequest, respond.MsgSurrogate)
		}
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 1 || list[0]["destination"] != "https://example.com/menu" || list[0]["name"] != "Menu" {
			t.Fatalf("after refused bodies: %v", list)
		}
		// \\ud800 is a backslash and "ud800"; a pair is one character.
		m := expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, `{"name":"a\\ud800 \ud83d\ude00 \uD83D\uDE00"}`), http.StatusOK, "")
		if m["name"] != `a\ud800 😀 😀` {
			t.Errorf("name %q", m["name"])
		}
	})
}
