package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// A workspace's scans by country (issue 37). A country's view of a
// workspace (ScanQuery.ByCountry) used to read every scan event of its
// range, at a cost that followed the range's scans: seconds for ninety
// days at ten million. scan_workspace_country_days holds one row per
// workspace, country, closed UTC day and bot flag with the day row's
// breakdowns of that country's scans, its visitors included (a visitor's
// hash is one address's of one day, so one country's). They are written
// when a day closes, from the events closeDay reads anyway, never by the
// recorder's batches: the redirect path pays nothing for them.
//
// The rows begin at scan_country_days_from, the first open day when they
// were added; the recorder's minute tick counts the days before it back,
// a day per transaction, down to the oldest kept scan (CatchUpCountryDays).
// A closed day whose scans change afterwards (late scans after an outage,
// a code's deletion, move or undone deletion) is marked stale in its
// workspace (scan_workspace_stale_days, as for the quarters, quarters.go):
// a view reads that day from its events until refreshStaleDay counts it
// again, which the tick does too. A code's, a tag's and a folder's views
// read rows by country their views build (countryrollups.go).

// countryKey picks a row of scan_workspace_country_days: a workspace's
// UTC day, bot flag and country ("" for none found).
type countryKey struct {
	rollupKey
	country string
}

// countryDayKinds are the columns of writeCountryDays' rows.
var countryDayKinds = []string{"bigint", "text", "timestamptz", "boolean", "bigint", "text"}

// countryWorkBudget bounds the tick's counting back and refreshing: the
// recorder's batches wait meanwhile.
const countryWorkBudget = time.Second

