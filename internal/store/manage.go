package store

import (
	"context"
	"time"
)

// RenameQRCode changes the name of the workspace's live static code and
// returns the code.
func (s *Store) RenameQRCode(ctx context.Context, workspaceID, id int64, name string) (*QRCode, error) {
	res, err := s.write.ExecContext(ctx,
		`UPDATE qr_codes SET name = $3 WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`, id, workspaceID, name)
	if err := mustAffect("rename QR code", res, err); err != nil {
		return nil, err
	}
	return s.QRCode(ctx, workspaceID, id)
}

// DeleteQRCode soft-deletes the workspace's live static code: it leaves the
// dashboard and the counts, its row and history stay.
func (s *Store) DeleteQRCode(ctx context.Context, workspaceID, id int64, now time.Time) error {
	res, err := s.write.ExecContext(ctx,
		`UPDATE qr_codes SET is_deleted = TRUE, deleted_at = $3 WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
		id, workspaceID, dbTime(now))
	return mustAffect("delete QR code", res, err)
}
