package store

import (
	"context"
	"slices"
	"strings"
)

// Portability (issue 25): what a customer takes with them.

// ExportedRedirect is a dynamic code that forwards its scans without
// Squarely's help: live, not paused, without a password.
type ExportedRedirect struct {
	ShortCode, Destination string
	ClientID               int64 // the owner's white-label client
}

// ExportRedirects lists the forwarding codes of user userID, or of every
// user when userID is 0, by short code. A paused code shows a page and a
// protected one asks for its password, so neither can be a plain
// redirect; they are left out.
func (s *Store) ExportRedirects(ctx context.Context, userID int64) ([]ExportedRedirect, error) {
	match, args := `TRUE`, []any{}
	if userID != 0 {
		match, args = `d.user_id = $1`, []any{userID}
	}
	rows, err := s.read.QueryContext(ctx, redirectQuery(match), args...)
	if err != nil {
		return nil, fail("export redirects", err)
	}
	defer rows.Close()
	var out []ExportedRedirect
	for rows.Next() {
		code, r, err := scanRedirect(rows)
		if err != nil {
			return nil, fail("export redirects", err)
		}
		if !r.Paused && !r.Protected {
			out = append(out, ExportedRedirect{ShortCode: code, Destination: r.Destination, ClientID: r.ClientID})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fail("export redirects", err)
	}
	slices.SortFunc(out, func(a, b ExportedRedirect) int { return strings.Compare(a.ShortCode, b.ShortCode) })
	return out, nil
}

// UserBlobIDs lists the ids of the files userID uploaded, oldest first:
// an export reads them one at a time (Blob), so memory holds one file.
func (s *Store) UserBlobIDs(ctx context.Context, userID int64) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM blobs WHERE owner_id = $1 ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fail("list uploads", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fail("list uploads", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
