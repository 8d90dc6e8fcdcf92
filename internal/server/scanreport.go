package server

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/zones"
)

// Analytics over a range (issue 15): GET /api/dynamic-qrcodes/{id}/analytics
// for one code and GET /api/analytics for the whole account take the same
// query (docs/API.md) and answer the same shape.

// maxRangeDays bounds a custom range, so one request cannot ask for a
// series of millions of points.
const maxRangeDays = 3660

// Analytics ranges lie in [firstAnalyticsDay, analyticsEnd): no scan of
// ours is older, PostgreSQL has no year 0 (a year-1 range's previous
// period failed there), and SQLite compares times as text, where a
// five-digit year would sort before every other.
var (
	firstAnalyticsDay = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	analyticsEnd      = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

const msgAnalyticsDates = "Dates run from 2000-01-01 to 9999-12-30"

// analyticsDatesError answers 400 on from or to when [from, to) leaves
// the analytics' years, and reports whether it did.
func analyticsDatesError(w http.ResponseWriter, from, to time.Time) bool {
	switch {
	case from.Before(firstAnalyticsDay) || from.After(analyticsEnd):
		fieldError(w, "from", msgAnalyticsDates)
	case to.After(analyticsEnd) || to.Before(firstAnalyticsDay):
		fieldError(w, "to", msgAnalyticsDates)
	default:
		return false
	}
	return true
}

// hourlyUpTo is the longest range whose series is counted by the hour.
const hourlyUpTo = 48 * time.Hour

// scanRange is a parsed analytics query.
type scanRange struct {
	from, to time.Time // [from, to)
	loc      *time.Location
	hourly   bool
	allTime  bool
	bots     bool
	// noPrevious leaves out the previous period (a country's whose
	// events are partly deleted, or too many to read).
	noPrevious bool
}

// parseScanRange reads ?from=YYYY-MM-DD&to=YYYY-MM-DD&tz=Zone&bots=true, or
// ?period=24h|all instead of from and to. Without any: the last 30 days
// (today included) in UTC. Days are whole days of the time zone.
func (s *server) parseScanRange(w http.ResponseWriter, r *http.Request, q store.ScanQuery) (scanRange, bool) {
	v := r.URL.Query()
	sr := scanRange{loc: time.UTC}
	if tz := v.Get("tz"); tz != "" {
		loc, err := zones.Check(tz)
		if err != nil {
			fieldError(w, "tz", "Unknown time zone")
			return sr, false
		}
		sr.loc = loc
	}
	switch b := v.Get("bots"); b {
	case "", "false", "0":
	case "true", "1":
		sr.bots = true
	default:
		fieldError(w, "bots", "bots must be true or false")
		return sr, false
	}
	now := s.now().In(sr.loc)
	midnight := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, sr.loc) }
	today := midnight(now)
	from, to := v.Get("from"), v.Get("to")
	switch period := v.Get("period"); {
	case period != "" && (from != "" || to != ""):
		fieldError(w, "period", "Give either a period or from and to")
		return sr, false
	case period == "24h":
		sr.to = now.Truncate(time.Hour).Add(time.Hour)
		sr.from = sr.to.Add(-24 * time.Hour)
	case period == "all":
		sr.allTime = true
		sr.to = today.AddDate(0, 0, 1)
		sr.from = today
		q.From, q.To = time.Time{}, sr.to
		first, ok, err := s.store.FirstScan(r.Context(), q)
		if err != nil {
			s.internalError(w, "finding the first scan", err)
			return sr, false
		}
		if ok && first.Before(today) {
			sr.from = midnight(first.In(sr.loc))
		}
	case period != "":
		fieldError(w, "period", "period must be 24h or all")
		return sr, false
	case from == "" && to == "":
		sr.to = today.AddDate(0, 0, 1)
		sr.from = today.AddDate(0, 0, -29)
	default:
		f, errF := time.ParseInLocation(time.DateOnly, from, sr.loc)
		t, errT := time.ParseInLocation(time.DateOnly, to, sr.loc)
		switch {
		case errF != nil:
			fieldError(w, "from", "from must be a date YYYY-MM-DD")
			return sr, false
		case errT != nil:
			fieldError(w, "to", "to must be a date YYYY-MM-DD")
			return sr, false
		case t.Before(f):
			fieldError(w, "to", "to must not be before from")
			return sr, false
		case t.Sub(f) > maxRangeDays*24*time.Hour:
			fieldError(w, "to", "A range can span at most 3660 days")
			return sr, false
		case analyticsDatesError(w, f, t.AddDate(0, 0, 1)):
			return sr, false
		}
		sr.from, sr.to = f, t.AddDate(0, 0, 1)
	}
	sr.hourly = sr.to.Sub(sr.from) <= hourlyUpTo
	return sr, true
}

