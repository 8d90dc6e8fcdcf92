package server

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

const androidUA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"

// setClock moves the test server's clock to t.
func (e *env) setClock(t time.Time) {
	e.clock.mu.Lock()
	e.clock.t = t
	e.clock.mu.Unlock()
}

// routedScan GETs a short code with header pairs and returns the status and
// Location.
func (e *env) routedScan(code string, header ...string) (int, string) {
	e.t.Helper()
	r := e.do(e.browser(), "GET", "/d/"+code, "", header...)
	return r.StatusCode, r.Header.Get("Location")
}

// routedCode creates a dynamic code and sets its routing.
func routedCode(t *testing.T, e *env, c *http.Client, routing string) (code, id string) {
	t.Helper()
	d := e.createDynamic(c, "https://example.com/default")
	code, id = d["shortCode"].(string), idOf(d)
	out := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing", routing), http.StatusOK, "")
	if out["routing"] == nil {
		t.Fatalf("routing not returned: %v", out)
	}
	return code, id
}

func TestRoutingConditions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, _ := e.signedIn("rules@example.com")
		code, id := routedCode(t, e, c, `{"rules":[
			{"when":{"os":["ios"],"language":["de"]},"destination":"https://example.com/ios-de"},
			{"when":{"os":["ios","android"]},"destination":"https://example.com/phone"},
			{"when":{"country":["DE","AT"]},"destination":"https://example.com/dach"},
			{"when":{"language":["fr"]},"destination":"https://example.com/fr"},
			{"when":{"days":["sat"],"from":"22:00","to":"02:00","timeZone":"Europe/Berlin"},"destination":"https://example.com/berlin-night"},
			{"when":{"from":"23:00","to":"01:00","timeZone":"America/New_York"},"destination":"https://example.com/ny-night"}
		]}`)
		// Sunday 1 March 2026, 12:00 UTC: no window is open.
		noon := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		e.setClock(noon)
		for _, tc := range []struct {
			name   string
			header []string
			want   string
		}{
			{"iPhone in German: the first rule", []string{"User-Agent", iPhoneUA, "Accept-Language", "de-DE,de;q=0.9,en;q=0.8"}, "ios-de"},
			{"iPhone, German only at a lower q", []string{"User-Agent", iPhoneUA, "Accept-Language", "en;q=0.9,de;q=0.5"}, "phone"},
			{"Android from Germany: the earlier rule wins", []string{"User-Agent", androidUA, "X-Forwarded-For", "2a00:1450:4001::1"}, "phone"},
			{"desktop from Germany", []string{"User-Agent", desktopUA, "X-Forwarded-For", "2a00:1450:4001::1"}, "dach"},
			{"desktop from the US", []string{"User-Agent", desktopUA, "X-Forwarded-For", "8.8.8.8"}, "default"},
			{"desktop in French", []string{"User-Agent", desktopUA, "Accept-Language", "fr-CA, en;q=0.3"}, "fr"},
			{"Go's client, a bot: still routed", nil, "default"},
		} {
			if status, loc := e.routedScan(code, tc.header...); status != http.StatusFound || loc != "https://example.com/"+tc.want {
				t.Errorf("%s: %d %s, want %s", tc.name, status, loc, tc.want)
			}
		}
		// Windows spanning midnight in two time zones (Berlin is UTC+1 in
		// March, New York UTC-5 until 8 March).
		for _, tc := range []struct {
			at   time.Time
			want string
		}{
			{time.Date(2026, 2, 28, 20, 59, 59, 0, time.UTC), "default"},    // Sat 21:59:59 in Berlin
			{time.Date(2026, 2, 28, 21, 0, 0, 0, time.UTC), "berlin-night"}, // Sat 22:00 in Berlin
			{time.Date(2026, 2, 28, 22, 59, 0, 0, time.UTC), "berlin-night"},
			{time.Date(2026, 3, 1, 0, 30, 0, 0, time.UTC), "default"}, // 01:30 in Berlin, but Sunday
			{time.Date(2026, 3, 1, 3, 59, 0, 0, time.UTC), "default"}, // 22:59 in New York
			{time.Date(2026, 3, 1, 4, 0, 0, 0, time.UTC), "ny-night"}, // 23:00 in New York
			{time.Date(2026, 3, 1, 5, 59, 59, 0, time.UTC), "ny-night"},
			{time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC), "default"}, // 01:00 in New York: ended
			{time.Date(2026, 3, 7, 21, 30, 0, 0, time.UTC), "berlin-night"},
			{time.Date(2026, 3, 7, 20, 30, 0, 0, time.UTC), "default"},
			{time.Date(2026, 3, 8, 1, 0, 0, 0, time.UTC), "default"}, // Sunday 02:00 in Berlin
		} {
			e.setClock(tc.at)
			if _, loc := e.routedScan(code, "User-Agent", desktopUA); loc != "https://example.com/"+tc.want {
				t.Errorf("at %v: %s, want %s", tc.at, loc, tc.want)
			}
		}

		// Every scan recorded its route.
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		a := expect(t, e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?period=all", ""), http.StatusOK, "")
		// Each route named as the person knows it.
		if got := fmt.Sprint(a["routes"]); got != "[map[name:Rule 1: iOS, de route:rule:0 scans:1] map[name:Rule 2: iOS, Android route:rule:1 scans:2] "+
			"map[name:Rule 3: DE, AT route:rule:2 scans:1] map[name:Rule 4: fr route:rule:3 scans:1] map[name:Rule 5: sat, 22:00–02:00 route:rule:4 scans:3] "+
			"map[name:Rule 6: 23:00–01:00 route:rule:5 scans:2] map[name:Destination route:default scans:7]]" {
			t.Errorf("routes %s", got)
		}
		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by=route&period=all", "")
		rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil || len(rows) != 8 || strings.Join(rows[0], ",") != "route,scans,split_share,route_id" ||
			strings.Join(rows[1], ",") != "Rule 1: iOS, de,1,,rule:0" || strings.Join(rows[7], ",") != "Destination,7,,default" {
			t.Errorf("route CSV %v %v", rows, err)
		}
	})
}

