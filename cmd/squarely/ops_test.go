package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestMigrateStatusAndBackup(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{"SQUARELY_DATA_DIR": dir}
			if dialect == "postgres" {
				env["DATABASE_URL"] = storetest.PostgresURL(t)
			}
			if dialect == "sqlite" {
				// Neither command creates a database that is not there.
				code, _, errOut := runCmd(t, env, "migrate", "status")
				if code != 1 || !strings.Contains(errOut, "no SQLite database at") {
					t.Errorf("migrate status without a database: exit %d, %s", code, errOut)
				}
			} else {
				// A schema no binary has migrated: every migration is pending.
				code, out, errOut := runCmd(t, env, "migrate", "status")
				if code != 0 || strings.Contains(out, " applied 20") || !strings.Contains(out, "0001_") {
					t.Errorf("migrate status before migrating: exit %d, %s %s", code, out, errOut)
				}
			}
			st, err := store.Open(context.Background(), env["DATABASE_URL"], dir)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			code, out, errOut := runCmd(t, env, "migrate", "status")
			if code != 0 || !strings.Contains(out, dialect+" database, 0 pending") ||
				!strings.Contains(out, "0001_") || !strings.Contains(out, " applied 20") {
				t.Errorf("migrate status: exit %d, %s %s", code, out, errOut)
			}

			file := filepath.Join(t.TempDir(), "copy.db")
			code, out, errOut = runCmd(t, env, "backup", file)
			if dialect == "postgres" {
				if code != 1 || !strings.Contains(errOut, "pg_dump") {
					t.Errorf("backup on PostgreSQL: exit %d, %s", code, errOut)
				}
				return
			}
			if code != 0 || !strings.Contains(out, "backed up to "+file) {
				t.Errorf("backup: exit %d, %s %s", code, out, errOut)
			}
		})
	}
	if code, _, errOut := runCmd(t, nil, "backup"); code != 2 || !strings.Contains(errOut, "Usage:") {
		t.Errorf("backup without a file: exit %d", code)
	}
}
