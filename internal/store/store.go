// Package store keeps everything Squarely saves, behind one API that runs
// on two databases.
//
// Dialects. With an empty DATABASE_URL the store is an embedded SQLite file,
// dataDir/squarely.db, through modernc.org/sqlite (pure Go, no cgo): a laptop
// needs no other service. With a postgres:// URL it is PostgreSQL through
// pgx's database/sql driver, so many stateless instances can share sessions,
// uploads and scans. Both go through database/sql, and every query is written
// once: SQLite accepts PostgreSQL's $1-style parameters, and the queries keep
// to the SQL both understand (RETURNING, ON CONFLICT, partial and expression
// indexes, TRUE/FALSE).
//
// Pools. SQLite allows one writer at a time, so writes go through a pool
// of exactly one connection (BEGIN IMMEDIATE, so a transaction never has to
// upgrade its lock) and reads through a separate pool of several read-only
// connections that WAL lets run beside the writer. The connections run with
// WAL, busy_timeout 5000, foreign_keys ON and synchronous NORMAL. On
// PostgreSQL both roles are one ordinary pool.
//
// SQL. The schema lives in migrations/<dialect>/NNNN_name.sql, embedded in
// the binary and applied in order by Open, each in its own transaction and
// recorded in schema_migrations; on PostgreSQL an advisory lock keyed by the
// schema lets several instances start at once. Queries sit next to the method
// that runs them.
//
// Timestamps. Times are stored in UTC, truncated to the microsecond (what
// PostgreSQL keeps) before they are written, so a value read back equals the
// value written on both dialects. PostgreSQL stores timestamptz; SQLite stores
// TEXT in one fixed-width layout, 2006-01-02T15:04:05.000000Z, so comparing
// the text compares the times.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

var (
	ErrNotFound = errors.New("store: not found")
	ErrConflict = errors.New("store: already exists")
)

// The values Dialect returns.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// sqliteReadConns bounds the SQLite read pool; reads beside the single writer
// are cheap in WAL mode, more connections than this only cost memory.
const sqliteReadConns = 8

// sqlitePragmas are applied to every SQLite connection, busy_timeout first
// so the others wait for a lock instead of failing.
const sqlitePragmas = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)" +
	"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"

// Store is the database. It is safe for concurrent use.
type Store struct {
	dialect string
	read    *sql.DB // queries that only read
	write   *sql.DB // statements that change data; the same pool as read on PostgreSQL
	batch   batchStmts
	rollup  *rollupSQL
	cache   *writerCache // the recorder's
	hooks   redirectHooks
	// The country rows (countrydays.go): earlierScans counts the batches
	// that saved scans of days before them; countedBack is one more than
	// its value when they last reached back to the first scan, after which
	// the tick stops looking further back.
	earlierScans, countedBack atomic.Int64
}

// Open opens the database named by databaseURL, or the SQLite file
// dataDir/squarely.db when databaseURL is empty, and applies any pending
// migrations.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	return open(ctx, databaseURL, dataDir, 0)
}

// open is Open applying the migrations up to version upTo (0: all), so
// that tests can build a database as an older binary left it.
func open(ctx context.Context, databaseURL, dataDir string, upTo int) (*Store, error) {
	s, err := connect(ctx, databaseURL, dataDir)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx, upTo); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// connect opens the database and checks that it answers.
func connect(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	var (
		s   *Store
		err error
	)
	switch {
	case databaseURL == "":
		s, err = openSQLite(dataDir)
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		s, err = openPostgres(databaseURL)
	default:
		return nil, errors.New("store: DATABASE_URL must start with postgres:// or postgresql://, or be empty for SQLite")
	}
	if err != nil {
		return nil, err
	}
	if err := s.write.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: unable to connect to %s: %w", s.dialect, err)
	}
	return s, nil
}

func openSQLite(dataDir string) (*Store, error) {
	if dataDir == "" {
		return nil, errors.New("store: a data directory is needed for SQLite")
	}
	if err := ownerOnly(dataDir); err != nil {
		return nil, err
	}
	dsn := filepath.Join(dataDir, "squarely.db") + "?" + sqlitePragmas
	// The writer's page cache holds the pages the recorder's batches keep
	// changing (scan counts, rollups, the events' index) instead of reading
	// them back from the file each time: 64 MiB at most, against SQLite's
	// default 2 MiB (BENCHMARKS.md, "Scan counts in a narrow table").
	// Its commits copy the write-ahead log back into the database once it
	// holds 16,000 pages (about 65 MB), not SQLite's 1,000: a batch of a
	// thousand scans changes about a thousand pages of the events' index,
	// which then filled the log at every batch, and each copy wrote those
	// pages and synced the file again. Batched, a page changed by several
	// batches is copied once: the recorder's CPU a scan fell by a quarter
	// (BENCHMARKS.md, "Redirects"). The log's file stays at its largest.
	write, err := sql.Open("sqlite", dsn+"&_txlock=immediate&_pragma=cache_size(-65536)&_pragma=wal_autocheckpoint(16000)")
	if err != nil {
		return nil, fmt.Errorf("store: unable to open SQLite: %w", err)
	}
	write.SetMaxOpenConns(1)
	read, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("store: unable to open SQLite: %w", err)
	}
	read.SetMaxOpenConns(sqliteReadConns)
	read.SetMaxIdleConns(sqliteReadConns)
	s := &Store{dialect: SQLite, read: read, write: write, cache: newWriterCache()}
	s.rollup = s.buildRollupSQL()
	return s, nil
}

// ownerOnly makes the data directory (0700) and the SQLite files in it
// (0600) its owner's alone: they hold TOTP keys and webhook secrets. The
// database file is created before SQLite opens it, which would create it
// 0644, and its WAL and shared-memory files take its mode. What an older
// version left readable by others is tightened; a directory this user
// may not change (a mount point of another owner's) is left as it is.
func ownerOnly(dataDir string) error {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("store: unable to create the data directory: %w", err)
	}
	if fi, err := os.Stat(dataDir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		os.Chmod(dataDir, fi.Mode().Perm()&0o700)
	}
	db := filepath.Join(dataDir, "squarely.db")
	f, err := os.OpenFile(db, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: unable to open the database file: %w", err)
	}
	f.Close()
	for _, file := range []string{db, db + "-wal", db + "-shm"} {
		fi, err := os.Stat(file)
		if err != nil || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(file, 0o600); err != nil {
			return fmt.Errorf("store: unable to make %s readable by its owner only: %w", file, err)
		}
	}
	return nil
}

func openPostgres(databaseURL string) (*Store, error) {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open PostgreSQL: %w", err)
	}
	// Several instances share one server: keep each one's share modest.
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{dialect: Postgres, read: db, write: db, cache: newWriterCache()}
	s.rollup = s.buildRollupSQL()
	return s, nil
}

// Close closes the database connections.
func (s *Store) Close() error {
	err := s.write.Close()
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// Dialect reports which database the store runs on: "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.dialect }
