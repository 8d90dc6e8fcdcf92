package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Tag and folder rollups (issue 37). A tag's or a folder's views would
// read a row per code and day (scan_code_days): at ten million scans over
// a tag of 1,000 codes and 400 days that is 800,000 rows, seconds of
// work. scan_tag_days and scan_folder_days hold one row per group, UTC
// day and bot flag instead: the sums of the closed-day rows of the
// group's live codes, whose visitors count once per code as before.
//
// Which codes a group holds changes in many places (tag and folder
// edits, bulk edits, moves, deletions and their undo), so the rows are
// not kept up to date by each of them: they are a cache, built by the
// first view that needs them and checked by every view against what they
// were summed from (scan_*_rollups): the live codes' ids, the version of
// their closed-day code rows (the workspace's code_rollup_versions, bumped
// by the recorder when it adds late scans to a closed day) and the first
// day they do not cover. A code that joins or leaves the group has its
// rows added or taken out, and days closed since are added, by the next
// view. Late scans are added to the groups' rows as they are saved, which
// moves those groups to the new version (addLateToGroups); rows at another
// version are summed again from all the codes' rows by their next view.
// A code's deletion, which drops its rows, takes them out of the groups
// summed with it at once (takeOutOfGroups).

// codeSet is how to read the live codes of a group (or of one code),
// what rows summed from them are checked against.
type codeSet struct {
	// members lists the live codes of group $1 in its workspace, by id.
	members string
	// version reads the code_rollup_versions of group $1's workspace.
	version string
	// workspace reads group $1's workspace, whose rollup lock a group's
	// rows are written under.
	workspace string
}

// groupRollup is the rows of tags or of folders.
type groupRollup struct {
	codeSet
	days  rollupTable
	state string // the table of what each group's rows were summed from
	// summedWith lists workspace $1's groups whose rows were summed with
	// code $2 ($2: "%,ID,%"), with what they were summed from.
	summedWith string
	// inWorkspace is true when group $4 is workspace $3's (ScanQuery.codes).
	inWorkspace string
}

var (
	tagDays    = rollupTable{"scan_tag_days", "tag_id", "day"}
	folderDays = rollupTable{"scan_folder_days", "folder_id", "day"}
	tagRollups = groupRollup{
		codeSet: codeSet{
			members: `SELECT d.id FROM dynamic_qr_codes d JOIN dynamic_qr_code_tags t ON t.dynamic_qr_code_id = d.id JOIN tags g ON g.id = t.tag_id
				WHERE t.tag_id = $1 AND d.workspace_id = g.workspace_id AND NOT d.is_deleted ORDER BY d.id`,
			version:   `SELECT COALESCE(max(v.version), 0) FROM tags g JOIN code_rollup_versions v ON v.workspace_id = g.workspace_id WHERE g.id = $1`,
			workspace: `SELECT workspace_id FROM tags WHERE id = $1`,
		},
		days: tagDays, state: "scan_tag_rollups",
		inWorkspace: `SELECT 1 FROM tags WHERE id = $4 AND workspace_id = $3`,
		summedWith: `SELECT tag_id, members, code_version, through FROM scan_tag_rollups
			WHERE ',' || members || ',' LIKE $2 AND tag_id IN (SELECT id FROM tags WHERE workspace_id = $1)`,
	}
	folderRollups = groupRollup{
		codeSet: codeSet{
			members: `SELECT d.id FROM dynamic_qr_codes d JOIN folders f ON f.id = d.folder_id
				WHERE d.folder_id = $1 AND d.workspace_id = f.workspace_id AND NOT d.is_deleted ORDER BY d.id`,
			version:   `SELECT COALESCE(max(v.version), 0) FROM folders f JOIN code_rollup_versions v ON v.workspace_id = f.workspace_id WHERE f.id = $1`,
			workspace: `SELECT workspace_id FROM folders WHERE id = $1`,
		},
		days: folderDays, state: "scan_folder_rollups",
		inWorkspace: `SELECT 1 FROM folders WHERE id = $4 AND workspace_id = $3`,
		summedWith: `SELECT folder_id, members, code_version, through FROM scan_folder_rollups
			WHERE ',' || members || ',' LIKE $2 AND folder_id IN (SELECT id FROM folders WHERE workspace_id = $1)`,
	}
)

