package store_test

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

var tables = []string{
	"acme_cache", "alerts", "api_idempotency", "api_keys", "audit_log", "blobs", "brand_kits", "bulk_edit_items", "bulk_edit_jobs", "bulk_job_items", "bulk_jobs", "clients",
	"code_days_open", "code_rollup_versions", "contact_messages", "dynamic_qr_code_tags", "dynamic_qr_codes", "folders",
	"gs1_lots", "gs1_products", "gs1_scan_days", "import_items", "import_jobs",
	"known_devices", "mail_outbox", "mail_unsubscribes", "mailing_recipients", "mailings", "newsletter_subscriptions", "page_events", "pages",
	"password_tokens", "payment_products", "payments", "pending_logins", "qr_code_tags", "qr_codes",
	"qr_downloads", "qr_generations", "rate_limits", "recovery_codes", "report_deliveries", "report_schedule_recipients", "report_schedules", "saml_assertions", "saml_requests", "scan_code_days", "scan_country_days_from", "scan_country_rollup_days", "scan_country_rollups", "scan_counts",
	"scan_events", "scan_folder_days", "scan_folder_rollups", "scan_retention", "scan_tag_days", "scan_tag_rollups", "scan_visitors", "scan_workspace_country_days", "scan_workspace_days", "scan_workspace_quarters", "scan_workspace_stale_days", "scan_workspace_visitors",
	"schema_migrations", "scim_group_members", "scim_groups", "scim_tokens", "scim_users", "secrets", "sessions", "share_links", "stripe_events", "stripe_subscriptions", "tags",
	"user_identities", "user_totp", "users", "utm_presets", "webauthn_ceremonies", "webauthn_credentials",
	"webhook_deliveries", "webhook_endpoints", "webhook_events", "webhook_subscriptions",
	"workspace_domains", "workspace_invitations", "workspace_members", "workspace_quarters_since", "workspace_rollup_versions", "workspace_sso", "workspaces",
}

func TestOpenRejectsOtherURLs(t *testing.T) {
	for _, url := range []string{"mysql://root@localhost/db", "sqlite:///tmp/x.db", "/tmp/x.db", "Postgres://x"} {
		_, err := store.Open(context.Background(), url, t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "DATABASE_URL must start with postgres://") {
			t.Errorf("Open(%q) = %v, want the DATABASE_URL error", url, err)
		}
	}
	if _, err := store.Open(context.Background(), "", ""); err == nil {
		t.Error(`Open("", "") succeeded without a data directory`)
	}
}

func TestOpenUnreachablePostgres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Port 1 refuses connections; Open must report it, not hang or panic.
	if _, err := store.Open(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=2", ""); err == nil {
		t.Error("Open of an unreachable server succeeded")
	}
}

func TestSQLiteFile(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "nested", "data")
	s, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Dialect() != "sqlite" {
		t.Errorf("Dialect() = %q", s.Dialect())
	}
	if _, err := os.Stat(filepath.Join(dir, "squarely.db")); err != nil {
		t.Fatalf("database file: %v", err)
	}
	for name, db := range map[string]*sql.DB{"read": store.ReadDB(s), "write": store.WriteDB(s)} {
		for pragma, want := range map[string]string{
			"journal_mode": "wal", "foreign_keys": "1", "synchronous": "1", "busy_timeout": "5000",
		} {
			var got string
			if err := db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s pool: PRAGMA %s = %s, want %s", name, pragma, got, want)
			}
		}
	}
	// The writer copies the log back into the database in large steps (openSQLite).
	var checkpoint int
	if err := store.WriteDB(s).QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&checkpoint); err != nil || checkpoint != 16000 {
		t.Errorf("write pool: PRAGMA wal_autocheckpoint = %d, %v; want 16000", checkpoint, err)
	}
	// The read pool cannot write by mistake.
	if _, err := store.ReadDB(s).ExecContext(ctx, `DELETE FROM sessions`); err == nil {
		t.Error("the read pool accepted a write")
	}
}

