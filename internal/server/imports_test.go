package server

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/domains/domaintest"
	"github.com/squarely/squarely/internal/imports/importstest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// postImport uploads a CSV import.
func (e *env) postImport(c *http.Client, content string, fields map[string]string) *response {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "links.csv")
	fw.Write([]byte(content))
	mw.Close()
	return e.do(c, "POST", "/api/imports", buf.String(), "Content-Type", mw.FormDataContentType())
}

// waitImport polls an import until it is done or failed.
func (e *env) waitImport(c *http.Client, id string) map[string]any {
	e.t.Helper()
	return e.waitImportFor(c, id, 20*time.Second)
}

// waitImportFor is waitImport with its own patience.
func (e *env) waitImportFor(c *http.Client, id string, patience time.Duration) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		j := expect(e.t, e.do(c, "GET", "/api/imports/"+id, ""), http.StatusOK, "")
		if j["status"] == store.ImportDone || j["status"] == store.ImportFailed {
			return j
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("import %s: %v", id, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// statuses are an import answer's items' statuses by short code.
func statuses(m map[string]any) map[string]string {
	out := map[string]string{}
	for _, x := range m["items"].([]any) {
		it := x.(map[string]any)
		out[it["shortCode"].(string)+"|"+it["destination"].(string)] = it["status"].(string)
	}
	return out
}

// A CSV import: the dry run says what will be created, what conflicts
// and what is already there; the job creates the codes with their short
// codes, titles and tags; a re-run creates nothing.
func TestImportCSV(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, aliceID := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		e.createDynamic(bob, "https://example.com/bob", part{"shortCode", "bobs-menu", ""})
		e.createDynamic(alice, "https://example.com/kept", part{"shortCode", "kept", ""})

		sheet := "shortCode,destination,name,tags,createdAt\n" +
			"spring,https://example.com/spring,Spring,\"promo,spring\",2024-03-01T10:00:00Z\n" +
			"bad-dest,javascript:alert(1),Bad,,\n" +
			"login,https://example.com/login,Reserved,,\n" +
			"spring,https://example.com/again,Twice,,\n" +
			"BOBS-MENU,https://example.com/b,Taken,,\n" +
			",https://example.com/random,Random,,\n" +
			"kept,https://example.com/kept,Kept,,\n"
		dry := expect(t, e.postImport(alice, sheet, map[string]string{"source": "csv", "dryRun": "true"}), http.StatusOK, "")
		if dry["total"] != 7.0 || dry["create"] != 2.0 || dry["conflicts"] != 4.0 || dry["skip"] != 1.0 {
			t.Fatalf("dry run: %v", dry)
		}
		got := statuses(dry)
		for k, want := range map[string]string{
			"spring|https://example.com/spring": store.ImportPending, "bad-dest|javascript:alert(1)": store.ImportConflict,
			"login|https://example.com/login": store.ImportConflict, "spring|https://example.com/again": store.ImportConflict,
			"BOBS-MENU|https://example.com/b": store.ImportConflict, "|https://example.com/random": store.ImportPending,
			"kept|https://example.com/kept": store.ImportExists,
		} {
			if got[k] != want {
				t.Errorf("%s: %s, want %s", k, got[k], want)
			}
		}
		if n := storetest.Count(t, st, "import_jobs"); n != 0 {
			t.Fatalf("a dry run saved %d jobs", n)
		}

		job := expect(t, e.postImport(alice, sheet, map[string]string{"source": "csv"}), http.StatusAccepted, "")
		done := e.waitImport(alice, idOf(job))
		if done["created"] != 2.0 || done["conflicts"] != 4.0 || done["skipped"] != 1.0 || done["progress"] != 100.0 {
			t.Fatalf("job: %v", done)
		}
		expectRedirect(t, e.scan("spring", iPhoneUA), "https://example.com/spring")
		d, err := baseCode(st, storetest.Personal(t, st, aliceID), "spring")
		if err != nil || d.Name != "Spring" || len(d.Tags) != 2 || !d.ShortCodeChosen || d.CreatedAt.Year() != 2024 {
			t.Fatalf("imported code: %+v, %v", d, err)
		}
		// A re-run creates nothing: everything there is skipped.
		again := e.waitImport(alice, idOf(expect(t, e.postImport(alice, sheet, map[string]string{"source": "csv"}), http.StatusAccepted, "")))
		if again["created"] != 0.0 || again["skipped"] != 3.0 {
			t.Errorf("re-run: %v", again)
		}
		// Another workspace cannot read the import.
		expect(t, e.do(bob, "GET", "/api/imports/"+idOf(job), ""), http.StatusNotFound, msgImportMissing)
	})
}

