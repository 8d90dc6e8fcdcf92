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
// a code (scan_code_days) or of all a workspace's live codes (scan_workspace_days)
// instead of every scan event, so their cost follows the days in a range,
// not the scans. RecordScans adds each batch to them in its transaction,
// except to the code rows of open days, which are written when the day
// closes (opendays.go); DeleteDynamicCode takes a deleted code's share out
// of its owner's days. scan_visitors and scan_workspace_visitors keep the
// visitor hashes of each code's and user's days, so a batch counts a
// visitor once per code and once per user however many codes the visitor
// scanned. On PostgreSQL, where several instances record at once, every
// change to a user's rollups holds a transaction lock on the user
// (rollupLock), taken before any code row lock, so changes to one user's
// rows are serialised and cannot deadlock. Since issue 22 the owner of a
// code, the "user" of these names, is its workspace.

// dayTally is one UTC day of scans, of one bot flag, of a code or of a
// user's codes: what the analytics views need of that day's events.
type dayTally struct {
	Scans int64
	// Visitors counts distinct visitor hashes of the day (the hash's salt
	// turns over daily): per code in scan_code_days, per user in
	// scan_workspace_days, where one visitor of two codes counts once.
	Visitors  int64
	Slots     map[int]int64 // quarter hour of the day, 0–95
	Countries map[string]int64
	Regions   map[string]int64 // by RegionKey
	Cities    map[string]int64 // by CityKey
	Devices   map[string]int64
	OS        map[string]int64
	Browsers  map[string]int64
	Referrers map[string]int64
	// Routes counts the scans served by a rule, a split variant or the
	// end of a schedule or limit (issue 23); the rest were served by the
	// code's destination (RouteDefault), so plain codes' rows carry none.
	Routes map[string]int64
}

// add counts one scan event.
func (t *dayTally) add(e *ScanEvent) {
	t.Scans++
	bump(&t.Slots, quarterOfDay(e.ScannedAt), 1)
	bump(&t.Countries, e.Country, 1)
	if e.Region != "" {
		bump(&t.Regions, RegionKey(e.Country, e.Region), 1)
	}
	if e.City != "" {
		bump(&t.Cities, CityKey(e.Country, e.Region, e.City), 1)
	}
	bump(&t.Devices, e.DeviceType, 1)
	bump(&t.OS, e.OS, 1)
	bump(&t.Browsers, e.Browser, 1)
	bump(&t.Referrers, e.Referrer, 1)
	if e.Route != "" && e.Route != RouteDefault {
		bump(&t.Routes, e.Route, 1)
	}
}

