package server

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/compat/shlink"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// shlinkSDK runs e2e/tools/shlink-sdk.mjs (Shlink's own JS client) against
// the server with key, for phase; without node or the package the test
// skips, or fails under CI=true.
func shlinkSDK(t *testing.T, e *env, key, phase string) map[string]any {
	t.Helper()
	node := testenv.Command(t, "node")
	cmd := exec.Command(node, filepath.Join("..", "..", "e2e", "tools", "shlink-sdk.mjs"), e.srv.URL, key, phase)
	out, err := cmd.Output()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.ExitCode() == 3 {
		testenv.Need(t, false, "@shlinkio/shlink-js-sdk is not installed (cd e2e && npm ci)")
	}
	if err != nil {
		t.Fatalf("shlink-sdk.mjs %s: %v\n%s", phase, err, out)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("shlink-sdk.mjs %s printed %s: %v", phase, out, err)
	}
	return m
}

// errType is the Shlink error type a call of the SDK was refused with.
func errType(m map[string]any, call string) (string, float64) {
	c, _ := m[call].(map[string]any)
	e, _ := c["error"].(map[string]any)
	typ, _ := e["type"].(string)
	status, _ := e["status"].(float64)
	return typ, status
}

// Shlink's own client creates, lists, gets, edits, reads the visits of
// and deletes links on the Shlink-compatible API; its errors come back as
// the types the SDK knows.
func TestShlinkSDK(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)

		one := shlinkSDK(t, e, key, "one")
		if h, _ := one["health"].(map[string]any); h["status"] != "pass" {
			t.Errorf("health: %v", one["health"])
		}
		made, _ := one["create"].(map[string]any)
		if made["shortCode"] != "spring-sale" || made["longUrl"] != "https://example.com/spring" || made["title"] != "Spring sale" ||
			made["shortUrl"] != testConfig(t).BaseURL+"/d/spring-sale" || len(made["tags"].([]any)) != 2 {
			t.Fatalf("create: %v", one["create"])
		}
		if r, _ := one["createRandom"].(map[string]any); len(r["shortCode"].(string)) != 8 {
			t.Errorf("a random short code: %v", one["createRandom"])
		}
		for call, want := range map[string]string{
			"createTaken":    shlink.TypeNonUniqueSlug,
			"createReserved": shlink.TypeInvalidData,
			"createBadUrl":   shlink.TypeInvalidData,
			"getMissing":     shlink.TypeNotFound,
		} {
			if typ, status := errType(one, call); typ != want || status < 400 {
				t.Errorf("%s: %v, want %s", call, one[call], want)
			}
		}
		list, _ := one["list"].(map[string]any)
		data, _ := list["data"].([]any)
		pag, _ := list["pagination"].(map[string]any)
		if len(data) != 2 || pag["totalItems"] != 2.0 || data[0].(map[string]any)["shortCode"] == "spring-sale" {
			t.Errorf("list (newest first): %v", one["list"])
		}
		if byTag := one["listByTag"].(map[string]any)["data"].([]any); len(byTag) != 1 {
			t.Errorf("list by tag: %v", one["listByTag"])
		}
		if got := one["get"].(map[string]any); got["longUrl"] != "https://example.com/spring" {
			t.Errorf("get: %v", got)
		}
		edited, _ := one["edit"].(map[string]any)
		if edited["longUrl"] != "https://example.com/spring-2" || edited["title"] != "Spring sale 2" || len(edited["tags"].([]any)) != 1 {
			t.Errorf("edit: %v", one["edit"])
		}
		if tags := one["tags"].(map[string]any)["data"].([]any); len(tags) != 2 {
			t.Errorf("tags: %v", one["tags"])
		}

		// Two scans of the edited link, then its visits and its deletion.
		expectRedirect(t, e.scan("spring-sale", iPhoneUA), "https://example.com/spring-2")
		expectRedirect(t, e.scan("spring-sale", desktopUA), "https://example.com/spring-2")
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		two := shlinkSDK(t, e, key, "two")
		visits, _ := two["visits"].(map[string]any)
		if v, _ := visits["data"].([]any); len(v) != 2 || v[0].(map[string]any)["date"] == nil {
			t.Errorf("visits: %v", two["visits"])
		}
		if typ, _ := errType(two, "delete"); typ != "" {
			t.Errorf("delete: %v", two["delete"])
		}
		if typ, _ := errType(two, "getDeleted"); typ != shlink.TypeNotFound {
			t.Errorf("get after delete: %v", two["getDeleted"])
		}
		expectPage(t, e.scan("spring-sale", iPhoneUA), http.StatusNotFound, "")

		if typ, status := errType(shlinkSDK(t, e, "sq_notakey", "badkey"), "list"); typ != shlink.TypeInvalidAPIKey || status != 401 {
			t.Errorf("a bad key: %s %v", typ, status)
		}
	})
}