func TestOpenTwiceSQLite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s1, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	u := storetest.CreateUser(t, s1, "keep@example.com")
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer s2.Close()
	if got, err := s2.User(ctx, u.ID); err != nil || got.Username != u.Username {
		t.Errorf("user after reopening = %v, %v", got, err)
	}
	checkMigrationsRecordedOnce(t, s2)
}

func TestOpenTwicePostgres(t *testing.T) {
	ctx := context.Background()
	url := storetest.PostgresURL(t)
	s1, err := store.Open(ctx, url, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	if s1.Dialect() != "postgres" {
		t.Errorf("Dialect() = %q", s1.Dialect())
	}
	u := storetest.CreateUser(t, s1, "keep@example.com")
	s2, err := store.Open(ctx, url, "")
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer s2.Close()
	if got, err := s2.User(ctx, u.ID); err != nil || got.Username != u.Username {
		t.Errorf("user seen by the second store = %v, %v", got, err)
	}
	checkMigrationsRecordedOnce(t, s2)
}

func TestConcurrentOpenPostgres(t *testing.T) {
	url := storetest.PostgresURL(t)
	const n = 4
	stores := make([]*store.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = store.Open(context.Background(), url, "") })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("Open %d: %v", i, errs[i])
			continue
		}
		defer stores[i].Close()
	}
	if t.Failed() {
		return
	}
	checkMigrationsRecordedOnce(t, stores[0])
	if _, err := stores[n-1].Client(context.Background(), 1); err != nil {
		t.Errorf("default client: %v", err)
	}
}

// checkMigrationsRecordedOnce checks that schema_migrations lists every
// migration file exactly once.
func checkMigrationsRecordedOnce(t *testing.T, s *store.Store) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("migrations", s.Dialect(), "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("migration files: %v, %v", files, err)
	}
	rows, err := store.ReadDB(s).Query(`SELECT name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	var want []string
	for _, f := range files {
		want = append(want, filepath.Base(f))
	}
	if !slices.Equal(names, want) {
		t.Errorf("schema_migrations = %v, want %v", names, want)
	}
}

func TestMigrationsMatchAcrossDialects(t *testing.T) {
	list := func(dialect string) []string {
		entries, err := os.ReadDir(filepath.Join("migrations", dialect))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	lite, pg := list("sqlite"), list("postgres")
	if !slices.Equal(lite, pg) {
		t.Errorf("migrations differ: sqlite %v, postgres %v", lite, pg)
	}
	versioned := regexp.MustCompile(`^\d{4}_[a-z0-9_]+\.sql$`)
	for _, name := range lite {
		if !versioned.MatchString(name) {
			t.Errorf("migration %q is not named NNNN_name.sql", name)
		}
	}
}

func TestSchema(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		// Less the full-text index's tables (SQLite's code search).
		query := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_search%' ORDER BY name`
		if s.Dialect() == "postgres" {
			// current_schema: the migrations ran in the test's own schema.
			query = `SELECT table_name FROM information_schema.tables
				WHERE table_schema = current_schema() ORDER BY table_name`
		}
		rows, err := store.ReadDB(s).QueryContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			got = append(got, name)
		}
		if !slices.Equal(got, tables) {
			t.Errorf("tables = %v\nwant %v", got, tables)
		}
	})
}

