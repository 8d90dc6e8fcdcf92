package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/sharelinks"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// shareFixture is a signed-in member's code with scans: Germany 6, France
// 4, unknown 5 (opened with a Referer whose path must not show), and
// small.example referring 3.
func shareFixture(t *testing.T, st *store.Store) (*env, *http.Client, string) {
	t.Helper()
	e, rec := startRecording(t, st)
	c, _ := e.signedIn("agency@example.com")
	d := e.createDynamic(c, "https://example.com/spring")
	for range 5 {
		if r := e.scan(d["shortCode"].(string), iPhoneUA); r.StatusCode != http.StatusFound {
			t.Fatalf("scan: %d", r.StatusCode)
		}
	}
	if err := rec.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	id := int64(d["id"].(float64))
	var events []store.ScanEvent
	at := e.clock.Now().Add(-2 * time.Hour)
	for i := range 10 {
		ev := store.ScanEvent{CodeID: id, ScannedAt: at, DeviceType: "desktop", OS: "Windows", Browser: "Chrome",
			VisitorHash: fmt.Sprint("v", i), Country: "DE", Route: store.RouteDefault}
		if i >= 6 {
			ev.Country = "FR"
		}
		if i < 3 {
			ev.Referrer = "https://small.example"
		}
		events = append(events, ev)
	}
	if err := st.RecordScans(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	return e, c, idOf(d)
}

func createShare(t *testing.T, e *env, c *http.Client, body string) (id, token string) {
	t.Helper()
	m := expect(t, e.do(c, "POST", "/api/share-links", body), http.StatusCreated, "")
	token = m["token"].(string)
	if m["url"] != testConfig(t).BaseURL+"/s/"+token || m["tokenHint"] != token[:6] {
		t.Fatalf("created %v", m)
	}
	return idOf(m), token
}

// A share link of a code: its page, signed out, shows the figures with
// small cells folded and referrers cut to their host; the CSV says the
// same; revoking it ends the page (410).
func TestShareLinkPage(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, c, code := shareFixture(t, st)
		id, token := createShare(t, e, c, `{"scope":{"codeId":`+code+`}}`)
		var stored string
		storetest.QueryRow(t, st, `SELECT token_hash FROM share_links WHERE id = $1`, []any{id}, &stored)
		if stored == token || stored != sharelinks.HashToken(token) {
			t.Fatalf("stored %q for token %q", stored, token)
		}

		visitor := e.browser() // signed out
		page := e.do(visitor, "GET", "/s/"+token, "")
		body := string(page.body)
		if page.StatusCode != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("page: %d %v", page.StatusCode, page.Header)
		}
		for _, want := range []string{"<td>Germany</td><td class=\"n\">6</td>", "<td>Unknown</td><td class=\"n\">5</td>",
			"<td>Other</td><td class=\"n\">4</td>", "<td>chat.example</td><td class=\"n\">5</td>",
			"<td>Other</td><td class=\"n\">3</td>", "<svg", ">15<", "Download as CSV",
			"Countries and referrers with fewer than 5 scans"} { // no city database here
			if !strings.Contains(body, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		for _, leak := range []string{"France", "small.example", "/room/42", "secret", "<script", "/assets/"} {
			if strings.Contains(body, leak) {
				t.Errorf("page shows %q", leak)
			}
		}
		if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
			t.Errorf("CSP %q", csp)
		}
		if page.Header.Get("Referrer-Policy") != "no-referrer" || page.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("headers %v", page.Header)
		}

		r := e.do(visitor, "GET", "/s/"+token+".csv?from=2026-02-01&to=2026-03-01", "")
		csv := string(r.body)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
			t.Fatalf("CSV: %d %s", r.StatusCode, csv)
		}
		for _, want := range []string{"breakdown,name,scans\n", "\ntotal,2026-02-01T00:00:00Z/2026-03-02T00:00:00Z,15\n",
			"\nday,2026-03-01T00:00:00Z,15\n", "\ncountries,Germany,6\n", "\ncountries,Other,4\n", "\nreferrers,chat.example,5\n",
			"\nreferrers,Other,3\n", "\ndevices,desktop,10\n"} {
			if !strings.Contains(csv, want) {
				t.Errorf("CSV lacks %q:\n%s", want, csv)
			}
		}
		if strings.Contains(csv, "France") || strings.Contains(csv, "room") {
			t.Errorf("CSV leaks: %s", csv)
		}
		// A range before the scans: none; a bad range: 400, as in the app.
		if r := e.do(visitor, "GET", "/s/"+token+"?from=2026-01-01&to=2026-01-31", ""); r.StatusCode != http.StatusOK ||
			!strings.Contains(string(r.body), `<p class="big">0</p>`) {
			t.Errorf("January: %d", r.StatusCode)
		}
		expect(t, e.do(visitor, "GET", "/s/"+token+"?from=2026-03-01&to=2026-01-01", ""), http.StatusBadRequest, "to must not be before from")

		// Listed for every member, without the token.
		list := e.do(c, "GET", "/api/share-links", "")
		if !strings.Contains(string(list.body), `"tokenHint":"`+token[:6]+`"`) || strings.Contains(string(list.body), token) ||
			!strings.Contains(string(list.body), `"scope":{"codeId":`+code+`}`) {
			t.Errorf("list %s", list.body)
		}

		// Revoked: 410 for the page and the CSV, gone from the list.
		if r := e.do(c, "DELETE", "/api/share-links/"+id, ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("revoke: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.do(c, "DELETE", "/api/share-links/"+id, ""), http.StatusNotFound, msgShareMissing)
		for _, p := range []string{"/s/" + token, "/s/" + token + ".csv"} {
			if r := e.do(visitor, "GET", p, ""); r.StatusCode != http.StatusGone || !strings.Contains(string(r.body), "no longer available") {
				t.Errorf("%s after revoking: %d", p, r.StatusCode)
			}
		}
		if list := e.do(c, "GET", "/api/share-links", ""); strings.TrimSpace(string(list.body)) != "[]" {
			t.Errorf("list after revoking: %s", list.body)
		}
		// Not a token, or no link's: 404.
		for _, p := range []string{"/s/nothing", "/s/" + strings.Repeat("A", 43), "/s/" + token[:42] + "%2F"} {
			if r := e.do(visitor, "GET", p, ""); r.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d", p, r.StatusCode)
			}
		}
	})
}