// The Shlink API's refusals by hand: malformed JSON, no key, a key
// without the scope, another workspace's short code.
func TestShlinkAPIRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		akey, bkey := mustKey(e, alice), mustKey(e, bob)
		readOnly := e.keyWith(alice, `,"scopes":["codes:read"]`)
		call := func(key, method, path, body string) (int, map[string]any) {
			r := e.do(e.browser(), method, path, body, "X-Api-Key", key)
			var m map[string]any
			json.Unmarshal(r.body, &m)
			if r.StatusCode >= 400 && r.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("%s %s: %d with Content-Type %q", method, path, r.StatusCode, r.Header.Get("Content-Type"))
			}
			return r.StatusCode, m
		}
		for _, c := range []struct {
			key, method, path, body string
			status                  int
			typ                     string
		}{
			{"", "GET", "/rest/v3/short-urls", "", 401, shlink.TypeMissingAuth},
			{"sq_bad", "GET", "/rest/v3/short-urls", "", 401, shlink.TypeInvalidAPIKey},
			{akey, "POST", "/rest/v3/short-urls", `{"longUrl":`, 400, shlink.TypeInvalidData},
			{akey, "POST", "/rest/v3/short-urls", `{}`, 400, shlink.TypeInvalidData},
			{akey, "POST", "/rest/v3/short-urls", "{\"longUrl\":\"https://example.com/\xff\"}", 400, shlink.TypeInvalidData},
			{akey, "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com/t","tags":["a\u0000b"]}`, 400, shlink.TypeInvalidData},
			{akey, "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com","domain":"nowhere.example"}`, 404, shlink.TypeDomainNotFound},
			{readOnly, "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com"}`, 403, shlink.TypeForbidden},
			{akey, "GET", "/rest/v3/nothing", "", 404, shlink.TypeRouteNotFound},
		} {
			status, m := call(c.key, c.method, c.path, c.body)
			if status != c.status || m["type"] != c.typ || m["status"] != float64(c.status) {
				t.Errorf("%s %s %s: %d %v, want %d %s", c.method, c.path, c.body, status, m, c.status, c.typ)
			}
		}
		if status, m := call(bkey, "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com/bob","customSlug":"bobs"}`); status != 200 {
			t.Fatalf("bob's link: %d %v", status, m)
		}
		for _, method := range []string{"GET", "PATCH", "DELETE"} {
			body := ""
			if method == "PATCH" {
				body = `{"longUrl":"https://evil.example"}`
			}
			if status, m := call(akey, method, "/rest/v3/short-urls/bobs", body); status != 404 || m["type"] != shlink.TypeNotFound {
				t.Errorf("%s bob's link with alice's key: %d %v", method, status, m)
			}
		}
		if status, _ := call(bkey, "GET", "/rest/v3/short-urls/bobs", ""); status != 200 {
			t.Errorf("bob's link is gone: %d", status)
		}
		// An empty list of tags takes every tag off (it answered 500 on
		// PostgreSQL, where the store read no tags as JSON null).
		if status, m := call(bkey, "PATCH", "/rest/v3/short-urls/bobs", `{"tags":["print","spring"]}`); status != 200 || len(m["tags"].([]any)) != 2 {
			t.Errorf("tagging bob's link: %d %v", status, m)
		}
		if status, m := call(bkey, "PATCH", "/rest/v3/short-urls/bobs", `{"tags":[]}`); status != 200 || len(m["tags"].([]any)) != 0 {
			t.Errorf("taking bob's tags off: %d %v", status, m)
		}
		if status, m := call(readOnly, "GET", "/rest/v3/short-urls", ""); status != 200 {
			t.Errorf("a read-only key lists: %d %v", status, m)
		}
	})
}

