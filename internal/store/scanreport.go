package store

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ScanQuery picks the scans a report counts: those of one live dynamic code
// of the workspace (CodeID > 0), of its live dynamic codes with a tag
// (TagID > 0) or in a folder (FolderID > 0), or of all the workspace's live
// dynamic codes, scanned in [From, To). Bots are counted only when Bots is
// set. At most one of CodeID, TagID and FolderID is set.
type ScanQuery struct {
	WorkspaceID, CodeID int64
	TagID, FolderID     int64
	From, To            time.Time
	Bots                bool
	// ByCountry picks only the scans placed in Country ("" for those no
	// country was found for). Closed days come from rows by country
	// (countrydays.go for a workspace's, countryrollups.go for a code's,
	// a tag's or a folder's); the rest of the range from the scan events:
	// the ones retention kept (EventsFrom), at a cost that follows their
	// scans.
	ByCountry bool
	Country   string
}

// perCode reports whether q picks some of the workspace's codes, read
// from the code rollups, rather than all of them.
func (q ScanQuery) perCode() bool { return q.CodeID > 0 || q.TagID > 0 || q.FolderID > 0 }

// codes is the subquery of the live codes a perCode q picks, with $3 the
// workspace and $4 the code, tag or folder, and that argument. A tag's or
// folder's codes come from the code rollups, whose visitors count once per
// code: one visitor of two of its codes counts twice.
func (q ScanQuery) codes() (string, int64) {
	switch {
	case q.TagID > 0:
		return `SELECT d.id FROM dynamic_qr_codes d JOIN dynamic_qr_code_tags t ON t.dynamic_qr_code_id = d.id
			WHERE t.tag_id = $4 AND d.workspace_id = $3 AND NOT d.is_deleted`, q.TagID
	case q.FolderID > 0:
		return `SELECT id FROM dynamic_qr_codes WHERE folder_id = $4 AND workspace_id = $3 AND NOT is_deleted`, q.FolderID
	}
	return `SELECT id FROM dynamic_qr_codes WHERE id = $4 AND workspace_id = $3 AND NOT is_deleted`, q.CodeID
}

// ScanReport is what the picked scans say. Every count but BotScans follows
// the query's Bots switch; BotScans always counts the bots of the range.
type ScanReport struct {
	Scans, BotScans int64
	// UniqueVisitors counts distinct visitor hashes. The hash's salt
	// rotates daily, so a visitor counts once per UTC day they scan.
	UniqueVisitors int64
	// Slots are the quarter hours (UTC start) that had scans, oldest
	// first: fine enough to regroup into hours or days of any time zone.
	Slots     []ScanSlot
	Countries map[string]int64 // "" is unknown
	// Regions and Cities count the scans the city database placed, by
	// RegionKey and CityKey; empty without one.
	Regions, Cities map[string]int64
	Devices         map[string]int64
	OS              map[string]int64
	Browsers        map[string]int64
	Referrers       []ReferrerCount // most frequent first, at most topReferrers
	OtherReferrers  int64           // the scans of the referrers beyond those
	// Routes counts the scans by what served them (issue 23): RouteDefault,
	// rule:N, split:N or RouteEnded; routes with no scans are left out.
	Routes map[string]int64
}

// ScanSlot is the scans of one quarter hour.
type ScanSlot struct {
	Start time.Time
	Scans int64
}

// ReferrerCount is a referring origin and its scans.
type ReferrerCount struct {
	Referrer string
	Count    int64
}

const topReferrers = 10

// slotLayout is how the slot queries spell a quarter hour's start.
const slotLayout = "2006-01-02T15:04"

// where is the query's filter on scan_events e and its arguments.
func (q ScanQuery) where(bots bool) (string, []any) {
	cond := `e.scanned_at >= $1 AND e.scanned_at < $2 AND `
	args := []any{dbTime(q.From), dbTime(q.To), q.WorkspaceID}
	if q.perCode() {
		codes, id := q.codes()
		cond += `e.dynamic_qr_code_id IN (` + codes + `)`
		args = append(args, id)
	} else {
		cond += `e.dynamic_qr_code_id IN (SELECT id FROM dynamic_qr_codes WHERE workspace_id = $3 AND NOT is_deleted)`
	}
	if !bots {
		cond += ` AND NOT e.is_bot`
	}
	if q.ByCountry {
		args = append(args, q.Country)
		cond += ` AND e.country = $` + strconv.Itoa(len(args))
	}
	return cond, args
}

