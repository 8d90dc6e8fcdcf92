package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrLimit is returned by CreateDynamicCode when the owner already has as
// many live dynamic codes as the limit allows.
var ErrLimit = errors.New("store: dynamic code limit reached")

// DynamicCode is a code that encodes {base}/d/{ShortCode} and redirects to
// Destination, which its owner may change after printing. Every method
// that reads or changes one takes the owner's id and treats another user's
// code as not found.
type DynamicCode struct {
	ID          int64
	ClientID    int64
	UserID      int64
	Name        string
	ShortCode   string // unique, at most 20 characters
	Destination string
	QRType      string
	QRData      string // JSON of the type fields
	Platform    string

	// ScanCount and LastScannedAt count human scans only (RecordScans).
	ScanCount     int64
	LastScannedAt *time.Time

	FgColor, BgColor, GradientColor         string
	QRStyle                                 string
	DotShape, CornerShape, InnerCornerShape string
	OuterCornerColor, InnerCornerColor      string
	ErrorCorrectionLevel                    string
	LogoFilePath, LogoFileName              string
	LogoSize                                string
	EnableFrame                             bool
	FrameText, FrameColor, FrameTextColor   string
	FrameStyle                              string

	IsPaused  bool
	PausedAt  *time.Time
	IsDeleted bool
	DeletedAt *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

const dynamicColumns = `
	d.id, d.client_id, COALESCE(d.user_id, 0), d.name, d.short_code, d.destination,
	d.qr_type, COALESCE(d.qr_data, ''), COALESCE(d.platform, ''),
	d.scan_count, d.last_scanned_at,
	d.fg_color, d.bg_color, COALESCE(d.gradient_color, ''), d.qr_style,
	d.dot_shape, d.corner_shape, d.inner_corner_shape,
	COALESCE(d.outer_corner_color, ''), COALESCE(d.inner_corner_color, ''),
	d.error_correction_level, COALESCE(d.logo_file_path, ''), COALESCE(d.logo_file_name, ''),
	d.logo_size, d.enable_frame, d.frame_text, d.frame_color, d.frame_text_color, d.frame_style,
	d.is_paused, d.paused_at, d.is_deleted, d.deleted_at, d.created_at, d.updated_at`

func scanDynamic(row interface{ Scan(...any) error }) (*DynamicCode, error) {
	d := new(DynamicCode)
	err := row.Scan(
		&d.ID, &d.ClientID, &d.UserID, &d.Name, &d.ShortCode, &d.Destination,
		&d.QRType, &d.QRData, &d.Platform,
		&d.ScanCount, scanNullTime(&d.LastScannedAt),
		&d.FgColor, &d.BgColor, &d.GradientColor, &d.QRStyle,
		&d.DotShape, &d.CornerShape, &d.InnerCornerShape,
		&d.OuterCornerColor, &d.InnerCornerColor,
		&d.ErrorCorrectionLevel, &d.LogoFilePath, &d.LogoFileName,
		&d.LogoSize, &d.EnableFrame, &d.FrameText, &d.FrameColor, &d.FrameTextColor, &d.FrameStyle,
		&d.IsPaused, scanNullTime(&d.PausedAt), &d.IsDeleted, scanNullTime(&d.DeletedAt),
		scanTime(&d.CreatedAt), scanTime(&d.UpdatedAt),
	)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// CreateDynamicCode saves a new dynamic code for d.UserID and fills in ID,
// ClientID (1 if 0), CreatedAt and UpdatedAt (now, unless set). With limit
// > 0 it first counts the owner's live dynamic codes and returns ErrLimit
// when there are limit or more; the count and the insert share one write
// transaction with the owner's row locked, so concurrent creations cannot
// both pass at the limit. A taken ShortCode is ErrConflict: the caller
// draws a new one and tries again.
func (s *Store) CreateDynamicCode(ctx context.Context, d *DynamicCode, limit int) error {
	if d.ClientID == 0 {
		d.ClientID = 1
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = time.Now()
	}
	d.CreatedAt = normTime(d.CreatedAt)
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = d.CreatedAt
	}
	d.UpdatedAt = normTime(d.UpdatedAt)
	return s.inTx(ctx, "create dynamic code", func(tx *sql.Tx) error {
		if limit > 0 {
			// SQLite's single write connection already serialises this
			// transaction (BEGIN IMMEDIATE); PostgreSQL needs the row lock.
			if s.dialect == Postgres {
				var id int64
				err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE id = $1 FOR UPDATE`, d.UserID).Scan(&id)
				if err != nil {
					return fail("lock user", err)
				}
			}
			n, err := countLiveDynamic(ctx, tx, d.UserID)
			if err != nil {
				return err
			}
			if n >= limit {
				return ErrLimit
			}
		}
		const query = `
			INSERT INTO dynamic_qr_codes (
				client_id, user_id, name, short_code, destination, qr_type, qr_data, platform,
				fg_color, bg_color, gradient_color, qr_style, dot_shape, corner_shape, inner_corner_shape,
				outer_corner_color, inner_corner_color, error_correction_level,
				logo_file_path, logo_file_name, logo_size,
				enable_frame, frame_text, frame_color, frame_text_color, frame_style,
				created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
				$19, $20, $21, $22, $23, $24, $25, $26, $27, $28)
			RETURNING id`
		err := tx.QueryRowContext(ctx, query,
			d.ClientID, d.UserID, d.Name, d.ShortCode, d.Destination, d.QRType, nullIfEmpty(d.QRData), nullIfEmpty(d.Platform),
			d.FgColor, d.BgColor, nullIfEmpty(d.GradientColor), d.QRStyle, d.DotShape, d.CornerShape, d.InnerCornerShape,
			nullIfEmpty(d.OuterCornerColor), nullIfEmpty(d.InnerCornerColor), d.ErrorCorrectionLevel,
			nullIfEmpty(d.LogoFilePath), nullIfEmpty(d.LogoFileName), d.LogoSize,
			d.EnableFrame, d.FrameText, d.FrameColor, d.FrameTextColor, d.FrameStyle,
			dbTime(d.CreatedAt), dbTime(d.UpdatedAt),
		).Scan(&d.ID)
		if err != nil {
			return fail("create dynamic code", err)
		}
		return nil
	})
}

func countLiveDynamic(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, userID int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx,
		`SELECT count(*) FROM dynamic_qr_codes WHERE user_id = $1 AND NOT is_deleted`, userID).Scan(&n)
	if err != nil {
		return 0, fail("count dynamic codes", err)
	}
	return n, nil
}

// CountDynamicCodes returns how many live (not deleted) dynamic codes the
// user has: what the limit counts.
func (s *Store) CountDynamicCodes(ctx context.Context, userID int64) (int, error) {
	return countLiveDynamic(ctx, s.read, userID)
}

// DynamicCode returns the user's live dynamic code with the given id.
func (s *Store) DynamicCode(ctx context.Context, userID, id int64) (*DynamicCode, error) {
	row := s.read.QueryRowContext(ctx,
		`SELECT `+dynamicColumns+` FROM dynamic_qr_codes d WHERE d.id = $1 AND d.user_id = $2 AND NOT d.is_deleted`,
		id, userID)
	d, err := scanDynamic(row)
	if err != nil {
		return nil, fail("fetch dynamic code", err)
	}
	return d, nil
}

// DynamicCodes returns the user's live dynamic codes that are paused (or
// not), newest first.
func (s *Store) DynamicCodes(ctx context.Context, userID int64, paused bool) ([]*DynamicCode, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+dynamicColumns+` FROM dynamic_qr_codes d
		WHERE d.user_id = $1 AND NOT d.is_deleted AND d.is_paused = $2
		ORDER BY d.created_at DESC, d.id DESC`, userID, paused)
	if err != nil {
		return nil, fail("list dynamic codes", err)
	}
	defer rows.Close()
	var list []*DynamicCode
	for rows.Next() {
		d, err := scanDynamic(rows)
		if err != nil {
			return nil, fail("list dynamic codes", err)
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list dynamic codes", err)
	}
	return list, nil
}

// Redirect is what answering a scan needs to know about a short code.
type Redirect struct {
	ID          int64
	Destination string
	Paused      bool
}

// RedirectByShortCode returns the redirect of a live dynamic code, or
// ErrNotFound for an unknown or deleted one, or one whose owner deleted
// their account.
func (s *Store) RedirectByShortCode(ctx context.Context, shortCode string) (Redirect, error) {
	var r Redirect
	err := s.read.QueryRowContext(ctx, `
		SELECT d.id, d.destination, d.is_paused FROM dynamic_qr_codes d JOIN users u ON u.id = d.user_id
		WHERE d.short_code = $1 AND NOT d.is_deleted AND NOT u.is_deleted`,
		shortCode).Scan(&r.ID, &r.Destination, &r.Paused)
	if err != nil {
		return Redirect{}, fail("fetch redirect", err)
	}
	return r, nil
}

// updateDynamic runs an UPDATE … SET set on the user's live code and
// returns the code as it is afterwards.
func (s *Store) updateDynamic(ctx context.Context, action string, userID, id int64, set string, args ...any) (*DynamicCode, error) {
	var d *DynamicCode
	err := s.inTx(ctx, action, func(tx *sql.Tx) error {
		params := append([]any{id, userID}, args...)
		res, err := tx.ExecContext(ctx,
			`UPDATE dynamic_qr_codes SET `+set+` WHERE id = $1 AND user_id = $2 AND NOT is_deleted`, params...)
		if err := mustAffect(action, res, err); err != nil {
			return err
		}
		row := tx.QueryRowContext(ctx, `SELECT `+dynamicColumns+` FROM dynamic_qr_codes d WHERE d.id = $1`, id)
		if d, err = scanDynamic(row); err != nil {
			return fail(action, err)
		}
		return nil
	})
	return d, err
}

// SetDynamicDestination changes where the user's code redirects.
func (s *Store) SetDynamicDestination(ctx context.Context, userID, id int64, destination string, now time.Time) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "set destination", userID, id,
		`destination = $3, updated_at = $4`, destination, dbTime(now))
}

// RenameDynamicCode changes the name of the user's code.
func (s *Store) RenameDynamicCode(ctx context.Context, userID, id int64, name string, now time.Time) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "rename dynamic code", userID, id,
		`name = $3, updated_at = $4`, name, dbTime(now))
}

// SetDynamicPaused pauses or resumes the user's code. Pausing a paused
// code keeps its first PausedAt.
func (s *Store) SetDynamicPaused(ctx context.Context, userID, id int64, paused bool, now time.Time) (*DynamicCode, error) {
	set := `is_paused = FALSE, paused_at = NULL, updated_at = $3`
	if paused {
		set = `is_paused = TRUE, paused_at = COALESCE(paused_at, $3), updated_at = $3`
	}
	return s.updateDynamic(ctx, fmt.Sprintf("set paused=%t", paused), userID, id, set, dbTime(now))
}

// DeleteDynamicCode soft-deletes the user's code: its short code stops
// redirecting and it no longer counts against the limit, but its row and
// scans stay. It returns the deleted code's short code.
func (s *Store) DeleteDynamicCode(ctx context.Context, userID, id int64, now time.Time) (string, error) {
	var shortCode string
	err := s.write.QueryRowContext(ctx, `
		UPDATE dynamic_qr_codes SET is_deleted = TRUE, deleted_at = $3, updated_at = $3
		WHERE id = $1 AND user_id = $2 AND NOT is_deleted
		RETURNING short_code`, id, userID, dbTime(now)).Scan(&shortCode)
	if err != nil {
		return "", fail("delete dynamic code", err)
	}
	return shortCode, nil
}
