// Package testenv lets tests depend on real outside parts (PostgreSQL,
// QR decoders, Chromium) without silently passing when one is missing:
// locally a missing part skips the test, under CI=true it fails it, so a
// green CI run always means every suite ran.
package testenv

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
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

// StripeMock starts stripe-mock (Stripe's API simulator) on a free loopback
// port for the test and returns its base URL, skipping the test (or failing
// it under CI) when stripe-mock is not installed. It stops with the test.
func StripeMock(t testing.TB) string {
	t.Helper()
	path := Command(t, "stripe-mock")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// Its HTTPS listener defaults to a fixed port; give it a free one too.
	var out bytes.Buffer
	cmd := exec.Command(path, "-http-addr", addr, "-https-addr", "127.0.0.1:")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting stripe-mock: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	// It reads Stripe's whole OpenAPI spec first: seconds on a busy machine.
	for deadline := time.Now().Add(90 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case <-exited:
			t.Fatalf("stripe-mock exited: %s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock did not listen on %s", addr)
		}
	}
}

// PDFText returns the text of a PDF as poppler's pdftotext reads it, pages
// separated by form feeds, failing the test when the file does not open.
// The embedding marks pdftotext puts around right-to-left text (U+202A to
// U+202E) are left out, so tests compare the characters alone.
func PDFText(t testing.TB, pdf []byte) string {
	t.Helper()
	tool := Command(t, "pdftotext")
	cmd := exec.Command(tool, "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || errOut.Len() > 0 {
		t.Fatalf("pdftotext: %v %s", err, errOut.String())
	}
	return strings.Map(func(r rune) rune {
		if r >= 0x202a && r <= 0x202e {
			return -1
		}
		return r
	}, out.String())
}

// Clock is a test's time, moved by hand; pass its Now as a runner's clock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set puts the clock at now.
func (c *Clock) Set(now time.Time) {
	c.mu.Lock()
	c.now = now
	c.mu.Unlock()
}
