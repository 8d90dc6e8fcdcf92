package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// uploadPageImage uploads a PNG in c's workspace and returns its URL.
func (e *env) uploadPageImage(c *http.Client) string {
	e.t.Helper()
	m := expect(e.t, e.postForm(c, "/api/upload-image", part{"imageFile", string(pngBytes(e.t, 8, 8)), "me.png"}), http.StatusCreated, "")
	return m["imageUrl"].(string)
}

func (e *env) createPage(c *http.Client, body string) map[string]any {
	e.t.Helper()
	return expect(e.t, e.do(c, "POST", "/api/pages", body), http.StatusCreated, "")
}

// eventually polls fn until it is true or 5 s pass.
func eventually(t *testing.T, what string, fn func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !fn() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 5 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestHostedPagesAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("pages@example.com")
		other, _ := e.signedIn("other@example.com")
		photo := e.uploadPageImage(c)
		otherPhoto := e.uploadPageImage(other)

		vcard := `{"type":"vcard","title":"Ada","slug":"ada-card","language":"fr","content":{"firstName":"Ada","lastName":"Lovelace","photoUrl":"` + photo + `",
			"phones":[{"type":"cell","number":"+44 20 7946 0000"}],"emails":[{"type":"work","address":"ada@example.com"}],"address":{"city":"London"}}}`
		p := e.createPage(c, vcard)
		if p["slug"] != "ada-card" || p["url"] != e.srv.URL+"/p/ada-card" && !strings.HasSuffix(p["url"].(string), "/p/ada-card") || p["language"] != "fr" || p["version"] != 1.0 {
			t.Errorf("created %v", p)
		}
		id := idOf(p)
		theme := p["theme"].(map[string]any)
		if theme["fgColor"] != "#0f172a" || theme["accentColor"] != "#2563eb" {
			t.Errorf("default theme %v", theme)
		}
		expect(t, e.do(other, "POST", "/api/pages", `{"type":"links","title":"Mine","slug":"ada-card","content":{"links":[{"label":"Blog","url":"https://blog.example.com"}]}}`),
			http.StatusConflict, msgSlugTaken)
		// A generated slug.
		gen := e.createPage(c, `{"type":"links","title":"Mine","content":{"links":[{"label":"Blog","url":"https://blog.example.com"}]}}`)
		if !validSlugForTest(gen["slug"].(string)) {
			t.Errorf("generated slug %v", gen["slug"])
		}

		// Bad input: 400 by field path, nothing stored.
		before := storetest.Count(t, st, "pages")
		for _, c2 := range []struct{ body, field string }{
			{`{"type":"vcard","title":"A","content":{"firstName":"A","phones":[{"number":"nope"}]}}`, "content.phones.0"},
			{`{"type":"menu","title":"M","content":{"items":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d","price":"x","currency":"EUR"}]}}`, "content.items.3.price"},
			{`{"type":"links","title":"L","content":{"links":[{"label":"x","url":"javascript:alert(1)"}]}}`, "content.links.0.url"},
			{`{"type":"vcard","title":"A","content":{"firstName":"A","photoUrl":"` + otherPhoto + `"}}`, "content"},
			{`{"type":"vcard","title":"A","content":{"firstName":"A","photoUrl":"https://evil.test/a.png"}}`, "content.photoUrl"},
			{`{"type":"links","title":"L","theme":{"brandKitId":999999},"content":{"links":[{"label":"x","url":"https://a.test"}]}}`, "theme.brandKitId"},
			{`{"type":"blog","title":"L","content":{}}`, "type"},
			{`{"type":"links","title":"","content":{"links":[{"label":"x","url":"https://a.test"}]}}`, "title"},
		} {
			m := expect(t, e.do(c, "POST", "/api/pages", c2.body), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[c2.field] == nil {
				t.Errorf("%s: errors %v, want %s", c2.body, m["errors"], c2.field)
			}
		}
		expect(t, e.do(c, "POST", "/api/pages", `{"type":`), http.StatusBadRequest, "")
		if r := e.do(c, "POST", "/api/pages", `{"type":"links","title":"`+strings.Repeat("x", 2<<20)+`"}`); r.StatusCode != http.StatusRequestEntityTooLarge && r.StatusCode != http.StatusBadRequest {
			t.Errorf("huge body: %d", r.StatusCode)
		}
		if n := storetest.Count(t, st, "pages"); n != before {
			t.Errorf("bad input stored pages: %d → %d", before, n)
		}

		// Another workspace's page is not found, whatever the method.
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			expect(t, e.do(other, m, "/api/pages/"+id, vcard), http.StatusNotFound, msgPageMissing)
		}
		expect(t, e.do(other, "GET", "/api/pages/"+id+"/analytics", ""), http.StatusNotFound, msgPageMissing)
		expect(t, e.do(c, "GET", "/api/pages/abc", ""), http.StatusNotFound, msgPageMissing)
		var list []map[string]any
		decodeList(t, e.do(other, "GET", "/api/pages", ""), &list)
		if len(list) != 0 {
			t.Errorf("other's list %v", list)
		}
		decodeList(t, e.do(c, "GET", "/api/pages", ""), &list)
		if len(list) != 2 {
			t.Errorf("list %v", list)
		}

		// A code opening the page answers /d/{code} with it (200), counted.
		code := e.createDynamic(c, "", part{"pageId", id, ""}, part{"name", "Card on the door", ""})
		if code["pageId"] != p["id"] || !strings.HasSuffix(code["destination"].(string), "/p/ada-card") {
			t.Fatalf("page code %v", code)
		}
		short := code["shortCode"].(string)
		scan := e.scan(short, iPhoneUA)
		if scan.StatusCode != http.StatusOK || !bytes.Contains(scan.body, []byte("Ada Lovelace")) || !bytes.Contains(scan.body, []byte(`lang="fr"`)) {
			t.Fatalf("scan of a page code: %d %s", scan.StatusCode, scan.body)
		}
		if csp := scan.Header.Get("Content-Security-Policy"); strings.Contains(csp, "script-src") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("CSP %q", csp)
		}
		// Another workspace's page cannot be given to a code.
		expect(t, e.postForm(other, "/api/dynamic-qrcodes", part{"destination", "", ""}, part{"qrType", "url", ""}, part{"pageId", id, ""}), http.StatusNotFound, msgPageMissing)
		otherCode := e.createDynamic(other, "https://example.com/other")
		expect(t, e.do(other, "PATCH", "/api/dynamic-qrcodes/"+idOf(otherCode), `{"pageId":`+id+`}`), http.StatusNotFound, msgPageMissing)
		expect(t, e.do(other, "PATCH", "/api/dynamic-qrcodes/"+idOf(otherCode), `{"pageId":"x"}`), http.StatusBadRequest, "")
		expectRedirect(t, e.scan(otherCode["shortCode"].(string), iPhoneUA), "https://example.com/other")
		// A redirect made a page code by PATCH, and back.
		plain := e.createDynamic(c, "https://example.com/plain")
		made := expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(plain), `{"pageId":`+id+`}`), http.StatusOK, "")
		if made["pageId"] != p["id"] {
			t.Errorf("PATCH pageId: %v", made)
		}
		if r := e.scan(plain["shortCode"].(string), iPhoneUA); r.StatusCode != http.StatusOK || !bytes.Contains(r.body, []byte("Ada Lovelace")) {
			t.Errorf("the patched code does not answer the page: %d", r.StatusCode)
		}
		expect(t, e.do(c, "DELETE", "/api/dynamic-qrcodes/"+idOf(plain), ""), http.StatusNoContent, "")

		// An edit is served on the next scan.
		edited := strings.Replace(vcard, `"firstName":"Ada"`, `"firstName":"Augusta"`, 1)
		up := expect(t, e.do(c, "PUT", "/api/pages/"+id, edited), http.StatusOK, "")
		if up["version"] != 2.0 {
			t.Errorf("version after edit %v", up["version"])
		}
		if s := e.scan(short, iPhoneUA); !bytes.Contains(s.body, []byte("Augusta Lovelace")) {
			t.Errorf("the edit is not served: %s", s.body)
		}
		if s := e.do(e.browser(), "GET", "/p/ada-card", "", "User-Agent", desktopUA); !bytes.Contains(s.body, []byte("Augusta Lovelace")) {
			t.Errorf("/p/ not edited: %s", s.body)
		}
		expect(t, e.do(c, "PUT", "/api/pages/"+id, `{"type":"links","title":"x","slug":"ada-card","content":{"links":[{"label":"x","url":"https://a.test"}]}}`), http.StatusBadRequest, "")

		// The contact card: vCard 4.0, 3.0 on request, the photo embedded.
		vcf := e.do(e.browser(), "GET", "/p/ada-card/contact.vcf", "", "User-Agent", iPhoneUA)
		if vcf.StatusCode != 200 || !strings.HasPrefix(vcf.Header.Get("Content-Type"), "text/vcard") || !bytes.Contains(vcf.body, []byte("VERSION:4.0")) ||
			!bytes.Contains(vcf.body, []byte("PHOTO:data:image/png;base64,")) {
			t.Errorf("contact.vcf: %d %s", vcf.StatusCode, vcf.body)
		}
		if v3 := e.do(e.browser(), "GET", "/p/ada-card/contact.vcf?version=3.0", "", "User-Agent", iPhoneUA); !bytes.Contains(v3.body, []byte("VERSION:3.0")) || !bytes.Contains(v3.body, []byte("PHOTO;ENCODING=b;TYPE=PNG:")) {
			t.Errorf("contact.vcf 3.0: %s", v3.body)
		}
		expect(t, e.do(e.browser(), "GET", "/p/ada-card/event.ics", ""), http.StatusNotFound, "")

		// A button: 302, counted.
		goResp := e.do(e.browser(), "GET", "/p/ada-card/go/0", "", "User-Agent", iPhoneUA)
		if goResp.StatusCode != http.StatusFound || goResp.Header.Get("Location") != "tel:+442079460000" {
			t.Errorf("go/0: %d %q", goResp.StatusCode, goResp.Header.Get("Location"))
		}
		expect(t, e.do(e.browser(), "GET", "/p/ada-card/go/9", ""), http.StatusNotFound, "")
		expect(t, e.do(e.browser(), "GET", "/p/ada-card/go/01", ""), http.StatusNotFound, "")
		expect(t, e.do(e.browser(), "GET", "/p/no-such-page", ""), http.StatusNotFound, "")

		// Analytics: the scans and visits, the click, the save.
		var a map[string]any
		eventually(t, "page analytics", func() bool {
			a = expect(t, e.do(c, "GET", "/api/pages/"+id+"/analytics?from=2026-01-01&to=2026-12-31", ""), http.StatusOK, "")
			return a["views"] == 4.0 && a["contactSaves"] == 2.0 && a["clicks"].([]any)[0].(map[string]any)["clicks"] == 1.0
		})
		if a["uniqueVisitors"] != 2.0 { // the iPhone, the desktop

			t.Errorf("analytics %v", a)
		}
		csvResp := e.do(c, "GET", "/api/pages/"+id+"/analytics?from=2026-01-01&to=2026-12-31&format=csv", "")
		if !strings.HasPrefix(csvResp.Header.Get("Content-Type"), "text/csv") || !bytes.Contains(csvResp.body, []byte("views,,,,4")) || !bytes.Contains(csvResp.body, []byte("clicks,0,")) {
			t.Errorf("CSV %s", csvResp.body)
		}
		expect(t, e.do(c, "GET", "/api/pages/"+id+"/analytics?from=yesterday", ""), http.StatusBadRequest, "")
		for _, q := range []string{"from=0000-01-01&to=0000-01-02", "from=0001-01-01T00:00:00Z", "from=2026-01-01&to=9999-12-31"} {
			expect(t, e.do(c, "GET", "/api/pages/"+id+"/analytics?"+q, ""), http.StatusBadRequest, "Dates run from 2000-01-01 to 9999-12-30")
		}

		// Deleting a page a live code opens: 409 with the codes' names.
		del := expect(t, e.do(c, "DELETE", "/api/pages/"+id, ""), http.StatusConflict, "")
		if names, _ := del["codes"].([]any); len(names) != 1 || names[0] != "Card on the door" {
			t.Errorf("409 body %v", del)
		}
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(code), `{"pageId":null}`), http.StatusOK, "")
		if r := e.do(c, "DELETE", "/api/pages/"+id, ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.do(e.browser(), "GET", "/p/ada-card", ""), http.StatusNotFound, "")
	})
}

