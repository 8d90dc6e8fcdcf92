package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// staticBinary is the binary `make build-static` wrote (the Makefile's
// go-test passes its path), or one built here without cgo for a run of
// this test alone.
func staticBinary(t *testing.T) string {
	if bin := os.Getenv("SQUARELY_STATIC_BINARY"); bin != "" {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	bin := filepath.Join(t.TempDir(), "squarely")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// inEmptyRoot runs the binary copied to root as /squarely, chrooted there:
// as root directly, otherwise in a new user namespace where the test's
// user is root.
func inEmptyRoot(root string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command("/squarely", args...)
	cmd.Path = "/squarely"
	cmd.Dir = "/"
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root}
	if uid := os.Geteuid(); uid != 0 {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	}
	return cmd
}

// TestStaticBinaryInEmptyRoot: the binary alone, in a directory holding
// nothing else (no /etc, no /usr/share/zoneinfo, no CA roots, no libc),
// serves, answers analytics in America/New_York from its embedded time
// zones, passes its own healthcheck and backs up while it serves.
func TestStaticBinaryInEmptyRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root := t.TempDir()
	bin, err := os.ReadFile(staticBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "squarely"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := []string{"SQUARELY_ADDR=" + addr, "SQUARELY_DATA_DIR=/data"}

	var logs syncBuffer
	server := inEmptyRoot(root, env)
	server.Stdout, server.Stderr = &logs, &logs
	if err := server.Start(); err != nil {
		t.Fatalf("starting in %s: %v", root, err)
	}
	t.Cleanup(func() {
		server.Process.Signal(syscall.SIGTERM)
		server.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the server in the empty root did not become ready")
		}
	}

	// A page of the app, a user, and analytics in a zone only tzdata knows here.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	if status, _ := get("/"); status != http.StatusOK {
		t.Errorf("GET /: %d", status)
	}
	resp, err := client.Post(base+"/api/register", "application/json",
		strings.NewReader(`{"email":"root@example.com","password":"correct horse battery"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d", resp.StatusCode)
	}
	status, body := get("/api/analytics?from=2026-01-10&to=2026-01-16&tz=America/New_York")
	var report struct{ From, TimeZone string }
	if err := json.Unmarshal(body, &report); status != http.StatusOK || err != nil {
		t.Fatalf("analytics: %d %s", status, body)
	}
	if report.TimeZone != "America/New_York" || report.From != "2026-01-10T00:00:00-05:00" {
		t.Errorf("analytics in New York: from %q, zone %q", report.From, report.TimeZone)
	}
	if status, body := get("/api/analytics?tz=Atlantis/Central"); status != http.StatusBadRequest {
		t.Errorf("unknown zone: %d %s", status, body)
	}

	run := func(args ...string) (int, string) {
		t.Helper()
		var out bytes.Buffer
		cmd := inEmptyRoot(root, env, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode(), out.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out.String()
	}
	if code, out := run("healthcheck"); code != 0 || !strings.Contains(out, "200 OK") {
		t.Errorf("healthcheck: exit %d, %s", code, out)
	}
	if code, out := run("healthcheck", "--url", base+"/api/nowhere"); code != 1 || !strings.Contains(out, "404") {
		t.Errorf("healthcheck of a 404: exit %d, %s", code, out)
	}
	if code, out := run("version"); code != 0 || !strings.Contains(out, "squarely ") || !strings.Contains(out, "go1.") {
		t.Errorf("version: exit %d, %s", code, out)
	}

	// The backup, taken while the server runs, holds the user.
	if code, out := run("backup", "/data/backup.db"); code != 0 {
		t.Fatalf("backup: exit %d, %s", code, out)
	}
	if code, out := run("backup", "/data/backup.db"); code != 1 || !strings.Contains(out, "already exists") {
		t.Errorf("backup over a file: exit %d, %s", code, out)
	}
	restored := t.TempDir()
	if err := os.Rename(filepath.Join(root, "data", "backup.db"), filepath.Join(restored, "squarely.db")); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenExisting(context.Background(), "", restored)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.UserByUsername(context.Background(), "root@example.com"); err != nil {
		t.Errorf("the backup lacks the user: %v", err)
	}
	if err := st.Ready(context.Background()); err != nil {
		t.Errorf("the backup is not fully migrated: %v", err)
	}
}