type countryScans struct {
	Country string `json:"country"`
	Scans   int64  `json:"scans"`
}

// placeScans is a region's or a city's scans (the city database's names).
type placeScans struct {
	Country string `json:"country"`
	Region  string `json:"region"`
	City    string `json:"city,omitempty"`
	Scans   int64  `json:"scans"`
}

// label names a region or city for a CSV or the PDF: "Munich, Bavaria, DE".
func (p placeScans) label() string {
	var parts []string
	for _, p := range []string{p.City, p.Region, p.Country} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// placeList lists a report's region or city counts, most scans first.
func placeList(counts map[string]int64) []placeScans {
	list := []placeScans{}
	for key, n := range counts {
		country, region, city := store.SplitPlace(key)
		list = append(list, placeScans{Country: country, Region: region, City: city, Scans: n})
	}
	slices.SortFunc(list, func(a, b placeScans) int {
		return cmp.Or(cmp.Compare(b.Scans, a.Scans), strings.Compare(a.Country, b.Country), strings.Compare(a.Region, b.Region), strings.Compare(a.City, b.City))
	})
	return list
}

type referrerCount struct {
	Referrer string `json:"referrer"`
	Count    int64  `json:"count"`
}

type seriesPoint struct {
	Start string `json:"start"` // RFC 3339 in the range's time zone
	Scans int64  `json:"scans"`
}

type previousPeriod struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Scans int64  `json:"scans"`
}

type scanReportResponse struct {
	From           string          `json:"from"` // RFC 3339, inclusive
	To             string          `json:"to"`   // RFC 3339, exclusive
	TimeZone       string          `json:"timeZone"`
	Granularity    string          `json:"granularity"` // hour or day
	Bots           bool            `json:"bots"`
	Scans          int64           `json:"scans"`
	TotalScans     int64           `json:"totalScans"`
	HumanScans     int64           `json:"humanScans"`
	BotScans       int64           `json:"botScans"`
	UniqueVisitors int64           `json:"uniqueVisitors"`
	Previous       *previousPeriod `json:"previous"`
	Series         []seriesPoint   `json:"series"`
	PeakHours      []int64         `json:"peakHours"` // 24 hours of the time zone
	Countries      []countryScans  `json:"countries"`
	UnknownCountry int64           `json:"unknownCountry"`
	// Regions and Cities are the scans the city database placed; empty
	// without one (CitiesEnabled false: SQUARELY_GEOIP_CITY_DB is unset).
	Regions       []placeScans     `json:"regions"`
	Cities        []placeScans     `json:"cities"`
	CitiesEnabled bool             `json:"citiesEnabled"`
	Devices       map[string]int64 `json:"devices"`
	OS            map[string]int64 `json:"os"`
	Browsers      map[string]int64 `json:"browsers"`
	Referrers     []referrerCount  `json:"referrers"`
	// OtherReferrers are the scans of the referrers beyond those listed.
	OtherReferrers int64 `json:"otherReferrers"`
	// Routes are a code's scans by what served them (issue 23), in
	// routeOrder; empty for the account's report.
	Routes      []routeScans `json:"routes"`
	Attribution string       `json:"attribution"`
	// Country is the ?country= the report is of: "" for the scans no
	// country was found for; absent when it counts every country.
	Country *string `json:"country,omitempty"`
}

type routeScans struct {
	Route string `json:"route"`
	// Name is the route as the person knows it (scans.RouteName): "Rule 1: iOS", "Variant B 50%".
	Name  string `json:"name"`
	Scans int64  `json:"scans"`
}

// routeOrder sorts routes as the routing object lists them: rules, split
// variants, then the code's destination and the end.
func routeOrder(a, b string) int {
	rank := func(r string) (int, int) {
		kind, n, _ := strings.Cut(r, ":")
		i, _ := strconv.Atoi(n)
		return map[string]int{"rule": 0, "split": 1, store.RouteDefault: 2, store.RouteEnded: 3}[kind], i
	}
	ka, ia := rank(a)
	kb, ib := rank(b)
	return cmp.Or(cmp.Compare(ka, kb), cmp.Compare(ia, ib), strings.Compare(a, b))
}