func TestRoutingSplitIsStickyAndProportional(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, _ := e.signedIn("split@example.com")
		code, id := routedCode(t, e, c, `{"split":[
			{"destination":"https://example.com/a","weight":50},
			{"destination":"https://example.com/b","weight":30},
			{"destination":"https://example.com/c","weight":20}]}`)
		const visitors = 2000
		counts := map[string]int{}
		first := map[int]string{}
		for i := range visitors {
			addr := fmt.Sprintf("198.51.%d.%d", i/250, i%250+1)
			_, loc := e.routedScan(code, "User-Agent", iPhoneUA, "X-Forwarded-For", addr)
			counts[loc]++
			first[i] = loc
		}
		for dest, want := range map[string]float64{"a": 50, "b": 30, "c": 20} {
			got := float64(counts["https://example.com/"+dest]) * 100 / visitors
			if got < want-5 || got > want+5 {
				t.Errorf("variant %s got %.1f%% of %d visitors, want %v±5", dest, got, visitors, want)
			}
		}
		// The same visitors again, a day later: the same variants.
		e.clock.Advance(24 * time.Hour)
		for i := 0; i < visitors; i += 40 {
			addr := fmt.Sprintf("198.51.%d.%d", i/250, i%250+1)
			if _, loc := e.routedScan(code, "User-Agent", iPhoneUA, "X-Forwarded-For", addr); loc != first[i] {
				t.Fatalf("visitor %d moved from %s to %s", i, first[i], loc)
			}
		}
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by=route&period=all", "")
		rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil || len(rows) != 4 || rows[1][0] != "Variant A 50%" || rows[2][0] != "Variant B 30%" || rows[1][3] != "split:0" || !strings.HasSuffix(rows[1][2], "%") {
			t.Errorf("split CSV %v %v", rows, err)
		}
		// The PDF names the variants as the CSV does.
		pdf := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/report.pdf?period=all", "")
		if text := strings.Join(strings.Fields(testenv.PDFText(t, pdf.body)), " "); !strings.Contains(text, "Routes Variant A 50%, ") || strings.Contains(text, "split:") {
			t.Errorf("the report's routes:\n%s", text)
		}
	})
}