// startCountryDays starts the country rows at the first open day: the Go
// step of migration 0062, in its transaction.
func (s *Store) startCountryDays(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO scan_country_days_from (id, day) SELECT 1, day FROM code_days_open`)
	return err
}

// countryDaysFrom reads the first day the country rows hold.
func (s *Store) countryDaysFrom(ctx context.Context, tx rollupTx) (time.Time, error) {
	var day time.Time
	err := tx.each(ctx, `SELECT day FROM scan_country_days_from`, nil, func(scan func(...any) error) error {
		return scan(scanTime(&day))
	})
	return day.UTC(), err
}

// writeCountryDays writes rows, each in place of any it had.
func (s *Store) writeCountryDays(ctx context.Context, tx rollupTx, rows map[countryKey]*dayTally) error {
	if len(rows) == 0 {
		return nil
	}
	list := make([][]any, 0, len(rows))
	for k, d := range rows {
		list = append(list, []any{k.owner, k.country, dbTime(k.day), k.bot, d.Scans, d.encode()})
	}
	return tx.exec(ctx, `INSERT INTO scan_workspace_country_days (workspace_id, country, day, is_bot, scans, tally)
		SELECT c0, c1, c2, c3, c4, c5 FROM `+s.rowsSQL(1, countryDayKinds)+` r WHERE true
		ON CONFLICT (workspace_id, country, day, is_bot) DO UPDATE SET scans = excluded.scans, tally = excluded.tally`,
		s.rowsArgs(countryDayKinds, list)...)
}

// markLateDays marks stale the closed days, from the first the country
// rows hold, that late scans reach (owner and day of each late event's
// rollupKey): their country rows lack them.
func (s *Store) markLateDays(ctx context.Context, tx rollupTx, late map[rollupKey]bool) error {
	if len(late) == 0 {
		return nil
	}
	from, err := s.countryDaysFrom(ctx, tx)
	if err != nil {
		return err
	}
	var rows [][]any
	for k := range late {
		if !k.day.Before(from) {
			rows = append(rows, []any{k.owner, dbTime(k.day)})
		} else {
			// A day before the rows (an import's, a long outage's): the
			// tick counts back again, should it be before the first.
			s.earlierScans.Add(1)
		}
	}
	return s.insertStaleDays(ctx, tx, rows)
}

// markRestoredDays marks stale, in workspace ws, the closed days [from,
// open) that the country rows hold: closing counted them without a code
// whose deletion is being undone (recountRestoredCode).
func (s *Store) markRestoredDays(ctx context.Context, tx rollupTx, ws int64, from, open time.Time) error {
	held, err := s.countryDaysFrom(ctx, tx)
	if err != nil {
		return err
	}
	var rows [][]any
	for day := later(from, held); day.Before(open); day = day.AddDate(0, 0, 1) {
		rows = append(rows, []any{ws, dbTime(day)})
	}
	return s.insertStaleDays(ctx, tx, rows)
}

// CatchUpCountryDays counts back the days before the country rows begin
// and refreshes the stale days they hold, until both are done (done) or
// the deadline passes. CloseScanDays does it for up to countryWorkBudget
// each time; a tool may call it until done.
func (s *Store) CatchUpCountryDays(ctx context.Context, deadline time.Time) (done bool, err error) {
	if gen := s.earlierScans.Load(); s.countedBack.Load() != gen+1 {
		// The first day with scans: read once a call, not once a day,
		// since no index answers it.
		var first *time.Time
		if err := s.read.QueryRowContext(ctx, `SELECT min(day) FROM scan_workspace_days`).Scan(scanNullTime(&first)); err != nil {
			return false, fail("find the first day of scans", err)
		}
		if first == nil {
			return true, nil // no scans yet
		}
		for more := true; more; {
			if !time.Now().Before(deadline) {
				return false, nil
			}
			if more, err = s.countBackCountryDay(ctx, first.UTC()); err != nil {
				return false, err
			}
		}
		s.countedBack.Store(gen + 1)
	}
	return s.refreshStaleDays(ctx, deadline)
}

// countBackCountryDay writes the country rows of the day before the first
// they hold and makes it the first, unless that day is before the oldest
// kept scan or before first, every scan's; more reports whether it wrote
// one. Like
// closing a day it holds closeLock alone, so no batch adds to that day
// meanwhile: a late scan that comes after sees the day held, and marks it.
func (s *Store) countBackCountryDay(ctx context.Context, first time.Time) (more bool, err error) {
	err = s.inTx(ctx, "count a day's scans by country", func(tx *sql.Tx) error {
		rtx := sqlTx{tx}
		if err := s.xactLock(ctx, tx, `$1`, closeLock); err != nil {
			return fail("count a day's scans by country", err)
		}
		var from, kept time.Time
		err := tx.QueryRowContext(ctx, `SELECT (SELECT day FROM scan_country_days_from), (SELECT events_from FROM scan_retention)`).
			Scan(scanTime(&from), scanTime(&kept))
		if err != nil {
			return fail("count a day's scans by country", err)
		}
		day := from.UTC().AddDate(0, 0, -1)
		if day.Before(first) || day.Before(kept.UTC()) {
			return nil
		}
		_, countries, err := s.countDay(ctx, rtx, day, false)
		if err == nil {
			err = s.writeCountryDays(ctx, rtx, countries)
		}
		if err == nil {
			err = rtx.exec(ctx, `UPDATE scan_country_days_from SET day = $1`, dbTime(day))
		}
		more = err == nil
		return failOrNil("count a day's scans by country", err)
	})
	return more, err
}

// staleBatch is how many stale days refreshStaleDays lists at a time.
const staleBatch = 100

// refreshStaleDays refreshes the stale days the country rows hold whose
// events are kept, the latest first, until none is left (done) or the
// deadline passes.
func (s *Store) refreshStaleDays(ctx context.Context, deadline time.Time) (done bool, err error) {
	type staleDay struct {
		ws  int64
		day time.Time
	}
	for {
		var list []staleDay
		err := s.eachRow(ctx, "list stale days", `SELECT workspace_id, day FROM scan_workspace_stale_days
			WHERE day >= (SELECT day FROM scan_country_days_from) AND day >= (SELECT events_from FROM scan_retention)
				AND day < (SELECT day FROM code_days_open)
			ORDER BY day DESC, workspace_id LIMIT `+strconv.Itoa(staleBatch), nil, func(rows *sql.Rows) error {
			var d staleDay
			err := rows.Scan(&d.ws, scanTime(&d.day))
			list = append(list, d)
			return err
		})
		if err != nil {
			return false, err
		}
		for _, d := range list {
			if !time.Now().Before(deadline) {
				return false, nil
			}
			if err := s.refreshStaleDay(ctx, d.ws, d.day.UTC()); err != nil {
				return false, err
			}
		}
		if len(list) < staleBatch {
			return true, nil
		}
	}
}

// recountCountryDay writes again a workspace's country rows of a closed
// day held by the rows, from countries (its events' tallies), under its
// rollup lock; other days are left alone.
func (s *Store) recountCountryDay(ctx context.Context, tx rollupTx, ws int64, day time.Time, countries map[countryKey]*dayTally) error {
	from, err := s.countryDaysFrom(ctx, tx)
	if err != nil {
		return err
	}
	open, err := s.openDay(ctx, tx)
	if err != nil || day.Before(from) || !day.Before(open) {
		return err
	}
	if err := tx.exec(ctx, `DELETE FROM scan_workspace_country_days WHERE workspace_id = $1 AND day = $2`, ws, dbTime(day)); err != nil {
		return err
	}
	return s.writeCountryDays(ctx, tx, countries)
}

// countryRows is the whole UTC days a view of one country reads from
// rows: the workspace's country rows but its stale days, or the rows of
// a code's, a tag's or a folder's rollup by country (countryrollups.go).
type countryRows struct {
	ScanQuery
	stale  map[time.Time]bool
	rollup int64 // scan_country_rollups' id; 0 for the workspace's rows
}

// countryParts splits q, a view of one country's scans, into the whole
// UTC days it reads from rows (none when no rows hold any of its days)
// and the spans it reads from the events: the rest of the range. For a
// code's, a tag's or a folder's view, build brings their rows up to date
// first; without it, the events also list what that would read.
func (s *Store) countryParts(ctx context.Context, q ScanQuery, build bool) (rows countryRows, events []ScanQuery, err error) {
	if q.perCode() {
		return s.scopeCountryParts(ctx, q, build)
	}
	days, edges := q.split()
	if !days.From.Before(days.To) {
		return countryRows{}, edges, nil
	}
	var from, open time.Time
	err = s.read.QueryRowContext(ctx, `SELECT (SELECT day FROM scan_country_days_from), (SELECT day FROM code_days_open)`).
		Scan(scanTime(&from), scanTime(&open))
	if err != nil {
		return rows, nil, fail("read the country rows' days", err)
	}
	rows.ScanQuery = days
	rows.From, rows.To = later(days.From, from.UTC()), earlier(days.To, open.UTC())
	if !rows.From.Before(rows.To) {
		return countryRows{}, append(edges, days), nil
	}
	events = edges
	span := func(from, to time.Time) {
		if from.Before(to) {
			e := q
			e.From, e.To = from, to
			events = append(events, e)
		}
	}
	span(days.From, rows.From)
	span(rows.To, days.To)
	// Stale days, a span of events each run of them.
	run := -1
	rows.stale = map[time.Time]bool{}
	err = s.eachRow(ctx, "read stale days", `SELECT day FROM scan_workspace_stale_days WHERE workspace_id = $1 AND day >= $2 AND day < $3 ORDER BY day`,
		[]any{q.WorkspaceID, dbTime(rows.From), dbTime(rows.To)}, func(r *sql.Rows) error {
			var day time.Time
			if err := r.Scan(scanTime(&day)); err != nil {
				return err
			}
			day = day.UTC()
			rows.stale[day] = true
			if run >= 0 && events[run].To.Equal(day) {
				events[run].To = day.AddDate(0, 0, 1)
				return nil
			}
			span(day, day.AddDate(0, 0, 1))
			run = len(events) - 1
			return nil
		})
	return rows, joinSpans(events), err
}

// joinSpans joins the spans that meet, in time order: each costs an index
// seek per code of the workspace.
func joinSpans(spans []ScanQuery) []ScanQuery {
	slices.SortFunc(spans, func(a, b ScanQuery) int { return a.From.Compare(b.From) })
	var out []ScanQuery
	for _, e := range spans {
		if n := len(out); n > 0 && out[n-1].To.Equal(e.From) {
			out[n-1].To = e.To
			continue
		}
		out = append(out, e)
	}
	return out
}

// countryRetries bounds how often a view of one country starts again
// because the rows it read changed meanwhile: each time another view
// brought them up to date, so a few tries are plenty unless they are
// changing all the time (errRowsChanging).
const countryRetries = 10

var errRowsChanging = errors.New("store: scans by country changed while they were read: try again")

// countryReport is ScanReport of q, a view of one country's scans: its
// whole days from their rows (countryParts), the rest from the events.
func (s *Store) countryReport(ctx context.Context, q ScanQuery) (*ScanReport, error) {
	for try := 0; ; try++ {
		rows, events, err := s.countryParts(ctx, q, true)
		if err == nil && try == countryRetries {
			err = errRowsChanging
		}
		if err != nil {
			return nil, err
		}
		sum := newReportSum()
		ok, err := s.eachCountryDay(ctx, rows, func(k rollupKey, d *dayTally) { sum.addDay(k, d, q.Bots) })
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for _, e := range events {
			if err := s.addEvents(ctx, e, sum); err != nil {
				return nil, err
			}
		}
		return sum.report(), nil
	}
}

// countryScanCount is ScanCount of q, a view of one country's scans: its
// whole days summed from their rows' scans (countryParts), a workspace's
// part days from its quarter rows, which count each quarter's scans by
// country, where they hold them (addQuarterEdge), the rest from the
// events.
func (s *Store) countryScanCount(ctx context.Context, q ScanQuery) (int64, error) {
	for try := 0; ; try++ {
		rows, events, err := s.countryParts(ctx, q, true)
		if err == nil && try == countryRetries {
			err = errRowsChanging
		}
		if err != nil {
			return 0, err
		}
		var total int64
		ok, err := s.eachCountryRow(ctx, rows, false, func(_ time.Time, bot bool, scans int64, _ string) error {
			if q.Bots || !bot {
				total += scans
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		kept := farFuture
		if len(events) > 0 && !q.perCode() {
			if kept, err = s.EventsFrom(ctx); err != nil {
				return 0, err
			}
		}
		for _, e := range events {
			// A stale day's quarters are rebuilt from its events, which must
			// be kept.
			if !e.From.Before(kept) {
				sum := newReportSum()
				ok, err := s.addQuarterEdge(ctx, e, sum)
				if err != nil {
					return 0, err
				}
				if ok {
					total += sum.r.Countries[e.Country]
					continue
				}
			}
			n, err := s.countEvents(ctx, e)
			if err != nil {
				return 0, err
			}
			total += n
		}
		return total, nil
	}
}

// eachCountryDay calls fn with each row of rows' days but the stale ones;
// ok is false when it should be called again (eachCountryRow).
func (s *Store) eachCountryDay(ctx context.Context, rows countryRows, fn func(rollupKey, *dayTally)) (ok bool, err error) {
	return s.eachCountryRow(ctx, rows, true, func(day time.Time, bot bool, _ int64, body string) error {
		d, err := decodeTally(body)
		if err != nil {
			return fmt.Errorf("scans by country on %s: %w", day, err)
		}
		fn(rollupKey{rows.rollup, day, bot}, d)
		return nil
	})
}

// eachCountryRow calls fn with the day, bot flag, scans and, with
// tallies, the tally of each row of rows' days but the stale ones. A
// rollup's rows are read in one statement with the days it covers, so a
// view's build meanwhile, which may start them later, cannot hide any
// unseen: ok is false when they no longer cover rows' days, and fn has
// not been called.
func (s *Store) eachCountryRow(ctx context.Context, rows countryRows, tallies bool, fn func(day time.Time, bot bool, scans int64, tally string) error) (ok bool, err error) {
	if !rows.From.Before(rows.To) {
		return true, nil
	}
	tally := func(column string) string {
		if tallies {
			return column
		}
		return `''`
	}
	if rows.rollup == 0 {
		err := s.eachRow(ctx, "read scans by country", `SELECT day, is_bot, scans, `+tally("tally")+` FROM scan_workspace_country_days
			WHERE workspace_id = $1 AND country = $2 AND day >= $3 AND day < $4`,
			[]any{rows.WorkspaceID, rows.Country, dbTime(rows.From), dbTime(rows.To)}, func(r *sql.Rows) error {
				var day time.Time
				var bot bool
				var n int64
				var body string
				if err := r.Scan(scanTime(&day), &bot, &n, &body); err != nil || rows.stale[day.UTC()] {
					return err
				}
				return fn(day.UTC(), bot, n, body)
			})
		return err == nil, err
	}
	seen, covered := false, true
	err = s.eachRow(ctx, "read scans by country", `SELECT r.from_day, r.through, d.day, d.is_bot, d.scans, `+tally("d.tally")+`
		FROM scan_country_rollups r LEFT JOIN scan_country_rollup_days d ON d.rollup_id = r.id AND d.day >= $2 AND d.day < $3
		WHERE r.id = $1`, []any{rows.rollup, dbTime(rows.From), dbTime(rows.To)}, func(r *sql.Rows) error {
		var from, through time.Time
		var day *time.Time
		var bot sql.NullBool
		var n sql.NullInt64
		var body sql.NullString
		if err := r.Scan(scanTime(&from), scanTime(&through), scanNullTime(&day), &bot, &n, &body); err != nil {
			return err
		}
		seen = true
		covered = covered && !from.After(rows.From) && !through.Before(rows.To)
		if day == nil || !covered {
			return nil // no rows in the range, or not these rows
		}
		return fn(day.UTC(), bot.Bool, n.Int64, body.String)
	})
	// Not seen: the rollup is gone since it was built, with its scope.
	return seen && covered && err == nil, err
}

// CountryEventScans counts, bots included, the scans of every country in
// the part of q's range that q, a view of one country's scans, reads
// from the events, and of what building a code's, a tag's or a folder's
// rows by country for it would read: what the view costs.
func (s *Store) CountryEventScans(ctx context.Context, q ScanQuery) (int64, error) {
	_, events, err := s.countryParts(ctx, q, false)
	var total int64
	for _, e := range events {
		if err != nil {
			break
		}
		e.ByCountry, e.Bots = false, true
		var n int64
		n, err = s.ScanCount(ctx, e)
		total += n
	}
	return total, err
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