func validSlugForTest(s string) bool {
	return len(s) == 10 && strings.Trim(s, "abcdefghijkmnpqrstuvwxyz23456789") == ""
}

// Every type, served: escaped, within the transfer budget, no script.
func TestHostedPagesServed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("served@example.com")
		evil := `<script>alert(1)</script>`
		bodies := map[string]string{
			"vcard":    `{"firstName":"` + evil + `","lastName":"L","note":"` + evil + `"}`,
			"links":    `{"title":"` + evil + `","bio":"` + evil + `","links":[{"label":"` + evil + `","url":"https://a.test/?q=\"><script>"}]}`,
			"menu":     `{"title":"` + evil + `","items":[{"section":"` + evil + `","name":"` + evil + `","price":"1","currency":"EUR"}]}`,
			"gallery":  `{"title":"` + evil + `","images":[{"url":"` + e.uploadPageImage(c) + `","caption":"` + evil + `"}]}`,
			"coupon":   `{"headline":"` + evil + `","code":"` + evil + `","validUntil":"2030-01-01"}`,
			"event":    `{"title":"` + evil + `","start":"2026-03-28T22:00","end":"2026-03-29T04:00","timeZone":"Europe/Paris","description":"` + evil + `"}`,
			"app":      `{"name":"` + evil + `","appStoreUrl":"https://apps.apple.com/app/id1","googlePlayUrl":"https://play.google.com/store/apps/details?id=x"}`,
			"business": `{"name":"` + evil + `","about":"` + evil + `","timeZone":"Europe/Paris","hours":{"sun":[{"open":"09:00","close":"17:00"}]}}`,
		}
		for typ, content := range bodies {
			body, _ := json.Marshal(map[string]any{"type": typ, "title": evil, "slug": "page-" + typ, "content": json.RawMessage(content)})
			e.createPage(c, string(body))
			r := e.do(e.browser(), "GET", "/p/page-"+typ, "", "Accept-Encoding", "gzip", "User-Agent", desktopUA)
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "gzip" {
				t.Errorf("%s: %d %q", typ, r.StatusCode, r.Header.Get("Content-Encoding"))
				continue
			}
			if len(r.body) > 20<<10 {
				t.Errorf("%s: %d bytes transferred", typ, len(r.body))
			}
			zr, err := gzip.NewReader(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			html, _ := io.ReadAll(zr)
			if bytes.Contains(html, []byte("<script")) || !bytes.Contains(html, []byte("&lt;script&gt;alert(1)&lt;/script&gt;")) {
				t.Errorf("%s: not escaped:\n%s", typ, html)
			}
		}
		// The coupon's code: hidden, then shown by a plain GET form.
		r := e.do(e.browser(), "GET", "/p/page-coupon", "")
		if bytes.Contains(r.body, []byte("&lt;script&gt;alert(1)&lt;/script&gt;</p>")) && bytes.Count(r.body, []byte("alert(1)")) > 2 {
			t.Errorf("the code shows before Show code")
		}
		if !bytes.Contains(r.body, []byte(`<form method="get" action="/p/page-coupon">`)) {
			t.Errorf("no Show code form: %s", r.body)
		}
		shown := e.do(e.browser(), "GET", "/p/page-coupon?show=code", "")
		if !bytes.Contains(shown.body, []byte(`class="code" role="status">&lt;script&gt;`)) {
			t.Errorf("Show code: %s", shown.body)
		}
		// The event's calendar.
		ics := e.do(e.browser(), "GET", "/p/page-event/event.ics", "")
		if !strings.HasPrefix(ics.Header.Get("Content-Type"), "text/calendar") || !bytes.Contains(ics.body, []byte("DTSTART;TZID=Europe/Paris:20260328T220000")) ||
			!bytes.Contains(ics.body, []byte("BEGIN:VTIMEZONE")) {
			t.Errorf("event.ics: %s", ics.body)
		}
		// The app page sends phones to their store, shows others both.
		if r := e.do(e.browser(), "GET", "/p/page-app", "", "User-Agent", iPhoneUA); r.StatusCode != http.StatusFound || r.Header.Get("Location") != "https://apps.apple.com/app/id1" {
			t.Errorf("iPhone: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		if r := e.do(e.browser(), "GET", "/p/page-app", "", "User-Agent", "Mozilla/5.0 (Linux; Android 14)"); r.Header.Get("Location") != "https://play.google.com/store/apps/details?id=x" {
			t.Errorf("Android: %q", r.Header.Get("Location"))
		}
		// Open now by the server's clock: Sunday 1 March 2026 12:00 UTC is 13:00 in Paris.
		if r := e.do(e.browser(), "GET", "/p/page-business", ""); !bytes.Contains(r.body, []byte("Open now")) {
			t.Errorf("business at 13:00 Sunday: not open")
		}
		e.clock.Advance(6 * time.Hour)
		if r := e.do(e.browser(), "GET", "/p/page-business", ""); !bytes.Contains(r.body, []byte("Closed now")) {
			t.Errorf("business at 19:00 Sunday: not closed")
		}
	})
}

