package store_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// The SQLite database, its WAL and a backup hold TOTP keys and webhook
// secrets: they are their owner's alone (0600, the data directory 0700),
// also when an older version left them readable by others.
func TestSQLiteFilesOwnerOnly(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	s, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	storetest.CreateUser(t, s, "u@example.com") // writes the WAL
	db := filepath.Join(dir, "squarely.db")
	for path, want := range map[string]fs.FileMode{dir: 0o700, db: 0o600, db + "-wal": 0o600, db + "-shm": 0o600} {
		if got := mode(t, path); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, backup); got != 0o600 {
		t.Errorf("backup: mode %o, want 600", got)
	}
	if err := s.Backup(ctx, backup); err == nil {
		t.Error("a backup over an existing file succeeded")
	}
	s.Close()

	// As an older version left them.
	for path, m := range map[string]fs.FileMode{dir: 0o755, db: 0o644, db + "-wal": 0o644, db + "-shm": 0o644} {
		if err := os.Chmod(path, m); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	s, err = store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.UserByUsername(ctx, "u@example.com"); err != nil {
		t.Fatalf("the reopened database lost its user: %v", err)
	}
	storetest.CreateUser(t, s, "v@example.com")
	for path, want := range map[string]fs.FileMode{dir: 0o700, db: 0o600, db + "-wal": 0o600, db + "-shm": 0o600} {
		if got := mode(t, path); got != want {
			t.Errorf("reopened, %s: mode %o, want %o", path, got, want)
		}
	}
}
