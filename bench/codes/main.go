// Command codes times the server-side code list (issue 22, item 3) in one
// workspace of 100,000 codes, half static and half dynamic, with tags, on a
// temporary SQLite file and in a PostgreSQL schema of its own, dropped
// after. It asks the store what GET /api/codes asks it (ListCodes, then
// CodesByRef for the page's records) for the first page, a page deep in
// the list by cursor, a page by name, a search that matches a few codes,
// a search that matches many, and a tag filter, and prints p50/p95 against
// the 50 ms budget.
//
// PostgreSQL comes from DATABASE_URL, or the local test server. Flags:
// -codes, -runs, -only sqlite|postgres.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/squarely/squarely/bench/internal/benchdb"
	"github.com/squarely/squarely/internal/store"
)

const (
	budget        = 50 * time.Millisecond
	pageSize      = 50
	rowsPerInsert = 500
	// tags are spread over the codes; the filtered one is on 1 code in 100.
	tags = 20
)

func main() {
	codes := flag.Int("codes", 100_000, "codes in the workspace, half of each kind")
	runs := flag.Int("runs", 50, "timed runs of each query")
	only := flag.String("only", "", "sqlite or postgres: time one database")
	flag.Parse()
	ctx := context.Background()
	failed := false
	for _, db := range []string{"sqlite", "postgres"} {
		if *only != "" && *only != db {
			continue
		}
		over, err := bench(ctx, db, *codes, *runs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "codes: %s: %v\n", db, err)
			os.Exit(1)
		}
		failed = failed || over
	}
	if failed {
		fmt.Printf("some p95 exceeded the %v budget\n", budget)
	}
}

