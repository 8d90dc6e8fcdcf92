// Package storetest opens real, throwaway stores for tests: SQLite in a
// temporary directory, and PostgreSQL (from TEST_DATABASE_URL) in a freshly
// created schema, so parallel test packages and reruns never see each
// other's rows.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/testenv"
)

// Open returns a fresh SQLite store in t.TempDir(), closed when the test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	s, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	remember(t, s, "sqlite", filepath.Join(dir, "squarely.db"))
	return s
}

// OpenPostgres returns a store in a new, empty PostgreSQL schema, dropped
// when the test ends. Without TEST_DATABASE_URL the test is skipped, or
// failed under CI=true.
func OpenPostgres(t testing.TB) *store.Store {
	t.Helper()
	dsn := PostgresURL(t)
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
	db, err := sql.Open(src.driver, src.dsn)
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
	dir, url := t.TempDir(), ""
	if db == "postgres" {
		dir, url = "", PostgresURL(t)
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
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { admin.Close() })

	var suffix [8]byte
	rand.Read(suffix[:])
	schema := "sq_test_" + hex.EncodeToString(suffix[:])
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
	return u.String()
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
