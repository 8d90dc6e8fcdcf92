package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Bulk job and item states.
const (
	BulkQueued  = "queued"
	BulkRunning = "running"
	BulkDone    = "done"
	BulkFailed  = "failed"

	ItemPending = "pending"
	ItemDone    = "done"
	ItemFailed  = "failed"
)

// ErrItemTaken is returned by SaveBulkItems when an item is no longer
// pending: another runner took the job over after this one's lease ran out.
var ErrItemTaken = errors.New("store: bulk item already saved")

// BulkJob is one uploaded spreadsheet being turned into saved codes. Every
// method that reads one for a workspace takes its id and treats another
// workspace's job as not found.
type BulkJob struct {
	ID             int64
	WorkspaceID    int64 // the owner of the job and its codes
	UserID         int64 // who uploaded it
	Status         string
	FileName       string
	FileSHA256     string // what an Idempotency-Key stands for
	IdempotencyKey string // "" = none
	Total          int    // rows, refused ones included
	Processed      int    // rows saved or refused so far
	Failed         int    // rows refused, at upload or when saving
	DynamicLimit   int    // the owner's dynamic limit at upload; 0 = none
	DomainID       *int64 // the verified domain its dynamic codes print; nil = the base URL
	Domain         string // that domain's name
	Attempts       int    // how many times a runner has taken the job
	Error          string // why a failed job stopped
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// BulkItem is one row of a job: the code to save, or why it was refused.
type BulkItem struct {
	Row           int // the row's line in the file
	Status        string
	Code          BulkCode
	Column, Error string // a refused row: which column, and why
	QRCodeID      *int64
	DynamicCodeID *int64
	ShortCode     string
}

// BulkCode is the checked content of a row, saved as a static QRCode or,
// with Dynamic, as a DynamicCode pointing at Destination.
type BulkCode struct {
	Name        string         `json:"name"`
	FileName    string         `json:"fileName,omitempty"` // the ZIP entry's name without extension
	QRType      string         `json:"qrType"`
	URL         string         `json:"url,omitempty"`
	QRData      string         `json:"qrData"`
	Content     string         `json:"content,omitempty"` // what a static code encodes
	TypeColumns map[string]any `json:"typeColumns,omitempty"`
	Style       Style          `json:"style"`
	Dynamic     bool           `json:"dynamic,omitempty"`
	Destination string         `json:"destination,omitempty"`
	ShortCode   string         `json:"shortCode,omitempty"` // a dynamic code's chosen one (issue 34)
}

const bulkJobColumns = `id, COALESCE(workspace_id, 0), user_id, status, file_name, file_sha256, COALESCE(idempotency_key, ''),
	total, processed, failed, dynamic_limit, domain_id, COALESCE((SELECT domain FROM workspace_domains WHERE id = bulk_jobs.domain_id), ''),
	attempts, error, created_at, updated_at`

func scanBulkJob(row interface{ Scan(...any) error }) (*BulkJob, error) {
	j := new(BulkJob)
	err := row.Scan(&j.ID, &j.WorkspaceID, &j.UserID, &j.Status, &j.FileName, &j.FileSHA256, &j.IdempotencyKey,
		&j.Total, &j.Processed, &j.Failed, &j.DynamicLimit, &j.DomainID, &j.Domain, &j.Attempts, &j.Error,
		scanTime(&j.CreatedAt), scanTime(&j.UpdatedAt))
	if err != nil {
		return nil, err
	}
	return j, nil
}

// itemsPerInsert keeps a multi-row insert under both databases' limits on
// parameters.
const itemsPerInsert = 500

// CreateBulkJob saves a queued job with its items (pending or failed) in
// one transaction and fills in j.ID (and j.WorkspaceID, when 0: the
// uploader's personal workspace). A second job with an IdempotencyKey
// of the workspace's is ErrConflict and saves nothing; a DomainID that is
// not a verified domain of the workspace is ErrNotFound or
// ErrDomainUnverified.
func (s *Store) CreateBulkJob(ctx context.Context, j *BulkJob, items []BulkItem) error {
	if j.CreatedAt.IsZero() {
		j.CreatedAt = time.Now()
	}
	j.CreatedAt = normTime(j.CreatedAt)
	j.UpdatedAt = j.CreatedAt
	j.Status = BulkQueued
	return s.inTx(ctx, "create bulk job", func(tx *sql.Tx) error {
		if err := personalByDefault(ctx, tx, &j.WorkspaceID, j.UserID); err != nil {
			return err
		}
		if j.DomainID != nil {
			if err := usableDomain(ctx, tx, j.WorkspaceID, *j.DomainID); err != nil {
				return err
			}
		}
		cols := []string{"workspace_id", "user_id", "status", "file_name", "file_sha256", "idempotency_key", "total", "processed",
			"failed", "dynamic_limit", "domain_id", "created_at", "updated_at"}
		err := tx.QueryRowContext(ctx, insertReturningID("bulk_jobs", cols),
			j.WorkspaceID, j.UserID, j.Status, j.FileName, j.FileSHA256, nullIfEmpty(j.IdempotencyKey), j.Total, j.Processed,
			j.Failed, j.DynamicLimit, j.DomainID, dbTime(j.CreatedAt), dbTime(j.UpdatedAt)).Scan(&j.ID)
		if err != nil {
			return fail("create bulk job", err)
		}
		for start := 0; start < len(items); start += itemsPerInsert {
			chunk := items[start:min(start+itemsPerInsert, len(items))]
			var q strings.Builder
			q.WriteString(`INSERT INTO bulk_job_items (job_id, row_number, status, spec, column_name, error) VALUES `)
			args := make([]any, 0, 6*len(chunk))
			for i, it := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				n := len(args)
				fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6)
				spec, err := json.Marshal(it.Code)
				if err != nil {
					return fmt.Errorf("store: unable to encode bulk item: %w", err)
				}
				args = append(args, j.ID, it.Row, it.Status, string(spec), it.Column, it.Error)
			}
			if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
				return fail("create bulk items", err)
			}
		}
		return nil
	})
}

