package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// CodeChanges are one code's changes in UpdateCodes; a field left at its
// zero value (SetDomain false) stays as it is.
type CodeChanges struct {
	Dynamic bool
	ID      int64
	Name    string
	// Destination, SetDomain and DomainID (nil: the base URL's host) are a
	// dynamic code's.
	Destination string
	SetDomain   bool
	DomainID    *int64
	Style       *Style
	// SetPage and PageID (nil: a redirect again) are the hosted page a
	// dynamic code opens (issue 35); the caller sets Destination to its URL.
	SetPage bool
	PageID  *int64
	// ShortCode is a dynamic code's new chosen short code (issue 34), ""
	// to keep it: refused with ErrScanned once the code has scans, and
	// ErrConflict when taken on the code's host (after SetDomain).
	ShortCode string
}

// CodeUpdate is one code's outcome in UpdateCodes: the code as it is
// afterwards, or why it was not changed (ErrNotFound: not a live code of
// the workspace, or a domain not the workspace's; ErrDomainUnverified;
// ErrScanned or ErrConflict for a short code).
type CodeUpdate struct {
	Static  *QRCode
	Dynamic *DynamicCode
	Err     error
}

// UpdateCodes changes the workspace's codes in one transaction, each code
// with one UPDATE (its audit entries and webhook events), and answers each
// one's outcome in order. A code that cannot be changed (CodeUpdate.Err)
// does not stop the others; a database failure fails them all (the error).
// The changed redirects are announced after commit.
func (s *Store) UpdateCodes(ctx context.Context, workspaceID int64, changes []CodeChanges, now time.Time) ([]CodeUpdate, error) {
	out := make([]CodeUpdate, len(changes))
	// Domains are checked before the transaction, on the read pool: a
	// domain deleted meanwhile is refused by the foreign key.
	for i, c := range changes {
		if c.Dynamic && c.SetDomain && c.DomainID != nil {
			out[i].Err = usableDomain(ctx, s.read, workspaceID, *c.DomainID)
		}
		if c.Dynamic && c.SetPage && c.PageID != nil && out[i].Err == nil {
			_, out[i].Err = s.Page(ctx, workspaceID, *c.PageID)
		}
	}
	var was []string // the short codes changed away from
	err := s.inTx(ctx, "update codes", func(tx *sql.Tx) error {
		was = was[:0]
		for i, c := range changes {
			if out[i].Err != nil {
				continue
			}
			set, args := c.set(now)
			var err error
			if c.Dynamic && c.ShortCode != "" {
				old, err := s.shortCodeChange(ctx, tx, workspaceID, c.ID, c.ShortCode, c.DomainID, !c.SetDomain)
				switch {
				case errors.Is(err, ErrNotFound), errors.Is(err, ErrScanned), errors.Is(err, ErrConflict):
					out[i].Err = err
					continue
				case err != nil:
					return err
				}
				was = append(was, old)
			}
			if c.Dynamic {
				out[i].Dynamic, err = s.updateDynamicIn(ctx, tx, "update dynamic code", workspaceID, c.ID, set, args...)
			} else {
				out[i].Static, err = s.updateQRCodeIn(ctx, tx, "update QR code", workspaceID, c.ID, set, args...)
			}
			switch {
			case errors.Is(err, ErrNotFound):
				out[i].Err = err
			case err != nil:
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	changed := was
	var statics []*QRCode
	var dynamics []*DynamicCode
	for _, u := range out {
		switch {
		case u.Dynamic != nil:
			changed = append(changed, u.Dynamic.ShortCode)
			dynamics = append(dynamics, u.Dynamic)
		case u.Static != nil:
			statics = append(statics, u.Static)
		}
	}
	s.redirectsChanged(ctx, changed...)
	return out, s.withTags(ctx, statics, dynamics)
}

// set is the SET clause of c's UPDATE and its arguments from $3 (the
// code's id and workspace are $1 and $2). With nothing to change it still
// touches the row, so a code gone meanwhile is told apart.
func (c CodeChanges) set(now time.Time) (string, []any) {
	var set []string
	var args []any
	add := func(col string, v any) {
		args = append(args, v)
		set = append(set, fmt.Sprintf("%s = $%d", col, len(args)+2))
	}
	if c.Name != "" {
		add("name", c.Name)
	}
	if c.Style != nil {
		set = append(set, styleSet(len(args)+3))
		args = append(args, c.Style.insertArgs()...)
	}
	if !c.Dynamic {
		if len(set) == 0 {
			return "name = name", nil
		}
		return strings.Join(set, ", "), args
	}
	if c.Destination != "" {
		add("destination", c.Destination)
		set = append(set, "health_checked_at = NULL") // the link checker checks it again
	}
	if c.SetDomain {
		add("domain_id", c.DomainID)
	}
	if c.SetPage {
		add("page_id", c.PageID)
	}
	if c.ShortCode != "" {
		add("short_code", c.ShortCode)
		set = append(set, "short_code_chosen = TRUE")
	}
	add("updated_at", dbTime(now))
	return strings.Join(set, ", "), args
}
