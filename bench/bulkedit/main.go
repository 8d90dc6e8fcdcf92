// Command bulkedit times a bulk edit (docs/API.md "Bulk edits") of 10,000
// dynamic codes selected by a folder filter, their destinations' host
// replaced, on a temporary SQLite file and in a PostgreSQL schema of its
// own, dropped after: the dry run, then the job from its creation (the
// selection frozen) to its end, run by the runner the server runs, with
// the growth of the process's peak RSS over each. Targets: the job within
// 30 s, peak RSS growth within 100 MB.
//
// PostgreSQL comes from DATABASE_URL, or the local test server. Flags:
// -codes, -only sqlite|postgres.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/bench/internal/benchdb"
	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/store"
)

const (
	targetTime    = 30 * time.Second
	targetRSS     = 100 << 20
	rowsPerInsert = 500
)

func main() {
	codes := flag.Int("codes", 10_000, "codes in the edited folder (as many again outside it)")
	only := flag.String("only", "", "sqlite or postgres: time one database")
	flag.Parse()
	ctx := context.Background()
	failed := false
	for _, db := range []string{"sqlite", "postgres"} {
		if *only != "" && *only != db {
			continue
		}
		over, err := bench(ctx, db, *codes)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bulkedit: %s: %v\n", db, err)
			os.Exit(1)
		}
		failed = failed || over
	}
	if failed {
		fmt.Println("some run missed its target")
	}
}

func bench(ctx context.Context, db string, codes int) (over bool, err error) {
	var st *store.Store
	var raw *sql.DB
	switch db {
	case "sqlite":
		dir, err := os.MkdirTemp("", "squarely-bench-bulkedit-")
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
		withSchema, drop, err := benchdb.TempSchema(ctx, base, "bench_bulkedit_")
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
	ws, userID, folder, err := seed(ctx, st, raw, db, codes)
	if err != nil {
		return false, err
	}
	fmt.Printf("%s: seeded %d codes in the folder, %d outside, in %v\n", db, codes, codes, time.Since(start).Round(time.Second))

	q := store.CodeQuery{WorkspaceID: ws, FolderID: folder, Sort: "created", Desc: true}
	c := bulkedit.Changes{Destination: &bulkedit.Destination{From: "https://old.example", To: "https://new.example"}}
	r := bulkedit.NewRunner(st, nil, nil)

	base := peakReset()
	t0 := time.Now()
	refs, err := bulkedit.Select(ctx, st, q)
	if err != nil {
		return false, err
	}
	p, err := bulkedit.DryRun(ctx, st, ws, refs, c)
	if err != nil {
		return false, err
	}
	dry, dryRSS := time.Since(t0), peakGrowth(base)
	if p.Selected != codes || p.Changing != codes || len(p.Failures) != 0 {
		return false, fmt.Errorf("dry run: %d selected, %d changing, %d failing", p.Selected, p.Changing, len(p.Failures))
	}

	base = peakReset()
	t0 = time.Now()
	refs, err = bulkedit.Select(ctx, st, q)
	if err != nil {
		return false, err
	}
	j, err := r.Start(ctx, ws, userID, refs, c)
	if err != nil {
		return false, err
	}
	r.Pass(ctx) // the runner's pass: claims the job and runs it to its end
	took, jobRSS := time.Since(t0), peakGrowth(base)
	if j, err = st.BulkEditJob(ctx, ws, j.ID); err != nil {
		return false, err
	}
	if j.Status != store.BulkEditDone || j.Processed != codes || j.Failed != 0 {
		return false, fmt.Errorf("job: %+v", j)
	}
	var left int
	if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM dynamic_qr_codes WHERE folder_id = $1 AND destination NOT LIKE 'https://new.example/%'`, folder).Scan(&left); err != nil || left != 0 {
		return false, fmt.Errorf("%d codes not changed (%v)", left, err)
	}
	mark := func(d time.Duration, rss int64) string {
		if d > targetTime || rss > targetRSS {
			over = true
			return "OVER TARGET"
		}
		return "ok"
	}
	fmt.Printf("%s dry run  %8v  peak RSS +%3d MB  %s\n", db, dry.Round(10*time.Millisecond), dryRSS>>20, mark(dry, dryRSS))
	fmt.Printf("%s job      %8v  peak RSS +%3d MB  (%.0f codes/s)  %s\n", db, took.Round(10*time.Millisecond), jobRSS>>20,
		float64(codes)/took.Seconds(), mark(took, jobRSS))
	return over, nil
}

// seed makes the user, their workspace and a folder through the store,
// then codes dynamic codes in the folder and as many outside it with
// multi-row INSERTs, each redirecting to https://old.example/menu/{i}.
func seed(ctx context.Context, st *store.Store, raw *sql.DB, db string, codes int) (ws, userID, folder int64, err error) {
	u := &store.User{Username: "bench-bulkedit@squarely.test", Email: "bench-bulkedit@squarely.test"}
	if err := st.CreateUser(ctx, u); err != nil {
		return 0, 0, 0, err
	}
	w, err := st.PersonalWorkspace(ctx, u.ID)
	if err != nil {
		return 0, 0, 0, err
	}
	f := &store.Folder{Name: "Menus"}
	if err := st.CreateFolder(ctx, w.ID, f, time.Now()); err != nil {
		return 0, 0, 0, err
	}
	at := func(i int) any {
		t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		if db == "sqlite" {
			return t.Format("2006-01-02T15:04:05.000000Z")
		}
		return t
	}
	for from := 0; from < 2*codes; from += rowsPerInsert {
		to := min(from+rowsPerInsert, 2*codes)
		var b strings.Builder
		b.WriteString(`INSERT INTO dynamic_qr_codes (workspace_id, user_id, name, short_code, destination, qr_type, qr_data, folder_id, search_text, created_at, updated_at) VALUES `)
		var args []any
		for i := from; i < to; i++ {
			if i > from {
				b.WriteString(", ")
			}
			n := len(args)
			fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8, n+9, n+10, n+11)
			dest := fmt.Sprintf("https://old.example/menu/%d", i)
			var in any
			if i%2 == 0 {
				in = f.ID
			}
			name := fmt.Sprintf("Menu %05d", i)
			args = append(args, w.ID, u.ID, name, fmt.Sprintf("e%07d", i), dest, "url", `{"url":"`+dest+`"}`, in,
				strings.ToLower(name+" "+dest), at(i), at(i))
		}
		if _, err := raw.ExecContext(ctx, b.String(), args...); err != nil {
			return 0, 0, 0, err
		}
	}
	if db == "postgres" {
		if _, err := raw.ExecContext(ctx, `ANALYZE`); err != nil {
			return 0, 0, 0, err
		}
	}
	return w.ID, u.ID, f.ID, nil
}

// peakReset resets the process's peak RSS (VmHWM) to its RSS now, and
// answers that RSS.
func peakReset() int64 {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	return status("VmRSS")
}

// peakGrowth is the peak RSS since peakReset above base.
func peakGrowth(base int64) int64 { return status("VmHWM") - base }

// status reads a size in kB from /proc/self/status, in bytes.
func status(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n << 10
		}
	}
	return 0
}