// The free plan's 200 pages hold under parallel creations.
func TestHostedPagesLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, userID := e.signedIn("limit@example.com")
		ws := storetest.Personal(t, st, userID)
		for i := range maxFreePages - 5 {
			p := &store.Page{Type: "links", Slug: fmt.Sprintf("bulk-%03d", i), Title: "x", Language: "en", Theme: "{}", Content: `{"links":[{"label":"x","url":"https://a.test"}]}`}
			if err := st.CreatePage(context.Background(), ws, p, maxFreePages, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		codes := make([]int, 20)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.do(c, "POST", "/api/pages", `{"type":"links","title":"x","content":{"links":[{"label":"x","url":"https://a.test"}]}}`)
				codes[i] = r.StatusCode
			}()
		}
		wg.Wait()
		created, refused := 0, 0
		for _, s := range codes {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusForbidden:
				refused++
			default:
				t.Errorf("status %d", s)
			}
		}
		if created != 5 || refused != 15 || storetest.Count(t, st, "pages") != maxFreePages {
			t.Errorf("created %d refused %d, pages %d", created, refused, storetest.Count(t, st, "pages"))
		}
		// The trial lifts the limit as a subscription does, until it ends.
		me := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		expect(t, e.do(c, "POST", "/api/activate-trial", fmt.Sprintf(`{"email":%q}`, me["username"])), http.StatusOK, msgTrialActivated)
		page := `{"type":"links","title":"x","content":{"links":[{"label":"x","url":"https://a.test"}]}}`
		expect(t, e.do(c, "POST", "/api/pages", page), http.StatusCreated, "")
		e.clock.Advance(trialLength)
		expect(t, e.do(c, "POST", "/api/pages", page), http.StatusForbidden, msgPageLimit)
	})
}