// Bitly's and Dub's exports as they are; refusals of bad files.
func TestImportCSVLayoutsAndRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		bitly := "Title,Bitlink,Long URL,Created,Tags,Clicks\nMenu,https://bit.ly/3menuX,https://example.com/menu,2023-05-01 10:00:00,food,1200\n"
		dry := expect(t, e.postImport(alice, bitly, map[string]string{"source": "bitly-csv", "dryRun": "true"}), http.StatusOK, "")
		it := dry["items"].([]any)[0].(map[string]any)
		if it["shortCode"] != "3menuX" || it["destination"] != "https://example.com/menu" || it["clicks"] != 1200.0 || it["title"] != "Menu" {
			t.Errorf("bitly: %v", it)
		}
		dub := "Short link,Destination URL,Clicks,Created at,Tags\ngo.brand.com/spring,https://example.com/s,7,2024-01-02T03:04:05.000Z,a;b\n"
		dry = expect(t, e.postImport(alice, dub, map[string]string{"source": "dub-csv", "dryRun": "true"}), http.StatusOK, "")
		it = dry["items"].([]any)[0].(map[string]any)
		if it["shortCode"] != "spring" || it["destination"] != "https://example.com/s" || it["clicks"] != 7.0 || len(it["tags"].([]any)) != 2 {
			t.Errorf("dub: %v", it)
		}

		for _, c := range []struct {
			name, content string
			fields        map[string]string
			field         string
		}{
			{"formula", "shortCode,destination\nx1,=HYPERLINK(\"http://evil\")\n", map[string]string{"source": "csv"}, "file"},
			{"formula @", "shortCode,destination,name\nx1,https://example.com,@SUM(1)\n", map[string]string{"source": "csv"}, "file"},
			{"a 10 MB line", "shortCode,destination\nx1,https://example.com/" + strings.Repeat("a", 10<<20) + "\n", map[string]string{"source": "csv"}, "file"},
			{"no destination column", "a,b\n1,2\n", map[string]string{"source": "csv"}, "file"},
			{"invalid UTF-8", "shortCode,destination,name,tags\nx1,https://example.com/a,na\xffme,t\xffag\n", map[string]string{"source": "csv"}, "file"},
			{"a NUL", "shortCode,destination,name\nx1,https://example.com/a,na\x00me\n", map[string]string{"source": "csv"}, "file"},
			{"invalid UTF-8 in a destination", "shortCode,destination\nx1,https://exa\xffmple.com/a\n", map[string]string{"source": "csv"}, "file"},
			{"unknown source", "shortCode,destination\n", map[string]string{"source": "kutt-csv"}, "source"},
			{"bad oldBaseUrl", "shortCode,destination\nx1,https://example.com\n", map[string]string{"source": "csv", "oldBaseUrl": "nope"}, "oldBaseUrl"},
			{"bad domain", "shortCode,destination\nx1,https://example.com\n", map[string]string{"source": "csv", "domainId": "x"}, "domainId"},
		} {
			r := e.postImport(alice, c.content, c.fields)
			m := expect(t, r, http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[c.field] == nil {
				t.Errorf("%s: %v, want an error on %s", c.name, m, c.field)
			}
		}
		for body, field := range map[string]string{
			`{"source":"bitly-api","baseUrl":"https://x.example","apiKey":"k"}`:   "source",
			`{"source":"shlink","baseUrl":"http://127.0.0.1:9/","apiKey":"k"}`:    "baseUrl", // a private address
			`{"source":"shlink","baseUrl":"https://10.0.0.1/","apiKey":"k"}`:      "baseUrl",
			`{"source":"shlink","baseUrl":"https://shlink.example/","apiKey":""}`: "apiKey",
		} {
			m := expect(t, e.do(alice, "POST", "/api/imports", body), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
				t.Errorf("%s: %v, want an error on %s", body, m, field)
			}
		}
		expect(t, e.do(alice, "POST", "/api/imports", `{"source":`), http.StatusBadRequest, "")
		if n := storetest.Count(t, st, "import_jobs"); n != 0 {
			t.Errorf("%d import jobs saved, want none: every import here was refused or a dry run", n)
		}
		viewer := e.browser()
		expect(t, e.do(viewer, "POST", "/api/imports", `{"source":"shlink"}`), http.StatusUnauthorized, "")
	})
}