// YOURLS's clients: shorturl with a keyword, expand, url-stats and
// db-stats in json, xml and simple; errors in YOURLS's shapes.
func TestYOURLSAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		key, bkey := mustKey(e, alice), mustKey(e, bob)
		get := func(q url.Values) *response { return e.do(e.browser(), "GET", "/yourls-api.php?"+q.Encode(), "") }
		post := func(q url.Values) *response {
			return e.do(e.browser(), "POST", "/yourls-api.php", q.Encode(), "Content-Type", "application/x-www-form-urlencoded")
		}
		jsonOf := func(r *response) map[string]any {
			t.Helper()
			var m map[string]any
			if err := json.Unmarshal(r.body, &m); err != nil {
				t.Fatalf("%d %s: %v", r.StatusCode, r.body, err)
			}
			return m
		}

		// ShareX and most scripts POST a form with format=json.
		r := post(url.Values{"signature": {key}, "action": {"shorturl"}, "format": {"json"}, "url": {"https://example.com/menu"}, "keyword": {"menu"}, "title": {"Menu"}})
		m := jsonOf(r)
		short := testConfig(t).BaseURL + "/d/menu"
		if r.StatusCode != 200 || m["status"] != "success" || m["shorturl"] != short || m["statusCode"] != 200.0 || m["url"].(map[string]any)["keyword"] != "menu" {
			t.Fatalf("shorturl: %d %v", r.StatusCode, m)
		}
		expectRedirect(t, e.scan("menu", iPhoneUA), "https://example.com/menu")
		r = get(url.Values{"signature": {bkey}, "action": {"shorturl"}, "format": {"json"}, "url": {"https://example.com/x"}, "keyword": {"MENU"}})
		if m := jsonOf(r); r.StatusCode != 400 || m["status"] != "fail" || m["code"] != "error:keyword" || m["errorCode"] != "400" {
			t.Errorf("a taken keyword: %d %v", r.StatusCode, m)
		}
		r = get(url.Values{"signature": {key}, "action": {"shorturl"}, "format": {"json"}, "url": {"https://example.com/x"}, "keyword": {"api"}})
		if m := jsonOf(r); r.StatusCode != 400 || m["code"] != "error:keyword" {
			t.Errorf("a reserved keyword: %d %v", r.StatusCode, m)
		}
		r = get(url.Values{"signature": {key}, "action": {"shorturl"}, "format": {"json"}, "url": {"ftp://x"}})
		if m := jsonOf(r); r.StatusCode != 400 || m["code"] != "error:nourl" {
			t.Errorf("a bad url: %d %v", r.StatusCode, m)
		}
		// Text that is not UTF-8, or holds a NUL, is refused before anything
		// reads it: PostgreSQL cannot store it (it answered 500).
		for _, q := range []url.Values{
			{"title": {"t\xfft"}, "url": {"https://example.com/t"}},
			{"url": {"https://exa\xffmple.com/x"}},
			{"url": {"https://example.com/k"}, "keyword": {"ab\x00c"}},
		} {
			q.Set("signature", key)
			q.Set("action", "shorturl")
			q.Set("format", "json")
			r := post(q)
			if m := jsonOf(r); r.StatusCode != 400 || m["status"] != "fail" || !strings.Contains(m["message"].(string), "UTF-8") {
				t.Errorf("%v: %d %v", q, r.StatusCode, m)
			}
		}
		if n := storetest.Count(t, st, "dynamic_qr_codes"); n != 1 {
			t.Errorf("%d codes, want the menu's alone", n)
		}
		// The default format is XML, as in YOURLS.
		r = get(url.Values{"signature": {key}, "action": {"shorturl"}, "url": {"https://example.com/random"}})
		var res struct {
			Status   string `xml:"status"`
			ShortURL string `xml:"shorturl"`
			URL      struct {
				Keyword string `xml:"keyword"`
			} `xml:"url"`
		}
		if err := xml.Unmarshal(r.body, &res); err != nil || r.StatusCode != 200 || res.Status != "success" || len(res.URL.Keyword) != 8 || !strings.HasSuffix(res.ShortURL, "/d/"+res.URL.Keyword) {
			t.Errorf("shorturl in XML: %d %s (%v)", r.StatusCode, r.body, err)
		}

		r = get(url.Values{"signature": {key}, "action": {"expand"}, "format": {"json"}, "shorturl": {short}})
		if m := jsonOf(r); r.StatusCode != 200 || m["longurl"] != "https://example.com/menu" || m["keyword"] != "menu" {
			t.Errorf("expand: %d %v", r.StatusCode, m)
		}
		r = get(url.Values{"signature": {key}, "action": {"expand"}, "format": {"simple"}, "shorturl": {"menu"}})
		if r.StatusCode != 200 || string(r.body) != "https://example.com/menu" {
			t.Errorf("expand, simple: %d %q", r.StatusCode, r.body)
		}
		r = get(url.Values{"signature": {bkey}, "action": {"expand"}, "format": {"json"}, "shorturl": {"menu"}})
		if m := jsonOf(r); r.StatusCode != 404 || m["errorCode"] != "404" || m["message"] != "Error: short URL not found" {
			t.Errorf("expand of another workspace's link: %d %v", r.StatusCode, m)
		}
		r = get(url.Values{"signature": {key}, "action": {"url-stats"}, "format": {"json"}, "shorturl": {"menu"}})
		if m := jsonOf(r); r.StatusCode != 200 || m["link"].(map[string]any)["url"] != "https://example.com/menu" {
			t.Errorf("url-stats: %d %v", r.StatusCode, m)
		}
		r = get(url.Values{"signature": {key}, "action": {"db-stats"}, "format": {"json"}})
		if m := jsonOf(r); r.StatusCode != 200 || m["db-stats"].(map[string]any)["total_links"] != "2" {
			t.Errorf("db-stats: %d %v", r.StatusCode, m)
		}

		for _, c := range []struct {
			q      url.Values
			status int
			msg    string
		}{
			{url.Values{"action": {"expand"}, "format": {"json"}, "shorturl": {"menu"}}, 403, "Please log in"},
			{url.Values{"signature": {"sq_bad"}, "action": {"expand"}, "format": {"json"}, "shorturl": {"menu"}}, 403, "Please log in"},
			{url.Values{"signature": {key}, "action": {"nuke"}, "format": {"json"}}, 400, `Unknown or missing "action" parameter`},
			{url.Values{"signature": {key}, "format": {"json"}}, 400, `Unknown or missing "action" parameter`},
		} {
			r := get(c.q)
			if m := jsonOf(r); r.StatusCode != c.status || m["message"] != c.msg || m["errorCode"] != strconv.Itoa(c.status) {
				t.Errorf("%v: %d %v", c.q, r.StatusCode, m)
			}
		}
		readOnly := e.keyWith(alice, `,"scopes":["codes:read"]`)
		r = get(url.Values{"signature": {readOnly}, "action": {"shorturl"}, "format": {"json"}, "url": {"https://example.com/y"}})
		if m := jsonOf(r); r.StatusCode != 403 || m["status"] != "fail" {
			t.Errorf("shorturl with a read-only key: %d %v", r.StatusCode, m)
		}
		big := post(url.Values{"signature": {key}, "action": {"shorturl"}, "format": {"json"}, "url": {"https://example.com/" + strings.Repeat("a", 70<<10)}})
		if big.StatusCode != 400 {
			t.Errorf("a huge form: %d %s", big.StatusCode, big.body)
		}
	})
}

