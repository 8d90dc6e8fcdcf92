package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/certs/certstest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
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

// TestMetricsListener: SQUARELY_METRICS_ADDR serves the metrics on a
// listener of its own, in a form promtool accepts.
func TestMetricsListener(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	env := envOf(map[string]string{"SQUARELY_ADDR": "127.0.0.1:0", "SQUARELY_DATA_DIR": t.TempDir(),
		"SQUARELY_METRICS_ADDR": "127.0.0.1:0", "SQUARELY_LOG_FORMAT": "json"})
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, env, &logs, &logs) }()
	addr := regexp.MustCompile(`"msg":"metrics listening","addr":"([^"]+)"`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		if m = addr.FindStringSubmatch(logs.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("no metrics listener:\n%s", logs.String())
		}
	}
	resp, err := http.Get("http://" + m[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "squarely_build_info{") ||
		!strings.Contains(string(body), `squarely_mails_total{result="failed"} 0`) {
		t.Errorf("metrics: %d\n%s", resp.StatusCode, body)
	}
	check := exec.Command(testenv.Command(t, "promtool"), "check", "metrics")
	check.Stdin = bytes.NewReader(body)
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d:\n%s", code, logs.String())
	}
}

func TestDeleteOldScans(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "old@example.com")
		code := storetest.CreateDynamic(t, st, u.ID, "oldscans")
		now := time.Now().UTC()
		var events []store.ScanEvent
		for day := range 12 { // a scan a day for twelve days
			events = append(events, store.ScanEvent{CodeID: code.ID, ScannedAt: now.AddDate(0, 0, -day-1), DeviceType: "mobile"})
		}
		if err := st.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		if _, err := st.CloseScanDays(ctx, now); err != nil {
			t.Fatal(err)
		}
		var logs syncBuffer
		bg, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { deleteOldScans(bg, st, 5, time.Now, slog.New(slog.NewTextHandler(&logs, nil))); close(done) }()
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "deleted old scan events"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("nothing deleted: %s", logs.String())
			}
		}
		cancel()
		<-done
		// Days 6 to 12 ago go (the cutoff is the start of the UTC day 5 days ago); the total stays.
		if !strings.Contains(logs.String(), "count=7") {
			t.Errorf("log: %s", logs.String())
		}
		r, err := st.ScanReport(ctx, store.ScanQuery{WorkspaceID: storetest.Personal(t, st, u.ID), From: now.AddDate(0, 0, -30), To: now.Add(time.Hour)})
		if err != nil || r.Scans != 12 {
			t.Errorf("after deleting: %+v, %v", r, err)
		}
	})
}

// TestServeTLSFiles: SQUARELY_TLS=files serves HTTPS with the PEM files
// and sends plain HTTP on SQUARELY_TLS_HTTP_ADDR to https.
func TestServeTLSFiles(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	cert, key, pool := certstest.SelfSigned(t, dir)
	var logs syncBuffer
	env := envOf(map[string]string{"SQUARELY_ADDR": "127.0.0.1:0", "SQUARELY_DATA_DIR": dir, "SQUARELY_TLS": "files",
		"SQUARELY_TLS_CERT": cert, "SQUARELY_TLS_KEY": key, "SQUARELY_TLS_ADDR": "127.0.0.1:0", "SQUARELY_TLS_HTTP_ADDR": "127.0.0.1:0"})
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, env, &logs, &logs) }()
	addrs := regexp.MustCompile(`msg="serving HTTPS" mode=files addr=(\S+) http=(\S+)`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		if m = addrs.FindStringSubmatch(logs.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("no HTTPS listener:\n%s", logs.String())
		}
	}
	client := &http.Client{
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	_, port, _ := net.SplitHostPort(m[1])
	resp, err := client.Get("https://localhost:" + port + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil {
		t.Errorf("https /readyz: %d", resp.StatusCode)
	}
	resp, err = client.Get("http://" + m[2] + "/d/abc?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, httpPort, _ := net.SplitHostPort(m[2]); resp.StatusCode != http.StatusMovedPermanently ||
		resp.Header.Get("Location") != "https://127.0.0.1:"+port+"/d/abc?x=1" || httpPort == port {
		t.Errorf("plain HTTP: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d:\n%s", code, logs.String())
	}
}
