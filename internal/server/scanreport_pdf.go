package server

import (
	"cmp"
	"image/color"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/squarely/squarely/internal/digests"
	"github.com/squarely/squarely/internal/report"
	"github.com/squarely/squarely/internal/store"
)

// reportPDF (GET /api/analytics/report.pdf and
// /api/dynamic-qrcodes/{id}/report.pdf, the query of the JSON views) is the
// analytics of the range as a printable PDF.
func (s *server) reportPDF(w http.ResponseWriter, r *http.Request) {
	q := store.ScanQuery{WorkspaceID: wsID(r)}
	subject := "All dynamic QR codes"
	if r.PathValue("id") != "" {
		d, ok := ownCode(s, w, r, s.store.DynamicCode)
		if !ok {
			return
		}
		q.CodeID, subject = d.ID, d.Name
	}
	sr, rep, ok := s.readScanReport(w, r, q)
	if !ok {
		return
	}
	if rep.Country != nil {
		subject += ", scans from " + cmp.Or(*rep.Country, "an unknown country")
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="scan-report.pdf"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if _, err := w.Write(layoutReport(subject, sr, rep)); err != nil {
		s.log.DebugContext(r.Context(), "writing a PDF report", "err", err)
	}
}

var (
	reportInk   = color.RGBA{R: 0x1f, G: 0x29, B: 0x37, A: 0xff}
	reportBar   = color.RGBA{R: 0x25, G: 0x63, B: 0xeb, A: 0xff}
	reportRule  = color.RGBA{R: 0xd1, G: 0xd5, B: 0xdb, A: 0xff}
	reportWidth = float32(report.PageWidth - 2*report.Margin)
)

// layoutReport lays the report out: title, range, totals, the series as a
// bar chart, one table per breakdown, and the IP data's attribution.
func layoutReport(subject string, sr scanRange, rep *scanReportResponse) []byte {
	d := report.New()
	x := float32(report.Margin)
	line := func(size float32, bold bool, text string) {
		d.Need(size + 6)
		d.Y += size
		d.Text(x, d.Y, size, bold, text)
		d.Y += 6
	}
	line(20, true, "Scan report: "+subject)
	line(11, false, "Range: "+rangeText(sr)+" (time zone "+rep.TimeZone+")")
	if rep.Bots {
		line(11, false, "Bot scans are included in the figures.")
	} else {
		line(11, false, "Bot scans are left out of the figures.")
	}
	d.Y += 10

	line(14, true, "Totals")
	line(11, false, "Scans: "+strconv.FormatInt(rep.Scans, 10))
	line(11, false, "Unique visitors: "+strconv.FormatInt(rep.UniqueVisitors, 10))
	line(11, false, "Human scans: "+strconv.FormatInt(rep.HumanScans, 10)+"   Bot scans: "+strconv.FormatInt(rep.BotScans, 10))
	if p := rep.Previous; p != nil {
		line(11, false, "Previous period ("+dayText(p.From)+" to "+dayText(p.To)+"): "+
			strconv.FormatInt(p.Scans, 10)+" scans, "+digests.Change(rep.Scans, p.Scans))
	}
	d.Y += 10

	line(14, true, "Scans by "+rep.Granularity)
	seriesChart(d, rep.Series)

	table := func(title string, rows [][2]string) {
		d.Y += 10
		d.Need(14 + 6 + 16) // a title with at least its first row
		line(14, true, title)
		if len(rows) == 0 {
			line(10, false, "No scans")
			return
		}
		for _, row := range rows {
			d.Need(16)
			d.Y += 12
			d.TextFit(x, d.Y, 10, false, row[0], reportWidth-90) // clear of the count
			d.Text(x+reportWidth-80, d.Y, 10, false, row[1])
			d.Y += 4
			d.Line(x, d.Y, x+reportWidth, d.Y, 0.5, reportRule)
		}
	}
	count := func(n int64) string { return strconv.FormatInt(n, 10) + " " + shareText(n, rep.Scans) }
	fromMap := func(m map[string]int64) [][2]string {
		keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
			return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
		})
		rows := make([][2]string, len(keys))
		for i, k := range keys {
			rows[i] = [2]string{k, count(m[k])}
		}
		return rows
	}
	var countries [][2]string
	for _, c := range rep.Countries {
		countries = append(countries, [2]string{c.Country, count(c.Scans)})
	}
	if rep.UnknownCountry > 0 {
		countries = append(countries, [2]string{"Unknown", count(rep.UnknownCountry)})
	}
	table("Countries", countries)
	// Regions and cities where a city database places scans
	// (SQUARELY_GEOIP_CITY_DB); without one the PDF says nothing of them,
	// as the dashboard says how to turn them on.
	if rep.CitiesEnabled {
		places := func(list []placeScans) [][2]string {
			rows := make([][2]string, len(list))
			for i, p := range list {
				rows[i] = [2]string{p.label(), count(p.Scans)}
			}
			return rows
		}
		table("Regions", places(rep.Regions))
		table("Cities", places(rep.Cities))
	}
	table("Devices", fromMap(rep.Devices))
	table("Operating systems", fromMap(rep.OS))
	table("Browsers", fromMap(rep.Browsers))
	var referrers [][2]string
	for _, rc := range rep.Referrers {
		referrers = append(referrers, [2]string{rc.Referrer, count(rc.Count)})
	}
	table("Referrers", referrers)
	var hours [][2]string
	for h, n := range rep.PeakHours {
		if n > 0 {
			hours = append(hours, [2]string{hourText(h) + " to " + hourText(h+1), count(n)})
		}
	}
	table("Peak hours ("+rep.TimeZone+")", hours)
	if len(rep.Routes) > 0 {
		routes := make([][2]string, len(rep.Routes))
		for i, rs := range rep.Routes {
			routes[i] = [2]string{rs.Name, count(rs.Scans)}
			if share := splitShare(rep.Routes, i); share != "" {
				routes[i][0] += ", " + share + " of the split"
			}
		}
		table("Routes", routes)
	}

	d.Y += 16
	line(8, false, rep.Attribution)
	return d.PDF()
}