// The page stays within 60 KB at the longest range and with many
// countries and referrers.
func TestShareLinkPageSize(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, c, code := shareFixture(t, st)
		id := int64(0)
		fmt.Sscan(code, &id)
		var events []store.ScanEvent
		for i := range 200 {
			for j := range 6 {
				events = append(events, store.ScanEvent{CodeID: id, ScannedAt: e.clock.Now().AddDate(0, 0, -i*15-1), DeviceType: "mobile",
					OS: fmt.Sprint("OS ", i), Browser: fmt.Sprint("Browser ", i), Country: []string{"AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO"}[i%8],
					Referrer: fmt.Sprintf("https://site-%d.example", i), VisitorHash: fmt.Sprint(i, j), Route: store.RouteDefault})
			}
		}
		if err := st.RecordScans(context.Background(), events); err != nil {
			t.Fatal(err)
		}
		_, token := createShare(t, e, c, `{"scope":{"workspace":true}}`)
		for _, q := range []string{"", "?period=all", "?from=2016-03-10&to=2026-03-01", "?from=2026-03-01&to=2026-03-01"} {
			r := e.do(e.browser(), "GET", "/s/"+token+q, "")
			if r.StatusCode != http.StatusOK || len(r.body) > 60<<10 {
				t.Errorf("%s: %d, %d bytes", q, r.StatusCode, len(r.body))
			}
			t.Logf("%q: %d bytes", q, len(r.body))
		}
		// Every referred scan is counted: those beyond the report's first
		// referrers under "Other" (they were dropped: 1,140 of 1,208 lost).
		csv := e.do(e.browser(), "GET", "/s/"+token+".csv?period=all", "")
		var referred int64
		other := false
		for _, line := range strings.Split(string(csv.body), "\n") {
			if rest, ok := strings.CutPrefix(line, "referrers,"); ok {
				var n int64
				fmt.Sscan(rest[strings.LastIndexByte(rest, ',')+1:], &n)
				referred += n
				other = other || strings.HasPrefix(rest, sharelinks.Other+",")
			}
		}
		// 200 sites of 6, small.example's 3, and the fixture's 5 opened with a Referer.
		if csv.StatusCode != http.StatusOK || referred != 200*6+3+5 || !other {
			t.Errorf("the CSV's referrers add up to %d (Other row %v), want %d:\n%s", referred, other, 200*6+3+5, csv.body)
		}
	})
}

