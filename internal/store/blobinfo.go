package store

import "context"

// BlobInfo returns the blob with the given id without its data, for
// checks (kind, owner) that should not load a 20 MB file.
func (s *Store) BlobInfo(ctx context.Context, id int64) (*Blob, error) {
	b := new(Blob)
	err := s.read.QueryRowContext(ctx, `
		SELECT id, owner_id, workspace_id, kind, file_name, content_type, size, sha256, title, description, created_at,
			COALESCE(width, 0), COALESCE(height, 0)
		FROM blobs WHERE id = $1`, id,
	).Scan(&b.ID, &b.OwnerID, &b.WorkspaceID, &b.Kind, &b.FileName, &b.ContentType, &b.Size, &b.SHA256,
		&b.Title, &b.Description, scanTime(&b.CreatedAt), &b.Width, &b.Height)
	if err != nil {
		return nil, fail("fetch blob info", err)
	}
	return b, nil
}
