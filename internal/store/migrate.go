package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the dialect's migrations in version order.
func migrations(dialect string) ([]migration, error) {
	dir := path.Join("migrations", dialect)
	names, err := fs.Glob(migrationFiles, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	var list []migration
	for _, name := range names {
		base := path.Base(name)
		prefix, _, _ := strings.Cut(base, "_")
		version, err := strconv.Atoi(prefix)
		if err != nil || version <= 0 {
			return nil, fmt.Errorf("store: migration %s does not start with a version number", name)
		}
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		list = append(list, migration{version: version, name: base, sql: string(body)})
	}
	slices.SortFunc(list, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(list); i++ {
		if list[i].version == list[i-1].version {
			return nil, fmt.Errorf("store: migrations %s and %s share a version", list[i-1].name, list[i].name)
		}
	}
	return list, nil
}

// MigrationsDigest identifies the schema dialect's migrations build (a
// hash of their names and text): tests keep one migrated database per
// digest and copy it rather than migrating a database for every test.
func MigrationsDigest(dialect string) (string, error) {
	list, err := migrations(dialect)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range list {
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", m.name, len(m.sql), m.sql)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// migrate applies the migrations not yet recorded in schema_migrations,
// up to version upTo (0: all).
// Everything runs on one connection: on SQLite that is the only writer, on
// PostgreSQL it holds a session advisory lock, keyed by the current schema,
// so instances starting together apply each migration once and stores in
// different schemas do not wait for each other.
func (s *Store) migrate(ctx context.Context, upTo int) error {
	list, err := migrations(s.dialect)
	if err != nil {
		return err
	}
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: unable to migrate: %w", err)
	}
	defer conn.Close()

	if s.dialect == Postgres {
		const key = "hashtext('squarely.schema_migrations.' || current_schema())"
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock("+key+")"); err != nil {
			return fmt.Errorf("store: unable to lock for migration: %w", err)
		}
		// Unlock with a fresh context: ctx may be what ended the migration.
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock("+key+")")
	}

	timeType := map[string]string{SQLite: "text", Postgres: "timestamptz"}[s.dialect]
	createTable := `
		CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer PRIMARY KEY,
			name       text NOT NULL,
			applied_at ` + timeType + ` NOT NULL
		)`
	if _, err := conn.ExecContext(ctx, createTable); err != nil {
		return fmt.Errorf("store: unable to create schema_migrations: %w", err)
	}
	// Go steps run after their migration's SQL, in its transaction.
	steps := map[int]func(context.Context, *sql.Tx) error{14: s.backfillRollups, 16: s.openCodeDays, 58: s.startQuarters, 62: s.startCountryDays}
	for _, m := range list {
		if upTo > 0 && m.version > upTo {
			break
		}
		if err := s.applyMigration(ctx, conn, m, steps[m.version]); err != nil {
			return err
		}
	}
	return nil
}

// foreignKeysOff starts a SQLite migration that rebuilds a table others
// reference (sqlite.org/lang_altertable.html): it runs with foreign keys
// off, since dropping the old table would otherwise cascade to the rows
// that reference it, and PRAGMA foreign_key_check must find nothing
// before it commits.
const foreignKeysOff = "-- squarely:foreign-keys-off"

// applyMigration runs m, then step if any, in a transaction unless m is
// already recorded.
func (s *Store) applyMigration(ctx context.Context, conn *sql.Conn, m migration, step func(context.Context, *sql.Tx) error) error {
	rebuild := s.dialect == SQLite && strings.HasPrefix(m.sql, foreignKeysOff)
	if rebuild {
		// Outside a transaction: SQLite ignores the pragma inside one.
		if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
			return fmt.Errorf("store: migration %s: %w", m.name, err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
		inner := step
		step = func(ctx context.Context, tx *sql.Tx) error {
			if inner != nil {
				if err := inner(ctx, tx); err != nil {
					return err
				}
			}
			rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
			if err != nil {
				return err
			}
			defer rows.Close()
			if rows.Next() {
				var table string
				var rowid sql.NullInt64
				var parent string
				var fk int
				rows.Scan(&table, &rowid, &parent, &fk)
				return fmt.Errorf("a row of %s (rowid %d) names a missing row of %s", table, rowid.Int64, parent)
			}
			return rows.Err()
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: unable to begin migration %s: %w", m.name, err)
	}
	defer tx.Rollback()

	var applied bool
	err = tx.QueryRowContext(ctx,
		`SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, m.version).Scan(&applied)
	if err != nil {
		return fmt.Errorf("store: unable to read schema_migrations: %w", err)
	}
	if applied {
		return nil
	}
	// No arguments: both drivers then run a multi-statement script.
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("store: migration %s failed: %w", m.name, err)
	}
	if step != nil {
		if err := step(ctx, tx); err != nil {
			return fmt.Errorf("store: migration %s failed: %w", m.name, err)
		}
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
		m.version, m.name, dbTime(time.Now()))
	if err != nil {
		return fmt.Errorf("store: unable to record migration %s: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: unable to commit migration %s: %w", m.name, err)
	}
	return nil
}

// Ready reports whether the database answers and has every migration this
// binary knows applied: what a load balancer's readiness check asks.
func (s *Store) Ready(ctx context.Context) error {
	list, err := migrations(s.dialect)
	if err != nil {
		return err
	}
	var latest sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&latest); err != nil {
		return fail("read schema_migrations", err)
	}
	if want := list[len(list)-1].version; latest.Int64 < int64(want) {
		return fmt.Errorf("store: migration %d is not applied (latest applied: %d)", want, latest.Int64)
	}
	return nil
}