// TestSchemaConstraints checks the bounds the spec puts on stored data,
// which both dialects must refuse the same way.
func TestSchemaConstraints(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := store.WriteDB(s)
		u := storetest.CreateUser(t, s, "c@example.com")
		long := strings.Repeat("x", 101)
		for _, c := range []struct {
			name, query string
			args        []any
			ok          bool
		}{
			{"contact message", `INSERT INTO contact_messages (name, email, subject, message, inquiry_type) VALUES ('Al', 'a@b.c', 'Hello', 'Hello there', $1)`, []any{"support"}, true},
			{"bad inquiry type", `INSERT INTO contact_messages (name, email, subject, message, inquiry_type) VALUES ('Al', 'a@b.c', 'Hello', 'Hello there', $1)`, []any{"sales"}, false},
			{"product name of 100", `INSERT INTO payment_products (user_id, product_name, product_price) VALUES ($1, $2, 1999)`, []any{u.ID, long[:100]}, true},
			{"product name of 101", `INSERT INTO payment_products (user_id, product_name, product_price) VALUES ($1, $2, 1999)`, []any{u.ID, long}, false},
			{"qr product name of 101", `INSERT INTO qr_codes (user_id, product_name) VALUES ($1, $2)`, []any{u.ID, long}, false},
			{"short code of 64", `INSERT INTO dynamic_qr_codes (user_id, short_code, destination, qr_type) VALUES ($1, $2, 'https://x.test', 'url')`, []any{u.ID, long[:64]}, true},
			{"short code of 65", `INSERT INTO dynamic_qr_codes (user_id, short_code, destination, qr_type) VALUES ($1, $2, 'https://x.test', 'url')`, []any{u.ID, long[:65]}, false},
			{"duplicate short code", `INSERT INTO dynamic_qr_codes (user_id, short_code, destination, qr_type) VALUES ($1, $2, 'https://x.test', 'url')`, []any{u.ID, long[:64]}, false},
			{"chosen short code differing by case on the base host", `INSERT INTO dynamic_qr_codes (user_id, short_code, destination, qr_type, short_code_chosen) VALUES ($1, $2, 'https://x.test', 'url', TRUE)`, []any{u.ID, "Menu-2026"}, true},
			{"chosen short code differing by case on the base host again", `INSERT INTO dynamic_qr_codes (user_id, short_code, destination, qr_type, short_code_chosen) VALUES ($1, $2, 'https://x.test', 'url', TRUE)`, []any{u.ID, "menu-2026"}, false},
			{"newsletter", `INSERT INTO newsletter_subscriptions (email) VALUES ($1)`, []any{"n@example.com"}, true},
			{"duplicate newsletter", `INSERT INTO newsletter_subscriptions (email) VALUES ($1)`, []any{"n@example.com"}, false},
			{"generation details", `INSERT INTO qr_generations (qr_type, details) VALUES ('url', $1)`, []any{`{"websiteUrl":"https://x.test"}`}, true},
			{"generation details not JSON", `INSERT INTO qr_generations (qr_type, details) VALUES ('url', $1)`, []any{`{websiteUrl`}, false},
			// scan_events has no key to its code on PostgreSQL (migration 0061).
			{"scan count of an unknown code", `INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES (999, 1, $1)`, []any{"2026-01-01T00:00:00.000000Z"}, false},
		} {
			_, err := db.ExecContext(ctx, c.query, c.args...)
			if (err == nil) != c.ok {
				t.Errorf("%s: err = %v, want ok = %v", c.name, err, c.ok)
			}
		}
		// Column defaults from the spec.
		var fg, style, ecl, frameText, frameStyle string
		var enableFrame bool
		err := db.QueryRowContext(ctx, `
			INSERT INTO qr_codes (user_id) VALUES ($1)
			RETURNING fg_color, qr_style, error_correction_level, frame_text, frame_style, enable_frame`, u.ID,
		).Scan(&fg, &style, &ecl, &frameText, &frameStyle, &enableFrame)
		if err != nil {
			t.Fatal(err)
		}
		if fg != "#000000" || style != "squares" || ecl != "M" || frameText != "SCAN ME" || frameStyle != "rounded" || enableFrame {
			t.Errorf("qr_codes defaults = %q %q %q %q %q %v", fg, style, ecl, frameText, frameStyle, enableFrame)
		}
		var lat float64
		err = db.QueryRowContext(ctx, `
			INSERT INTO qr_codes (user_id, location_latitude) VALUES ($1, $2) RETURNING location_latitude`,
			u.ID, 51.5072178).Scan(&lat)
		if err != nil || lat != 51.5072178 {
			t.Errorf("location_latitude = %v, %v; want 51.5072178", lat, err)
		}
	})
}

