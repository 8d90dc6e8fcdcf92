package store

import (
	"cmp"
	"context"
	"database/sql"
	"time"
)

// ReadDB and WriteDB expose the pools to the external tests, for checks
// on the schema itself.
func ReadDB(s *Store) *sql.DB  { return s.read }
func WriteDB(s *Store) *sql.DB { return s.write }

// OpenUpTo is Open with the migrations up to version upTo only: a database
// as an older binary left it.
func OpenUpTo(ctx context.Context, databaseURL, dataDir string, upTo int) (*Store, error) {
	return open(ctx, databaseURL, dataDir, upTo)
}

// RecountReport is the report of q counted from the scan events alone,
// what the rollups must always equal.
func RecountReport(ctx context.Context, s *Store, q ScanQuery) (*ScanReport, error) {
	sum := newReportSum()
	if err := s.recount(ctx, q, sum); err != nil {
		return nil, err
	}
	return sum.report(), nil
}

// recount adds the scan events q picks to sum by SQL alone, apart from
// the Go that rolls them up.
func (s *Store) recount(ctx context.Context, q ScanQuery, sum *reportSum) error {
	// The salt of a visitor hash turns over each UTC day: a visitor is a
	// hash of a day (and of a bot flag, which the hashed user agent sets).
	day := map[string]string{
		SQLite:   `substr(e.scanned_at, 1, 10)`,
		Postgres: `to_char(e.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
	}[s.dialect]
	visitor := `CASE WHEN e.is_bot THEN 'b' ELSE 'h' END || ` + day + ` || e.visitor_hash`
	if q.TagID > 0 || q.FolderID > 0 {
		// A tag's or folder's visitors count once per code (ScanQuery.codes).
		visitor = `e.dynamic_qr_code_id || ':' || ` + visitor
	}
	visitors := `count(DISTINCT CASE WHEN NOT e.is_bot AND e.visitor_hash <> '' THEN ` + visitor + ` END)`
	if q.Bots {
		visitors = `count(DISTINCT CASE WHEN e.visitor_hash <> '' THEN ` + visitor + ` END)`
	}
	r := sum.r
	all, args := q.where(true)
	var bots, humans, unique int64
	err := s.read.QueryRowContext(ctx, `
		SELECT COALESCE(sum(CASE WHEN e.is_bot THEN 1 ELSE 0 END), 0),
			COALESCE(sum(CASE WHEN e.is_bot THEN 0 ELSE 1 END), 0), `+visitors+`
		FROM scan_events e WHERE `+all, args...,
	).Scan(&bots, &humans, &unique)
	if err != nil {
		return fail("sum up scans", err)
	}
	r.BotScans += bots
	r.Scans += humans
	if q.Bots {
		r.Scans += bots
	}
	r.UniqueVisitors += unique

	cond, args := q.where(q.Bots)
	slot := map[string]string{
		SQLite: `substr(e.scanned_at, 1, 14) || printf('%02d', CAST(substr(e.scanned_at, 15, 2) AS INTEGER) / 15 * 15)`,
		Postgres: `to_char(date_trunc('hour', e.scanned_at AT TIME ZONE 'UTC')
			+ floor(extract(minute FROM e.scanned_at AT TIME ZONE 'UTC') / 15) * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI')`,
	}[s.dialect]
	err = s.eachRow(ctx, "count scans by quarter hour", `
		SELECT `+slot+` AS slot, count(*) FROM scan_events e WHERE `+cond+`
		GROUP BY slot`, args, func(rows *sql.Rows) error {
		var start string
		var n int64
		if err := rows.Scan(&start, &n); err != nil {
			return err
		}
		t, err := time.Parse(slotLayout, start)
		if err != nil {
			return err
		}
		sum.slots[t] += n
		return nil
	})
	if err != nil {
		return err
	}

	for _, g := range []struct {
		column  string
		into    map[string]int64
		unknown string // the name of ""
	}{
		{"country", r.Countries, ""}, {"referrer", sum.referrers, ""},
		{"device_type", r.Devices, "Unknown"}, {"os", r.OS, "Unknown"}, {"browser", r.Browsers, "Unknown"},
		{"route", r.Routes, RouteDefault},
	} {
		err = s.eachRow(ctx, "count scans by "+g.column, `
			SELECT e.`+g.column+`, count(*) FROM scan_events e WHERE `+cond+`
			GROUP BY e.`+g.column, args, func(rows *sql.Rows) error {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			g.into[cmp.Or(k, g.unknown)] += n
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// RebuildRollups empties the rollups and rolls the scan events up again,
// as migration 0014 does for scans saved before it.
func RebuildRollups(ctx context.Context, s *Store) error {
	return s.inTx(ctx, "rebuild rollups", func(tx *sql.Tx) error {
		// Emptying workspace_rollup_versions puts the writers' caches out of date.
		for _, table := range []string{"scan_code_days", "scan_workspace_days", "scan_visitors", "scan_workspace_visitors", "workspace_rollup_versions",
			"scan_tag_rollups", "scan_folder_rollups", "scan_workspace_quarters", "scan_workspace_stale_days", "workspace_quarters_since",
			"scan_workspace_country_days", "scan_country_rollups"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
				return err
			}
		}
		// The country rows start again at the open day.
		if _, err := tx.ExecContext(ctx, `UPDATE scan_country_days_from SET day = (SELECT day FROM code_days_open)`); err != nil {
			return err
		}
		s.earlierScans.Add(1)
		return s.rollUpEvents(ctx, tx, "route")
	})
}

// SetOpenDay makes day the first open day of the code rollups, as if every
// day before it had closed (its rows are left as they are).
func SetOpenDay(ctx context.Context, s *Store, day time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE code_days_open SET day = $1`, dbTime(day))
	return err
}

// SetCountryDaysFrom makes day the first day the country rows hold (its
// rows and the others are left as they are).
func SetCountryDaysFrom(ctx context.Context, s *Store, day time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE scan_country_days_from SET day = $1`, dbTime(day))
	s.earlierScans.Add(1)
	return err
}

// CountryDaysFrom is the first day the country rows hold.
func CountryDaysFrom(ctx context.Context, s *Store) (time.Time, error) {
	return s.countryDaysFrom(ctx, sqlTx{s.read})
}

// OpenDay is the first open day of the code rollups.
func OpenDay(ctx context.Context, s *Store) (time.Time, error) {
	return s.openDay(ctx, sqlTx{s.read})
}

// CloseGrace is how long after its end a day closes.
const CloseGrace = closeGrace

// WebhookScanReach is how many scan_events ids one scan.created batch
// looks through at most.
const WebhookScanReach = webhookScanWindow * webhookScanWindows

// QuarterEdge is the report of part day q from the workspace's quarter
// rows alone (a stale day's rebuilt first); ok is false when they cannot
// answer it.
func QuarterEdge(ctx context.Context, s *Store, q ScanQuery) (r *ScanReport, ok bool, err error) {
	sum := newReportSum()
	ok, err = s.addQuarterEdge(ctx, q, sum)
	return sum.report(), ok, err
}

// EventsEdge is the report of part day q from its scan events alone.
func EventsEdge(ctx context.Context, s *Store, q ScanQuery) (*ScanReport, error) {
	sum := newReportSum()
	err := s.addEvents(ctx, q, sum)
	return sum.report(), err
}

// ShortCodeTakenSQL is the query that checks a chosen short code.
const ShortCodeTakenSQL = shortCodeTakenSQL