// merge adds sign × o to t.
func (t *dayTally) merge(o *dayTally, sign int64) {
	t.Scans += sign * o.Scans
	t.Visitors += sign * o.Visitors
	mergeCounts(&t.Slots, o.Slots, sign)
	mergeCounts(&t.Countries, o.Countries, sign)
	mergeCounts(&t.Regions, o.Regions, sign)
	mergeCounts(&t.Cities, o.Cities, sign)
	mergeCounts(&t.Devices, o.Devices, sign)
	mergeCounts(&t.OS, o.OS, sign)
	mergeCounts(&t.Browsers, o.Browsers, sign)
	mergeCounts(&t.Referrers, o.Referrers, sign)
	mergeCounts(&t.Routes, o.Routes, sign)
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

// quarterHour reports whether t starts a quarter hour.
func quarterHour(t time.Time) bool { return t.Equal(t.Truncate(15 * time.Minute)) }

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

// rollupTable is a table of rollup rows, its owner column, and the column
// of the time each row starts at: a day, or a quarter hour (quarters.go).
type rollupTable struct{ name, owner, at string }

var (
	codeDays = rollupTable{"scan_code_days", "dynamic_qr_code_id", "day"}
	userDays = rollupTable{"scan_workspace_days", "workspace_id", "day"}
)

// rollupTx is the transaction rollups change in: database/sql's, or pgx's
// inside RecordScans' COPY on PostgreSQL.
type rollupTx interface {
	exec(ctx context.Context, query string, args ...any) error
	each(ctx context.Context, query string, args []any, row func(scan func(dest ...any) error) error) error
	// cached is the writer's cache of the rows in a recorder's batch on
	// SQLite, else nil.
	cached() *writerCache
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

func (sqlTx) cached() *writerCache { return nil }

func (t sqlTx) each(ctx context.Context, query string, args []any, row func(func(...any) error) error) error {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return eachRow(rows, row)
}

// eachRow calls row with each of rows' scan; the caller closes them.
func eachRow(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
}, row func(func(...any) error) error) error {
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// writerTx is sqlTx on SQLite's writer with the rollups' statements
// prepared once per store (rollupStmts): they are the same for every batch,
// and SQLite would spend about as long parsing each again as running it.
// cache has begun the batch.
type writerTx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	cache *writerCache
}

func (t writerTx) cached() *writerCache { return t.cache }

func (t writerTx) exec(ctx context.Context, query string, args ...any) error {
	st := t.stmts[query]
	if st == nil {
		return sqlTx{t.tx}.exec(ctx, query, args...)
	}
	_, err := t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	return err
}

func (t writerTx) each(ctx context.Context, query string, args []any, row func(func(...any) error) error) error {
	st := t.stmts[query]
	if st == nil {
		return sqlTx{t.tx}.each(ctx, query, args, row)
	}
	rows, err := t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return eachRow(rows, row)
}

// pgxTx is a rollupTx on pgx; cache, when not nil, has begun the batch.
type pgxTx struct {
	tx    pgx.Tx
	cache *writerCache
}

func (t pgxTx) cached() *writerCache { return t.cache }

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
	return eachRow(rows, row)
}

// rowsSQL is a subquery that reads rows passed as query parameters from
// $at on (rowsArgs) as columns c0, c1, …: json_each over a JSON array on
// SQLite, unnest over one array a column on PostgreSQL. kinds are the
// columns' types: bigint, text, boolean or timestamptz (passed as dbTime
// text). A statement stays the same whatever the rows, so SQLite's writer
// prepares it once (writerTx).
func (s *Store) rowsSQL(at int, kinds []string) string {
	cols := make([]string, len(kinds))
	if s.dialect != Postgres {
		for i := range kinds {
			cols[i] = fmt.Sprintf("value->>%d AS c%d", i, i)
		}
		return fmt.Sprintf("(SELECT %s FROM json_each($%d))", strings.Join(cols, ", "), at)
	}
	arrays := make([]string, len(kinds))
	for i, kind := range kinds {
		cols[i] = fmt.Sprintf("c%d", i)
		arrays[i] = fmt.Sprintf("$%d::%s[]", at+i, kind)
		if kind == "timestamptz" {
			arrays[i] = fmt.Sprintf("$%d::text[]::timestamptz[]", at+i)
		}
	}
	return fmt.Sprintf("(SELECT * FROM unnest(%s) AS r (%s))", strings.Join(arrays, ", "), strings.Join(cols, ", "))
}

// rowsArgs are the parameters of rowsSQL(at, kinds) for rows.
func (s *Store) rowsArgs(kinds []string, rows [][]any) []any {
	if s.dialect != Postgres {
		body, _ := json.Marshal(rows) // ints, strings and bools
		return []any{string(body)}
	}
	args := make([]any, len(kinds))
	for i, kind := range kinds {
		switch kind {
		case "bigint":
			args[i] = column[int64](rows, i)
		case "boolean":
			args[i] = column[bool](rows, i)
		default:
			args[i] = column[string](rows, i)
		}
	}
	return args
}

// column is the i-th values of rows, typed for pgx to send as an array.
func column[T any](rows [][]any, i int) []T {
	out := make([]T, len(rows))
	for j, row := range rows {
		out[j] = row[i].(T)
	}
	return out
}

