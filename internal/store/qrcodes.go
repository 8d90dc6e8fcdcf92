package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"time"
)

// QRCode is a saved static code. Every method that reads one takes the
// workspace's id and treats another workspace's code as not found.
type QRCode struct {
	ID          int64
	ClientID    int64
	WorkspaceID int64 // the owner
	UserID      int64 // who made it; 0 once unknown
	Name        string
	QRType      string
	QRMode      string // "static"
	URL         string // the url column: the type's link, when it has one
	QRData      string // JSON of the type fields under their form names
	Content     string // the exact text the code encodes

	// TypeColumns are the spec's per-type columns (first_name,
	// product_price, location_latitude, …; see typeColumns), written for
	// reports and the admin tools. They are not read back: QRData is.
	TypeColumns map[string]any

	Style

	PaymentProductID *int64

	FolderID *int64 // nil: in no folder
	Tags     []Tag  // read back by QRCode and QRCodes, by name

	IsPaused  bool
	PausedAt  *time.Time
	IsDeleted bool
	DeletedAt *time.Time
	CreatedAt time.Time
}

// typeColumns are the qr_codes columns a QRCode's TypeColumns may set.
var typeColumns = []string{
	"first_name", "last_name", "email", "phone_number", "notes", "image_url", "platform",
	"product_name", "product_price", "product_description",
	"pdf_title", "pdf_url", "pdf_file_path", "pdf_file_name", "pdf_description",
	"image_title", "image_description", "image_file_path", "image_file_name",
	"business_name", "review_url",
	"app_name", "app_description", "app_store_url", "play_store_url", "app_category", "app_developer",
	"email_recipient", "email_subject", "email_body",
	"location_address", "location_latitude", "location_longitude", "location_name", "location_description",
}

const qrCodeColumns = `
	id, client_id, COALESCE(workspace_id, 0), COALESCE(user_id, 0), name, qr_type, qr_mode, COALESCE(url, ''),
	qr_data, qr_content,` + styleSelect + `,
	payment_product_id, folder_id, is_paused, paused_at, is_deleted, deleted_at, created_at`

func scanQRCode(row interface{ Scan(...any) error }) (*QRCode, error) {
	q := new(QRCode)
	dest := []any{
		&q.ID, &q.ClientID, &q.WorkspaceID, &q.UserID, &q.Name, &q.QRType, &q.QRMode, &q.URL,
		&q.QRData, &q.Content,
	}
	dest = append(dest, q.Style.scanDest()...)
	dest = append(dest,
		&q.PaymentProductID, &q.FolderID, &q.IsPaused, scanNullTime(&q.PausedAt), &q.IsDeleted, scanNullTime(&q.DeletedAt),
		scanTime(&q.CreatedAt),
	)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	return q, nil
}

// CreateQRCode saves a new static code of q.WorkspaceID (0: the personal
// workspace of q.UserID), made by q.UserID, and fills in ID,
// ClientID (1 if 0), QRMode ("static" if ""), QRData ("{}" if ""), QRStyle
// ("squares"), ErrorCorrectionLevel ("M") and CreatedAt (now, unless set).
// A TypeColumns key outside the per-type columns is an error.
func (s *Store) CreateQRCode(ctx context.Context, q *QRCode) error {
	return s.inTx(ctx, "create QR code", func(tx *sql.Tx) error { return s.createQRCode(ctx, tx, q) })
}

// createQRCode is CreateQRCode inside tx.
func (s *Store) createQRCode(ctx context.Context, db *sql.Tx, q *QRCode) error {
	if q.ClientID == 0 {
		q.ClientID = 1
	}
	if err := personalByDefault(ctx, db, &q.WorkspaceID, q.UserID); err != nil {
		return err
	}
	if q.QRMode == "" {
		q.QRMode = "static"
	}
	if q.QRData == "" {
		q.QRData = "{}"
	}
	if q.QRStyle == "" {
		q.QRStyle = "squares"
	}
	if q.ErrorCorrectionLevel == "" {
		q.ErrorCorrectionLevel = "M"
	}
	if q.LogoSize == "" {
		q.LogoSize = "medium"
	}
	if q.CreatedAt.IsZero() {
		q.CreatedAt = time.Now()
	}
	q.CreatedAt = normTime(q.CreatedAt)

	cols := slices.Concat(
		[]string{"client_id", "workspace_id", "user_id", "name", "qr_type", "qr_mode", "url", "qr_data", "qr_content"},
		styleInsert,
		[]string{"payment_product_id", "created_at"},
	)
	args := slices.Concat(
		[]any{q.ClientID, nullIfZero(q.WorkspaceID), nullIfZero(q.UserID), q.Name, q.QRType, q.QRMode, nullIfEmpty(q.URL), q.QRData, q.Content},
		q.Style.insertArgs(),
		[]any{q.PaymentProductID, dbTime(q.CreatedAt)},
	)
	// Sorted, so the statement text is the same for the same set of keys.
	for _, k := range slices.Sorted(maps.Keys(q.TypeColumns)) {
		if !slices.Contains(typeColumns, k) {
			return fmt.Errorf("store: unable to create QR code: %q is not a type column", k)
		}
		cols = append(cols, k)
		args = append(args, q.TypeColumns[k])
	}
	query := insertReturningID("qr_codes", cols)
	if err := db.QueryRowContext(ctx, query, args...).Scan(&q.ID); err != nil {
		return fail("create QR code", err)
	}
	if err := refreshSearch(ctx, db, staticKind, `id = $1`, q.ID); err != nil {
		return err
	}
	if err := s.auditCreated(ctx, db, q.WorkspaceID, Target{"code", q.ID, q.Name}); err != nil {
		return err
	}
	return s.EnqueueWebhookEvent(ctx, db, q.WorkspaceID, EventCodeCreated, staticEventCode(q))
}

// QRCode returns the workspace's live static code with the given id.
func (s *Store) QRCode(ctx context.Context, workspaceID, id int64) (*QRCode, error) {
	row := s.read.QueryRowContext(ctx,
		`SELECT `+qrCodeColumns+` FROM qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
		id, workspaceID)
	q, err := scanQRCode(row)
	if err != nil {
		return nil, fail("fetch QR code", err)
	}
	return q, s.withTags(ctx, []*QRCode{q}, nil)
}

// QRCodes returns the workspace's live static codes, newest first.
func (s *Store) QRCodes(ctx context.Context, workspaceID int64) ([]*QRCode, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+qrCodeColumns+` FROM qr_codes
		WHERE workspace_id = $1 AND NOT is_deleted
		ORDER BY created_at DESC, id DESC`, workspaceID)
	if err != nil {
		return nil, fail("list QR codes", err)
	}
	defer rows.Close()
	list := []*QRCode{}
	for rows.Next() {
		q, err := scanQRCode(rows)
		if err != nil {
			return nil, fail("list QR codes", err)
		}
		list = append(list, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list QR codes", err)
	}
	return list, s.withTags(ctx, list, nil)
}
