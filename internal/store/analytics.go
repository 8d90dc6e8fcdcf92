package store

import (
	"context"
	"database/sql"
	"time"
)

// UserAnalytics is the dashboard's summary of one user's codes (spec 01
// §3 "User analytics"). Codes are live ones; scans are human scans.
type UserAnalytics struct {
	TotalQRCodes, StaticQRCodes, DynamicQRCodes int64
	TotalScans                                  int64
	TotalDownloads, TotalGenerations            int64
	TypeDistribution                            map[string]int64 // qr type → live codes of both kinds
	RecentGenerations, RecentDownloads          int64            // since the given time
	TopStatic                                   []StaticPerformance
	TopDynamic                                  []DynamicPerformance
}

// StaticPerformance is a static code with its downloads and generations.
type StaticPerformance struct {
	ID          int64
	Name        string
	QRType      string
	Downloads   int64
	Generations int64
}

// DynamicPerformance is a dynamic code with its human scans.
type DynamicPerformance struct {
	ID    int64
	Name  string
	Scans int64
}

// topCodes is how many codes each ranking lists (spec 01 §9).
const topCodes = 3

// UserAnalytics sums up the user's codes and activity; recent activity
// counts from since on.
func (s *Store) UserAnalytics(ctx context.Context, userID int64, since time.Time) (*UserAnalytics, error) {
	a := &UserAnalytics{TypeDistribution: map[string]int64{}}
	err := s.read.QueryRowContext(ctx, `
		SELECT
			(SELECT count(*) FROM qr_codes WHERE user_id = $1 AND NOT is_deleted),
			(SELECT count(*) FROM dynamic_qr_codes WHERE user_id = $1 AND NOT is_deleted),
			(SELECT COALESCE(sum(scan_count), 0) FROM dynamic_qr_codes WHERE user_id = $1 AND NOT is_deleted),
			(SELECT count(*) FROM qr_downloads WHERE user_id = $1),
			(SELECT count(*) FROM qr_generations WHERE user_id = $1),
			(SELECT count(*) FROM qr_downloads WHERE user_id = $1 AND downloaded_at >= $2),
			(SELECT count(*) FROM qr_generations WHERE user_id = $1 AND generated_at >= $2)`,
		userID, dbTime(since),
	).Scan(&a.StaticQRCodes, &a.DynamicQRCodes, &a.TotalScans, &a.TotalDownloads, &a.TotalGenerations,
		&a.RecentDownloads, &a.RecentGenerations)
	if err != nil {
		return nil, fail("sum up analytics", err)
	}
	a.TotalQRCodes = a.StaticQRCodes + a.DynamicQRCodes

	err = s.eachRow(ctx, "count codes by type", `
		SELECT qr_type, count(*) FROM (
			SELECT qr_type FROM qr_codes WHERE user_id = $1 AND NOT is_deleted
			UNION ALL
			SELECT qr_type FROM dynamic_qr_codes WHERE user_id = $1 AND NOT is_deleted
		) c GROUP BY qr_type`, []any{userID}, func(rows *sql.Rows) error {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return err
		}
		a.TypeDistribution[t] = n
		return nil
	})
	if err != nil {
		return nil, err
	}

	err = s.eachRow(ctx, "rank static codes", `
		SELECT q.id, q.name, q.qr_type,
			(SELECT count(*) FROM qr_downloads WHERE qr_code_id = q.id) AS downloads,
			(SELECT count(*) FROM qr_generations WHERE qr_code_id = q.id) AS generations
		FROM qr_codes q WHERE q.user_id = $1 AND NOT q.is_deleted
		ORDER BY downloads DESC, generations DESC, q.id DESC LIMIT $2`, []any{userID, topCodes},
		func(rows *sql.Rows) error {
			var p StaticPerformance
			if err := rows.Scan(&p.ID, &p.Name, &p.QRType, &p.Downloads, &p.Generations); err != nil {
				return err
			}
			a.TopStatic = append(a.TopStatic, p)
			return nil
		})
	if err != nil {
		return nil, err
	}

	err = s.eachRow(ctx, "rank dynamic codes", `
		SELECT id, name, scan_count FROM dynamic_qr_codes WHERE user_id = $1 AND NOT is_deleted
		ORDER BY scan_count DESC, id DESC LIMIT $2`, []any{userID, topCodes},
		func(rows *sql.Rows) error {
			var p DynamicPerformance
			if err := rows.Scan(&p.ID, &p.Name, &p.Scans); err != nil {
				return err
			}
			a.TopDynamic = append(a.TopDynamic, p)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// CodeAnalytics is what a dynamic code's scans say over a period.
// Everything but BotScans and TotalScans counts human scans only.
type CodeAnalytics struct {
	TotalScans, HumanScans, BotScans int64
	// UniqueVisitors counts distinct visitor hashes. The hash's salt
	// rotates daily, so a visitor counts once per day they scan.
	UniqueVisitors int64
	Daily          []DailyScans // one entry per UTC day of the period, oldest first
	Devices        map[string]int64
	OS             map[string]int64
	Browsers       map[string]int64
	Referrers      []ReferrerCount // most frequent first, at most topReferrers
}

// DailyScans is one UTC day of a code's human scans.
type DailyScans struct {
	Date           string // 2006-01-02
	Scans          int64
	UniqueVisitors int64
}

// ReferrerCount is a referring origin and its scans.
type ReferrerCount struct {
	Referrer string
	Count    int64
}

const topReferrers = 10

// CodeAnalytics sums up the scans of the user's live dynamic code from
// since's UTC day to until's. Another user's code is ErrNotFound.
func (s *Store) CodeAnalytics(ctx context.Context, userID, codeID int64, since, until time.Time) (*CodeAnalytics, error) {
	if _, err := s.DynamicCode(ctx, userID, codeID); err != nil {
		return nil, err
	}
	first := since.UTC().Truncate(24 * time.Hour)
	from := dbTime(first)
	a := &CodeAnalytics{Devices: map[string]int64{}, OS: map[string]int64{}, Browsers: map[string]int64{}}
	err := s.read.QueryRowContext(ctx, `
		SELECT count(*),
			COALESCE(sum(CASE WHEN is_bot THEN 1 ELSE 0 END), 0),
			count(DISTINCT CASE WHEN NOT is_bot AND visitor_hash <> '' THEN visitor_hash END)
		FROM scan_events WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2`, codeID, from,
	).Scan(&a.TotalScans, &a.BotScans, &a.UniqueVisitors)
	if err != nil {
		return nil, fail("sum up scans", err)
	}
	a.HumanScans = a.TotalScans - a.BotScans

	day := map[string]string{
		SQLite:   `substr(scanned_at, 1, 10)`,
		Postgres: `to_char(scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
	}[s.dialect]
	perDay := map[string]DailyScans{}
	err = s.eachRow(ctx, "count scans by day", `
		SELECT `+day+` AS day, count(*), count(DISTINCT CASE WHEN visitor_hash <> '' THEN visitor_hash END)
		FROM scan_events WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2 AND NOT is_bot
		GROUP BY day`, []any{codeID, from}, func(rows *sql.Rows) error {
		var d DailyScans
		if err := rows.Scan(&d.Date, &d.Scans, &d.UniqueVisitors); err != nil {
			return err
		}
		perDay[d.Date] = d
		return nil
	})
	if err != nil {
		return nil, err
	}
	for t := first; !t.After(until.UTC()); t = t.AddDate(0, 0, 1) {
		date := t.Format(time.DateOnly)
		d := perDay[date]
		d.Date = date
		a.Daily = append(a.Daily, d)
	}

	for _, g := range []struct {
		column string
		into   map[string]int64
	}{{"device_type", a.Devices}, {"os", a.OS}, {"browser", a.Browsers}} {
		err = s.eachRow(ctx, "count scans by "+g.column, `
			SELECT `+g.column+`, count(*) FROM scan_events
			WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2 AND NOT is_bot
			GROUP BY `+g.column, []any{codeID, from}, func(rows *sql.Rows) error {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			if k == "" {
				k = "Unknown"
			}
			g.into[k] += n
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	err = s.eachRow(ctx, "count referrers", `
		SELECT referrer, count(*) AS n FROM scan_events
		WHERE dynamic_qr_code_id = $1 AND scanned_at >= $2 AND NOT is_bot AND referrer <> ''
		GROUP BY referrer ORDER BY n DESC, referrer LIMIT $3`, []any{codeID, from, topReferrers},
		func(rows *sql.Rows) error {
			var r ReferrerCount
			if err := rows.Scan(&r.Referrer, &r.Count); err != nil {
				return err
			}
			a.Referrers = append(a.Referrers, r)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// eachRow runs a read query and calls fn for every row.
func (s *Store) eachRow(ctx context.Context, action, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return fail(action, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return fail(action, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fail(action, err)
	}
	return nil
}
