package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ErrQuota is a file that would take its workspace past its storage quota.
var ErrQuota = errors.New("store: storage quota exceeded")

// SubscriptionActive is the subscription status that lifts a workspace out
// of the free plan.
const SubscriptionActive = "active"

// Subscribed reports whether the workspace has an active subscription.
func (w *Workspace) Subscribed() bool { return w.SubscriptionStatus == SubscriptionActive }

// The free plan's limits (issue 32) are an account's, not a workspace's:
// a workspace without an active subscription shares them with every other
// such workspace its owners own, so that making workspaces makes no room.
// What counts against a free workspace's limit is, of its owners, the
// largest use across the free live workspaces that owner owns (a code in a
// workspace with two owners counts for both); a subscribed workspace counts
// its own use alone. A running trial lifts the dynamic codes' limit as a
// subscription does, so its codes count against no other workspace until
// it ends; the storage quota stays the subscription's alone.

// usage is one measure of what a workspace uses: an aggregate of the rows
// of table (alias x) that count. trialLifts: a workspace whose trial runs
// is out of the free plan for this measure.
type usage struct {
	doing, table, total, counts string
	trialLifts                  bool
}

var (
	dynamicUsage = usage{"count dynamic codes", "dynamic_qr_codes", "count(x.id)", "NOT x.is_deleted", true}
	storageUsage = usage{"sum stored files", "blobs", "COALESCE(SUM(x.size), 0)", "TRUE", false}
)

// used returns what counts of u against the workspace's limit (above);
// now matters only to a measure a trial lifts.
func used(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, workspaceID int64, u usage, now time.Time) (int64, error) {
	args := []any{workspaceID, SubscriptionActive}
	free := func(w string) string { return w + `.subscription_status <> $2` }
	if u.trialLifts {
		args = append(args, dbTime(now))
		free = func(w string) string {
			return w + `.subscription_status <> $2 AND NOT (` + w + `.trial_activated AND ` + w + `.trial_end_date > $3)`
		}
	}
	var n int64
	err := db.QueryRowContext(ctx, `
		SELECT COALESCE(MAX(used), 0) FROM (
			SELECT `+u.total+` AS used FROM `+u.table+` x WHERE x.workspace_id = $1 AND `+u.counts+`
			UNION ALL
			SELECT `+u.total+` FROM workspaces w
			JOIN workspace_members o ON o.workspace_id = w.id AND o.role = 'owner'
			JOIN workspace_members m ON m.user_id = o.user_id AND m.role = 'owner'
			JOIN workspaces f ON f.id = m.workspace_id AND NOT f.is_deleted AND `+free("f")+`
			JOIN `+u.table+` x ON x.workspace_id = f.id AND `+u.counts+`
			WHERE w.id = $1 AND `+free("w")+`
			GROUP BY o.user_id
		) t`, args...).Scan(&n)
	if err != nil {
		return 0, fail(u.doing, err)
	}
	return n, nil
}

// lockAllowance makes the changes that count against the workspace's
// limits take turns, until tx ends: it locks the workspace's row (so its
// owners cannot change meanwhile; SetMemberRole locks it too) and, on
// PostgreSQL, one advisory lock per owner, in id order, which every
// workspace of that owner takes. SQLite's single writer already serialises.
func (s *Store) lockAllowance(ctx context.Context, tx *sql.Tx, workspaceID int64) error {
	if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
		return err
	}
	if s.dialect != Postgres {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' ORDER BY user_id`, workspaceID)
	if err != nil {
		return fail("lock the free allowance", err)
	}
	var owners []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fail("lock the free allowance", err)
		}
		owners = append(owners, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail("lock the free allowance", err)
	}
	for _, id := range owners {
		if err := s.xactLock(ctx, tx, `hashtext('squarely.free_allowance'), ($1 % 2147483647)::int4`, id); err != nil {
			return fail("lock the free allowance", err)
		}
	}
	return nil
}

// CreateBlobWithin is CreateBlob for a file of b.WorkspaceID's that must
// fit, with the files already counting against the workspace's quota
// (used), in quota bytes; ErrQuota when it does not. The sum and the insert
// are one transaction under lockAllowance, so parallel uploads, to one
// workspace or to several of one owner, cannot each pass on the same total.
func (s *Store) CreateBlobWithin(ctx context.Context, b *Blob, quota int64) error {
	if b.WorkspaceID == nil {
		return s.CreateBlob(ctx, b)
	}
	return s.inTx(ctx, "create blob", func(tx *sql.Tx) error {
		if err := s.lockAllowance(ctx, tx, *b.WorkspaceID); err != nil {
			return err
		}
		n, err := used(ctx, tx, *b.WorkspaceID, storageUsage, time.Time{})
		if err != nil {
			return err
		}
		if n+int64(len(b.Data)) > quota {
			return ErrQuota
		}
		return s.insertBlob(ctx, tx, b)
	})
}

// BlobBytes is the size of the stored files that count against the
// workspace's storage quota: its own when it is subscribed, else its
// owners' across their free workspaces (the largest).
func (s *Store) BlobBytes(ctx context.Context, workspaceID int64) (int64, error) {
	return used(ctx, s.read, workspaceID, storageUsage, time.Time{})
}