// group is q's tag's or folder's rollup and id; ok is false for a code's
// or the workspace's query.
func (q ScanQuery) group() (g groupRollup, id int64, ok bool) {
	switch {
	case q.TagID > 0:
		return tagRollups, q.TagID, true
	case q.FolderID > 0:
		return folderRollups, q.FolderID, true
	}
	return groupRollup{}, 0, false
}

// groupSource is what a group's rows are summed from.
type groupSource struct {
	codes   []int64 // ascending
	version int64
	through time.Time // the first day not covered: the first open day
}

// same reports whether rows summed from had hold s's codes and version
// (through aside).
func (had *groupSource) same(s *groupSource) bool {
	return had != nil && had.version == s.version && slices.Equal(had.codes, s.codes)
}

// members is how scan_*_rollups keeps codes: their ids, comma-separated.
func members(codes []int64) string {
	var b []byte
	for i, c := range codes {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, c, 10)
	}
	return string(b)
}

// rowQueryer is the read pool or a transaction.
type rowQueryer interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// groupSourceNow reads what group id's rows should be summed from now:
// the version first, then the open day, then the codes, so that rows read
// after them are at least as new (a change in between makes the next
// check look again, never keeps stale rows).
func (s *Store) groupSourceNow(ctx context.Context, g codeSet, id int64) (*groupSource, error) {
	return groupSourceIn(ctx, s.read, g, id, func() (time.Time, error) { return s.openDay(ctx, sqlTx{s.read}) })
}

// groupSourceIn is groupSourceNow in q (the read pool or a transaction),
// with through, read between the version and the codes, the first day.
func groupSourceIn(ctx context.Context, q interface {
	rowQueryer
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, g codeSet, id int64, through func() (time.Time, error)) (*groupSource, error) {
	src := &groupSource{}
	if err := q.QueryRowContext(ctx, g.version, id).Scan(&src.version); err != nil {
		return nil, err
	}
	var err error
	if src.through, err = through(); err != nil {
		return nil, err
	}
	err = eachRowIn(ctx, q, "list a group's codes", g.members, []any{id}, func(rows *sql.Rows) error {
		var code int64
		err := rows.Scan(&code)
		src.codes = append(src.codes, code)
		return err
	})
	return src, err
}

// groupSourceHad reads what group id's rows were summed from; nil when
// they were never built.
func groupSourceHad(ctx context.Context, q rowQueryer, g groupRollup, id int64) (*groupSource, error) {
	had := &groupSource{}
	var list string
	err := q.QueryRowContext(ctx, `SELECT members, code_version, through FROM `+g.state+` WHERE `+g.days.owner+` = $1`, id).
		Scan(&list, &had.version, scanTime(&had.through))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	had.through = had.through.UTC()
	if had.codes, err = parseMembers(list); err != nil {
		return nil, err
	}
	return had, nil
}

// parseMembers reads a member list as members writes it.
func parseMembers(list string) ([]int64, error) {
	var codes []int64
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' }) {
		code, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, err
		}
		codes = append(codes, code)
	}
	return codes, nil
}

