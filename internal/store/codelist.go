package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// One server-side list of a workspace's codes of both kinds (issue 22 item
// 3): filtered, sorted and paged by a keyset cursor, so a page follows the
// one before it however many codes are created meanwhile, and a workspace
// of 100,000 codes is read through its indexes a page at a time.

// CodeQuery picks and orders a page of a workspace's live codes.
type CodeQuery struct {
	WorkspaceID int64
	Search      string // matches name, destination and tag names, ignoring case; "" = all
	Kind        string // "static", "dynamic" or "" for both
	Type        string // qr_type; "" = any
	Status      string // "active", "paused" or "" for both
	TagID       int64  // 0 = any
	FolderID    int64  // 0 = any
	DomainID    int64  // 0 = any; else dynamic codes printing that custom domain
	Sort        string // "created" (default), "name" or "scans"
	Desc        bool
	Limit       int
	After       *CodeCursor // the last code of the page before; nil = the first page
}

// CodeCursor is where a page ends: the sort value of its last code, the
// code's kind (0 static, 1 dynamic) and id, which break ties.
type CodeCursor struct {
	Value any   `json:"v"` // the created time (as stored), the lower-cased name, or the scans
	Kind  int   `json:"k"`
	ID    int64 `json:"i"`
}

// CodeRef is one code of a page: its kind and id, and the cursor that
// continues after it.
type CodeRef struct {
	Dynamic bool
	ID      int64
	Cursor  CodeCursor
}

// ListCodes returns up to q.Limit codes of the page q asks for.
func (s *Store) ListCodes(ctx context.Context, q CodeQuery) ([]CodeRef, error) {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	ws := arg(q.WorkspaceID)
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	var pattern string
	if q.Search != "" {
		pattern = arg("%" + likeEscaper.Replace(strings.ToLower(q.Search)) + "%")
	}
	var branches []string
	for kind, k := range []codeKind{staticKind, dynamicKind} {
		if (q.Kind == "static" && kind == 1) || ((q.Kind == "dynamic" || q.DomainID != 0) && kind == 0) {
			continue
		}
		sortExpr := map[string]string{"created": "c.created_at", "name": "lower(c.name)", "scans": "0"}[q.Sort]
		if kind == 1 {
			sortExpr = map[string]string{"created": "c.created_at", "name": "lower(c.name)",
				"scans": "COALESCE((SELECT sc.scans FROM scan_counts sc WHERE sc.dynamic_qr_code_id = c.id), 0)"}[q.Sort]
		}
		where := []string{"c.workspace_id = " + ws, "NOT c.is_deleted"}
		if pattern != "" {
			ids, found, err := s.fewMatches(ctx, k, q.Search)
			if err != nil {
				return nil, err
			}
			if found {
				// By primary key (the unary plus keeps SQLite off the
				// workspace's index), then sorted: a few rows.
				where = []string{"c.id IN (" + s.jsonInts(len(args)+1) + ")", "+c.workspace_id = " + ws, "NOT c.is_deleted"}
				arg(ids)
			} else {
				where = append(where, `c.search_text LIKE `+pattern+` ESCAPE '\'`)
			}
		}
		if q.Type != "" {
			where = append(where, "c.qr_type = "+arg(q.Type))
		}
		switch q.Status {
		case "active":
			where = append(where, "NOT c.is_paused")
		case "paused":
			where = append(where, "c.is_paused")
		}
		if q.TagID != 0 {
			where = append(where, "c.id IN (SELECT "+k.tagColumn+" FROM "+k.tagTable+" WHERE tag_id = "+arg(q.TagID)+")")
		}
		if q.FolderID != 0 {
			where = append(where, "c.folder_id = "+arg(q.FolderID))
		}
		if q.DomainID != 0 {
			where = append(where, "c.domain_id = "+arg(q.DomainID))
		}
		if a := q.After; a != nil {
			// Ties on the sort value go by kind, then id, in the list's
			// direction: within a branch the kind is fixed.
			v := arg(a.Value)
			switch {
			case a.Kind == kind:
				where = append(where, "("+sortExpr+", c.id) "+cmp+" ("+v+", "+arg(a.ID)+")")
			case (a.Kind < kind) == q.Desc:
				where = append(where, sortExpr+" "+cmp+" "+v)
			default:
				where = append(where, sortExpr+" "+cmp+"= "+v)
			}
		}
		branches = append(branches, fmt.Sprintf(`SELECT * FROM (SELECT %d AS kind, c.id AS id, %s AS sort_value FROM %s c
			WHERE %s ORDER BY %s %s, c.id %s LIMIT %d) b%d`,
			kind, sortExpr, k.table, strings.Join(where, " AND "), sortExpr, dir, dir, q.Limit, kind))
	}
	if len(branches) == 0 {
		return []CodeRef{}, nil // static codes print no custom domain
	}
	query := strings.Join(branches, " UNION ALL ") +
		fmt.Sprintf(" ORDER BY sort_value %s, kind %s, id %s LIMIT %d", dir, dir, dir, q.Limit)
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fail("list codes", err)
	}
	defer rows.Close()
	list := []CodeRef{}
	for rows.Next() {
		var c CodeRef
		var value any
		if err := rows.Scan(&c.Cursor.Kind, &c.ID, &value); err != nil {
			return nil, fail("list codes", err)
		}
		c.Dynamic = c.Cursor.Kind == 1
		c.Cursor.ID = c.ID
		c.Cursor.Value = cursorValue(value)
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list codes", err)
	}
	return list, nil
}

