package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/domains/domaintest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// withDomains points domain verification at dns, and its HTTP tokens at
// port on whatever address dns gives, private addresses allowed or not.
func withDomains(dns *domaintest.DNS, port string, private bool) option {
	return func(d *Deps) {
		d.Config.DomainResolver = dns.Addr
		d.Config.DomainHTTPPort, d.Config.DomainAllowPrivate = port, private
	}
}

// Adding a domain checks it is a real host name of someone else's; the
// answer says what to publish; verification tries the TXT record, then the
// HTTP token, and says what it found when neither proves the domain.
func TestDomainVerification(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		token := ""
		web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Host == "web.example" && r.URL.Path == domains.VerifyPath+token {
				io.WriteString(w, token+"\n")
				return
			}
			http.NotFound(w, r)
		}))
		defer web.Close()
		_, port, _ := net.SplitHostPort(web.Listener.Addr().String())
		e := start(t, st, withDomains(dns, port, true))
		alice, _ := e.signedIn("alice@example.com")

		for _, c := range []struct{ body, want string }{
			{`{"domain":""}`, "Domain is required"},
			{`{"domain":"https://qr.example.com"}`, msgDomainAlone},
			{`{"domain":"qr.example.com:8443"}`, msgDomainAlone},
			{`{"domain":"qr.example.com/menu"}`, msgDomainAlone},
			{`{"domain":"*.example.com"}`, msgDomainAlone},
			{`{"domain":"203.0.113.7"}`, msgDomainIP},
			{`{"domain":"1.2.3"}`, msgDomainIP},
			{`{"domain":"[::1]"}`, msgDomainAlone},
			{`{"domain":"localhost"}`, msgDomainOurs},
			{`{"domain":"qr.localhost"}`, msgDomainOurs},
			{`{"domain":"intranet"}`, msgDomainInvalid},
			{`{"domain":"a..example.com"}`, msgDomainInvalid},
			{`{"domain":"-bad.example.com"}`, msgDomainInvalid},
			{`{"domain":"` + strings.Repeat("a.", 130) + `com"}`, msgDomainInvalid},
			{`{"domain":"` + strings.Repeat("x", 5000) + `"}`, msgDomainInvalid},
			{`{"domain":"bad\u200e.example.com"}`, msgDomainInvalid},
		} {
			got := expect(t, e.do(alice, "POST", "/api/domains", c.body), http.StatusBadRequest, c.want)
			if got["errors"].(map[string]any)["domain"] != c.want {
				t.Errorf("%s: %v", c.body, got)
			}
		}
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":5}`), http.StatusBadRequest, "")
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"bad\u0000.example.com"}`), http.StatusBadRequest, "")
		expect(t, e.do(alice, "POST", "/api/domains", "{\"domain\":\"bad\xff.example.com\"}"), http.StatusBadRequest, "")
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":`), http.StatusBadRequest, "")
		expect(t, e.do(e.browser(), "POST", "/api/domains", `{"domain":"qr.example.com"}`), http.StatusUnauthorized, "")
		if n := storetest.Count(t, st, "workspace_domains"); n != 0 {
			t.Fatalf("refused domains saved: %d", n)
		}

		idn := expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"Bücher.Example"}`), http.StatusCreated, "")
		if idn["domain"] != "xn--bcher-kva.example" {
			t.Errorf("internationalised domain: %v", idn["domain"])
		}
		shop := expect(t, e.do(alice, "POST", "/api/domains", `{"domain":" Shop.Example. "}`), http.StatusCreated, "")
		tok := shop["txtValue"].(string)[len(domains.VerifyPrefix):]
		if shop["domain"] != "shop.example" || shop["status"] != "pending" || shop["txtName"] != "_squarely-verify.shop.example" ||
			len(tok) < 20 || shop["httpUrl"] != "http://shop.example/.well-known/squarely-verify/"+tok || shop["httpBody"] != tok {
			t.Fatalf("added: %v", shop)
		}
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"shop.example"}`), http.StatusConflict, "This workspace has already added this domain")

		// Nothing published yet: both methods say what they found.
		got := expect(t, e.do(alice, "POST", "/api/domains/"+idOf(shop)+"/verify", ""), http.StatusUnprocessableEntity, "")
		msg := got["message"].(string)
		if !strings.Contains(msg, "there is no TXT record at _squarely-verify.shop.example") || !strings.Contains(msg, "could not be reached") {
			t.Errorf("failure message: %q", msg)
		}
		dns.Set(map[string]string{"_squarely-verify.shop.example": "squarely-verify=wrong"}, nil)
		got = expect(t, e.do(alice, "POST", "/api/domains/"+idOf(shop)+"/verify", ""), http.StatusUnprocessableEntity, "")
		if !strings.Contains(got["message"].(string), "does not hold squarely-verify="+tok) {
			t.Errorf("wrong record: %v", got["message"])
		}
		list := e.do(alice, "GET", "/api/domains", "")
		if !strings.Contains(string(list.body), `"lastError":"Not verified. DNS: the TXT record`) {
			t.Errorf("the list keeps the last failure: %s", list.body)
		}
		dns.Set(map[string]string{"_squarely-verify.shop.example": "squarely-verify=" + tok}, nil)
		got = expect(t, e.do(alice, "POST", "/api/domains/"+idOf(shop)+"/verify", ""), http.StatusOK, "")
		if got["status"] != "verified" || got["method"] != "dns" || got["lastError"] != "" {
			t.Errorf("verified by DNS: %v", got)
		}

		// The HTTP token, fetched from the address DNS gives.
		webDomain := expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"web.example"}`), http.StatusCreated, "")
		token = webDomain["httpBody"].(string)
		dns.Set(nil, map[string]string{"web.example": "127.0.0.1"})
		got = expect(t, e.do(alice, "POST", "/api/domains/"+idOf(webDomain)+"/verify", ""), http.StatusOK, "")
		if got["status"] != "verified" || got["method"] != "http" {
			t.Errorf("verified by HTTP: %v", got)
		}

		// Bob may claim what is pending elsewhere, not what is verified.
		bob, _ := e.signedIn("bob@example.com")
		expect(t, e.do(bob, "POST", "/api/domains", `{"domain":"shop.example"}`), http.StatusConflict, msgDomainTaken)
		expect(t, e.do(bob, "POST", "/api/domains", `{"domain":"bücher.example"}`), http.StatusCreated, "")
		expect(t, e.do(bob, "POST", "/api/domains/"+idOf(shop)+"/verify", ""), http.StatusNotFound, msgDomainMissing)
		expect(t, e.do(bob, "DELETE", "/api/domains/"+idOf(shop), ""), http.StatusNotFound, msgDomainMissing)
		expect(t, e.do(bob, "POST", "/api/domains/abc/verify", ""), http.StatusNotFound, msgDomainMissing)

		// A domain the daily re-checks lost (internal/domains) says so, and
		// stays the workspace's.
		var id int64
		storetest.QueryRow(t, st, `UPDATE workspace_domains SET lost_at = $2 WHERE id = $1 RETURNING id`,
			[]any{shop["id"], "2026-11-25T08:00:00.000000Z"}, &id)
		list = e.do(alice, "GET", "/api/domains", "")
		if !strings.Contains(string(list.body), `"status":"lost","method":"dns"`) || !strings.Contains(string(list.body), `"lostAt":"2026-11-25T08:00:00Z"`) {
			t.Errorf("a lost domain in the list: %s", list.body)
		}
		expect(t, e.do(bob, "POST", "/api/domains", `{"domain":"shop.example"}`), http.StatusConflict, msgDomainTaken)
	})
}

// The HTTP token is fetched through netguard: a domain whose address is
// loopback is refused when private addresses are not allowed, and
// verifications per workspace are bounded, also in a parallel burst.
func TestDomainVerificationGuards(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.TrimPrefix(r.URL.Path, domains.VerifyPath))
		}))
		defer web.Close()
		_, port, _ := net.SplitHostPort(web.Listener.Addr().String())
		e := start(t, st, withDomains(dns, port, false))
		alice, _ := e.signedIn("alice@example.com")
		d := expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"inside.example"}`), http.StatusCreated, "")
		dns.Set(nil, map[string]string{"inside.example": "127.0.0.1"})
		got := expect(t, e.do(alice, "POST", "/api/domains/"+idOf(d)+"/verify", ""), http.StatusUnprocessableEntity, "")
		if !strings.Contains(got["message"].(string), "resolves to an address that cannot be checked (loopback)") {
			t.Errorf("loopback: %v", got["message"])
		}

		var wg sync.WaitGroup
		statuses := make(chan int, 40)
		for range 40 {
			wg.Go(func() {
				statuses <- e.do(alice, "POST", "/api/domains/"+idOf(d)+"/verify", "").StatusCode
			})
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if counts[http.StatusUnprocessableEntity] != domainChecksPerHour-1 || counts[http.StatusTooManyRequests] != 40-(domainChecksPerHour-1) {
			t.Errorf("burst: %v", counts)
		}
		// A claimed domain per workspace is bounded too.
		for i := range maxWorkspaceDomains - 1 {
			expect(t, e.do(alice, "POST", "/api/domains", fmt.Sprintf(`{"domain":"d%d.example"}`, i)), http.StatusCreated, "")
		}
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"one-more.example"}`), http.StatusConflict, "")
	})
}

// A code prints a verified domain of its workspace; pending is 400,
// another workspace's 404. The domain's host redirects its workspace's
// codes only and sends everything else to the base URL.
func TestCodeOnCustomDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := start(t, st, withDomains(dns, "1", true))
		alice, _ := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, bobs, pending := aliceAndBobDomains(t, e, dns, alice, bob)
		key, _ := e.newKey(alice, "k")

		create := func(domain string) *response {
			return e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/menu","domainId":`+domain+`}`)
		}
		expect(t, create(pending), http.StatusBadRequest, msgDomainUnproved)
		expect(t, create(bobs), http.StatusNotFound, msgDomainMissing)
		expect(t, create(`"x"`), http.StatusBadRequest, "domainId must be a domain's id, or null for the base URL")
		code := expect(t, create(shop), http.StatusCreated, "")
		short := code["shortCode"].(string)
		if code["url"] != "https://go.shop.example/d/"+short || code["domainId"] != float64(mustAtoi(shop)) {
			t.Fatalf("created: %v", code)
		}
		id := strings.TrimPrefix(code["id"].(string), "d_")
		if app := e.do(alice, "GET", "/api/dynamic-qrcodes", ""); !strings.Contains(string(app.body), `"shortUrl":"https://go.shop.example/d/`+short+`"`) {
			t.Errorf("the app's list: %s", app.body)
		}
		img := e.do(alice, "GET", "/api/dynamic-qrcodes/"+id+"/image?format=svg", "")
		if img.StatusCode != http.StatusOK {
			t.Fatalf("image: %d", img.StatusCode)
		}
		if got := newDecoders(t).read(img.body, "svg"); got != "https://go.shop.example/d/"+short {
			t.Errorf("the image encodes %q", got)
		}

		// Scans by host.
		bobCode := e.api(mustKey(e, bob), "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/bob"}`)
		bobShort := bobCode.json(t)["shortCode"].(string)
		if got := e.onHost(e.browser(), "go.shop.example", "GET", "/d/"+short, ""); got.StatusCode != http.StatusFound || got.Header.Get("Location") != "https://example.com/menu" {
			t.Errorf("alice's code on her domain: %d %s", got.StatusCode, got.Header.Get("Location"))
		}
		if got := e.onHost(e.browser(), "GO.Shop.Example.", "GET", "/d/"+short, ""); got.StatusCode != http.StatusFound {
			t.Errorf("the host in another case: %d", got.StatusCode)
		}
		if got := e.onHost(e.browser(), "go.shop.example", "GET", "/d/"+bobShort, ""); got.StatusCode != http.StatusNotFound {
			t.Errorf("bob's code on alice's domain: %d", got.StatusCode)
		}
		if got := e.onHost(e.browser(), "go.bob.example", "GET", "/d/"+bobShort, ""); got.StatusCode != http.StatusFound {
			t.Errorf("bob's code on his domain: %d", got.StatusCode)
		}
		if got := e.onHost(e.browser(), "later.shop.example", "GET", "/d/"+short, ""); got.StatusCode != http.StatusFound {
			t.Errorf("a pending domain's host is no custom domain (the base site answers): %d", got.StatusCode)
		}
		base := testConfig(t).BaseURL
		if got := e.onHost(e.browser(), "go.shop.example", "GET", "/dashboard?x=1", ""); got.StatusCode != http.StatusFound || got.Header.Get("Location") != base+"/dashboard?x=1" {
			t.Errorf("the app on a custom domain: %d %s", got.StatusCode, got.Header.Get("Location"))
		}
		if got := e.onHost(e.browser(), "go.shop.example", "POST", "/api/login", loginBody("alice@example.com", "secret1")); got.StatusCode != http.StatusNotFound {
			t.Errorf("the API on a custom domain: %d", got.StatusCode)
		}
		if got := e.do(e.browser(), "GET", "/d/"+short, ""); got.StatusCode != http.StatusFound {
			t.Errorf("the base URL still serves the code: %d", got.StatusCode)
		}

		// A white-label client cannot take a workspace's verified domain, nor
		// a workspace a client's.
		admin := e.admin("admin@example.com")
		expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Brand","customDomain":"go.shop.example"}`), http.StatusConflict, "A workspace has verified this domain for its codes")
		expect(t, e.do(admin, "POST", "/api/white-label/clients", `{"name":"Brand","customDomain":"brand.example"}`), http.StatusCreated, "")
		expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"brand.example"}`), http.StatusConflict, msgDomainClient)

		// Moving the code; deleting a printed domain is refused.
		expect(t, e.do(alice, "PATCH", "/api/dynamic-qrcodes/"+id, `{"domainId":`+pending+`}`), http.StatusBadRequest, msgDomainUnproved)
		expect(t, e.do(alice, "PATCH", "/api/dynamic-qrcodes/"+id, `{"domainId":`+bobs+`}`), http.StatusNotFound, msgDomainMissing)
		expect(t, e.do(alice, "PATCH", "/api/dynamic-qrcodes/"+id, `{"domainId":-1}`), http.StatusBadRequest, "")
		expect(t, e.do(bob, "PATCH", "/api/dynamic-qrcodes/"+id, `{"domainId":null}`), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(alice, "DELETE", "/api/domains/"+shop, ""), http.StatusConflict, "")
		moved := expect(t, e.do(alice, "PATCH", "/api/dynamic-qrcodes/"+id, `{"domainId":null}`), http.StatusOK, "")
		if moved["shortUrl"] != base+"/d/"+short || moved["domainId"] != nil {
			t.Errorf("moved to the base URL: %v", moved)
		}
		back := expect(t, e.api(key, "PATCH", "/api/v1/codes/d_"+id, `{"domainId":`+shop+`,"name":"Menu"}`), http.StatusOK, "")
		if back["url"] != "https://go.shop.example/d/"+short || back["name"] != "Menu" {
			t.Errorf("moved back: %v", back)
		}
		expect(t, e.api(key, "PATCH", "/api/v1/codes/d_"+id, `{"domainId":null}`), http.StatusOK, "")
		expect(t, e.do(alice, "DELETE", "/api/domains/"+shop, ""), http.StatusNoContent, "")
		if got := e.onHost(e.browser(), "go.shop.example", "GET", "/d/"+short, ""); got.StatusCode != http.StatusFound {
			t.Errorf("a deleted domain's host is the base site again: %d", got.StatusCode)
		}
		var audit int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE action IN ('domain.added', 'domain.verified', 'domain.deleted', 'code.domain_changed')`, nil, &audit)
		// Three claims, two verifications, a deletion, three moves.
		if audit != 3+2+1+3 {
			t.Errorf("audit entries: %d", audit)
		}
	})
}