// bench seeds one database and times the list; over reports a p95 above budget.
func bench(ctx context.Context, db string, codes, runs int) (over bool, err error) {
	var st *store.Store
	var raw *sql.DB
	switch db {
	case "sqlite":
		dir, err := os.MkdirTemp("", "squarely-bench-codes-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(dir)
		if st, err = store.Open(ctx, "", dir); err != nil {
			return false, err
		}
		if raw, err = sql.Open("sqlite", filepath.Join(dir, "squarely.db")+"?_pragma=busy_timeout(5000)"); err != nil {
			return false, err
		}
	default:
		base := os.Getenv("DATABASE_URL")
		if base == "" {
			base = benchdb.DefaultPostgres
		}
		withSchema, drop, err := benchdb.TempSchema(ctx, base, "bench_codes_")
		if err != nil {
			return false, err
		}
		defer func() { err = errors.Join(err, drop()) }()
		if st, err = store.Open(ctx, withSchema, ""); err != nil {
			return false, err
		}
		if raw, err = sql.Open("pgx", withSchema); err != nil {
			return false, err
		}
	}
	defer st.Close()
	defer raw.Close()

	start := time.Now()
	ws, rareTag, err := seed(ctx, st, raw, db, codes)
	if err != nil {
		return false, err
	}
	fmt.Printf("%s: seeded %d codes in %v\n", db, codes, time.Since(start).Round(time.Second))

	// A cursor deep in the list: the end of page 100 of the newest first.
	deep := store.CodeQuery{WorkspaceID: ws, Sort: "created", Desc: true, Limit: pageSize}
	for range 100 {
		refs, err := st.ListCodes(ctx, deep)
		if err != nil {
			return false, err
		}
		deep.After = &refs[len(refs)-1].Cursor
	}
	for _, c := range []struct {
		name string
		q    store.CodeQuery
	}{
		{"first page (newest)", store.CodeQuery{Sort: "created", Desc: true}},
		{"page 101 by cursor", deep},
		{"first page by name", store.CodeQuery{Sort: "name"}},
		{"search, a number", store.CodeQuery{Sort: "created", Desc: true, Search: "48213"}},
		{"search, a word (2.5%)", store.CodeQuery{Sort: "created", Desc: true, Search: "harbor"}},
		{"search, every code", store.CodeQuery{Sort: "created", Desc: true, Search: "example"}},
		{"tag filter (1%)", store.CodeQuery{Sort: "created", Desc: true, TagID: rareTag}},
		{"dynamic, paused", store.CodeQuery{Sort: "created", Desc: true, Kind: "dynamic", Status: "paused"}},
	} {
		q := c.q
		q.WorkspaceID, q.Limit = ws, pageSize+1
		var took []time.Duration
		n := 0
		for range runs {
			t0 := time.Now()
			refs, err := st.ListCodes(ctx, q)
			if err != nil {
				return false, err
			}
			if _, _, err := st.CodesByRef(ctx, ws, refs); err != nil {
				return false, err
			}
			took = append(took, time.Since(t0))
			n = len(refs)
		}
		slices.Sort(took)
		p50, p95 := took[len(took)/2], took[(len(took)*95+99)/100-1]
		mark := "ok"
		if p95 > budget {
			mark, over = "OVER BUDGET", true
		}
		fmt.Printf("%s %-22s p50 %8v  p95 %8v  (%d runs, %d rows)  %s\n", db, c.name,
			p50.Round(100*time.Microsecond), p95.Round(100*time.Microsecond), len(took), n, mark)
	}
	return over, nil
}

// seed makes the user and their workspace through the store, then writes
// the codes and their tags with multi-row INSERTs: one statement per
// rowsPerInsert codes instead of one transaction per code. Names are an
// adjective, a noun and the number ("Sunny Harbor 00042"), so a word is in
// 1 name in 40; every destination holds "example"; every tenth dynamic
// code is paused.
func seed(ctx context.Context, st *store.Store, raw *sql.DB, db string, codes int) (ws, rareTag int64, err error) {
	u := &store.User{Username: "bench-codes@squarely.test", Email: "bench-codes@squarely.test"}
	if err := st.CreateUser(ctx, u); err != nil {
		return 0, 0, err
	}
	w, err := st.PersonalWorkspace(ctx, u.ID)
	if err != nil {
		return 0, 0, err
	}
	var tagIDs []int64
	for i := range tags {
		t := &store.Tag{Name: tagName(i), Color: "#6B7280"}
		if err := st.CreateTag(ctx, w.ID, t, time.Now()); err != nil {
			return 0, 0, err
		}
		tagIDs = append(tagIDs, t.ID)
	}
	at := func(i int) any {
		t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		if db == "sqlite" {
			return t.Format("2006-01-02T15:04:05.000000Z")
		}
		return t
	}
	name := func(i int) string {
		return fmt.Sprintf("%s %s %05d", adjectives[i%len(adjectives)], nouns[(i/len(adjectives))%len(nouns)], i)
	}
	// search is the search_text the store would write: name, destination
	// and the tag the code gets below, lower-cased.
	search := func(name, dest string, i int) string {
		return strings.ToLower(name + " " + dest + " " + tagName(tagOf(i)))
	}
	insert := func(head string, cols int, from, to int, row func(i int) []any) error {
		var b strings.Builder
		b.WriteString(head)
		var args []any
		for i := from; i < to; i++ {
			if i > from {
				b.WriteString(", ")
			}
			b.WriteString("(")
			for c := range cols {
				if c > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "$%d", len(args)+c+1)
			}
			b.WriteString(")")
			args = append(args, row(i)...)
		}
		_, err := raw.ExecContext(ctx, b.String(), args...)
		return err
	}
	half := codes / 2
	for from := 0; from < half; from += rowsPerInsert {
		to := min(from+rowsPerInsert, half)
		err := insert(`INSERT INTO qr_codes (workspace_id, user_id, name, qr_type, qr_mode, url, qr_data, qr_content, search_text, created_at) VALUES `,
			10, from, to, func(i int) []any {
				dest := fmt.Sprintf("https://example.com/p/%d", i)
				return []any{w.ID, u.ID, name(2 * i), "url", "static", dest, `{"url":"` + dest + `"}`, dest, search(name(2*i), dest, i), at(2 * i)}
			})
		if err == nil {
			err = insert(`INSERT INTO dynamic_qr_codes (workspace_id, user_id, name, short_code, destination, qr_type, qr_data, is_paused, search_text, created_at, updated_at) VALUES `,
				11, from, to, func(i int) []any {
					dest := fmt.Sprintf("https://example.com/d/%d", i)
					return []any{w.ID, u.ID, name(2*i + 1), fmt.Sprintf("b%07d", i), dest, "url", `{"url":"` + dest + `"}`, i%10 == 0,
						search(name(2*i+1), dest, i), at(2*i + 1), at(2*i + 1)}
				})
		}
		if err != nil {
			return 0, 0, err
		}
	}
	// Each code gets one tag, round robin; the rare tag (the last) gets
	// only one code in 100.
	for _, k := range []struct{ table, codes, column string }{
		{"qr_code_tags", "qr_codes", "qr_code_id"}, {"dynamic_qr_code_tags", "dynamic_qr_codes", "dynamic_qr_code_id"},
	} {
		rows, err := raw.QueryContext(ctx, `SELECT id FROM `+k.codes+` WHERE workspace_id = $1 ORDER BY id`, w.ID)
		if err != nil {
			return 0, 0, err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return 0, 0, err
			}
			ids = append(ids, id)
		}
		rows.Close()
		for from := 0; from < len(ids); from += rowsPerInsert {
			to := min(from+rowsPerInsert, len(ids))
			err := insert(`INSERT INTO `+k.table+` (`+k.column+`, tag_id) VALUES `, 2, from, to, func(i int) []any {
				return []any{ids[i], tagIDs[tagOf(i)]}
			})
			if err != nil {
				return 0, 0, err
			}
		}
	}
	// PostgreSQL's autovacuum would analyze tables this size on its own;
	// the store never runs ANALYZE on SQLite, so the bench does not either.
	if db == "postgres" {
		if _, err := raw.ExecContext(ctx, `ANALYZE`); err != nil {
			return 0, 0, err
		}
	}
	return w.ID, tagIDs[tags-1], nil
}

var (
	adjectives = []string{"Sunny", "Quiet", "Golden", "Rapid", "Little", "Urban", "Fresh", "Bold", "Calm", "Bright",
		"Hidden", "Royal", "Lucky", "Silver", "Green", "Noble", "Happy", "Wild", "Cozy", "Grand",
		"Clever", "Brave", "Gentle", "Swift", "Modern", "Classic", "Vivid", "Misty", "Rustic", "Sweet"}
	nouns = []string{"Harbor", "Bakery", "Garden", "Market", "Studio", "Cafe", "Library", "Theater", "Museum", "Gallery",
		"Bistro", "Workshop", "Clinic", "Hotel", "Station", "Kitchen", "Florist", "Barber", "Cinema", "Arcade",
		"Brewery", "Pantry", "Atelier", "Boutique", "Diner", "Tavern", "Chapel", "Academy", "Pharmacy", "Bookshop",
		"Dairy", "Orchard", "Vineyard", "Forge", "Mill", "Lodge", "Pavilion", "Terrace", "Plaza", "Quarry"}
)

// tagOf is the tag (0..tags-1) of the i-th code of each kind: round robin,
// but the last, the filtered one, on one code in 100.
func tagOf(i int) int {
	if i%100 == 0 {
		return tags - 1
	}
	return i % (tags - 1)
}

func tagName(i int) string { return fmt.Sprintf("Tag %02d", i) }