// Expiry, passwords (limited as protected codes' are), tag and folder
// scopes, and bad requests, which change nothing.
func TestShareLinkAccess(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, c, code := shareFixture(t, st)
		visitor := e.browser()

		at := e.clock.Now().Add(time.Hour).Format(time.RFC3339)
		_, token := createShare(t, e, c, `{"scope":{"codeId":`+code+`},"expiresAt":"`+at+`"}`)
		if r := e.do(visitor, "GET", "/s/"+token, ""); r.StatusCode != http.StatusOK {
			t.Fatalf("before expiry: %d", r.StatusCode)
		}
		e.clock.Advance(time.Hour)
		if r := e.do(visitor, "GET", "/s/"+token+".csv", ""); r.StatusCode != http.StatusGone {
			t.Fatalf("at expiry: %d", r.StatusCode)
		}
		if list := e.do(c, "GET", "/api/share-links", ""); !strings.Contains(string(list.body), `"expired":true`) {
			t.Errorf("list %s", list.body)
		}

		_, locked := createShare(t, e, c, `{"scope":{"codeId":`+code+`},"password":"open sesame"}`)
		form := e.do(visitor, "GET", "/s/"+locked, "")
		if form.StatusCode != http.StatusUnauthorized || !strings.Contains(string(form.body), `type="password"`) || strings.Contains(string(form.body), "Germany") {
			t.Fatalf("protected page: %d %s", form.StatusCode, form.body)
		}
		if r := e.do(visitor, "GET", "/s/"+locked+".csv", ""); r.StatusCode != http.StatusUnauthorized || strings.Contains(string(r.body), "Germany") {
			t.Fatalf("protected CSV: %d", r.StatusCode)
		}
		post := func(c *http.Client, password string) *response {
			req, _ := http.NewRequest("POST", e.srv.URL+"/s/"+locked, strings.NewReader(url.Values{"password": {password}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return &response{Response: resp}
		}
		if r := post(visitor, "wrong"); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password: %d", r.StatusCode)
		}
		if r := post(visitor, "open sesame"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/s/"+locked {
			t.Fatalf("right password: %d %v", r.StatusCode, r.Header)
		}
		for _, p := range []string{"/s/" + locked, "/s/" + locked + ".csv"} {
			if r := e.do(visitor, "GET", p, ""); r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), "Germany") {
				t.Errorf("%s after the password: %d", p, r.StatusCode)
			}
		}
		// A made-up cookie opens nothing.
		forger := e.browser()
		if r := e.do(forger, "GET", "/s/"+locked, "", "Cookie", "share_2="+sharelinks.Grant(locked, "")); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("forged cookie: %d", r.StatusCode)
		}
		// Wrong guesses from one address stop at the protected codes' limit.
		got := map[int]int{}
		for range codePasswordTriesPerAddress + 2 {
			got[post(forger, "guess").StatusCode]++
		}
		if got[http.StatusTooManyRequests] == 0 || post(forger, "open sesame").StatusCode != http.StatusTooManyRequests {
			t.Errorf("guesses: %v", got)
		}

		// Tags and folders: their codes' scans, without unique visitors.
		tag := expect(t, e.do(c, "POST", "/api/tags", `{"name":"Spring"}`), http.StatusCreated, "")
		folder := expect(t, e.do(c, "POST", "/api/folders", `{"name":"Print"}`), http.StatusCreated, "")
		other := e.createDynamic(c, "https://example.com/empty")
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+code+"/tags", `{"tagIds":[`+idOf(tag)+`]}`), http.StatusOK, "")
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(other)+"/folder", `{"folderId":`+idOf(folder)+`}`), http.StatusOK, "")
		_, byTag := createShare(t, e, c, `{"scope":{"tagId":`+idOf(tag)+`}}`)
		_, byFolder := createShare(t, e, c, `{"scope":{"folderId":`+idOf(folder)+`}}`)
		if r := e.do(visitor, "GET", "/s/"+byTag+".csv", ""); !strings.Contains(string(r.body), "\ncountries,Germany,6\n") {
			t.Errorf("tag CSV: %s", r.body)
		}
		r := e.do(visitor, "GET", "/s/"+byFolder, "")
		if !strings.Contains(string(r.body), `<p class="big">0</p>`) || strings.Contains(string(r.body), "Unique visitors") || !strings.Contains(string(r.body), "Folder Print") {
			t.Errorf("folder page: %s", r.body)
		}

		// Refused: other workspaces' scopes, bad bodies; nothing is made.
		bob, _ := e.signedIn("bob@example.com")
		bobTag := expect(t, e.do(bob, "POST", "/api/tags", `{"name":"Mine"}`), http.StatusCreated, "")
		var before int
		storetest.QueryRow(t, st, `SELECT count(*) FROM share_links`, nil, &before)
		for body, field := range map[string]string{
			`{"scope":{"codeId":` + code + `}}`:                   "scope",
			`{"scope":{"tagId":` + idOf(tag) + `}}`:               "scope",
			`{"scope":{"folderId":` + idOf(folder) + `}}`:         "scope",
			`{"scope":{"tagId":` + idOf(bobTag) + `,"codeId":1}}`: "scope",
			`{"scope":{}}`:            "scope",
			`{}`:                      "scope",
			`{"scope":{"codeId":-1}}`: "scope",
			`{"scope":{"workspace":true},"expiresAt":"2020-01-01T00:00:00Z"}`: "expiresAt",
			`{"scope":{"workspace":true},"password":"abc"}`:                   "password",
		} {
			m := expect(t, e.do(bob, "POST", "/api/share-links", body), http.StatusBadRequest, "")
			if m["errors"].(map[string]any)[field] == nil {
				t.Errorf("%s: %v", body, m)
			}
		}
		for _, body := range []string{`{"scope":`, `{"scope":{"codeId":"1"}}`, `{"scope":{"workspace":true},"expiresAt":"tomorrow"}`, `[]`,
			`{"scope":{"workspace":true},"password":"` + strings.Repeat("x", 2<<20) + `"}`} {
			if r := e.do(bob, "POST", "/api/share-links", body); r.StatusCode != http.StatusBadRequest && r.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%.40s: %d", body, r.StatusCode)
			}
		}
		expect(t, e.do(bob, "DELETE", "/api/share-links/1", ""), http.StatusNotFound, msgShareMissing)
		for _, bad := range []string{"0", "-1", "x", "99999999999999999999"} {
			expect(t, e.do(bob, "DELETE", "/api/share-links/"+bad, ""), http.StatusNotFound, msgShareMissing)
		}
		expect(t, e.do(e.browser(), "POST", "/api/share-links", `{"scope":{"workspace":true}}`), http.StatusUnauthorized, "")
		var after int
		storetest.QueryRow(t, st, `SELECT count(*) FROM share_links WHERE revoked_at IS NULL`, nil, &after)
		if after != before {
			t.Errorf("refused requests made links: %d → %d", before, after)
		}

		// Deleting the tag and the folder ends their links: 410, as for a
		// deleted code's, where the rows went with them (404); off the
		// list, while the code's links stay.
		for _, p := range []string{"/api/tags/" + idOf(tag), "/api/folders/" + idOf(folder)} {
			if r := e.do(c, "DELETE", p, ""); r.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE %s: %d %s", p, r.StatusCode, r.body)
			}
		}
		for _, p := range []string{"/s/" + byTag, "/s/" + byTag + ".csv", "/s/" + byFolder, "/s/" + byFolder + ".csv"} {
			if r := e.do(visitor, "GET", p, ""); r.StatusCode != http.StatusGone || !strings.Contains(string(r.body), "no longer available") {
				t.Errorf("%s after its scope was deleted: %d", p, r.StatusCode)
			}
		}
		list := string(e.do(c, "GET", "/api/share-links", "").body)
		if strings.Contains(list, "tagId") || strings.Contains(list, "folderId") || strings.Count(list, `"codeId":`+code) != 2 {
			t.Errorf("list after deleting the tag and the folder: %s", list)
		}
		if r := e.do(visitor, "GET", "/s/"+locked, ""); r.StatusCode != http.StatusOK {
			t.Errorf("the code's link after deleting the tag: %d", r.StatusCode)
		}
	})
}

