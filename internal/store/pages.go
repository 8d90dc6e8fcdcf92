package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Hosted pages (issue 35): a workspace's pages, served at /p/{slug} and by
// the dynamic codes whose destination they are (dynamic_qr_codes.page_id).
// Slugs are unique across the site (ErrConflict). Version goes up with
// every edit; the server caches a page's HTML per version.

// ErrPageLimit is returned when a workspace without a subscription
// already has as many pages as the free plan allows.
var ErrPageLimit = errors.New("store: page limit reached")

// PageInUseError is returned by DeletePage for a page a live code opens:
// Codes are those codes' names.
type PageInUseError struct{ Codes []string }

func (e *PageInUseError) Error() string {
	return "store: the page is used by live codes: " + strings.Join(e.Codes, ", ")
}

// Page is a hosted page as the store keeps it; Theme and Content are JSON
// (internal/pages reads them).
type Page struct {
	ID          int64
	WorkspaceID int64
	Type        string
	Slug        string
	Title       string
	Language    string
	Theme       string
	Content     string
	Version     int64
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const pageSelect = `SELECT p.id, p.workspace_id, p.type, p.slug, p.title, p.language, p.theme, p.content, p.version, p.created_at, p.updated_at FROM pages p`

func scanPage(sc interface{ Scan(...any) error }) (*Page, error) {
	p := new(Page)
	err := sc.Scan(&p.ID, &p.WorkspaceID, &p.Type, &p.Slug, &p.Title, &p.Language, &p.Theme, &p.Content, &p.Version,
		scanTime(&p.CreatedAt), scanTime(&p.UpdatedAt))
	return p, err
}

func (s *Store) queryPages(ctx context.Context, doing, where string, args ...any) ([]*Page, error) {
	rows, err := s.read.QueryContext(ctx, pageSelect+` `+where, args...)
	if err != nil {
		return nil, fail(doing, err)
	}
	defer rows.Close()
	list := []*Page{}
	for rows.Next() {
		p, err := scanPage(rows)
		if err != nil {
			return nil, fail(doing, err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(doing, err)
	}
	return list, nil
}

// Pages returns the workspace's pages, newest first.
func (s *Store) Pages(ctx context.Context, workspaceID int64) ([]*Page, error) {
	return s.queryPages(ctx, "list pages", `WHERE p.workspace_id = $1 ORDER BY p.id DESC`, workspaceID)
}

// Page returns one of the workspace's pages (ErrNotFound for another
// workspace's).
func (s *Store) Page(ctx context.Context, workspaceID, id int64) (*Page, error) {
	p, err := scanPage(s.read.QueryRowContext(ctx, pageSelect+` WHERE p.id = $1 AND p.workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("fetch page", err)
	}
	return p, nil
}

// LivePage returns a page to serve, by id (slug ""), or by slug (id 0):
// ErrNotFound when it or its workspace is deleted.
func (s *Store) LivePage(ctx context.Context, id int64, slug string) (*Page, error) {
	where, arg := `p.id = $1`, any(id)
	if id == 0 {
		where, arg = `p.slug = $1`, slug
	}
	p, err := scanPage(s.read.QueryRowContext(ctx, pageSelect+` JOIN workspaces w ON w.id = p.workspace_id
		WHERE `+where+` AND NOT w.is_deleted`, arg))
	if err != nil {
		return nil, fail("fetch page", err)
	}
	return p, nil
}

// CreatePage saves a new page of the workspace and fills in ID, Version
// and the times. With freeLimit > 0 (a workspace on the free plan) it may
// hold at most freeLimit pages (ErrPageLimit): the count and the insert
// share one transaction under the workspace's lock, so concurrent
// creations cannot both pass at the limit. A taken slug is ErrConflict.
func (s *Store) CreatePage(ctx context.Context, workspaceID int64, p *Page, freeLimit int, now time.Time) error {
	p.WorkspaceID = workspaceID
	p.CreatedAt, p.UpdatedAt, p.Version = normTime(now), normTime(now), 1
	return s.inTx(ctx, "create page", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		if freeLimit > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
				return fail("count pages", err)
			}
			if n >= freeLimit {
				return ErrPageLimit
			}
		}
		err := tx.QueryRowContext(ctx, `
			INSERT INTO pages (workspace_id, type, slug, title, language, theme, content, version, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9) RETURNING id`,
			workspaceID, p.Type, p.Slug, p.Title, p.Language, p.Theme, p.Content, dbTime(p.CreatedAt), dbTime(p.UpdatedAt)).Scan(&p.ID)
		if err != nil {
			return fail("create page", err)
		}
		return s.audit(ctx, tx, workspaceID, "page.created", Target{"page", p.ID, p.Title}, map[string]any{"type": p.Type, "slug": p.Slug})
	})
}

// UpdatePage replaces one of the workspace's pages (its type stays) and
// bumps its version; it fills in Version, CreatedAt and UpdatedAt. The
// codes that open it are announced as changed (the redirect caches of
// every instance), as an edited destination is.
func (s *Store) UpdatePage(ctx context.Context, workspaceID int64, p *Page, now time.Time) error {
	p.UpdatedAt = normTime(now)
	var codes []string
	var oldSlug string
	err := s.inTx(ctx, "update page", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT slug FROM pages WHERE id = $1 AND workspace_id = $2`, p.ID, workspaceID).Scan(&oldSlug)
		if err != nil {
			return fail("update page", err)
		}
		err = tx.QueryRowContext(ctx, `
			UPDATE pages SET slug = $3, title = $4, language = $5, theme = $6, content = $7, version = version + 1, updated_at = $8
			WHERE id = $1 AND workspace_id = $2 RETURNING version, created_at, type`,
			p.ID, workspaceID, p.Slug, p.Title, p.Language, p.Theme, p.Content, dbTime(p.UpdatedAt)).Scan(&p.Version, scanTime(&p.CreatedAt), &p.Type)
		if err != nil {
			return fail("update page", err)
		}
		if codes, err = pageShortCodes(ctx, tx, p.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, "page.updated", Target{"page", p.ID, p.Title}, nil)
	})
	if err == nil {
		s.redirectsChanged(ctx, append(codes, PageKey(oldSlug), PageKey(p.Slug))...)
	}
	return err
}

// pagePrefix marks an announced key as a page's slug rather than a short
// code, which never holds a ':'.
const pagePrefix = "page:"

// PageKey is the key a change to the page at slug is announced with.
func PageKey(slug string) string { return pagePrefix + slug }

// AnnouncedPage returns the slug an announced key names, or false.
func AnnouncedPage(key string) (string, bool) { return strings.CutPrefix(key, pagePrefix) }

func pageShortCodes(ctx context.Context, tx *sql.Tx, pageID int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT short_code FROM dynamic_qr_codes WHERE page_id = $1 AND NOT is_deleted`, pageID)
	if err != nil {
		return nil, fail("list a page's codes", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fail("list a page's codes", err)
		}
		out = append(out, c)
	}
	return out, failOrNil("list a page's codes", rows.Err())
}

// pageRoutedPattern matches (LIKE) the stored routing of a code whose
// rule or split variant answers with page id: encodeRouting writes a
// target's pageId as its last field, so it reads "pageId":{id}}.
func pageRoutedPattern(id int64) string { return `%"pageId":` + strconv.FormatInt(id, 10) + `}%` }

// DeletePage deletes one of the workspace's pages and its analytics. A
// page a live code opens, or one its routing answers with, is not
// deleted: *PageInUseError names the codes.
// The check and the delete share the transaction, under the workspace's
// lock (which code creation also takes).
func (s *Store) DeletePage(ctx context.Context, workspaceID, id int64) error {
	var slug string
	err := s.inTx(ctx, "delete page", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		routed := pageRoutedPattern(id)
		rows, err := tx.QueryContext(ctx, `SELECT name FROM dynamic_qr_codes WHERE (page_id = $1 OR routing LIKE $3) AND workspace_id = $2 AND NOT is_deleted
			ORDER BY name, id`, id, workspaceID, routed)
		if err != nil {
			return fail("delete page", err)
		}
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return fail("delete page", err)
			}
			names = append(names, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fail("delete page", err)
		}
		var title string
		err = tx.QueryRowContext(ctx, `DELETE FROM pages WHERE id = $1 AND workspace_id = $2 AND NOT EXISTS (
			SELECT 1 FROM dynamic_qr_codes WHERE (page_id = $1 OR routing LIKE $3) AND NOT is_deleted) RETURNING title, slug`, id, workspaceID, routed).Scan(&title, &slug)
		if errors.Is(err, sql.ErrNoRows) && len(names) > 0 {
			return &PageInUseError{Codes: names}
		}
		if err != nil {
			return fail("delete page", err)
		}
		return s.audit(ctx, tx, workspaceID, "page.deleted", Target{"page", id, title}, nil)
	})
	if err == nil {
		s.redirectsChanged(ctx, PageKey(slug))
	}
	return err
}

// PageEvent is one thing a visitor did on a page (see page_events).
type PageEvent struct {
	PageID  int64
	Kind    string // view, click, save, reveal, calendar
	Button  int    // click: the button's index
	Visitor string // a daily salted hash of the client, never its address
	At      time.Time
}

// The kinds of page events.
const (
	PageView     = "view"
	PageClick    = "click"
	PageSave     = "save"
	PageReveal   = "reveal"
	PageCalendar = "calendar"
)

// RecordPageEvents saves events in one transaction.
func (s *Store) RecordPageEvents(ctx context.Context, events []PageEvent) error {
	if len(events) == 0 {
		return nil
	}
	return s.inTx(ctx, "record page events", func(tx *sql.Tx) error {
		for _, e := range events {
			var button any
			if e.Kind == PageClick {
				button = e.Button
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO page_events (page_id, kind, button, visitor, at)
				SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM pages WHERE id = $1)`,
				e.PageID, e.Kind, button, e.Visitor, dbTime(e.At))
			if err != nil {
				return fail("record page event", err)
			}
		}
		return nil
	})
}

