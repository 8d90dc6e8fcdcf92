package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Moving codes to another workspace (docs/API.md "Moving codes"): a bulk
// edit job of the source workspace (BulkEditJob.MoveTo names the target)
// whose items each move one code, in the transaction that moves the item
// from pending, so a resumed job moves each code once. A code keeps its id,
// short code, scans, per-code rollups and routing; it leaves its folder
// (folders are a workspace's), takes the target's tags of the same names
// (made when missing), its share of the workspace rollups moves with it,
// and its audit trail is copied into the target's log.

// MsgMoveLimit is why a move leaves a dynamic code where it is: the
// target is at its limit of live dynamic codes.
const MsgMoveLimit = "The target workspace has reached its limit of dynamic QR codes"

// MsgMovePage is why a move leaves a code that opens one of the source's
// hosted pages (itself, or by a routing rule or split): pages are the
// workspace's, and do not move.
const MsgMovePage = "The code opens a hosted page of this workspace, and pages do not move: point it elsewhere first"

// EventCodeMoved's data: the code, and where it went from and to.
type movedCode struct {
	webhookCode
	FromWorkspaceID int64 `json:"fromWorkspaceId"`
	ToWorkspaceID   int64 `json:"toWorkspaceId"`
}

// DynamicUsedForMove is the largest use of live dynamic codes, counted
// as for the target's limit (used), that a move from workspace from adds
// to; grows is false when it adds to none. Of the target's free plan (an
// owner's codes across the free workspaces they own), an owner who owns
// the source as a free workspace too counts the codes already; the
// target's own count grows unless such an owner's (which holds it) does
// not.
func (s *Store) DynamicUsedForMove(ctx context.Context, from, to int64) (n int, grows bool, err error) {
	base, grows, err := moveGrowth(ctx, s.read, from, to)
	return int(base), grows, err
}

func moveGrowth(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, from, to int64) (int64, bool, error) {
	var own int64
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted`, to).Scan(&own); err != nil {
		return 0, false, fail("count dynamic codes", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT
		(SELECT count(x.id) FROM workspace_members m
			JOIN workspaces f ON f.id = m.workspace_id AND NOT f.is_deleted AND f.subscription_status <> $2
			JOIN dynamic_qr_codes x ON x.workspace_id = f.id AND NOT x.is_deleted
			WHERE m.user_id = o.user_id AND m.role = 'owner'),
		EXISTS (SELECT 1 FROM workspace_members b JOIN workspaces bw ON bw.id = b.workspace_id
			WHERE b.workspace_id = $3 AND b.user_id = o.user_id AND b.role = 'owner'
				AND NOT bw.is_deleted AND bw.subscription_status <> $2)
		FROM workspace_members o JOIN workspaces w ON w.id = o.workspace_id
		WHERE o.workspace_id = $1 AND o.role = 'owner' AND w.subscription_status <> $2`, to, SubscriptionActive, from)
	if err != nil {
		return 0, false, fail("count dynamic codes", err)
	}
	defer rows.Close()
	base, shared := int64(-1), false
	for rows.Next() {
		var sum int64
		var shares bool
		if err := rows.Scan(&sum, &shares); err != nil {
			return 0, false, fail("count dynamic codes", err)
		}
		if shares {
			shared = true
		} else {
			base = max(base, sum)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, false, fail("count dynamic codes", err)
	}
	if !shared {
		base = max(base, own)
	}
	return base, base >= 0, nil
}

// ItemFailure is an item of a job that failed, and why.
type ItemFailure struct {
	Dynamic bool
	ID      int64
	Reason  string
}

