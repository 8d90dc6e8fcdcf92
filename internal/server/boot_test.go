package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const bootShell = `<!doctype html><html><head><title>shell</title></head><body><div id="root"></div></body></html>`

var bootElement = regexp.MustCompile(`(?s)<script type="application/json" id="squarely-boot">(.*?)</script>`)

// bootAnswers reads the answers a page of the app carries, failing the
// test unless the page is the shell with exactly one such element, before
// </body>, and no other script.
func bootAnswers(t *testing.T, page []byte) map[string]bootAnswer {
	t.Helper()
	s := string(page)
	m := bootElement.FindAllStringSubmatch(s, -1)
	if len(m) != 1 || strings.Count(s, "<script") != 1 || strings.Count(s, "</script>") != 1 ||
		strings.Replace(s, m[0][0], "", 1) != bootShell || !strings.HasSuffix(s, m[0][0]+"</body></html>") {
		t.Fatalf("page is not the shell with one element of answers before </body>:\n%s", s)
	}
	var answers map[string]bootAnswer
	if err := json.Unmarshal([]byte(m[0][1]), &answers); err != nil {
		t.Fatalf("answers %q: %v", m[0][1], err)
	}
	return answers
}

// The shell of the app's pages carries the answers the app asks for before
// drawing (boot.go): the session's own, never stored, nothing in them able
// to end their element, and the same bodies the API gives.
func TestShellCarriesFirstAnswers(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withWeb(fstest.MapFS{"index.html": {Data: []byte("landing")}, "spa.html": {Data: []byte(bootShell)}}))
		page := func(c *http.Client, path string, header ...string) *response {
			t.Helper()
			r := e.do(c, "GET", path, "", append([]string{"Accept-Encoding", "identity"}, header...)...)
			if r.StatusCode != http.StatusOK || r.Header.Get("Cache-Control") != "no-store" || !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Cookie") ||
				!strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || r.Header.Get("ETag") != "" {
				t.Fatalf("%s: %d %v", path, r.StatusCode, r.Header)
			}
			return r
		}
		paths := func(a map[string]bootAnswer) string {
			var ps []string
			for p, v := range a {
				ps = append(ps, fmt.Sprintf("%s %d", p, v.Status))
			}
			slices.Sort(ps)
			return strings.Join(ps, "; ")
		}
		active, paused := "/api/codes?status=active&sort=created&order=desc&limit=24", "/api/codes?status=paused&sort=created&order=desc&limit=24"

		// Signed out: nobody, and the brand; no one's codes.
		visitor := e.browser()
		a := bootAnswers(t, page(visitor, "/dashboard").body)
		if got := paths(a); got != "/api/user 401; /api/white-label/config 200" {
			t.Fatalf("signed out: %s", got)
		}
		if a["/api/white-label/config"].Body != string(e.do(visitor, "GET", "/api/white-label/config", "", "Accept-Encoding", "identity").body) {
			t.Errorf("brand differs from the API's: %q", a["/api/white-label/config"].Body)
		}

		// Signed in: a name that would end a script element stays text in its answer.
		evil := "</script>\u2028<script>alert(1)</script><!-- &"
		owner, _ := e.signedIn("boot-owner@example.com")
		expect(t, e.postForm(owner, "/api/qrcodes", part{"qrType", "text", ""}, part{"text", "hello", ""}, part{"name", evil, ""}), http.StatusCreated, "")
		other, _ := e.signedIn("boot-other@example.com")
		expect(t, e.postForm(other, "/api/qrcodes", part{"qrType", "text", ""}, part{"text", "theirs", ""}, part{"name", "Other's code", ""}), http.StatusCreated, "")

		a = bootAnswers(t, page(owner, "/dashboard").body)
		if got, want := paths(a), "/api/codes?status=active&sort=created&order=desc&limit=24 200; /api/trial-status 200; /api/user 200; /api/white-label/config 200"; got != want {
			t.Fatalf("dashboard: %s, want %s", got, want)
		}
		for _, p := range []string{active, "/api/user"} {
			if api := string(e.do(owner, "GET", p, "", "Accept-Encoding", "identity").body); a[p].Body != api {
				t.Errorf("%s in the page differs from the API's:\n%s\n%s", p, a[p].Body, api)
			}
		}
		var list struct{ Items []struct{ Name string } }
		if err := json.Unmarshal([]byte(a[active].Body), &list); err != nil || len(list.Items) != 1 || list.Items[0].Name != evil {
			t.Errorf("owner's list: %+v %v", list, err)
		}
		if theirs := page(other, "/dashboard"); strings.Contains(string(theirs.body), "alert") || !strings.Contains(bootAnswers(t, theirs.body)[active].Body, "Other's code") {
			t.Errorf("the other account's page: %s", theirs.body)
		}

		// The view in the address, its spelling, and the pages that wait on no list.
		for path, want := range map[string]string{
			"/Dashboard/?view=paused":   paused + " 200; /api/trial-status 200; /api/user 200; /api/white-label/config 200",
			"/dashboard?create=true":    "/api/user 200; /api/white-label/config 200",
			"/account-settings":         "/api/user 200; /api/white-label/config 200",
			"/dashboard?view=%ZZ&x=%00": active + " 200; /api/trial-status 200; /api/user 200; /api/white-label/config 200",
		} {
			if got := paths(bootAnswers(t, page(owner, path).body)); got != want {
				t.Errorf("%s: %s, want %s", path, got, want)
			}
		}

		// Compressed, the same page; HEAD has none; a path that is no page keeps the plain shell.
		r := e.do(owner, "GET", "/dashboard", "", "Accept-Encoding", "gzip")
		if r.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(string(gunzip(t, r.body)), "boot-owner@example.com") {
			t.Errorf("gzip: %v", r.Header)
		}
		if r := e.do(owner, "HEAD", "/dashboard", ""); r.StatusCode != http.StatusOK || len(r.body) != 0 || r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("HEAD: %d %v", r.StatusCode, r.Header)
		}
		if r := e.do(owner, "GET", "/no-such-page", "", "Accept-Encoding", "identity"); r.StatusCode != http.StatusNotFound || string(r.body) != bootShell {
			t.Errorf("not found: %d %q", r.StatusCode, r.body)
		}

		// A malformed session cookie: signed out, and cleared once.
		r = page(visitor, "/dashboard", "Cookie", "squarely_session=%%%")
		if got := paths(bootAnswers(t, r.body)); got != "/api/user 401; /api/white-label/config 200" || len(r.Header.Values("Set-Cookie")) != 1 || r.cookie() == nil || r.cookie().MaxAge >= 0 {
			t.Errorf("malformed cookie: %s %v", got, r.Header.Values("Set-Cookie"))
		}

		// Both accounts at once: each page only ever holds its own session's answers.
		var wg sync.WaitGroup
		for i := range 16 {
			c, mine, theirs := owner, "boot-owner@", "boot-other@"
			if i%2 == 1 {
				c, mine, theirs = other, theirs, mine
			}
			wg.Go(func() {
				r := e.do(c, "GET", "/dashboard", "", "Accept-Encoding", "identity")
				if b := string(r.body); !strings.Contains(b, mine) || strings.Contains(b, theirs) {
					t.Errorf("concurrent page for %s: %s", mine, b)
				}
			})
		}
		wg.Wait()
	})
}

// An answer larger than a page may carry is left for the app to ask for.
func TestAnswerRecorderBound(t *testing.T) {
	rec := &answerRecorder{header: http.Header{}, status: http.StatusOK}
	rec.Write([]byte(strings.Repeat("x", bootAnswerMax)))
	if rec.over || rec.body.Len() != bootAnswerMax {
		t.Fatalf("at the bound: over %v, %d bytes", rec.over, rec.body.Len())
	}
	rec.Write([]byte("y"))
	if !rec.over || rec.body.Len() != 0 {
		t.Fatalf("past the bound: over %v, %d bytes kept", rec.over, rec.body.Len())
	}
}
