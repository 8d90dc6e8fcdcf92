package sharelinks

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/squarely/squarely/internal/store"
)

// Report is what a share link's page and CSV show, as the analytics
// views read it (internal/server's scan report), before folding.
type Report struct {
	Token       string // the link's, for its own URLs
	Scope       string // what is shared: "Code", "Tag", "Folder" or "Workspace"
	Name        string // the code's, tag's or folder's name; "" for the workspace
	From, To    time.Time
	TimeZone    string
	Hourly      bool // Series is by the hour (a range of two days at most)
	AllTime     bool
	Scans       int64
	Previous    *int64 // the scans of the period before, of the same length
	Visitors    int64
	NoVisitors  bool // a tag's or folder's visitors would count once per code
	Series      []Point
	Countries   map[string]int64 // ISO codes; "" is unknown
	Places      bool             // a city database places scans: show Regions and Cities
	Regions     map[string]int64 // by store.RegionKey
	Cities      map[string]int64 // by store.CityKey
	Devices     map[string]int64
	OS          map[string]int64
	Browsers    map[string]int64
	Referrers   map[string]int64 // origins or URLs, cut to hosts here
	Attribution string           // the IP data's credit
	Now         time.Time        // for the ranges offered
}

// Point is one hour's or day's scans.
type Point struct {
	Start time.Time
	Scans int64
}

// tableRows is how many rows a table shows before "Other".
const tableRows = 20

// chartBars is the most bars the chart draws: longer series are summed
// into bars of several days, which keeps the page small at any range.
const chartBars = 184

type table struct {
	Title string
	Rows  []Row
}

// view is the page's template data.
type view struct {
	R                *Report
	Title, Range     string
	FromDate, ToDate string // the form's inclusive dates
	Change           string // "+12% on the previous period"
	Chart            template.HTML
	ChartLabel       string
	Tables           []table
	CSV              template.URL
	Presets          []preset
	PasswordForm     bool
	Error            string
	Scans, Visitors  string
}

type preset struct {
	Label string
	Href  template.URL
}

// tables folds r into the page's (and the CSV's) tables.
func (r *Report) tables() []table {
	countries := map[string]int64{}
	for c, n := range r.Countries {
		countries[cmp.Or(CountryName(c), "Unknown")] += n
	}
	tables := []table{{"Countries", Fold(countries, tableRows)}}
	if r.Places {
		tables = append(tables, table{"Regions", Fold(placeNames(r.Regions), tableRows)}, table{"Cities", Fold(placeNames(r.Cities), tableRows)})
	}
	return append(tables,
		table{"Devices", Rows(r.Devices, tableRows)},
		table{"Operating systems", Rows(r.OS, tableRows)},
		table{"Browsers", Rows(r.Browsers, tableRows)},
		table{"Referrers", Fold(Hosts(r.Referrers), tableRows)},
	)
}

// placeNames names region or city keys "Munich, Bavaria, Germany".
func placeNames(counts map[string]int64) map[string]int64 {
	named := map[string]int64{}
	for key, n := range counts {
		country, region, city := store.SplitPlace(key)
		var parts []string
		for _, p := range []string{city, region, CountryName(country)} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		named[strings.Join(parts, ", ")] += n
	}
	return named
}

// CountryName is a country's English name, "" for unknown.
func CountryName(code string) string {
	if code == "" {
		return ""
	}
	if region, err := language.ParseRegion(code); err == nil {
		if name := display.English.Regions().Name(region); name != "" {
			return name
		}
	}
	return code
}