// An import from Shlink's REST API v3: the other service is a second
// Squarely, whose Shlink-compatible API @shlinkio/shlink-js-sdk checks
// (TestShlinkSDK). Links keep their short codes and tags; a link whose
// code was created before a stop (and not marked) is not created twice.
func TestImportFromShlink(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		old := start(t, storetest.Open(t))
		owner, _ := old.signedIn("owner@old.example")
		oldKey := mustKey(old, owner)
		for _, body := range []string{
			`{"longUrl":"https://example.com/one","customSlug":"one","title":"One","tags":["print"]}`,
			`{"longUrl":"https://example.com/two","customSlug":"two"}`,
			`{"longUrl":"https://example.com/three","customSlug":"three"}`,
		} {
			if r := old.do(old.browser(), "POST", "/rest/v3/short-urls", body, "X-Api-Key", oldKey); r.StatusCode != 200 {
				t.Fatalf("the old service: %d %s", r.StatusCode, r.body)
			}
		}

		e := start(t, st, withConfig(func(c *config.Config) { c.WebhookAllowHTTP, c.WebhookAllowPrivate = true, true }))
		alice, _ := e.signedIn("alice@example.com")
		// "two" was created before a stop that left its item unmarked.
		e.createDynamic(alice, "https://example.com/two", part{"shortCode", "two", ""})
		body := `{"source":"shlink","baseUrl":"` + old.srv.URL + `","apiKey":"` + oldKey + `"}`
		dry := expect(t, e.do(alice, "POST", "/api/imports", strings.Replace(body, `"source"`, `"dryRun":true,"source"`, 1)), http.StatusOK, "")
		if dry["total"] != 3.0 || dry["create"] != 2.0 || dry["skip"] != 1.0 {
			t.Fatalf("dry run: %v", dry)
		}
		expect(t, e.do(alice, "POST", "/api/imports", strings.Replace(body, oldKey, "sq_wrong", 1)), http.StatusBadRequest, "")
		job := e.waitImport(alice, idOf(expect(t, e.do(alice, "POST", "/api/imports", body), http.StatusAccepted, "")))
		// The old host is where the service's short URLs live: a Squarely's /d/.
		if job["created"] != 2.0 || job["skipped"] != 1.0 || job["oldBaseUrl"] != "http://localhost:8080/d" {
			t.Fatalf("job: %v", job)
		}
		for code, dest := range map[string]string{"one": "https://example.com/one", "two": "https://example.com/two", "three": "https://example.com/three"} {
			expectRedirect(t, e.scan(code, iPhoneUA), dest)
		}
		var n int
		storetest.QueryRow(t, st, `SELECT COUNT(*) FROM dynamic_qr_codes WHERE short_code IN ('one', 'two', 'three')`, nil, &n)
		if n != 3 {
			t.Errorf("%d codes, want 3: one each", n)
		}
	})
}

