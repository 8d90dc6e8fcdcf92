package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// The PDF report opens in poppler and shows the range's figures, tables and
// attribution; it answers the JSON views' errors for the same cases.
func TestAnalyticsPDFReport(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st) // the clock says 2026-03-01 12:00 UTC
		c, _ := e.signedIn("pdf@example.com")
		d := e.createDynamic(c, "https://example.com/pdf")
		id, _ := strconv.ParseInt(idOf(d), 10, 64)
		var events []store.ScanEvent
		add := func(n int, at, device, os, browser, country, referrer string) {
			when, err := time.Parse(time.RFC3339, at)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				events = append(events, store.ScanEvent{CodeID: id, ScannedAt: when, DeviceType: device, OS: os, Browser: browser,
					Country: country, Referrer: referrer, VisitorHash: fmt.Sprint(at, device, i)})
			}
		}
		add(7, "2026-02-10T09:15:00Z", "mobile", "iOS", "Safari", "DE", "news.example.org")
		add(3, "2026-02-20T17:40:00Z", "desktop", "Windows", "Edge", "FR", "")
		add(2, "2026-02-25T17:05:00Z", "tablet", "Android", "Chrome", "", "")
		add(4, "2026-01-15T12:00:00Z", "mobile", "iOS", "Safari", "DE", "") // the previous period
		if err := st.RecordScans(context.Background(), events); err != nil {
			t.Fatal(err)
		}

		path := "/api/dynamic-qrcodes/" + idOf(d) + "/report.pdf?from=2026-02-01&to=2026-02-28&tz=Europe/Berlin"
		r := e.do(c, "GET", path, "")
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("report: %d %v %.200s", r.StatusCode, r.Header, r.body)
		}
		text := strings.Join(strings.Fields(testenv.PDFText(t, r.body)), " ")
		for _, want := range []string{
			"Scan report: " + d["name"].(string),
			"Range: 2026-02-01 to 2026-02-28 (time zone Europe/Berlin)",
			"Scans: 12", "Unique visitors: 12",
			"Previous period (2026-01-04 00:00 to 2026-02-01 00:00): 4 scans, +200%",
			"Scans by day", "Highest: 7", "Countries DE 7 (58%) FR 3 (25%) Unknown 2 (16%)",
			"Devices mobile 7 (58%) desktop 3 (25%) tablet 2 (16%)",
			"Operating systems iOS 7 (58%) Windows 3 (25%) Android 2 (16%)",
			"Browsers Safari 7 (58%) Edge 3 (25%) Chrome 2 (16%)",
			"Referrers news.example.org 7 (58%)",
			"Peak hours (Europe/Berlin) 10:00 to 11:00 7 (58%) 18:00 to 19:00 5 (41%)",
			geo.Attribution,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the report lacks %q:\n%s", want, text)
			}
		}

		// One country's scans, and its previous period's.
		r = e.do(c, "GET", path+"&country=de", "")
		text = strings.Join(strings.Fields(testenv.PDFText(t, r.body)), " ")
		for _, want := range []string{"Scan report: " + d["name"].(string) + ", scans from DE", "Scans: 7", "Previous period (2026-01-04 00:00 to 2026-02-01 00:00): 4 scans, +75%", "Countries DE 7 (100%)", "Devices mobile 7 (100%)"} {
			if !strings.Contains(text, want) {
				t.Errorf("the report of DE lacks %q:\n%s", want, text)
			}
		}

		// The whole account, counted by the hour over the last day: no scans, still a report.
		r = e.do(c, "GET", "/api/analytics/report.pdf?period=24h", "")
		if r.StatusCode != http.StatusOK {
			t.Fatalf("account report: %d %s", r.StatusCode, r.body)
		}
		text = strings.Join(strings.Fields(testenv.PDFText(t, r.body)), " ")
		for _, want := range []string{"Scan report: All dynamic QR codes", "Range: 2026-02-28 13:00 to 2026-03-01 13:00", "Scans: 0", "Scans by hour", "Countries No scans"} {
			if !strings.Contains(text, want) {
				t.Errorf("the account report lacks %q:\n%s", want, text)
			}
		}

		// The longest range draws a bar a day and still makes a small file.
		r = e.do(c, "GET", "/api/analytics/report.pdf?from=2016-03-04&to=2026-03-01", "")
		if r.StatusCode != http.StatusOK || len(r.body) > 200_000 {
			t.Fatalf("longest range: %d, %d bytes", r.StatusCode, len(r.body))
		}
		if text := testenv.PDFText(t, r.body); !strings.Contains(text, "Scans: 16") || !strings.Contains(text, "2016-03-04") {
			t.Errorf("longest range:\n%s", text)
		}

		nosy, _ := e.signedIn("nosy@example.com")
		expect(t, e.do(nosy, "GET", path, ""), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(nosy, "GET", "/api/dynamic-qrcodes/x/report.pdf", ""), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(e.browser(), "GET", path, ""), http.StatusUnauthorized, "")
		expect(t, e.do(e.browser(), "GET", "/api/analytics/report.pdf", ""), http.StatusUnauthorized, "")
		for query, field := range map[string]string{"tz=Mars/Olympus": "tz", "from=2026-02-01": "to", "period=week": "period", "bots=maybe": "bots", "country=Germany": "country"} {
			for _, p := range []string{"/api/dynamic-qrcodes/" + idOf(d) + "/report.pdf", "/api/analytics/report.pdf"} {
				r := expect(t, e.do(c, "GET", p+"?"+query, ""), http.StatusBadRequest, "")
				if errs, _ := r["errors"].(map[string]any); errs[field] == nil {
					t.Errorf("%s?%s: %v, want an error on %s", p, query, r, field)
				}
			}
		}
	})
}

// A code named in any script, and referrers in others, print in the
// report and come back from pdftotext; a name too long for a line is cut
// with an ellipsis instead of running off the page or over the counts.
func TestPDFReportInAnyScript(t *testing.T) {
	from := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	sr := scanRange{from: from, to: from.AddDate(0, 0, 28), loc: time.UTC}
	rep := &scanReportResponse{TimeZone: "UTC", Granularity: "day", Scans: 9, Attribution: geo.Attribution,
		Referrers: []referrerCount{{"поиск.пример.рф", 4}, {"بحث مثال", 3}, {strings.Repeat("扫描二维码", 30), 2}}}
	text := strings.Join(strings.Fields(testenv.PDFText(t, layoutReport("Сканируй меня — 扫描二维码", sr, rep))), " ")
	for _, want := range []string{
		"Scan report: Сканируй меня — 扫描二维码",
		"поиск.пример.рф 4 (44%)",
		"بحث مثال 3 (33%)",
		// 39 one-em ideographs and the ellipsis fill the 405-point column at 10 points.
		strings.Repeat("扫描二维码", 7) + "扫描二维…",
		"2 (22%)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}
