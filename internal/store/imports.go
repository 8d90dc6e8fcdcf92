package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// Imports (issue 34 item 3): links of another shortener become dynamic
// codes of a workspace, one item a link. The items are saved with the
// job; a leased runner (internal/imports) creates their codes, so a job
// resumes where it stopped after a restart, and an item is marked once
// its code exists, which its short code proves (never twice).

// Import job statuses.
const (
	ImportQueued  = "queued"
	ImportRunning = "running"
	ImportDone    = "done"
	ImportFailed  = "failed"
)

// Import item statuses.
const (
	ImportPending  = "pending"
	ImportCreated  = "created"
	ImportExists   = "exists"   // the workspace already has the link: skipped
	ImportConflict = "conflict" // cannot be created as it is (taken, invalid, reserved)
	ImportFailedIt = "failed"   // refused when its code was made
)

// ImportJob is an import of a workspace.
type ImportJob struct {
	ID          int64
	WorkspaceID int64
	UserID      int64
	Source      string
	Status      string
	DomainID    *int64
	Domain      string
	OldBaseURL  string
	// DynamicLimit is the workspace's limit on live dynamic codes when
	// the job was made (0: none), which its codes count against.
	DynamicLimit int
	Total        int
	Error        string
	Attempts     int
	// CheckStatus is its switch check's: "" (never asked), queued,
	// running (held under a lease by an instance) or done.
	CheckStatus   string
	CheckAttempts int
	CreatedAt     time.Time
	UpdatedAt     time.Time
	Counts        map[string]int // items by status
}

// Switch check statuses (ImportJob.CheckStatus).
const (
	CheckQueued  = "queued"
	CheckRunning = "running"
	CheckDone    = "done"
)

// ImportItem is one link of an import.
type ImportItem struct {
	Row         int
	ShortCode   string
	Destination string
	Title       string
	Tags        []string
	CreatedAt   *time.Time // at the source
	Clicks      int64      // at the source
	Status      string
	Error       string
	CodeID      *int64
}

const importJobColumns = `id, workspace_id, user_id, source, status, domain_id,
	COALESCE((SELECT domain FROM workspace_domains WHERE id = import_jobs.domain_id), ''),
	old_base_url, dynamic_limit, total, error, attempts, check_status, check_attempts, created_at, updated_at`

func scanImportJob(row interface{ Scan(...any) error }) (*ImportJob, error) {
	j := new(ImportJob)
	err := row.Scan(&j.ID, &j.WorkspaceID, &j.UserID, &j.Source, &j.Status, &j.DomainID, &j.Domain,
		&j.OldBaseURL, &j.DynamicLimit, &j.Total, &j.Error, &j.Attempts, &j.CheckStatus, &j.CheckAttempts, scanTime(&j.CreatedAt), scanTime(&j.UpdatedAt))
	return j, err
}

// CreateImportJob saves j (fills in ID, Status, CreatedAt) with its items
// in one transaction: queued when any item is pending, else done.
func (s *Store) CreateImportJob(ctx context.Context, j *ImportJob, items []ImportItem, now time.Time) error {
	j.Status, j.Total, j.CreatedAt, j.UpdatedAt = ImportDone, len(items), normTime(now), normTime(now)
	for _, it := range items {
		if it.Status == ImportPending {
			j.Status = ImportQueued
		}
	}
	return s.inTx(ctx, "create import job", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO import_jobs (workspace_id, user_id, source, status, domain_id, old_base_url, total, created_at, updated_at, dynamic_limit)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING id`,
			j.WorkspaceID, j.UserID, j.Source, j.Status, j.DomainID, j.OldBaseURL, j.Total, dbTime(j.CreatedAt), j.DynamicLimit).Scan(&j.ID)
		if err != nil {
			return fail("create import job", err)
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO import_items (job_id, row_number, short_code, destination, title, tags, source_created_at, clicks, status, error)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`)
		if err != nil {
			return fail("create import job", err)
		}
		defer stmt.Close()
		for _, it := range items {
			tags, _ := json.Marshal(nonNilStrings(it.Tags))
			var created any
			if it.CreatedAt != nil {
				created = dbTime(*it.CreatedAt)
			}
			if _, err := stmt.ExecContext(ctx, j.ID, it.Row, it.ShortCode, it.Destination, it.Title, string(tags), created, it.Clicks, it.Status, it.Error); err != nil {
				return fail("create import job", err)
			}
		}
		return s.audit(ctx, tx, j.WorkspaceID, "import.created", Target{"import", j.ID, j.Source}, map[string]any{"links": len(items)})
	})
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ImportJob returns the workspace's import job id with its counts, or
// ErrNotFound.
func (s *Store) ImportJob(ctx context.Context, workspaceID, id int64) (*ImportJob, error) {
	j, err := scanImportJob(s.read.QueryRowContext(ctx, `SELECT `+importJobColumns+` FROM import_jobs WHERE id = $1 AND workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("fetch import job", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT status, COUNT(*) FROM import_items WHERE job_id = $1 GROUP BY status`, id)
	if err != nil {
		return nil, fail("count import items", err)
	}
	defer rows.Close()
	j.Counts = map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fail("count import items", err)
		}
		j.Counts[st] = n
	}
	return j, failOrNil("count import items", rows.Err())
}