// The switch check compares each imported short URL on the old host with
// the same path on the domain that takes it over, and finds the one link
// whose destination changed. The workspace's menu on the base URL is
// another host's: the import makes the domain's own, the check compares
// the domain's, and a re-run finds the domain's there.
func TestImportSwitchCheck(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		// The old shortener: /{code} answers 301 to its destination.
		oldLinks := map[string]string{"/menu": "https://example.com/menu", "/wine": "https://example.com/wine", "/hours": "https://example.com/hours"}
		oldHost := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if dest, ok := oldLinks[r.URL.Path]; ok {
				http.Redirect(w, r, dest, http.StatusMovedPermanently)
				return
			}
			http.NotFound(w, r)
		}))
		defer oldHost.Close()
		e := start(t, st, withDomains(dns, "1", true), withConfig(func(c *config.Config) { c.WebhookAllowHTTP, c.WebhookAllowPrivate = true, true }))
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, _, _ := aliceAndBobDomains(t, e, dns, alice, bob)
		e.createDynamic(alice, "https://example.com/base-menu", part{"shortCode", "menu", ""})
		sheet := "shortCode,destination\nmenu,https://example.com/menu\nwine,https://example.com/wine\nhours,https://example.com/hours-2026\n"
		job := e.waitImport(alice, idOf(expect(t, e.postImport(alice, sheet, map[string]string{"source": "csv", "domainId": shop, "oldBaseUrl": oldHost.URL}), http.StatusAccepted, "")))
		if job["created"] != 3.0 {
			t.Fatalf("job: %v", job)
		}
		expect(t, e.do(bob, "POST", "/api/imports/"+idOf(job)+"/verify", ""), http.StatusNotFound, msgImportMissing)
		expect(t, e.do(alice, "POST", "/api/imports/"+idOf(job)+"/verify", ""), http.StatusAccepted, "")
		var got map[string]any
		deadline := time.Now().Add(20 * time.Second)
		for {
			got = expect(t, e.do(alice, "GET", "/api/imports/"+idOf(job), ""), http.StatusOK, "")
			if c := got["check"].(map[string]any); c["running"] == false && c["checked"] == 3.0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("check: %v", got["check"])
			}
			time.Sleep(50 * time.Millisecond)
		}
		diff := got["different"].([]any)
		if got["same"] != 2.0 || len(diff) != 1 || got["check"].(map[string]any)["ready"] != false {
			t.Fatalf("check: %v", got["check"])
		}
		d := diff[0].(map[string]any)
		if d["shortCode"] != "hours" || d["old"] != "301 https://example.com/hours" || d["new"] != "302 https://example.com/hours-2026" {
			t.Errorf("difference: %v", d)
		}
		// The check's requests to Squarely are HEAD: no scan was counted.
		var scans int
		storetest.QueryRow(t, st, `SELECT COUNT(*) FROM scan_events`, nil, &scans)
		if scans != 0 {
			t.Errorf("%d scans recorded by the check", scans)
		}
		again := e.waitImport(alice, idOf(expect(t, e.postImport(alice, sheet, map[string]string{"source": "csv", "domainId": shop}), http.StatusAccepted, "")))
		if again["created"] != 0.0 || again["skipped"] != 3.0 {
			t.Errorf("re-run on the domain: %v", again)
		}
		expectRedirect(t, e.scan("menu", iPhoneUA), "https://example.com/base-menu")
		// Without an old host there is nothing to compare.
		plain := e.waitImport(alice, idOf(expect(t, e.postImport(alice, "shortCode,destination\nsolo,https://example.com/solo\n", map[string]string{"source": "csv"}), http.StatusAccepted, "")))
		expect(t, e.do(alice, "POST", "/api/imports/"+idOf(plain)+"/verify", ""), http.StatusBadRequest, "")
	})
}

// The whole move, at its size: 10,000 links of an old shortener
// (answering each /{code} with a 301) come in from a CSV with their short
// codes, the switch check finds every one answering the same on Squarely
// and says "ready", a re-run creates nothing, and the codes redirect. On
// SQLite: the store's import path is the same on PostgreSQL, tested there
// above at a smaller size.
func TestImportTenThousandLinks(t *testing.T) {
	const n = 10_000
	code := func(i int) string { return fmt.Sprintf("old-%05d", i) }
	dest := func(i int) string { return fmt.Sprintf("https://example.com/menu/%d", i) }
	var old sync.Map
	var sheet strings.Builder
	sheet.WriteString("shortCode,destination,name\n")
	for i := range n {
		old.Store("/"+code(i), dest(i))
		fmt.Fprintf(&sheet, "%s,%s,Link %d\n", code(i), dest(i), i)
	}
	oldHost := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := old.Load(r.URL.Path); ok {
			http.Redirect(w, r, d.(string), http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
	}))
	defer oldHost.Close()
	e := start(t, storetest.Open(t), withConfig(func(c *config.Config) {
		c.WebhookAllowHTTP, c.WebhookAllowPrivate, c.DynamicLimit = true, true, 0
	}))
	alice, _ := e.signedIn("alice@example.com")
	form := map[string]string{"source": "csv", "oldBaseUrl": oldHost.URL}

	dry := expect(t, e.postImport(alice, sheet.String(), map[string]string{"source": "csv", "oldBaseUrl": oldHost.URL, "dryRun": "true"}), http.StatusOK, "")
	if dry["total"] != float64(n) || dry["create"] != float64(n) || dry["conflicts"] != 0.0 {
		t.Fatalf("dry run: total %v, create %v, conflicts %v", dry["total"], dry["create"], dry["conflicts"])
	}
	job := e.waitImportFor(alice, idOf(expect(t, e.postImport(alice, sheet.String(), form), http.StatusAccepted, "")), 5*time.Minute)
	if job["status"] != store.ImportDone || job["created"] != float64(n) {
		t.Fatalf("job: status %v, created %v, failed %v, error %v", job["status"], job["created"], job["failed"], job["error"])
	}
	expect(t, e.do(alice, "POST", "/api/imports/"+idOf(job)+"/verify", ""), http.StatusAccepted, "")
	var got map[string]any
	deadline := time.Now().Add(5 * time.Minute)
	for {
		got = expect(t, e.do(alice, "GET", "/api/imports/"+idOf(job), ""), http.StatusOK, "")
		if c := got["check"].(map[string]any); c["running"] == false && c["checked"] == float64(n) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("check: %v", got["check"])
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got["same"] != float64(n) || len(got["different"].([]any)) != 0 || got["check"].(map[string]any)["ready"] != true {
		t.Fatalf("check: same %v, different %d, %v", got["same"], len(got["different"].([]any)), got["check"])
	}
	again := e.waitImportFor(alice, idOf(expect(t, e.postImport(alice, sheet.String(), form), http.StatusAccepted, "")), 5*time.Minute)
	if again["created"] != 0.0 || again["skipped"] != float64(n) {
		t.Errorf("re-run: created %v, skipped %v", again["created"], again["skipped"])
	}
	for _, i := range []int{0, 4321, n - 1} {
		expectRedirect(t, e.scan(code(i), iPhoneUA), dest(i))
	}
}

