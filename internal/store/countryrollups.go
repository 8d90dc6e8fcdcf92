package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"
)

// A code's, a tag's and a folder's scans by country (issue 37). Their
// views of one country read the range's scan events: at ten million
// scans, a second or two for a tag of 1,000 codes over 400 days, and
// most of a second for a code of a million scans. A row of
// scan_country_rollups describes the rows of one scope (a code, a tag or
// a folder) and country in scan_country_rollup_days: one per closed UTC
// day and bot flag, summed from the events of the scope's live codes, each
// visitor once per code as in the code rows. Few scans a code and day are
// of any one country, so rows per code and country written as days close
// would be about one per scan; these are kept for the scopes and
// countries someone views, as the tag's and folder's other rows are
// (groupdays.go): a cache, built by the first view that needs it and
// checked by every view against what it was summed from (the live codes,
// their workspace's code_rollup_versions, which late scans bump, and the
// days it covers). The days closed since are added, as are days before
// the first it covers that a view reaches; any other change (a code that
// joins or leaves, late scans) makes the next view sum its range again
// from the events, as it read them before the rows: never a stale answer,
// at worst the old cost once.

// countryRollupDays is the rows of scan_country_rollup_days, their owner
// a row of scan_country_rollups.
var countryRollupDays = rollupTable{"scan_country_rollup_days", "rollup_id", "day"}

// countryScope is whose rows by country a view reads: the column of
// scan_country_rollups that names a code, a tag or a folder, and how to
// read its live codes.
type countryScope struct {
	column string
	codes  codeSet
}

var codeCountries = countryScope{"dynamic_qr_code_id", codeSet{
	members:   `SELECT id FROM dynamic_qr_codes WHERE id = $1 AND NOT is_deleted`,
	version:   `SELECT COALESCE(max(v.version), 0) FROM dynamic_qr_codes d JOIN code_rollup_versions v ON v.workspace_id = d.workspace_id WHERE d.id = $1`,
	workspace: `SELECT workspace_id FROM dynamic_qr_codes WHERE id = $1`,
}}

// countryScope is q's scope and its id; q is perCode.
func (q ScanQuery) countryScope() (countryScope, int64) {
	if g, id, ok := q.group(); ok {
		column := "tag_id"
		if q.FolderID > 0 {
			column = "folder_id"
		}
		return countryScope{column, g.codeSet}, id
	}
	return countryScope{"dynamic_qr_code_id", codeCountries.codes}, q.CodeID
}

// countryRollup is a row of scan_country_rollups: its rows cover the
// days [from, src.through) of src's codes.
type countryRollup struct {
	id   int64
	src  groupSource
	from time.Time
}

// countryRollupIn reads scope id's rollup of country in q; nil when there
// is none.
func countryRollupIn(ctx context.Context, q rowQueryer, scope countryScope, id int64, country string) (*countryRollup, error) {
	r := &countryRollup{}
	var list string
	err := q.QueryRowContext(ctx, `SELECT id, members, code_version, from_day, through FROM scan_country_rollups WHERE `+scope.column+` = $1 AND country = $2`,
		id, country).Scan(&r.id, &list, &r.src.version, scanTime(&r.from), scanTime(&r.src.through))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.from, r.src.through = r.from.UTC(), r.src.through.UTC()
	r.src.codes, err = parseMembers(list)
	return r, err
}

// same reports whether r and o are the same rollup, summed the same.
func (r *countryRollup) same(o *countryRollup) bool {
	if r == nil || o == nil {
		return r == o
	}
	return r.id == o.id && r.src.same(&o.src) && r.src.through.Equal(o.src.through) && r.from.Equal(o.from)
}

// countryBuild is what a view of one country of a scope adds to its rows
// before reading them: the events of spans, summed in place of the rows
// (rebuild) or beside them, after which they cover [from, src.through).
type countryBuild struct {
	scope   countryScope
	id      int64
	country string
	had     *countryRollup
	src     *groupSource
	rebuild bool
	spans   []ScanQuery
	from    time.Time
}

