package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"
)

// Portability (issue 25): what a customer takes with them.

// ExportedRedirect is a live dynamic code, as the export needs it: a code
// that forwards its scans without Squarely's help (live, not paused,
// without a password), or one the export must not serve (Withheld) but
// that still decides what a host answers for its short code.
type ExportedRedirect struct {
	ID                     int64
	ShortCode, Destination string
	ClientID               int64 // the workspace's white-label client
	WorkspaceID            int64 // its verified domains serve it too
	// DomainID is the verified custom domain the code prints (0: the base
	// URL's host), Domain that domain's name; ShortCodeChosen is set when
	// its workspace chose its short code (issue 34), which a custom domain
	// prints at its root path (codes.PrintedURL).
	DomainID        int64
	Domain          string
	ShortCodeChosen bool
	// PageSlug is the hosted page a page code answers with (issue 35), ""
	// for a redirect: the export serves the page's files at /d/{code}.
	PageSlug string
	// Withheld is a code the export does not serve: paused or protected
	// (Squarely answers those with its own pages, which no configuration
	// can), or, in one workspace's export, another workspace's code with
	// the same short code. Where Squarely would answer with it, the export
	// answers 404: it never falls back to another code in its place.
	Withheld bool
}

// ExportedDomain is a workspace's verified domain: Squarely serves the
// workspace's codes on it, so an export serves them there too.
type ExportedDomain struct {
	ID          int64
	Domain      string
	WorkspaceID int64
}

// ExportDomains lists the verified domains of a workspace, or of every
// live workspace when workspaceID is 0, by name: the hosts
// onCustomDomain serves (a lost domain still serves its codes).
func (s *Store) ExportDomains(ctx context.Context, workspaceID int64) ([]ExportedDomain, error) {
	match, args := `TRUE`, []any{}
	if workspaceID != 0 {
		match, args = `workspace_id = $1`, []any{workspaceID}
	}
	var out []ExportedDomain
	err := s.eachRow(ctx, "export domains", `SELECT id, domain, workspace_id FROM workspace_domains
		WHERE `+match+` AND verified_at IS NOT NULL AND workspace_id IN (SELECT id FROM workspaces WHERE NOT is_deleted)
		ORDER BY domain`, args, func(rows *sql.Rows) error {
		var d ExportedDomain
		err := rows.Scan(&d.ID, &d.Domain, &d.WorkspaceID)
		out = append(out, d)
		return err
	})
	return out, err
}

// ExportRedirects lists the live dynamic codes (neither they nor their
// workspace deleted) of a workspace, or of every workspace when
// workspaceID is 0, by short code and then oldest first: every code, one
// per host of each short code, for the export to answer each host's as
// Squarely does (portability's resolution, scans' pick). A paused code
// shows a page and a protected one asks for its password, so neither can
// be a plain redirect: they are Withheld. One workspace's list also holds
// the other workspaces' codes with its short codes, Withheld: Squarely's
// base URL answers the oldest of a short code's codes, whichever
// workspace's, where no code of the base URL has it.
func (s *Store) ExportRedirects(ctx context.Context, workspaceID int64) ([]ExportedRedirect, error) {
	match, args := `TRUE`, []any{}
	if workspaceID != 0 {
		match, args = `d.short_code IN (SELECT short_code FROM dynamic_qr_codes WHERE workspace_id = $1 AND NOT is_deleted)`, []any{workspaceID}
	}
	type row struct {
		r      ExportedRedirect
		pageID int64
	}
	var rows []row
	err := s.eachRow(ctx, "export redirects", `
		SELECT d.id, d.short_code, d.destination, d.is_paused, d.password_hash IS NOT NULL, w.client_id, d.workspace_id,
			COALESCE(d.domain_id, 0), COALESCE((SELECT domain FROM workspace_domains WHERE id = d.domain_id), ''), d.short_code_chosen,
			COALESCE(d.page_id, 0)
		FROM dynamic_qr_codes d JOIN workspaces w ON w.id = d.workspace_id
		WHERE `+match+` AND NOT d.is_deleted AND NOT w.is_deleted
		ORDER BY d.id`, args, func(sr *sql.Rows) error {
		var c row
		var paused, protected bool
		err := sr.Scan(&c.r.ID, &c.r.ShortCode, &c.r.Destination, &paused, &protected, &c.r.ClientID, &c.r.WorkspaceID,
			&c.r.DomainID, &c.r.Domain, &c.r.ShortCodeChosen, &c.pageID)
		c.r.Withheld = paused || protected || workspaceID != 0 && c.r.WorkspaceID != workspaceID
		rows = append(rows, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	// By short code in Go, not SQL (PostgreSQL's collation need not be
	// byte order); stable, so a short code's codes stay oldest first.
	slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.r.ShortCode, b.r.ShortCode) })
	// A page code's slug, from its page's id.
	pages, err := s.ExportPages(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	slugs := map[int64]string{}
	for _, p := range pages {
		slugs[p.ID] = p.Slug
	}
	out := make([]ExportedRedirect, len(rows))
	for i, c := range rows {
		out[i] = c.r
		if c.pageID != 0 {
			out[i].PageSlug = slugs[c.pageID]
		}
	}
	return out, nil
}

// ExportPages lists the hosted pages of a workspace, or of every live
// workspace when workspaceID is 0, by slug.
func (s *Store) ExportPages(ctx context.Context, workspaceID int64) ([]*Page, error) {
	match, args := `TRUE`, []any{}
	if workspaceID != 0 {
		match, args = `p.workspace_id = $1`, []any{workspaceID}
	}
	return s.queryPages(ctx, "export pages", `JOIN workspaces w ON w.id = p.workspace_id WHERE `+match+` AND NOT w.is_deleted ORDER BY p.slug`, args...)
}

// WorkspaceBlobIDs lists the ids of the files uploaded in a workspace,
// oldest first: an export reads them one at a time (Blob), so memory holds
// one file.
func (s *Store) WorkspaceBlobIDs(ctx context.Context, workspaceID int64) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM blobs WHERE workspace_id = $1 ORDER BY created_at, id`, workspaceID)
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

// ExportedWorkspace returns a live workspace by id, for the export
// command (Role is one member's).
func (s *Store) ExportedWorkspace(ctx context.Context, id int64) (*Workspace, error) {
	w, err := scanWorkspace(s.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+`
		FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
		WHERE w.id = $1 AND NOT w.is_deleted ORDER BY m.user_id LIMIT 1`, id))
	if err != nil {
		return nil, fail("fetch workspace", err)
	}
	return w, nil
}