// A bulk job on a chosen verified domain makes its dynamic codes there, as
// a single code's domainId does (issue 32 item 5): the codes print the
// domain, the ZIP's images and manifest encode it, and scans by that host
// reach them.
func TestBulkJobOnCustomDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := start(t, st, withDomains(dns, "1", true))
		alice, aliceID := e.signedIn("alice@example.com")
		bob, _ := e.signedIn("bob@example.com")
		shop, bobs, pending := aliceAndBobDomains(t, e, dns, alice, bob)
		sheet := "url,name,dynamic\nhttps://example.com/one,One,true\nhttps://example.com/two,Two,true\nhttps://example.com/s,Static,\n"

		// A domain that is not a verified one of the workspace is refused, and nothing is saved.
		for _, tc := range []struct {
			domain  string
			status  int
			message string
		}{
			{pending, http.StatusBadRequest, msgDomainUnproved},
			{bobs, http.StatusNotFound, msgDomainMissing},
			{"x", http.StatusBadRequest, "domainId must be a domain's id, or left out for the base URL"},
			{"0", http.StatusBadRequest, "domainId must be a domain's id, or left out for the base URL"},
		} {
			for _, dry := range []string{"true", "false"} {
				expect(t, e.postSheetWith(alice, "codes.csv", sheet, map[string]string{"domainId": tc.domain, "dryRun": dry}), tc.status, tc.message)
			}
		}
		if n := storetest.Count(t, st, "bulk_jobs"); n != 0 {
			t.Fatalf("%d jobs saved from refused uploads", n)
		}

		job := expect(t, e.postSheetWith(alice, "codes.csv", sheet, map[string]string{"domainId": shop}), http.StatusAccepted, "")
		if job["domainId"] != float64(mustAtoi(shop)) || job["domain"] != "go.shop.example" {
			t.Errorf("the job: %v", job)
		}
		// While the job is open its domain cannot be deleted; the runner
		// may finish first, so either answer is right, but never a deletion.
		if r := e.do(alice, "DELETE", "/api/domains/"+shop, ""); r.StatusCode != http.StatusConflict {
			t.Fatalf("deleting the job's domain: %d %s", r.StatusCode, r.body)
		}
		done := e.waitJob(alice, idOf(job))
		if done["status"] != store.BulkDone || done["failed"] != 0.0 {
			t.Fatalf("job: %v", done)
		}
		urls := map[string]string{} // short code → what the ZIP's manifest says it encodes
		r := e.do(alice, "GET", "/api/bulk-jobs/"+idOf(job)+"/download?format=svg", "")
		if r.StatusCode != http.StatusOK {
			t.Fatalf("download: %d %s", r.StatusCode, r.body)
		}
		_, files := zipFiles(t, r.body)
		dec := newDecoders(t)
		for _, row := range readCSV(t, files["manifest.csv"])[1:] {
			if row[3] == "" {
				continue // the static row
			}
			urls[row[3]] = row[2]
			if want := "https://go.shop.example/d/" + row[3]; row[2] != want {
				t.Errorf("manifest row %v, want data %s", row, want)
			}
			if got := dec.read(files[row[4]], "svg"); got != row[2] {
				t.Errorf("%s encodes %q, want %q", row[4], got, row[2])
			}
		}
		if len(urls) != 2 {
			t.Fatalf("manifest: %s", files["manifest.csv"])
		}
		saved, err := st.DynamicCodes(context.Background(), storetest.Personal(t, st, aliceID), false)
		if err != nil || len(saved) != 2 {
			t.Fatalf("%d dynamic codes (%v)", len(saved), err)
		}
		for _, d := range saved {
			if d.Domain != "go.shop.example" || urls[d.ShortCode] == "" {
				t.Errorf("code %s saved on %q", d.ShortCode, d.Domain)
			}
			if got := e.onHost(e.browser(), "go.shop.example", "GET", "/d/"+d.ShortCode, ""); got.StatusCode != http.StatusFound {
				t.Errorf("a scan by the domain: %d", got.StatusCode)
			}
		}
		// Once the job is done the domain is the codes' alone: still in use.
		expect(t, e.do(alice, "DELETE", "/api/domains/"+shop, ""), http.StatusConflict, "")
	})
}