// freshGroup brings group id's rows up to date with its codes' rows and
// returns the first day they do not cover, which a view reads from the
// events as an open day. With the version unchanged only what changed is
// read: the rows of the codes that joined or left the group, and the days
// closed since; else all its codes' rows. They are read outside any
// transaction, so that a rebuild does not hold SQLite's writer, and
// written only if no other view changed the group's rows meanwhile (else
// it looks again).
func (s *Store) freshGroup(ctx context.Context, g groupRollup, id int64) (time.Time, error) {
	for {
		cur, err := s.groupSourceNow(ctx, g.codeSet, id)
		if err != nil {
			return time.Time{}, fail("read a group's rollup", err)
		}
		had, err := groupSourceHad(ctx, s.read, g, id)
		if err != nil {
			return time.Time{}, fail("read a group's rollup", err)
		}
		if had.same(cur) && !had.through.Before(cur.through) {
			return had.through, nil
		}
		delta := map[rollupKey]*dayTally{}
		add := func(codes []int64, from, to time.Time, sign int64) error {
			if len(codes) == 0 || !from.Before(to) {
				return nil
			}
			return s.eachDay(ctx, sqlTx{s.read}, daySelect(codeDays)+`WHERE day >= $1 AND day < $2 AND dynamic_qr_code_id IN (SELECT c0 FROM `+s.rowsSQL(3, idKinds)+` ids)`,
				append([]any{dbTime(from), dbTime(to)}, s.idArgs(codes)...), func(k rollupKey, d *dayTally) {
					tallyOf(delta, rollupKey{id, k.day, k.bot}).merge(d, sign)
				})
		}
		rebuild := had == nil || had.version != cur.version
		if rebuild {
			err = add(cur.codes, time.Time{}, cur.through, 1)
		} else {
			joined, left := diffCodes(had.codes, cur.codes)
			err = errors.Join(add(joined, time.Time{}, had.through, 1), add(left, time.Time{}, had.through, -1),
				add(cur.codes, had.through, cur.through, 1))
		}
		if err != nil {
			return time.Time{}, fail("roll up a group", err)
		}
		wrote := false
		err = s.inTx(ctx, "roll up a group", func(tx *sql.Tx) error {
			// Under the workspace's rollup lock, which a code's deletion
			// holds: a deletion before these rows are written is seen by
			// the check of their codes below, one after them sees their
			// member list (takeOutOfGroups).
			var ws int64
			if err := tx.QueryRowContext(ctx, g.workspace, id).Scan(&ws); err != nil {
				return err // sql.ErrNoRows: the group is gone
			}
			if err := s.rollupLock(ctx, sqlTx{tx}, []int64{ws}); err != nil {
				return err
			}
			now, err := groupSourceHad(ctx, tx, g, id)
			if err != nil {
				return err
			}
			if (had == nil) != (now == nil) || had != nil && !(had.same(now) && had.through.Equal(now.through)) {
				return nil // another view got there first
			}
			// The codes and version the rows were summed for must still
			// hold: a code untagged and then deleted while they were
			// summed is in no member list the deletion could find.
			again, err := groupSourceIn(ctx, tx, g.codeSet, id, func() (time.Time, error) { return cur.through, nil })
			if err != nil || !again.same(cur) {
				return err
			}
			if rebuild {
				if _, err := tx.ExecContext(ctx, `DELETE FROM `+g.days.name+` WHERE `+g.days.owner+` = $1`, id); err != nil {
					return err
				}
			}
			if err := s.applyDays(ctx, sqlTx{tx}, g.days, delta, 1); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO `+g.state+` (`+g.days.owner+`, members, code_version, through) VALUES ($1, $2, $3, $4)
				ON CONFLICT (`+g.days.owner+`) DO UPDATE SET members = excluded.members, code_version = excluded.code_version, through = excluded.through`,
				id, members(cur.codes), cur.version, dbTime(cur.through))
			wrote = err == nil
			return err
		})
		if err != nil {
			return time.Time{}, fail("roll up a group", err)
		}
		if wrote {
			return cur.through, nil
		}
	}
}

// diffCodes is the codes in now and not in had, and those in had and not
// in now; both lists ascending.
func diffCodes(had, now []int64) (joined, left []int64) {
	i, j := 0, 0
	for i < len(had) || j < len(now) {
		switch {
		case j == len(now) || i < len(had) && had[i] < now[j]:
			left = append(left, had[i])
			i++
		case i == len(had) || now[j] < had[i]:
			joined = append(joined, now[j])
			j++
		default:
			i++
			j++
		}
	}
	return joined, left
}

// takeOutOfGroups takes a code that is being deleted, and its closed-day
// rows, out of the tag and folder rows summed with it, so that they stay
// valid without being summed again (a tag of 1,000 codes over 400 days
// takes seconds). Rows summed at an older version are left as they are:
// their next view rebuilds them anyway. It runs before the code's rows
// are dropped, under the workspace's rollup lock, as freshGroup writes a
// group's rows: rows written before it list the code and lose it here,
// and a build in flight finds the code gone from the group's members, or
// its member list changed, and looks again.
func (s *Store) takeOutOfGroups(ctx context.Context, tx rollupTx, workspaceID, codeID int64) error {
	listed := "%," + strconv.FormatInt(codeID, 10) + ",%"
	for _, g := range []groupRollup{tagRollups, folderRollups} {
		type summed struct {
			id      int64
			members string
			had     groupSource
		}
		var groups []summed
		err := tx.each(ctx, g.summedWith, []any{workspaceID, listed}, func(scan func(...any) error) error {
			var sg summed
			if err := scan(&sg.id, &sg.members, &sg.had.version, scanTime(&sg.had.through)); err != nil {
				return err
			}
			sg.had.through = sg.had.through.UTC()
			groups = append(groups, sg)
			return nil
		})
		if err != nil {
			return err
		}
		for _, sg := range groups {
			var version int64
			err := tx.each(ctx, g.version, []any{sg.id}, func(scan func(...any) error) error { return scan(&version) })
			if err != nil {
				return err
			}
			if version != sg.had.version {
				continue
			}
			out := map[rollupKey]*dayTally{}
			err = s.eachDay(ctx, tx, daySelect(codeDays)+`WHERE dynamic_qr_code_id = $1 AND day < $2`, []any{codeID, dbTime(sg.had.through)},
				func(k rollupKey, d *dayTally) { tallyOf(out, rollupKey{sg.id, k.day, k.bot}).merge(d, 1) })
			if err != nil {
				return err
			}
			if err := s.applyDays(ctx, tx, g.days, out, -1); err != nil {
				return err
			}
			listedCodes, err := parseMembers(sg.members)
			if err != nil {
				return err
			}
			rest := slices.DeleteFunc(listedCodes, func(code int64) bool { return code == codeID })
			err = tx.exec(ctx, `UPDATE `+g.state+` SET members = $1 WHERE `+g.days.owner+` = $2`, members(rest), sg.id)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// bumpCodeRollups counts a change to the closed-day code rows of the
// workspaces, which the tag and folder rows summed from them must see,
// and returns each workspace's new version.
func bumpCodeRollups(ctx context.Context, tx rollupTx, workspaces map[int64]bool) (map[int64]int64, error) {
	versions := map[int64]int64{}
	for ws := range workspaces {
		var version int64
		err := tx.each(ctx, `INSERT INTO code_rollup_versions (workspace_id, version) VALUES ($1, 1)
			ON CONFLICT (workspace_id) DO UPDATE SET version = code_rollup_versions.version + 1 RETURNING version`, []any{ws},
			func(scan func(...any) error) error { return scan(&version) })
		if err != nil {
			return nil, err
		}
		versions[ws] = version
	}
	return versions, nil
}

// addLateToGroups adds late scans' closed-day code rows (code: what each
// row of a code and day gains) to the tag and folder rows summed with
// those codes, and moves the groups of the workspaces that were summed at
// the version before versions' (the recorder's bump) to it: a late scan
// (saved over closeGrace after its UTC day ended: after a database outage,
// or from a backlog the recorder held) no longer makes each group's next
// view sum all its codes' rows again (seconds for a tag of 1,000 codes).
// Groups summed at an older version are rebuilt by their next view
// anyway. A build in flight, summed at the old version, finds the version
// changed when it writes and looks again (freshGroup); the caller holds
// the workspaces' rollup locks, as freshGroup does when it writes.
func (s *Store) addLateToGroups(ctx context.Context, tx rollupTx, versions map[int64]int64, code map[rollupKey]*dayTally, owners map[int64]int64) error {
	// The writer's cache keeps code and workspace rows only.
	tx = uncachedTx{tx}
	for ws, version := range versions {
		for _, g := range []groupRollup{tagRollups, folderRollups} {
			type summed struct {
				id      int64
				members string
				through time.Time
			}
			var groups []summed
			// Every group of the workspace: a LIKE of "%" lists them all.
			err := tx.each(ctx, g.summedWith, []any{ws, "%"}, func(scan func(...any) error) error {
				var sg summed
				var had int64
				if err := scan(&sg.id, &sg.members, &had, scanTime(&sg.through)); err != nil {
					return err
				}
				if had == version-1 {
					groups = append(groups, sg)
				}
				return nil
			})
			if err != nil {
				return err
			}
			for _, sg := range groups {
				codes, err := parseMembers(sg.members)
				if err != nil {
					return err
				}
				listed := map[int64]bool{}
				for _, c := range codes {
					listed[c] = true
				}
				delta := map[rollupKey]*dayTally{}
				for k, d := range code {
					if listed[k.owner] && owners[k.owner] == ws && k.day.Before(sg.through) {
						tallyOf(delta, rollupKey{sg.id, k.day, k.bot}).merge(d, 1)
					}
				}
				if err := s.applyDays(ctx, tx, g.days, delta, 1); err != nil {
					return err
				}
				err = tx.exec(ctx, `UPDATE `+g.state+` SET code_version = $1 WHERE `+g.days.owner+` = $2`, version, sg.id)
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// uncachedTx is a rollupTx without the writer's cache.
type uncachedTx struct{ rollupTx }

func (uncachedTx) cached() *writerCache { return nil }
