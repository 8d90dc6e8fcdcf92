package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Scan rollups (issue 15). The analytics views read one row per UTC day of
// a code (scan_code_days) or of all a user's live codes (scan_user_days)
// instead of every scan event, so their cost follows the days in a range,
// not the scans. RecordScans adds each batch to them in its transaction;
// DeleteDynamicCode takes a deleted code's share out of its owner's days.
// scan_visitors keeps the visitor hashes of each code and day, so a batch
// counts a visitor once per code and once per user however many codes the
// visitor scanned. On PostgreSQL, where several instances record at once,
// every change to a user's rollups holds a transaction lock on the user
// (rollupLock), taken after any code row locks, so changes to one user's
// rows are serialised and cannot deadlock.

// dayTally is one UTC day of scans, of one bot flag, of a code or of a
// user's codes: what the analytics views need of that day's events.
type dayTally struct {
	Scans int64 `json:"n"`
	// Visitors counts distinct visitor hashes of the day (the hash's salt
	// turns over daily): per code in scan_code_days, per user in
	// scan_user_days, where one visitor of two codes counts once.
	Visitors  int64            `json:"v,omitempty"`
	Slots     map[int]int64    `json:"s,omitempty"` // quarter hour of the day, 0–95
	Countries map[string]int64 `json:"c,omitempty"`
	Devices   map[string]int64 `json:"d,omitempty"`
	OS        map[string]int64 `json:"o,omitempty"`
	Browsers  map[string]int64 `json:"b,omitempty"`
	Referrers map[string]int64 `json:"r,omitempty"`
}

// add counts one scan event.
func (t *dayTally) add(e *ScanEvent) {
	t.Scans++
	bump(&t.Slots, quarterOfDay(e.ScannedAt), 1)
	bump(&t.Countries, e.Country, 1)
	bump(&t.Devices, e.DeviceType, 1)
	bump(&t.OS, e.OS, 1)
	bump(&t.Browsers, e.Browser, 1)
	bump(&t.Referrers, e.Referrer, 1)
}

// merge adds sign × o to t.
func (t *dayTally) merge(o *dayTally, sign int64) {
	t.Scans += sign * o.Scans
	t.Visitors += sign * o.Visitors
	mergeCounts(&t.Slots, o.Slots, sign)
	mergeCounts(&t.Countries, o.Countries, sign)
	mergeCounts(&t.Devices, o.Devices, sign)
	mergeCounts(&t.OS, o.OS, sign)
	mergeCounts(&t.Browsers, o.Browsers, sign)
	mergeCounts(&t.Referrers, o.Referrers, sign)
}

// bump adds n to m[k], dropping keys that reach zero.
func bump[K comparable](m *map[K]int64, k K, n int64) {
	if *m == nil {
		*m = map[K]int64{}
	}
	if v := (*m)[k] + n; v != 0 {
		(*m)[k] = v
	} else {
		delete(*m, k)
	}
}

func mergeCounts[K comparable](m *map[K]int64, o map[K]int64, sign int64) {
	for k, n := range o {
		bump(m, k, sign*n)
	}
}

// utcDay is the start of t's UTC day.
func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// quarterOfDay is t's quarter hour of its UTC day.
func quarterOfDay(t time.Time) int {
	t = t.UTC()
	return t.Hour()*4 + t.Minute()/15
}

// rollupKey picks a rollup row: a code's or a user's day of one bot flag.
type rollupKey struct {
	owner int64
	day   time.Time
	bot   bool
}

// rollupTable is one of the two day tables and its owner column.
type rollupTable struct{ name, owner string }

var (
	codeDays = rollupTable{"scan_code_days", "dynamic_qr_code_id"}
	userDays = rollupTable{"scan_user_days", "user_id"}
)

// rollupChunk bounds the owners, hashes or rows of one rollup statement.
const rollupChunk = 500

// rollupTx is the transaction rollups change in: database/sql's, or pgx's
// inside RecordScans' COPY on PostgreSQL.
type rollupTx interface {
	exec(ctx context.Context, query string, args ...any) error
	each(ctx context.Context, query string, args []any, row func(scan func(dest ...any) error) error) error
}

// sqlTx runs a rollupTx on database/sql: a transaction, or the read pool
// for the analytics views.
type sqlTx struct {
	tx interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	}
}

func (t sqlTx) exec(ctx context.Context, query string, args ...any) error {
	_, err := t.tx.ExecContext(ctx, query, args...)
	return err
}

