// Package storetest opens real, throwaway stores for tests: SQLite in a
// temporary directory, and PostgreSQL (from TEST_DATABASE_URL) in a freshly
// created database (or, for tests that migrate themselves, an empty
// schema), so parallel test packages and reruns never see each other's
// rows.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/testenv"
)

// Open returns a fresh SQLite store in t.TempDir(), closed when the test
// ends: a copy of a database migrated once per test process.
func Open(t testing.TB) *store.Store {
	t.Helper()
	dir := sqliteCopy(t)
	s, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	remember(t, s, "sqlite", filepath.Join(dir, "squarely.db"))
	return s
}

// sqliteCopy returns a new t.TempDir() holding a copy of the migrated
// template's database.
func sqliteCopy(t testing.TB) string {
	t.Helper()
	files, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("storetest: migrating the SQLite template: %v", err)
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatalf("storetest: %v", err)
		}
	}
	return dir
}

// sqliteTemplate is the files of a SQLite store migrated once per process:
// migrating took about half a second a store, copying takes milliseconds.
var sqliteTemplate = sync.OnceValues(func() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "squarely-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(context.Background(), "", dir)
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "squarely.db*"))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, name := range names {
		if files[filepath.Base(name)], err = os.ReadFile(name); err != nil {
			return nil, err
		}
	}
	return files, nil
})

// OpenPostgres returns a store in a new PostgreSQL database, a copy of a
// migrated template (CREATE DATABASE … TEMPLATE), dropped when the test
// ends. Without TEST_DATABASE_URL the test is skipped, or failed under
// CI=true.
func OpenPostgres(t testing.TB) *store.Store {
	t.Helper()
	dsn := postgresCopy(t)
	s, err := store.Open(context.Background(), dsn, "")
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	remember(t, s, "pgx", dsn)
	return s
}

// source is how to reach a test store's database from outside it.
type source struct{ driver, dsn string }

var (
	sourcesMu sync.Mutex
	sources   = map[*store.Store]source{}
)

// remember keeps s's database for Count and closes s when the test ends.
func remember(t testing.TB, s *store.Store, driver, dsn string) {
	sourcesMu.Lock()
	sources[s] = source{driver, dsn}
	sourcesMu.Unlock()
	t.Cleanup(func() {
		sourcesMu.Lock()
		delete(sources, s)
		sourcesMu.Unlock()
		s.Close()
	})
}

// Count returns the number of rows in table of a store opened here, read
// over a connection of its own: for tests that check that a refused
// request stored nothing, where ids cannot tell (blob ids are random).
func Count(t testing.TB, s *store.Store, table string) int {
	t.Helper()
	var n int
	QueryRow(t, s, "SELECT COUNT(*) FROM "+table, nil, &n)
	return n
}

// QueryRow runs query with args over a connection of its own to a store
// opened here and scans its one row into dest: for tests outside the store
// that check or arrange rows directly.
func QueryRow(t testing.TB, s *store.Store, query string, args []any, dest ...any) {
	t.Helper()
	sourcesMu.Lock()
	src, ok := sources[s]
	sourcesMu.Unlock()
	if !ok {
		t.Fatal("storetest: QueryRow needs a store opened by storetest")
	}
	dsn := src.dsn
	if src.driver == "sqlite" {
		dsn += "?_pragma=busy_timeout(5000)" // waits for the store's writers, as its own connections do
	}
	db, err := sql.Open(src.driver, dsn)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer db.Close()
	if err := db.QueryRow(query, args...).Scan(dest...); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
}