// ScanReport sums up the scans q picks. Another user's code, or a deleted
// one, is ErrNotFound. The whole UTC days of the range come from the
// rollups; the parts of a day at either end (a range in another time zone
// starts and ends inside UTC days) from the scan events.
func (s *Store) ScanReport(ctx context.Context, q ScanQuery) (*ScanReport, error) {
	if q.CodeID > 0 {
		if _, err := s.DynamicCode(ctx, q.WorkspaceID, q.CodeID); err != nil {
			return nil, err
		}
	}
	if q.ByCountry {
		return s.countryReport(ctx, q)
	}
	sum := newReportSum()
	days, edges, _, err := s.splitOpen(ctx, q)
	if err != nil {
		return nil, err
	}
	if days.From.Before(days.To) {
		t, where, args := days.rollupWhere()
		err := s.eachDay(ctx, sqlTx{s.read}, daySelect(t)+where, args, func(k rollupKey, d *dayTally) {
			sum.addDay(k, d, q.Bots)
		})
		if err != nil {
			return nil, fail("read scan rollups", err)
		}
	}
	if err := s.addEdges(ctx, edges, sum); err != nil {
		return nil, err
	}
	return sum.report(), nil
}

// split cuts q's range into the whole UTC days within it and the parts
// before and after them (none, when the range is whole days).
func (q ScanQuery) split() (days ScanQuery, edges []ScanQuery) {
	days = q
	days.From, days.To = utcDay(q.From), utcDay(q.To)
	if days.From.Before(q.From) {
		days.From = days.From.AddDate(0, 0, 1)
	}
	if !days.From.Before(days.To) {
		return days, []ScanQuery{q}
	}
	for _, part := range [][2]time.Time{{q.From, days.From}, {days.To, q.To}} {
		if part[0].Before(part[1]) {
			e := q
			e.From, e.To = part[0], part[1]
			edges = append(edges, e)
		}
	}
	return days, edges
}

// rollupWhere picks q's rollup rows: the days [From, To) of q's tag or
// folder (freshGroup has brought them up to date), of q's code, if the
// workspace's and live, or of the workspace.
func (q ScanQuery) rollupWhere() (rollupTable, string, []any) {
	where := `WHERE day >= $1 AND day < $2`
	args := []any{dbTime(q.From), dbTime(q.To), q.WorkspaceID}
	if g, id, ok := q.group(); ok {
		return g.days, where + ` AND ` + g.days.owner + ` = $4 AND EXISTS (` + g.inWorkspace + `)`, append(args, id)
	}
	if q.perCode() {
		codes, id := q.codes()
		return codeDays, where + ` AND dynamic_qr_code_id IN (` + codes + `)`, append(args, id)
	}
	return userDays, where + ` AND workspace_id = $3`, args
}

// reportSum adds up a report from rollup days and scan events.
type reportSum struct {
	r         *ScanReport
	slots     map[time.Time]int64
	referrers map[string]int64
}

func newReportSum() *reportSum {
	return &reportSum{
		r:     &ScanReport{Routes: map[string]int64{}, Countries: map[string]int64{}, Regions: map[string]int64{}, Cities: map[string]int64{}, Devices: map[string]int64{}, OS: map[string]int64{}, Browsers: map[string]int64{}},
		slots: map[time.Time]int64{}, referrers: map[string]int64{},
	}
}

