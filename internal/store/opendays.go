package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Open days. A code's day row (scan_code_days) is written once its UTC day
// has closed, not by every batch: in a batch of scans spread over many
// codes, those rows were most of the recorder's cost, and with it of the
// redirect path's CPU (BENCHMARKS.md, "Per-code days written when the day
// closes"). code_days_open holds the first open day. The recorder adds a
// batch to the code rows of closed days only (late scans, after an
// outage); the per-code views read the events of the open days, which
// are at most a day and a bit of one code's scans. The user's rows
// (scan_workspace_days), which a batch meets once per user, and the visitor
// sets stay up to date with every batch. CloseScanDays closes a day by
// counting its events: it replaces whatever rows the day has.
//
// On PostgreSQL, closing holds closeLock exclusively, and every writer of
// the rollups holds it shared (rollupLock) before it reads the open day,
// so a batch either commits before a day is counted or sees it closed.

// closeGrace is how long after a UTC day ends it is closed: scans held by
// the recorder for a few seconds still land in an open day.
const closeGrace = 10 * time.Minute

// closeLock is the advisory lock of code_days_open: below every user's
// rollup lock (user id + 1<<40), above hashtext's int4 range.
const closeLock = 1 << 40

// farFuture is an open day no scan reaches: every day closed.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

const openDaySQL = `SELECT day FROM code_days_open`

// openDay reads the first open day.
func (s *Store) openDay(ctx context.Context, tx rollupTx) (time.Time, error) {
	var day time.Time
	found := false
	err := tx.each(ctx, openDaySQL, nil, func(scan func(...any) error) error {
		found = true
		return scan(scanTime(&day))
	})
	if err == nil && !found {
		err = errors.New("code_days_open has no row")
	}
	return day.UTC(), err
}

