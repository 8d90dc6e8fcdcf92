package store

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
)

// Portability (issue 25): what a customer takes with them.

// ExportedRedirect is a dynamic code that forwards its scans without
// Squarely's help: live, not paused, without a password.
type ExportedRedirect struct {
	ShortCode, Destination string
	ClientID               int64 // the workspace's white-label client
	WorkspaceID            int64 // its verified domains serve it too
	// PageSlug is the hosted page a page code answers with (issue 35), ""
	// for a redirect: the export serves the page's files at /d/{code}.
	PageSlug string
}

// ExportedDomain is a workspace's verified domain: Squarely serves the
// workspace's codes on it, so an export serves them there too.
type ExportedDomain struct {
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
	err := s.eachRow(ctx, "export domains", `SELECT domain, workspace_id FROM workspace_domains
		WHERE `+match+` AND verified_at IS NOT NULL AND workspace_id IN (SELECT id FROM workspaces WHERE NOT is_deleted)
		ORDER BY domain`, args, func(rows *sql.Rows) error {
		var d ExportedDomain
		err := rows.Scan(&d.Domain, &d.WorkspaceID)
		out = append(out, d)
		return err
	})
	return out, err
}

// ExportRedirects lists the forwarding codes of a workspace, or of every
// workspace when workspaceID is 0, by short code. A paused code shows a page and a
// protected one asks for its password, so neither can be a plain
// redirect; they are left out.
func (s *Store) ExportRedirects(ctx context.Context, workspaceID int64) ([]ExportedRedirect, error) {
	match, args := `TRUE`, []any{}
	if workspaceID != 0 {
		match, args = `d.workspace_id = $1`, []any{workspaceID}
	}
	rows, err := s.read.QueryContext(ctx, redirectQuery(match), args...)
	if err != nil {
		return nil, fail("export redirects", err)
	}
	found, err := scanRedirects(rows, "export redirects", 0)
	if err != nil {
		return nil, err
	}
	var out []ExportedRedirect
	for code, list := range found {
		// One code per short code, the one the base URL answers: its own,
		// else the oldest. (The export's configurations name each short
		// code once; a chosen short code on several hosts exports that one.)
		r := list[0]
		if i := slices.IndexFunc(list, func(r Redirect) bool { return r.DomainID == 0 }); i >= 0 {
			r = list[i]
		}
		if !r.Paused && !r.Protected {
			out = append(out, ExportedRedirect{ShortCode: code, Destination: r.Destination, ClientID: r.ClientID, WorkspaceID: r.WorkspaceID,
				PageSlug: strconv.FormatInt(r.PageID, 10)})
		}
	}
	slices.SortFunc(out, func(a, b ExportedRedirect) int { return strings.Compare(a.ShortCode, b.ShortCode) })
	// A page code's slug, from its page's id.
	pages, err := s.ExportPages(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	slugs := map[string]string{}
	for _, p := range pages {
		slugs[strconv.FormatInt(p.ID, 10)] = p.Slug
	}
	for i := range out {
		out[i].PageSlug = slugs[out[i].PageSlug]
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