// aliceAndBobDomains gives alice the verified go.shop.example and the
// pending later.shop.example, and bob the verified go.bob.example; it
// returns their ids.
func aliceAndBobDomains(t *testing.T, e *env, dns *domaintest.DNS, alice, bob *http.Client) (shop, bobs, pending string) {
	t.Helper()
	verified := func(c *http.Client, domain string) string {
		d := expect(t, e.do(c, "POST", "/api/domains", `{"domain":"`+domain+`"}`), http.StatusCreated, "")
		dns.Set(map[string]string{d["txtName"].(string): d["txtValue"].(string)}, nil)
		expect(t, e.do(c, "POST", "/api/domains/"+idOf(d)+"/verify", ""), http.StatusOK, "")
		// Seen pointing here (the check itself: TestDomainPointing).
		var id int64
		storetest.QueryRow(t, e.store, `UPDATE workspace_domains SET pointed_at = verified_at WHERE id = $1 RETURNING id`, []any{d["id"]}, &id)
		return idOf(d)
	}
	shop, bobs = verified(alice, "go.shop.example"), verified(bob, "go.bob.example")
	pending = idOf(expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"later.shop.example"}`), http.StatusCreated, ""))
	return shop, bobs, pending
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func mustKey(e *env, c *http.Client) string {
	k, _ := e.newKey(c, "k")
	return k
}

// startReachable starts the server on a port known in advance, where
// domain checks fetch: a domain whose A record is 127.0.0.1 then reaches
// this very server, as a domain pointed at Squarely does.
func startReachable(t *testing.T, st *store.Store, dns *domaintest.DNS, opts ...option) *env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	listening := func(h http.Handler) *httptest.Server {
		srv := httptest.NewUnstartedServer(h)
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		return srv
	}
	return startServer(t, st, listening, append(opts, withDomains(dns, port, true))...)
}

// A verified domain is "not pointing here yet" until a token URL fetched
// over it reaches this server; until then codes cannot print it, and the
// failure says which record to add. Verifying checks at once; "pointing"
// checks again.
func TestDomainPointing(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		dns := domaintest.StartDNS(t)
		e := startReachable(t, st, dns, withConfig(func(c *config.Config) {
			c.BaseURL, c.PublicIPs = "https://squarely.test", []netip.Addr{netip.MustParseAddr("203.0.113.7"), netip.MustParseAddr("2001:db8::7")}
		}))
		alice, _ := e.signedIn("alice@example.com")
		key, _ := e.newKey(alice, "k")
		shop := expect(t, e.do(alice, "POST", "/api/domains", `{"domain":"qr.shop.example"}`), http.StatusCreated, "")
		if shop["cnameTarget"] != "squarely.test" || fmt.Sprint(shop["addresses"]) != "[203.0.113.7 2001:db8::7]" || shop["pointing"] != false {
			t.Fatalf("where to point: %v", shop)
		}
		id := idOf(shop)
		expect(t, e.do(alice, "POST", "/api/domains/"+id+"/pointing", ""), http.StatusConflict, "Verify the domain first: then check where it points")

		// Proved by TXT, but no address record yet: verified, not pointing.
		dns.Set(map[string]string{shop["txtName"].(string): shop["txtValue"].(string)}, nil)
		got := expect(t, e.do(alice, "POST", "/api/domains/"+id+"/verify", ""), http.StatusOK, "")
		if got["status"] != "verified" || got["pointing"] != false ||
			!strings.HasPrefix(got["pointError"].(string), "qr.shop.example does not point here yet: it has no A, AAAA or CNAME record (add a CNAME record to squarely.test)") {
			t.Fatalf("verified, not pointing: %v", got)
		}
		create := func() *response {
			return e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/menu","domainId":`+id+`}`)
		}
		expect(t, create(), http.StatusBadRequest, codes.MsgDomainNotPointing)
		plain := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/menu"}`), http.StatusCreated, "")
		plainID := strings.TrimPrefix(plain["id"].(string), "d_")
		expect(t, e.do(alice, "PATCH", "/api/dynamic-qrcodes/"+plainID, `{"domainId":`+id+`}`), http.StatusBadRequest, codes.MsgDomainNotPointing)

		// Pointed elsewhere: the check says where.
		dns.Set(nil, map[string]string{"qr.shop.example": "127.0.0.2"})
		got = expect(t, e.do(alice, "POST", "/api/domains/"+id+"/pointing", ""), http.StatusUnprocessableEntity,
			"qr.shop.example does not point here yet: its addresses are 127.0.0.2, not a CNAME record to squarely.test or A/AAAA records with 203.0.113.7, 2001:db8::7, and nothing answered over it.")
		if got["code"] != "not_pointing" {
			t.Errorf("code: %v", got)
		}
		// Pointed here: the fetch over the domain reaches this server.
		dns.Set(nil, map[string]string{"qr.shop.example": "127.0.0.1"})
		got = expect(t, e.do(alice, "POST", "/api/domains/"+id+"/pointing", ""), http.StatusOK, "")
		if got["pointing"] != true || got["pointError"] != "" || got["pointCheckedAt"] == nil {
			t.Fatalf("pointing: %v", got)
		}
		if code := expect(t, create(), http.StatusCreated, ""); !strings.HasPrefix(code["url"].(string), "https://qr.shop.example/d/") {
			t.Errorf("printed: %v", code)
		}
		// Moved away again: the next check forgets it pointed.
		dns.Delete("qr.shop.example")
		expect(t, e.do(alice, "POST", "/api/domains/"+id+"/pointing", ""), http.StatusUnprocessableEntity, "")
		if list := e.do(alice, "GET", "/api/domains", ""); !strings.Contains(string(list.body), `"pointing":false`) {
			t.Errorf("list after moving away: %s", list.body)
		}

		// The answer itself: any host, a valid nonce only, never cached.
		nonce := "0123456789abcdef0123456789abcdef"
		r := e.onHost(e.browser(), "Other.Example", "GET", domains.ReachPath+nonce, "")
		if r.StatusCode != http.StatusOK || string(r.body) != domains.ReachAnswer("https://squarely.test", "other.example", nonce) ||
			r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("reach answer: %d %q %v", r.StatusCode, r.body, r.Header)
		}
		for _, bad := range []string{"abc", strings.ToUpper(nonce), nonce + "0", nonce[:31] + "%00", nonce + "/x"} {
			if r := e.do(e.browser(), "GET", domains.ReachPath+bad, ""); r.StatusCode != http.StatusNotFound {
				t.Errorf("nonce %q: %d", bad, r.StatusCode)
			}
		}

		// Only admins and owners of the domain's workspace check it.
		bob, _ := e.signedIn("bob@example.com")
		expect(t, e.do(bob, "POST", "/api/domains/"+id+"/pointing", ""), http.StatusNotFound, msgDomainMissing)
		expect(t, e.do(bob, "POST", "/api/domains/x/pointing", ""), http.StatusNotFound, msgDomainMissing)
		expect(t, e.do(e.browser(), "POST", "/api/domains/"+id+"/pointing", ""), http.StatusUnauthorized, "")
	})
}