// openCodeDays is migration 0016's Go step: today is the first open day.
func (s *Store) openCodeDays(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO code_days_open (id, day) VALUES (1, $1)`, dbTime(utcDay(time.Now())))
	return err
}

// CloseScanDays closes every open day that ended closeGrace or more before
// now, a day per transaction, and reports how many it closed; then, for up
// to countryWorkBudget, counts back and refreshes the workspaces' country
// rows (countrydays.go). The recorder calls it about once a minute; any
// instance may.
func (s *Store) CloseScanDays(ctx context.Context, now time.Time) (int, error) {
	for n := 0; ; n++ {
		closed, err := s.closeDay(ctx, now)
		if err != nil {
			return n, err
		}
		if !closed {
			_, err := s.CatchUpCountryDays(ctx, time.Now().Add(countryWorkBudget))
			return n, err
		}
	}
}

// closeDay writes the first open day's code rows and country rows from its
// events and opens the next day, if that day is due.
func (s *Store) closeDay(ctx context.Context, now time.Time) (closed bool, err error) {
	err = s.inTx(ctx, "close a day of scans", func(tx *sql.Tx) error {
		rtx := sqlTx{tx}
		if err := s.xactLock(ctx, tx, `$1`, closeLock); err != nil {
			return fail("close a day of scans", err)
		}
		day, err := s.openDay(ctx, rtx)
		if err != nil {
			return fail("close a day of scans", err)
		}
		next := day.AddDate(0, 0, 1)
		if now.Before(next.Add(closeGrace)) {
			return nil
		}
		rows, countries, err := s.countDay(ctx, rtx, day, true)
		if err != nil {
			return fail("close a day of scans", err)
		}
		if err := s.writeCountryDays(ctx, rtx, countries); err != nil {
			return fail("close a day of scans", err)
		}
		var keep [][]any
		for k, d := range rows {
			keep = append(keep, []any{k.owner, dbTime(k.day), k.bot, d.Scans, d.encode()})
		}
		if len(keep) > 0 {
			if err := rtx.exec(ctx, s.rollup.writeDays[codeDays], s.rowsArgs(dayKinds, keep)...); err != nil {
				return fail("close a day of scans", err)
			}
		}
		if err := rtx.exec(ctx, `UPDATE code_days_open SET day = $1`, dbTime(next)); err != nil {
			return fail("close a day of scans", err)
		}
		closed = true
		return nil
	})
	return closed, err
}

// countDay tallies the events of live codes on a UTC day: per code and
// bot flag, visitors included (what the day's code rows hold), with
// codeRows; and per workspace, country and bot flag (its country rows,
// countrydays.go). One index seek per live code.
func (s *Store) countDay(ctx context.Context, tx rollupTx, day time.Time, codeRows bool) (map[rollupKey]*dayTally, map[countryKey]*dayTally, error) {
	codes, countries := newDayCounter[rollupKey](), newDayCounter[countryKey]()
	err := tx.each(ctx, `
		SELECT e.dynamic_qr_code_id, d.workspace_id, e.scanned_at, e.is_bot, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.country, e.region, e.city, e.route
		FROM dynamic_qr_codes d JOIN scan_events e ON e.dynamic_qr_code_id = d.id
		WHERE NOT d.is_deleted AND e.scanned_at >= $1 AND e.scanned_at < $2`,
		[]any{dbTime(day), dbTime(day.AddDate(0, 0, 1))}, func(scan func(...any) error) error {
			var e ScanEvent
			var ws int64
			if err := scan(&e.CodeID, &ws, scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
				return err
			}
			if codeRows {
				codes.add(rollupKey{e.CodeID, day, e.IsBot}, &e)
			}
			countries.add(countryKey{rollupKey{ws, day, e.IsBot}, e.Country}, &e)
			return nil
		})
	return codes.tallies, countries.tallies, err
}

// recountRestoredCode writes the closed-day rows of code, whose deletion
// in workspace ws is being undone, for the days closed since it was
// deleted (a day closes closeGrace after it ends), from its events:
// closing those days skipped it, so its views, and its tags' and folder's
// rows summed from them when it rejoins, would lack their scans. Their
// country rows are marked stale for the same reason. The undo calls it
// before restoring the code, under the workspace's rollup lock, so no day
// closes meanwhile.
func (s *Store) recountRestoredCode(ctx context.Context, tx *sql.Tx, ws, code int64) error {
	var deleted *time.Time
	if err := tx.QueryRowContext(ctx, `SELECT deleted_at FROM dynamic_qr_codes WHERE id = $1`, code).Scan(scanNullTime(&deleted)); err != nil || deleted == nil {
		return err
	}
	rtx := sqlTx{tx}
	open, err := s.openDay(ctx, rtx)
	if err != nil {
		return err
	}
	from := utcDay(deleted.Add(-closeGrace))
	if !from.Before(open) {
		return nil
	}
	days := newDayCounter[rollupKey]()
	err = rtx.each(ctx, `SELECT scanned_at, is_bot, device_type, os, browser, referrer, visitor_hash, country, region, city, route
		FROM scan_events WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2 AND scanned_at < $3`,
		[]any{code, dbTime(from), dbTime(open)}, func(scan func(...any) error) error {
			e := ScanEvent{CodeID: code}
			if err := scan(scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
				return err
			}
			days.add(rollupKey{code, utcDay(e.ScannedAt), e.IsBot}, &e)
			return nil
		})
	if err != nil {
		return err
	}
	var keep [][]any
	for k, d := range days.tallies {
		keep = append(keep, []any{k.owner, dbTime(k.day), k.bot, d.Scans, d.encode()})
	}
	if len(keep) > 0 {
		if err := rtx.exec(ctx, s.rollup.writeDays[codeDays], s.rowsArgs(dayKinds, keep)...); err != nil {
			return err
		}
	}
	return s.markRestoredDays(ctx, rtx, ws, from, open)
}

// codeEventsAfter tallies a code's events from open on, per UTC day and
// bot flag, without visitors: its share of its owner's rows in the open
// days, which a deletion takes out.
func (s *Store) codeEventsAfter(ctx context.Context, tx rollupTx, userID, codeID int64, open time.Time) (map[rollupKey]*dayTally, error) {
	days := map[rollupKey]*dayTally{}
	err := tx.each(ctx, `
		SELECT scanned_at, is_bot, device_type, os, browser, referrer, country, region, city, route
		FROM scan_events WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2`,
		[]any{codeID, dbTime(open)}, func(scan func(...any) error) error {
			var e ScanEvent
			if err := scan(scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
				return err
			}
			tallyOf(days, rollupKey{userID, utcDay(e.ScannedAt), e.IsBot}).add(&e)
			return nil
		})
	return days, err
}

// splitOpen is q.split with, for a code, a tag or a folder, the open days
// of the whole-day range moved to the events: their rows are not written
// yet. rolled is the first day the rollup rows q reads do not cover
// (farFuture for the workspace's, always up to date; zero when not read).
func (s *Store) splitOpen(ctx context.Context, q ScanQuery) (days ScanQuery, edges []ScanQuery, rolled time.Time, err error) {
	days, edges = q.split()
	if !q.perCode() {
		return days, edges, farFuture, nil
	}
	if g, id, ok := q.group(); ok {
		// Its rows are read for the retention's edges too, so always
		// brought up to date; the days they do not cover count as open.
		if rolled, err = s.freshGroup(ctx, g, id); err != nil {
			return days, nil, rolled, err
		}
	}
	if !days.From.Before(days.To) {
		return days, edges, rolled, nil
	}
	if rolled.IsZero() {
		if rolled, err = s.openDay(ctx, sqlTx{s.read}); err != nil {
			return days, nil, rolled, fail("read the open day", err)
		}
	}
	if days.To.After(rolled) {
		e := days
		if rolled.After(e.From) {
			e.From = rolled
		}
		days.To = e.From
		edges = append(edges, e)
	}
	return days, edges, rolled, nil
}
