package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/domains/domaintest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/web"
)

// expectCode checks a refusal's status, its "code" and the field it names.
func expectCode(t *testing.T, r *response, status int, code, field string) {
	t.Helper()
	m := expect(t, r, status, "")
	errs, _ := m["errors"].(map[string]any)
	if m["code"] != code || errs[field] == nil {
		t.Fatalf("%s %s: %s, want code %q about %s", r.Request.Method, r.Request.URL.Path, r.body, code, field)
	}
}

// The reserved words are every first segment the app answers at the root
// of a host: the React app's pages (web.Routes, which routes.test.tsx
// checks against web/src/app/routes.tsx), the routes of routes.go, the
// build's public directories, and the compatible APIs.
func TestReservedShortCodes(t *testing.T) {
	check := func(where, path string) {
		seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		if seg == "" || strings.HasPrefix(seg, "{") || strings.HasPrefix(seg, ":") || !codes.ShortCodeAlphabet(seg) && len(seg) >= codes.MinShortCode {
			return // the root itself, a wildcard, or no short code could be it
		}
		if !codes.ShortCodeReserved(seg) {
			t.Errorf("%s: %s starts with %q, which is not a reserved short code", where, path, seg)
		}
		if codes.CheckShortCode(strings.ToUpper(seg)) == "" {
			t.Errorf("%s: %q in upper case may be chosen", where, seg)
		}
	}
	for _, p := range web.Routes() {
		check("web/src/app/routes.json", p)
	}
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	patterns := regexp.MustCompile(`"(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD) )?(/[^"]*)"`).FindAllStringSubmatch(string(src), -1)
	if len(patterns) < 50 {
		t.Fatalf("found %d route patterns in routes.go: the pattern no longer reads it", len(patterns))
	}
	for _, m := range patterns {
		check("routes.go", m[1])
	}
	for _, p := range []string{scanPattern, gs1Pattern, "/yourls-api", "/rest/v3/short-urls", "/assets/x.js"} {
		check("routes", strings.TrimPrefix(strings.TrimPrefix(p, "GET "), "POST "))
	}
	public, err := os.ReadDir("../../web/public")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range public {
		check("web/public", "/"+strings.TrimSuffix(f.Name(), ".svg"))
	}
	for _, word := range []string{"api", "API", "d", "p", "login", "Dashboard", "white-label-admin"} {
		if codes.CheckShortCode(word) == "" {
			t.Errorf("%q may be chosen", word)
		}
	}
}

