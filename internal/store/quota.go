package store

import (
	"context"
	"database/sql"
	"errors"
)

// ErrQuota is a file that would take its workspace past its storage quota.
var ErrQuota = errors.New("store: storage quota exceeded")

// CreateBlobWithin is CreateBlob for a file of b.WorkspaceID's that must
// fit, with the workspace's files already stored, in quota bytes; ErrQuota
// when it does not. The sum and the insert are one transaction, taken one at
// a time per workspace (SQLite's single writer; an advisory lock on PostgreSQL), so
// parallel uploads cannot each pass on the same total.
func (s *Store) CreateBlobWithin(ctx context.Context, b *Blob, quota int64) error {
	if b.WorkspaceID == nil {
		return s.CreateBlob(ctx, b)
	}
	return s.inTx(ctx, "create blob", func(tx *sql.Tx) error {
		if err := s.xactLock(ctx, tx, `hashtext('squarely.blob_quota'), ($1 % 2147483647)::int4`, *b.WorkspaceID); err != nil {
			return fail("lock the storage quota", err)
		}
		used, err := blobBytes(ctx, tx, *b.WorkspaceID)
		if err != nil {
			return err
		}
		if used+int64(len(b.Data)) > quota {
			return ErrQuota
		}
		return s.insertBlob(ctx, tx, b)
	})
}

// BlobBytes is the size of every file the workspace stored.
func (s *Store) BlobBytes(ctx context.Context, workspaceID int64) (int64, error) {
	return blobBytes(ctx, s.read, workspaceID)
}

func blobBytes(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, workspaceID int64) (int64, error) {
	var used int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM blobs WHERE workspace_id = $1`, workspaceID).Scan(&used); err != nil {
		return 0, fail("sum stored files", err)
	}
	return used, nil
}