// splitShare is a split variant's share of the split's scans, "" for
// other routes.
func splitShare(routes []routeScans, i int) string {
	if !strings.HasPrefix(routes[i].Route, "split:") {
		return ""
	}
	var total int64
	for _, r := range routes {
		if strings.HasPrefix(r.Route, "split:") {
			total += r.Scans
		}
	}
	return strconv.FormatInt(routes[i].Scans*100/total, 10) + "%"
}

// codeAnalytics (GET /api/dynamic-qrcodes/{id}/analytics, owner only).
func (s *server) codeAnalytics(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	s.scanReport(w, r, store.ScanQuery{WorkspaceID: wsID(r), CodeID: id})
}

// accountAnalytics (GET /api/analytics): every live dynamic code of the user.
func (s *server) accountAnalytics(w http.ResponseWriter, r *http.Request) {
	s.scanReport(w, r, store.ScanQuery{WorkspaceID: wsID(r)})
}

func (s *server) scanReport(w http.ResponseWriter, r *http.Request, q store.ScanQuery) {
	if q.CodeID > 0 {
		// Checked before the query is, so another user's code is a 404 whatever the query.
		if _, err := s.store.DynamicCode(r.Context(), q.WorkspaceID, q.CodeID); errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, msgCodeMissing)
			return
		} else if err != nil {
			s.internalError(w, "reading a code", err)
			return
		}
	}
	if _, out, ok := s.readScanReport(w, r, q); ok {
		writeJSON(w, http.StatusOK, out)
	}
}

// readScanReport reads the request's range and country and q's report for
// them, shared by the JSON, CSV and PDF views; on failure it has answered.
func (s *server) readScanReport(w http.ResponseWriter, r *http.Request, q store.ScanQuery) (scanRange, *scanReportResponse, bool) {
	q, ok := countryFilter(w, r, q)
	if !ok {
		return scanRange{}, nil, false
	}
	sr, ok := s.parseScanRange(w, r, q)
	if !ok {
		return sr, nil, false
	}
	if q.ByCountry {
		done, ok := s.admitCountryReport(w, r, q, &sr)
		if !ok {
			return sr, nil, false
		}
		defer done()
	}
	out, err := s.buildScanReport(r.Context(), q, sr)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgCodeMissing)
		return sr, nil, false
	}
	if err != nil {
		s.internalError(w, "reading analytics", err)
		return sr, nil, false
	}
	if q.ByCountry {
		out.Country = &q.Country
	}
	return sr, out, true
}

// admitCountryReport checks that a country's report of sr can be read
// and takes a render slot for it (done gives it back); sr loses its
// previous period when that one cannot. On failure it has answered.
func (s *server) admitCountryReport(w http.ResponseWriter, r *http.Request, q store.ScanQuery, sr *scanRange) (done func(), ok bool) {
	// A country's scans are read from the events, which retention
	// deletes: a range it reaches into would count too few (the
	// workspace's country rows would not, but its part days would).
	kept, err := s.store.EventsFrom(r.Context())
	if err != nil {
		s.internalError(w, "reading the scan retention", err)
		return nil, false
	}
	if sr.from.Before(kept) {
		fieldError(w, "country", "Scans before "+kept.Format(time.DateOnly)+" are not kept by country: choose a range from that day on")
		return nil, false
	}
	// Reading them costs time and memory with their scans: those are
	// bounded (counted from the rollups), so are the previous
	// period's, which is left out rather than refused, and the reading
	// takes a render slot, as heavy work does.
	n, err := s.scansToRead(r.Context(), q, sr.from, sr.to)
	if err != nil {
		s.internalError(w, "counting scans", err)
		return nil, false
	}
	if n > s.countryScanLimit {
		fieldError(w, "country", fmt.Sprintf("This range holds more than %d scans, too many to count by country: choose a shorter range", s.countryScanLimit))
		return nil, false
	}
	if previous := sr.from.Add(-sr.to.Sub(sr.from)); previous.Before(kept) {
		sr.noPrevious = true
	} else if n, err = s.scansToRead(r.Context(), q, previous, sr.from); err != nil {
		s.internalError(w, "counting scans", err)
		return nil, false
	} else if n > s.countryScanLimit {
		sr.noPrevious = true
	}
	return s.startRender(w, r)
}

// scansToRead counts from the rollups the scans of every country, bots
// included, that a country's report of [from, to) reads from the events:
// all of q's codes', but for a workspace's days its country rows hold.
func (s *server) scansToRead(ctx context.Context, q store.ScanQuery, from, to time.Time) (int64, error) {
	q.From, q.To = from, to
	return s.store.CountryEventScans(ctx, q)
}