// BulkEditFailures lists the first limit failed items of job, in order.
func (s *Store) BulkEditFailures(ctx context.Context, job int64, limit int) ([]ItemFailure, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT dynamic, code_id, error FROM bulk_edit_items
		WHERE job_id = $1 AND status = 'failed' ORDER BY seq LIMIT $2`, job, limit)
	if err != nil {
		return nil, fail("list failed items", err)
	}
	defer rows.Close()
	list := []ItemFailure{}
	for rows.Next() {
		var f ItemFailure
		if err := rows.Scan(&f.Dynamic, &f.ID, &f.Reason); err != nil {
			return nil, fail("list failed items", err)
		}
		list = append(list, f)
	}
	return list, failOrNil("list failed items", rows.Err())
}

// ApplyMove moves the next n pending codes of move job j to its target, in
// one transaction that also renews j's lease until leaseUntil, and answers
// how many it took (0: none was left). A code gone, on a custom domain the
// target has not verified, or past the target's limit of live dynamic
// codes (limit > 0: a free target) fails its item, the code left where
// it is. ErrItemTaken when another runner holds the job now.
func (s *Store) ApplyMove(ctx context.Context, j *BulkEditJob, n, limit int, now, leaseUntil time.Time) (int, error) {
	if j.MoveTo == nil {
		return 0, errors.New("store: not a move")
	}
	from, to := j.WorkspaceID, *j.MoveTo
	var taken int
	var moved []string
	err := s.inTx(ctx, "move codes", func(tx *sql.Tx) error {
		taken, moved = 0, moved[:0]
		// Both workspaces' rollups, before any code row (rollupLock).
		if err := s.rollupLock(ctx, sqlTx{tx}, []int64{from, to}); err != nil {
			return fail("lock the rollups", err)
		}
		ctx, items, err := s.nextItems(ctx, tx, j, n, now, leaseUntil)
		if err != nil {
			return err
		}
		var live int64
		if limit > 0 {
			if err := s.lockAllowance(ctx, tx, to); err != nil {
				return err
			}
			var grows bool
			if live, grows, err = moveGrowth(ctx, tx, from, to); err != nil {
				return err
			} else if !grows {
				limit = 0 // the move adds to no use
			}
		}
		keys := make([]editKey, len(items))
		for i, it := range items {
			keys[i] = editKey{it.dynamic, it.id}
		}
		found, err := s.readEditCodes(ctx, tx, from, keys)
		if err != nil {
			return err
		}
		m := mover{s: s, tx: tx, from: from, to: to, job: j.ID, now: now, tags: map[int64]int64{}}
		if m.hooks, err = hasWebhooks(ctx, tx, from); err != nil {
			return err
		}
		if !m.hooks {
			if m.hooks, err = hasWebhooks(ctx, tx, to); err != nil {
				return err
			}
		}
		before, _ := json.Marshal(map[string]int64{"workspaceId": from})
		after, _ := json.Marshal(map[string]int64{"workspaceId": to})
		for _, it := range items {
			c := found[editKey{it.dynamic, it.id}]
			reason := ""
			switch {
			case c == nil || c.Fields.Deleted:
				reason = "The code is no longer in this workspace (deleted or moved)"
			case c.Dynamic && limit > 0 && live >= int64(limit):
				reason = MsgMoveLimit
			default:
				if reason, err = m.move(ctx, c); err != nil {
					return err
				}
			}
			status, b, a := editChanged, json.RawMessage(before), json.RawMessage(after)
			if reason != "" {
				status, b, a = editFailed, json.RawMessage("{}"), json.RawMessage("{}")
			} else if c.Dynamic {
				live++
				moved = append(moved, c.ShortCode)
			}
			if err := saveItem(ctx, tx, j.ID, it.seq, status, reason, b, a); err != nil {
				return err
			}
			taken++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// A cached lookup of a moved code names its old workspace.
	s.redirectsChanged(ctx, moved...)
	return taken, nil
}

// mover moves codes in one transaction, remembering the target's tags.
type mover struct {
	s        *Store
	tx       *sql.Tx
	from, to int64
	job      int64
	now      time.Time
	hooks    bool
	tags     map[int64]int64 // the source's tag → the target's of its name
}

// move moves code c, or answers why it cannot.
func (m *mover) move(ctx context.Context, c *BulkEditCode) (string, error) {
	k := kindOf(c.Dynamic)
	if c.Dynamic {
		if opens, err := opensPage(ctx, m.tx, c); opens || err != nil {
			return MsgMovePage, err
		}
	}
	domain := c.Fields.DomainID
	if c.Dynamic && domain != nil {
		var reason string
		var err error
		if domain, reason, err = m.domain(ctx, c); reason != "" || err != nil {
			return reason, err
		}
	}
	res, err := m.tx.ExecContext(ctx, `UPDATE `+k.table+` SET workspace_id = $3, folder_id = NULL WHERE id = $1 AND workspace_id = $2`,
		c.ID, m.from, m.to)
	if err := mustAffect("move a code", res, err); err != nil {
		return "", err
	}
	if c.Dynamic && !equalID(domain, c.Fields.DomainID) {
		if _, err := m.tx.ExecContext(ctx, `UPDATE dynamic_qr_codes SET domain_id = $2 WHERE id = $1`, c.ID, domain); err != nil {
			return "", fail("move a code's domain", err)
		}
	}
	if err := m.retag(ctx, k, c); err != nil {
		return "", err
	}
	if c.Dynamic {
		// The source's share links of the code would show another
		// workspace's analytics: they end.
		if _, err := m.tx.ExecContext(ctx, `UPDATE share_links SET revoked_at = $1
			WHERE code_id = $2 AND workspace_id = $3 AND revoked_at IS NULL`, dbTime(m.now), c.ID, m.from); err != nil {
			return "", fail("revoke the code's share links", err)
		}
		// So would its digests, to the source's members: they end too.
		if _, err := m.tx.ExecContext(ctx, `DELETE FROM report_schedules WHERE code_id = $1 AND workspace_id = $2`, c.ID, m.from); err != nil {
			return "", fail("end the code's report schedules", err)
		}
	}
	if c.Dynamic {
		if err := m.s.shiftCodeRollups(ctx, sqlTx{m.tx}, m.from, m.to, c.ID); err != nil {
			return "", fail("move the code's rollups", err)
		}
	}
	// The code's trail goes with it: the target's log gets a copy of its
	// entries, the source's keeps its own.
	if _, err := m.tx.ExecContext(ctx, `INSERT INTO audit_log
		(workspace_id, at, actor_type, actor_id, actor_email, action, target_type, target_id, target_name, details)
		SELECT $1, at, actor_type, actor_id, actor_email, action, target_type, target_id, target_name, details
		FROM audit_log WHERE workspace_id = $2 AND target_type = $3 AND target_id = $4 ORDER BY id`,
		m.to, m.from, k.target, c.ID); err != nil {
		return "", fail("copy the code's audit trail", err)
	}
	details := map[string]any{"job": m.job, "fromWorkspaceId": m.from, "toWorkspaceId": m.to}
	for _, ws := range []int64{m.from, m.to} {
		if err := m.s.audit(ctx, m.tx, ws, "code.moved", target(*c), details); err != nil {
			return "", err
		}
	}
	if m.hooks {
		data := movedCode{webhookCode: c.event, FromWorkspaceID: m.from, ToWorkspaceID: m.to}
		for _, ws := range []int64{m.from, m.to} {
			if err := m.s.EnqueueWebhookEvent(ctx, m.tx, ws, EventCodeMoved, data); err != nil {
				return "", err
			}
		}
	}
	return "", nil
}

// opensPage reports whether the dynamic code opens a hosted page.
func opensPage(ctx context.Context, tx *sql.Tx, c *BulkEditCode) (bool, error) {
	if rt := c.Fields.Routing; rt != nil {
		for _, r := range rt.Rules {
			if r.PageID != nil {
				return true, nil
			}
		}
		for _, v := range rt.Split {
			if v.PageID != nil {
				return true, nil
			}
		}
	}
	var page *int64
	if err := tx.QueryRowContext(ctx, `SELECT page_id FROM dynamic_qr_codes WHERE id = $1`, c.ID).Scan(&page); err != nil {
		return false, fail("read the code's page", err)
	}
	return page != nil, nil
}

// domain is the domain a dynamic code prints once moved: its own when the
// domain has moved to the target, else the target's verified claim of the
// same name. None is a reason: the code stays.
func (m *mover) domain(ctx context.Context, c *BulkEditCode) (*int64, string, error) {
	var name string
	var owner int64
	var verified bool
	err := m.tx.QueryRowContext(ctx, `SELECT domain, workspace_id, verified_at IS NOT NULL FROM workspace_domains WHERE id = $1`,
		*c.Fields.DomainID).Scan(&name, &owner, &verified)
	if err != nil {
		return nil, "", fail("read the code's domain", err)
	}
	if owner == m.to && verified {
		return c.Fields.DomainID, "", nil
	}
	var id int64
	err = m.tx.QueryRowContext(ctx, `SELECT id FROM workspace_domains WHERE workspace_id = $1 AND domain = $2 AND verified_at IS NOT NULL`,
		m.to, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Sprintf("The code prints %s, which the target workspace has not verified", name), nil
	}
	if err != nil {
		return nil, "", fail("find the target's domain", err)
	}
	taken, err := shortCodeTaken(ctx, m.tx, c.ShortCode, &id, c.ID)
	if err != nil {
		return nil, "", err
	}
	if taken {
		return nil, ShortCodeTakenMessage, nil
	}
	return &id, "", nil
}

// retag gives the moved code the target's tags of its tags' names, making
// those the target lacks, and rewrites its search text.
func (m *mover) retag(ctx context.Context, k codeKind, c *BulkEditCode) error {
	var ids []int64
	for _, t := range c.Fields.Tags {
		id, ok := m.tags[t]
		if !ok {
			var name, color string
			if err := m.tx.QueryRowContext(ctx, `SELECT name, color FROM tags WHERE id = $1`, t).Scan(&name, &color); err != nil {
				return fail("read a tag", err)
			}
			err := m.tx.QueryRowContext(ctx, `SELECT id FROM tags WHERE workspace_id = $1 AND lower(name) = lower($2)`, m.to, name).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				err = m.tx.QueryRowContext(ctx, `INSERT INTO tags (workspace_id, name, color, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
					m.to, name, color, dbTime(m.now)).Scan(&id)
				if err == nil {
					err = m.s.audit(ctx, m.tx, m.to, "tag.created", Target{"tag", id, name}, map[string]any{"color": color, "job": m.job})
				}
			}
			if err != nil {
				return fail("find the target's tag", err)
			}
			m.tags[t] = id
		}
		ids = append(ids, id)
	}
	if _, err := m.tx.ExecContext(ctx, `DELETE FROM `+k.tagTable+` WHERE `+k.tagColumn+` = $1`, c.ID); err != nil {
		return fail("move a code's tags", err)
	}
	for _, id := range ids {
		if _, err := m.tx.ExecContext(ctx, `INSERT INTO `+k.tagTable+` (`+k.tagColumn+`, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			c.ID, id); err != nil {
			return fail("move a code's tags", err)
		}
	}
	return refreshSearch(ctx, m.tx, k, `id = $1`, c.ID)
}

// shiftCodeRollups moves a live code's share of the workspace rollups from
// one workspace to another, in the transaction that moves it, which holds
// both workspaces' rollupLock. Its own rows (scan_code_days, scan_visitors,
// scan_counts) are the code's and stay.
func (s *Store) shiftCodeRollups(ctx context.Context, tx rollupTx, from, to, codeID int64) error {
	// The writers' caches of both workspaces' rollups, and of the code's
	// owner, are out of date.
	if err := outdateWriterCaches(ctx, tx, from, to); err != nil {
		return err
	}
	// The code's scans: its rows for the closed days, its events for the
	// open ones; the visitors are counted per workspace below.
	open, err := s.openDay(ctx, tx)
	if err != nil {
		return err
	}
	scans := map[rollupKey]*dayTally{}
	err = s.eachDay(ctx, tx, daySelect(codeDays)+`WHERE dynamic_qr_code_id = $1 AND day < $2`, []any{codeID, dbTime(open)},
		func(k rollupKey, d *dayTally) {
			d.Visitors = 0
			tallyOf(scans, rollupKey{0, k.day, k.bot}).merge(d, 1)
		})
	if err != nil {
		return err
	}
	recent, err := s.codeEventsAfter(ctx, tx, 0, codeID, open)
	if err != nil {
		return err
	}
	for k, d := range recent {
		tallyOf(scans, k).merge(d, 1)
	}
	// Its days' quarters are stale in both workspaces (quarters.go).
	if err := s.markStaleDays(ctx, tx, []int64{from, to}, scans); err != nil {
		return err
	}
	out, in := map[rollupKey]*dayTally{}, map[rollupKey]*dayTally{}
	for k, d := range scans {
		tallyOf(out, rollupKey{from, k.day, k.bot}).merge(d, 1)
		tallyOf(in, rollupKey{to, k.day, k.bot}).merge(d, 1)
	}
	// The source's visitors that scanned no other code of its that day
	// leave with the code (as dropCodeRollups)...
	err = tx.exec(ctx, `UPDATE scan_workspace_visitors SET codes = codes - 1
		WHERE workspace_id = $1 AND (day, is_bot, visitor_hash) IN (
			SELECT day, is_bot, visitor_hash FROM scan_visitors WHERE dynamic_qr_code_id = $2)`, from, codeID)
	if err != nil {
		return err
	}
	err = tx.each(ctx, `SELECT day, is_bot, count(*) FROM scan_workspace_visitors
		WHERE workspace_id = $1 AND codes = 0 GROUP BY day, is_bot`, []any{from},
		func(scan func(...any) error) error {
			k := rollupKey{owner: from}
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
	if err := tx.exec(ctx, `DELETE FROM scan_workspace_visitors WHERE workspace_id = $1 AND codes = 0`, from); err != nil {
		return err
	}
	// ...and are the target's new ones when none of its codes had them.
	err = tx.each(ctx, `INSERT INTO scan_workspace_visitors (workspace_id, day, is_bot, visitor_hash, codes)
		SELECT $1, day, is_bot, visitor_hash, 1 FROM scan_visitors WHERE dynamic_qr_code_id = $2
		ON CONFLICT (workspace_id, day, is_bot, visitor_hash) DO UPDATE SET codes = scan_workspace_visitors.codes + 1
		RETURNING day, is_bot, codes`, []any{to, codeID},
		func(scan func(...any) error) error {
			k := rollupKey{owner: to}
			var codes int64
			if err := scan(scanTime(&k.day), &k.bot, &codes); err != nil {
				return err
			}
			if codes == 1 {
				k.day = k.day.UTC()
				tallyOf(in, k).Visitors++
			}
			return nil
		})
	if err != nil {
		return err
	}
	if err := s.applyDays(ctx, tx, userDays, out, -1); err != nil {
		return err
	}
	return s.applyDays(ctx, tx, userDays, in, 1)
}