// addDay adds a rollup day; a bot day adds only to BotScans unless bots
// are counted.
func (m *reportSum) addDay(k rollupKey, d *dayTally, bots bool) {
	if k.bot {
		m.r.BotScans += d.Scans
		if !bots {
			return
		}
	}
	m.r.Scans += d.Scans
	m.r.UniqueVisitors += d.Visitors
	// The scans not served by a named route went to the destination.
	routed := int64(0)
	for _, n := range d.Routes {
		routed += n
	}
	if n := d.Scans - routed; n > 0 {
		m.r.Routes[RouteDefault] += n
	}
	for q, n := range d.Slots {
		m.slots[k.day.Add(time.Duration(q)*15*time.Minute)] += n
	}
	for _, g := range []struct{ into, from map[string]int64 }{
		{m.r.Countries, d.Countries}, {m.referrers, d.Referrers}, {m.r.Routes, d.Routes},
		{m.r.Regions, d.Regions}, {m.r.Cities, d.Cities},
	} {
		for v, n := range g.from {
			g.into[v] += n
		}
	}
	for _, g := range []struct{ into, from map[string]int64 }{
		{m.r.Devices, d.Devices}, {m.r.OS, d.OS}, {m.r.Browsers, d.Browsers},
	} {
		for v, n := range g.from {
			g.into[cmp.Or(v, "Unknown")] += n
		}
	}
}

// report is the sum, its slots in time order and its most frequent
// referrers (ties by name).
func (m *reportSum) report() *ScanReport {
	r := m.r
	for _, t := range slices.SortedFunc(maps.Keys(m.slots), time.Time.Compare) {
		r.Slots = append(r.Slots, ScanSlot{Start: t, Scans: m.slots[t]})
	}
	delete(m.referrers, "")
	for ref, n := range m.referrers {
		r.Referrers = append(r.Referrers, ReferrerCount{Referrer: ref, Count: n})
	}
	slices.SortFunc(r.Referrers, func(a, b ReferrerCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Referrer, b.Referrer))
	})
	for _, rc := range r.Referrers[min(len(r.Referrers), topReferrers):] {
		r.OtherReferrers += rc.Count
	}
	r.Referrers = r.Referrers[:min(len(r.Referrers), topReferrers)]
	return r
}

// addEvents adds the scan events q picks to sum as the rollups would
// count them: what the partial days at a range's ends come from, and a
// country's days that no country rows hold (countryParts). One pass over
// the rows, for an account's many codes cost an index seek each, kept as
// one tally a day (its memory follows the days, and the visitors seen). A visitor counts once per
// code for a perCode q, as in the code rows its whole days come from,
// and once across codes for the workspace.
func (s *Store) addEvents(ctx context.Context, q ScanQuery, sum *reportSum) error {
	days := newDayCounter[rollupKey]()
	cond, args := q.where(true)
	err := s.eachRow(ctx, "read scans", `
		SELECT e.dynamic_qr_code_id, e.scanned_at, e.is_bot, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.country, e.region, e.city, e.route
		FROM scan_events e WHERE `+cond, args, func(rows *sql.Rows) error {
		var e ScanEvent
		if err := rows.Scan(&e.CodeID, scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
			return err
		}
		k := rollupKey{day: utcDay(e.ScannedAt), bot: e.IsBot}
		row := k
		if q.perCode() {
			row.owner = e.CodeID
		}
		days.addAs(k, row, &e)
		return nil
	})
	for k, d := range days.tallies {
		sum.addDay(k, d, q.Bots)
	}
	return err
}

