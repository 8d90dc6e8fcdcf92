package store

import (
	"context"
	"encoding/json"
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
	DownloadType string // png, svg or pdf
	DownloadedAt time.Time
}

// detailsJSON encodes Details for the JSON column; nil is "{}".
func (e *CodeEvent) detailsJSON() (string, error) {
	if len(e.Details) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(e.Details)
	return string(b), err
}

// CreateGeneration records g and fills in ID and GeneratedAt (now, unless
// set). QRType is required.
func (s *Store) CreateGeneration(ctx context.Context, g *Generation) error {
	details, err := g.detailsJSON()
	if err != nil {
		return fail("create generation", err)
	}
	if g.GeneratedAt.IsZero() {
		g.GeneratedAt = time.Now()
	}
	g.GeneratedAt = normTime(g.GeneratedAt)
	err = s.write.QueryRowContext(ctx, `
		INSERT INTO qr_generations (qr_code_id, user_id, session_id, ip_address, user_agent, referrer,
			qr_type, qr_content, foreground_color, background_color, has_logo, details, generated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		RETURNING id`,
		g.QRCodeID, g.UserID, nullIfEmpty(g.SessionID), nullIfEmpty(g.IPAddress), nullIfEmpty(g.UserAgent),
		nullIfEmpty(g.Referrer), nullIfEmpty(g.QRType), nullIfEmpty(g.Content), nullIfEmpty(g.ForegroundColor),
		nullIfEmpty(g.BackgroundColor), g.HasLogo, details, dbTime(g.GeneratedAt),
	).Scan(&g.ID)
	if err != nil {
		return fail("create generation", err)
	}
	return nil
}

// Generation returns the generation with the given id.
func (s *Store) Generation(ctx context.Context, id int64) (*Generation, error) {
	g := new(Generation)
	var details string
	err := s.read.QueryRowContext(ctx, `
		SELECT id, qr_code_id, user_id, COALESCE(session_id, ''), COALESCE(ip_address, ''),
			COALESCE(user_agent, ''), COALESCE(referrer, ''), qr_type, COALESCE(qr_content, ''),
			COALESCE(foreground_color, ''), COALESCE(background_color, ''), has_logo, details, generated_at
		FROM qr_generations WHERE id = $1`, id,
	).Scan(&g.ID, &g.QRCodeID, &g.UserID, &g.SessionID, &g.IPAddress, &g.UserAgent, &g.Referrer,
		&g.QRType, &g.Content, &g.ForegroundColor, &g.BackgroundColor, &g.HasLogo, &details,
		scanTime(&g.GeneratedAt))
	if err != nil {
		return nil, fail("fetch generation", err)
	}
	if err := json.Unmarshal([]byte(details), &g.Details); err != nil {
		return nil, fail("fetch generation", err)
	}
	return g, nil
}

// CreateDownload records d and fills in ID, DownloadType ("png" if "") and
// DownloadedAt (now, unless set).
func (s *Store) CreateDownload(ctx context.Context, d *Download) error {
	details, err := d.detailsJSON()
	if err != nil {
		return fail("create download", err)
	}
	if d.DownloadType == "" {
		d.DownloadType = "png"
	}
	if d.DownloadedAt.IsZero() {
		d.DownloadedAt = time.Now()
	}
	d.DownloadedAt = normTime(d.DownloadedAt)
	err = s.write.QueryRowContext(ctx, `
		INSERT INTO qr_downloads (qr_code_id, user_id, session_id, ip_address, user_agent, referrer,
			qr_type, qr_content, download_type, has_logo, details, downloaded_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		RETURNING id`,
		d.QRCodeID, d.UserID, nullIfEmpty(d.SessionID), nullIfEmpty(d.IPAddress), nullIfEmpty(d.UserAgent),
		nullIfEmpty(d.Referrer), nullIfEmpty(d.QRType), nullIfEmpty(d.Content), d.DownloadType,
		d.HasLogo, details, dbTime(d.DownloadedAt),
	).Scan(&d.ID)
	if err != nil {
		return fail("create download", err)
	}
	return nil
}

// Download returns the download with the given id.
func (s *Store) Download(ctx context.Context, id int64) (*Download, error) {
	d := new(Download)
	var details string
	err := s.read.QueryRowContext(ctx, `
		SELECT id, qr_code_id, user_id, COALESCE(session_id, ''), COALESCE(ip_address, ''),
			COALESCE(user_agent, ''), COALESCE(referrer, ''), COALESCE(qr_type, ''), COALESCE(qr_content, ''),
			download_type, has_logo, details, downloaded_at
		FROM qr_downloads WHERE id = $1`, id,
	).Scan(&d.ID, &d.QRCodeID, &d.UserID, &d.SessionID, &d.IPAddress, &d.UserAgent, &d.Referrer,
		&d.QRType, &d.Content, &d.DownloadType, &d.HasLogo, &details, scanTime(&d.DownloadedAt))
	if err != nil {
		return nil, fail("fetch download", err)
	}
	if err := json.Unmarshal([]byte(details), &d.Details); err != nil {
		return nil, fail("fetch download", err)
	}
	return d, nil
}