// Shlink's paginator with a page number so large that page × itemsPerPage
// overflows: an empty page, as any page past the end (it panicked, and
// answered 500 in Squarely's shape, not problem+json).
func TestShlinkPageOutOfRange(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)
		r := e.do(e.browser(), "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com/p","customSlug":"paged"}`, "X-Api-Key", key)
		expect(t, r, http.StatusOK, "")
		for _, path := range []string{
			"/rest/v3/short-urls?page=9223372036854775807",
			"/rest/v3/short-urls?page=9223372036854775807&itemsPerPage=1000",
			"/rest/v3/short-urls?page=922337203685477581&itemsPerPage=11",
			"/rest/v3/short-urls/paged/visits?page=9223372036854775807",
		} {
			r := e.do(e.browser(), "GET", path, "", "X-Api-Key", key)
			var m map[string]any
			json.Unmarshal(r.body, &m)
			var inner map[string]any
			for _, k := range []string{"shortUrls", "visits"} {
				if v, ok := m[k].(map[string]any); ok {
					inner = v
				}
			}
			data, _ := inner["data"].([]any)
			if r.StatusCode != http.StatusOK || inner == nil || data == nil || len(data) != 0 {
				t.Errorf("GET %s: %d %s", path, r.StatusCode, r.body)
			}
		}
	})
}

// Parallel creations naming the same new tag all succeed, sharing one
// tag (one lost the race to create it, and answered 500).
func TestShlinkNewTagInParallel(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)
		const n = 6 // two rounds stay within the free plan's 12 codes
		for round := range 2 {
			tag := "launch-" + strconv.Itoa(round)
			var wg sync.WaitGroup
			answers := make([]*response, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					body := `{"longUrl":"https://example.com/t` + strconv.Itoa(i) + `","tags":["` + tag + `"]}`
					answers[i] = e.do(e.browser(), "POST", "/rest/v3/short-urls", body, "X-Api-Key", key)
				}()
			}
			wg.Wait()
			for i, r := range answers {
				var m map[string]any
				json.Unmarshal(r.body, &m)
				if tags, _ := m["tags"].([]any); r.StatusCode != http.StatusOK || len(tags) != 1 || tags[0] != tag {
					t.Errorf("round %d, creation %d: %d %s", round, i, r.StatusCode, r.body)
				}
			}
		}
		if got := storetest.Count(t, st, "tags"); got != 2 {
			t.Errorf("%d tags, want 2", got)
		}
	})
}

// The visits' startDate and endDate are instants, whatever offset they
// are written with (they were compared as text with the visits' UTC
// dates, so an offset moved them by hours); one that is no date is a 400
// invalid-data problem (it was taken, and filtered every visit out).
func TestShlinkVisitsDates(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)
		r := e.do(e.browser(), "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com/v","customSlug":"dated"}`, "X-Api-Key", key)
		expect(t, r, http.StatusOK, "")
		expectRedirect(t, e.scan("dated", iPhoneUA), "https://example.com/v")
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		visits := func(q url.Values) (int, map[string]any) {
			t.Helper()
			r := e.do(e.browser(), "GET", "/rest/v3/short-urls/dated/visits?"+q.Encode(), "", "X-Api-Key", key)
			var m map[string]any
			json.Unmarshal(r.body, &m)
			if r.StatusCode >= 400 && r.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("%v: %d with Content-Type %q", q, r.StatusCode, r.Header.Get("Content-Type"))
			}
			if r.StatusCode != http.StatusOK {
				return r.StatusCode, m
			}
			data, _ := m["visits"].(map[string]any)["data"].([]any)
			return len(data), m
		}
		_, all := visits(url.Values{})
		data, _ := all["visits"].(map[string]any)["data"].([]any)
		if len(data) != 1 {
			t.Fatalf("visits: %v", all)
		}
		at, err := time.Parse(time.RFC3339, data[0].(map[string]any)["date"].(string))
		if err != nil {
			t.Fatal(err)
		}
		east, west := time.FixedZone("", 5*3600), time.FixedZone("", -5*3600)
		for _, c := range []struct {
			q    url.Values
			want int
		}{
			{url.Values{"startDate": {at.Add(-time.Hour).In(east).Format(time.RFC3339)}}, 1},
			{url.Values{"endDate": {at.Add(time.Hour).In(west).Format(time.RFC3339)}}, 1},
			{url.Values{"startDate": {at.Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")}, "endDate": {at.Add(time.Hour).UTC().Format(time.RFC3339Nano)}}, 1},
			{url.Values{"startDate": {at.Add(time.Hour).In(west).Format(time.RFC3339)}}, 0},
			{url.Values{"endDate": {at.Add(-time.Hour).In(east).Format(time.RFC3339)}}, 0},
		} {
			if n, m := visits(c.q); n != c.want {
				t.Errorf("%v: %d visits, want %d (%v)", c.q, n, c.want, m)
			}
		}
		for _, q := range []url.Values{{"startDate": {"yesterday"}}, {"endDate": {"2026-13-45"}}, {"startDate": {"99999-01-01T00:00:00Z"}}} {
			status, m := visits(q)
			if status != http.StatusBadRequest || m["type"] != shlink.TypeInvalidData {
				t.Errorf("%v: %d %v, want 400 %s", q, status, m, shlink.TypeInvalidData)
			}
		}
	})
}