// ImportItems returns up to limit items of job jobID from row after on,
// in order, of status (all when "").
func (s *Store) ImportItems(ctx context.Context, jobID int64, after, limit int, status string) ([]ImportItem, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT row_number, short_code, destination, title, tags, source_created_at, clicks, status, error, dynamic_code_id
		FROM import_items WHERE job_id = $1 AND row_number > $2 AND ($3 = '' OR status = $3) ORDER BY row_number LIMIT $4`, jobID, after, status, limit)
	if err != nil {
		return nil, fail("list import items", err)
	}
	defer rows.Close()
	var out []ImportItem
	for rows.Next() {
		var it ImportItem
		var tags string
		if err := rows.Scan(&it.Row, &it.ShortCode, &it.Destination, &it.Title, &tags, scanNullTime(&it.CreatedAt), &it.Clicks, &it.Status, &it.Error, &it.CodeID); err != nil {
			return nil, fail("list import items", err)
		}
		json.Unmarshal([]byte(tags), &it.Tags)
		out = append(out, it)
	}
	return out, failOrNil("list import items", rows.Err())
}

// ClaimImportJob takes the oldest queued or running job whose lease ran
// out, leased until leaseUntil; ErrNotFound when there is none.
func (s *Store) ClaimImportJob(ctx context.Context, now, leaseUntil time.Time) (*ImportJob, error) {
	var j *ImportJob
	err := s.inTx(ctx, "claim import job", func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM import_jobs WHERE status IN ('queued', 'running')
			AND (lease_until IS NULL OR lease_until < $1) ORDER BY id LIMIT 1`+s.forUpdate(" SKIP LOCKED"), dbTime(now)).Scan(&id)
		if err != nil {
			return fail("claim import job", err)
		}
		j, err = scanImportJob(tx.QueryRowContext(ctx, `UPDATE import_jobs SET status = 'running', lease_until = $1, attempts = attempts + 1, updated_at = $2
			WHERE id = $3 RETURNING `+importJobColumns, dbTime(leaseUntil), dbTime(now), id))
		return failOrNil("claim import job", err)
	})
	return j, err
}

// SetImportItem records a pending item's outcome and renews its job's
// lease until leaseUntil. ErrItemTaken when the item is no longer pending.
func (s *Store) SetImportItem(ctx context.Context, jobID int64, it ImportItem, now, leaseUntil time.Time) error {
	return s.inTx(ctx, "save import item", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE import_items SET status = $1, error = $2, dynamic_code_id = $3
			WHERE job_id = $4 AND row_number = $5 AND status = 'pending'`, it.Status, it.Error, it.CodeID, jobID, it.Row)
		if err != nil {
			return fail("save import item", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrItemTaken
		}
		_, err = tx.ExecContext(ctx, `UPDATE import_jobs SET lease_until = $1, updated_at = $2 WHERE id = $3`, dbTime(leaseUntil), dbTime(now), jobID)
		return failOrNil("save import item", err)
	})
}

// FinishImportJob marks a job done, or failed with a reason (its pending
// items fail with it).
func (s *Store) FinishImportJob(ctx context.Context, id int64, status, reason string, now time.Time) error {
	return s.inTx(ctx, "finish import job", func(tx *sql.Tx) error {
		if status == ImportFailed {
			if _, err := tx.ExecContext(ctx, `UPDATE import_items SET status = 'failed', error = $1 WHERE job_id = $2 AND status = 'pending'`, reason, id); err != nil {
				return fail("finish import job", err)
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE import_jobs SET status = $1, error = $2, lease_until = NULL, updated_at = $3 WHERE id = $4`,
			status, reason, dbTime(now), id)
		return failOrNil("finish import job", err)
	})
}

// ReleaseImportJob ends a runner's lease, so the next runner takes it at once.
func (s *Store) ReleaseImportJob(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE import_jobs SET lease_until = NULL WHERE id = $1 AND status = 'running'`, id)
	return failOrNil("release import job", err)
}

// ImportCheck is one link's switch check: its old short URL's answer and
// Squarely's ("302 https://…").
type ImportCheck struct {
	Row       int
	ShortCode string
	Same      bool
	Old, New  string
}

// StartImportCheck queues the switch check of done job jobID, forgetting
// the last one's results, for a runner to claim (ClaimImportCheck).
// ErrConflict when one is queued or running already.
func (s *Store) StartImportCheck(ctx context.Context, jobID int64) error {
	return s.inTx(ctx, "start a switch check", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE import_jobs SET check_status = 'queued', check_lease_until = NULL, check_attempts = 0
			WHERE id = $1 AND check_status NOT IN ('queued', 'running')`, jobID)
		if err != nil {
			return fail("start a switch check", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrConflict
		}
		_, err = tx.ExecContext(ctx, `UPDATE import_items SET check_result = '', check_old = '', check_new = '' WHERE job_id = $1`, jobID)
		return failOrNil("start a switch check", err)
	})
}