// OpenEach runs fn as the subtests "sqlite" and "postgres", each with a
// fresh store.
func OpenEach(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, Open(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
}

// OpenTwice returns two stores on one fresh database, as two instances (or
// two processes on a SQLite file) have: db is "sqlite" or "postgres".
func OpenTwice(t *testing.T, db string) (a, b *store.Store) {
	t.Helper()
	dir, url := "", ""
	if db == "postgres" {
		url = postgresCopy(t)
	} else {
		dir = sqliteCopy(t)
	}
	open := func() *store.Store {
		s, err := store.Open(context.Background(), url, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	return open(), open()
}

// PostgresURL creates an empty schema in the TEST_DATABASE_URL database
// and returns a URL whose connections use it (search_path), for tests that
// open stores themselves. The schema is dropped when the test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: TEST_DATABASE_URL: %v", err)
	}
	admin := adminDB(t, base)
	schema := uniqueName("sq_test_")
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("storetest: unable to create schema: %v", err)
	}
	// Cleanups run last-registered first: the caller's store closes, then
	// the schema is dropped, then admin closes.
	t.Cleanup(func() {
		// Parallel tests drop their schemas at once, and PostgreSQL may pick
		// one drop as a deadlock's victim: that one is tried again.
		var err error
		for try := 0; try < 5; try++ {
			if _, err = admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err == nil || !isDeadlock(err) {
				break
			}
			time.Sleep(time.Duration(50*(try+1)) * time.Millisecond)
		}
		if err != nil {
			t.Errorf("storetest: unable to drop schema %s: %v", schema, err)
		}
	})

	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return testURL(u)
}

// testURL is u for a test's connections: commits do not wait for the WAL
// to reach the disk, which only a crash of the database server could tell.
func testURL(u *url.URL) string {
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// postgresCopy creates a database from the migrated template and returns
// a URL of it; the database is dropped when the test ends. Migrating a
// fresh schema took about three seconds a test; a copy takes a few tenths.
func postgresCopy(t testing.TB) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	template, err := postgresTemplate(base)
	if err != nil {
		t.Fatalf("storetest: migrating the PostgreSQL template: %v", err)
	}
	admin := adminDB(t, base)
	name := uniqueName("sq_test_")
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + template); err != nil {
		t.Fatalf("storetest: unable to create database: %v", err)
	}
	// Cleanups run last-registered first: the caller's store closes, then
	// the database is dropped, then admin closes.
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			t.Errorf("storetest: unable to drop database %s: %v", name, err)
		}
	})
	u, _ := url.Parse(base)
	u.Path = "/" + name
	return testURL(u)
}

// postgresTemplate returns the name of a database migrated to the current
// migrations (named by their digest) on the current UTC day, made once for
// every test process and run that day: under an advisory lock, built under
// a temporary name and renamed when complete, and closed to connections,
// since PostgreSQL copies a template only while nobody is connected to it
// (autovacuum included). The day is in the name because migrations date
// some rows (the first open day of the rollups, the workspace quarters'
// start): a template kept from yesterday gave today's tests yesterday's
// open day, as a store migrated now would not. Earlier days' templates of
// the same migrations are dropped when today's is made.
var postgresTemplate = func() func(base string) (string, error) {
	var (
		mu   sync.Mutex
		made string
	)
	return func(base string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		if made != "" {
			return made, nil
		}
		digest, err := store.MigrationsDigest(store.Postgres)
		if err != nil {
			return "", err
		}
		prefix := "sq_template_" + digest[:16] + "_"
		name := prefix + time.Now().UTC().Format("20060102")
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return "", err
		}
		defer admin.Close()
		ctx := context.Background()
		conn, err := admin.Conn(ctx)
		if err != nil {
			return "", err
		}
		defer conn.Close()
		const lock = "hashtext('squarely.storetest.template')"
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock("+lock+")"); err != nil {
			return "", err
		}
		defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock("+lock+")")
		var exists bool
		if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
			return "", err
		}
		if !exists {
			if err := buildTemplate(ctx, conn, base, name); err != nil {
				return "", err
			}
			dropStaleTemplates(ctx, conn, prefix, name)
		}
		made = name
		return made, nil
	}
}()

// buildTemplate migrates a new database and renames it to name.
func buildTemplate(ctx context.Context, conn *sql.Conn, base, name string) error {
	building := uniqueName("sq_building_")
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return err
	}
	u, _ := url.Parse(base)
	u.Path = "/" + building
	s, err := store.Open(ctx, testURL(u), "")
	if err == nil {
		err = s.Close()
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name)
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
	}
	if err != nil {
		conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)")
	}
	return err
}