// cursorValue is a sort value as a cursor keeps it: times in the stored
// text layout (what both databases compare with created_at), names as
// text, scans as a number.
func cursorValue(v any) any {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case time.Time:
		return dbTime(v)
	}
	return v
}

// likeEscaper escapes LIKE's wildcards in a search term (ESCAPE '\').
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// CodeSearchIndexed reports whether a trigram index serves the code
// list's search: always on SQLite (FTS5); on PostgreSQL when migration 0017
// could create the pg_trgm extension and its indexes.
func (s *Store) CodeSearchIndexed(ctx context.Context) (bool, error) {
	if s.dialect == SQLite {
		return true, nil
	}
	var ok bool
	err := s.read.QueryRowContext(ctx, `SELECT to_regclass('dynamic_qr_codes_search_idx') IS NOT NULL`).Scan(&ok)
	if err != nil {
		return false, fail("check the search index", err)
	}
	return ok, nil
}

// fewCodes is the most matches a search looks up by id; past it, the code
// list walks its index in sort order and keeps the codes that match, which
// then are at least 1 in 100 of a workspace of 100,000.
const fewCodes = 1000

// fewMatches, on SQLite, asks the trigram index (FTS5) which codes of
// kind k hold term: found with their ids (a JSON array) when there are at
// most fewCodes, which the list then reads by id; not found when there are
// more, or the term is too short for trigrams, or on PostgreSQL, whose
// planner picks between its trigram index and the sort order itself.
func (s *Store) fewMatches(ctx context.Context, k codeKind, term string) (string, bool, error) {
	term = strings.ToLower(term)
	if s.dialect != SQLite || utf8.RuneCountInString(term) < 3 {
		return "", false, nil
	}
	phrase := `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
	rows, err := s.read.QueryContext(ctx, `SELECT rowid FROM `+k.table+`_search WHERE `+k.table+`_search MATCH $1 LIMIT $2`,
		phrase, fewCodes+1)
	if err != nil {
		return "", false, fail("search codes", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return "", false, fail("search codes", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", false, fail("search codes", err)
	}
	if len(ids) > fewCodes {
		return "", false, nil
	}
	list, err := json.Marshal(ids)
	return string(list), true, err
}

// CodesByRef reads the codes of a page, in its order, with their tags.
func (s *Store) CodesByRef(ctx context.Context, workspaceID int64, refs []CodeRef) ([]*QRCode, []*DynamicCode, error) {
	var sIDs, dIDs []int64
	for _, r := range refs {
		if r.Dynamic {
			dIDs = append(dIDs, r.ID)
		} else {
			sIDs = append(sIDs, r.ID)
		}
	}
	statics := map[int64]*QRCode{}
	dynamics := map[int64]*DynamicCode{}
	read := func(table, columns string, ids []int64, scan func(interface{ Scan(...any) error }) error) error {
		if len(ids) == 0 {
			return nil
		}
		list, _ := json.Marshal(ids)
		// By primary key: the unary plus keeps the planner from walking the
		// workspace's index instead (SQLite would, without statistics).
		rows, err := s.read.QueryContext(ctx, `SELECT `+columns+` FROM `+table+`
			WHERE id IN (`+s.jsonInts(2)+`) AND +workspace_id = $1 AND NOT is_deleted`, workspaceID, string(list))
		if err != nil {
			return fail("read codes", err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return fail("read codes", err)
			}
		}
		return rows.Err()
	}
	err := read("qr_codes", qrCodeColumns, sIDs, func(row interface{ Scan(...any) error }) error {
		q, err := scanQRCode(row)
		if err == nil {
			statics[q.ID] = q
		}
		return err
	})
	if err == nil {
		err = read("dynamic_qr_codes", dynamicColumns, dIDs, func(row interface{ Scan(...any) error }) error {
			d, err := scanDynamic(row)
			if err == nil {
				dynamics[d.ID] = d
			}
			return err
		})
	}
	if err != nil {
		return nil, nil, err
	}
	// A code deleted between the two reads is left out.
	var sl []*QRCode
	var dl []*DynamicCode
	for _, r := range refs {
		if q, ok := statics[r.ID]; ok && !r.Dynamic {
			sl = append(sl, q)
		} else if d, ok := dynamics[r.ID]; ok && r.Dynamic {
			dl = append(dl, d)
		}
	}
	return sl, dl, s.withTags(ctx, sl, dl)
}