// ClaimImportCheck takes the oldest queued switch check, or a running one
// whose lease ran out, leased until leaseUntil; ErrNotFound when there is
// none.
func (s *Store) ClaimImportCheck(ctx context.Context, now, leaseUntil time.Time) (*ImportJob, error) {
	var j *ImportJob
	err := s.inTx(ctx, "claim a switch check", func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM import_jobs WHERE check_status IN ('queued', 'running')
			AND (check_lease_until IS NULL OR check_lease_until < $1) ORDER BY id LIMIT 1`+s.forUpdate(" SKIP LOCKED"), dbTime(now)).Scan(&id)
		if err != nil {
			return fail("claim a switch check", err)
		}
		j, err = scanImportJob(tx.QueryRowContext(ctx, `UPDATE import_jobs SET check_status = 'running', check_lease_until = $1, check_attempts = check_attempts + 1
			WHERE id = $2 RETURNING `+importJobColumns, dbTime(leaseUntil), id))
		return failOrNil("claim a switch check", err)
	})
	return j, err
}

// UncheckedImportItems returns up to limit items of job jobID that the
// switch check compares (created or already there, with a short code)
// and has not yet, in order.
func (s *Store) UncheckedImportItems(ctx context.Context, jobID int64, limit int) ([]ImportItem, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT row_number, short_code FROM import_items
		WHERE job_id = $1 AND status IN ('created', 'exists') AND short_code <> '' AND check_result = '' ORDER BY row_number LIMIT $2`, jobID, limit)
	if err != nil {
		return nil, fail("list unchecked import items", err)
	}
	defer rows.Close()
	var out []ImportItem
	for rows.Next() {
		var it ImportItem
		if err := rows.Scan(&it.Row, &it.ShortCode); err != nil {
			return nil, fail("list unchecked import items", err)
		}
		out = append(out, it)
	}
	return out, failOrNil("list unchecked import items", rows.Err())
}

// SetImportCheck records the switch check of item row of job jobID and
// renews the check's lease until leaseUntil.
func (s *Store) SetImportCheck(ctx context.Context, jobID int64, c ImportCheck, leaseUntil time.Time) error {
	result := "different"
	if c.Same {
		result = "same"
	}
	return s.inTx(ctx, "save a switch check", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE import_items SET check_result = $1, check_old = $2, check_new = $3 WHERE job_id = $4 AND row_number = $5`,
			result, c.Old, c.New, jobID, c.Row)
		if err != nil {
			return fail("save a switch check", err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE import_jobs SET check_lease_until = $1 WHERE id = $2 AND check_status = 'running'`, dbTime(leaseUntil), jobID)
		return failOrNil("save a switch check", err)
	})
}

// FinishImportCheck marks job jobID's switch check done.
func (s *Store) FinishImportCheck(ctx context.Context, jobID int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE import_jobs SET check_status = 'done', check_lease_until = NULL WHERE id = $1`, jobID)
	return failOrNil("finish a switch check", err)
}

// ReleaseImportCheck ends a runner's lease on job jobID's switch check, so
// the next runner takes it at once.
func (s *Store) ReleaseImportCheck(ctx context.Context, jobID int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE import_jobs SET check_lease_until = NULL WHERE id = $1 AND check_status = 'running'`, jobID)
	return failOrNil("release a switch check", err)
}

// ImportChecks are the switch check of job jobID: links checked, the
// same, and up to limit that differ.
func (s *Store) ImportChecks(ctx context.Context, jobID int64, limit int) (checked, same int, different []ImportCheck, err error) {
	err = s.read.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN check_result = 'same' THEN 1 ELSE 0 END), 0)
		FROM import_items WHERE job_id = $1 AND check_result <> ''`, jobID).Scan(&checked, &same)
	if err != nil {
		return 0, 0, nil, fail("count switch checks", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT row_number, short_code, check_old, check_new FROM import_items
		WHERE job_id = $1 AND check_result = 'different' ORDER BY row_number LIMIT $2`, jobID, limit)
	if err != nil {
		return 0, 0, nil, fail("list switch checks", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c ImportCheck
		if err := rows.Scan(&c.Row, &c.ShortCode, &c.Old, &c.New); err != nil {
			return 0, 0, nil, fail("list switch checks", err)
		}
		different = append(different, c)
	}
	return checked, same, different, failOrNil("list switch checks", rows.Err())
}
