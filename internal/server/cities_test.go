package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/geo/geotest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// loadTestCities loads a small city database for the test: London
// (81.2.69.0/24), Munich (2a02:8070::/32) and Linköping without a region
// (89.160.20.0/24).
func loadTestCities(t *testing.T) {
	t.Helper()
	path := geotest.WriteCities(t,
		geotest.City{Network: "81.2.69.0/24", Country: "GB", RegionCode: "ENG", Region: "England", City: "London"},
		geotest.City{Network: "2a02:8070::/32", Country: "DE", RegionCode: "BY", Region: "Bavaria", City: "Munich"},
		geotest.City{Network: "89.160.20.0/24", Country: "SE", City: "Linköping"},
	)
	if err := geo.LoadCities(path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { geo.LoadCities("") })
}

// With a city database, scans are placed in regions and cities (the
// address still never stored): the analytics, their CSVs and share pages
// show them, and routing rules on a region or a city send scans apart.
func TestCitiesAndRegions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		loadTestCities(t)
		e, rec := startRecording(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
		c, _ := e.signedIn("cities@example.com")
		code, id := routedCode(t, e, c, `{"rules":[
			{"when":{"region":["de-by"]},"destination":"https://example.com/bavaria"},
			{"when":{"country":["GB"],"city":["LONDON"]},"destination":"https://example.com/london"},
			{"when":{"region":["Nowhere"]},"destination":"https://example.com/never"}
		]}`)
		scans := map[string]int{"2a02:8070::1": 5, "81.2.69.160": 4, "81.2.69.161": 2, "89.160.20.112": 1, "8.8.8.8": 1}
		want := map[string]string{"2a02:8070::1": "bavaria", "81.2.69.160": "london", "81.2.69.161": "london", "89.160.20.112": "default", "8.8.8.8": "default"}
		for addr, n := range scans {
			for range n {
				if status, loc := e.routedScan(code, "User-Agent", iPhoneUA, "X-Forwarded-For", addr); status != http.StatusFound || loc != "https://example.com/"+want[addr] {
					t.Fatalf("scan from %s: %d %s, want %s", addr, status, loc, want[addr])
				}
			}
		}
		if err := rec.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		var stored string
		storetest.QueryRow(t, st, `SELECT string_agg(region || '/' || city, ',') FROM (SELECT DISTINCT region, city FROM scan_events ORDER BY 1, 2) p`, nil, &stored)
		if stored != "/,/Linköping,Bavaria/Munich,England/London" {
			t.Errorf("stored places %q", stored)
		}

		for _, path := range []string{"/api/dynamic-qrcodes/" + id + "/analytics", "/api/analytics"} {
			a := expect(t, e.do(c, "GET", path, ""), http.StatusOK, "")
			if fmt.Sprint(a["regions"]) != "[map[country:GB region:England scans:6] map[country:DE region:Bavaria scans:5]]" ||
				fmt.Sprint(a["cities"]) != "[map[city:London country:GB region:England scans:6] map[city:Munich country:DE region:Bavaria scans:5] map[city:Linköping country:SE region: scans:1]]" ||
				a["citiesEnabled"] != true {
				t.Errorf("%s: regions %v cities %v enabled %v", path, a["regions"], a["cities"], a["citiesEnabled"])
			}
			if fmt.Sprint(a["countries"]) != "[map[country:GB scans:6] map[country:DE scans:5] map[country:SE scans:1] map[country:US scans:1]]" {
				t.Errorf("%s: countries %v", path, a["countries"])
			}
		}
		for by, want := range map[string]string{
			"city":   "city,scans\n\"London, England, GB\",6\n\"Munich, Bavaria, DE\",5\n\"Linköping, SE\",1\n",
			"region": "region,scans\n\"England, GB\",6\n\"Bavaria, DE\",5\n",
		} {
			if r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by="+by, ""); string(r.body) != want {
				t.Errorf("by=%s: %q", by, r.body)
			}
		}

		// The PDF report lists them too, by the same labels as the CSV.
		pdf := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/report.pdf", "")
		text := strings.Join(strings.Fields(testenv.PDFText(t, pdf.body)), " ")
		for _, want := range []string{"Regions England, GB 6 (46%) Bavaria, DE 5 (38%)",
			"Cities London, England, GB 6 (46%) Munich, Bavaria, DE 5 (38%) Linköping, SE 1 (7%)"} {
			if !strings.Contains(text, want) {
				t.Errorf("the PDF lacks %q:\n%s", want, text)
			}
		}

		// The share page folds cities and regions under 5 scans too.
		_, token := createShare(t, e, c, `{"scope":{"codeId":`+id+`}}`)
		page := string(e.do(e.browser(), "GET", "/s/"+token, "").body)
		for _, want := range []string{"<h2>Cities</h2>", "<td>London, England, United Kingdom</td><td class=\"n\">6</td>",
			"<td>Munich, Bavaria, Germany</td><td class=\"n\">5</td>", "<h2>Regions</h2>", "<td>Bavaria, Germany</td>"} {
			if !strings.Contains(page, want) {
				t.Errorf("share page lacks %q", want)
			}
		}
		if strings.Contains(page, "Linköping") {
			t.Error("share page shows a city of one scan")
		}
		csv := string(e.do(e.browser(), "GET", "/s/"+token+".csv", "").body)
		if !strings.Contains(csv, "\ncities,\"London, England, United Kingdom\",6\n") || !strings.Contains(csv, "\ncities,Other,1\n") {
			t.Errorf("share CSV: %s", csv)
		}

		// Refused: bad names, and regions or cities without a database.
		for routing, field := range map[string]string{
			`{"rules":[{"when":{"city":[""]},"destination":"https://example.com/x"}]}`:                                   "rules.0.when.city",
			`{"rules":[{"when":{"region":["` + strings.Repeat("a", 101) + `"]},"destination":"https://example.com/x"}]}`: "rules.0.when.region",
			`{"rules":[{"when":{"city":"London"},"destination":"https://example.com/x"}]}`:                               "rules.0.when.city",
			`{"rules":[{"when":{"city":["Lon\u0007don"]},"destination":"https://example.com/x"}]}`:                       "rules.0.when.city",
		} {
			m := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing", routing), http.StatusBadRequest, "")
			if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
				t.Errorf("%s: %v", routing, m)
			}
		}
		geo.LoadCities("")
		m := expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing", `{"rules":[{"when":{"city":["London"]},"destination":"https://example.com/x"}]}`), http.StatusBadRequest, "")
		if !strings.Contains(fmt.Sprint(m["errors"]), "SQUARELY_GEOIP_CITY_DB") {
			t.Errorf("without a database: %v", m)
		}
		// Without the database the saved rules match nothing; countries still work.
		if status, loc := e.routedScan(code, "User-Agent", iPhoneUA, "X-Forwarded-For", "2a02:8070::1"); status != http.StatusFound || loc != "https://example.com/default" {
			t.Errorf("without a database: %d %s", status, loc)
		}
		// The scans keep their places, but without the database every view
		// is by country, as the docs say (it listed them before).
		if a := expect(t, e.do(c, "GET", "/api/analytics", ""), http.StatusOK, ""); a["citiesEnabled"] != false ||
			len(a["regions"].([]any)) != 0 || len(a["cities"].([]any)) != 0 {
			t.Errorf("without a database: citiesEnabled %v, regions %v, cities %v", a["citiesEnabled"], a["regions"], a["cities"])
		}
		if r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/breakdown.csv?by=city", ""); r.StatusCode != http.StatusOK || strings.TrimSpace(string(r.body)) != "city,scans" {
			t.Errorf("without a database the city CSV: %d %q", r.StatusCode, r.body)
		}
		if text := testenv.PDFText(t, e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/report.pdf", "").body); strings.Contains(text, "Cities") {
			t.Errorf("without a database the PDF lists cities:\n%s", text)
		}
	})
}
