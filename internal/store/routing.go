package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// Routes a scan event records (issue 23): the code's destination, or the
// end of its schedule or scan limit; rules and split variants are
// "rule:N" and "split:N", N counting from 0.
const (
	RouteDefault = "default"
	RouteEnded   = "ended"
)

// Routing is a dynamic code's smart routing (docs/API.md "Smart routing"),
// kept as JSON with the code. The server validates it before it is saved.
type Routing struct {
	Rules     []RoutingRule  `json:"rules"`
	Split     []SplitVariant `json:"split"`
	StartsAt  *time.Time     `json:"startsAt"`
	ExpiresAt *time.Time     `json:"expiresAt"`
	ScanLimit *int64         `json:"scanLimit"`
	AfterEnd  *string        `json:"afterEnd"`
}

// RoutingRule sends the scans that meet all its conditions to
// Destination, or, with PageID set (and no Destination), answers them
// with that hosted page of the code's workspace.
type RoutingRule struct {
	When        RuleWhen `json:"when"`
	Destination string   `json:"destination,omitempty"`
	PageID      *int64   `json:"pageId,omitempty"` // last: pageRoutedQuery matches its JSON
}

// RuleWhen are a rule's conditions; an empty one is not checked.
type RuleWhen struct {
	OS      []string `json:"os,omitempty"`
	Country []string `json:"country,omitempty"`
	// Region (names or ISO 3166-2 codes, "DE-BY") and City (names) match
	// the city database's place of the scan, ignoring case.
	Region   []string `json:"region,omitempty"`
	City     []string `json:"city,omitempty"`
	Language []string `json:"language,omitempty"`
	Days     []string `json:"days,omitempty"`
	From     string   `json:"from,omitempty"`
	To       string   `json:"to,omitempty"`
	TimeZone string   `json:"timeZone,omitempty"`
}

// SplitVariant is one destination of a split (a URL, or a hosted page as
// for a rule) and its share, in percent.
type SplitVariant struct {
	Destination string `json:"destination,omitempty"`
	Weight      int    `json:"weight"`
	PageID      *int64 `json:"pageId,omitempty"` // last: pageRoutedQuery matches its JSON
}

// encodeRouting is what the routing column holds: NULL for none.
func encodeRouting(r *Routing) (any, error) {
	if r == nil {
		return nil, nil
	}
	b, err := json.Marshal(r)
	return string(b), err
}

// ParseRouting reads a routing as stored (Redirect.Routing); nil for "".
func ParseRouting(text string) (*Routing, error) {
	var r *Routing
	err := routingScanner{&r}.Scan(text)
	return r, err
}

// scanRouting reads the routing column.
func scanRouting(into **Routing) sql.Scanner { return routingScanner{into} }

type routingScanner struct{ into **Routing }

func (s routingScanner) Scan(v any) error {
	*s.into = nil
	var text []byte
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		if v == "" {
			return nil
		}
		text = []byte(v)
	case []byte:
		text = v
	}
	r := new(Routing)
	if err := json.Unmarshal(text, r); err != nil {
		return err
	}
	*s.into = r
	return nil
}

// SetDynamicRouting sets the routing of the workspace's code, or removes
// it (nil). The scans counted against a scan limit stay counted; the link
// checker checks its destinations again at its next pass.
func (s *Store) SetDynamicRouting(ctx context.Context, workspaceID, id int64, r *Routing, now time.Time) (*DynamicCode, error) {
	text, err := encodeRouting(r)
	if err != nil {
		return nil, fail("encode routing", err)
	}
	var limit any
	if r != nil && r.ScanLimit != nil {
		limit = *r.ScanLimit
	}
	return s.updateDynamic(ctx, "set routing", workspaceID, id, `routing = $3, scan_limit = $4, updated_at = $5, health_checked_at = NULL`, text, limit, dbTime(now))
}

// TakeLimitedScan counts one redirected scan against the scan limit of
// the live code id and reports whether it was within it. One conditional
// UPDATE: however many instances scan at once, at most the limit pass.
// A code without a limit always passes.
func (s *Store) TakeLimitedScan(ctx context.Context, id int64) (bool, error) {
	var n int64
	err := s.write.QueryRowContext(ctx, `
		UPDATE dynamic_qr_codes SET limit_scans = limit_scans + 1
		WHERE id = $1 AND NOT is_deleted AND (scan_limit IS NULL OR limit_scans < scan_limit)
		RETURNING limit_scans`, id).Scan(&n)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fail("count a limited scan", err)
	}
	return true, nil
}

// LimitReached reports whether the live code id has used up its scan
// limit, without counting a scan: for answers that are not redirects.
func (s *Store) LimitReached(ctx context.Context, id int64) (bool, error) {
	var reached bool
	err := s.read.QueryRowContext(ctx, `
		SELECT scan_limit IS NOT NULL AND limit_scans >= scan_limit FROM dynamic_qr_codes WHERE id = $1`, id).Scan(&reached)
	if err != nil {
		return false, fail("read a scan limit", err)
	}
	return reached, nil
}
