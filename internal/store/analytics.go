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

// UserAnalytics sums up the workspace's codes and the user's activity
// (generations and downloads); recent activity counts from since on.
func (s *Store) UserAnalytics(ctx context.Context, workspaceID, userID int64, since time.Time) (*UserAnalytics, error) {
	a := &UserAnalytics{TypeDistribution: map[string]int64{}}
	err := s.read.QueryRowContext(ctx, `
		SELECT
			(SELECT count(*) FROM qr_codes WHERE workspace_id = $1 AND NOT is_deleted),
			(SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted),
			(SELECT COALESCE(sum(c.scans), 0) FROM dynamic_qr_codes d JOIN scan_counts c ON c.dynamic_qr_code_id = d.id
				WHERE d.workspace_id = $1 AND NOT d.is_deleted),
			(SELECT count(*) FROM qr_downloads WHERE user_id = $3),
			(SELECT count(*) FROM qr_generations WHERE user_id = $3),
			(SELECT count(*) FROM qr_downloads WHERE user_id = $3 AND downloaded_at >= $2),
			(SELECT count(*) FROM qr_generations WHERE user_id = $3 AND generated_at >= $2)`,
		workspaceID, dbTime(since), userID,
	).Scan(&a.StaticQRCodes, &a.DynamicQRCodes, &a.TotalScans, &a.TotalDownloads, &a.TotalGenerations,
		&a.RecentDownloads, &a.RecentGenerations)
	if err != nil {
		return nil, fail("sum up analytics", err)
	}
	a.TotalQRCodes = a.StaticQRCodes + a.DynamicQRCodes

	err = s.eachRow(ctx, "count codes by type", `
		SELECT qr_type, count(*) FROM (
			SELECT qr_type FROM qr_codes WHERE workspace_id = $1 AND NOT is_deleted
			UNION ALL
			SELECT qr_type FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted
		) c GROUP BY qr_type`, []any{workspaceID}, func(rows *sql.Rows) error {
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
		FROM qr_codes q WHERE q.workspace_id = $1 AND NOT q.is_deleted
		ORDER BY downloads DESC, generations DESC, q.id DESC LIMIT $2`, []any{workspaceID, topCodes},
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
		SELECT d.id, d.name, COALESCE(c.scans, 0) AS scans
		FROM dynamic_qr_codes d LEFT JOIN scan_counts c ON c.dynamic_qr_code_id = d.id
		WHERE d.workspace_id = $1 AND NOT d.is_deleted
		ORDER BY scans DESC, d.id DESC LIMIT $2`, []any{workspaceID, topCodes},
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

// eachRow runs a read query and calls fn for every row.
func (s *Store) eachRow(ctx context.Context, action, query string, args []any, fn func(*sql.Rows) error) error {
	return eachRowIn(ctx, s.read, action, query, args, fn)
}

// eachRowIn runs a query in q (the store, or a transaction) and calls fn
// for every row.
func eachRowIn(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, action, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
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