// seriesChart draws one bar per point of the series, scaled to the
// highest, with the first and last points' dates under the axis.
func seriesChart(d *report.Doc, points []seriesPoint) {
	const height = 140
	d.Need(height + 40)
	x, top := float32(report.Margin), d.Y+12
	var peak int64
	for _, p := range points {
		peak = max(peak, p.Scans)
	}
	d.Text(x, top, 8, false, "Highest: "+strconv.FormatInt(peak, 10))
	top += 6
	base := top + height
	if peak > 0 && len(points) > 0 {
		step := reportWidth / float32(len(points))
		gap := min(step*0.2, 2)
		for i, p := range points {
			h := float32(p.Scans) / float32(peak) * height
			d.Rect(x+float32(i)*step+gap/2, base-h, step-gap, h, reportBar)
		}
	}
	d.Line(x, base, x+reportWidth, base, 0.75, reportInk)
	if len(points) > 0 {
		d.Text(x, base+12, 8, false, pointText(points[0].Start))
		d.Text(x+reportWidth-70, base+12, 8, false, pointText(points[len(points)-1].Start))
	}
	d.Y = base + 20
}

// rangeText is the range as people read it: the last day is inclusive.
func rangeText(sr scanRange) string {
	if sr.hourly {
		return sr.from.Format("2006-01-02 15:04") + " to " + sr.to.Format("2006-01-02 15:04")
	}
	text := sr.from.Format(time.DateOnly) + " to " + sr.to.AddDate(0, 0, -1).Format(time.DateOnly)
	if sr.allTime {
		text = "All time, " + text
	}
	return text
}

// dayText shortens an RFC 3339 instant of the report to its date and time.
func dayText(rfc string) string {
	t, err := time.Parse(time.RFC3339, rfc)
	if err != nil {
		return rfc
	}
	return t.Format("2006-01-02 15:04")
}

// pointText is a series point's start: its hour when counted by the hour.
func pointText(rfc string) string {
	t, err := time.Parse(time.RFC3339, rfc)
	if err != nil {
		return rfc
	}
	if t.Hour() == 0 && t.Minute() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02 15:04")
}

func hourText(h int) string {
	return strconv.Itoa(h/10) + strconv.Itoa(h%10) + ":00"
}

func shareText(n, total int64) string {
	if total <= 0 {
		return ""
	}
	return "(" + strconv.FormatInt(n*100/total, 10) + "%)"
}