// The seeded client is checked on stores migrated by the test itself:
// storetest's copies were migrated when their template was, which
// CreatedAt would tell.
func TestDefaultClient(t *testing.T) {
	for _, db := range []string{store.SQLite, store.Postgres} {
		t.Run(db, func(t *testing.T) {
			dir, url := t.TempDir(), ""
			if db == store.Postgres {
				dir, url = "", storetest.PostgresURL(t)
			}
			s, err := store.Open(context.Background(), url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			defaultClient(t, s)
		})
	}
}

func defaultClient(t *testing.T, s *store.Store) {
	ctx := context.Background()
	c, err := s.Client(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != 1 || c.Name != "Squarely" || c.PrimaryColor != "#3B82F6" || c.SecondaryColor != "#1E40AF" ||
		!c.IsActive || c.RemoveBranding || c.CustomDomain != "" || c.Subdomain != "" || c.CreatedAt.IsZero() {
		t.Errorf("client 1 = %+v", c)
	}
	// Keys are kept only as hashes (0011): client 1 has none until rotated.
	if c.APIKeyPrefix != "" || c.APIKeyLast4 != "" {
		t.Errorf("client 1 key = %q…%q, want none", c.APIKeyPrefix, c.APIKeyLast4)
	}
	if time.Since(c.CreatedAt) > time.Minute || time.Since(c.CreatedAt) < -time.Minute {
		t.Errorf("client 1 CreatedAt = %v, not now", c.CreatedAt)
	}
	if _, err := s.Client(ctx, 2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Client(2) = %v, want ErrNotFound", err)
	}
	// New clients are numbered after the seeded one.
	var id int64
	err = store.WriteDB(s).QueryRowContext(ctx,
		`INSERT INTO clients (name, api_key) VALUES ('Acme', 'key-acme') RETURNING id`).Scan(&id)
	if err != nil || id != 2 {
		t.Errorf("next client id = %d, %v; want 2", id, err)
	}
}

// TestTimesRoundTrip writes times in several zones and precisions and reads
// back identical values, and checks that stored order is time order.
func TestTimesRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "times@example.com")
		tokyo := time.FixedZone("JST", 9*3600)
		second := time.Date(2026, 5, 5, 5, 5, 5, 0, time.UTC)
		ids := map[time.Time]int64{}
		for _, in := range []time.Time{
			time.Now(),
			// Within one second: fractions of different lengths must still
			// sort as times (a trimmed ".1Z" would sort after ".12Z").
			second.Add(100 * time.Millisecond), second, second.Add(120 * time.Millisecond),
			time.Date(2026, 1, 2, 3, 4, 5, 999999999, tokyo),
			time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
			time.Date(2030, 6, 1, 0, 0, 0, 1000, time.FixedZone("", -7*3600)),
		} {
			b := &store.Blob{OwnerID: &u.ID, Kind: "image", ContentType: "image/png", Data: []byte{1}, CreatedAt: in}
			if err := s.CreateBlob(ctx, b); err != nil {
				t.Fatal(err)
			}
			if !b.CreatedAt.Equal(in.Truncate(time.Microsecond)) || b.CreatedAt.Location() != time.UTC {
				t.Errorf("normalised %v to %v", in, b.CreatedAt)
			}
			got, err := s.Blob(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.CreatedAt != b.CreatedAt {
				t.Errorf("CreatedAt read back %v, wrote %v", got.CreatedAt, b.CreatedAt)
			}
			ids[b.CreatedAt] = b.ID
		}
		var order []int64
		rows, err := store.ReadDB(s).QueryContext(ctx, `SELECT id FROM blobs ORDER BY created_at`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			order = append(order, id)
		}
		times := slices.SortedFunc(maps.Keys(ids), time.Time.Compare)
		var want []int64
		for _, tm := range times {
			want = append(want, ids[tm])
		}
		if !slices.Equal(order, want) {
			t.Errorf("ORDER BY created_at = %v, want %v", order, want)
		}
	})
}
