package store

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
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
	Country     string // ISO 3166-1 alpha-2, "" when unknown
	Region      string // the city database's region name, "" when unknown or none is set (geo.PlaceOf)
	City        string // its city name, likewise
	Route       string // what served it (issue 23): rule:N, split:N, default or ended
}

// scanChunk bounds the rows of one INSERT and the codes of one UPDATE of
// RecordScans on SQLite: scanParams parameters a row stays far below its
// limit.
const (
	scanChunk  = 500
	scanParams = 12
)

// scanInsertSQL inserts rows scan events. Its parameters are plain ?:
// SQLite looks $N names up in a list, quadratic over thousands of them.
func scanInsertSQL(rows int) string {
	var q strings.Builder
	q.WriteString(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, device_type, os, browser, referrer, visitor_hash, is_bot, country, region, city, route) VALUES `)
	for i := range rows {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('(')
		for j := range scanParams {
			if j > 0 {
				q.WriteByte(',')
			}
			q.WriteByte('?')
		}
		q.WriteByte(')')
	}
	return q.String()
}

// scanCountAdd adds a batch's human scans of a code to its scan_counts
// row. Batches from several instances may commit out of order, so
// last_scanned_at keeps the latest time.
const scanCountAdd = ` ON CONFLICT (dynamic_qr_code_id) DO UPDATE SET scans = scan_counts.scans + excluded.scans,
	last_scanned_at = CASE WHEN scan_counts.last_scanned_at < excluded.last_scanned_at
		THEN excluded.last_scanned_at ELSE scan_counts.last_scanned_at END`

// scanCountSQL counts the scans of codes codes from a VALUES list (id,
// human scans, latest scan).
func scanCountSQL(codes int) string {
	var q strings.Builder
	q.WriteString(`INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES `)
	for i := range codes {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString("(?, ?, ?)")
	}
	q.WriteString(scanCountAdd)
	return q.String()
}

// batchStmts are RecordScans' statements for full chunks, prepared once
// per store: parsing a 4,000-parameter statement costs as much as running
// it.
type batchStmts struct {
	mu            sync.Mutex
	insert, count *sql.Stmt
	rollup        map[string]*sql.Stmt // by query: rollupStmts
}

func (s *Store) fullChunkStmts(ctx context.Context) (insert, count *sql.Stmt, err error) {
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.insert == nil {
		// Prepared on the pool, outside any transaction: SQLite has one
		// write connection, which a transaction holds.
		ins, err := s.write.PrepareContext(ctx, scanInsertSQL(scanChunk))
		if err != nil {
			return nil, nil, err
		}
		cnt, err := s.write.PrepareContext(ctx, scanCountSQL(scanChunk))
		if err != nil {
			ins.Close()
			return nil, nil, err
		}
		b.insert, b.count = ins, cnt
	}
	return b.insert, b.count, nil
}

// RecordScans saves the events in one transaction, adds each code's human
// scans to its scan_counts row, moving last_scanned_at to its latest human
// scan, and adds the events of live codes to the rollups (rollups.go).
// Bots are saved and rolled up apart, but counted nowhere else.
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
	ids := slices.Sorted(maps.Keys(humans)) // one lock order for every instance
	if s.dialect == Postgres {
		counts := make([]int64, len(ids))
		lasts := make([]time.Time, len(ids))
		for i, id := range ids {
			counts[i], lasts[i] = humans[id].n, normTime(humans[id].last)
		}
		return s.copyScans(ctx, events, ids, counts, lasts)
	}
	// Inserted in index order: each scan adds an entry to the (code,
	// scanned_at) index, and entries in its order land on the page the
	// last one changed, which SQLite finds and rebalances for far less
	// than entries at random places (BENCHMARKS.md, "Scans in the index's
	// order"). A copy: the caller's order is how it tells which scans a
	// refused batch held.
	events = slices.Clone(events)
	slices.SortFunc(events, func(a, b ScanEvent) int {
		return cmp.Or(cmp.Compare(a.CodeID, b.CodeID), a.ScannedAt.Compare(b.ScannedAt))
	})
	var insertFull, countFull *sql.Stmt
	if len(events) >= scanChunk || len(ids) >= scanChunk {
		var err error
		if insertFull, countFull, err = s.fullChunkStmts(ctx); err != nil {
			return fail("prepare scan statements", err)
		}
	}
	exec := func(tx *sql.Tx, stmt *sql.Stmt, n int, build func(int) string, args []any) error {
		var err error
		if n == scanChunk {
			_, err = tx.StmtContext(ctx, stmt).ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, build(n), args...)
		}
		return err
	}
	rollupStmts, err := s.rollupStmts(ctx)
	if err != nil {
		return fail("prepare rollup statements", err)
	}
	s.cache.begin()
	err = s.inTx(ctx, "record scans", func(tx *sql.Tx) error {
		args := make([]any, 0, scanParams*scanChunk)
		for start := 0; start < len(events); start += scanChunk {
			chunk := events[start:min(start+scanChunk, len(events))]
			args = args[:0]
			for _, e := range chunk {
				args = append(args, e.CodeID, dbTime(e.ScannedAt), e.DeviceType, e.OS, e.Browser, e.Referrer, e.VisitorHash, e.IsBot, e.Country, e.Region, e.City, e.Route)
			}
			if err := exec(tx, insertFull, len(chunk), scanInsertSQL, args); err != nil {
				return fail("record scans", err)
			}
		}
		for start := 0; start < len(ids); start += scanChunk {
			chunk := ids[start:min(start+scanChunk, len(ids))]
			args = args[:0]
			for _, id := range chunk {
				args = append(args, id, humans[id].n, dbTime(humans[id].last))
			}
			if err := exec(tx, countFull, len(chunk), scanCountSQL, args); err != nil {
				return fail("count scans", err)
			}
		}
		if err := s.rollUp(ctx, writerTx{tx, rollupStmts, s.cache}, events); err != nil {
			return fail("roll up scans", err)
		}
		return nil
	})
	s.cache.end(err == nil)
	return err
}

var scanColumns = []string{"dynamic_qr_code_id", "scanned_at", "device_type", "os", "browser", "referrer", "visitor_hash", "is_bot", "country", "region", "city", "route"}

// ScanBatchSize is how many scans the recorder should write at a time. On
// PostgreSQL, 16,384: each transaction adds to the count of every code it
// holds, so larger batches update each hot code less often, but one burst
// a second (65,536) took the CPU from the redirects long enough to raise
// p99 (BENCHMARKS.md). On SQLite, 20,000: each commit appends to the
// write-ahead log every index page its scans touched, and a larger batch
// touches each page for more scans, sorted into the index's order; a
// batch of 20,000 costs 0.4 as much CPU a scan as one of 1,000 and raised
// the redirects' rate under load (BENCHMARKS.md, "Scans in the index's
// order"). It holds the single writer for about 0.4 s, so other writes
// wait that long at most, and only under that load: below it the recorder
// writes what a second brought.
func (s *Store) ScanBatchSize() int {
	if s.dialect == Postgres {
		return 1 << 14
	}
	return 20_000
}

// copyScans is RecordScans on PostgreSQL: the events go in with COPY and
// the counts with one UPDATE over arrays, in one transaction. Under load
// this is most of what PostgreSQL does, and COPY costs it a fraction of a
// multi-row INSERT of thousands of parameters (see BENCHMARKS.md).
// database/sql cannot COPY, so the transaction runs on the pooled
// connection's pgx.Conn.
func (s *Store) copyScans(ctx context.Context, events []ScanEvent, ids, counts []int64, lasts []time.Time) error {
	s.cache.begin()
	err := s.copyScansTx(ctx, events, ids, counts, lasts)
	s.cache.end(err == nil)
	return err
}

// copyScansTx is copyScans' transaction, with the writer's cache begun.
func (s *Store) copyScansTx(ctx context.Context, events []ScanEvent, ids, counts []int64, lasts []time.Time) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fail("record scans", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		return pgx.BeginFunc(ctx, dc.(*stdlib.Conn).Conn(), func(tx pgx.Tx) error {
			owners, err := s.lockOwners(ctx, pgxTx{tx, s.cache}, events)
			if err != nil {
				return err
			}
			rows := pgx.CopyFromSlice(len(events), func(i int) ([]any, error) {
				e := &events[i]
				return []any{e.CodeID, normTime(e.ScannedAt), e.DeviceType, e.OS, e.Browser, e.Referrer, e.VisitorHash, e.IsBot, e.Country, e.Region, e.City, e.Route}, nil
			})
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"scan_events"}, scanColumns, rows); err != nil {
				return err
			}
			if len(ids) > 0 {
				_, err := tx.Exec(ctx, `INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at)
					SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[])`+scanCountAdd, ids, counts, lasts)
				if err != nil {
					return err
				}
			}
			return s.rollUpLocked(ctx, pgxTx{tx, s.cache}, events, owners)
		})
	})
	if err != nil {
		return fail("record scans", err)
	}
	return nil
}

// ScanEvents calls fn with each event of the workspace's live dynamic code,
// oldest first, until fn fails. fn must not keep the pointer.
func (s *Store) ScanEvents(ctx context.Context, workspaceID, codeID int64, fn func(*ScanEvent) error) error {
	rows, err := s.read.QueryContext(ctx, `
		SELECT e.id, e.dynamic_qr_code_id, e.scanned_at, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.is_bot, e.country, e.region, e.city, e.route
		FROM scan_events e JOIN dynamic_qr_codes d ON d.id = e.dynamic_qr_code_id
		WHERE d.id = $1 AND d.workspace_id = $2 AND NOT d.is_deleted
		ORDER BY e.scanned_at, e.id`, codeID, workspaceID)
	if err != nil {
		return fail("list scans", err)
	}
	defer rows.Close()
	var e ScanEvent
	for rows.Next() {
		err := rows.Scan(&e.ID, &e.CodeID, scanTime(&e.ScannedAt), &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.IsBot, &e.Country, &e.Region, &e.City, &e.Route)
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

// RegionKey and CityKey name a region and a city in the rollups and
// reports: the country and names joined by "|", so regions and cities of
// the same name in different places stay apart. SplitPlace undoes them.
func RegionKey(country, region string) string { return country + "|" + region }

// CityKey: see RegionKey.
func CityKey(country, region, city string) string { return country + "|" + region + "|" + city }

// SplitPlace splits a RegionKey or CityKey into its country, region and
// city ("" for a RegionKey).
func SplitPlace(key string) (country, region, city string) {
	country, rest, _ := strings.Cut(key, "|")
	region, city, _ = strings.Cut(rest, "|")
	return country, region, city
}