// Chosen short codes in the app (issue 34 item 1): created, refused when
// invalid, reserved or taken, changed only while unscanned; random codes
// as before.
func TestChosenShortCodesInTheApp(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		dest := "https://example.com/menu"

		made := e.createDynamic(alice, dest, part{"shortCode", "Spring-Menu", ""})
		if made["shortCode"] != "Spring-Menu" || made["shortUrl"] != testConfig(t).BaseURL+"/d/Spring-Menu" {
			t.Fatalf("created: %v", made)
		}
		expectRedirect(t, e.scan("Spring-Menu", iPhoneUA), dest)
		random := e.createDynamic(alice, dest)
		if !regexp.MustCompile(`^[0-9A-Za-z]{8}$`).MatchString(random["shortCode"].(string)) {
			t.Errorf("a random short code: %v", random["shortCode"])
		}
		form := func(c *http.Client, code string) *response {
			return e.postForm(c, "/api/dynamic-qrcodes", part{"destination", dest, ""}, part{"qrType", "url", ""},
				part{"qrData", `{"url":"` + dest + `"}`, ""}, part{"shortCode", code, ""})
		}
		for _, bad := range []string{"ab", "a b", "x.y", "menü", strings.Repeat("x", 65), "api", "D", "Dashboard", "login", "white-label-admin", "docs"} {
			expectCode(t, form(alice, bad), http.StatusBadRequest, codes.ShortCodeInvalid, "shortCode")
		}
		expectCode(t, form(alice, "spring-MENU"), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		expectCode(t, form(bob, "Spring-Menu"), http.StatusConflict, codes.ShortCodeTaken, "shortCode")

		avail := func(code string) map[string]any {
			return expect(t, e.do(alice, "GET", "/api/short-codes/availability?shortCode="+code, ""), http.StatusOK, "")
		}
		if m := avail("SPRING-menu"); m["available"] != false || m["code"] != codes.ShortCodeTaken {
			t.Errorf("availability of a taken code: %v", m)
		}
		if m := avail("api"); m["available"] != false || m["code"] != codes.ShortCodeInvalid {
			t.Errorf("availability of a reserved word: %v", m)
		}
		if m := avail("autumn_2026"); m["available"] != true {
			t.Errorf("availability of a free code: %v", m)
		}
		expect(t, e.do(alice, "GET", "/api/short-codes/availability?shortCode=x&domainId=abc", ""), http.StatusBadRequest, "")
		expect(t, e.do(e.browser(), "GET", "/api/short-codes/availability?shortCode=x", ""), http.StatusUnauthorized, "")

		// A change while unscanned; the old short code stops answering.
		id := idOf(random)
		patch := func(c *http.Client, id, body string) *response {
			return e.do(c, "PATCH", "/api/dynamic-qrcodes/"+id, body)
		}
		expect(t, patch(alice, id, `{"shortCode":`), http.StatusBadRequest, "")
		expectCode(t, patch(alice, id, `{"shortCode":"api"}`), http.StatusBadRequest, codes.ShortCodeInvalid, "shortCode")
		expectCode(t, patch(alice, id, `{"shortCode":"SPRING-MENU"}`), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		expect(t, patch(bob, id, `{"shortCode":"stolen"}`), http.StatusNotFound, "")
		changed := expect(t, patch(alice, id, `{"shortCode":"autumn_2026"}`), http.StatusOK, "")
		if changed["shortCode"] != "autumn_2026" {
			t.Fatalf("changed: %v", changed)
		}
		expectPage(t, e.scan(random["shortCode"].(string), iPhoneUA), http.StatusNotFound, "")
		expectRedirect(t, e.scan("autumn_2026", iPhoneUA), dest)
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		expectCode(t, patch(alice, id, `{"shortCode":"winter"}`), http.StatusConflict, "scanned", "shortCode")
		expect(t, patch(alice, id, `{"name":"Renamed"}`), http.StatusOK, "")
	})
}

// The public API creates and changes chosen short codes as the app does;
// twenty parallel creations of one short code make one code.
func TestChosenShortCodesInTheAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		akey, bkey := mustKey(e, alice), mustKey(e, bob)
		create := func(key, code string) *response {
			return e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/a","shortCode":"`+code+`"}`)
		}
		made := expect(t, create(akey, "from-api"), http.StatusCreated, "")
		if made["shortCode"] != "from-api" || made["url"] != testConfig(t).BaseURL+"/d/from-api" {
			t.Fatalf("created: %v", made)
		}
		expectCode(t, create(bkey, "FROM-API"), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		expectCode(t, create(akey, "rest"), http.StatusBadRequest, codes.ShortCodeInvalid, "shortCode")
		expect(t, e.api(akey, "POST", "/api/v1/codes", `{"kind":"dynamic","shortCode":`), http.StatusBadRequest, "")
		static := expect(t, e.api(akey, "POST", "/api/v1/codes", `{"kind":"static","qrType":"text","text":"hi"}`), http.StatusCreated, "")

		patch := func(key, id, body string) *response { return e.api(key, "PATCH", "/api/v1/codes/"+id, body) }
		expect(t, patch(bkey, made["id"].(string), `{"shortCode":"mine"}`), http.StatusNotFound, "")
		expect(t, patch(akey, static["id"].(string), `{"shortCode":"static"}`), http.StatusBadRequest, "")
		other := expect(t, create(bkey, "bobs-code"), http.StatusCreated, "")
		expectCode(t, patch(akey, made["id"].(string), `{"shortCode":"Bobs-Code"}`), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		if got := expect(t, patch(akey, made["id"].(string), `{"shortCode":"renamed-api"}`), http.StatusOK, ""); got["shortCode"] != "renamed-api" {
			t.Errorf("patched: %v", got)
		}
		_ = other

		var wg sync.WaitGroup
		status := make([]int, 20)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				key := akey
				if i%2 == 1 {
					key = bkey
				}
				status[i] = create(key, "burst").StatusCode
			}()
		}
		wg.Wait()
		won := 0
		for _, s := range status {
			switch s {
			case http.StatusCreated:
				won++
			case http.StatusConflict:
			default:
				t.Errorf("a parallel creation answered %d", s)
			}
		}
		if won != 1 {
			t.Errorf("%d parallel creations won: %v", won, status)
		}
	})
}