// An edit saved on one instance reaches, on another, within a second
// (long before their caches expire): a page code's scans (the code's
// redirect is announced, as a destination edit is), /p/{slug} and a
// routing rule's page (the page's slug is announced: pages.Live).
func TestPageEditsReachEveryInstance(t *testing.T) {
	instance := fleet(t)
	a, b := instance(), instance()
	c, _ := a.signedIn("fleet-pages@example.com")
	p := a.createPage(c, `{"type":"links","title":"Fleet","slug":"fleet-page","content":{"title":"Before","links":[{"label":"A","url":"https://a.example"}]}}`)
	code := a.createDynamic(c, "", part{"pageId", idOf(p), ""})["shortCode"].(string)
	routed := a.createDynamic(c, "https://example.com/default")
	expect(t, a.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(routed)+"/routing", `{"rules":[{"when":{"os":["ios"]},"pageId":`+idOf(p)+`}]}`), http.StatusOK, "")
	for _, path := range []string{"/d/" + code, "/d/" + routed["shortCode"].(string)} {
		if r := b.do(b.browser(), "GET", path, "", "User-Agent", iPhoneUA); r.StatusCode != http.StatusOK || !bytes.Contains(r.body, []byte("Before")) {
			t.Fatalf("b %s: %d %s", path, r.StatusCode, r.body)
		}
	}
	if r := b.do(b.browser(), "GET", "/p/fleet-page", ""); !bytes.Contains(r.body, []byte("Before")) {
		t.Fatalf("b /p/: %s", r.body)
	}
	expect(t, a.do(c, "PUT", "/api/pages/"+idOf(p), `{"type":"links","title":"Fleet","content":{"title":"After","links":[{"label":"A","url":"https://a.example"}]}}`), http.StatusOK, "")
	within := func(what, path string, limit time.Duration) {
		t.Helper()
		deadline := time.Now().Add(limit)
		for {
			r := b.do(b.browser(), "GET", path, "", "User-Agent", iPhoneUA)
			if bytes.Contains(r.body, []byte("After")) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: instance b still serves the old page after %s", what, limit)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	within("page code", "/d/"+code, time.Second)
	within("/p/{slug}", "/p/fleet-page", time.Second)
	within("routing rule's page", "/d/"+routed["shortCode"].(string), time.Second)
}

// A routing rule or split variant may answer with one of the workspace's
// pages: the scan is the page itself (200), counted under its route; a
// page of another workspace, or a target named twice, is refused by
// field; the page cannot be deleted while a routing names it.
func TestRoutingToPage(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st)
		c, _ := e.signedIn("routed-pages@example.com")
		other, _ := e.signedIn("routed-other@example.com")
		mine := idOf(e.createPage(c, `{"type":"links","title":"Mine","slug":"routed-mine","content":{"title":"Phones only","links":[{"label":"A","url":"https://a.example"}]}}`))
		theirs := idOf(e.createPage(other, `{"type":"links","title":"Theirs","slug":"routed-theirs","content":{"title":"Not yours","links":[{"label":"A","url":"https://a.example"}]}}`))
		d := e.createDynamic(c, "https://example.com/default")
		code, id := d["shortCode"].(string), idOf(d)
		path := "/api/dynamic-qrcodes/" + id + "/routing"
		for body, field := range map[string]string{
			`{"rules":[{"when":{"os":["ios"]},"pageId":` + theirs + `}]}`:                                           "rules.0.pageId",
			`{"rules":[{"when":{"os":["ios"]},"pageId":999999}]}`:                                                   "rules.0.pageId",
			`{"rules":[{"when":{"os":["ios"]},"pageId":"` + mine + `"}]}`:                                           "rules.0.pageId",
			`{"rules":[{"when":{"os":["ios"]},"pageId":` + mine + `,"destination":"https://example.com/a"}]}`:       "rules.0.pageId",
			`{"split":[{"pageId":` + theirs + `,"weight":50},{"destination":"https://example.com/b","weight":50}]}`: "split.0.pageId",
			`{"split":[{"pageId":` + mine + `,"weight":50},{"pageId":0,"weight":50}]}`:                              "split.1.pageId",
		} {
			m := expect(t, e.do(c, "PUT", path, body), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
				t.Errorf("%s: errors %v, want one for %s", body, m["errors"], field)
			}
		}
		// A bulk edit's routing is checked the same way.
		m := expect(t, e.do(c, "POST", "/api/codes/bulk-edit", `{"ids":["d_`+id+`"],"changes":{"routing":{"rules":[{"when":{"os":["ios"]},"pageId":`+theirs+`}]}}}`),
			http.StatusBadRequest, "")
		if errs, _ := m["errors"].(map[string]any); errs["rules.0.pageId"] != "Rule 1: no page with this id in this workspace" {
			t.Errorf("bulk edit: %v", m)
		}
		if status, loc := e.routedScan(code, "User-Agent", iPhoneUA); status != http.StatusFound || loc != "https://example.com/default" {
			t.Fatalf("a refused routing was saved: %d %s", status, loc)
		}
		out := expect(t, e.do(c, "PUT", path, `{"rules":[{"when":{"os":["ios"]},"pageId":`+mine+`}]}`), http.StatusOK, "")
		if got := fmt.Sprint(out["routing"].(map[string]any)["rules"]); got != "[map[pageId:"+mine+" when:map[os:[ios]]]]" {
			t.Errorf("routing answered %s", got)
		}
		r := e.scan(code, iPhoneUA)
		if r.StatusCode != http.StatusOK || !bytes.Contains(r.body, []byte("Phones only")) || r.Header.Get("Location") != "" {
			t.Fatalf("iPhone: %d %q %s", r.StatusCode, r.Header.Get("Location"), r.body)
		}
		if status, loc := e.routedScan(code, "User-Agent", desktopUA); status != http.StatusFound || loc != "https://example.com/default" {
			t.Errorf("desktop: %d %s", status, loc)
		}
		// An edit is served on the next scan.
		expect(t, e.do(c, "PUT", "/api/pages/"+mine, `{"type":"links","title":"Mine","content":{"title":"Edited","links":[{"label":"A","url":"https://a.example"}]}}`), http.StatusOK, "")
		if r := e.scan(code, iPhoneUA); !bytes.Contains(r.body, []byte("Edited")) {
			t.Errorf("after the edit: %s", r.body)
		}
		// While a routing names it, the page stays.
		m = expect(t, e.do(c, "DELETE", "/api/pages/"+mine, ""), http.StatusConflict, "")
		if fmt.Sprint(m["codes"]) != "["+d["name"].(string)+"]" {
			t.Errorf("delete: %v", m)
		}
		// A split variant answers with the page too.
		split := e.createDynamic(c, "https://example.com/default")
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(split)+"/routing",
			`{"split":[{"pageId":`+mine+`,"weight":100},{"destination":"https://example.com/b","weight":0}]}`), http.StatusBadRequest, "")
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(split)+"/routing",
			`{"split":[{"pageId":`+mine+`,"weight":99},{"destination":"https://example.com/b","weight":1}]}`), http.StatusOK, "")
		pages := 0
		for i := range 20 {
			r := e.do(e.browser(), "GET", "/d/"+split["shortCode"].(string), "", "User-Agent", fmt.Sprintf("%s visitor-%d", desktopUA, i))
			if r.StatusCode == http.StatusOK && bytes.Contains(r.body, []byte("Edited")) {
				pages++
			}
		}
		if pages < 15 {
			t.Errorf("the 99%% page variant answered %d of 20 scans", pages)
		}
		// Each scan was counted under its route.
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		a := expect(t, e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?period=all", ""), http.StatusOK, "")
		if got := fmt.Sprint(a["routes"]); !strings.Contains(got, "route:rule:0 scans:2") || !strings.Contains(got, "route:default scans:2") {
			t.Errorf("routes %s", got)
		}
	})
}

