package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// timeLayout is how times travel to both databases: fixed-width UTC text
// that SQLite stores as is (so text order is time order) and PostgreSQL
// parses into timestamptz.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// normTime returns t as the database keeps it: UTC, to the microsecond.
// Structs get this value too, so what a caller holds equals what it reads.
func normTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// dbTime is a time argument for a query.
func dbTime(t time.Time) string { return normTime(t).Format(timeLayout) }

// dbTimePtr is a nullable time argument for a query.
func dbTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return dbTime(*t)
}

// nullIfEmpty stores "" as NULL, for optional identifiers under a unique
// index (google_id) and optional secrets (password).
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// timeScanner reads a timestamp column: time.Time from PostgreSQL, text
// from SQLite. A NULL leaves a nullable destination nil.
type timeScanner struct {
	t        *time.Time  // destination of a NOT NULL column
	nullable **time.Time // destination of a nullable column
}

func scanTime(t *time.Time) sql.Scanner      { return timeScanner{t: t} }
func scanNullTime(t **time.Time) sql.Scanner { return timeScanner{nullable: t} }

func (ts timeScanner) Scan(src any) error {
	var t time.Time
	switch v := src.(type) {
	case nil:
		if ts.nullable == nil {
			return errors.New("NULL in a NOT NULL time column")
		}
		*ts.nullable = nil
		return nil
	case time.Time:
		t = v
	case string:
		return ts.parse(v)
	case []byte:
		return ts.parse(string(v))
	default:
		return fmt.Errorf("cannot scan %T into a time", src)
	}
	ts.set(normTime(t))
	return nil
}

func (ts timeScanner) parse(text string) error {
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return err
	}
	ts.set(normTime(t))
	return nil
}

func (ts timeScanner) set(t time.Time) {
	if ts.nullable != nil {
		*ts.nullable = &t
		return
	}
	*ts.t = t
}

// isUniqueViolation reports whether err is a unique or primary key
// violation on either database.
func isUniqueViolation(err error) bool {
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		return pgErr.Code == "23505"
	}
	if liteErr, ok := errors.AsType[*sqlite.Error](err); ok {
		code := liteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// Refused reports whether err is the database refusing the data itself (a
// data exception or a broken constraint), as opposed to being unreachable or
// failing: writing the same rows again would fail again.
func Refused(err error) bool {
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		return strings.HasPrefix(pgErr.Code, "22") || strings.HasPrefix(pgErr.Code, "23")
	}
	if liteErr, ok := errors.AsType[*sqlite.Error](err); ok {
		switch liteErr.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_MISMATCH:
			return true
		}
	}
	return false
}

// fail wraps a database error as "store: unable to <action>: …", turning
// unique violations into ErrConflict and missing rows into ErrNotFound.
func fail(action string, err error) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		err = ErrNotFound
	case isUniqueViolation(err):
		err = ErrConflict
	}
	return fmt.Errorf("store: unable to %s: %w", action, err)
}

// failOrNil is fail for an error that may be nil.
func failOrNil(action string, err error) error {
	if err == nil {
		return nil
	}
	return fail(action, err)
}

// mustAffect turns an UPDATE or DELETE that matched no row into ErrNotFound.
func mustAffect(action string, res sql.Result, err error) error {
	if err != nil {
		return fail(action, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fail(action, err)
	}
	if n == 0 {
		return fail(action, ErrNotFound)
	}
	return nil
}

// nullID is an optional reference: NULL for 0.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
