package server

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// impossibleParams are path values no id, session or short code can be.
var impossibleParams = []string{"%00", "%ff", "a%00b", strings.Repeat("1", 100)}

// routePattern is a route of routes.go that takes a value from its path.
var routePattern = regexp.MustCompile(`"(GET|POST|PUT|PATCH|DELETE) (/[^" ]*\{[^" ]*)"`)

// Every route that takes an id, a session or a short code from its path
// answers an impossible value 404 before any store call: never 500 or 503
// (PostgreSQL refuses NUL and invalid UTF-8 in text). The routes are read
// from routes.go, so a new one is walked too.
func TestImpossiblePathParams(t *testing.T) {
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	routes := routePattern.FindAllStringSubmatch(string(src), -1)
	if len(routes) < 80 {
		t.Fatalf("found %d routes with path values in routes.go", len(routes))
	}
	param := regexp.MustCompile(`\{[^}]+\}`)
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.admin("paths@example.com")
		ws := fmt.Sprint(e.activeWorkspace(c))
		key, _ := e.newKey(c, "paths")
		for _, rt := range routes {
			method, pattern := rt[1], rt[2]
			names := param.FindAllString(pattern, -1)
			for i := range names {
				for _, bad := range impossibleParams {
					n := 0
					path := param.ReplaceAllStringFunc(pattern, func(p string) string {
						defer func() { n++ }()
						switch {
						case n == i:
							return bad
						case p == "{id}" && strings.HasPrefix(pattern, "/api/workspaces/"):
							return ws
						}
						return "1"
					})
					var header []string
					if strings.HasPrefix(path, "/api/v1/") {
						header = []string{"Authorization", "Bearer " + key}
					}
					body := ""
					if method != "GET" && method != "DELETE" {
						body = "{}"
					}
					r := e.do(c, method, path, body, header...)
					if r.StatusCode != http.StatusNotFound {
						t.Errorf("%s %s: %d, want 404; %.200s", method, path, r.StatusCode, r.body)
					}
				}
			}
		}
	})
}

// A NUL short code scanned over and over while a cold cache loads good
// codes in batches fails none of them: it is never looked up (and a batch
// that fails is retried code by code). On PostgreSQL 83 of 120 cold scans
// answered 503 before.
func TestImpossibleShortCodeFailsNoOtherScan(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		_, uid := e.signedIn("cold@example.com")
		codes := make([]string, 120)
		for i := range codes {
			codes[i] = fmt.Sprintf("cold%04d", i)
			storetest.CreateDynamic(t, st, uid, codes[i])
		}
		client := e.srv.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		get := func(path string) (int, error) {
			resp, err := client.Get(e.srv.URL + path)
			if err != nil {
				return 0, err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		var stop atomic.Bool
		var probes sync.WaitGroup
		for _, bad := range []string{"%00", "%ff", "a%00b", "%00", "%ff", "a%00b"} {
			probes.Go(func() {
				for !stop.Load() {
					if status, err := get("/d/" + bad); err != nil || status != http.StatusNotFound {
						t.Errorf("GET /d/%s: %d %v, want 404", bad, status, err)
						return
					}
				}
			})
		}
		var scans sync.WaitGroup
		var failed atomic.Int32
		for _, code := range codes {
			scans.Go(func() {
				if status, err := get("/d/" + code); err != nil || status != http.StatusFound {
					failed.Add(1)
					t.Logf("GET /d/%s: %d %v", code, status, err)
				}
			})
		}
		scans.Wait()
		stop.Store(true)
		probes.Wait()
		if n := failed.Load(); n > 0 {
			t.Errorf("%d of %d cold scans failed beside the impossible codes", n, len(codes))
		}
	})
}