// Page events still queued at the stop are saved by Close, as the scan
// recorder's are: views counted by the server, then thousands queued at
// once, none lost.
func TestPageEventsSavedAtClose(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		pe := NewPageEvents(st, nil)
		e := start(t, st, func(d *Deps) { d.PageEvents = pe })
		c, _ := e.signedIn("events@example.com")
		p := e.createPage(c, `{"type":"links","title":"Counted","slug":"counted","content":{"title":"Counted","links":[{"label":"A","url":"https://a.example"}]}}`)
		for range 5 {
			expect(t, e.do(e.browser(), "GET", "/p/counted", "", "User-Agent", desktopUA), http.StatusOK, "")
		}
		id := int64(p["id"].(float64))
		const queued = 3000
		for i := range queued {
			pe.add(store.PageEvent{PageID: id, Kind: store.PageView, Visitor: fmt.Sprint(i), At: e.clock.Now()})
		}
		if err := pe.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		a := expect(t, e.do(c, "GET", "/api/pages/"+idOf(p)+"/analytics?from=2000-01-01&to=2999-01-01", ""), http.StatusOK, "")
		if a["views"] != float64(queued+5) || pe.Dropped() != 0 {
			t.Fatalf("views %v, want %d; dropped %d", a["views"], queued+5, pe.Dropped())
		}
		// After Close an event is dropped, counted.
		pe.add(store.PageEvent{PageID: id, Kind: store.PageView, Visitor: "late", At: e.clock.Now()})
		if pe.Dropped() != 1 {
			t.Errorf("dropped %d after Close", pe.Dropped())
		}
	})
}