// PageStats is a page's analytics over a period.
type PageStats struct {
	Views        int64
	Visitors     int64 // distinct visitors (by day: the hash changes daily)
	Clicks       map[int]int64
	ContactSaves int64
	Reveals      int64
	CalendarAdds int64
	ClicksTotal  int64
}

// PageAnalytics counts one of the workspace's page's events in [from, to).
func (s *Store) PageAnalytics(ctx context.Context, workspaceID, pageID int64, from, to time.Time) (*PageStats, error) {
	if _, err := s.Page(ctx, workspaceID, pageID); err != nil {
		return nil, err
	}
	st := &PageStats{Clicks: map[int]int64{}}
	rows, err := s.read.QueryContext(ctx, `SELECT kind, COALESCE(button, -1), count(*) FROM page_events
		WHERE page_id = $1 AND at >= $2 AND at < $3 GROUP BY kind, COALESCE(button, -1)`, pageID, dbTime(from), dbTime(to))
	if err != nil {
		return nil, fail("count page events", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var button int
		var n int64
		if err := rows.Scan(&kind, &button, &n); err != nil {
			return nil, fail("count page events", err)
		}
		switch kind {
		case PageView:
			st.Views += n
		case PageClick:
			st.Clicks[button] += n
			st.ClicksTotal += n
		case PageSave:
			st.ContactSaves += n
		case PageReveal:
			st.Reveals += n
		case PageCalendar:
			st.CalendarAdds += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fail("count page events", err)
	}
	err = s.read.QueryRowContext(ctx, `SELECT count(DISTINCT visitor) FROM page_events
		WHERE page_id = $1 AND kind = 'view' AND at >= $2 AND at < $3`, pageID, dbTime(from), dbTime(to)).Scan(&st.Visitors)
	if err != nil {
		return nil, fail("count page visitors", err)
	}
	return st, nil
}

// workspacePage checks that page id is the workspace's (ErrNotFound).
func workspacePage(ctx context.Context, tx *sql.Tx, workspaceID, id int64) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM pages WHERE id = $1 AND workspace_id = $2`, id, workspaceID).Scan(&one)
	if err != nil {
		return fail("find page", err)
	}
	return nil
}

// SetDynamicPage makes the workspace's code open one of its pages (nil:
// redirect to its destination again); destination is what the code
// redirects to meanwhile (the page's URL). ErrNotFound when the code or
// the page is not the workspace's.
func (s *Store) SetDynamicPage(ctx context.Context, workspaceID, id int64, pageID *int64, destination string, now time.Time) (*DynamicCode, error) {
	if pageID != nil {
		if _, err := s.Page(ctx, workspaceID, *pageID); err != nil {
			return nil, err
		}
	}
	return s.updateDynamic(ctx, "set page", workspaceID, id, `page_id = $3, destination = CASE WHEN $4 = '' THEN destination ELSE $4 END, updated_at = $5`,
		pageID, destination, dbTime(now))
}