// defaultCountryScanLimit bounds the scans of a range a country's report
// reads: a few seconds' work.
const defaultCountryScanLimit = 1_000_000

// countryFilter reads ?country=XX (an ISO 3166 country code, either case)
// or ?country=unknown (the scans no country was found for) into q; absent
// or empty, q counts every country. On failure it has answered.
func countryFilter(w http.ResponseWriter, r *http.Request, q store.ScanQuery) (store.ScanQuery, bool) {
	c := r.URL.Query().Get("country")
	switch {
	case c == "":
		return q, true
	case c == "unknown":
		q.ByCountry, q.Country = true, ""
		return q, true
	case len(c) == 2 && isASCIILetter(c[0]) && isASCIILetter(c[1]):
		q.ByCountry, q.Country = true, strings.ToUpper(c)
		return q, true
	}
	fieldError(w, "country", "country must be a two-letter country code or unknown")
	return q, false
}

func isASCIILetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }

func (s *server) buildScanReport(ctx context.Context, q store.ScanQuery, sr scanRange) (*scanReportResponse, error) {
	q.From, q.To, q.Bots = sr.from, sr.to, sr.bots
	rep, err := s.store.ScanReport(ctx, q)
	if err != nil {
		return nil, err
	}
	out := &scanReportResponse{
		From: sr.from.Format(time.RFC3339), To: sr.to.Format(time.RFC3339), TimeZone: sr.loc.String(),
		Granularity: "day", Bots: sr.bots,
		Scans: rep.Scans, BotScans: rep.BotScans, UniqueVisitors: rep.UniqueVisitors,
		HumanScans: rep.Scans, TotalScans: rep.Scans,
		PeakHours: make([]int64, 24), Countries: []countryScans{}, UnknownCountry: rep.Countries[""],
		Devices: rep.Devices, OS: rep.OS, Browsers: rep.Browsers,
		Referrers: make([]referrerCount, len(rep.Referrers)), OtherReferrers: rep.OtherReferrers, Attribution: geo.Attribution,
		Routes: []routeScans{}, Regions: []placeScans{}, Cities: []placeScans{}, CitiesEnabled: geo.CitiesLoaded(),
	}
	// Places come with a city database: without one (it may have been
	// set once, and scans kept their places) every view shows countries
	// only, as the share pages do.
	if out.CitiesEnabled {
		out.Regions, out.Cities = placeList(rep.Regions), placeList(rep.Cities)
	}
	if q.CodeID > 0 && len(rep.Routes) > 0 {
		// The routes are named after the code's routing as it is now.
		d, err := s.store.DynamicCode(ctx, q.WorkspaceID, q.CodeID)
		if err != nil {
			return nil, err
		}
		for _, route := range slices.SortedFunc(maps.Keys(rep.Routes), routeOrder) {
			out.Routes = append(out.Routes, routeScans{Route: route, Name: scans.RouteName(route, d.Routing), Scans: rep.Routes[route]})
		}
	}
	if sr.bots {
		out.HumanScans -= rep.BotScans
	} else {
		out.TotalScans += rep.BotScans
	}
	if !sr.allTime && !sr.noPrevious {
		length := sr.to.Sub(sr.from)
		pq := q
		pq.From, pq.To = sr.from.Add(-length), sr.from
		n, err := s.store.ScanCount(ctx, pq)
		if err != nil {
			return nil, err
		}
		out.Previous = &previousPeriod{From: pq.From.Format(time.RFC3339), To: pq.To.Format(time.RFC3339), Scans: n}
	}
	out.Series, out.Granularity = series(sr, rep.Slots)
	for _, sl := range rep.Slots {
		out.PeakHours[sl.Start.In(sr.loc).Hour()] += sl.Scans
	}
	for c, n := range rep.Countries {
		if c != "" {
			out.Countries = append(out.Countries, countryScans{Country: c, Scans: n})
		}
	}
	slices.SortFunc(out.Countries, func(a, b countryScans) int {
		return cmp.Or(cmp.Compare(b.Scans, a.Scans), cmp.Compare(a.Country, b.Country))
	})
	for i, rc := range rep.Referrers {
		out.Referrers[i] = referrerCount{Referrer: rc.Referrer, Count: rc.Count}
	}
	return out, nil
}