func (t sqlTx) each(ctx context.Context, query string, args []any, row func(func(...any) error) error) error {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

type pgxTx struct{ tx pgx.Tx }

func (t pgxTx) exec(ctx context.Context, query string, args ...any) error {
	_, err := t.tx.Exec(ctx, query, args...)
	return err
}

func (t pgxTx) each(ctx context.Context, query string, args []any, row func(func(...any) error) error) error {
	rows, err := t.tx.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// marks returns n comma-separated query parameters numbered from at: plain
// ? on SQLite, which looks $N names up in a list (see scanInsertSQL). The
// ? are bound in the order they appear, so a query's marks must number in
// the order of its text.
func (s *Store) marks(at, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if s.dialect == Postgres {
			fmt.Fprintf(&b, "$%d", at+i)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// inChunks calls fn with consecutive parts of ids of at most rollupChunk.
func inChunks[T any](ids []T, fn func([]T) error) error {
	for start := 0; start < len(ids); start += rollupChunk {
		if err := fn(ids[start:min(start+rollupChunk, len(ids))]); err != nil {
			return err
		}
	}
	return nil
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// rollupLock makes the rest of tx the only writer of the users' rollups
// on PostgreSQL (SQLite has a single writer already). Users are locked in
// id order, and always after the code rows a transaction updates.
func (s *Store) rollupLock(ctx context.Context, tx rollupTx, users []int64) error {
	if s.dialect != Postgres {
		return nil
	}
	for _, u := range slices.Sorted(slices.Values(users)) {
		// Offset past hashtext's int4 range, which the migration lock uses.
		if err := tx.exec(ctx, `SELECT pg_advisory_xact_lock($1)`, u+1<<40); err != nil {
			return err
		}
	}
	return nil
}

// rollUp adds the events of live codes to the rollups, in the transaction
// that saves them.
func (s *Store) rollUp(ctx context.Context, tx rollupTx, events []ScanEvent) error {
	codes := map[int64]bool{}
	for i := range events {
		codes[events[i].CodeID] = true
	}
	owners, err := s.liveOwners(ctx, tx, slices.Sorted(maps.Keys(codes)))
	if err != nil {
		return err
	}
	code, user := map[rollupKey]*dayTally{}, map[rollupKey]*dayTally{}
	var seen []visit
	for i := range events {
		e := &events[i]
		owner, live := owners[e.CodeID]
		if !live {
			continue
		}
		day := utcDay(e.ScannedAt)
		tallyOf(code, rollupKey{e.CodeID, day, e.IsBot}).add(e)
		tallyOf(user, rollupKey{owner, day, e.IsBot}).add(e)
		if e.VisitorHash != "" {
			seen = append(seen, visit{code: e.CodeID, user: owner, day: day, bot: e.IsBot, hash: e.VisitorHash})
		}
	}
	if err := s.countVisitors(ctx, tx, seen, code, user); err != nil {
		return err
	}
	if err := s.applyDays(ctx, tx, codeDays, code, 1); err != nil {
		return err
	}
	return s.applyDays(ctx, tx, userDays, user, 1)
}

func tallyOf(m map[rollupKey]*dayTally, k rollupKey) *dayTally {
	t := m[k]
	if t == nil {
		t = &dayTally{}
		m[k] = t
	}
	return t
}

// liveOwners maps each live code of codes to its owner, with the owners'
// rollups locked. A code deleted before the lock was had is left out: its
// deletion has taken its scans out of the rollups and will not see these.
func (s *Store) liveOwners(ctx context.Context, tx rollupTx, codes []int64) (map[int64]int64, error) {
	owners := map[int64]int64{}
	read := func(cond string) error {
		clear(owners)
		return inChunks(codes, func(ids []int64) error {
			return tx.each(ctx, `SELECT id, user_id FROM dynamic_qr_codes WHERE id IN (`+s.marks(1, len(ids))+`)`+cond,
				anys(ids), func(scan func(...any) error) error {
					var id, user int64
					if err := scan(&id, &user); err != nil {
						return err
					}
					owners[id] = user
					return nil
				})
		})
	}
	if s.dialect == Postgres {
		if err := read(""); err != nil {
			return nil, err
		}
		users := map[int64]bool{}
		for _, u := range owners {
			users[u] = true
		}
		if err := s.rollupLock(ctx, tx, slices.Collect(maps.Keys(users))); err != nil {
			return nil, err
		}
	}
	return owners, read(" AND NOT is_deleted")
}

// visit is a visitor hash seen on a code's day.
type visit struct {
	code, user int64
	day        time.Time
	bot        bool
	hash       string
}

// countVisitors counts in code and user the visits not yet in
// scan_visitors, and records them there.
func (s *Store) countVisitors(ctx context.Context, tx rollupTx, seen []visit, code, user map[rollupKey]*dayTally) error {
	type userDay struct {
		user int64
		day  time.Time
	}
	type known struct {
		code int64 // 0: any code of the user
		bot  bool
		hash string
	}
	byDay := map[userDay][]visit{}
	for _, v := range seen {
		k := userDay{v.user, v.day}
		byDay[k] = append(byDay[k], v)
	}
	var fresh []visit
	for ud, visits := range byDay {
		hashes := map[string]bool{}
		for _, v := range visits {
			hashes[v.hash] = true
		}
		had := map[known]bool{}
		err := inChunks(slices.Sorted(maps.Keys(hashes)), func(hs []string) error {
			return tx.each(ctx, `SELECT dynamic_qr_code_id, is_bot, visitor_hash FROM scan_visitors
				WHERE user_id = `+s.marks(1, 1)+` AND day = `+s.marks(2, 1)+` AND visitor_hash IN (`+s.marks(3, len(hs))+`)`,
				append([]any{ud.user, dbTime(ud.day)}, anys(hs)...), func(scan func(...any) error) error {
					var k known
					if err := scan(&k.code, &k.bot, &k.hash); err != nil {
						return err
					}
					had[k] = true
					k.code = 0
					had[k] = true
					return nil
				})
		})
		if err != nil {
			return err
		}
		for _, v := range visits {
			if byCode := (known{v.code, v.bot, v.hash}); !had[byCode] {
				had[byCode] = true
				tallyOf(code, rollupKey{v.code, v.day, v.bot}).Visitors++
				fresh = append(fresh, v)
			}
			if byUser := (known{0, v.bot, v.hash}); !had[byUser] {
				had[byUser] = true
				tallyOf(user, rollupKey{v.user, v.day, v.bot}).Visitors++
			}
		}
	}
	return inChunks(fresh, func(vs []visit) error {
		var q strings.Builder
		q.WriteString(`INSERT INTO scan_visitors (dynamic_qr_code_id, day, is_bot, visitor_hash, user_id) VALUES `)
		args := make([]any, 0, 5*len(vs))
		for i, v := range vs {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + s.marks(5*i+1, 5) + ")")
			args = append(args, v.code, dbTime(v.day), v.bot, v.hash, v.user)
		}
		return tx.exec(ctx, q.String(), args...)
	})
}

// applyDays adds sign × each tally to its row of t, deleting rows left
// with no scans.
func (s *Store) applyDays(ctx context.Context, tx rollupTx, t rollupTable, days map[rollupKey]*dayTally, sign int64) error {
	if len(days) == 0 {
		return nil
	}
	owners := map[int64]bool{}
	var first, last time.Time
	for k := range days {
		owners[k.owner] = true
		if first.IsZero() || k.day.Before(first) {
			first = k.day
		}
		if k.day.After(last) {
			last = k.day
		}
	}
	rows := map[rollupKey]*dayTally{}
	for k, d := range days {
		rows[k] = &dayTally{}
		rows[k].merge(d, sign)
	}
	err := inChunks(slices.Sorted(maps.Keys(owners)), func(ids []int64) error {
		return s.eachDay(ctx, tx, t, `WHERE day >= `+s.marks(1, 1)+` AND day <= `+s.marks(2, 1)+` AND `+t.owner+` IN (`+s.marks(3, len(ids))+`)`,
			append([]any{dbTime(first), dbTime(last)}, anys(ids)...), func(k rollupKey, had *dayTally) {
				if row := rows[k]; row != nil {
					row.merge(had, 1)
				}
			})
	})
	if err != nil {
		return err
	}
	var keep []rollupKey
	for k, row := range rows {
		if row.Scans != 0 {
			keep = append(keep, k)
			continue
		}
		err := tx.exec(ctx, `DELETE FROM `+t.name+` WHERE `+t.owner+` = `+s.marks(1, 1)+` AND day = `+s.marks(2, 1)+` AND is_bot = `+s.marks(3, 1),
			k.owner, dbTime(k.day), k.bot)
		if err != nil {
			return err
		}
	}
	return inChunks(keep, func(ks []rollupKey) error {
		var q strings.Builder
		q.WriteString(`INSERT INTO ` + t.name + ` (` + t.owner + `, day, is_bot, scans, tally) VALUES `)
		args := make([]any, 0, 5*len(ks))
		for i, k := range ks {
			body, err := json.Marshal(rows[k])
			if err != nil {
				return err
			}
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + s.marks(5*i+1, 5) + ")")
			args = append(args, k.owner, dbTime(k.day), k.bot, rows[k].Scans, string(body))
		}
		q.WriteString(` ON CONFLICT (` + t.owner + `, day, is_bot) DO UPDATE SET scans = excluded.scans, tally = excluded.tally`)
		return tx.exec(ctx, q.String(), args...)
	})
}

// eachDay calls fn with the rows of t that where (with args) picks.
func (s *Store) eachDay(ctx context.Context, tx rollupTx, t rollupTable, where string, args []any, fn func(rollupKey, *dayTally)) error {
	return tx.each(ctx, `SELECT `+t.owner+`, day, is_bot, tally FROM `+t.name+` `+where, args,
		func(scan func(...any) error) error {
			var k rollupKey
			var body string
			if err := scan(&k.owner, scanTime(&k.day), &k.bot, &body); err != nil {
				return err
			}
			var d dayTally
			if err := json.Unmarshal([]byte(body), &d); err != nil {
				return fmt.Errorf("rollup %s %d %s: %w", t.name, k.owner, k.day, err)
			}
			k.day = k.day.UTC()
			fn(k, &d)
			return nil
		})
}

// dropCodeRollups takes the code's scans out of its owner's rollups and
// removes its own, in the transaction that deletes it.
func (s *Store) dropCodeRollups(ctx context.Context, tx rollupTx, userID, codeID int64) error {
	if err := s.rollupLock(ctx, tx, []int64{userID}); err != nil {
		return err
	}
	out := map[rollupKey]*dayTally{}
	// Visitors that scanned no other code of the user that day.
	err := tx.each(ctx, `
		SELECT v.day, v.is_bot, count(*) FROM scan_visitors v
		WHERE v.dynamic_qr_code_id = `+s.marks(1, 1)+` AND NOT EXISTS (
			SELECT 1 FROM scan_visitors w
			WHERE w.user_id = v.user_id AND w.day = v.day AND w.visitor_hash = v.visitor_hash
				AND w.is_bot = v.is_bot AND w.dynamic_qr_code_id <> v.dynamic_qr_code_id)
		GROUP BY v.day, v.is_bot`, []any{codeID}, func(scan func(...any) error) error {
		k := rollupKey{owner: userID}
		var n int64
		if err := scan(scanTime(&k.day), &k.bot, &n); err != nil {
			return err
		}
		k.day = k.day.UTC()
		tallyOf(out, k).Visitors = n
		return nil
	})
	if err != nil {
		return err
	}
	err = s.eachDay(ctx, tx, codeDays, `WHERE dynamic_qr_code_id = `+s.marks(1, 1), []any{codeID},
		func(k rollupKey, d *dayTally) {
			d.Visitors = 0 // the user's share is counted above
			tallyOf(out, rollupKey{userID, k.day, k.bot}).merge(d, 1)
		})
	if err != nil {
		return err
	}
	for _, table := range []string{"scan_visitors", "scan_code_days"} {
		if err := tx.exec(ctx, `DELETE FROM `+table+` WHERE dynamic_qr_code_id = `+s.marks(1, 1), codeID); err != nil {
			return err
		}
	}
	return s.applyDays(ctx, tx, userDays, out, -1)
}

// backfillRollups rolls up the scans saved before the rollups existed: the
// Go step of migration 0014, in its transaction.
func (s *Store) backfillRollups(ctx context.Context, tx *sql.Tx) error {
	const page = 5000
	var after int64
	for {
		rows, err := tx.QueryContext(ctx, `
			SELECT id, dynamic_qr_code_id, scanned_at, device_type, os, browser, referrer, visitor_hash, is_bot, country
			FROM scan_events WHERE id > $1 ORDER BY id LIMIT $2`, after, page)
		if err != nil {
			return err
		}
		var batch []ScanEvent
		for rows.Next() {
			var e ScanEvent
			if err := rows.Scan(&e.ID, &e.CodeID, scanTime(&e.ScannedAt), &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.IsBot, &e.Country); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		if err := s.rollUp(ctx, sqlTx{tx}, batch); err != nil {
			return err
		}
		after = batch[len(batch)-1].ID
	}
}
