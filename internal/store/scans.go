package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
)

// ScanEvent is one answered scan of a dynamic code. No raw IP address is
// kept: VisitorHash is a salted hash whose salt rotates daily.
type ScanEvent struct {
	ID          int64
	CodeID      int64
	ScannedAt   time.Time
	DeviceType  string // mobile, tablet, desktop, bot or ""
	OS          string
	Browser     string
	Referrer    string
	VisitorHash string
	IsBot       bool
}

// scanInsertRows bounds the rows of one INSERT: 9 parameters each stays
// far below both databases' limits on parameters per statement.
const scanInsertRows = 500

// RecordScans saves the events in one transaction and adds each code's
// human scans to its scan_count, moving last_scanned_at to its latest
// human scan. Bots are saved but counted nowhere else.
func (s *Store) RecordScans(ctx context.Context, events []ScanEvent) error {
	if len(events) == 0 {
		return nil
	}
	type tally struct {
		n    int64
		last time.Time
	}
	humans := map[int64]*tally{}
	for _, e := range events {
		if e.IsBot {
			continue
		}
		t := humans[e.CodeID]
		if t == nil {
			t = &tally{}
			humans[e.CodeID] = t
		}
		t.n++
		if e.ScannedAt.After(t.last) {
			t.last = e.ScannedAt
		}
	}
	return s.inTx(ctx, "record scans", func(tx *sql.Tx) error {
		for start := 0; start < len(events); start += scanInsertRows {
			chunk := events[start:min(start+scanInsertRows, len(events))]
			var q strings.Builder
			q.WriteString(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, device_type, os, browser, referrer, visitor_hash, is_bot) VALUES `)
			args := make([]any, 0, 8*len(chunk))
			for i, e := range chunk {
				if i > 0 {
					q.WriteByte(',')
				}
				q.WriteByte('(')
				for j := range 8 {
					if j > 0 {
						q.WriteByte(',')
					}
					q.WriteByte('$')
					q.WriteString(strconv.Itoa(8*i + j + 1))
				}
				q.WriteByte(')')
				args = append(args, e.CodeID, dbTime(e.ScannedAt), e.DeviceType, e.OS, e.Browser, e.Referrer, e.VisitorHash, e.IsBot)
			}
			if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
				return fail("record scans", err)
			}
		}
		for id, t := range humans {
			// Batches from several instances may commit out of order: keep
			// the latest time.
			_, err := tx.ExecContext(ctx, `
				UPDATE dynamic_qr_codes SET scan_count = scan_count + $2,
					last_scanned_at = CASE WHEN last_scanned_at IS NULL OR last_scanned_at < $3 THEN $3 ELSE last_scanned_at END
				WHERE id = $1`, id, t.n, dbTime(t.last))
			if err != nil {
				return fail("count scans", err)
			}
		}
		return nil
	})
}

// ScanEvents calls fn with each event of the user's live dynamic code,
// oldest first, until fn fails. fn must not keep the pointer.
func (s *Store) ScanEvents(ctx context.Context, userID, codeID int64, fn func(*ScanEvent) error) error {
	rows, err := s.read.QueryContext(ctx, `
		SELECT e.id, e.dynamic_qr_code_id, e.scanned_at, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.is_bot
		FROM scan_events e JOIN dynamic_qr_codes d ON d.id = e.dynamic_qr_code_id
		WHERE d.id = $1 AND d.user_id = $2 AND NOT d.is_deleted
		ORDER BY e.scanned_at, e.id`, codeID, userID)
	if err != nil {
		return fail("list scans", err)
	}
	defer rows.Close()
	var e ScanEvent
	for rows.Next() {
		err := rows.Scan(&e.ID, &e.CodeID, scanTime(&e.ScannedAt), &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.IsBot)
		if err != nil {
			return fail("list scans", err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fail("list scans", err)
	}
	return nil
}

// Secret returns the server-wide secret with the given name, saving
// newValue (random bytes from the caller) as it when there is none yet.
// Every instance that asks gets the first value saved.
func (s *Store) Secret(ctx context.Context, name string, newValue []byte) ([]byte, error) {
	_, err := s.write.ExecContext(ctx,
		`INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
		name, newValue, dbTime(time.Now()))
	if err != nil {
		return nil, fail("create secret", err)
	}
	var v []byte
	if err := s.write.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v); err != nil {
		return nil, fail("fetch secret", err)
	}
	return v, nil
}