// BulkJob returns the workspace's job with the given id.
func (s *Store) BulkJob(ctx context.Context, workspaceID, id int64) (*BulkJob, error) {
	j, err := scanBulkJob(s.read.QueryRowContext(ctx,
		`SELECT `+bulkJobColumns+` FROM bulk_jobs WHERE id = $1 AND workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("fetch bulk job", err)
	}
	return j, nil
}

// BulkJobByKey returns the workspace's job made with the given
// Idempotency-Key, by whichever member.
func (s *Store) BulkJobByKey(ctx context.Context, workspaceID int64, key string) (*BulkJob, error) {
	j, err := scanBulkJob(s.read.QueryRowContext(ctx,
		`SELECT `+bulkJobColumns+` FROM bulk_jobs WHERE workspace_id = $1 AND idempotency_key = $2`, workspaceID, key))
	if err != nil {
		return nil, fail("fetch bulk job", err)
	}
	return j, nil
}

// ClaimBulkJob takes the oldest job that is queued, or running under a
// lease that ran out before now (its runner stopped), for a new lease
// until leaseUntil, and counts the attempt. No such job is ErrNotFound.
func (s *Store) ClaimBulkJob(ctx context.Context, now, leaseUntil time.Time) (*BulkJob, error) {
	var j *BulkJob
	err := s.inTx(ctx, "claim bulk job", func(tx *sql.Tx) error {
		query := `SELECT id FROM bulk_jobs WHERE status IN ('queued', 'running')
			AND (lease_until IS NULL OR lease_until < $1) ORDER BY id LIMIT 1` + s.forUpdate(" SKIP LOCKED")
		var id int64
		if err := tx.QueryRowContext(ctx, query, dbTime(now)).Scan(&id); err != nil {
			return fail("claim bulk job", err)
		}
		var err error
		j, err = scanBulkJob(tx.QueryRowContext(ctx, `UPDATE bulk_jobs
			SET status = 'running', lease_until = $1, attempts = attempts + 1, updated_at = $2
			WHERE id = $3 RETURNING `+bulkJobColumns, dbTime(leaseUntil), dbTime(now), id))
		if err != nil {
			return fail("claim bulk job", err)
		}
		return nil
	})
	return j, err
}

// ReleaseBulkJob ends a runner's lease on a running job, so the next
// runner takes it at once (a graceful stop).
func (s *Store) ReleaseBulkJob(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE bulk_jobs SET lease_until = NULL WHERE id = $1 AND status = 'running'`, id)
	if err != nil {
		return fail("release bulk job", err)
	}
	return nil
}

// FinishBulkJob marks a job done, or failed with a reason; a failed job's
// pending items fail with it, so its counts add up.
func (s *Store) FinishBulkJob(ctx context.Context, id int64, status, reason string, now time.Time) error {
	return s.inTx(ctx, "finish bulk job", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE bulk_job_items SET status = 'failed', error = $1
			WHERE job_id = $2 AND status = 'pending'`, reason, id)
		if err != nil {
			return fail("finish bulk job", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fail("finish bulk job", err)
		}
		var job struct {
			ID          int64  `json:"id"`
			Status      string `json:"status"`
			FileName    string `json:"fileName"`
			Total       int    `json:"total"`
			Processed   int    `json:"processed"`
			Failed      int    `json:"failed"`
			Error       string `json:"error,omitempty"`
			workspaceID int64
		}
		err = tx.QueryRowContext(ctx, `UPDATE bulk_jobs SET status = $1, error = $2, lease_until = NULL,
			processed = processed + $3, failed = failed + $3, updated_at = $4 WHERE id = $5
			RETURNING id, status, file_name, total, processed, failed, error, COALESCE(workspace_id, 0)`,
			status, reason, n, dbTime(now), id).Scan(&job.ID, &job.Status, &job.FileName, &job.Total, &job.Processed,
			&job.Failed, &job.Error, &job.workspaceID)
		if err != nil {
			return fail("finish bulk job", err)
		}
		return s.EnqueueWebhookEvent(ctx, tx, job.workspaceID, EventBulkCompleted, job)
	})
}

// BulkItems returns up to limit items of a job after row afterRow in row
// order, only those in status unless status is "".
func (s *Store) BulkItems(ctx context.Context, jobID int64, afterRow, limit int, status string) ([]BulkItem, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT row_number, status, spec, column_name, error,
		qr_code_id, dynamic_code_id, short_code FROM bulk_job_items
		WHERE job_id = $1 AND row_number > $2 AND ($3 = '' OR status = $3)
		ORDER BY row_number LIMIT $4`, jobID, afterRow, status, limit)
	if err != nil {
		return nil, fail("list bulk items", err)
	}
	defer rows.Close()
	var items []BulkItem
	for rows.Next() {
		var it BulkItem
		var spec string
		if err := rows.Scan(&it.Row, &it.Status, &spec, &it.Column, &it.Error, &it.QRCodeID, &it.DynamicCodeID, &it.ShortCode); err != nil {
			return nil, fail("list bulk items", err)
		}
		if err := json.Unmarshal([]byte(spec), &it.Code); err != nil {
			return nil, fmt.Errorf("store: unable to decode bulk item: %w", err)
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list bulk items", err)
	}
	return items, nil
}

// ShortCodeTakenMessage fails a bulk row whose chosen short code is taken
// on the job's host (codes.MsgShortCodeTaken says the same).
const ShortCodeTakenMessage = "This short code is already taken on this domain"

// SaveBulkItems saves the codes of a job's pending items for its owner in
// one transaction, each item turning done with its code, and renews the
// job's lease until leaseUntil. A dynamic code past the job's limit fails
// its item with limitMessage instead. An item no longer pending is
// ErrItemTaken, and nothing is saved. (The job's domain stays usable: a
// domain cannot be deleted while an open job prints it.)
func (s *Store) SaveBulkItems(ctx context.Context, j *BulkJob, items []BulkItem, now, leaseUntil time.Time, limitMessage string) error {
	var created []string
	err := s.inTx(ctx, "save bulk items", func(tx *sql.Tx) error {
		// A runner saves in the background: the audit log names the uploader.
		ctx, err := jobActor(ctx, tx, j.UserID)
		if err != nil {
			return err
		}
		failed := 0
		for i := range items {
			it := &items[i]
			c := it.Code
			var res sql.Result
			var err error
			if c.Dynamic {
				d := &DynamicCode{WorkspaceID: j.WorkspaceID, UserID: j.UserID, Name: c.Name, ShortCode: NewShortCode(), Destination: c.Destination,
					QRType: c.QRType, QRData: c.QRData, Style: c.Style, DomainID: j.DomainID, CreatedAt: now}
				if c.ShortCode != "" {
					d.ShortCode, d.ShortCodeChosen = c.ShortCode, true
				}
				err = s.createDynamic(ctx, tx, d, j.DynamicLimit)
				switch {
				case d.ShortCodeChosen && errors.Is(err, ErrConflict):
					// Taken on the job's host (found before the insert,
					// so the transaction goes on), by another code or an
					// earlier row.
					failed++
					it.Status, it.Column, it.Error = ItemFailed, "shortCode", ShortCodeTakenMessage
					res, err = tx.ExecContext(ctx, `UPDATE bulk_job_items SET status = 'failed', column_name = 'shortCode', error = $1
						WHERE job_id = $2 AND row_number = $3 AND status = 'pending'`, ShortCodeTakenMessage, j.ID, it.Row)
				case errors.Is(err, ErrLimit):
					failed++
					it.Status, it.Column, it.Error = ItemFailed, "dynamic", limitMessage
					res, err = tx.ExecContext(ctx, `UPDATE bulk_job_items SET status = 'failed', column_name = 'dynamic', error = $1
						WHERE job_id = $2 AND row_number = $3 AND status = 'pending'`, limitMessage, j.ID, it.Row)
				case err == nil:
					created = append(created, d.ShortCode)
					it.Status, it.DynamicCodeID, it.ShortCode = ItemDone, &d.ID, d.ShortCode
					res, err = tx.ExecContext(ctx, `UPDATE bulk_job_items SET status = 'done', dynamic_code_id = $1, short_code = $2
						WHERE job_id = $3 AND row_number = $4 AND status = 'pending'`, d.ID, d.ShortCode, j.ID, it.Row)
				}
			} else {
				q := &QRCode{WorkspaceID: j.WorkspaceID, UserID: j.UserID, Name: c.Name, QRType: c.QRType, URL: c.URL, QRData: c.QRData,
					Content: c.Content, TypeColumns: c.TypeColumns, Style: c.Style, CreatedAt: now}
				err = s.createQRCode(ctx, tx, q)
				if err == nil {
					it.Status, it.QRCodeID = ItemDone, &q.ID
					res, err = tx.ExecContext(ctx, `UPDATE bulk_job_items SET status = 'done', qr_code_id = $1
						WHERE job_id = $2 AND row_number = $3 AND status = 'pending'`, q.ID, j.ID, it.Row)
				}
			}
			if err := mustAffect("save bulk item", res, err); err != nil {
				if errors.Is(err, ErrNotFound) {
					return ErrItemTaken
				}
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE bulk_jobs SET processed = processed + $1, failed = failed + $2,
			lease_until = $3, updated_at = $4 WHERE id = $5`, len(items), failed, dbTime(leaseUntil), dbTime(now), j.ID)
		if err != nil {
			return fail("save bulk items", err)
		}
		return nil
	})
	if err == nil {
		s.redirectsChanged(ctx, created...) // instances may hold cached misses for them
	}
	return err
}
