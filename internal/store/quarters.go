package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// A workspace's quarter hours (issue 37). A view of local days starts and
// ends inside UTC days, and those part days used to come from the scan
// events of every live code of the workspace: at ten million scans, one
// index range per code and up to a day's events at each end of every
// range. The recorder also adds each scan to its workspace's row of the
// quarter hour (scan_workspace_quarters: the day rows' breakdowns, without
// visitors) and notes in scan_workspace_visitors the first and last
// quarter of its UTC day in which each visitor scanned the workspace. A
// part day that starts or ends its UTC day, as a local day's ends do in
// any zone whose offset is whole quarter hours, then reads at most 96 rows
// a bot flag, and counts its visitors as those that last scanned after its
// start, or first scanned before its end: exactly as the events would.
//
// A code's deletion or move takes its scans out of the day rows but cannot
// take them out of the visitor quarters, so the days it had scans on are
// marked stale in its workspaces (scan_workspace_stale_days), as are the
// closed days late scans reach, whose country rows lack them
// (countrydays.go): the first view of such a day's parts, or the
// recorder's tick, rebuilds its quarters from the events
// (refreshStaleDay). The workspaces that existed before the quarters read
// the events for the days before them (workspace_quarters_since).

var userQuarters = rollupTable{"scan_workspace_quarters", "workspace_id", "quarter"}

// visitorDay is a visitor of a workspace's UTC day.
type visitorDay struct {
	user int64
	day  time.Time
	bot  bool
	hash string
}

// visitorSpans are the first and last quarters of their days in which a
// batch saw each visitor.
type visitorSpans map[visitorDay][2]int

func (v visitorSpans) add(user int64, day time.Time, e *ScanEvent) {
	k := visitorDay{user, day, e.IsBot, e.VisitorHash}
	q := quarterOfDay(e.ScannedAt)
	span, ok := v[k]
	if !ok {
		span = [2]int{q, q}
	}
	v[k] = [2]int{min(span[0], q), max(span[1], q)}
}

// quarterKinds are the columns of visitorQuarters' rows.
var quarterKinds = []string{"bigint", "timestamptz", "boolean", "text", "bigint", "bigint"}

// visitorQuartersSQL widens the visitors' rows (added before it) to the
// quarters a batch saw them in, or, without widen, sets them to those.
func (s *Store) visitorQuartersSQL(widen bool) string {
	first, last := "r.c4", "r.c5"
	if widen {
		lower, upper := "min", "max"
		if s.dialect == Postgres {
			lower, upper = "least", "greatest"
		}
		first, last = lower+"(first_quarter, r.c4)", upper+"(last_quarter, r.c5)"
	}
	return `UPDATE scan_workspace_visitors SET first_quarter = ` + first + `, last_quarter = ` + last + `
		FROM ` + s.rowsSQL(1, quarterKinds) + ` r
		WHERE workspace_id = r.c0 AND day = r.c1 AND is_bot = r.c2 AND visitor_hash = r.c3`
}

func (s *Store) widenVisitorQuarters(ctx context.Context, tx rollupTx, spans visitorSpans) error {
	return s.writeVisitorQuarters(ctx, tx, s.rollup.visitorQuarters, spans)
}

// writeVisitorQuarters runs a visitorQuartersSQL statement over spans.
func (s *Store) writeVisitorQuarters(ctx context.Context, tx rollupTx, statement string, spans visitorSpans) error {
	if len(spans) == 0 {
		return nil
	}
	rows := make([][]any, 0, len(spans))
	for k, span := range spans {
		rows = append(rows, []any{k.user, dbTime(k.day), k.bot, k.hash, int64(span[0]), int64(span[1])})
	}
	return tx.exec(ctx, statement, s.rowsArgs(quarterKinds, rows)...)
}

// addQuarterEdge adds part day e of a workspace's view to sum from its
// quarter rows, when they can answer it (see above); ok is false when
// they cannot, and the caller reads the events. The caller asks only for
// days whose events are kept, so a stale day has its quarters rebuilt
// first.
func (s *Store) addQuarterEdge(ctx context.Context, e ScanQuery, sum *reportSum) (ok bool, err error) {
	day := utcDay(e.From)
	next := day.AddDate(0, 0, 1)
	prefix, suffix := e.From.Equal(day), e.To.Equal(next)
	if e.perCode() || !quarterHour(e.From) || !quarterHour(e.To) || e.To.After(next) || prefix == suffix {
		return false, nil
	}
	// Whether the quarters hold the day: from when they started, and not
	// a day a code's scans left.
	var since *time.Time
	var stale int
	err = s.read.QueryRowContext(ctx, `SELECT (SELECT since FROM workspace_quarters_since WHERE workspace_id = $1),
		(SELECT count(*) FROM scan_workspace_stale_days WHERE workspace_id = $1 AND day = $2)`,
		e.WorkspaceID, dbTime(day)).Scan(scanNullTime(&since), &stale)
	if err != nil {
		return false, fail("read the workspace's quarters", err)
	}
	if since != nil && e.From.Before(*since) {
		return false, nil
	}
	if stale > 0 {
		if err := s.refreshStaleDay(ctx, e.WorkspaceID, day); err != nil {
			return false, err
		}
	}
	err = s.eachDay(ctx, sqlTx{s.read}, daySelect(userQuarters)+`WHERE workspace_id = $1 AND quarter >= $2 AND quarter < $3`,
		[]any{e.WorkspaceID, dbTime(e.From), dbTime(e.To)}, func(k rollupKey, d *dayTally) {
			k.day = utcDay(k.day) // its slots are quarters of the UTC day
			sum.addDay(k, d, e.Bots)
		})
	if err != nil {
		return false, fail("read scan quarters", err)
	}
	// Who scanned in the part: after its start, or before its end.
	visited := fmt.Sprintf(`last_quarter >= %d`, quarterOfDay(e.From))
	if prefix {
		visited = fmt.Sprintf(`first_quarter < %d`, quarterOfDay(e.To))
	}
	err = s.eachRow(ctx, "count a part day's visitors", `SELECT is_bot, count(*) FROM scan_workspace_visitors
		WHERE workspace_id = $1 AND day = $2 AND `+visited+` GROUP BY is_bot`, []any{e.WorkspaceID, dbTime(day)}, func(rows *sql.Rows) error {
		var bot bool
		var n int64
		if err := rows.Scan(&bot, &n); err != nil {
			return err
		}
		sum.addDay(rollupKey{owner: e.WorkspaceID, day: day, bot: bot}, &dayTally{Visitors: n}, e.Bots)
		return nil
	})
	return err == nil, err
}

