package store

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// CodeEvent is what qr_generations and qr_downloads share: who made or took a
// code and from where. The spec's per-type logging tables are folded into
// Details (see migration 0001).
type CodeEvent struct {
	ID        int64
	QRCodeID  *int64 // a saved static code, when the event concerns one
	UserID    *int64 // nil for a visitor
	SessionID string // the browser's anonymous id
	IPAddress string
	UserAgent string
	Referrer  string
	QRType    string
	Content   string // the exact encoded text
	HasLogo   bool
	Details   map[string]any // the type-specific fields (websiteUrl, urlDomain, …)
}

// Generation is a code generated in the generator.
type Generation struct {
	CodeEvent
	ForegroundColor string
	BackgroundColor string
	GeneratedAt     time.Time
}

// Download is a code downloaded as a file.
type Download struct {
	CodeEvent
	DownloadType string // png, svg, pdf or eps
	DownloadedAt time.Time
}

// codeEventColumns are the columns of CodeEvent that insertCodeEvent
// writes, ID aside.
var codeEventColumns = []string{
	"qr_code_id", "user_id", "session_id", "ip_address", "user_agent", "referrer",
	"qr_type", "qr_content", "has_logo", "details",
}

// insertCodeEvent saves e into table, with the table's own columns cols
// set to args, and fills in e.ID.
func (s *Store) insertCodeEvent(ctx context.Context, action, table string, e *CodeEvent, cols []string, args ...any) error {
	details := "{}" // nil Details too
	if len(e.Details) > 0 {
		b, err := json.Marshal(e.Details)
		if err != nil {
			return fail(action, err)
		}
		details = string(b)
	}
	all := slices.Concat([]any{
		e.QRCodeID, e.UserID, nullIfEmpty(e.SessionID), nullIfEmpty(e.IPAddress), nullIfEmpty(e.UserAgent),
		nullIfEmpty(e.Referrer), nullIfEmpty(e.QRType), nullIfEmpty(e.Content), e.HasLogo, details,
	}, args)
	query := insertReturningID(table, slices.Concat(codeEventColumns, cols))
	if err := s.write.QueryRowContext(ctx, query, all...).Scan(&e.ID); err != nil {
		return fail(action, err)
	}
	return nil
}

// codeEvent reads row id of table into e, and the table's own columns
// cols into dest.
func (s *Store) codeEvent(ctx context.Context, action, table string, id int64, e *CodeEvent, cols string, dest ...any) error {
	var details string
	all := slices.Concat([]any{
		&e.ID, &e.QRCodeID, &e.UserID, &e.SessionID, &e.IPAddress, &e.UserAgent,
		&e.Referrer, &e.QRType, &e.Content, &e.HasLogo, &details,
	}, dest)
	err := s.read.QueryRowContext(ctx, `
		SELECT id, qr_code_id, user_id, COALESCE(session_id, ''), COALESCE(ip_address, ''),
			COALESCE(user_agent, ''), COALESCE(referrer, ''), COALESCE(qr_type, ''), COALESCE(qr_content, ''),
			has_logo, details, `+cols+`
		FROM `+table+` WHERE id = $1`, id,
	).Scan(all...)
	if err != nil {
		return fail(action, err)
	}
	if err := json.Unmarshal([]byte(details), &e.Details); err != nil {
		return fail(action, err)
	}
	return nil
}

// CreateGeneration records g and fills in ID and GeneratedAt (now, unless
// set). QRType is required.
func (s *Store) CreateGeneration(ctx context.Context, g *Generation) error {
	if g.GeneratedAt.IsZero() {
		g.GeneratedAt = time.Now()
	}
	g.GeneratedAt = normTime(g.GeneratedAt)
	return s.insertCodeEvent(ctx, "create generation", "qr_generations", &g.CodeEvent,
		[]string{"foreground_color", "background_color", "generated_at"},
		nullIfEmpty(g.ForegroundColor), nullIfEmpty(g.BackgroundColor), dbTime(g.GeneratedAt))
}

// Generation returns the generation with the given id.
func (s *Store) Generation(ctx context.Context, id int64) (*Generation, error) {
	g := new(Generation)
	err := s.codeEvent(ctx, "fetch generation", "qr_generations", id, &g.CodeEvent,
		`COALESCE(foreground_color, ''), COALESCE(background_color, ''), generated_at`,
		&g.ForegroundColor, &g.BackgroundColor, scanTime(&g.GeneratedAt))
	if err != nil {
		return nil, err
	}
	return g, nil
}

// CreateDownload records d and fills in ID, DownloadType ("png" if "") and
// DownloadedAt (now, unless set).
func (s *Store) CreateDownload(ctx context.Context, d *Download) error {
	if d.DownloadType == "" {
		d.DownloadType = "png"
	}
	if d.DownloadedAt.IsZero() {
		d.DownloadedAt = time.Now()
	}
	d.DownloadedAt = normTime(d.DownloadedAt)
	return s.insertCodeEvent(ctx, "create download", "qr_downloads", &d.CodeEvent,
		[]string{"download_type", "downloaded_at"}, d.DownloadType, dbTime(d.DownloadedAt))
}

// Download returns the download with the given id.
func (s *Store) Download(ctx context.Context, id int64) (*Download, error) {
	d := new(Download)
	err := s.codeEvent(ctx, "fetch download", "qr_downloads", id, &d.CodeEvent,
		`download_type, downloaded_at`, &d.DownloadType, scanTime(&d.DownloadedAt))
	if err != nil {
		return nil, err
	}
	return d, nil
}