func TestRoutingScheduleEdges(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("schedule@example.com")
		code, id := routedCode(t, e, c, `{"startsAt":"2026-04-01T08:00:00+02:00","expiresAt":"2026-04-30T18:00:00Z"}`)
		starts := time.Date(2026, 4, 1, 6, 0, 0, 0, time.UTC)
		expires := time.Date(2026, 4, 30, 18, 0, 0, 0, time.UTC)
		for _, tc := range []struct {
			at     time.Time
			status int
		}{
			{starts.Add(-time.Second), http.StatusGone},
			{starts, http.StatusFound},
			{expires.Add(-time.Second), http.StatusFound},
			{expires, http.StatusGone},
		} {
			e.setClock(tc.at)
			r := e.do(e.browser(), "GET", "/d/"+code, "")
			if r.StatusCode != tc.status {
				t.Errorf("at %v: %d, want %d", tc.at, r.StatusCode, tc.status)
			}
			if tc.status == http.StatusGone && !strings.Contains(string(r.body), "This QR code is no longer active") {
				t.Errorf("at %v: the ended page is %s", tc.at, r.body)
			}
		}
		// With afterEnd the end redirects there (set signed in again: the
		// session expired while the clock ran).
		e.setClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
		c = e.browser()
		expect(t, e.do(c, "POST", "/api/login", loginBody("schedule@example.com", "secret1")), http.StatusOK, "")
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing",
			`{"startsAt":"2026-04-01T06:00:00Z","expiresAt":"2026-04-30T18:00:00Z","afterEnd":"https://example.com/over"}`), http.StatusOK, "")
		e.setClock(expires)
		if status, loc := e.routedScan(code); status != http.StatusFound || loc != "https://example.com/over" {
			t.Errorf("after the end: %d %s", status, loc)
		}
		// Removing the routing restores the destination at once.
		e.setClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
		out := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing", `null`), http.StatusOK, "")
		if out["routing"] != nil {
			t.Errorf("routing after null: %v", out["routing"])
		}
		e.setClock(expires)
		if status, loc := e.routedScan(code); status != http.StatusFound || loc != "https://example.com/default" {
			t.Errorf("without routing: %d %s", status, loc)
		}
	})
}

// TestRoutingExactLimitOnTwoInstances scans a code with a limit of 5
// through two servers, each with its own store on one database, 40 scans
// at once: exactly 5 reach the destination.
func TestRoutingExactLimitOnTwoInstances(t *testing.T) {
	ctx := context.Background()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			u := storetest.CreateUser(t, a, "limit@example.com")
			d := storetest.CreateDynamic(t, a, u.ID, "limited1")
			ws := storetest.Personal(t, a, u.ID)
			limit := int64(5)
			if _, err := a.SetDynamicRouting(ctx, ws, d.ID, &store.Routing{ScanLimit: &limit}, time.Now()); err != nil {
				t.Fatal(err)
			}
			servers := []*env{start(t, a), start(t, b)}
			// A link preview is redirected without using up the limit.
			if r := servers[0].do(servers[0].browser(), "GET", "/d/limited1", "", "User-Agent", slackUA); r.StatusCode != http.StatusFound {
				t.Fatalf("a bot's scan: %d", r.StatusCode)
			}
			var mu sync.Mutex
			statuses := map[int]int{}
			var wg sync.WaitGroup
			for i := range 40 {
				wg.Go(func() {
					r := servers[i%2].do(servers[i%2].browser(), "GET", "/d/limited1", "", "User-Agent", iPhoneUA)
					mu.Lock()
					statuses[r.StatusCode]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if statuses[http.StatusFound] != 5 || statuses[http.StatusGone] != 35 {
				t.Fatalf("statuses %v, want 5 redirects and 35 ended", statuses)
			}
			got, err := a.DynamicCode(ctx, ws, d.ID)
			if err != nil || got.LimitScans != 5 {
				t.Fatalf("limit scans %v, %v", got, err)
			}
		})
	}
}

func TestRoutingRefusesBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("bad@example.com")
		d := e.createDynamic(c, "https://example.com/default")
		path := "/api/dynamic-qrcodes/" + idOf(d) + "/routing"
		rules := func(n int) string {
			r := make([]string, n)
			for i := range r {
				r[i] = `{"destination":"https://example.com/r"}`
			}
			return `{"rules":[` + strings.Join(r, ",") + `]}`
		}
		for body, field := range map[string]string{
			`{"rules":[{"when":{"os":["symbian"]},"destination":"https://example.com/x"}]}`:             "rules.0.when.os",
			`{"rules":[{"when":{"country":["XX"]},"destination":"https://example.com/x"}]}`:             "rules.0.when.country",
			`{"rules":[{"when":{"country":"DE"},"destination":"https://example.com/x"}]}`:               "rules.0.when.country",
			`{"rules":[{"when":{"language":["german"]},"destination":"https://example.com/x"}]}`:        "rules.0.when.language",
			`{"rules":[{"when":{"language":["xx"]},"destination":"https://example.com/x"}]}`:            "rules.0.when.language",
			`{"rules":[{"when":{"days":["monday"]},"destination":"https://example.com/x"}]}`:            "rules.0.when.days",
			`{"rules":[{"when":{"from":"24:00","to":"02:00"},"destination":"https://example.com/x"}]}`:  "rules.0.when.from",
			`{"rules":[{"when":{"from":"9:00","to":"17:00"},"destination":"https://example.com/x"}]}`:   "rules.0.when.from",
			`{"rules":[{"when":{"from":"09:00"},"destination":"https://example.com/x"}]}`:               "rules.0.when.to",
			`{"rules":[{"when":{"timeZone":"Mars/Olympus"},"destination":"https://example.com/x"}]}`:    "rules.0.when.timeZone",
			`{"rules":[{"when":{"timeZone":"Local"},"destination":"https://example.com/x"}]}`:           "rules.0.when.timeZone",
			`{"rules":[{"when":{}},{"destination":"javascript:alert(1)"}]}`:                             "rules.0.destination",
			`{"rules":[{"destination":"https://example.com/x"},{"destination":"javascript:alert(1)"}]}`: "rules.1.destination",
			`{"rules":[{"destination":"https://example.com/x","then":"y"}]}`:                            "rules.0.then",
			rules(21): "rules",
			`{"split":[{"destination":"https://example.com/a","weight":50},{"destination":"https://example.com/b","weight":40}]}`:                             "split",
			`{"split":[{"destination":"https://example.com/a","weight":100}]}`:                                                                                "split",
			`{"split":[{"destination":"https://example.com/a","weight":50.5},{"destination":"https://example.com/b","weight":49.5}]}`:                         "split.0.weight",
			`{"split":[{"destination":"ftp://example.com/a","weight":50},{"destination":"https://example.com/b","weight":50}]}`:                               "split.0.destination",
			`{"split":[` + strings.Repeat(`{"destination":"https://example.com/a","weight":9},`, 11) + `{"destination":"https://example.com/a","weight":1}]}`: "split",
			`{"startsAt":"2026-05-01T00:00:00Z","expiresAt":"2026-05-01T00:00:00Z"}`:                                                                          "expiresAt",
			`{"startsAt":"tomorrow"}`:                   "startsAt",
			`{"expiresAt":"0001-01-01T00:00:00Z"}`:      "expiresAt",
			`{"startsAt":"1999-12-31T23:59:59Z"}`:       "startsAt",
			`{"expiresAt":"9999-12-31T23:59:59-05:00"}`: "expiresAt",
			`{"scanLimit":0}`:                           "scanLimit",
			`{"scanLimit":2.5}`:                         "scanLimit",
			`{"scanLimit":"5"}`:                         "scanLimit",
			`{"afterEnd":"not a url"}`:                  "afterEnd",
			`{"unknown":1}`:                             "unknown",
			`[1,2]`:                                     "routing",
		} {
			r := e.do(c, "PUT", path, body)
			m := expect(t, r, http.StatusBadRequest, "")
			errs, _ := m["errors"].(map[string]any)
			if _, ok := errs[field]; !ok {
				t.Errorf("%s: errors %v, want one for %s", body, m["errors"], field)
			}
		}
		for _, body := range []string{`{"rules":`, "{\"rules\":[{\"destination\":\"https://example.com/\xff\"}]}", ``} {
			if r := e.do(c, "PUT", path, body); r.StatusCode != http.StatusBadRequest {
				t.Errorf("%q: %d", body, r.StatusCode)
			}
		}
		// A date out of the years 2000 to 9999 (year 1 read as no date, so
		// the code never ended), in the app and through the API.
		key, _ := e.newKey(c, "dates")
		for _, r := range []*response{
			e.do(c, "PUT", path, `{"expiresAt":"0001-01-01T00:00:00Z"}`),
			e.api(key, "PUT", "/api/v1/codes/d_"+idOf(d)+"/routing", `{"expiresAt":"0001-01-01T00:00:00Z"}`),
		} {
			m := expect(t, r, http.StatusBadRequest, "The end"+msgScheduleRange)
			if errs, _ := m["errors"].(map[string]any); errs["expiresAt"] != "The end"+msgScheduleRange {
				t.Errorf("%s: errors %v", r.Request.URL.Path, m["errors"])
			}
		}
		// Nothing was changed.
		code, err := st.DynamicCode(context.Background(), uid, int64(d["id"].(float64)))
		if err != nil || code.Routing != nil {
			t.Errorf("routing changed by refused input: %+v %v", code, err)
		}
		// Another user's code is not found, and stays unchanged.
		other, _ := e.signedIn("other@example.com")
		expect(t, e.do(other, "PUT", path, `{"scanLimit":1}`), http.StatusNotFound, msgCodeMissing)
		if code, err := st.DynamicCode(context.Background(), code.UserID, code.ID); err != nil || code.Routing != nil {
			t.Errorf("another user changed the routing: %+v %v", code, err)
		}
	})
}

