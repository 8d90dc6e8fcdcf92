package web

import (
	"strings"
	"testing"
)

func TestRoutes(t *testing.T) {
	paths := Routes()
	seen := map[string]bool{}
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") || seen[p] {
			t.Errorf("route %q: not absolute or listed twice", p)
		}
		seen[p] = true
	}
	for _, want := range []string{"/", "/dashboard", "/blog/:id"} {
		if !seen[want] {
			t.Errorf("routes lack %s: %v", want, paths)
		}
	}
}