// Page writes the link's analytics page.
func Page(w io.Writer, r *Report) error {
	last := r.To.Add(-time.Nanosecond)
	v := view{
		R: r, Title: title(r), FromDate: r.From.Format(time.DateOnly), ToDate: last.Format(time.DateOnly),
		Tables: r.tables(), Scans: thousands(r.Scans), Visitors: thousands(r.Visitors),
	}
	v.Range = r.From.Format("2 Jan 2006") + " – " + last.Format("2 Jan 2006") + " (" + r.TimeZone + ")"
	if r.Previous != nil {
		v.Change = change(r.Scans, *r.Previous)
	}
	v.Chart, v.ChartLabel = chart(r)
	q := "?from=" + v.FromDate + "&to=" + v.ToDate + "&tz=" + url.QueryEscape(r.TimeZone)
	if r.AllTime {
		q = "?period=all&tz=" + url.QueryEscape(r.TimeZone)
	}
	v.CSV = template.URL("/s/" + r.Token + ".csv" + q)
	for _, p := range []struct {
		label string
		days  int
	}{{"Last 7 days", 7}, {"Last 30 days", 30}, {"Last 90 days", 90}} {
		to := r.Now.In(r.From.Location())
		from := to.AddDate(0, 0, 1-p.days)
		v.Presets = append(v.Presets, preset{p.label, template.URL("?from=" + from.Format(time.DateOnly) +
			"&to=" + to.Format(time.DateOnly) + "&tz=" + url.QueryEscape(r.TimeZone))})
	}
	v.Presets = append(v.Presets, preset{"All time", template.URL("?period=all&tz=" + url.QueryEscape(r.TimeZone))})
	return pageTemplate.Execute(w, v)
}

// PasswordPage writes the form a protected link opens with; message says
// why it is shown again.
func PasswordPage(w io.Writer, message string) error {
	return pageTemplate.Execute(w, view{Title: "Shared scan analytics", PasswordForm: true, Error: message})
}

// GonePage writes the page of an expired or revoked link, or one whose
// code is gone.
func GonePage(w io.Writer) error {
	return PlainPage(w, "This link is no longer available",
		"The analytics shared at this address have expired or were withdrawn. Ask the person who sent it for a new link.")
}

// PlainPage writes a page of a title and a sentence.
func PlainPage(w io.Writer, title, text string) error {
	return pageTemplate.Execute(w, view{Title: title, Error: text})
}

func title(r *Report) string {
	if r.Name == "" {
		return "Scan analytics"
	}
	return r.Scope + " " + r.Name + " · scan analytics"
}

// change is the scans against the previous period's, in words.
func change(now, before int64) string {
	if before == 0 {
		if now == 0 {
			return "No scans in the previous period either"
		}
		return "No scans in the previous period"
	}
	pct := (now - before) * 100 / before
	sign := "+"
	if pct < 0 {
		sign = ""
	}
	return sign + strconv.FormatInt(pct, 10) + "% on the previous period (" + thousands(before) + ")"
}

// thousands writes n with thin separators: 12,345.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// chart draws the series as bars in an inline SVG (numbers only, so
// nothing of the user's reaches it) and says what it shows.
func chart(r *Report) (template.HTML, string) {
	const width, height = 720.0, 160.0
	pts := r.Series
	per := (len(pts) + chartBars - 1) / chartBars
	if per < 1 {
		per = 1
	}
	var bars []int64
	var peak int64
	for i := 0; i < len(pts); i += per {
		var n int64
		for _, p := range pts[i:min(i+per, len(pts))] {
			n += p.Scans
		}
		bars = append(bars, n)
		peak = max(peak, n)
	}
	unit := "day"
	switch {
	case r.Hourly:
		unit = "hour"
	case per > 1:
		unit = strconv.Itoa(per) + " days"
	}
	label := "Scans per " + unit + ": at most " + thousands(peak)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %d %d" width="100%%" role="img" aria-label="%s"><path fill="#2563eb" d="`,
		int(width), int(height)+20, template.HTMLEscapeString(label))
	if peak > 0 {
		w := width / float64(len(bars))
		for i, n := range bars {
			if n == 0 {
				continue
			}
			h := float64(n) / float64(peak) * (height - 10)
			fmt.Fprintf(&b, "M%.1f %.0fv-%.1fh%.1fv%.1fz", float64(i)*w, height, h, max(w-1, 0.5), h)
		}
	}
	layout := "2 Jan"
	if r.Hourly {
		layout = "2 Jan 15:00"
	}
	first, last := r.From, r.To.Add(-time.Nanosecond)
	fmt.Fprintf(&b, `"/><path stroke="#a1a1aa" d="M0 %.0fH%.0f"/><text x="0" y="%.0f" font-size="11" fill="#52525b">%s</text>`+
		`<text x="%.0f" y="%.0f" font-size="11" fill="#52525b" text-anchor="end">%s</text></svg>`,
		height+0.5, width, height+15, first.Format(layout), width, height+15, last.Format(layout))
	return template.HTML(b.String()), label //nolint:gosec // numbers and dates only
}