// exifJPEG is a w×h JPEG carrying an EXIF segment with a telling note.
func exifJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, testImage(w, h), nil); err != nil {
		t.Fatal(err)
	}
	seg := append([]byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x00"), "GPS 52.52N 13.40E private"...)
	app1 := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(seg)+2))
	jpg := buf.Bytes()
	return append(append(append([]byte{}, jpg[:2]...), append(app1, seg...)...), jpg[2:]...)
}

// Page images are stored re-encoded, without metadata, and served at a
// few widths: the page's <img> has width, height, srcset and sizes; a
// malformed image is refused; a width outside the set is 400.
func TestPageImagesResponsive(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("images@example.com")
		m := expect(t, e.postForm(c, "/api/upload-image", part{"imageFile", string(exifJPEG(t, 800, 400)), "photo.jpg"}), http.StatusCreated, "")
		url := m["imageUrl"].(string)
		path := "/images/" + fmt.Sprint(int64(m["id"].(float64))) + "/file"
		stored := e.do(e.browser(), "GET", path, "")
		if stored.StatusCode != http.StatusOK || bytes.Contains(stored.body, []byte("private")) || bytes.Contains(stored.body, []byte("Exif")) {
			t.Fatalf("stored: %d, metadata kept: %v", stored.StatusCode, bytes.Contains(stored.body, []byte("private")))
		}
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(stored.body)); err != nil || cfg.Width != 800 {
			t.Errorf("stored %+v %v", cfg, err)
		}
		// Malformed: the header reads, the pixels do not.
		broken := pngBytes(t, 64, 64)
		r := e.postForm(c, "/api/upload-image", part{"imageFile", string(broken[:len(broken)/2]), "broken.png"})
		if r.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("a truncated PNG: %d %s", r.StatusCode, r.body)
		}

		e.createPage(c, `{"type":"gallery","title":"Sizes","slug":"sizes","content":{"title":"Sizes","images":[{"url":"`+url+`","alt":"One"},{"url":"`+url+`","alt":"Two"}]}}`)
		page := e.do(e.browser(), "GET", "/p/sizes", "")
		want := `src="` + path + `" srcset="` + path + `?w=160 160w, ` + path + `?w=320 320w, ` + path + `?w=640 640w, ` + path + ` 800w" sizes="(max-width: 480px) calc(100vw - 32px), 448px" width="800" height="400"`
		if n := bytes.Count(page.body, []byte(want)); n != 2 || !bytes.Contains(page.body, []byte(`alt="Two" loading="lazy"`)) || bytes.Contains(page.body, []byte(`alt="One" loading`)) {
			t.Errorf("want %s twice, the second lazy:\n%s", want, page.body)
		}
		gz := e.do(e.browser(), "GET", "/p/sizes", "", "Accept-Encoding", "gzip")
		if len(gz.body) > 20<<10 {
			t.Errorf("%d bytes transferred", len(gz.body))
		}
		scaled := e.do(e.browser(), "GET", path+"?w=320", "")
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(scaled.body))
		if scaled.StatusCode != http.StatusOK || scaled.Header.Get("Content-Type") != "image/jpeg" || err != nil || cfg.Width != 320 || cfg.Height != 160 {
			t.Errorf("w=320: %d %s %+v %v", scaled.StatusCode, scaled.Header.Get("Content-Type"), cfg, err)
		}
		if again := e.do(e.browser(), "GET", path+"?w=320", ""); !bytes.Equal(again.body, scaled.body) {
			t.Errorf("the cached answer differs")
		}
		if full := e.do(e.browser(), "GET", path+"?w=960", ""); !bytes.Equal(full.body, stored.body) {
			t.Errorf("w=960 of an 800 px image is not the image as stored")
		}
		for _, w := range []string{"333", "", "-1", "99999"} {
			if r := e.do(e.browser(), "GET", path+"?w="+w, ""); r.StatusCode != http.StatusBadRequest {
				t.Errorf("w=%s: %d", w, r.StatusCode)
			}
		}
	})
}