// On a verified custom domain, /{shortCode} answers as /d/{shortCode}
// (issue 34 item 2); the base host's root stays the app's; a links-only
// domain redirects / where the workspace says and answers 404 elsewhere.
func TestRootPathsOnCustomDomains(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e, rec := startRecording(t, st, withDomains(dns, "1", true))
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, bobs, _ := aliceAndBobDomains(t, e, dns, alice, bob)
		akey, bkey := mustKey(e, alice), mustKey(e, bob)

		code := expect(t, e.api(akey, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/spring","domainId":`+shop+`,"shortCode":"spring"}`), http.StatusCreated, "")
		if code["url"] != "https://go.shop.example/spring" {
			t.Errorf("a chosen code on a domain prints %v, want the root form", code["url"])
		}
		random := expect(t, e.api(akey, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/r","domainId":`+shop+`}`), http.StatusCreated, "")
		bobCode := expect(t, e.api(bkey, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/bob","domainId":`+bobs+`,"shortCode":"bobs"}`), http.StatusCreated, "")
		_ = bobCode
		// Another host may have spring in another case.
		expect(t, e.api(bkey, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/b2","domainId":`+bobs+`,"shortCode":"Spring"}`), http.StatusCreated, "")

		on := func(host, method, path string) *response {
			t.Helper()
			req, err := http.NewRequest(method, e.srv.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = host
			req.Header.Set("User-Agent", iPhoneUA) // a person's scan, counted
			resp, err := e.browser().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return &response{Response: resp, body: b}
		}
		for _, p := range []string{"/spring", "/d/spring"} {
			if got := on("go.shop.example", "GET", p); got.StatusCode != http.StatusFound || got.Header.Get("Location") != "https://example.com/spring" {
				t.Errorf("GET %s on alice's domain: %d %q", p, got.StatusCode, got.Header.Get("Location"))
			}
		}
		if got := on("go.shop.example", "GET", "/"+random["shortCode"].(string)); got.StatusCode != http.StatusFound || got.Header.Get("Location") != "https://example.com/r" {
			t.Errorf("a random code at the root: %d", got.StatusCode)
		}
		if got := on("go.shop.example", "GET", "/bobs"); got.StatusCode != http.StatusNotFound {
			t.Errorf("bob's code at the root of alice's domain: %d", got.StatusCode)
		}
		if got := on("go.bob.example", "GET", "/Spring"); got.StatusCode != http.StatusFound || got.Header.Get("Location") != "https://example.com/b2" {
			t.Errorf("bob's Spring on his domain: %d %q", got.StatusCode, got.Header.Get("Location"))
		}
		// The base host's root stays the app's.
		if got := e.do(e.browser(), "GET", "/spring", ""); got.StatusCode != http.StatusNotFound || got.Header.Get("Location") != "" || !strings.HasPrefix(got.Header.Get("Content-Type"), "text/html") {
			t.Errorf("/spring on the base host: %d %q", got.StatusCode, got.Header.Get("Location"))
		}
		// Reserved words and other paths on a domain go to the app, as before.
		if got := on("go.shop.example", "GET", "/dashboard"); got.StatusCode != http.StatusFound || got.Header.Get("Location") != testConfig(t).BaseURL+"/dashboard" {
			t.Errorf("/dashboard on a domain: %d %q", got.StatusCode, got.Header.Get("Location"))
		}
		if got := on("go.shop.example", "GET", "/a/b"); got.StatusCode != http.StatusFound {
			t.Errorf("/a/b on a domain: %d", got.StatusCode)
		}
		if got := on("go.shop.example", "GET", "/"); got.StatusCode != http.StatusFound || got.Header.Get("Location") != testConfig(t).BaseURL+"/" {
			t.Errorf("/ on a domain: %d %q", got.StatusCode, got.Header.Get("Location"))
		}
		// Root scans count as /d/ scans.
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := expect(t, e.api(akey, "GET", "/api/v1/codes/"+code["id"].(string), ""), http.StatusOK, "")
		if got["scanCount"] != float64(2) {
			t.Errorf("scans of spring: %v, want 2 (/spring and /d/spring)", got["scanCount"])
		}

		// Links only.
		expect(t, e.do(alice, "PATCH", "/api/domains/"+shop, `{"linksOnly":true,"rootUrl":"javascript:alert(1)"}`), http.StatusBadRequest, "")
		expect(t, e.do(alice, "PATCH", "/api/domains/"+shop, `{"linksOnly":`), http.StatusBadRequest, "")
		expect(t, e.do(bob, "PATCH", "/api/domains/"+shop, `{"linksOnly":true}`), http.StatusNotFound, "")
		d := expect(t, e.do(alice, "PATCH", "/api/domains/"+shop, `{"linksOnly":true,"rootUrl":"https://shop.example/"}`), http.StatusOK, "")
		if d["linksOnly"] != true || d["rootUrl"] != "https://shop.example/" {
			t.Fatalf("domain: %v", d)
		}
		if got := on("go.shop.example", "GET", "/"); got.StatusCode != http.StatusFound || got.Header.Get("Location") != "https://shop.example/" {
			t.Errorf("/ on a links-only domain: %d %q", got.StatusCode, got.Header.Get("Location"))
		}
		for _, p := range []string{"/dashboard", "/nothing-here", "/a/b", "/favicon.ico"} {
			expectPage(t, on("go.shop.example", "GET", p), http.StatusNotFound, "")
		}
		if got := on("go.shop.example", "GET", "/spring"); got.StatusCode != http.StatusFound {
			t.Errorf("a code on a links-only domain: %d", got.StatusCode)
		}
		expect(t, e.do(alice, "PATCH", "/api/domains/"+shop, `{"linksOnly":true}`), http.StatusOK, "")
		expectPage(t, on("go.shop.example", "GET", "/"), http.StatusNotFound, "")
	})
}

// A spreadsheet's shortCode column (issue 34 item 1): checked with the
// row (invalid, reserved, on a static row), and a code taken when the job
// runs fails its row alone.
func TestBulkShortCodeColumn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, aliceID := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		e.createDynamic(bob, "https://example.com/bob", part{"shortCode", "Bobs-Menu", ""})

		bad := "url,dynamic,shortCode\nhttps://example.com/a,true,api\nhttps://example.com/b,,static-one\nhttps://example.com/c,true,a b\nhttps://example.com/d,true,fine-one\n"
		dry := expect(t, e.postSheetWith(alice, "codes.csv", bad, map[string]string{"dryRun": "true"}), http.StatusOK, "")
		errs, _ := dry["errors"].([]any)
		if dry["failed"] != 3.0 || len(errs) != 3 {
			t.Fatalf("dry run: %v", dry)
		}
		for _, x := range errs {
			if x.(map[string]any)["column"] != "shortCode" {
				t.Errorf("row error %v, want the shortCode column", x)
			}
		}

		sheet := "url,name,dynamic,shortCode\nhttps://example.com/one,One,true,dup-code\nhttps://example.com/two,Two,true,DUP-code\nhttps://example.com/three,Three,true,bobs-menu\nhttps://example.com/four,Four,true,\n"
		job := expect(t, e.postSheetWith(alice, "codes.csv", sheet, nil), http.StatusAccepted, "")
		done := e.waitJob(alice, idOf(job))
		if done["status"] != store.BulkDone || done["failed"] != 2.0 || done["processed"] != 4.0 {
			t.Fatalf("job: %v", done)
		}
		saved, err := st.DynamicCodes(context.Background(), storetest.Personal(t, st, aliceID), false)
		if err != nil || len(saved) != 2 {
			t.Fatalf("%d codes saved (%v)", len(saved), err)
		}
		chosenSeen := false
		for _, d := range saved {
			if d.ShortCode == "dup-code" && d.ShortCodeChosen && d.Destination == "https://example.com/one" {
				chosenSeen = true
			}
		}
		if !chosenSeen {
			t.Errorf("dup-code was not saved from the first row: %v %v", saved[0].ShortCode, saved[1].ShortCode)
		}
		expectRedirect(t, e.scan("dup-code", iPhoneUA), "https://example.com/one")
		r := e.do(alice, "GET", "/api/bulk-jobs/"+idOf(job)+"/download?format=svg", "")
		_, files := zipFiles(t, r.body)
		if !strings.Contains(string(files["errors.csv"]), store.ShortCodeTakenMessage) {
			t.Errorf("errors.csv: %s", files["errors.csv"])
		}
	})
}

// One chosen short code on the base URL and on two verified domains (of
// two workspaces): each host redirects to its own code, through the whole
// handler; a clash without case on one host is still taken; an edit of
// one host's code leaves the others' answers as they were; a workspace's
// domain falls back to the workspace's base-URL code, never to another
// workspace's; Shlink's ?domain= and YOURLS's short URL name one host's.
func TestShortCodesPerHost(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := start(t, st, withDomains(dns, "1", true))
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, bobs, _ := aliceAndBobDomains(t, e, dns, alice, bob)
		akey, bkey := mustKey(e, alice), mustKey(e, bob)
		create := func(key, domainID, code, dest string) *response {
			domain := ""
			if domainID != "" {
				domain = `,"domainId":` + domainID
			}
			return e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"`+dest+`","shortCode":"`+code+`"`+domain+`}`)
		}
		onBase := expect(t, create(akey, "", "menu", "https://example.com/base"), http.StatusCreated, "")
		onShop := expect(t, create(akey, shop, "menu", "https://example.com/shop"), http.StatusCreated, "")
		expect(t, create(bkey, bobs, "menu", "https://example.com/bob"), http.StatusCreated, "")
		expect(t, create(akey, "", "solo", "https://example.com/solo"), http.StatusCreated, "")
		expect(t, create(bkey, bobs, "bob-only", "https://example.com/bob-only"), http.StatusCreated, "")
		// Without case, on one host: taken, wherever the other is.
		expectCode(t, create(akey, shop, "MENU", "https://example.com/x"), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		expectCode(t, create(bkey, "", "Menu", "https://example.com/x"), http.StatusConflict, codes.ShortCodeTaken, "shortCode")
		if m := expect(t, e.do(alice, "GET", "/api/short-codes/availability?shortCode=MENU&domainId="+shop, ""), http.StatusOK, ""); m["available"] != false {
			t.Errorf("availability of MENU on alice's domain: %v", m)
		}

		on := func(host, path string) *response {
			t.Helper()
			req, err := http.NewRequest("GET", e.srv.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = host
			resp, err := e.browser().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return &response{Response: resp, body: b}
		}
		baseHost := strings.TrimPrefix(strings.TrimPrefix(testConfig(t).BaseURL, "https://"), "http://")
		answers := map[[2]string]string{ // host and path: Location, "" for 404
			{baseHost, "/d/menu"}:            "https://example.com/base",
			{"go.shop.example", "/menu"}:     "https://example.com/shop",
			{"go.shop.example", "/d/menu"}:   "https://example.com/shop",
			{"go.bob.example", "/menu"}:      "https://example.com/bob",
			{"go.bob.example", "/d/menu"}:    "https://example.com/bob",
			{"go.shop.example", "/solo"}:     "https://example.com/solo", // alice's base-URL code on her domain
			{"go.bob.example", "/solo"}:      "",                         // alice's, on bob's domain
			{baseHost, "/d/bob-only"}:        "https://example.com/bob-only",
			{"go.shop.example", "/bob-only"}: "",
		}
		check := func(when string) {
			t.Helper()
			for k, want := range answers {
				got := on(k[0], k[1])
				if want == "" && got.StatusCode != http.StatusNotFound || want != "" && (got.StatusCode != http.StatusFound || got.Header.Get("Location") != want) {
					t.Errorf("%s: %s%s answered %d %q, want %q", when, k[0], k[1], got.StatusCode, got.Header.Get("Location"), want)
				}
			}
		}
		check("first")
		// An edit of the shop's menu: the next scan there sees it, the
		// other hosts' (cached meanwhile) answer as before.
		expect(t, e.api(akey, "PATCH", "/api/v1/codes/"+onShop["id"].(string), `{"destination":"https://example.com/shop2"}`), http.StatusOK, "")
		answers[[2]string{"go.shop.example", "/menu"}] = "https://example.com/shop2"
		answers[[2]string{"go.shop.example", "/d/menu"}] = "https://example.com/shop2"
		check("after the edit")

		// Shlink: ?domain= names the host; without it, the base URL's code,
		// or the workspace's only one.
		shlink := func(key, method, path, body string) (int, map[string]any) {
			r := e.do(e.browser(), method, path, body, "X-Api-Key", key)
			var m map[string]any
			json.Unmarshal(r.body, &m)
			return r.StatusCode, m
		}
		for _, c := range []struct {
			key, path string
			status    int
			longURL   string
		}{
			{akey, "/rest/v3/short-urls/menu?domain=go.shop.example", 200, "https://example.com/shop2"},
			{akey, "/rest/v3/short-urls/menu", 200, "https://example.com/base"},
			{akey, "/rest/v3/short-urls/menu?domain=DEFAULT", 200, "https://example.com/base"},
			{akey, "/rest/v3/short-urls/menu?domain=" + baseHost, 200, "https://example.com/base"},
			{akey, "/rest/v3/short-urls/menu?domain=go.bob.example", 404, ""},
			{bkey, "/rest/v3/short-urls/menu", 200, "https://example.com/bob"}, // bob's only menu
			{bkey, "/rest/v3/short-urls/menu?domain=go.bob.example", 200, "https://example.com/bob"},
			{akey, "/rest/v3/short-urls/solo?domain=go.shop.example", 404, ""},
		} {
			status, m := shlink(c.key, "GET", c.path, "")
			if status != c.status || c.longURL != "" && m["longUrl"] != c.longURL {
				t.Errorf("GET %s: %d %v, want %d %s", c.path, status, m, c.status, c.longURL)
			}
		}
		if status, m := shlink(akey, "PATCH", "/rest/v3/short-urls/menu?domain=go.shop.example", `{"longUrl":"https://example.com/shop3"}`); status != 200 || m["longUrl"] != "https://example.com/shop3" {
			t.Errorf("PATCH on the domain: %d %v", status, m)
		}
		if status, _ := shlink(akey, "DELETE", "/rest/v3/short-urls/menu?domain=go.shop.example", ""); status != http.StatusNoContent {
			t.Errorf("DELETE on the domain: %d", status)
		}
		// The base URL's menu is untouched; the shop's domain now falls back to it.
		if got := expect(t, e.api(akey, "GET", "/api/v1/codes/"+onBase["id"].(string), ""), http.StatusOK, ""); got["destination"] != "https://example.com/base" {
			t.Errorf("alice's base menu after the domain's edit and deletion: %v", got)
		}
		answers[[2]string{"go.shop.example", "/menu"}] = "https://example.com/base"
		answers[[2]string{"go.shop.example", "/d/menu"}] = "https://example.com/base"
		check("after the deletion")

		// YOURLS names a code by its short URL's host.
		expect(t, create(akey, "", "drinks", "https://example.com/drinks"), http.StatusCreated, "")
		expect(t, create(akey, shop, "drinks", "https://example.com/shop-drinks"), http.StatusCreated, "")
		for shorturl, want := range map[string]string{
			"https://go.shop.example/drinks":    "https://example.com/shop-drinks",
			"drinks":                            "https://example.com/drinks",
			testConfig(t).BaseURL + "/d/drinks": "https://example.com/drinks",
			"https://old.example/drinks":        "https://example.com/drinks", // not a host of the workspace: as a keyword
		} {
			q := url.Values{"signature": {akey}, "action": {"expand"}, "format": {"json"}, "shorturl": {shorturl}}
			r := e.do(e.browser(), "GET", "/yourls-api.php?"+q.Encode(), "")
			var m map[string]any
			json.Unmarshal(r.body, &m)
			if r.StatusCode != 200 || m["longurl"] != want {
				t.Errorf("expand %s: %d %v, want %s", shorturl, r.StatusCode, m, want)
			}
		}
	})
}
