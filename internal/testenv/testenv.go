// Package testenv lets tests depend on real outside parts (PostgreSQL,
// QR decoders, Chromium) without silently passing when one is missing:
// locally a missing part skips the test, under CI=true it fails it, so a
// green CI run always means every suite ran.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run under CI (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Need skips the test when ok is false, or fails it under CI.
func Need(t testing.TB, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	if InCI() {
		t.Fatalf("required under CI=true: %s", why)
	}
	t.Skip(why)
}

// Command returns the path of an executable the test needs, skipping the
// test (or failing it under CI) when it is not installed.
func Command(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	Need(t, err == nil, name+" is not installed")
	return path
}

// PostgresURL returns TEST_DATABASE_URL, skipping the test (or failing it
// under CI) when it is unset.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("TEST_DATABASE_URL")
	Need(t, url != "", "TEST_DATABASE_URL is not set")
	return url
}