// An event page after 2040 in a zone with DST: its public event.ics
// looped for ever building the VTIMEZONE (Go's ZoneBounds does not always
// advance that far out), growing the answer until memory ran out. It must
// answer promptly with the event's time zone.
func TestHostedEventAfter2040(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("event-2041@example.com")
		e.createPage(c, `{"type":"event","title":"New year 2042","slug":"new-year-2042","content":{"title":"New year","start":"2041-12-31T22:00","end":"2042-01-01T02:00","timeZone":"Europe/Paris"}}`)
		b := e.browser()
		b.Timeout = 10 * time.Second
		req, _ := http.NewRequest("GET", e.srv.URL+"/p/new-year-2042/event.ics", nil)
		resp, err := b.Do(req)
		if err != nil {
			t.Fatalf("event.ics: %v", err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("event.ics: %v", err)
		}
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("DTSTART;TZID=Europe/Paris:20411231T220000")) ||
			!bytes.Contains(body, []byte("TZOFFSETTO:+0200")) || len(body) > 10<<10 {
			t.Errorf("event.ics: %d, %d bytes\n%.2000s", resp.StatusCode, len(body), body)
		}
	})
}

// An event page's start and end lie in the years 1900 to 2100: one from
// the year 1 to 9999 was saved, and its public event.ics listed every
// summer-time change between, about 1.7 MB (and a third of a second of
// CPU) a download. Such a page, saved before the check, answers a small
// file.
func TestHostedEventYears(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("event-years@example.com")
		before := storetest.Count(t, st, "pages")
		m := expect(t, e.do(c, "POST", "/api/pages", `{"type":"event","title":"Forever","slug":"forever","content":{"title":"Forever",
			"start":"0001-01-01T00:00","end":"9999-12-31T23:59","timeZone":"Europe/Paris"}}`), http.StatusBadRequest, "")
		if errs, _ := m["errors"].(map[string]any); errs["content.start"] != "start must be in the years 1900 to 2100" ||
			errs["content.end"] != "end must be in the years 1900 to 2100" {
			t.Errorf("errors %v", m["errors"])
		}
		if n := storetest.Count(t, st, "pages"); n != before {
			t.Errorf("a refused page was stored: %d → %d", before, n)
		}
		p := e.createPage(c, `{"type":"event","title":"Forever","slug":"forever","content":{"title":"Forever",
			"start":"2026-03-28T22:00","end":"2026-03-29T04:00","timeZone":"Europe/Paris"}}`)
		m = expect(t, e.do(c, "PUT", "/api/pages/"+idOf(p), `{"type":"event","title":"Forever","slug":"forever","content":{"title":"Forever",
			"start":"2026-03-28T22:00","end":"2101-01-01T00:00","timeZone":"Europe/Paris"}}`), http.StatusBadRequest, "")
		if errs, _ := m["errors"].(map[string]any); len(errs) != 1 || errs["content.end"] != "end must be in the years 1900 to 2100" {
			t.Errorf("PUT: errors %v", m["errors"])
		}

		// As saved before the check.
		var id int64
		storetest.QueryRow(t, st, `UPDATE pages SET content = $1 WHERE slug = 'forever' RETURNING id`,
			[]any{`{"title":"Forever","start":"0001-01-01T00:00","end":"9999-12-31T23:59","timeZone":"Europe/Paris"}`}, &id)
		ics := e.do(e.browser(), "GET", "/p/forever/event.ics", "")
		if ics.StatusCode != http.StatusOK || !bytes.Contains(ics.body, []byte("DTSTART;TZID=Europe/Paris:00010101T000000")) ||
			!bytes.Contains(ics.body, []byte("DTEND;TZID=Europe/Paris:99991231T235900")) || len(ics.body) > 2<<10 {
			t.Errorf("event.ics: %d, %d bytes\n%.2000s", ics.StatusCode, len(ics.body), ics.body)
		}
	})
}

