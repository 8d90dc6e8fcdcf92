package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

func TestRequestIDOnEveryLine(t *testing.T) {
	var buf bytes.Buffer
	log := New(&buf, "json", slog.LevelInfo).With("component", "test")
	ctx := WithRequestID(context.Background(), "req-1")
	log.InfoContext(ctx, "one")
	log.WithGroup("g").WarnContext(ctx, "two", "k", "v")
	log.Info("three")
	log.DebugContext(ctx, "below the level")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("lines: %q", lines)
	}
	for i, want := range []string{"req-1", "req-1", ""} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil {
			t.Fatal(err)
		}
		got, _ := m["request_id"].(string)
		if g, ok := m["g"].(map[string]any); ok && got == "" {
			got, _ = g["request_id"].(string)
		}
		if got != want || m["component"] != "test" {
			t.Errorf("line %d: %s", i, lines[i])
		}
	}

	buf.Reset()
	New(&buf, "text", slog.LevelError).ErrorContext(ctx, "boom")
	if !strings.Contains(buf.String(), "level=ERROR msg=boom request_id=req-1") {
		t.Errorf("text: %s", buf.String())
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"": false, "a": true, NewRequestID(): true, "3f2c1a9e-0b7d-4c1e-9a55-0c1f6e2d9b11": true,
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01": true,
		"two words": false, "line\nbreak": false, "é": false, strings.Repeat("x", 128): true, strings.Repeat("x", 129): false,
	} {
		if got := ValidRequestID(id); got != want {
			t.Errorf("ValidRequestID(%q) = %v", id, got)
		}
	}
}