// idArgs are the parameters of rowsSQL(at, idKinds) for ids.
func (s *Store) idArgs(ids []int64) []any {
	rows := make([][]any, len(ids))
	for i, id := range ids {
		rows[i] = []any{id}
	}
	return s.rowsArgs(idKinds, rows)
}

// The columns of the rows each rollup statement takes.
var (
	idKinds          = []string{"bigint"}
	visitorKinds     = []string{"bigint", "timestamptz", "boolean", "text"}
	userVisitorKinds = []string{"bigint", "timestamptz", "boolean", "text", "bigint"}
	dayKinds         = []string{"bigint", "timestamptz", "boolean", "bigint", "text"}
)

// rollupSQL is the statements that add a batch to the rollups, built once
// per store.
type rollupSQL struct {
	owners, liveOwners           string                 // $1: idKinds rows
	bumpVersions                 string                 // $1: idKinds rows (users)
	addVisitors, addUserVisitors string                 // $1…: visitorKinds, userVisitorKinds rows
	visitorQuarters              string                 // $1…: quarterKinds rows
	readDays                     map[rollupTable]string // $1, $2: first and last day; $3: idKinds rows
	writeDays                    map[rollupTable]string // $1…: dayKinds rows
}

func (s *Store) buildRollupSQL() *rollupSQL {
	owners := `SELECT id, workspace_id FROM dynamic_qr_codes WHERE id IN (SELECT c0 FROM ` + s.rowsSQL(1, idKinds) + ` ids)`
	q := &rollupSQL{
		owners:     owners,
		liveOwners: owners + ` AND NOT is_deleted`,
		addVisitors: `INSERT INTO scan_visitors (dynamic_qr_code_id, day, is_bot, visitor_hash)
			SELECT c0, c1, c2, c3 FROM ` + s.rowsSQL(1, visitorKinds) + ` v WHERE true
			ON CONFLICT DO NOTHING RETURNING dynamic_qr_code_id, is_bot, visitor_hash`,
		// A new visitor's quarters are set by visitorQuarters, next.
		addUserVisitors: `INSERT INTO scan_workspace_visitors (workspace_id, day, is_bot, visitor_hash, codes, first_quarter, last_quarter)
			SELECT c0, c1, c2, c3, c4, 96, -1 FROM ` + s.rowsSQL(1, userVisitorKinds) + ` v WHERE true
			ON CONFLICT (workspace_id, day, is_bot, visitor_hash) DO UPDATE SET codes = scan_workspace_visitors.codes + excluded.codes
			RETURNING is_bot, visitor_hash, codes`,
		bumpVersions: `INSERT INTO workspace_rollup_versions (workspace_id, version)
			SELECT c0, 1 FROM ` + s.rowsSQL(1, idKinds) + ` u WHERE true
			ON CONFLICT (workspace_id) DO UPDATE SET version = workspace_rollup_versions.version + 1
			RETURNING workspace_id, version`,
		visitorQuarters: s.visitorQuartersSQL(true),
		readDays:        map[rollupTable]string{}, writeDays: map[rollupTable]string{},
	}
	for _, t := range []rollupTable{codeDays, userDays, userQuarters, tagDays, folderDays, countryRollupDays} {
		q.readDays[t] = daySelect(t) + `WHERE ` + t.at + ` >= $1 AND ` + t.at + ` <= $2 AND ` + t.owner + ` IN (SELECT c0 FROM ` + s.rowsSQL(3, idKinds) + ` ids)`
		q.writeDays[t] = `INSERT INTO ` + t.name + ` (` + t.owner + `, ` + t.at + `, is_bot, scans, tally)
			SELECT c0, c1, c2, c3, c4 FROM ` + s.rowsSQL(1, dayKinds) + ` r WHERE true
			ON CONFLICT (` + t.owner + `, ` + t.at + `, is_bot) DO UPDATE SET scans = excluded.scans, tally = excluded.tally`
	}
	return q
}