// An import from each service's API, against a fake speaking that API
// (importstest): the links become codes with their short codes, titles,
// tags, creation dates and old click totals; the old host is where their
// short URLs live; a wrong key and a private address are refused with
// the field; a re-run creates nothing.
func TestImportFromServices(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) {
			c.WebhookAllowHTTP, c.WebhookAllowPrivate, c.DynamicLimit = true, true, 0
		}))
		strict := start(t, st)
		const n = 60 // over a page of Kutt's
		for _, source := range []string{"kutt", "shlink", "yourls", "dub", "bitly"} {
			t.Run(source, func(t *testing.T) {
				alice, aliceID := e.signedIn(source + "@example.com")
				fake := importstest.Start(t, source, "key-"+source, n)
				body := `{"source":"` + source + `","baseUrl":"` + fake.URL + `","apiKey":"key-` + source + `"}`
				dry := expect(t, e.do(alice, "POST", "/api/imports", strings.Replace(body, "{", `{"dryRun":true,`, 1)), http.StatusOK, "")
				if dry["total"] != float64(n) || dry["create"] != float64(n) {
					t.Fatalf("dry run: %v", dry["total"])
				}
				m := expect(t, e.do(alice, "POST", "/api/imports", strings.Replace(body, `"key-`+source, `"wrong`, 1)), http.StatusBadRequest, "")
				if errs, _ := m["errors"].(map[string]any); !strings.Contains(fmt.Sprint(errs["baseUrl"]), "refused the API key") {
					t.Errorf("a wrong key: %v", m)
				}
				// Without the address rules relaxed the fake is private: refused.
				strictAlice, _ := strict.signedIn(source + "-strict@example.com")
				m = expect(t, strict.do(strictAlice, "POST", "/api/imports", body), http.StatusBadRequest, "")
				if errs, _ := m["errors"].(map[string]any); errs["baseUrl"] == nil {
					t.Errorf("a private address: %v", m)
				}

				job := e.waitImport(alice, idOf(expect(t, e.do(alice, "POST", "/api/imports", body), http.StatusAccepted, "")))
				if job["created"] != float64(n) || job["oldBaseUrl"] != importstest.ShortHost {
					t.Fatalf("job: created %v, oldBaseUrl %v", job["created"], job["oldBaseUrl"])
				}
				want := importstest.Want(source, 7)
				expectRedirect(t, e.scan(want.ShortCode, iPhoneUA), want.Destination)
				d, err := baseCode(st, storetest.Personal(t, st, aliceID), want.ShortCode)
				if err != nil || d.Name != want.Title || len(d.Tags) != len(want.Tags) || !d.CreatedAt.Equal(*want.CreatedAt) {
					t.Fatalf("imported code: %+v, %v; want %+v", d, err, want)
				}
				// The old clicks are a baseline apart from Squarely's own scans.
				var list []map[string]any
				decodeList(t, e.do(alice, "GET", "/api/dynamic-qrcodes", ""), &list)
				found := false
				for _, c := range list {
					found = found || c["shortCode"] == want.ShortCode
					// (The one scan above may not be counted yet: at most 1.)
					if c["shortCode"] == want.ShortCode && (c["importedClicks"] != float64(want.Clicks) || c["scanCount"].(float64) > 1) {
						t.Errorf("%s: importedClicks %v, scanCount %v; want %d and at most 1", want.ShortCode, c["importedClicks"], c["scanCount"], want.Clicks)
					}
				}
				if !found {
					t.Errorf("%s not listed", want.ShortCode)
				}
				again := e.waitImport(alice, idOf(expect(t, e.do(alice, "POST", "/api/imports", body), http.StatusAccepted, "")))
				if again["created"] != 0.0 || again["skipped"] != float64(n) {
					t.Errorf("re-run: created %v, skipped %v", again["created"], again["skipped"])
				}
			})
		}
	})
}

