// Package benchdb is what the bench programs share: a PostgreSQL schema of
// their own to seed and time in, dropped after.
package benchdb

import (
	"context"
	crand "crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// DefaultPostgres is the local test server, for a bench run without DATABASE_URL.
const DefaultPostgres = "postgres://root@127.0.0.1:5432/test?sslmode=disable"

// TempSchema creates a PostgreSQL schema named prefix plus a random suffix
// and returns base with search_path set to it, and a func that drops it.
func TempSchema(ctx context.Context, base, prefix string) (string, func() error, error) {
	var suffix [6]byte
	crand.Read(suffix[:])
	schema := prefix + hex.EncodeToString(suffix[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return "", nil, err
	}
	drop := func() error {
		defer db.Close()
		_, err := db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		return err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, errors.Join(err, drop())
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}