// refreshStaleDay rebuilds the quarter rows, the visitor quarters and the
// country rows (countrydays.go) of a workspace's stale UTC day from its
// live codes' scan events, which must be kept for the day, and clears the
// mark: the first view of the day's parts (or the recorder's tick) reads
// the events once, in place of every view for good. Under the workspace's
// rollup lock, so no batch adds to the day meanwhile.
func (s *Store) refreshStaleDay(ctx context.Context, ws int64, day time.Time) error {
	from, to := dbTime(day), dbTime(day.AddDate(0, 0, 1))
	return s.inTx(ctx, "refresh a stale day's quarters", func(dbTx *sql.Tx) error {
		tx := sqlTx{dbTx}
		if err := s.rollupLock(ctx, tx, []int64{ws}); err != nil {
			return err
		}
		var stale int
		err := dbTx.QueryRowContext(ctx, `SELECT count(*) FROM scan_workspace_stale_days WHERE workspace_id = $1 AND day = $2`, ws, from).Scan(&stale)
		if err != nil || stale == 0 {
			return err // none: another view refreshed it
		}
		quarters, spans, countries := map[rollupKey]*dayTally{}, visitorSpans{}, newDayCounter[countryKey]()
		err = tx.each(ctx, `SELECT e.scanned_at, e.is_bot, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.country, e.region, e.city, e.route
			FROM scan_events e WHERE e.scanned_at >= $1 AND e.scanned_at < $2
				AND e.dynamic_qr_code_id IN (SELECT id FROM dynamic_qr_codes WHERE workspace_id = $3 AND NOT is_deleted)`,
			[]any{from, to, ws}, func(scan func(...any) error) error {
				var e ScanEvent
				if err := scan(scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
					return err
				}
				tallyOf(quarters, rollupKey{ws, e.ScannedAt.UTC().Truncate(15 * time.Minute), e.IsBot}).add(&e)
				countries.add(countryKey{rollupKey{ws, day, e.IsBot}, e.Country}, &e)
				if e.VisitorHash != "" {
					spans.add(ws, day, &e)
				}
				return nil
			})
		if err != nil {
			return err
		}
		if err := tx.exec(ctx, `DELETE FROM scan_workspace_quarters WHERE workspace_id = $1 AND quarter >= $2 AND quarter < $3`, ws, from, to); err != nil {
			return err
		}
		if err := s.applyDays(ctx, tx, userQuarters, quarters, 1); err != nil {
			return err
		}
		if err := s.writeVisitorQuarters(ctx, tx, s.visitorQuartersSQL(false), spans); err != nil {
			return err
		}
		if err := s.recountCountryDay(ctx, tx, ws, day, countries.tallies); err != nil {
			return err
		}
		if err := tx.exec(ctx, `DELETE FROM scan_workspace_stale_days WHERE workspace_id = $1 AND day = $2`, ws, from); err != nil {
			return err
		}
		return outdateWriterCaches(ctx, tx, ws)
	})
}

// staleDayKinds are the columns of markStaleDays' rows.
var staleDayKinds = []string{"bigint", "timestamptz"}

// markStaleDays marks the days of a code's scans (the keys of days, its
// share of the rollups) stale in the workspaces, in the transaction of the
// change that takes the code's scans out of or into their rollups.
func (s *Store) markStaleDays(ctx context.Context, tx rollupTx, workspaces []int64, days map[rollupKey]*dayTally) error {
	seen := map[time.Time]bool{}
	var rows [][]any
	for k := range days {
		if seen[k.day] {
			continue
		}
		seen[k.day] = true
		for _, ws := range workspaces {
			rows = append(rows, []any{ws, dbTime(k.day)})
		}
	}
	return s.insertStaleDays(ctx, tx, rows)
}

// insertStaleDays marks rows' (workspace, day) stale.
func (s *Store) insertStaleDays(ctx context.Context, tx rollupTx, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	return tx.exec(ctx, `INSERT INTO scan_workspace_stale_days (workspace_id, day)
		SELECT c0, c1 FROM `+s.rowsSQL(1, staleDayKinds)+` r WHERE true ON CONFLICT DO NOTHING`, s.rowsArgs(staleDayKinds, rows)...)
}

// startQuarters dates the quarters of the workspaces that exist when they
// are added: the Go step of migration 0058, in its transaction.
func (s *Store) startQuarters(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO workspace_quarters_since (workspace_id, since) SELECT id, $1 FROM workspaces`, dbTime(time.Now()))
	return err
}