// statements lists q's statements, to prepare.
func (q *rollupSQL) statements() []string {
	list := []string{q.owners, q.liveOwners, q.bumpVersions, q.addVisitors, q.addUserVisitors, q.visitorQuarters, openDaySQL}
	for _, t := range []rollupTable{codeDays, userDays, userQuarters} {
		list = append(list, q.readDays[t], q.writeDays[t])
	}
	return list
}

// rollupLock makes the rest of tx the only writer of the users' rollups
// and codes' scan counts on PostgreSQL (SQLite has a single writer
// already). Users are locked in id order, and before any code row the
// transaction changes, so two batches of one user's codes never wait for
// each other's code rows in opposite orders.
func (s *Store) rollupLock(ctx context.Context, tx rollupTx, users []int64) error {
	if s.dialect != Postgres {
		return nil
	}
	// Shared with every other writer, before the users: a day is not
	// closed under a batch (opendays.go).
	if err := tx.exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, closeLock); err != nil {
		return err
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
	owners, err := s.lockOwners(ctx, tx, events)
	if err != nil {
		return err
	}
	return s.rollUpLocked(ctx, tx, events, owners)
}

// lockOwners takes the rollup locks of the owners of the events' codes
// and maps each live code to its owner. On PostgreSQL it must come before
// the transaction locks any code row (see rollupLock).
func (s *Store) lockOwners(ctx context.Context, tx rollupTx, events []ScanEvent) (map[int64]int64, error) {
	codes := map[int64]bool{}
	for i := range events {
		codes[events[i].CodeID] = true
	}
	return s.liveOwners(ctx, tx, slices.Sorted(maps.Keys(codes)))
}

// rollUpLocked is rollUp once lockOwners has given the owners: it reads
// the first open day under their locks.
func (s *Store) rollUpLocked(ctx context.Context, tx rollupTx, events []ScanEvent, owners map[int64]int64) error {
	open, err := s.openDay(ctx, tx)
	if err != nil {
		return err
	}
	// Late scans change closed days' code rows, which tag and folder rows
	// are summed from (groupdays.go).
	late, lateDays := map[int64]bool{}, map[rollupKey]bool{}
	for i := range events {
		if owner, live := owners[events[i].CodeID]; live && events[i].ScannedAt.Before(open) {
			late[owner] = true
			lateDays[rollupKey{owner: owner, day: utcDay(events[i].ScannedAt)}] = true
		}
	}
	versions, err := bumpCodeRollups(ctx, tx, late)
	if err != nil {
		return err
	}
	// And the closed days' country rows (countrydays.go).
	if err := s.markLateDays(ctx, tx, lateDays); err != nil {
		return err
	}
	return s.addToRollups(ctx, tx, events, owners, open, versions)
}

// addToRollups adds the events of live codes to their owners' rows and
// visitor sets, and to their codes' rows of the days before open; and
// those, to the tag and folder rows summed with the codes at the version
// before the workspaces' versions (addLateToGroups).
func (s *Store) addToRollups(ctx context.Context, tx rollupTx, events []ScanEvent, owners map[int64]int64, open time.Time, versions map[int64]int64) error {
	code, user, quarters := map[rollupKey]*dayTally{}, map[rollupKey]*dayTally{}, map[rollupKey]*dayTally{}
	spans := visitorSpans{}
	var seen []visit
	for i := range events {
		e := &events[i]
		owner, live := owners[e.CodeID]
		if !live {
			continue
		}
		day := utcDay(e.ScannedAt)
		if day.Before(open) {
			tallyOf(code, rollupKey{e.CodeID, day, e.IsBot}).add(e)
		}
		tallyOf(user, rollupKey{owner, day, e.IsBot}).add(e)
		tallyOf(quarters, rollupKey{owner, e.ScannedAt.UTC().Truncate(15 * time.Minute), e.IsBot}).add(e)
		if e.VisitorHash != "" {
			seen = append(seen, visit{code: e.CodeID, user: owner, day: day, bot: e.IsBot, hash: e.VisitorHash})
			spans.add(owner, day, e)
		}
	}
	if err := s.countVisitors(ctx, tx, seen, code, user); err != nil {
		return err
	}
	if err := s.widenVisitorQuarters(ctx, tx, spans); err != nil {
		return err
	}
	// An open day's visitors are counted when it closes.
	maps.DeleteFunc(code, func(k rollupKey, _ *dayTally) bool { return !k.day.Before(open) })
	// Before the code rows take them: applyDays leaves each row's sum in code.
	if err := s.addLateToGroups(ctx, tx, versions, code, owners); err != nil {
		return err
	}
	if err := s.applyDays(ctx, tx, codeDays, code, 1); err != nil {
		return err
	}
	if err := s.applyDays(ctx, tx, userQuarters, quarters, 1); err != nil {
		return err
	}
	return s.applyDays(ctx, tx, userDays, user, 1)
}