// A contact card embeds a wide photo scaled to vcardPhotoWidth (and made
// once, cached with the page's images): embedded as uploaded, a 10 MB
// photo cost about 40 MB on each download of a public URL.
func TestContactCardPhotoScaled(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("card@example.com")
		photo := expect(t, e.postForm(c, "/api/upload-image", part{"imageFile", string(solidPNG(2000, 1000, 8)), "wide.png"}), http.StatusCreated, "")["imageUrl"].(string)
		e.createPage(c, `{"type":"vcard","title":"Ada","slug":"wide-card","content":{"firstName":"Ada","lastName":"Lovelace","photoUrl":"`+photo+`"}}`)
		for _, version := range []string{"", "?version=3.0"} {
			r := e.do(e.browser(), "GET", "/p/wide-card/contact.vcf"+version, "")
			if r.StatusCode != http.StatusOK {
				t.Fatalf("contact.vcf%s: %d %s", version, r.StatusCode, r.body)
			}
			body := strings.ReplaceAll(string(r.body), "\r\n ", "") // unfolded
			_, rest, ok := strings.Cut(body, "PHOTO")
			if !ok {
				t.Fatalf("contact.vcf%s has no photo: %s", version, body)
			}
			_, data, _ := strings.Cut(rest[:strings.Index(rest, "\r\n")], ":")
			data = data[strings.LastIndex(data, ",")+1:]
			raw, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				t.Fatalf("contact.vcf%s: photo %v", version, err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
			if err != nil || cfg.Width != vcardPhotoWidth || cfg.Height != vcardPhotoWidth/2 {
				t.Errorf("contact.vcf%s: photo %dx%d (%v), want %dx%d", version, cfg.Width, cfg.Height, err, vcardPhotoWidth, vcardPhotoWidth/2)
			}
		}
	})
}
