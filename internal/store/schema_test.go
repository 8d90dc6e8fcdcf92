package store_test

import (
	"cmp"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store/storetest"
)

// TestSchemasMatch migrates a SQLite and a PostgreSQL store and compares
// every table: its columns (type, nullability, default, primary key) and
// its indexes. The two dialects' migrations are written by hand, one file
// each; this keeps them describing one schema.
//
// The mapping between the dialects, the conventions of migrations/:
//
//	PostgreSQL                          SQLite
//	bigint, integer, smallint           INTEGER
//	boolean                             INTEGER (0/1; defaults false/true are 0/1)
//	double precision, real, numeric     REAL
//	text, varchar(n), jsonb, date       TEXT (a length is checked on PostgreSQL only)
//	timestamptz (DEFAULT now())         TEXT (DEFAULT strftime(…, 'now'))
//	bytea                               BLOB
//	GENERATED … AS IDENTITY, bigserial  INTEGER PRIMARY KEY AUTOINCREMENT
//	GIN index <t>_search_idx on <t>     FTS5 table <t>_search (full-text search)
//
// Defaults are compared after dropping PostgreSQL's casts ('x'::text is
// 'x'); a bigserial's nextval(…) default is no default, as an identity's.
// A primary key column counts as NOT NULL on SQLite, as it does on
// PostgreSQL. Indexes made with CREATE INDEX are compared by name,
// uniqueness, key columns (an expression counts as "(expr)") and whether
// they are partial; UNIQUE constraints by their columns. Primary keys are
// compared through the columns' pk flag (SQLite keeps an INTEGER PRIMARY
// KEY in the rowid, with no index).
func TestSchemasMatch(t *testing.T) {
	lite := sqliteSchema(t)
	pg := postgresSchema(t)
	if len(lite) == 0 || len(pg) == 0 {
		t.Fatalf("no tables read: sqlite %d, postgres %d", len(lite), len(pg))
	}
	for _, name := range sortedKeys(lite, pg) {
		l, lok := lite[name]
		p, pok := pg[name]
		switch {
		case !lok:
			t.Errorf("table %s is only on PostgreSQL", name)
			continue
		case !pok:
			t.Errorf("table %s is only on SQLite", name)
			continue
		}
		for _, col := range sortedKeys(l.columns, p.columns) {
			lc, lok := l.columns[col]
			pc, pok := p.columns[col]
			switch {
			case !lok:
				t.Errorf("%s.%s is only on PostgreSQL", name, col)
			case !pok:
				t.Errorf("%s.%s is only on SQLite", name, col)
			case lc != pc:
				t.Errorf("%s.%s differs:\n\tsqlite:   %+v\n\tpostgres: %+v", name, col, lc, pc)
			}
		}
		for _, idx := range sortedKeys(l.indexes, p.indexes) {
			li, lok := l.indexes[idx]
			pi, pok := p.indexes[idx]
			switch {
			case !lok:
				t.Errorf("%s: index %s is only on PostgreSQL", name, idx)
			case !pok:
				t.Errorf("%s: index %s is only on SQLite", name, idx)
			case li != pi:
				t.Errorf("%s: index %s differs:\n\tsqlite:   %s\n\tpostgres: %s", name, idx, li, pi)
			}
		}
	}
}

// column is a column as both dialects can describe it.
type column struct {
	Type    string // SQLite's type affinity: INTEGER, REAL, TEXT, BLOB
	NotNull bool
	Default string // "" for none, "now" for the current time
	PK      bool
}

type table struct {
	columns map[string]column
	indexes map[string]string // key: index name, or "unique(cols)" for a constraint; value: its description
}

// fullText describes a full-text index: FTS5 on SQLite, GIN on PostgreSQL.
const fullText = "full-text"

var pgTypes = map[string]string{
	"bigint": "INTEGER", "integer": "INTEGER", "smallint": "INTEGER", "boolean": "INTEGER",
	"double precision": "REAL", "real": "REAL", "numeric": "REAL",
	"text": "TEXT", "character varying": "TEXT", "jsonb": "TEXT", "date": "TEXT", "timestamp with time zone": "TEXT",
	"bytea": "BLOB",
}

var pgCast = regexp.MustCompile(`::[a-z ]+(\[\])?`)

// pgDefault writes a PostgreSQL column default as SQLite's is written.
func pgDefault(d sql.NullString) string {
	switch v := pgCast.ReplaceAllString(d.String, ""); {
	case !d.Valid, strings.HasPrefix(v, "nextval("):
		return ""
	case v == "now()" || v == "CURRENT_TIMESTAMP":
		return "now"
	case v == "false":
		return "0"
	case v == "true":
		return "1"
	default:
		return strings.Trim(v, "()")
	}
}

// sqliteDefault writes a SQLite column default in the form pgDefault uses.
func sqliteDefault(d sql.NullString) string {
	switch v := d.String; {
	case !d.Valid:
		return ""
	case strings.Contains(v, "'now'") || v == "CURRENT_TIMESTAMP":
		return "now"
	case strings.EqualFold(v, "false"):
		return "0"
	case strings.EqualFold(v, "true"):
		return "1"
	default:
		return strings.Trim(v, "()")
	}
}