// baseCode is the workspace's live code with code on the base URL.
func baseCode(st *store.Store, ws int64, code string) (*store.DynamicCode, error) {
	list, err := st.DynamicCodesByShortCode(context.Background(), ws, code)
	if err != nil {
		return nil, err
	}
	if d := store.CodeOnHost(list, nil); d != nil {
		return d, nil
	}
	return nil, store.ErrNotFound
}

// A job's link whose domain the store finds unverified when the code is
// made is failed, not created: the refusal fell through to the success
// path, the item was saved as created with code id 0, which its foreign
// key refused, and the job retried it every second, running for ever.
func TestImportOnUnverifiedDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := start(t, st, withDomains(dns, "1", true))
		alice, aliceID := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		_, _, pending := aliceAndBobDomains(t, e, dns, alice, bob)
		domainID := int64(mustAtoi(pending))
		// The job as createImport saves it, on a domain that is no longer
		// usable by the time the runner gets to it.
		j := &store.ImportJob{WorkspaceID: storetest.Personal(t, st, aliceID), UserID: aliceID, Source: "csv", DomainID: &domainID}
		items := []store.ImportItem{{Row: 1, ShortCode: "menu", Destination: "https://example.com/menu", Status: store.ImportPending}}
		if err := st.CreateImportJob(context.Background(), j, items, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
		done := e.waitImport(alice, fmt.Sprint(j.ID))
		it := done["items"].([]any)[0].(map[string]any)
		if done["created"] != 0.0 || done["failed"] != 1.0 || it["status"] != store.ImportFailedIt || it["codeId"] != nil || it["reason"] == "" {
			t.Errorf("job: %v", done)
		}
		if n := storetest.Count(t, st, "dynamic_qr_codes"); n != 0 {
			t.Errorf("%d codes made", n)
		}
	})
}

// An import from a service whose domainId or oldBaseUrl is refused is
// refused before the service is asked anything (every page of its links
// was read first, with the user's key, and only then the request refused).
func TestImportRefusesBeforeFetching(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := start(t, st, withDomains(dns, "1", true), withConfig(func(c *config.Config) { c.WebhookAllowHTTP, c.WebhookAllowPrivate = true, true }))
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, bobs, pending := aliceAndBobDomains(t, e, dns, alice, bob)
		fake := importstest.Start(t, "shlink", "key", 250)
		body := func(extra string) string {
			return `{"source":"shlink","baseUrl":"` + fake.URL + `","apiKey":"key","dryRun":true` + extra + `}`
		}
		for _, c := range []struct {
			extra  string
			status int
		}{
			{`,"domainId":"abc"`, http.StatusBadRequest},
			{`,"domainId":-3`, http.StatusBadRequest},
			{`,"domainId":` + bobs, http.StatusNotFound},
			{`,"domainId":` + pending, http.StatusBadRequest},
			{`,"oldBaseUrl":"javascript:alert(1)"`, http.StatusBadRequest},
		} {
			expect(t, e.do(alice, "POST", "/api/imports", body(c.extra)), c.status, "")
			if n := fake.Requests.Load(); n != 0 {
				t.Errorf("%s: the service was asked %d times", c.extra, n)
			}
			fake.Requests.Store(0)
		}
		dry := expect(t, e.do(alice, "POST", "/api/imports", body(`,"domainId":`+shop)), http.StatusOK, "")
		if dry["total"] != 250.0 || fake.Requests.Load() == 0 {
			t.Errorf("dry run on the domain: %v after %d requests", dry["total"], fake.Requests.Load())
		}
	})
}