// planCountryBuild plans the build of the rows of q's scope (id) and country
// that rows, whole days from the first open day on, needs: none when
// they are up to date. The rows are summed again from rows.From when
// their codes or version changed or they would not meet the new days.
func (s *Store) planCountryBuild(ctx context.Context, q, rows ScanQuery, scope countryScope, id int64) (*countryBuild, error) {
	src, err := s.groupSourceNow(ctx, scope.codes, id)
	if err != nil {
		return nil, fail("read a scope's rows by country", err)
	}
	had, err := countryRollupIn(ctx, s.read, scope, id, q.Country)
	if err != nil {
		return nil, fail("read a scope's rows by country", err)
	}
	b := &countryBuild{scope: scope, id: id, country: q.Country, had: had, src: src, from: rows.From}
	span := func(from, to time.Time) {
		if from.Before(to) {
			e := q
			e.From, e.To = from, to
			b.spans = append(b.spans, e)
		}
	}
	if had == nil || !had.src.same(src) || rows.From.After(had.src.through) {
		b.rebuild = true
		span(rows.From, src.through)
		return b, nil
	}
	b.from = earlier(had.from, rows.From)
	span(rows.From, had.from)
	span(had.src.through, src.through)
	return b, nil
}

// apply reads the build's events and writes the rows from them, unless
// the rows or their codes changed since it was planned (ok is false:
// plan again). It returns the rows' rollup.
func (b *countryBuild) apply(ctx context.Context, s *Store) (id int64, ok bool, err error) {
	if len(b.spans) == 0 {
		return b.had.id, true, nil
	}
	counter := newDayCounter[rollupKey]()
	for _, span := range b.spans {
		if len(b.src.codes) == 0 {
			break
		}
		err := s.eachRow(ctx, "read scans by country", `
			SELECT e.dynamic_qr_code_id, e.scanned_at, e.is_bot, e.device_type, e.os, e.browser, e.referrer, e.visitor_hash, e.country, e.region, e.city, e.route
			FROM scan_events e WHERE e.scanned_at >= $1 AND e.scanned_at < $2 AND e.country = $3
				AND e.dynamic_qr_code_id IN (SELECT c0 FROM `+s.rowsSQL(4, idKinds)+` ids)`,
			append([]any{dbTime(span.From), dbTime(span.To), b.country}, s.idArgs(b.src.codes)...), func(rows *sql.Rows) error {
				var e ScanEvent
				if err := rows.Scan(&e.CodeID, scanTime(&e.ScannedAt), &e.IsBot, &e.DeviceType, &e.OS, &e.Browser, &e.Referrer, &e.VisitorHash, &e.Country, &e.Region, &e.City, &e.Route); err != nil {
					return err
				}
				day := utcDay(e.ScannedAt)
				counter.addAs(rollupKey{0, day, e.IsBot}, rollupKey{e.CodeID, day, e.IsBot}, &e)
				return nil
			})
		if err != nil {
			return 0, false, err
		}
	}
	err = s.inTx(ctx, "sum scans by country", func(tx *sql.Tx) error {
		// Under the scope's workspace's rollup lock, as a group's rows
		// are written: a late scan or a deletion after this sees the new
		// rollup, one before it changed what is checked below.
		var ws int64
		if err := tx.QueryRowContext(ctx, b.scope.codes.workspace, b.id).Scan(&ws); err != nil {
			return err // sql.ErrNoRows: the scope is gone
		}
		if err := s.rollupLock(ctx, sqlTx{tx}, []int64{ws}); err != nil {
			return err
		}
		now, err := countryRollupIn(ctx, tx, b.scope, b.id, b.country)
		if err != nil || !now.same(b.had) {
			return err // another view got there first
		}
		again, err := groupSourceIn(ctx, tx, b.scope.codes, b.id, func() (time.Time, error) { return b.src.through, nil })
		if err != nil || !again.same(b.src) {
			return err
		}
		switch {
		case b.had == nil:
			err = tx.QueryRowContext(ctx, `INSERT INTO scan_country_rollups (`+b.scope.column+`, country, members, code_version, from_day, through)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
				b.id, b.country, members(b.src.codes), b.src.version, dbTime(b.from), dbTime(b.src.through)).Scan(&id)
		default:
			id = b.had.id
			if b.rebuild {
				if _, err := tx.ExecContext(ctx, `DELETE FROM scan_country_rollup_days WHERE rollup_id = $1`, id); err != nil {
					return err
				}
			}
			_, err = tx.ExecContext(ctx, `UPDATE scan_country_rollups SET members = $1, code_version = $2, from_day = $3, through = $4 WHERE id = $5`,
				members(b.src.codes), b.src.version, dbTime(b.from), dbTime(b.src.through), id)
		}
		if err != nil {
			return err
		}
		days := make(map[rollupKey]*dayTally, len(counter.tallies))
		for k, d := range counter.tallies {
			days[rollupKey{id, k.day, k.bot}] = d
		}
		ok = true
		return s.applyDays(ctx, sqlTx{tx}, countryRollupDays, days, 1)
	})
	if err != nil {
		return 0, false, fail("sum scans by country", err)
	}
	return id, ok, nil
}

// scopeCountryParts is countryParts for a code's, a tag's or a folder's
// view of one country: its closed days from the kept events on come from
// its rows by country, built first when build is set; the open days, the
// part days at the range's ends and the days before the kept events from
// the events. Without build, the events also list the spans building
// would read.
func (s *Store) scopeCountryParts(ctx context.Context, q ScanQuery, build bool) (rows countryRows, events []ScanQuery, err error) {
	days, edges := q.split()
	if !days.From.Before(days.To) {
		return countryRows{}, edges, nil
	}
	// Another workspace's scope is read from the events, which q's
	// workspace picks: none.
	scope, id := q.countryScope()
	var ws int64
	if err := s.read.QueryRowContext(ctx, scope.codes.workspace, id).Scan(&ws); errors.Is(err, sql.ErrNoRows) || err == nil && ws != q.WorkspaceID {
		return countryRows{}, []ScanQuery{q}, nil
	} else if err != nil {
		return countryRows{}, nil, fail("read a scope's workspace", err)
	}
	kept, err := s.EventsFrom(ctx)
	if err != nil {
		return countryRows{}, nil, err
	}
	for try := 0; try < countryRetries; try++ {
		open, err := s.openDay(ctx, sqlTx{s.read})
		if err != nil {
			return countryRows{}, nil, fail("read the open day", err)
		}
		whole := days
		whole.From, whole.To = later(days.From, kept), earlier(days.To, open)
		events = slices.Clone(edges) // joinSpans sorts in place
		if !whole.From.Before(whole.To) {
			return countryRows{}, joinSpans(append(events, days)), nil
		}
		b, err := s.planCountryBuild(ctx, q, whole, scope, id)
		if err != nil {
			return countryRows{}, nil, err
		}
		// The open days as the build sees them: it may have read a later
		// first open day than open.
		whole.To = earlier(days.To, b.src.through)
		for _, e := range [][2]time.Time{{days.From, whole.From}, {whole.To, days.To}} {
			if e[0].Before(e[1]) {
				span := q
				span.From, span.To = e[0], e[1]
				events = append(events, span)
			}
		}
		if !build {
			return countryRows{}, joinSpans(append(events, b.spans...)), nil
		}
		rollup, ok, err := b.apply(ctx, s)
		if err != nil {
			return countryRows{}, nil, err
		}
		if ok {
			return countryRows{ScanQuery: whole, rollup: rollup}, joinSpans(events), nil
		}
	}
	return countryRows{}, nil, errRowsChanging
}
