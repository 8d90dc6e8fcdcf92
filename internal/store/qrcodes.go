package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// QRCode is a saved static code. Every method that reads one takes the
// owner's id and treats another user's code as not found.
type QRCode struct {
	ID       int64
	ClientID int64
	UserID   int64
	Name     string
	QRType   string
	QRMode   string // "static"
	URL      string // the url column: the type's link, when it has one
	QRData   string // JSON of the type fields under their form names
	Content  string // the exact text the code encodes

	// TypeColumns are the spec's per-type columns (first_name,
	// product_price, location_latitude, …; see typeColumns), written for
	// reports and the admin tools. They are not read back: QRData is.
	TypeColumns map[string]any

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

	PaymentProductID *int64

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
	q.id, q.client_id, COALESCE(q.user_id, 0), q.name, q.qr_type, q.qr_mode, COALESCE(q.url, ''),
	q.qr_data, q.qr_content,
	q.fg_color, q.bg_color, COALESCE(q.gradient_color, ''), q.qr_style,
	q.dot_shape, q.corner_shape, q.inner_corner_shape,
	COALESCE(q.outer_corner_color, ''), COALESCE(q.inner_corner_color, ''),
	q.error_correction_level, COALESCE(q.logo_file_path, ''), COALESCE(q.logo_file_name, ''),
	q.logo_size, q.enable_frame, q.frame_text, q.frame_color, q.frame_text_color, q.frame_style,
	q.payment_product_id, q.is_paused, q.paused_at, q.is_deleted, q.deleted_at, q.created_at`

func scanQRCode(row interface{ Scan(...any) error }) (*QRCode, error) {
	q := new(QRCode)
	err := row.Scan(
		&q.ID, &q.ClientID, &q.UserID, &q.Name, &q.QRType, &q.QRMode, &q.URL,
		&q.QRData, &q.Content,
		&q.FgColor, &q.BgColor, &q.GradientColor, &q.QRStyle,
		&q.DotShape, &q.CornerShape, &q.InnerCornerShape,
		&q.OuterCornerColor, &q.InnerCornerColor,
		&q.ErrorCorrectionLevel, &q.LogoFilePath, &q.LogoFileName,
		&q.LogoSize, &q.EnableFrame, &q.FrameText, &q.FrameColor, &q.FrameTextColor, &q.FrameStyle,
		&q.PaymentProductID, &q.IsPaused, scanNullTime(&q.PausedAt), &q.IsDeleted, scanNullTime(&q.DeletedAt),
		scanTime(&q.CreatedAt),
	)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// CreateQRCode saves a new static code for q.UserID and fills in ID,
// ClientID (1 if 0), QRMode ("static" if ""), QRData ("{}" if ""), QRStyle
// ("squares"), ErrorCorrectionLevel ("M") and CreatedAt (now, unless set).
// A TypeColumns key outside the per-type columns is an error.
func (s *Store) CreateQRCode(ctx context.Context, q *QRCode) error {
	if q.ClientID == 0 {
		q.ClientID = 1
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

	cols := []string{
		"client_id", "user_id", "name", "qr_type", "qr_mode", "url", "qr_data", "qr_content",
		"fg_color", "bg_color", "gradient_color", "qr_style", "dot_shape", "corner_shape", "inner_corner_shape",
		"outer_corner_color", "inner_corner_color", "error_correction_level",
		"logo_file_path", "logo_file_name", "logo_size",
		"enable_frame", "frame_text", "frame_color", "frame_text_color", "frame_style",
		"payment_product_id", "created_at",
	}
	args := []any{
		q.ClientID, q.UserID, q.Name, q.QRType, q.QRMode, nullIfEmpty(q.URL), q.QRData, q.Content,
		q.FgColor, q.BgColor, nullIfEmpty(q.GradientColor), q.QRStyle, q.DotShape, q.CornerShape, q.InnerCornerShape,
		nullIfEmpty(q.OuterCornerColor), nullIfEmpty(q.InnerCornerColor), q.ErrorCorrectionLevel,
		nullIfEmpty(q.LogoFilePath), nullIfEmpty(q.LogoFileName), q.LogoSize,
		q.EnableFrame, q.FrameText, q.FrameColor, q.FrameTextColor, q.FrameStyle,
		q.PaymentProductID, dbTime(q.CreatedAt),
	}
	// Sorted, so the statement text is the same for the same set of keys.
	for _, k := range slices.Sorted(maps.Keys(q.TypeColumns)) {
		if !slices.Contains(typeColumns, k) {
			return fmt.Errorf("store: unable to create QR code: %q is not a type column", k)
		}
		cols = append(cols, k)
		args = append(args, q.TypeColumns[k])
	}
	marks := make([]string, len(cols))
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	query := `INSERT INTO qr_codes (` + strings.Join(cols, ", ") + `) VALUES (` + strings.Join(marks, ", ") + `) RETURNING id`
	if err := s.write.QueryRowContext(ctx, query, args...).Scan(&q.ID); err != nil {
		return fail("create QR code", err)
	}
	return nil
}

// QRCode returns the user's live static code with the given id.
func (s *Store) QRCode(ctx context.Context, userID, id int64) (*QRCode, error) {
	row := s.read.QueryRowContext(ctx,
		`SELECT `+qrCodeColumns+` FROM qr_codes q WHERE q.id = $1 AND q.user_id = $2 AND NOT q.is_deleted`,
		id, userID)
	q, err := scanQRCode(row)
	if err != nil {
		return nil, fail("fetch QR code", err)
	}
	return q, nil
}

// QRCodes returns the user's live static codes, newest first.
func (s *Store) QRCodes(ctx context.Context, userID int64) ([]*QRCode, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+qrCodeColumns+` FROM qr_codes q
		WHERE q.user_id = $1 AND NOT q.is_deleted
		ORDER BY q.created_at DESC, q.id DESC`, userID)
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
	return list, nil
}
