package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// envOf turns a map into a getenv function.
func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func runCmd(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, envOf(env), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		code, out, _ := runCmd(t, nil, args...)
		if code != 0 || !strings.Contains(out, "squarely admin grant EMAIL") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
	}
	for _, tc := range []struct {
		args   []string
		reason string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"admin"}, `admin needs arguments`},
		{[]string{"admin", "grant"}, `admin does not take the arguments "grant"`},
		{[]string{"admin", "revoke", "a@b.c"}, `admin does not take the arguments "revoke a@b.c"`},
		{[]string{"serve", "extra"}, `serve does not take the arguments "extra"`},
		{[]string{"migrate", "up"}, `migrate does not take the arguments "up"`},
		{[]string{"backup"}, `backup needs arguments`},
	} {
		code, _, errOut := runCmd(t, nil, tc.args...)
		if code != 2 || !strings.Contains(errOut, "Usage:") || !strings.HasPrefix(errOut, "squarely: "+tc.reason+"\n") {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
}

func TestInvalidSettingsStopStart(t *testing.T) {
	code, _, errOut := runCmd(t, map[string]string{"SQUARELY_LOGIN_RATE_LIMIT": "ten", "SQUARELY_DATA_DIR": t.TempDir()})
	if code != 1 || !strings.Contains(errOut, `SQUARELY_LOGIN_RATE_LIMIT: must be a positive whole number, got "ten"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestAdminGrant(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			env := map[string]string{"SQUARELY_DATA_DIR": t.TempDir()}
			if dialect == "postgres" {
				env["DATABASE_URL"] = storetest.PostgresURL(t)
			}
			ctx := context.Background()
			st, err := store.Open(ctx, env["DATABASE_URL"], env["SQUARELY_DATA_DIR"])
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.CreateUser(ctx, &store.User{Username: "boss@example.com", Email: "boss@example.com", PasswordHash: "x"}); err != nil {
				t.Fatal(err)
			}

			code, _, errOut := runCmd(t, env, "admin", "grant", "nobody@example.com")
			if code != 1 || !strings.Contains(errOut, `no user with the e-mail "nobody@example.com"`) {
				t.Errorf("unknown e-mail: exit %d, stderr %q", code, errOut)
			}

			code, out, errOut := runCmd(t, env, "admin", "grant", "Boss@Example.com")
			if code != 0 || !strings.Contains(out, "is now an admin") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			u, err := st.UserByUsername(ctx, "boss@example.com")
			if err != nil || !u.IsAdmin {
				t.Errorf("after grant: %+v, %v", u, err)
			}
		})
	}
}

// admin create-user makes an account on any instance and queues the mail
// with its set-password link, which works.
func TestAdminCreateUser(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			env := map[string]string{"SQUARELY_DATA_DIR": t.TempDir(), "SQUARELY_SIGNUP": "closed", "SQUARELY_BASE_URL": "https://qr.example.com"}
			if dialect == "postgres" {
				env["DATABASE_URL"] = storetest.PostgresURL(t)
			}
			ctx := context.Background()
			if dialect == "sqlite" {
				// A data directory without the database is a mistake, not a new instance.
				for _, args := range [][]string{{"admin", "create-user", "a@example.com"}, {"admin", "grant", "a@example.com"}} {
					empty := map[string]string{"SQUARELY_DATA_DIR": t.TempDir(), "SQUARELY_BASE_URL": "https://qr.example.com"}
					if code, _, errOut := runCmd(t, empty, args...); code != 1 || !strings.Contains(errOut, "no SQLite database at") {
						t.Errorf("%v in an empty directory: exit %d, stderr %q", args, code, errOut)
					}
					if _, err := os.Stat(filepath.Join(empty["SQUARELY_DATA_DIR"], "squarely.db")); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%v made a database: %v", args, err)
					}
				}
				// This test's instance has run.
				st, err := store.Open(ctx, "", env["SQUARELY_DATA_DIR"])
				if err != nil {
					t.Fatal(err)
				}
				st.Close()
			}
			code, _, errOut := runCmd(t, env, "admin", "create-user", "not-an-address")
			if code != 2 || !strings.Contains(errOut, "is not an e-mail address") {
				t.Errorf("bad address: exit %d, stderr %q", code, errOut)
			}
			code, out, errOut := runCmd(t, env, "admin", "create-user", " New.Hire@Example.com ")
			if code != 0 || !strings.Contains(out, "created new.hire@example.com") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			token := out[strings.Index(out, "https://qr.example.com/set-password?token=")+len("https://qr.example.com/set-password?token="):]
			token = strings.TrimSpace(token)
			st, err := store.Open(ctx, env["DATABASE_URL"], env["SQUARELY_DATA_DIR"])
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := st.UserByUsername(ctx, "new.hire@example.com"); err != nil {
				t.Fatalf("account: %v", err)
			}
			if ok, err := st.PasswordTokenValid(ctx, store.LinkSetPassword, store.TokenHash(token), time.Now()); err != nil || !ok {
				t.Errorf("the printed link does not work: %v %v", ok, err)
			}
			// The queued mail renders with the link the running server will send.
			m, err := st.ClaimQueuedMail(ctx)
			if err != nil || m.To != "new.hire@example.com" || m.Template != "account_created" {
				t.Fatalf("queued mail %+v, %v", m, err)
			}
			msg, err := mail.Render(m.To, m.Template, mail.Data{BaseURL: "https://qr.example.com", Fields: m.Fields})
			if err != nil || !strings.Contains(msg.Text, "https://qr.example.com/set-password?token="+token) {
				t.Errorf("mail %+v, %v", msg, err)
			}
			if code, _, errOut := runCmd(t, env, "admin", "create-user", "new.hire@example.com"); code != 1 || !strings.Contains(errOut, "already has an account") {
				t.Errorf("twice: exit %d, stderr %q", code, errOut)
			}
		})
	}
}

// syncBuffer is written by the server's logger while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestServeAndShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	env := envOf(map[string]string{"SQUARELY_ADDR": "127.0.0.1:0", "SQUARELY_DATA_DIR": t.TempDir()})
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, env, &logs, &logs) }()

	addr := regexp.MustCompile(`msg=listening addr=(\S+)`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		if m = addr.FindStringSubmatch(logs.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", logs.String())
		}
	}
	// The recorder's and the collector's processors (main.go): two more than the cores, the environment being silent.
	t.Cleanup(func() { runtime.GOMAXPROCS(cores) })
	if got := runtime.GOMAXPROCS(0); got != cores+2 {
		t.Errorf("GOMAXPROCS %d on %d cores, want %d", got, cores, cores+2)
	}
	if !strings.Contains(logs.String(), "Google sign-in is off") || strings.Count(logs.String(), "e-mail is off") != 1 ||
		!strings.Contains(logs.String(), "Payments are off") || !strings.Contains(logs.String(), "baseURL=http://localhost:0") {
		t.Errorf("start log:\n%s", logs.String())
	}
	resp, err := http.Get("http://" + m[1] + "/api/user")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/user: %d", resp.StatusCode)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not shut down")
	}
}

func TestDeleteExpiredSessions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := &store.User{Username: "s@example.com", Email: "s@example.com"}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		past := time.Now().Add(-time.Hour)
		for id, expires := range map[string]time.Time{"expired": past, "live": time.Now().Add(time.Hour)} {
			if err := st.CreateSession(ctx, &store.Session{ID: id, UserID: u.ID, CreatedAt: past.Add(-time.Hour), ExpiresAt: expires}); err != nil {
				t.Fatal(err)
			}
		}
		var logs syncBuffer
		bg, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { deleteExpiredSessions(bg, st, slog.New(slog.NewTextHandler(&logs, nil))); close(done) }()
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "count=1"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no deletion logged: %s", logs.String())
			}
		}
		cancel()
		<-done
		if n, err := st.DeleteExpiredSessions(ctx, time.Now().Add(30*time.Minute)); err != nil || n != 0 {
			t.Errorf("expired session left behind: %d, %v", n, err)
		}
		if _, _, err := st.SessionUser(ctx, "live", time.Now(), time.Hour); err != nil {
			t.Errorf("live session removed: %v", err)
		}
	})
}

func TestNewMailer(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	cfg, err := config.Load(envOf(map[string]string{
		"SQUARELY_SMTP_URL":  "smtps://mailer:hunter2@mail.example.com",
		"SQUARELY_MAIL_FROM": "Squarely <hello@example.com>",
	}))
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMailer(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*mail.SMTPMailer); !ok {
		t.Errorf("mailer %T, want SMTP", m)
	}
	if out := logs.String(); !strings.Contains(out, "e-mail goes out through SMTP") || !strings.Contains(out, "server=mail.example.com") || strings.Contains(out, "hunter2") {
		t.Errorf("start log: %s", out)
	}

	off, err := newMailer(config.Config{}, log)
	if _, ok := off.(mail.LogMailer); err != nil || !ok {
		t.Errorf("without SMTP: %T, %v", off, err)
	}
}