// TestRoutingRefusalsReadOnTheirOwn: each refusal names the rule, variant
// or date it is about in words, so the app can show it beside its field
// and a person can act on it without knowing the field paths.
func TestRoutingRefusalsReadOnTheirOwn(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("words@example.com")
		path := "/api/dynamic-qrcodes/" + idOf(e.createDynamic(c, "https://example.com/default")) + "/routing"
		for body, want := range map[string]map[string]string{
			`{"rules":[{"when":{"os":["ios"]},"destination":"https://example.com/x"},{"when":{"from":"09:00"},"destination":"javascript:alert(1)"}]}`: {
				"rules.1.destination": "Rule 2: destination is not a valid URL",
				"rules.1.when.to":     "Rule 2: give both a start and an end time",
			},
			`{"rules":[{"when":{"timeZone":"Mars/Olympus"}}]}`: {
				"rules.0.destination":   "Rule 1: destination is required",
				"rules.0.when.timeZone": "Rule 1: unknown time zone; use an IANA name such as Europe/Berlin",
			},
			`{"split":[{"destination":"https://example.com/a","weight":50},{"destination":" ","weight":40}]}`: {
				"split":               "The variants' weights must add up to 100 (now 90)",
				"split.1.destination": "Variant B: destination is required",
			},
			`{"startsAt":"2026-05-02T00:00:00Z","expiresAt":"2026-05-01T00:00:00Z","afterEnd":"ftp://example.com/","scanLimit":0}`: {
				"expiresAt": "The end must be after the start",
				"afterEnd":  "The address after the end is not a valid URL",
				"scanLimit": "The scan limit must be a whole number of at least 1",
			},
		} {
			m := expect(t, e.do(c, "PUT", path, body), http.StatusBadRequest, "")
			errs, _ := m["errors"].(map[string]any)
			for field, msg := range want {
				if errs[field] != msg {
					t.Errorf("%s: %s = %q, want %q (all: %v)", body, field, errs[field], msg, errs)
				}
			}
			if len(errs) != len(want) {
				t.Errorf("%s: errors %v, want %v", body, errs, want)
			}
		}
	})
}

func TestAppLinks(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("apps@example.com")
		d := expect(t, e.postForm(c, "/api/dynamic-qrcodes",
			part{"destination", "https://apps.apple.com/app/id1", ""}, part{"qrType", "apps", ""},
			part{"qrData", `{"appName":"Demo","platform":"appstore","url":"https://apps.apple.com/app/id1","appStoreUrl":"https://apps.apple.com/app/id1","playStoreUrl":"https://play.google.com/store/apps/details?id=demo"}`, ""},
			part{"qrStyle", "squares", ""}, part{"errorCorrectionLevel", "M", ""}), http.StatusCreated, "")
		code := d["shortCode"].(string)
		if _, loc := e.routedScan(code, "User-Agent", iPhoneUA); loc != "https://apps.apple.com/app/id1" {
			t.Errorf("iPhone: %s", loc)
		}
		if _, loc := e.routedScan(code, "User-Agent", androidUA); loc != "https://play.google.com/store/apps/details?id=demo" {
			t.Errorf("Android: %s", loc)
		}
		r := e.do(e.browser(), "GET", "/d/"+code, "", "User-Agent", desktopUA)
		body := string(r.body)
		if r.StatusCode != http.StatusOK || !strings.Contains(body, `href="https://apps.apple.com/app/id1"`) ||
			!strings.Contains(body, `href="https://play.google.com/store/apps/details?id=demo"`) || strings.Contains(body, "<script") {
			t.Errorf("desktop: %d %s", r.StatusCode, body)
		}
		// A store link must pass the destination rules.
		r = e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://apps.apple.com/app/id1", ""}, part{"qrType", "apps", ""},
			part{"qrData", `{"appName":"Demo","platform":"appstore","url":"https://apps.apple.com/app/id1","playStoreUrl":"javascript:alert(1)"}`, ""})
		if m := expect(t, r, http.StatusBadRequest, ""); m["errors"].(map[string]any)["qrData.playStoreUrl"] == nil {
			t.Errorf("bad store link: %v", m)
		}
	})
}

