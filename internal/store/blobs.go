package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Blob is an uploaded file (a logo, PDF or image). Files live in the
// database, not on a disk, so every instance can serve every upload.
type Blob struct {
	ID          int64
	OwnerID     *int64 // who uploaded it; nil for an upload without an account
	WorkspaceID *int64 // whose quota it counts against; nil without an account
	Kind        string // "logo", "pdf" or "image"
	FileName    string
	ContentType string
	Size        int64
	SHA256      string // hex; lets handlers send an ETag
	Data        []byte
	Title       string
	Description string
	CreatedAt   time.Time
	// Width and Height are an image's size in pixels, 0 when unknown.
	Width, Height int
}

// CreateBlob saves b and fills in ID, Size, SHA256 and CreatedAt (now,
// unless set). Ids are random, not sequential: the pdf and images pages
// are public at /pdf/{id} and /images/{id}, and counting up would walk
// through everyone's uploads. They stay below 2^53, exact in JavaScript.
func (s *Store) CreateBlob(ctx context.Context, b *Blob) error {
	return s.insertBlob(ctx, s.write, b)
}

// insertBlob is CreateBlob on db, the pool or a transaction.
func (s *Store) insertBlob(ctx context.Context, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, b *Blob) error {
	sum := sha256.Sum256(b.Data)
	b.SHA256 = hex.EncodeToString(sum[:])
	b.Size = int64(len(b.Data))
	if b.CreatedAt.IsZero() {
		b.CreatedAt = time.Now()
	}
	b.CreatedAt = normTime(b.CreatedAt)
	var err error
	// A collision among 2^53 ids is all but impossible; a few redraws
	// settle it for good.
	for try := 1; try <= blobIDTries; try++ {
		b.ID = randomBlobID()
		_, err = db.ExecContext(ctx, `
			INSERT INTO blobs (id, owner_id, workspace_id, kind, file_name, content_type, size, sha256, data, title, description, created_at, width, height)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			b.ID, b.OwnerID, b.WorkspaceID, b.Kind, b.FileName, b.ContentType, b.Size, b.SHA256, b.Data, b.Title, b.Description,
			dbTime(b.CreatedAt), nullIfZero(int64(b.Width)), nullIfZero(int64(b.Height)))
		if err == nil || !isUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		b.ID = 0
		return fail("create blob", err)
	}
	return nil
}

// ReplaceBlobData replaces a blob's data and content type, as when a logo
// stored before logos were normalised is normalised.
func (s *Store) ReplaceBlobData(ctx context.Context, id int64, contentType string, data []byte) error {
	sum := sha256.Sum256(data)
	res, err := s.write.ExecContext(ctx, `UPDATE blobs SET data = $1, size = $2, sha256 = $3, content_type = $4 WHERE id = $5`,
		data, len(data), hex.EncodeToString(sum[:]), contentType, id)
	return mustAffect("replace blob data", res, err)
}

// DeleteBlob removes a blob no record refers to yet: a logo stored for a
// code whose creation was then refused.
func (s *Store) DeleteBlob(ctx context.Context, id int64) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM blobs WHERE id = $1`, id)
	return mustAffect("delete blob", res, err)
}

const blobIDTries = 5

// randomBlobID draws an id in [1, 2^53].
func randomBlobID() int64 {
	var r [8]byte
	rand.Read(r[:])
	return int64(binary.BigEndian.Uint64(r[:])>>11) + 1
}

// ImageSizes returns the width and height of the images among ids whose
// size is known, by id; the data is not read.
func (s *Store) ImageSizes(ctx context.Context, ids []int64) (map[int64][2]int, error) {
	out := map[int64][2]int{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	marks := make([]string, len(ids))
	for i, id := range ids {
		args[i], marks[i] = id, "$"+strconv.Itoa(i+1)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, width, height FROM blobs
		WHERE kind = 'image' AND width IS NOT NULL AND height IS NOT NULL AND id IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, fail("read image sizes", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var w, h int
		if err := rows.Scan(&id, &w, &h); err != nil {
			return nil, fail("read image sizes", err)
		}
		out[id] = [2]int{w, h}
	}
	return out, failOrNil("read image sizes", rows.Err())
}

// Blob returns the blob with the given id, data included.
func (s *Store) Blob(ctx context.Context, id int64) (*Blob, error) {
	b := new(Blob)
	err := s.read.QueryRowContext(ctx, `
		SELECT id, owner_id, workspace_id, kind, file_name, content_type, size, sha256, data, title, description, created_at,
			COALESCE(width, 0), COALESCE(height, 0)
		FROM blobs WHERE id = $1`, id,
	).Scan(&b.ID, &b.OwnerID, &b.WorkspaceID, &b.Kind, &b.FileName, &b.ContentType, &b.Size, &b.SHA256, &b.Data,
		&b.Title, &b.Description, scanTime(&b.CreatedAt), &b.Width, &b.Height)
	if err != nil {
		return nil, fail("fetch blob", err)
	}
	return b, nil
}