// sameName reports whether the database takes a and b for one tag's (or
// folder's) name: what its unique index compares, lower(name). SQLite's
// folds ASCII only; PostgreSQL's follows the database's locale.
func sameName(t *testing.T, st *store.Store, a, b string) bool {
	t.Helper()
	var same int
	storetest.QueryRow(t, st, `SELECT CASE WHEN lower($1) = lower($2) THEN 1 ELSE 0 END`, []any{a, b}, &same)
	return same == 1
}

// A link's tags are found by name as the database's unique index finds
// them, on both databases: a name the index takes for an existing tag's
// is that tag, and one it tells apart is a new tag. Go's EqualFold took
// "Été" for "été", the Kelvin sign for "k" and "ſ" for "s" (one tag on
// SQLite, and "ſale" on PostgreSQL: the link got the other tag), and told
// "İ" from "i" (one tag on PostgreSQL: the insert hit the index, 500).
// Listing by tag matches the same way.
func TestShlinkTagNamesAsTheDatabase(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)
		create := func(slug, tag string) []any {
			t.Helper()
			body, _ := json.Marshal(map[string]any{"longUrl": "https://example.com/" + slug, "customSlug": slug, "tags": []string{tag}})
			r := e.do(e.browser(), "POST", "/rest/v3/short-urls", string(body), "X-Api-Key", key)
			var m map[string]any
			json.Unmarshal(r.body, &m)
			tags, _ := m["tags"].([]any)
			if r.StatusCode != http.StatusOK || len(tags) != 1 {
				t.Fatalf("a link tagged %q: %d %s", tag, r.StatusCode, r.body)
			}
			return tags
		}
		for i, p := range []struct{ existing, asked string }{
			{"été", "Été"},
			{"k", "\u212A"}, // the Kelvin sign
			{"sale", "\u017Fale"},
			{"info", "\u0130nfo"},
		} {
			body, _ := json.Marshal(map[string]string{"name": p.existing})
			expect(t, e.do(alice, "POST", "/api/tags", string(body)), http.StatusCreated, "")
			create("old"+strconv.Itoa(i), p.existing)
			before := storetest.Count(t, st, "tags")
			same := sameName(t, st, p.existing, p.asked)
			want, wantTags := p.asked, before+1
			if same {
				want, wantTags = p.existing, before
			}
			if tags := create("new"+strconv.Itoa(i), p.asked); tags[0] != want {
				t.Errorf("%q beside %q (one name to the database: %t): tagged %q, want %q", p.asked, p.existing, same, tags[0], want)
			}
			if got := storetest.Count(t, st, "tags"); got != wantTags {
				t.Errorf("%q beside %q: %d tags, want %d", p.asked, p.existing, got, wantTags)
			}
			r := e.do(e.browser(), "GET", "/rest/v3/short-urls?tags[]="+url.QueryEscape(p.asked), "", "X-Api-Key", key)
			var m struct {
				ShortURLs struct {
					Data []struct {
						ShortCode string `json:"shortCode"`
					} `json:"data"`
				} `json:"shortUrls"`
			}
			json.Unmarshal(r.body, &m)
			wantLinks := 1
			if same {
				wantLinks = 2
			}
			if r.StatusCode != http.StatusOK || len(m.ShortURLs.Data) != wantLinks {
				t.Errorf("links tagged %q: %d %s, want %d", p.asked, r.StatusCode, r.body, wantLinks)
			}
		}
	})
}

