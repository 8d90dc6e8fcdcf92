package server

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Scans through a trusted proxy are counted by the country of the
// forwarded address; private ones are unknown; bots only on request.
func TestAnalyticsCountriesAndBots(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e, rec := startRecording(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, uid := e.signedIn("geo@example.com")
		d := e.createDynamic(c, "https://example.com/geo")
		code, id := d["shortCode"].(string), idOf(d)
		for _, s := range []struct{ addr, ua string }{
			{"8.8.8.8", iPhoneUA}, {"8.8.4.4", desktopUA}, {"2a00:1450:4001::1", iPhoneUA},
			{"10.0.0.7", iPhoneUA}, {"2a00:1450:4001::1", slackUA},
		} {
			r := e.do(e.browser(), "GET", "/d/"+code, "", "User-Agent", s.ua, "X-Forwarded-For", "203.0.113.50, "+s.addr)
			if r.StatusCode != http.StatusFound {
				t.Fatalf("scan: %d", r.StatusCode)
			}
		}
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/dynamic-qrcodes/" + id + "/analytics", "/api/analytics"} {
			a := expect(t, e.do(c, "GET", path, ""), http.StatusOK, "")
			if fmt.Sprint(a["countries"]) != "[map[country:US scans:2] map[country:DE scans:1]]" || a["unknownCountry"] != 1.0 {
				t.Errorf("%s countries: %v unknown %v", path, a["countries"], a["unknownCountry"])
			}
			if a["scans"] != 4.0 || a["humanScans"] != 4.0 || a["botScans"] != 1.0 || a["totalScans"] != 5.0 || a["bots"] != false {
				t.Errorf("%s totals: %v", path, a)
			}
			if a["attribution"] == "" || a["attribution"] == nil {
				t.Errorf("%s: no attribution for the IP data", path)
			}
			b := expect(t, e.do(c, "GET", path+"?bots=true", ""), http.StatusOK, "")
			if fmt.Sprint(b["countries"]) != "[map[country:DE scans:2] map[country:US scans:2]]" || b["scans"] != 5.0 || b["bots"] != true {
				t.Errorf("%s with bots: %v %v", path, b["countries"], b["scans"])
			}
		}
		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/scans.csv", "")
		rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil || len(rows) != 6 || rows[0][7] != "country" {
			t.Fatalf("CSV rows %v, %v", rows, err)
		}
		var countries []string
		for _, row := range rows[1:] {
			countries = append(countries, row[7])
		}
		if strings.Join(countries, ",") != "US,US,DE,,DE" {
			t.Errorf("CSV countries = %q", countries)
		}

		for path, want := range map[string]string{
			"/api/dynamic-qrcodes/" + id + "/breakdown.csv?by=country":         "country,scans\nUS,2\nDE,1\nunknown,1\n",
			"/api/analytics/breakdown.csv?by=country&bots=true":                "country,scans\nDE,2\nUS,2\nunknown,1\n",
			"/api/analytics/breakdown.csv?by=device":                           "device,scans\ndesktop,1\nmobile,3\n",
			"/api/dynamic-qrcodes/" + id + "/breakdown.csv?by=hour&period=24h": "hour,scans\n0,0\n",
		} {
			r := e.do(c, "GET", path, "")
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
				t.Fatalf("%s: %d %v", path, r.StatusCode, r.Header)
			}
			if body := string(r.body); !strings.HasPrefix(body, want) {
				t.Errorf("%s = %q, want it to start %q", path, body, want)
			}
		}
		expect(t, e.do(c, "GET", "/api/analytics/breakdown.csv?by=visitor", ""), http.StatusBadRequest, "")
		expect(t, e.do(c, "GET", "/api/analytics/breakdown.csv?by=country&tz=Nowhere", ""), http.StatusBadRequest, "Unknown time zone")
		nosy, _ := e.signedIn("nosy@example.com")
		expect(t, e.do(nosy, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by=country", ""), http.StatusNotFound, msgCodeMissing)

		// No address is kept: only the country. The visitor hash is hex,
		// so it is left out of the search (it may spell "2a00").
		codeID, _ := strconv.ParseInt(id, 10, 64)
		err = st.ScanEvents(context.Background(), uid, codeID, func(ev *store.ScanEvent) error {
			e := *ev
			e.VisitorHash = ""
			if row := fmt.Sprint(e); strings.Contains(row, "8.8") || strings.Contains(row, "2a00") || strings.Contains(row, "10.0.0.7") {
				t.Errorf("an address in a stored scan: %s", row)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// Ranges are whole days of the asked time zone, across month ends and
// half-hour zones, with the previous period of the same length.
func TestAnalyticsRangesAndTimeZones(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st) // the clock says 2026-03-01 12:00 UTC
		c, _ := e.signedIn("range@example.com")
		d := e.createDynamic(c, "https://example.com/range")
		id, _ := strconv.ParseInt(idOf(d), 10, 64)
		at := func(s string) time.Time {
			v, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		var events []store.ScanEvent
		for _, s := range []string{
			"2026-02-28T23:30:00Z", // 1 March 08:30 in Tokyo, 28 February in New York
			"2026-02-28T18:45:00Z", // 1 March 00:15 in Kolkata, 03:45 in Tokyo
			"2026-01-20T10:00:00Z", // the period before February
			"2026-02-01T00:00:00Z",
		} {
			events = append(events, store.ScanEvent{CodeID: id, ScannedAt: at(s), DeviceType: "mobile", VisitorHash: s})
		}
		if err := st.RecordScans(context.Background(), events); err != nil {
			t.Fatal(err)
		}
		path := "/api/dynamic-qrcodes/" + idOf(d) + "/analytics"
		get := func(query string) map[string]any {
			t.Helper()
			return expect(t, e.do(c, "GET", path+"?"+query, ""), http.StatusOK, "")
		}
		points := func(a map[string]any) []any { return a["series"].([]any) }
		scansAt := func(a map[string]any, i int) any { return points(a)[i].(map[string]any)["scans"] }

		tokyo := get("from=2026-03-01&to=2026-03-01&tz=Asia/Tokyo")
		if tokyo["granularity"] != "hour" || len(points(tokyo)) != 24 || scansAt(tokyo, 3) != 1.0 || scansAt(tokyo, 8) != 1.0 || tokyo["scans"] != 2.0 ||
			points(tokyo)[0].(map[string]any)["start"] != "2026-03-01T00:00:00+09:00" || tokyo["peakHours"].([]any)[8] != 1.0 {
			t.Errorf("Tokyo's 1 March: %v", tokyo)
		}
		if utc := get("from=2026-03-01&to=2026-03-01"); utc["scans"] != 0.0 {
			t.Errorf("UTC's 1 March: %v scans", utc["scans"])
		}
		if kolkata := get("from=2026-03-01&to=2026-03-01&tz=Asia/Kolkata"); scansAt(kolkata, 0) != 1.0 || kolkata["scans"] != 2.0 {
			t.Errorf("Kolkata's 1 March: %v", kolkata)
		}
		feb := get("from=2026-02-01&to=2026-02-28&tz=UTC")
		if feb["granularity"] != "day" || len(points(feb)) != 28 || scansAt(feb, 0) != 1.0 || scansAt(feb, 27) != 2.0 || feb["scans"] != 3.0 {
			t.Errorf("February: %v", feb)
		}
		prev := feb["previous"].(map[string]any)
		if prev["from"] != "2026-01-04T00:00:00Z" || prev["to"] != "2026-02-01T00:00:00Z" || prev["scans"] != 1.0 {
			t.Errorf("February's previous period: %v", prev)
		}
		ny := get("from=2026-02-28&to=2026-02-28&tz=America/New_York")
		if ny["scans"] != 2.0 {
			t.Errorf("New York's 28 February: %v scans", ny["scans"])
		}
		all := get("period=all")
		if all["from"] != "2026-01-20T00:00:00Z" || all["scans"] != 4.0 || all["previous"] != nil || len(points(all)) != 41 {
			t.Errorf("all time: from %v scans %v previous %v points %d", all["from"], all["scans"], all["previous"], len(points(all)))
		}
		day := get("period=24h")
		if day["granularity"] != "hour" || len(points(day)) != 24 || day["scans"] != 2.0 {
			t.Errorf("last 24 hours: %v", day)
		}
		if def := get(""); len(points(def)) != 30 || def["scans"] != 3.0 { // 31 January to 1 March
			t.Errorf("default 30 days: %d points, %v scans", len(points(def)), def["scans"])
		}

		// The account sees the same scans; another user sees none of them.
		if a := expect(t, e.do(c, "GET", "/api/analytics?period=all", ""), http.StatusOK, ""); a["scans"] != 4.0 {
			t.Errorf("account: %v", a["scans"])
		}
		nosy, _ := e.signedIn("nosy@example.com")
		expect(t, e.do(nosy, "GET", path+"?from=2026-01-01&to=2026-03-01", ""), http.StatusNotFound, msgCodeMissing)
		if a := expect(t, e.do(nosy, "GET", "/api/analytics?period=all", ""), http.StatusOK, ""); a["scans"] != 0.0 {
			t.Errorf("another account sees %v scans", a["scans"])
		}

		for query, field := range map[string]string{
			"tz=Mars/Olympus":                  "tz",
			"tz=../../etc/passwd":              "tz",
			"tz=Local":                         "tz",
			"from=2026-13-01&to=2026-12-01":    "from",
			"from=2026-01-01":                  "to",
			"to=2026-01-01":                    "from",
			"from=2026-02-01&to=2026-01-01":    "to",
			"from=2000-01-01&to=2026-01-01":    "to",
			"from=2026-01-01%00&to=2026-01-02": "from",
			"from=0000-01-01&to=0000-01-01":    "from",
			"from=0001-01-01&to=0001-01-02":    "from",
			"from=1999-12-31&to=2000-01-02":    "from",
			"from=9999-12-30&to=9999-12-31":    "to",
			"period=week":                      "period",
			"period=all&from=2026-01-01":       "period",
			"bots=maybe":                       "bots",
		} {
			for _, p := range []string{path, "/api/analytics"} {
				r := expect(t, e.do(c, "GET", p+"?"+query, ""), http.StatusBadRequest, "")
				if errs, _ := r["errors"].(map[string]any); errs[field] == nil || r["message"] == "" {
					t.Errorf("%s?%s: %v, want an error on %s", p, query, r, field)
				}
			}
		}
	})
}

// ?country= narrows every view to one country's scans (or those no
// country was found for), read from the scan events; a range reaching
// before the events retention kept is refused rather than undercounted.
func TestAnalyticsCountryFilter(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		// The range's five scans are within the bound (a server with a
		// lower one refuses below).
		e, rec := startRecording(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }), func(d *Deps) { d.CountryScanLimit = 5 })
		c, _ := e.signedIn("filter@example.com")
		d := e.createDynamic(c, "https://example.com/filter")
		code, id := d["shortCode"].(string), idOf(d)
		for _, s := range []struct{ addr, ua string }{
			{"8.8.8.8", iPhoneUA}, {"8.8.4.4", desktopUA}, {"2a00:1450:4001::1", iPhoneUA},
			{"10.0.0.7", iPhoneUA}, {"2a00:1450:4001::1", slackUA},
		} {
			e.do(e.browser(), "GET", "/d/"+code, "", "User-Agent", s.ua, "X-Forwarded-For", "203.0.113.50, "+s.addr)
		}
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/dynamic-qrcodes/" + id + "/analytics", "/api/analytics"} {
			for query, want := range map[string]string{
				"country=us":            "country US scans 2 bots 0 countries [map[country:US scans:2]] unknown 0 devices map[desktop:1 mobile:1]",
				"country=DE":            "country DE scans 1 bots 1 countries [map[country:DE scans:1]] unknown 0 devices map[mobile:1]",
				"country=DE&bots=true":  "country DE scans 2 bots 1 countries [map[country:DE scans:2]] unknown 0 devices map[bot:1 mobile:1]",
				"country=DE&period=all": "country DE scans 1 bots 1 countries [map[country:DE scans:1]] unknown 0 devices map[mobile:1]",
				"country=unknown":       "country  scans 1 bots 0 countries [] unknown 1 devices map[mobile:1]",
				"country=NP":            "country NP scans 0 bots 0 countries [] unknown 0 devices map[]",
				"country=":              "country <nil> scans 4 bots 1 countries [map[country:US scans:2] map[country:DE scans:1]] unknown 1 devices map[desktop:1 mobile:3]",
			} {
				a := expect(t, e.do(c, "GET", path+"?"+query, ""), http.StatusOK, "")
				got := fmt.Sprintf("country %v scans %v bots %v countries %v unknown %v devices %v",
					a["country"], a["scans"], a["botScans"], a["countries"], a["unknownCountry"], a["devices"])
				if got != want {
					t.Errorf("%s?%s:\n got %s\nwant %s", path, query, got, want)
				}
			}
			for _, bad := range []string{"USA", "u", "1", "u1", "%00", "%C3%A9x", "unknown2"} {
				expect(t, e.do(c, "GET", path+"?country="+bad, ""), http.StatusBadRequest, "country must be a two-letter country code or unknown")
			}
		}
		// A burst of country reports at once: each waits for a render
		// slot and answers the same.
		answers := make(chan string, 12)
		for range cap(answers) {
			go func() {
				r := e.do(c, "GET", "/api/analytics?country=US", "")
				var a struct{ Scans int64 }
				json.Unmarshal(r.body, &a)
				answers <- fmt.Sprint(r.StatusCode, " ", a.Scans)
			}()
		}
		for range cap(answers) {
			if a := <-answers; a != "200 2" {
				t.Errorf("in a burst: %s", a)
			}
		}
		lower := start(t, st, func(d *Deps) { d.CountryScanLimit = 4 })
		expect(t, lower.do(c, "GET", "/api/analytics?country=US", ""), http.StatusBadRequest,
			"This range holds more than 4 scans, too many to count by country: choose a shorter range")

		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by=device&country=US", "")
		if string(r.body) != "device,scans\ndesktop,1\nmobile,1\n" {
			t.Errorf("breakdown of US = %q", r.body)
		}
		if r := e.do(c, "GET", "/api/analytics/report.pdf?country=DE", ""); r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" {
			t.Errorf("PDF of DE: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
		}
		nosy, _ := e.signedIn("nosy-filter@example.com")
		expect(t, e.do(nosy, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?country=US", ""), http.StatusNotFound, msgCodeMissing)

		// Six scans the day before: today's previous period holds more than
		// the bound, so it is left out; today's own five are still counted.
		codeID, _ := strconv.ParseInt(id, 10, 64)
		today := e.clock.Now().UTC()
		var yesterday []store.ScanEvent
		for i := range 6 {
			yesterday = append(yesterday, store.ScanEvent{CodeID: codeID, ScannedAt: today.AddDate(0, 0, -1).Add(time.Duration(i) * time.Minute), Country: "US", DeviceType: "mobile"})
		}
		if err := st.RecordScans(context.Background(), yesterday); err != nil {
			t.Fatal(err)
		}
		day := today.Format(time.DateOnly)
		a := expect(t, e.do(c, "GET", "/api/analytics?country=US&from="+day+"&to="+day, ""), http.StatusOK, "")
		if a["scans"] != 2.0 || a["previous"] != nil {
			t.Errorf("today with a previous period over the bound: %v scans, previous %v", a["scans"], a["previous"])
		}
		if a := expect(t, e.do(c, "GET", "/api/analytics?from="+day+"&to="+day, ""), http.StatusOK, ""); a["previous"] == nil {
			t.Error("without a country, the previous period is counted from the rollups")
		}

		// Once the workspace's rows by country hold yesterday (the
		// recorder's tick counts the days before them back), its view of
		// that day reads no events, and the bound lets it through; the
		// code's view, which would build its own from the events, is still
		// refused.
		if done, err := st.CatchUpCountryDays(context.Background(), time.Now().Add(time.Minute)); err != nil || !done {
			t.Fatalf("counting the country rows back: %v, %v", done, err)
		}
		y := today.AddDate(0, 0, -1).Format(time.DateOnly)
		if a := expect(t, lower.do(c, "GET", "/api/analytics?country=US&from="+y+"&to="+y, ""), http.StatusOK, ""); a["scans"] != 6.0 {
			t.Errorf("yesterday from the rows by country: %v scans, want 6", a["scans"])
		}
		expect(t, lower.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?country=US&from="+y+"&to="+y, ""), http.StatusBadRequest,
			"This range holds more than 4 scans, too many to count by country: choose a shorter range")
		// Once a view with room for them has built the code's rows by
		// country from its events, they hold yesterday: its view reads no
		// events, and the bound lets it through too.
		roomy := start(t, st)
		expect(t, roomy.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?country=US&from="+y+"&to="+y, ""), http.StatusOK, "")
		if a := expect(t, lower.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/analytics?country=US&from="+y+"&to="+y, ""), http.StatusOK, ""); a["scans"] != 6.0 {
			t.Errorf("yesterday from the code's rows by country: %v scans, want 6", a["scans"])
		}

		// Retention deletes the events before the scans' day: a range from
		// before then is refused; one from then on still counts.
		if _, err := st.DeleteScanEventsBefore(context.Background(), today.AddDate(0, 0, 1), 100); err != nil {
			t.Fatal(err)
		}
		kept, err := st.EventsFrom(context.Background())
		if err != nil || kept.IsZero() {
			t.Fatalf("events kept from %v, %v", kept, err)
		}
		expect(t, e.do(c, "GET", "/api/analytics?country=US", ""), http.StatusBadRequest,
			"Scans before "+kept.Format(time.DateOnly)+" are not kept by country: choose a range from that day on")
		day = kept.Format(time.DateOnly)
		a = expect(t, e.do(c, "GET", "/api/analytics?country=US&from="+day+"&to="+day, ""), http.StatusOK, "")
		if a["country"] != "US" || a["previous"] != nil {
			t.Errorf("from the kept day on: %v", a)
		}
		if a := expect(t, e.do(c, "GET", "/api/analytics", ""), http.StatusOK, ""); a["scans"] != 10.0 {
			t.Errorf("without a country, from the rollups: %v scans", a["scans"])
		}
	})
}