// dayCounter tallies scan events read back from scan_events, counting
// each visitor hash once per rollup row: K is rollupKey, or countryKey
// for the workspace's rows by country (countrydays.go).
type dayCounter[K comparable] struct {
	tallies map[K]*dayTally
	seen    map[K]map[string]bool
}

func newDayCounter[K comparable]() *dayCounter[K] {
	return &dayCounter[K]{tallies: map[K]*dayTally{}, seen: map[K]map[string]bool{}}
}

// add counts e in row k.
func (c *dayCounter[K]) add(k K, e *ScanEvent) { c.addAs(k, k, e) }

// addAs counts e in row k, its visitor once per row of the rollups it
// stands for: a report summed from many codes' events keeps one row per
// day, not one per code and day, and counts a visitor once per code.
func (c *dayCounter[K]) addAs(k, row K, e *ScanEvent) {
	d := tallyOf(c.tallies, k)
	d.add(e)
	if e.VisitorHash == "" || c.seen[row][e.VisitorHash] {
		return
	}
	if c.seen[row] == nil {
		c.seen[row] = map[string]bool{}
	}
	c.seen[row][e.VisitorHash] = true
	d.Visitors++
}

func tallyOf[K comparable](m map[K]*dayTally, k K) *dayTally {
	t := m[k]
	if t == nil {
		t = &dayTally{}
		m[k] = t
	}
	return t
}