// The live links of a workspace stop at maxShareLinks, also when
// requests race for the last one; a deleted code's link does not count.
func TestShareLinkLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("many@example.com")
		me := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		ws := int64(me["workspace"].(map[string]any)["id"].(float64))
		code := int64(e.createDynamic(c, "https://example.com/gone")["id"].(float64))
		for i := range maxShareLinks - 1 {
			l := &store.ShareLink{WorkspaceID: ws, TokenHash: fmt.Sprint("h", i), TokenHint: "h"}
			if i == 0 {
				l.CodeID = code
			}
			if err := st.CreateShareLink(context.Background(), l, maxShareLinks, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		codes := make(chan int, 6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", e.srv.URL+"/api/share-links", strings.NewReader(`{"scope":{"workspace":true}}`))
				req.Header.Set("Content-Type", "application/json")
				resp, err := c.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		got := map[int]int{}
		for s := range codes {
			got[s]++
		}
		if got[http.StatusCreated] != 1 || got[http.StatusConflict] != 5 {
			t.Errorf("racing creations: %v", got)
		}
		// A deleted code's link answers 410 and no longer takes a place.
		expect(t, e.do(c, "DELETE", fmt.Sprint("/api/dynamic-qrcodes/", code), ""), http.StatusNoContent, "")
		expect(t, e.do(c, "POST", "/api/share-links", `{"scope":{"workspace":true}}`), http.StatusCreated, "")
	})
}

