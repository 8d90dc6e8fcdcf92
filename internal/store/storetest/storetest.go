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
	"net/url"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/testenv"
)

// Open returns a fresh SQLite store in t.TempDir(), closed when the test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenPostgres returns a store in a new, empty PostgreSQL schema, dropped
// when the test ends. Without TEST_DATABASE_URL the test is skipped, or
// failed under CI=true.
func OpenPostgres(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), PostgresURL(t), "")
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenEach runs fn as the subtests "sqlite" and "postgres", each with a
// fresh store.
func OpenEach(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, Open(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
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
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("storetest: unable to drop schema %s: %v", schema, err)
		}
	})

	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
