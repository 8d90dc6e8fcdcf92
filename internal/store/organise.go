package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Tags and folders organise a workspace's codes (issue 22 item 3); names
// are unique per workspace, ignoring case (ErrConflict). A code has any
// number of the workspace's tags and at most one folder.

// Tag is a workspace's label for codes.
type Tag struct {
	ID        int64
	Name      string
	Color     string
	CreatedAt time.Time
}

// Folder is a workspace's place for codes.
type Folder struct {
	ID        int64
	Name      string
	CreatedAt time.Time
}

// Tags returns the workspace's tags by name.
func (s *Store) Tags(ctx context.Context, workspaceID int64) ([]*Tag, error) {
	rows, err := s.read.QueryContext(ctx,
		`SELECT id, name, color, created_at FROM tags WHERE workspace_id = $1 ORDER BY lower(name), id`, workspaceID)
	if err != nil {
		return nil, fail("list tags", err)
	}
	defer rows.Close()
	list := []*Tag{}
	for rows.Next() {
		t := new(Tag)
		if err := rows.Scan(&t.ID, &t.Name, &t.Color, scanTime(&t.CreatedAt)); err != nil {
			return nil, fail("list tags", err)
		}
		list = append(list, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list tags", err)
	}
	return list, nil
}

// NameKeys returns the key the database compares each of names by as a
// tag's or a folder's name: its lower(), the expression of the unique
// indexes tags_name_key and folders_name_key. Two names are one tag (or
// one folder) exactly when their keys are equal. SQLite's lower() folds
// ASCII letters only ("Été" and "été" are two tags); PostgreSQL's follows
// the database's locale ("É" is "é" and the Kelvin sign U+212A is
// "k" under C.UTF-8, but "ſ" stays "ſ"), so Go's own folding (strings.EqualFold,
// strings.ToLower) agrees with neither. A name that is not UTF-8 text or
// holds a NUL character is no stored name and has no key.
func (s *Store) NameKeys(ctx context.Context, names []string) (map[string]string, error) {
	out := make(map[string]string, len(names))
	var list []string
	for _, n := range names {
		if _, seen := out[n]; !seen && utf8.ValidString(n) && !strings.ContainsRune(n, 0) {
			out[n] = ""
			list = append(list, n)
		}
	}
	if len(list) == 0 {
		return out, nil
	}
	arg, err := json.Marshal(list)
	if err != nil {
		return nil, fail("fold names", err)
	}
	q := `SELECT value, lower(value) FROM json_each($1)`
	if s.dialect == Postgres {
		q = `SELECT v, lower(v) FROM jsonb_array_elements_text($1::jsonb) AS t(v)`
	}
	rows, err := s.read.QueryContext(ctx, q, string(arg))
	if err != nil {
		return nil, fail("fold names", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, key string
		if err := rows.Scan(&name, &key); err != nil {
			return nil, fail("fold names", err)
		}
		out[name] = key
	}
	if err := rows.Err(); err != nil {
		return nil, fail("fold names", err)
	}
	return out, nil
}

// CreateTag saves a new tag of the workspace and fills in ID and CreatedAt.
func (s *Store) CreateTag(ctx context.Context, workspaceID int64, t *Tag, now time.Time) error {
	t.CreatedAt = normTime(now)
	return s.inTx(ctx, "create tag", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO tags (workspace_id, name, color, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			workspaceID, t.Name, t.Color, dbTime(t.CreatedAt)).Scan(&t.ID)
		if err != nil {
			return fail("create tag", err)
		}
		return s.audit(ctx, tx, workspaceID, "tag.created", Target{"tag", t.ID, t.Name}, map[string]any{"color": t.Color})
	})
}

// UpdateTag renames and recolours one of the workspace's tags.
func (s *Store) UpdateTag(ctx context.Context, workspaceID int64, t *Tag) error {
	return s.inTx(ctx, "update tag", func(tx *sql.Tx) error {
		var old Tag
		err := tx.QueryRowContext(ctx, `SELECT name, color, created_at FROM tags WHERE id = $1 AND workspace_id = $2`,
			t.ID, workspaceID).Scan(&old.Name, &old.Color, scanTime(&t.CreatedAt))
		if err != nil {
			return fail("update tag", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tags SET name = $2, color = $3 WHERE id = $1`, t.ID, t.Name, t.Color); err != nil {
			return fail("update tag", err)
		}
		if err := refreshTagged(ctx, tx, t.ID); err != nil {
			return err
		}
		details := map[string]any{}
		if old.Name != t.Name {
			details = change("name", old.Name, t.Name)
		}
		if old.Color != t.Color {
			details["color"] = map[string]any{"before": old.Color, "after": t.Color}
		}
		return s.audit(ctx, tx, workspaceID, "tag.updated", Target{"tag", t.ID, t.Name}, details)
	})
}

// DeleteTag deletes one of the workspace's tags; its codes lose it, and
// its share links end (their pages answer 410 from now).
func (s *Store) DeleteTag(ctx context.Context, workspaceID, id int64, now time.Time) error {
	return s.inTx(ctx, "delete tag", func(tx *sql.Tx) error {
		// Its codes lose it, and are indexed for search without it (all
		// undone when it is not the workspace's tag: the delete below fails).
		for _, k := range []codeKind{staticKind, dynamicKind} {
			codes, err := s.unlinkTag(ctx, tx, k, id)
			if err != nil {
				return err
			}
			if err := refreshSearch(ctx, tx, k, `id IN (`+s.jsonInts(1)+`)`, codes); err != nil {
				return err
			}
		}
		if err := endShareLinksOf(ctx, tx, "tag_id", workspaceID, id, now); err != nil {
			return err
		}
		return s.deleteAuditedTx(ctx, tx, "tags", "name", "tag", "tag.deleted", workspaceID, id)
	})
}

// unlinkTag takes the tag off every code of kind k and returns their ids,
// as a JSON array for jsonInts.
func (s *Store) unlinkTag(ctx context.Context, tx *sql.Tx, k codeKind, tagID int64) (string, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM `+k.tagTable+` WHERE tag_id = $1 RETURNING `+k.tagColumn, tagID)
	if err != nil {
		return "", fail("untag codes", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return "", fail("untag codes", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", fail("untag codes", err)
	}
	list, err := json.Marshal(ids)
	return string(list), err
}

// Folders returns the workspace's folders by name.
func (s *Store) Folders(ctx context.Context, workspaceID int64) ([]*Folder, error) {
	rows, err := s.read.QueryContext(ctx,
		`SELECT id, name, created_at FROM folders WHERE workspace_id = $1 ORDER BY lower(name), id`, workspaceID)
	if err != nil {
		return nil, fail("list folders", err)
	}
	defer rows.Close()
	list := []*Folder{}
	for rows.Next() {
		f := new(Folder)
		if err := rows.Scan(&f.ID, &f.Name, scanTime(&f.CreatedAt)); err != nil {
			return nil, fail("list folders", err)
		}
		list = append(list, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list folders", err)
	}
	return list, nil
}

// CreateFolder saves a new folder of the workspace and fills in ID and CreatedAt.
func (s *Store) CreateFolder(ctx context.Context, workspaceID int64, f *Folder, now time.Time) error {
	f.CreatedAt = normTime(now)
	return s.inTx(ctx, "create folder", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO folders (workspace_id, name, created_at) VALUES ($1, $2, $3) RETURNING id`,
			workspaceID, f.Name, dbTime(f.CreatedAt)).Scan(&f.ID)
		if err != nil {
			return fail("create folder", err)
		}
		return s.audit(ctx, tx, workspaceID, "folder.created", Target{"folder", f.ID, f.Name}, nil)
	})
}

// RenameFolder renames one of the workspace's folders.
func (s *Store) RenameFolder(ctx context.Context, workspaceID int64, f *Folder) error {
	return s.inTx(ctx, "rename folder", func(tx *sql.Tx) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT name, created_at FROM folders WHERE id = $1 AND workspace_id = $2`,
			f.ID, workspaceID).Scan(&old, scanTime(&f.CreatedAt))
		if err != nil {
			return fail("rename folder", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE folders SET name = $2 WHERE id = $1`, f.ID, f.Name); err != nil {
			return fail("rename folder", err)
		}
		return s.audit(ctx, tx, workspaceID, "folder.renamed", Target{"folder", f.ID, f.Name}, change("name", old, f.Name))
	})
}

// DeleteFolder deletes one of the workspace's folders; its codes stay,
// in no folder, and its share links end (their pages answer 410 from now).
func (s *Store) DeleteFolder(ctx context.Context, workspaceID, id int64, now time.Time) error {
	return s.inTx(ctx, "delete folder", func(tx *sql.Tx) error {
		if err := endShareLinksOf(ctx, tx, "folder_id", workspaceID, id, now); err != nil {
			return err
		}
		return s.deleteAuditedTx(ctx, tx, "folders", "name", "folder", "folder.deleted", workspaceID, id)
	})
}

// codeKind names the tables of one kind of code, and the column the code
// list searches as its destination.
type codeKind struct {
	table, tagTable, tagColumn, target, destination string
}

var (
	staticKind  = codeKind{"qr_codes", "qr_code_tags", "qr_code_id", "code", "qr_content"}
	dynamicKind = codeKind{"dynamic_qr_codes", "dynamic_qr_code_tags", "dynamic_qr_code_id", "dynamic_code", "destination"}
)

// refreshSearch rewrites the search_text of the codes of kind k that where
// picks (over the table's own columns, parameters from $1): their name,
// destination and tag names, lower-cased, what the code list's q matches.
func refreshSearch(ctx context.Context, tx *sql.Tx, k codeKind, where string, args ...any) error {
	_, err := tx.ExecContext(ctx, `UPDATE `+k.table+` SET search_text = `+searchText(k, k.destination)+` WHERE `+where, args...)
	if err != nil {
		return fail("index code for search", err)
	}
	return nil
}

// searchText is the search_text of a code of kind k in an UPDATE of its
// row, with destination (a column, or a parameter holding the new one).
func searchText(k codeKind, destination string) string {
	return `lower(name || ' ' || ` + destination + ` || COALESCE((
		SELECT ' ' || string_agg(t.name, ' ') FROM ` + k.tagTable + ` ct JOIN tags t ON t.id = ct.tag_id
		WHERE ct.` + k.tagColumn + ` = ` + k.table + `.id), ''))`
}

// refreshTagged is refreshSearch for every code, of both kinds, with the tag.
func refreshTagged(ctx context.Context, tx *sql.Tx, tagID int64) error {
	for _, k := range []codeKind{staticKind, dynamicKind} {
		if err := refreshSearch(ctx, tx, k, `id IN (SELECT `+k.tagColumn+` FROM `+k.tagTable+` WHERE tag_id = $1)`, tagID); err != nil {
			return err
		}
	}
	return nil
}

func kindOf(dynamic bool) codeKind {
	if dynamic {
		return dynamicKind
	}
	return staticKind
}

// lockCode checks that the code is a live one of the workspace and
// returns its name.
func lockCode(ctx context.Context, tx *sql.Tx, k codeKind, workspaceID, id int64) (string, error) {
	var name string
	err := tx.QueryRowContext(ctx, `SELECT name FROM `+k.table+` WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
		id, workspaceID).Scan(&name)
	if err != nil {
		return "", fail("find code", err)
	}
	return name, nil
}

// SetCodeTags gives the workspace's code (dynamic or static) exactly the
// tags tagIDs, which must all be the workspace's (ErrNotFound otherwise,
// and nothing changes).
func (s *Store) SetCodeTags(ctx context.Context, workspaceID int64, dynamic bool, id int64, tagIDs []int64) error {
	k := kindOf(dynamic)
	return s.inTx(ctx, "set tags", func(tx *sql.Tx) error {
		name, err := lockCode(ctx, tx, k, workspaceID, id)
		if err != nil {
			return err
		}
		// No tags is an empty list: nil would be JSON null, which
		// PostgreSQL's json_array_elements refuses.
		if tagIDs == nil {
			tagIDs = []int64{}
		}
		ids, err := json.Marshal(tagIDs)
		if err != nil {
			return fail("set tags", err)
		}
		var found int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tags WHERE workspace_id = $1 AND id IN (`+s.jsonInts(2)+`)`,
			workspaceID, string(ids)).Scan(&found); err != nil {
			return fail("set tags", err)
		}
		if found != len(tagIDs) {
			return fail("set tags", ErrNotFound)
		}
		before, err := tagNames(ctx, tx, k, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+k.tagTable+` WHERE `+k.tagColumn+` = $1`, id); err != nil {
			return fail("set tags", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+k.tagTable+` (`+k.tagColumn+`, tag_id) SELECT $1, id FROM tags WHERE id IN (`+s.jsonInts(2)+`)`,
			id, string(ids)); err != nil {
			return fail("set tags", err)
		}
		after, err := tagNames(ctx, tx, k, id)
		if err != nil {
			return err
		}
		if err := refreshSearch(ctx, tx, k, `id = $1`, id); err != nil {
			return err
		}
		if strings.Join(before, "\x00") == strings.Join(after, "\x00") {
			return nil
		}
		if err := s.audit(ctx, tx, workspaceID, "code.tags_changed", Target{k.target, id, name}, change("tags", before, after)); err != nil {
			return err
		}
		return s.codeOrganised(ctx, tx, workspaceID, dynamic, id, "tags")
	})
}

func tagNames(ctx context.Context, tx *sql.Tx, k codeKind, id int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.name FROM `+k.tagTable+` ct JOIN tags t ON t.id = ct.tag_id
		WHERE ct.`+k.tagColumn+` = $1 ORDER BY lower(t.name), t.id`, id)
	if err != nil {
		return nil, fail("read tags", err)
	}
	defer rows.Close()
	names := []string{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fail("read tags", err)
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// SetCodeFolder puts the workspace's code in one of its folders, or in
// none (nil). An unknown folder is ErrNotFound.
func (s *Store) SetCodeFolder(ctx context.Context, workspaceID int64, dynamic bool, id int64, folderID *int64) error {
	k := kindOf(dynamic)
	return s.inTx(ctx, "set folder", func(tx *sql.Tx) error {
		name, err := lockCode(ctx, tx, k, workspaceID, id)
		if err != nil {
			return err
		}
		var before, after sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT f.name FROM `+k.table+` c LEFT JOIN folders f ON f.id = c.folder_id WHERE c.id = $1`,
			id).Scan(&before); err != nil {
			return fail("set folder", err)
		}
		if folderID != nil {
			if err := tx.QueryRowContext(ctx, `SELECT name FROM folders WHERE id = $1 AND workspace_id = $2`,
				*folderID, workspaceID).Scan(&after); err != nil {
				return fail("set folder", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE `+k.table+` SET folder_id = $2 WHERE id = $1`, id, folderID); err != nil {
			return fail("set folder", err)
		}
		if before == after {
			return nil
		}
		if err := s.audit(ctx, tx, workspaceID, "code.folder_changed", Target{k.target, id, name},
			change("folder", nullable(before), nullable(after))); err != nil {
			return err
		}
		return s.codeOrganised(ctx, tx, workspaceID, dynamic, id, "folder")
	})
}

func nullable(s sql.NullString) any {
	if !s.Valid {
		return nil
	}
	return s.String
}

// jsonInts is the SQL that lists the integers of the JSON array in
// parameter n, for IN (…) with any number of ids in one parameter.
func (s *Store) jsonInts(n int) string {
	if s.dialect == Postgres {
		return fmt.Sprintf(`SELECT jsonb_array_elements_text($%d::jsonb)::bigint`, n)
	}
	return fmt.Sprintf(`SELECT value FROM json_each($%d)`, n)
}

// jsonStrings is jsonInts for the strings of a JSON array (short codes).
func (s *Store) jsonStrings(n int) string {
	if s.dialect == Postgres {
		return fmt.Sprintf(`SELECT jsonb_array_elements_text($%d::jsonb)`, n)
	}
	return fmt.Sprintf(`SELECT value FROM json_each($%d)`, n)
}

// codeTags returns the tags of the codes ids of one kind, by code id.
func (s *Store) codeTags(ctx context.Context, k codeKind, ids []int64) (map[int64][]Tag, error) {
	out := map[int64][]Tag{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fail("read tags", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT ct.`+k.tagColumn+`, t.id, t.name, t.color, t.created_at
		FROM `+k.tagTable+` ct JOIN tags t ON t.id = ct.tag_id
		WHERE ct.`+k.tagColumn+` IN (`+s.jsonInts(1)+`) ORDER BY lower(t.name), t.id`, string(list))
	if err != nil {
		return nil, fail("read tags", err)
	}
	defer rows.Close()
	for rows.Next() {
		var code int64
		var t Tag
		if err := rows.Scan(&code, &t.ID, &t.Name, &t.Color, scanTime(&t.CreatedAt)); err != nil {
			return nil, fail("read tags", err)
		}
		out[code] = append(out[code], t)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("read tags", err)
	}
	return out, nil
}

// withTags fills in the Tags of static and dynamic codes.
func (s *Store) withTags(ctx context.Context, statics []*QRCode, dynamics []*DynamicCode) error {
	ids := make([]int64, len(statics))
	for i, q := range statics {
		ids[i] = q.ID
	}
	tags, err := s.codeTags(ctx, staticKind, ids)
	if err != nil {
		return err
	}
	for _, q := range statics {
		q.Tags = append([]Tag{}, tags[q.ID]...)
	}
	ids = make([]int64, len(dynamics))
	for i, d := range dynamics {
		ids[i] = d.ID
	}
	if tags, err = s.codeTags(ctx, dynamicKind, ids); err != nil {
		return err
	}
	for _, d := range dynamics {
		d.Tags = append([]Tag{}, tags[d.ID]...)
	}
	return nil
}