// PATCH with "title": null clears the link's title, as Shlink does (it
// was kept); an absent title keeps it, and a string sets it.
func TestShlinkEditClearsTitle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		key := mustKey(e, alice)
		expect(t, e.do(e.browser(), "POST", "/rest/v3/short-urls", `{"longUrl":"https://example.com/t","customSlug":"titled","title":"Spring"}`,
			"X-Api-Key", key), http.StatusOK, "")
		edit := func(body string) any {
			t.Helper()
			m := expect(t, e.do(e.browser(), "PATCH", "/rest/v3/short-urls/titled", body, "X-Api-Key", key), http.StatusOK, "")
			got := expect(t, e.do(e.browser(), "GET", "/rest/v3/short-urls/titled", "", "X-Api-Key", key), http.StatusOK, "")
			if got["title"] != m["title"] {
				t.Errorf("PATCH %s answered title %v, GET %v", body, m["title"], got["title"])
			}
			return m["title"]
		}
		if got := edit(`{"longUrl":"https://example.com/t2"}`); got != "Spring" {
			t.Errorf("no title in the PATCH: title %v, want Spring", got)
		}
		if got := edit(`{"title":null}`); got != nil {
			t.Errorf(`"title": null: title %v, want null`, got)
		}
		if got := edit(`{"title":"Summer"}`); got != "Summer" {
			t.Errorf(`"title": "Summer": title %v`, got)
		}
		if got := edit(`{"title":""}`); got != nil {
			t.Errorf(`"title": "": title %v, want null`, got)
		}
		var name string
		storetest.QueryRow(t, st, `SELECT name FROM dynamic_qr_codes WHERE short_code = $1`, []any{"titled"}, &name)
		if name != "" {
			t.Errorf("the code's name is %q, want none", name)
		}
	})
}
