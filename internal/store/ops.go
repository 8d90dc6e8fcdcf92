package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Operations (issue 25): the maintenance commands' view of the database.

// OpenExisting opens the database like Open but applies no migration and,
// on SQLite, creates no file: what `squarely backup` and `squarely migrate
// status` use, so that looking at a database never changes it.
func OpenExisting(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	if err := sqliteThere(databaseURL, dataDir); err != nil {
		return nil, err
	}
	return connect(ctx, databaseURL, dataDir)
}

// OpenToChange is Open (migrations included, as the server would apply
// them) for a database that must exist: what the admin commands use, so
// that a wrong SQUARELY_DATA_DIR is an error rather than a new, empty
// database whose accounts no running server knows.
func OpenToChange(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	if err := sqliteThere(databaseURL, dataDir); err != nil {
		return nil, err
	}
	return Open(ctx, databaseURL, dataDir)
}

// sqliteThere refuses a SQLite database (no databaseURL) whose file is not
// in dataDir.
func sqliteThere(databaseURL, dataDir string) error {
	if databaseURL != "" {
		return nil
	}
	file := filepath.Join(dataDir, "squarely.db")
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("store: no SQLite database at %s (SQUARELY_DATA_DIR=%s): %w", file, dataDir, err)
	}
	return nil
}

// MigrationState is one migration this binary knows and whether the
// database has it.
type MigrationState struct {
	Version   int
	Name      string
	AppliedAt time.Time // zero: pending
}

// MigrationStatus lists every migration this binary carries, in order,
// with the time each was applied, plus any the database recorded that this
// binary does not know (a newer binary ran against it).
func (s *Store) MigrationStatus(ctx context.Context) ([]MigrationState, error) {
	list, err := migrations(s.dialect)
	if err != nil {
		return nil, err
	}
	applied := map[int]MigrationState{}
	rows, err := s.read.QueryContext(ctx, `SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil && !missingTable(ctx, s) {
		return nil, fail("read schema_migrations", err)
	}
	if err == nil {
		defer rows.Close()
		for rows.Next() {
			var m MigrationState
			if err := rows.Scan(&m.Version, &m.Name, scanTime(&m.AppliedAt)); err != nil {
				return nil, fail("read schema_migrations", err)
			}
			applied[m.Version] = m
		}
		if err := rows.Err(); err != nil {
			return nil, fail("read schema_migrations", err)
		}
	}
	var out []MigrationState
	for _, m := range list {
		st := MigrationState{Version: m.version, Name: m.name}
		if a, ok := applied[m.version]; ok {
			st.AppliedAt = a.AppliedAt
			delete(applied, m.version)
		}
		out = append(out, st)
	}
	for _, a := range applied {
		out = append(out, a)
	}
	return out, nil
}

// missingTable reports whether schema_migrations does not exist yet (a
// database no binary has migrated).
func missingTable(ctx context.Context, s *Store) bool {
	q := map[string]string{
		SQLite:   `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`,
		Postgres: `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'`,
	}[s.dialect]
	var n int
	return s.read.QueryRowContext(ctx, q).Scan(&n) == nil && n == 0
}

// ErrBackupPostgres is Backup's answer on PostgreSQL, whose own tools do
// it better.
var ErrBackupPostgres = errors.New("the database is PostgreSQL: back it up with pg_dump " +
	"(e.g. pg_dump --format=custom --file=squarely.dump \"$DATABASE_URL\"; restore with pg_restore)")

// Backup writes a consistent copy of the SQLite database to file with
// VACUUM INTO, which reads one snapshot while the server keeps writing
// (WAL). file must not exist.
func (s *Store) Backup(ctx context.Context, file string) error {
	if s.dialect != SQLite {
		return ErrBackupPostgres
	}
	// The copy holds what the database does (TOTP keys, webhook secrets):
	// it is made empty and 0600 first, and VACUUM INTO fills it.
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("store: %s already exists; back up to a new file", file)
	}
	if err != nil {
		return fmt.Errorf("store: unable to create the backup: %w", err)
	}
	f.Close()
	// The read pool is query_only, which VACUUM INTO respects; a connection
	// of the write pool is a snapshot reader too, and writes only file.
	if _, err := s.write.ExecContext(ctx, `VACUUM INTO $1`, file); err != nil {
		os.Remove(file)
		return fail("back up", err)
	}
	return nil
}

// Pools returns the database pools for their statistics, by role: "read"
// and "write" on SQLite, one "main" pool on PostgreSQL.
func (s *Store) Pools() map[string]*sql.DB {
	if s.read == s.write {
		return map[string]*sql.DB{"main": s.write}
	}
	return map[string]*sql.DB{"read": s.read, "write": s.write}
}

// JobCount is how many jobs of a kind are in a state.
type JobCount struct {
	Kind, State string
	Count       int64
}

// JobCounts counts the background jobs by kind ("bulk", "mailing") and
// state, for monitoring.
func (s *Store) JobCounts(ctx context.Context) ([]JobCount, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT 'bulk', status, COUNT(*) FROM bulk_jobs GROUP BY status
		UNION ALL
		SELECT 'mailing', status, COUNT(*) FROM mailings GROUP BY status`)
	if err != nil {
		return nil, fail("count jobs", err)
	}
	defer rows.Close()
	var out []JobCount
	for rows.Next() {
		var c JobCount
		if err := rows.Scan(&c.Kind, &c.State, &c.Count); err != nil {
			return nil, fail("count jobs", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CertCacheGet returns the ACME cache entry key (a certificate or the
// account key), or ErrNotFound.
func (s *Store) CertCacheGet(ctx context.Context, key string) ([]byte, error) {
	var data []byte
	if err := s.read.QueryRowContext(ctx, `SELECT data FROM acme_cache WHERE key = $1`, key).Scan(&data); err != nil {
		return nil, fail("read the certificate cache", err)
	}
	return data, nil
}

// CertCachePut stores the ACME cache entry key, replacing any.
func (s *Store) CertCachePut(ctx context.Context, key string, data []byte, now time.Time) error {
	_, err := s.write.ExecContext(ctx, `
		INSERT INTO acme_cache (key, data, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`, key, data, dbTime(now))
	if err != nil {
		return fail("write the certificate cache", err)
	}
	return nil
}

// CertCacheDelete removes the ACME cache entry key, if any.
func (s *Store) CertCacheDelete(ctx context.Context, key string) error {
	if _, err := s.write.ExecContext(ctx, `DELETE FROM acme_cache WHERE key = $1`, key); err != nil {
		return fail("delete from the certificate cache", err)
	}
	return nil
}
