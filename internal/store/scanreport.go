package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ScanQuery picks the scans a report counts: those of one live dynamic code
// of the user (CodeID > 0) or of all the user's live dynamic codes, scanned
// in [From, To). Bots are counted only when Bots is set.
type ScanQuery struct {
	UserID, CodeID int64
	From, To       time.Time
	Bots           bool
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
// one, is ErrNotFound.
func (s *Store) ScanReport(ctx context.Context, q ScanQuery) (*ScanReport, error) {
	if q.CodeID > 0 {
		if _, err := s.DynamicCode(ctx, q.UserID, q.CodeID); err != nil {
			return nil, err
		}
	}
	r := &ScanReport{Countries: map[string]int64{}, Devices: map[string]int64{}, OS: map[string]int64{}, Browsers: map[string]int64{}}
	visitor := `NOT e.is_bot AND e.visitor_hash <> ''`
	if q.Bots {
		visitor = `e.visitor_hash <> ''`
	}
	all, args := q.where(true)
	err := s.read.QueryRowContext(ctx, `
		SELECT COALESCE(sum(CASE WHEN e.is_bot THEN 1 ELSE 0 END), 0),
			COALESCE(sum(CASE WHEN e.is_bot THEN 0 ELSE 1 END), 0),
			count(DISTINCT CASE WHEN `+visitor+` THEN e.visitor_hash END)
		FROM scan_events e WHERE `+all, args...,
	).Scan(&r.BotScans, &r.Scans, &r.UniqueVisitors)
	if err != nil {
		return nil, fail("sum up scans", err)
	}
	if q.Bots {
		r.Scans += r.BotScans
	}

	cond, args := q.where(q.Bots)
	slot := map[string]string{
		SQLite: `substr(e.scanned_at, 1, 14) || printf('%02d', CAST(substr(e.scanned_at, 15, 2) AS INTEGER) / 15 * 15)`,
		Postgres: `to_char(date_trunc('hour', e.scanned_at AT TIME ZONE 'UTC')
			+ floor(extract(minute FROM e.scanned_at AT TIME ZONE 'UTC') / 15) * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI')`,
	}[s.dialect]
	err = s.eachRow(ctx, "count scans by quarter hour", `
		SELECT `+slot+` AS slot, count(*) FROM scan_events e WHERE `+cond+`
		GROUP BY slot ORDER BY slot`, args, func(rows *sql.Rows) error {
		var start string
		var n int64
		if err := rows.Scan(&start, &n); err != nil {
			return err
		}
		t, err := time.Parse(slotLayout, start)
		if err != nil {
			return err
		}
		r.Slots = append(r.Slots, ScanSlot{Start: t, Scans: n})
		return nil
	})
	if err != nil {
		return nil, err
	}

	for _, g := range []struct {
		column string
		into   map[string]int64
	}{{"country", r.Countries}, {"device_type", r.Devices}, {"os", r.OS}, {"browser", r.Browsers}} {
		err = s.eachRow(ctx, "count scans by "+g.column, `
			SELECT e.`+g.column+`, count(*) FROM scan_events e WHERE `+cond+`
			GROUP BY e.`+g.column, args, func(rows *sql.Rows) error {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			if k == "" && g.column != "country" {
				k = "Unknown"
			}
			g.into[k] += n
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	err = s.eachRow(ctx, "count referrers", fmt.Sprintf(`
		SELECT e.referrer, count(*) AS n FROM scan_events e WHERE %s AND e.referrer <> ''
		GROUP BY e.referrer ORDER BY n DESC, e.referrer LIMIT %d`, cond, topReferrers), args,
		func(rows *sql.Rows) error {
			var rc ReferrerCount
			if err := rows.Scan(&rc.Referrer, &rc.Count); err != nil {
				return err
			}
			r.Referrers = append(r.Referrers, rc)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// ScanCount counts the scans q picks, for the comparison with the
// previous period.
func (s *Store) ScanCount(ctx context.Context, q ScanQuery) (int64, error) {
	cond, args := q.where(q.Bots)
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM scan_events e WHERE `+cond, args...).Scan(&n); err != nil {
		return 0, fail("count scans", err)
	}
	return n, nil
}

// FirstScan is when the oldest scan q's codes kept was made, ignoring
// q's range; ok is false when they have none.
func (s *Store) FirstScan(ctx context.Context, q ScanQuery) (first time.Time, ok bool, err error) {
	q.From, q.To = time.Time{}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	cond, args := q.where(true)
	var t *time.Time
	if err := s.read.QueryRowContext(ctx, `SELECT min(e.scanned_at) FROM scan_events e WHERE `+cond, args...).Scan(scanNullTime(&t)); err != nil {
		return time.Time{}, false, fail("find the first scan", err)
	}
	if t == nil {
		return time.Time{}, false, nil
	}
	return *t, true, nil
}