// Share pages are public and each reads a range of analytics: one address
// gets shareViewsPerMinute requests a minute, counted in a parallel burst
// too, and guesses at tokens count alike; other addresses are not held up.
func TestShareLinkViewsAreLimited(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, _ := e.signedIn("busy@example.com")
		_, token := createShare(t, e, c, `{"scope":{"workspace":true}}`)
		view := func(path, addr string) int {
			return e.do(e.browser(), "GET", path, "", "X-Forwarded-For", addr).StatusCode
		}
		for i := range 10 { // wrong tokens use up the allowance like right ones
			if status := view("/s/"+strings.Repeat("x", 20+i), "203.0.113.7"); status != http.StatusNotFound {
				t.Fatalf("a wrong token: %d", status)
			}
		}
		var wg sync.WaitGroup
		statuses := make(chan int, shareViewsPerMinute)
		for range shareViewsPerMinute {
			wg.Go(func() { statuses <- view("/s/"+token+".csv", "203.0.113.7") })
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if counts[http.StatusOK] != shareViewsPerMinute-10 || counts[http.StatusTooManyRequests] != 10 {
			t.Fatalf("burst answers %v, want %d × 200 and 10 × 429", counts, shareViewsPerMinute-10)
		}
		r := e.do(e.browser(), "GET", "/s/"+token, "", "X-Forwarded-For", "203.0.113.7")
		expect(t, r, http.StatusTooManyRequests, msgShareViews)
		if r.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		if status := view("/s/"+token, "198.51.100.9"); status != http.StatusOK {
			t.Errorf("another address: %d", status)
		}
		e.clock.Advance(time.Minute)
		if status := view("/s/"+token, "203.0.113.7"); status != http.StatusOK {
			t.Errorf("after the minute: %d", status)
		}
	})
}

// An expiry past what the databases keep (9999-12-31 in UTC, here written
// with an offset that puts it in the year 10000) is refused: it was saved,
// and then neither the workspace's list nor the link's page could be read.
func TestShareLinkExpiryOutOfRange(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("agency@example.com")
		for _, at := range []string{"9999-12-31T23:59:59-23:59", "9999-12-31T23:00:00-01:00"} {
			r := e.do(c, "POST", "/api/share-links", `{"scope":{"workspace":true},"expiresAt":"`+at+`"}`)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(string(r.body), `"expiresAt"`) {
				t.Errorf("expiresAt %s: %d %s", at, r.StatusCode, r.body)
			}
		}
		if n := storetest.Count(t, st, "share_links"); n != 0 {
			t.Errorf("refused links saved: %d", n)
		}
		if r := e.do(c, "GET", "/api/share-links", ""); r.StatusCode != http.StatusOK {
			t.Errorf("the list after the refusals: %d %s", r.StatusCode, r.body)
		}
		// The last moment the databases keep still works, listed and shown.
		_, token := createShare(t, e, c, `{"scope":{"workspace":true},"expiresAt":"9999-12-31T23:59:59Z"}`)
		if r := e.do(c, "GET", "/api/share-links", ""); r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), `"9999-12-31T23:59:59Z"`) {
			t.Errorf("the list with a link expiring in 9999: %d %s", r.StatusCode, r.body)
		}
		if r := e.do(e.browser(), "GET", "/s/"+token, ""); r.StatusCode != http.StatusOK {
			t.Errorf("the page of a link expiring in 9999: %d", r.StatusCode)
		}
	})
}