func sqliteSchema(t *testing.T) map[string]table {
	s := storetest.Open(t)
	_, dir := storetest.Settings(t, s)
	db, err := sql.Open("sqlite", filepath.Join(dir, "squarely.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Full-text search: an FTS5 table <t>_search, and the shadow tables
	// that hold its index (<t>_search_data, …), stand for PostgreSQL's GIN
	// index <t>_search_idx.
	fts := queryColumn(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'`)
	shadow := func(name string) bool {
		return slices.ContainsFunc(fts, func(v string) bool { return name == v || strings.HasPrefix(name, v+"_") })
	}
	names := queryColumn(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	tables := map[string]table{}
	for _, name := range names {
		if shadow(name) {
			continue
		}
		tb := table{columns: map[string]column{}, indexes: map[string]string{}}
		rows, err := db.Query(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`, name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				col, typ string
				notNull  bool
				def      sql.NullString
				pk       int
			)
			if err := rows.Scan(&col, &typ, &notNull, &def, &pk); err != nil {
				t.Fatal(err)
			}
			tb.columns[col] = column{Type: strings.ToUpper(typ), NotNull: notNull || pk > 0, Default: sqliteDefault(def), PK: pk > 0}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		rows, err = db.Query(`SELECT name, "unique", origin, partial FROM pragma_index_list(?)`, name)
		if err != nil {
			t.Fatal(err)
		}
		type index struct {
			name, origin    string
			unique, partial bool
		}
		var list []index
		for rows.Next() {
			var ix index
			if err := rows.Scan(&ix.name, &ix.unique, &ix.origin, &ix.partial); err != nil {
				t.Fatal(err)
			}
			list = append(list, ix)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		for _, ix := range list {
			if ix.origin == "pk" {
				continue
			}
			// Key columns in order; an expression has no name.
			var cols []string
			for _, c := range queryColumn(t, db, `SELECT name FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno`, ix.name) {
				cols = append(cols, cmp.Or(c, "(expr)"))
			}
			key, desc := indexKey(ix.name, ix.origin == "u", ix.unique, ix.partial, cols)
			tb.indexes[key] = desc
		}
		tables[name] = tb
	}
	for _, v := range fts {
		base, ok := strings.CutSuffix(v, "_search")
		if _, exists := tables[base]; !ok || !exists {
			t.Errorf("FTS5 table %s is not named <table>_search after a table", v)
			continue
		}
		tables[base].indexes[v+"_idx"] = fullText
	}
	return tables
}

func postgresSchema(t *testing.T) map[string]table {
	s := storetest.OpenPostgres(t)
	dsn, _ := storetest.Settings(t, s)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	names := queryColumn(t, db, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	tables := map[string]table{}
	for _, name := range names {
		tb := table{columns: map[string]column{}, indexes: map[string]string{}}
		// The primary key from pg_index: information_schema's constraint
		// views, joined per column, took minutes with the other tests'
		// schemas beside this one.
		rows, err := db.Query(`
			SELECT c.column_name, c.data_type, c.is_nullable = 'NO', c.column_default,
				c.column_name IN (SELECT a.attname FROM pg_index i
					JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
					WHERE i.indrelid = $1::text::regclass AND i.indisprimary)
			FROM information_schema.columns c
			WHERE c.table_schema = current_schema() AND c.table_name = $1::text`, name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				col, typ    string
				notNull, pk bool
				def         sql.NullString
			)
			if err := rows.Scan(&col, &typ, &notNull, &def, &pk); err != nil {
				t.Fatal(err)
			}
			mapped, ok := pgTypes[typ]
			if !ok {
				t.Errorf("%s.%s: PostgreSQL type %q has no SQLite counterpart in the mapping", name, col, typ)
			}
			tb.columns[col] = column{Type: mapped, NotNull: notNull, Default: pgDefault(def), PK: pk}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		rows, err = db.Query(`
			SELECT ic.relname, am.amname = 'gin', i.indisunique, i.indpred IS NOT NULL,
				EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid AND contype = 'u'),
				array_to_string(ARRAY(
					SELECT COALESCE(a.attname, '(expr)')
					FROM unnest(i.indkey[0:i.indnkeyatts-1]) WITH ORDINALITY AS k(attnum, n)
					LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum AND k.attnum > 0
					ORDER BY k.n), ',')
			FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
			WHERE i.indrelid = $1::regclass AND NOT i.indisprimary`, name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				ix                               string
				gin, unique, partial, constraint bool
				cols                             string
			)
			if err := rows.Scan(&ix, &gin, &unique, &partial, &constraint, &cols); err != nil {
				t.Fatal(err)
			}
			if gin {
				tb.indexes[ix] = fullText
				continue
			}
			key, desc := indexKey(ix, constraint, unique, partial, strings.Split(cols, ","))
			tb.indexes[key] = desc
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		tables[name] = tb
	}
	return tables
}

// indexKey names an index for the comparison and describes it. A UNIQUE
// constraint's index is named by each dialect in its own way, so it is
// keyed by its columns.
func indexKey(name string, constraint, unique, partial bool, cols []string) (key, desc string) {
	desc = fmt.Sprintf("unique=%t partial=%t (%s)", unique, partial, strings.Join(cols, ", "))
	if constraint {
		return "unique(" + strings.Join(cols, ", ") + ")", desc
	}
	return name, desc
}

// queryColumn returns the one column of query's rows, "" for NULL.
func queryColumn(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var list []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		list = append(list, s.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// sortedKeys returns the keys of a and b, once each, in order.
func sortedKeys[V any](a, b map[string]V) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