func TestPublicAPIRouting(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("apirouting@example.com")
		d := e.createDynamic(c, "https://example.com/default")
		key, _ := e.newKey(c, "Routing")
		path := "/api/v1/codes/d_" + idOf(d) + "/routing"
		r := e.api(key, "PUT", path, `{"rules":[{"when":{"os":["ios"]},"destination":"https://example.com/ios"}]}`)
		m := expect(t, r, http.StatusOK, "")
		if fmt.Sprint(m["routing"]) == "<nil>" {
			t.Fatalf("routing %v", m)
		}
		if _, loc := e.routedScan(d["shortCode"].(string), "User-Agent", iPhoneUA); loc != "https://example.com/ios" {
			t.Errorf("iPhone after the API set a rule: %s", loc)
		}
		r = e.api(key, "PUT", path, `{"rules":[{"when":{"os":["palm"]},"destination":"https://example.com/ios"}]}`)
		if m := expect(t, r, http.StatusBadRequest, ""); m["errors"].(map[string]any)["rules.0.when.os"] == nil {
			t.Errorf("bad os through the API: %v", m)
		}
		got := expect(t, e.api(key, "GET", "/api/v1/codes/d_"+idOf(d), ""), http.StatusOK, "")
		if _, ok := got["routing"]; !ok {
			t.Errorf("the API's record has no routing: %v", got)
		}
	})
}

// TestRoutingProtectedLimitedCode: a protected code with a scan limit
// takes its scan when it is unlocked (the redirect), not when the password
// page is shown, nor on HEAD; once used up it shows the ended page.
func TestRoutingProtectedLimitedCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("protected-limit@example.com")
		code, id := routedCode(t, e, c, `{"scanLimit":1}`)
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/password", `{"password":"open-sesame"}`), http.StatusOK, "")
		phone := e.browser()
		for range 2 {
			if r := e.do(phone, "GET", "/d/"+code, "", "User-Agent", iPhoneUA); r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), "Password required") {
				t.Fatalf("the password page: %d", r.StatusCode)
			}
		}
		if r := e.do(phone, "HEAD", "/d/"+code, "", "User-Agent", iPhoneUA); r.StatusCode != http.StatusOK {
			t.Fatalf("HEAD: %d", r.StatusCode)
		}
		unlock := func() *response {
			return e.do(phone, "POST", "/d/"+code, "password=open-sesame", "Content-Type", "application/x-www-form-urlencoded", "User-Agent", iPhoneUA)
		}
		if r := unlock(); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "https://example.com/default" {
			t.Fatalf("the first unlock: %d %s", r.StatusCode, r.Header.Get("Location"))
		}
		if r := unlock(); r.StatusCode != http.StatusGone || !strings.Contains(string(r.body), "This QR code is no longer active") {
			t.Fatalf("the second unlock: %d %s", r.StatusCode, r.body)
		}
		if r := e.do(phone, "GET", "/d/"+code, "", "User-Agent", iPhoneUA); r.StatusCode != http.StatusGone {
			t.Fatalf("a scan once used up: %d", r.StatusCode)
		}
		// The dashboard's list carries what the card's badges show.
		list := expect(t, e.do(c, "GET", "/api/codes?kind=dynamic", ""), http.StatusOK, "")
		items := list["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("listed %d codes, want 1", len(items))
		}
		item := items[0].(map[string]any)
		if rt, ok := item["routing"].(map[string]any); !ok || rt["scanLimit"] != 1.0 || item["limitScans"] != 1.0 {
			t.Errorf("the list's record: routing %v, limitScans %v", item["routing"], item["limitScans"])
		}
	})
}