// liveOwners maps each live code of codes to its owner, with the owners'
// rollups locked. A code deleted before the lock was had is left out: its
// deletion, which holds the lock, has taken its scans out of the rollups
// and will not see these.
func (s *Store) liveOwners(ctx context.Context, tx rollupTx, codes []int64) (map[int64]int64, error) {
	if c := tx.cached(); c != nil {
		return s.liveOwnersCached(ctx, tx, c, codes)
	}
	owners := map[int64]int64{}
	read := func(query string) error {
		clear(owners)
		return s.eachOwner(ctx, tx, query, codes, func(id, user int64) { owners[id] = user })
	}
	if s.dialect == Postgres {
		if err := read(s.rollup.owners); err != nil {
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
	return owners, read(s.rollup.liveOwners)
}

// liveOwnersCached is liveOwners with the writer's cache: only the codes
// it does not know are read, and it is checked against workspace_rollup_versions
// once the users' locks are held.
func (s *Store) liveOwnersCached(ctx context.Context, tx rollupTx, c *writerCache, codes []int64) (map[int64]int64, error) {
	// Owners change only when a code moves, which bumps the versions of
	// both workspaces: a cached owner holds until a version says otherwise.
	locked, versions := map[int64]bool{}, map[int64]int64{}
	for {
		var unknown []int64
		for _, code := range codes {
			if _, ok := c.owner[code]; !ok {
				unknown = append(unknown, code)
			}
		}
		if len(unknown) > 0 {
			err := s.eachOwner(ctx, tx, s.rollup.owners, unknown, func(id, user int64) { c.owner[id] = user })
			if err != nil {
				return nil, err
			}
		}
		var more []int64
		for _, code := range codes {
			if user, ok := c.owner[code]; ok && !locked[user] {
				locked[user] = true
				more = append(more, user)
			}
		}
		if len(more) == 0 {
			break
		}
		// A code moved since its owner was cached: its new owner is
		// locked too (after the others; a deadlock with a concurrent
		// batch, which PostgreSQL breaks, fails this batch alone).
		if err := s.rollupLock(ctx, tx, more); err != nil {
			return nil, err
		}
		stale, err := s.bumpVersions(ctx, tx, c, more, versions)
		if err != nil {
			return nil, err
		}
		if !stale {
			break
		}
	}
	maps.Copy(c.newVersions, versions)
	live := map[int64]int64{}
	var check []int64
	for _, code := range codes {
		if c.live[code] {
			live[code] = c.owner[code]
		} else if _, ok := c.owner[code]; ok {
			check = append(check, code)
		}
	}
	if len(check) == 0 {
		return live, nil
	}
	err := s.eachOwner(ctx, tx, s.rollup.liveOwners, check, func(id, user int64) {
		live[id] = user
		c.newLive = append(c.newLive, id)
	})
	return live, err
}

// eachOwner calls fn with each (code, owner) row of an owners or
// liveOwners query of codes.
func (s *Store) eachOwner(ctx context.Context, tx rollupTx, query string, codes []int64, fn func(id, user int64)) error {
	return tx.each(ctx, query, s.idArgs(codes), func(scan func(...any) error) error {
		var id, user int64
		if err := scan(&id, &user); err != nil {
			return err
		}
		fn(id, user)
		return nil
	})
}

// visit is a visitor hash seen on a code's day.
type visit struct {
	code, user int64
	day        time.Time
	bot        bool
	hash       string
}

// countVisitors counts in code and user the visits new to scan_visitors
// and scan_workspace_visitors, and records them there.
func (s *Store) countVisitors(ctx context.Context, tx rollupTx, seen []visit, code, user map[rollupKey]*dayTally) error {
	type userDay struct {
		user int64
		day  time.Time
	}
	type byUser struct {
		bot  bool
		hash string
	}
	byDay := map[userDay]map[visit]bool{}
	c := tx.cached()
	for _, v := range seen {
		if c != nil {
			if c.visits[v] {
				continue // in scan_visitors already
			}
			c.newVisits = append(c.newVisits, v)
		}
		k := userDay{v.user, v.day}
		if byDay[k] == nil {
			byDay[k] = map[visit]bool{}
		}
		byDay[k][v] = true
	}
	for ud, visits := range byDay {
		// The code's visits that are new to it...
		added := map[byUser]int64{}
		var rows [][]any
		for v := range visits {
			rows = append(rows, []any{v.code, dbTime(ud.day), v.bot, v.hash})
		}
		err := tx.each(ctx, s.rollup.addVisitors, s.rowsArgs(visitorKinds, rows),
			func(scan func(...any) error) error {
				var c int64
				var u byUser
				if err := scan(&c, &u.bot, &u.hash); err != nil {
					return err
				}
				tallyOf(code, rollupKey{c, ud.day, u.bot}).Visitors++
				added[u]++
				return nil
			})
		if err != nil {
			return err
		}
		if len(added) == 0 {
			continue
		}
		// ...are new to the user when no other code of theirs had them.
		rows = rows[:0]
		for u, n := range added {
			rows = append(rows, []any{ud.user, dbTime(ud.day), u.bot, u.hash, n})
		}
		err = tx.each(ctx, s.rollup.addUserVisitors, s.rowsArgs(userVisitorKinds, rows), func(scan func(...any) error) error {
			var u byUser
			var codes int64
			if err := scan(&u.bot, &u.hash, &codes); err != nil {
				return err
			}
			if codes == added[u] {
				tallyOf(user, rollupKey{ud.user, ud.day, u.bot}).Visitors++
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// applyDays adds sign × each tally to its row of t, deleting rows left
// with no scans.
func (s *Store) applyDays(ctx context.Context, tx rollupTx, t rollupTable, days map[rollupKey]*dayTally, sign int64) error {
	if len(days) == 0 {
		return nil
	}
	owners := map[int64]bool{}
	var first, last time.Time
	c := tx.cached()
	for k := range days {
		if c != nil && c.days[t][k] != nil {
			continue
		}
		owners[k.owner] = true
		if first.IsZero() || k.day.Before(first) {
			first = k.day
		}
		if k.day.After(last) {
			last = k.day
		}
	}
	rows := days
	if sign != 1 {
		rows = map[rollupKey]*dayTally{}
		for k, d := range days {
			rows[k] = &dayTally{}
			rows[k].merge(d, sign)
		}
	}
	if c != nil {
		// The cached row takes the batch in place: a failed batch empties
		// the cache.
		for k, row := range rows {
			if had := c.days[t][k]; had != nil {
				had.merge(row, 1)
				rows[k] = had
			}
		}
	}
	if len(owners) > 0 {
		err := s.eachDay(ctx, tx, s.rollup.readDays[t],
			append([]any{dbTime(first), dbTime(last)}, s.idArgs(slices.Collect(maps.Keys(owners)))...), func(k rollupKey, had *dayTally) {
				if row := rows[k]; row != nil && (c == nil || c.days[t][k] == nil) {
					row.merge(had, 1)
				}
			})
		if err != nil {
			return err
		}
	}
	var keep [][]any
	for k, row := range rows {
		if c != nil {
			c.newDays[t][k] = row // nil below if deleted
		}
		if row.Scans == 0 {
			if c != nil {
				c.newDays[t][k] = nil
			}
			err := tx.exec(ctx, `DELETE FROM `+t.name+` WHERE `+t.owner+` = $1 AND `+t.at+` = $2 AND is_bot = $3`, k.owner, dbTime(k.day), k.bot)
			if err != nil {
				return err
			}
			continue
		}
		keep = append(keep, []any{k.owner, dbTime(k.day), k.bot, row.Scans, row.encode()})
	}
	if len(keep) == 0 {
		return nil
	}
	return tx.exec(ctx, s.rollup.writeDays[t], s.rowsArgs(dayKinds, keep)...)
}

// daySelect reads t's rows, to be followed by a WHERE clause.
func daySelect(t rollupTable) string {
	return `SELECT ` + t.owner + `, ` + t.at + `, is_bot, tally FROM ` + t.name + ` `
}

// eachDay calls fn with the rows of a daySelect query.
func (s *Store) eachDay(ctx context.Context, tx rollupTx, query string, args []any, fn func(rollupKey, *dayTally)) error {
	return tx.each(ctx, query, args,
		func(scan func(...any) error) error {
			var k rollupKey
			var body string
			if err := scan(&k.owner, scanTime(&k.day), &k.bot, &body); err != nil {
				return err
			}
			d, err := decodeTally(body)
			if err != nil {
				return fmt.Errorf("rollup of %d on %s: %w", k.owner, k.day, err)
			}
			k.day = k.day.UTC()
			fn(k, d)
			return nil
		})
}

// dropCodeRollups takes the code's scans out of its owner's rollups and
// removes its own, in the transaction that deletes it, which holds the
// owner's rollupLock.
func (s *Store) dropCodeRollups(ctx context.Context, tx rollupTx, userID, codeID int64) error {
	// The writers' caches of the user's rollups are out of date, and the
	// tag and folder rows lose the code's (an undone deletion brings the
	// code back without its rows).
	if err := outdateWriterCaches(ctx, tx, userID); err != nil {
		return err
	}
	if err := s.takeOutOfGroups(ctx, tx, userID, codeID); err != nil {
		return err
	}
	out := map[rollupKey]*dayTally{}
	// The user's visitors that scanned no other code of theirs that day
	// go with the code.
	err := tx.exec(ctx, `UPDATE scan_workspace_visitors SET codes = codes - 1
		WHERE workspace_id = $1 AND (day, is_bot, visitor_hash) IN (
			SELECT day, is_bot, visitor_hash FROM scan_visitors WHERE dynamic_qr_code_id = $2)`, userID, codeID)
	if err != nil {
		return err
	}
	err = tx.each(ctx, `SELECT day, is_bot, count(*) FROM scan_workspace_visitors
		WHERE workspace_id = $1 AND codes = 0 GROUP BY day, is_bot`, []any{userID},
		func(scan func(...any) error) error {
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
	if err := tx.exec(ctx, `DELETE FROM scan_workspace_visitors WHERE workspace_id = $1 AND codes = 0`, userID); err != nil {
		return err
	}
	// The code's scans: its rows for the closed days, its events for the
	// open ones.
	open, err := s.openDay(ctx, tx)
	if err != nil {
		return err
	}
	err = s.eachDay(ctx, tx, daySelect(codeDays)+`WHERE dynamic_qr_code_id = $1 AND day < $2`, []any{codeID, dbTime(open)},
		func(k rollupKey, d *dayTally) {
			d.Visitors = 0 // the user's share is counted above
			tallyOf(out, rollupKey{userID, k.day, k.bot}).merge(d, 1)
		})
	if err != nil {
		return err
	}
	recent, err := s.codeEventsAfter(ctx, tx, userID, codeID, open)
	if err != nil {
		return err
	}
	for k, d := range recent {
		tallyOf(out, k).merge(d, 1)
	}
	for _, table := range []string{"scan_visitors", "scan_code_days"} {
		if err := tx.exec(ctx, `DELETE FROM `+table+` WHERE dynamic_qr_code_id = $1`, codeID); err != nil {
			return err
		}
	}
	if err := s.markStaleDays(ctx, tx, []int64{userID}, out); err != nil {
		return err
	}
	return s.applyDays(ctx, tx, userDays, out, -1)
}

// backfillRollups rolls up the scans saved before the rollups existed: the
// Go step of migration 0014, in its transaction.
func (s *Store) backfillRollups(ctx context.Context, tx *sql.Tx) error {
	// Scan events have no route before migration 0019.
	return s.rollUpEvents(ctx, tx, `'`+RouteDefault+`'`)
}

// rollUpEvents adds every scan event to the rollups, reading its route
// from the SQL expression route.
func (s *Store) rollUpEvents(ctx context.Context, tx *sql.Tx, route string) error {
	const page = 5000
	var after int64
	for {
		rows, err := tx.QueryContext(ctx, `
			SELECT id, dynamic_qr_code_id, scanned_at, device_type, os, browser, referrer, visitor_hash, is_bot, country, `+route+`
			FROM scan_events WHERE id > $1 ORDER BY id LIMIT $2`, after, page)
		if err != nil {
			return err
		}
		var batch []ScanEvent
		for rows.Next() {
			var e ScanEvent
			if err := rows.Scan(&e.ID, &e.CodeID, scanTime(&e.ScannedAt), &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.IsBot, &e.Country, &e.Route); err != nil {
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
		// Before migration 0016 every day is closed.
		owners, err := s.lockOwners(ctx, sqlTx{tx}, batch)
		if err != nil {
			return err
		}
		if err := s.addToRollups(ctx, sqlTx{tx}, batch, owners, farFuture, nil); err != nil {
			return err
		}
		after = batch[len(batch)-1].ID
	}
}

// rollupStmts prepares the rollups' statements on SQLite's writer, once,
// outside any transaction: the writer has one connection, which a
// transaction holds (as fullChunkStmts).
func (s *Store) rollupStmts(ctx context.Context) (map[string]*sql.Stmt, error) {
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.rollup == nil {
		stmts := map[string]*sql.Stmt{}
		for _, q := range s.rollup.statements() {
			st, err := s.write.PrepareContext(ctx, q)
			if err != nil {
				for _, st := range stmts {
					st.Close()
				}
				return nil, err
			}
			stmts[q] = st
		}
		b.rollup = stmts
	}
	return b.rollup, nil
}