// series spreads the quarter-hour slots over the range's hours or days in
// its time zone: every hour or day of the range has a point, in order.
func series(sr scanRange, slots []store.ScanSlot) ([]seriesPoint, string) {
	var starts []time.Time
	step := func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }
	granularity := "day"
	if sr.hourly {
		step = func(t time.Time) time.Time { return t.Add(time.Hour) }
		granularity = "hour"
	}
	for t := sr.from; t.Before(sr.to); t = step(t) {
		starts = append(starts, t)
	}
	points := make([]seriesPoint, len(starts))
	for i, t := range starts {
		points[i].Start = t.Format(time.RFC3339)
	}
	// Slots come oldest first: walk both lists once.
	i := 0
	for _, sl := range slots {
		for i+1 < len(starts) && !sl.Start.Before(starts[i+1]) {
			i++
		}
		if len(starts) > 0 && !sl.Start.Before(starts[i]) {
			points[i].Scans += sl.Scans
		}
	}
	return points, granularity
}

// breakdownCSV (GET /api/analytics/breakdown.csv and
// /api/dynamic-qrcodes/{id}/breakdown.csv, same query plus by=…) is one
// breakdown of the report as a two-column CSV.
func (s *server) breakdownCSV(w http.ResponseWriter, r *http.Request) {
	q := store.ScanQuery{WorkspaceID: wsID(r)}
	if r.PathValue("id") != "" {
		id, ok := pathID(w, r)
		if !ok {
			return
		}
		if _, err := s.store.DynamicCode(r.Context(), q.WorkspaceID, id); errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, msgCodeMissing)
			return
		} else if err != nil {
			s.internalError(w, "reading a code", err)
			return
		}
		q.CodeID = id
	}
	by := r.URL.Query().Get("by")
	if !slices.Contains(breakdowns, by) {
		fieldError(w, "by", "by must be one of "+strings.Join(breakdowns, ", "))
		return
	}
	_, rep, ok := s.readScanReport(w, r, q)
	if !ok {
		return
	}
	rows := breakdownRows(rep, by)
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="scans-by-`+by+`.csv"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	cw := csv.NewWriter(w)
	if by == "route" {
		// A split variant's share of the split's scans.
		cw.Write([]string{by, "scans", "split_share", "route_id"})
	} else {
		cw.Write([]string{by, "scans"})
	}
	for _, row := range rows {
		row[0] = csvCell(row[0])
		cw.Write(row)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		s.log.ErrorContext(r.Context(), "writing a breakdown CSV", "err", err)
	}
}

// breakdownRows is one breakdown of a report as CSV rows: a name and its
// scans (and, by route, the split share and the recorded route).
func breakdownRows(rep *scanReportResponse, by string) [][]string {
	rows := [][]string{}
	addMap := func(m map[string]int64) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			rows = append(rows, []string{k, strconv.FormatInt(m[k], 10)})
		}
	}
	switch by {
	case "time":
		for _, p := range rep.Series {
			rows = append(rows, []string{p.Start, strconv.FormatInt(p.Scans, 10)})
		}
	case "hour":
		for h, n := range rep.PeakHours {
			rows = append(rows, []string{strconv.Itoa(h), strconv.FormatInt(n, 10)})
		}
	case "country":
		for _, c := range rep.Countries {
			rows = append(rows, []string{c.Country, strconv.FormatInt(c.Scans, 10)})
		}
		if rep.UnknownCountry > 0 {
			rows = append(rows, []string{"unknown", strconv.FormatInt(rep.UnknownCountry, 10)})
		}
	case "region", "city":
		list := rep.Regions
		if by == "city" {
			list = rep.Cities
		}
		for _, p := range list {
			rows = append(rows, []string{p.label(), strconv.FormatInt(p.Scans, 10)})
		}
	case "device":
		addMap(rep.Devices)
	case "os":
		addMap(rep.OS)
	case "browser":
		addMap(rep.Browsers)
	case "referrer":
		for _, rc := range rep.Referrers {
			rows = append(rows, []string{rc.Referrer, strconv.FormatInt(rc.Count, 10)})
		}
	case "route":
		// Named as in the app; the last column keeps the recorded route for machines.
		for i, rs := range rep.Routes {
			rows = append(rows, []string{rs.Name, strconv.FormatInt(rs.Scans, 10), splitShare(rep.Routes, i), rs.Route})
		}
	}
	return rows
}

// breakdowns are the by= values of breakdownCSV.
var breakdowns = []string{"time", "hour", "country", "region", "city", "device", "os", "browser", "referrer", "route"}
