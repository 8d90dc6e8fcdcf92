package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// ScanQuery picks the scans a report counts: those of one live dynamic code
// of the user (CodeID > 0) or of all the user's live dynamic codes, scanned
// in [From, To). Bots are counted only when Bots is set.
type ScanQuery struct {
	UserID, CodeID int64
	From, To       time.Time
	Bots           bool
	// after > 0 picks only the events after that id: those not rolled up
	// yet. The parts of a query (parts) mark the rolled-up one with -1.
	after int64
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
	Devices   map[string]int64
	OS        map[string]int64
	Browsers  map[string]int64
	Referrers []ReferrerCount // most frequent first, at most topReferrers
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

// fromEvents is what a query over q's events selects from, given the
// arguments of its where: scan_events, or with q.after the events after
// it, read first by id (the few seconds of scans not rolled up), so the
// code and time indexes are not walked for them.
func (q ScanQuery) fromEvents(args []any) (with, from string, _ []any) {
	if q.after <= 0 {
		return "", "scan_events e", args
	}
	args = append(args, q.after)
	return fmt.Sprintf("WITH tail AS MATERIALIZED (SELECT * FROM scan_events WHERE id > $%d) ", len(args)), "tail e", args
}

// where is the query's filter on scan_events e and its arguments.
func (q ScanQuery) where(bots bool) (string, []any) {
	cond := `e.scanned_at >= $1 AND e.scanned_at < $2 AND `
	args := []any{dbTime(q.From), dbTime(q.To), q.UserID}
	if q.CodeID > 0 {
		cond += `e.dynamic_qr_code_id = (SELECT id FROM dynamic_qr_codes WHERE id = $4 AND user_id = $3 AND NOT is_deleted)`
		args = append(args, q.CodeID)
	} else {
		cond += `e.dynamic_qr_code_id IN (SELECT id FROM dynamic_qr_codes WHERE user_id = $3 AND NOT is_deleted)`
	}
	if !bots {
		cond += ` AND NOT e.is_bot`
	}
	return cond, args
}

// ScanReport sums up the scans q picks. Another user's code, or a deleted
// one, is ErrNotFound. The whole UTC days of the range come from the
// rollups; the parts of a day at either end (a range in another time zone
// starts and ends inside UTC days) from the scan events.
func (s *Store) ScanReport(ctx context.Context, q ScanQuery) (*ScanReport, error) {
	if q.CodeID > 0 {
		if _, err := s.DynamicCode(ctx, q.UserID, q.CodeID); err != nil {
			return nil, err
		}
	}
	sum := newReportSum()
	err := s.inSnapshot(ctx, func(tx rollupTx, rolled int64) error {
		for _, part := range q.parts(rolled) {
			if part.after < 0 {
				t, where, args := part.rollupWhere()
				err := s.eachDay(ctx, tx, daySelect(t)+where, args, func(k rollupKey, d *dayTally) {
					sum.addDay(k, d, q.Bots)
				})
				if err != nil {
					return fail("read scan rollups", err)
				}
				continue
			}
			if err := s.addEvents(ctx, tx, part, sum); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sum.report(), nil
}

// inSnapshot runs fn in a read-only transaction with the last event rolled
// up, so the rollups and the events after them agree.
func (s *Store) inSnapshot(ctx context.Context, fn func(tx rollupTx, rolled int64) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if s.dialect == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := s.read.BeginTx(ctx, opts)
	if err != nil {
		return fail("begin a read", err)
	}
	defer tx.Rollback()
	var rolled int64
	if err := tx.QueryRowContext(ctx, s.rollup.rolledThrough).Scan(&rolled); err != nil {
		return fail("read how far the rollups go", err)
	}
	return fn(sqlTx{tx}, rolled)
}

// parts cuts q's range into what the rollups answer and what the events
// do: the whole UTC days within it from the rollups (after < 0) plus their
// events after rolled, and the parts of a day before and after them (the
// whole range when it has no whole day) from all their events.
func (q ScanQuery) parts(rolled int64) []ScanQuery {
	days, edges := q.split()
	if !days.From.Before(days.To) {
		return edges
	}
	tail := days
	days.after, tail.after = -1, rolled
	return append(edges, days, tail)
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

// rollupWhere picks q's rollup rows: the days [From, To) of q's code, if
// the user's and live, or of the user.
func (q ScanQuery) rollupWhere() (rollupTable, string, []any) {
	where := `WHERE day >= $1 AND day < $2`
	args := []any{dbTime(q.From), dbTime(q.To), q.UserID}
	if q.CodeID > 0 {
		args = append(args, q.CodeID)
		return codeDays, where + ` AND dynamic_qr_code_id = (SELECT id FROM dynamic_qr_codes
			WHERE id = $4 AND user_id = $3 AND NOT is_deleted)`, args
	}
	return userDays, where + ` AND user_id = $3`, args
}

// reportSum adds up a report from rollup days and scan events.
type reportSum struct {
	r         *ScanReport
	slots     map[time.Time]int64
	referrers map[string]int64
}

func newReportSum() *reportSum {
	return &reportSum{
		r:     &ScanReport{Countries: map[string]int64{}, Devices: map[string]int64{}, OS: map[string]int64{}, Browsers: map[string]int64{}},
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
	for q, n := range d.Slots {
		m.slots[k.day.Add(time.Duration(q)*15*time.Minute)] += n
	}
	for _, g := range []struct{ into, from map[string]int64 }{
		{m.r.Countries, d.Countries}, {m.referrers, d.Referrers},
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
	r.Referrers = r.Referrers[:min(len(r.Referrers), topReferrers)]
	return r
}

// addEvents adds the scan events q picks to sum as the rollups would
// count them: what the partial days at a range's ends come from. One pass
// over the rows, for an account's many codes cost an index seek each.
func (s *Store) addEvents(ctx context.Context, tx rollupTx, q ScanQuery, sum *reportSum) error {
	days := map[rollupKey]*dayTally{}
	seen := map[visit]bool{}
	cond, args := q.where(true)
	with, from, args := q.fromEvents(args)
	// Events after the rollups count a visitor the rollups of their day
	// already have (in scan_visitors for a code, scan_user_visitors for
	// the account) as no new one.
	known := `false`
	if q.after > 0 {
		day := map[string]string{
			SQLite:   `substr(e.scanned_at, 1, 10) || 'T00:00:00.000000Z'`,
			Postgres: `date_trunc('day', e.scanned_at, 'UTC')`,
		}[s.dialect]
		known = `EXISTS (SELECT 1 FROM scan_user_visitors v WHERE v.user_id = $3 AND v.day = ` + day + `
			AND v.is_bot = e.is_bot AND v.visitor_hash = e.visitor_hash)`
		if q.CodeID > 0 {
			known = `EXISTS (SELECT 1 FROM scan_visitors v WHERE v.dynamic_qr_code_id = e.dynamic_qr_code_id AND v.day = ` + day + `
				AND v.is_bot = e.is_bot AND v.visitor_hash = e.visitor_hash)`
		}
	}
	err := tx.each(ctx, with+`
		SELECT e.scanned_at, e.is_bot, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.country, `+known+`
		FROM `+from+` WHERE `+cond, args, func(scan func(...any) error) error {
		var e ScanEvent
		var rolled bool
		if err := scan(scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &rolled); err != nil {
			return err
		}
		k := rollupKey{day: utcDay(e.ScannedAt), bot: e.IsBot}
		d := tallyOf(days, k)
		d.add(&e)
		if v := (visit{day: k.day, bot: k.bot, hash: e.VisitorHash}); v.hash != "" && !seen[v] {
			seen[v] = true
			if rolled {
				return nil
			}
			seen[v] = true
			d.Visitors++
		}
		return nil
	})
	for k, d := range days {
		sum.addDay(k, d, q.Bots)
	}
	if err != nil {
		return fail("read scans", err)
	}
	return nil
}

// ScanCount counts the scans q picks, for the comparison with the
// previous period.
func (s *Store) ScanCount(ctx context.Context, q ScanQuery) (int64, error) {
	var total int64
	err := s.inSnapshot(ctx, func(tx rollupTx, rolled int64) error {
		for _, part := range q.parts(rolled) {
			var query string
			var args []any
			if part.after < 0 {
				var t rollupTable
				var where string
				t, where, args = part.rollupWhere()
				if !q.Bots {
					where += ` AND NOT is_bot`
				}
				query = `SELECT COALESCE(sum(scans), 0) FROM ` + t.name + ` ` + where
			} else {
				var cond, with, from string
				cond, args = part.where(q.Bots)
				with, from, args = part.fromEvents(args)
				query = with + `SELECT count(*) FROM ` + from + ` WHERE ` + cond
			}
			err := tx.each(ctx, query, args, func(scan func(...any) error) error {
				var n int64
				err := scan(&n)
				total += n
				return err
			})
			if err != nil {
				return fail("count scans", err)
			}
		}
		return nil
	})
	return total, err
}

// FirstScan is the quarter hour of the oldest scan q's codes kept, ignoring
// q's range; ok is false when they have none.
func (s *Store) FirstScan(ctx context.Context, q ScanQuery) (first time.Time, ok bool, err error) {
	q.From, q.To = time.Time{}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	found := func(at time.Time) {
		if !ok || at.Before(first) {
			first, ok = at, true
		}
	}
	err = s.inSnapshot(ctx, func(tx rollupTx, rolled int64) error {
		t, where, args := q.rollupWhere()
		// The first day's rows (one per bot flag) and maybe the next day's:
		// any quarter hour of a later day is later than the first day's.
		err := s.eachDay(ctx, tx, daySelect(t)+where+` ORDER BY day LIMIT 2`, args,
			func(k rollupKey, d *dayTally) {
				for quarter := range d.Slots {
					found(k.day.Add(time.Duration(quarter) * 15 * time.Minute))
				}
			})
		if err != nil {
			return err
		}
		tail := q
		tail.after = rolled
		cond, args := tail.where(true)
		with, from, args := tail.fromEvents(args)
		return tx.each(ctx, with+`SELECT min(e.scanned_at) FROM `+from+` WHERE `+cond, args, func(scan func(...any) error) error {
			var at *time.Time
			if err := scan(scanNullTime(&at)); err != nil || at == nil {
				return err
			}
			found(at.Truncate(15 * time.Minute))
			return nil
		})
	})
	if err != nil {
		return time.Time{}, false, fail("find the first scan", err)
	}
	return first, ok, nil
}