// CSV writes the link's report as one CSV: each breakdown's rows as
// breakdown, name, scans, folded as on the page.
func CSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"breakdown", "name", "scans"})
	cw.Write([]string{"total", r.From.Format(time.RFC3339) + "/" + r.To.Format(time.RFC3339), strconv.FormatInt(r.Scans, 10)})
	by := "day"
	if r.Hourly {
		by = "hour"
	}
	for _, p := range r.Series {
		cw.Write([]string{by, p.Start.Format(time.RFC3339), strconv.FormatInt(p.Scans, 10)})
	}
	for _, t := range r.tables() {
		for _, row := range t.Rows {
			cw.Write([]string{strings.ToLower(t.Title), csvCell(row.Name), strconv.FormatInt(row.Scans, 10)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvCell keeps a spreadsheet from reading a name as a formula.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

var pageTemplate = template.Must(template.New("share").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="robots" content="noindex"><title>{{.Title}} · Squarely</title>
<style>
body{margin:0;padding:24px 16px;background:#f4f4f5;font:15px/1.5 -apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b}
main{max-width:760px;margin:0 auto}
section,form.card{background:#fff;border-radius:8px;padding:16px 20px;margin:0 0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}
.muted{color:#52525b}.big{font-size:28px;font-weight:600;margin:0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:16px}
table{width:100%;border-collapse:collapse}td,th{padding:4px 0;text-align:left;border-bottom:1px solid #e4e4e7}td.n,th.n{text-align:right}
label{margin-right:8px}input{font:inherit;padding:4px 6px;border:1px solid #a1a1aa;border-radius:4px}
button{font:inherit;background:#2563eb;color:#fff;border:0;border-radius:6px;padding:6px 14px;cursor:pointer}
a{color:#1d4ed8}nav a{margin-right:12px}.error{color:#b91c1c}
</style></head>
<body><main>
{{if .PasswordForm}}
<form class="card" method="post">
<h1>{{.Title}}</h1>
<p>This link is protected. Enter the password you were given.</p>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<p><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Open</button></p>
</form>
{{else if not .R}}
<section><h1>{{.Title}}</h1><p>{{.Error}}</p></section>
{{else}}
<header><h1>{{.Title}}</h1><p class="muted">{{.Range}}</p></header>
<form class="card" method="get" aria-label="Date range">
<nav aria-label="Ranges">{{range .Presets}}<a href="{{.Href}}">{{.Label}}</a>{{end}}</nav>
<p><label for="from">From</label><input id="from" name="from" type="date" value="{{.FromDate}}" required>
<label for="to">To</label><input id="to" name="to" type="date" value="{{.ToDate}}" required>
<input type="hidden" name="tz" value="{{.R.TimeZone}}"> <button type="submit">Show</button></p>
</form>
<section class="grid" aria-label="Totals">
<div><h2>Scans</h2><p class="big">{{.Scans}}</p>{{if .Change}}<p class="muted">{{.Change}}</p>{{end}}</div>
{{if not .R.NoVisitors}}<div><h2>Unique visitors</h2><p class="big">{{.Visitors}}</p><p class="muted">Each visitor counts once a day.</p></div>{{end}}
</section>
<section><h2>{{.ChartLabel}}</h2>{{.Chart}}</section>
<div class="grid">{{range .Tables}}<section><h2>{{.Title}}</h2>
{{if .Rows}}<table><thead><tr><th scope="col">Name</th><th scope="col" class="n">Scans</th></tr></thead><tbody>
{{range .Rows}}<tr><td>{{.Name}}</td><td class="n">{{.Scans}}</td></tr>{{end}}</tbody></table>
{{else}}<p class="muted">No scans.</p>{{end}}</section>{{end}}</div>
<p><a href="{{.CSV}}" download>Download as CSV</a></p>
<p class="muted">Countries{{if .R.Places}}, regions, cities{{end}} and referrers with fewer than 5 scans are counted under “Other”. {{.R.Attribution}}</p>
{{end}}
</main></body></html>
`))
