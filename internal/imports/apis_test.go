package imports_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/imports"
	"github.com/squarely/squarely/internal/imports/importstest"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/testenv"
)

// The fakes answer the services' own npm clients (Kutt's, Dub's SDK,
// which checks every link against its schema, and Bitly's), page after
// page: what the importers are tested against is what those services send.
func TestFakesAnswerTheServicesOwnClients(t *testing.T) {
	node := testenv.Command(t, "node")
	const n = 230
	for _, source := range []string{"kutt", "dub", "bitly"} {
		t.Run(source, func(t *testing.T) {
			fake := importstest.Start(t, source, "secret", n)
			cmd := exec.Command(node, filepath.Join("..", "..", "e2e", "tools", "shortener-clients.cjs"), source, fake.URL, "secret")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.ExitCode() == 3 {
				testenv.Need(t, false, source+"'s client is not installed (cd e2e && npm ci)")
			}
			if err != nil {
				t.Fatalf("%s's client refused the fake: %v\n%s", source, err, stderr.String())
			}
			var links []struct{ ShortCode, Destination, Title string }
			if err := json.Unmarshal(out, &links); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if len(links) != n {
				t.Fatalf("the client listed %d links, want %d", len(links), n)
			}
			for i, l := range links {
				want := importstest.Want(source, i+1)
				if l.ShortCode != want.ShortCode || l.Destination != want.Destination || l.Title != want.Title {
					t.Errorf("link %d: %+v, want %s %s %q", i+1, l, want.ShortCode, want.Destination, want.Title)
				}
			}
		})
	}
}

// Each importer reads every page of a fake of its service speaking the
// service's documented API; a wrong key is said clearly; a private or
// plain-http address is refused before any request.
func TestImportersReadTheirServices(t *testing.T) {
	const n = 230 // over two pages of every service's page size
	for _, source := range []string{"kutt", "shlink", "yourls", "dub", "bitly"} {
		t.Run(source, func(t *testing.T) {
			fake := importstest.Start(t, source, "secret", n)
			open := &imports.Client{Policy: netguard.Policy{AllowHTTP: true, AllowPrivate: true}, Tries: 1}
			links, err := open.Fetch(context.Background(), source, fake.URL, "secret")
			if err != nil {
				t.Fatal(err)
			}
			if len(links) != n {
				t.Fatalf("%d links, want %d (requests: %d)", len(links), n, fake.Requests.Load())
			}
			seen := map[string]bool{}
			for _, l := range links {
				seen[l.ShortCode] = true
				if l.Destination == "" {
					t.Errorf("%s: no destination", l.ShortCode)
				}
			}
			if len(seen) != n {
				t.Errorf("%d distinct short codes, want %d", len(seen), n)
			}
			want := importstest.Want(source, 1)
			first := links[0]
			for _, l := range links {
				if l.ShortCode == want.ShortCode {
					first = l
				}
			}
			if first.ShortCode != want.ShortCode || first.Destination != want.Destination || first.Title != want.Title ||
				first.Clicks != want.Clicks || strings.Join(first.Tags, ",") != strings.Join(want.Tags, ",") ||
				first.CreatedAt == nil || !first.CreatedAt.Equal(*want.CreatedAt) || first.ShortURL != want.ShortURL {
				t.Errorf("%+v, want %+v", first, want)
			}

			// An API's base given with its path reads the same.
			withPath := map[string]string{"kutt": "/api/v2", "shlink": "/rest/v3", "yourls": "/yourls-api.php", "dub": "/", "bitly": "/v4"}[source]
			if again, err := open.Fetch(context.Background(), source, fake.URL+withPath, "secret"); err != nil || len(again) != n {
				t.Errorf("baseUrl %s: %d links, %v", fake.URL+withPath, len(again), err)
			}

			_, err = open.Fetch(context.Background(), source, fake.URL, "wrong")
			var rf *imports.Refused
			if !errors.As(err, &rf) || !strings.Contains(rf.Message, "refused the API key") {
				t.Errorf("a wrong key: %v", err)
			}

			before := fake.Requests.Load()
			for _, policy := range []netguard.Policy{{AllowHTTP: true}, {AllowPrivate: true}} {
				c := &imports.Client{Policy: policy}
				if _, err := c.Fetch(context.Background(), source, fake.URL, "secret"); !errors.As(err, &rf) {
					t.Errorf("%+v: %v, want a refusal", policy, err)
				}
			}
			if fake.Requests.Load() != before {
				t.Errorf("a refused address was requested")
			}
		})
	}
}

// A 5xx is tried again; a service that keeps failing is said clearly.
func TestImporterRetries(t *testing.T) {
	var calls atomic.Int32
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 || down.Load() {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		json.NewEncoder(w).Encode([]map[string]any{{"key": "a", "url": "https://example.com/a", "createdAt": time.Now()}})
	}))
	defer srv.Close()
	c := &imports.Client{Policy: netguard.Policy{AllowHTTP: true, AllowPrivate: true}, Tries: 2}
	links, err := c.Fetch(context.Background(), "dub", srv.URL, "k")
	if err != nil || len(links) != 1 || calls.Load() != 2 {
		t.Fatalf("%v, %v after %d calls", links, err, calls.Load())
	}
	down.Store(true)
	_, err = c.Fetch(context.Background(), "dub", srv.URL, "k")
	var rf *imports.Refused
	if !errors.As(err, &rf) || !strings.Contains(rf.Message, "503") {
		t.Errorf("still failing: %v", err)
	}
	if _, err := c.Fetch(context.Background(), "rebrandly", srv.URL, "k"); !errors.As(err, &rf) {
		t.Errorf("an unknown source: %v", err)
	}
}