// dropStaleTemplates drops the templates named prefix… other than keep:
// the same migrations' templates of earlier days. Best effort: a template
// another run is copying right now stays for the next time.
func dropStaleTemplates(ctx context.Context, conn *sql.Conn, prefix, keep string) {
	rows, err := conn.QueryContext(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2", prefix, keep)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE false"); err == nil {
			conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name)
		}
	}
}

// adminDB is a connection pool to the TEST_DATABASE_URL database itself,
// for creating and dropping the tests' schemas and databases; closed when
// the test ends (after the cleanups registered later, which use it).
func adminDB(t testing.TB, base string) *sql.DB {
	t.Helper()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { admin.Close() })
	return admin
}

// uniqueName is prefix and 16 random hex digits: a schema or database
// name no other test or run picks.
func uniqueName(prefix string) string {
	var suffix [8]byte
	rand.Read(suffix[:])
	return prefix + hex.EncodeToString(suffix[:])
}

// CreateUser saves a user whose username and e-mail are username.
func CreateUser(t testing.TB, s *store.Store, username string) *store.User {
	t.Helper()
	u := &store.User{Username: username, Email: username, PasswordHash: "hash"}
	if err := s.CreateUser(context.Background(), u); err != nil {
		t.Fatalf("storetest: CreateUser(%q): %v", username, err)
	}
	return u
}

// DefaultStyle is the generator's default look, frame text included.
func DefaultStyle() store.Style {
	return store.Style{
		FgColor: "#000000", BgColor: "#FFFFFF", QRStyle: "squares",
		DotShape: "square", CornerShape: "square", InnerCornerShape: "square",
		ErrorCorrectionLevel: "M", LogoSize: "medium",
		FrameText: "SCAN ME", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
	}
}

// NewDynamic returns an unsaved dynamic code of the user, in the default
// style, redirecting to https://example.com/menu.
func NewDynamic(userID int64, shortCode string) *store.DynamicCode {
	return &store.DynamicCode{
		UserID: userID, Name: "Menu", ShortCode: shortCode, Destination: "https://example.com/menu",
		QRType: "url", QRData: `{"url":"https://example.com/menu"}`,
		Style: DefaultStyle(),
	}
}

// CreateDynamic saves NewDynamic(userID, shortCode), with no limit.
func CreateDynamic(t testing.TB, s *store.Store, userID int64, shortCode string) *store.DynamicCode {
	t.Helper()
	d := NewDynamic(userID, shortCode)
	if err := s.CreateDynamicCode(context.Background(), d, 0); err != nil {
		t.Fatalf("storetest: CreateDynamicCode(%q): %v", shortCode, err)
	}
	return d
}

// Personal returns the id of the user's personal workspace.
func Personal(t testing.TB, s *store.Store, userID int64) int64 {
	t.Helper()
	w, err := s.PersonalWorkspace(context.Background(), userID)
	if err != nil {
		t.Fatalf("storetest: PersonalWorkspace(%d): %v", userID, err)
	}
	return w.ID
}

// Settings returns the DATABASE_URL and SQUARELY_DATA_DIR that reach the
// database of a store opened here, for tests of commands that open it
// from the settings.
func Settings(t testing.TB, s *store.Store) (databaseURL, dataDir string) {
	t.Helper()
	sourcesMu.Lock()
	src, ok := sources[s]
	sourcesMu.Unlock()
	if !ok {
		t.Fatal("storetest: Settings needs a store opened by storetest")
	}
	if src.driver == "sqlite" {
		return "", filepath.Dir(src.dsn)
	}
	return src.dsn, t.TempDir()
}

// isDeadlock reports whether PostgreSQL aborted a statement as a
// deadlock's victim (SQLSTATE 40P01).
func isDeadlock(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "40P01"
}