// ScanCount counts the scans q picks, for the comparison with the
// previous period.
func (s *Store) ScanCount(ctx context.Context, q ScanQuery) (int64, error) {
	var total int64
	if q.ByCountry {
		return s.countryScanCount(ctx, q)
	}
	days, edges, rolled, err := s.splitOpen(ctx, q)
	if err != nil {
		return 0, err
	}
	if days.From.Before(days.To) {
		t, where, args := days.rollupWhere()
		if !q.Bots {
			where += ` AND NOT is_bot`
		}
		if err := s.read.QueryRowContext(ctx, `SELECT COALESCE(sum(scans), 0) FROM `+t.name+` `+where, args...).Scan(&total); err != nil {
			return 0, fail("count scans", err)
		}
	}
	kept := time.Time{}
	if len(edges) > 0 {
		if kept, err = s.EventsFrom(ctx); err != nil {
			return 0, err
		}
	}
	for _, e := range edges {
		// A part of a day the rollup rows hold is counted from their
		// quarter hours, as are days whose events are deleted (retention.go):
		// exact when it starts and ends on quarter hours, as local days do.
		rows := !e.To.After(rolled) && quarterHour(e.From) && quarterHour(e.To)
		if rows || !e.To.After(kept) {
			sum := newReportSum()
			if err := s.addRolledUpSlots(ctx, e, sum); err != nil {
				return 0, err
			}
			total += sum.r.Scans
			continue
		}
		n, err := s.countEvents(ctx, e)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// countEvents counts the scan events q picks, under its bots switch.
func (s *Store) countEvents(ctx context.Context, q ScanQuery) (int64, error) {
	cond, args := q.where(q.Bots)
	var n int64
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM scan_events e WHERE `+cond, args...).Scan(&n)
	return n, failOrNil("count scans", err)
}

// FirstScan is the quarter hour of the oldest scan q's codes kept, ignoring
// q's range and country (all time starts there for a country's view too:
// a country's own first scan would be looked for among all the events);
// ok is false when they have none.
func (s *Store) FirstScan(ctx context.Context, q ScanQuery) (first time.Time, ok bool, err error) {
	q.From, q.To, q.ByCountry = time.Time{}, farFuture, false
	days, edges, _, err := s.splitOpen(ctx, q)
	if err != nil {
		return time.Time{}, false, err
	}
	t, where, args := days.rollupWhere()
	// The first day's rows (one per code and bot flag): any quarter hour
	// of a later day is later than the first day's.
	err = s.eachDay(ctx, sqlTx{s.read}, daySelect(t)+where+` AND day = (SELECT min(day) FROM `+t.name+` `+where+`)`, args,
		func(k rollupKey, d *dayTally) {
			for quarter := range d.Slots {
				if at := k.day.Add(time.Duration(quarter) * 15 * time.Minute); !ok || at.Before(first) {
					first, ok = at, true
				}
			}
		})
	if err != nil {
		return time.Time{}, false, fail("find the first scan", err)
	}
	// A code with no closed day's row: its first event in the open days.
	for _, e := range edges {
		if ok {
			break
		}
		if first, ok, err = s.firstEvent(ctx, e); err != nil {
			return time.Time{}, false, err
		}
	}
	return first, ok, nil
}

// firstEvent is the quarter hour of the oldest scan event q picks, bots
// included; ok is false when there is none.
func (s *Store) firstEvent(ctx context.Context, q ScanQuery) (first time.Time, ok bool, err error) {
	cond, args := q.where(true)
	var at *time.Time
	if err := s.read.QueryRowContext(ctx, `SELECT min(e.scanned_at) FROM scan_events e WHERE `+cond, args...).Scan(scanNullTime(&at)); err != nil {
		return time.Time{}, false, fail("find the first scan", err)
	}
	if at == nil {
		return time.Time{}, false, nil
	}
	t := at.UTC()
	return utcDay(t).Add(time.Duration(quarterOfDay(t)) * 15 * time.Minute), true, nil
}

// CodeScans is one code's scans in a range.
type CodeScans struct {
	CodeID    int64
	Name      string
	ShortCode string
	Scans     int64
}

// TopCodes lists q's codes with the most scans in q's range, at most
// limit, most first (ties by name). It counts the scan events, so it
// suits the short ranges of digests (a month at most) that scan
// retention keeps whole.
func (s *Store) TopCodes(ctx context.Context, q ScanQuery, limit int) ([]CodeScans, error) {
	cond, args := q.where(q.Bots)
	list := []CodeScans{}
	err := s.eachRow(ctx, "count scans per code", `
		SELECT d.id, d.name, d.short_code, count(*) FROM scan_events e JOIN dynamic_qr_codes d ON d.id = e.dynamic_qr_code_id
		WHERE `+cond+` GROUP BY d.id, d.name, d.short_code ORDER BY count(*) DESC, d.name, d.id LIMIT `+strconv.Itoa(limit),
		args, func(rows *sql.Rows) error {
			var c CodeScans
			if err := rows.Scan(&c.CodeID, &c.Name, &c.ShortCode, &c.Scans); err != nil {
				return err
			}
			list = append(list, c)
			return nil
		})
	return list, err
}
