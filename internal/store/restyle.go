package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Restyling, updating and duplicating saved codes (issue 10): the style
// changes, a code's identity (a dynamic code's short code) never does.

// styleSet is "fg_color = $first, …": the columns of Style.insertArgs, in
// its order, numbered from first.
func styleSet(first int) string {
	set := make([]string, len(styleInsert))
	for i, col := range styleInsert {
		set[i] = fmt.Sprintf("%s = $%d", col, first+i)
	}
	return strings.Join(set, ", ")
}

// SetQRCodeStyle replaces the style (logo included) of the workspace's live
// static code and returns the code.
func (s *Store) SetQRCodeStyle(ctx context.Context, workspaceID, id int64, st Style) (*QRCode, error) {
	return s.updateQRCode(ctx, "restyle QR code", workspaceID, id, styleSet(3), st.insertArgs()...)
}

// SetDynamicStyle replaces the style (logo included) of the workspace's live
// dynamic code; its short code and destination stay.
func (s *Store) SetDynamicStyle(ctx context.Context, workspaceID, id int64, st Style, now time.Time) (*DynamicCode, error) {
	args := slices.Concat(st.insertArgs(), []any{dbTime(now)})
	return s.updateDynamic(ctx, "restyle dynamic code", workspaceID, id,
		styleSet(3)+fmt.Sprintf(", updated_at = $%d", 3+len(styleInsert)), args...)
}

// UpdateQRCode replaces what the workspace's live static code q.ID encodes and
// how it looks: name, type, url, qrData, content, style, payment product
// and type columns (those TypeColumns leaves out become NULL). The owner,
// client and creation time stay. It returns the code as stored.
func (s *Store) UpdateQRCode(ctx context.Context, q *QRCode) (*QRCode, error) {
	for k := range q.TypeColumns {
		if !slices.Contains(typeColumns, k) {
			return nil, fmt.Errorf("store: unable to update QR code: %q is not a type column", k)
		}
	}
	set := []string{"name = $3", "qr_type = $4", "url = $5", "qr_data = $6", "qr_content = $7", "payment_product_id = $8", styleSet(9)}
	args := slices.Concat(
		[]any{q.Name, q.QRType, nullIfEmpty(q.URL), q.QRData, q.Content, q.PaymentProductID},
		q.Style.insertArgs(),
	)
	for _, col := range typeColumns {
		args = append(args, q.TypeColumns[col])
		set = append(set, fmt.Sprintf("%s = $%d", col, len(args)+2))
	}
	return s.updateQRCode(ctx, "update QR code", q.WorkspaceID, q.ID, strings.Join(set, ", "), args...)
}

// QRCodeCopy is what a duplicate of a static code changes: its name and
// creation time, and for a payment code, which gets a product of its own,
// the product and the content that points at it (nil and "" keep the
// original's).
type QRCodeCopy struct {
	Name             string
	CreatedAt        time.Time
	Content          string
	PaymentProductID *int64
}

// copiedQRColumns are the qr_codes columns a duplicate takes as they are.
var copiedQRColumns = slices.Concat(
	[]string{"client_id", "workspace_id", "user_id", "qr_type", "qr_mode", "url", "qr_data"}, styleInsert, typeColumns)

// DuplicateQRCode saves a copy of the workspace's live static code, every
// column included (the per-type ones too), as a new code that is neither
// paused nor deleted, and returns it.
func (s *Store) DuplicateQRCode(ctx context.Context, workspaceID, id int64, c QRCodeCopy) (*QRCode, error) {
	cols := strings.Join(copiedQRColumns, ", ")
	var newID int64
	err := s.inTx(ctx, "duplicate QR code", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			INSERT INTO qr_codes (`+cols+`, name, qr_content, payment_product_id)
			SELECT `+cols+`, name, qr_content, payment_product_id
			FROM qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted
			RETURNING id`, id, workspaceID).Scan(&newID)
		if err != nil {
			return fail("duplicate QR code", err)
		}
		// A separate UPDATE, where each parameter takes its column's type.
		_, err = tx.ExecContext(ctx, `
			UPDATE qr_codes SET name = $2, created_at = $3,
				qr_content = COALESCE(NULLIF($4, ''), qr_content), payment_product_id = COALESCE($5, payment_product_id)
			WHERE id = $1`, newID, c.Name, dbTime(normTime(c.CreatedAt)), c.Content, c.PaymentProductID)
		if err != nil {
			return fail("duplicate QR code", err)
		}
		if err := refreshSearch(ctx, tx, staticKind, `id = $1`, newID); err != nil {
			return err
		}
		if err := s.audit(ctx, tx, workspaceID, "code.created", Target{"code", newID, c.Name}, map[string]any{"duplicateOf": id}); err != nil {
			return err
		}
		q, err := scanQRCode(tx.QueryRowContext(ctx, `SELECT `+qrCodeColumns+` FROM qr_codes WHERE id = $1`, newID))
		if err != nil {
			return fail("duplicate QR code", err)
		}
		return s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeCreated, staticEventCode(q))
	})
	if err != nil {
		return nil, err
	}
	return s.QRCode(ctx, workspaceID, newID)
}
