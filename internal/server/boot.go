package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// The app's pages carry the answers to the requests the app makes before
// it draws them: who is signed in, the brand, and on the dashboard the
// first page of codes and the trial status. The app reads them from the
// page (web/src/lib/boot.ts) instead of asking, which on a phone saved the
// wait for those requests, one after the other, and their work on the
// page's one thread (BENCHMARKS.md, the dashboard's first card). Each
// answer is what GET of its path answers this request's session now, from
// the app's own API (s.api), so it is the same bytes the app would fetch;
// the session and its workspace are read once for them all.

// bootElementID is the id of the script element holding the answers
// (web/src/lib/boot.ts reads it).
const bootElementID = "squarely-boot"

// bootAnswerMax bounds an answer written into a page: a larger one is
// left for the app to ask for, so a page holds at most a few of these.
const bootAnswerMax = 256 << 10

// bootAnswer is one answer as the page carries it: its status and its
// body, as a string so that nothing in it can end the script element.
type bootAnswer struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// dashboardListPath is the dashboard's first page of codes in view, with
// no search or filter: the path the app asks for (codeListParams in
// web/src/features/dashboard/lib/code-query.ts, prefetchDashboard in its
// api/codes.ts; the e2e speed journey checks the page asks for none of
// these itself).
func dashboardListPath(view string) string {
	return "/api/codes?status=" + view + "&sort=created&order=desc&limit=24"
}

// bootPaths are the paths whose answers the app's page at r needs before
// it draws, past the session's and the brand's, for a signed-in user.
func bootPaths(r *http.Request) []string {
	if !strings.EqualFold(strings.TrimSuffix(path.Clean("/"+r.URL.Path), "/"), "/dashboard") {
		return nil
	}
	q := r.URL.Query()
	switch {
	case q.Get("create") == "true":
		return nil
	case q.Get("view") == "paused":
		return []string{dashboardListPath("paused"), "/api/trial-status"}
	default:
		return []string{dashboardListPath("active"), "/api/trial-status"}
	}
}

// bootScript is the script element of the answers for the app's page at
// r, to go into the page; its session's refreshed cookie, if the session
// slid, goes on w. Nil for a HEAD request, which has no page.
func (s *server) bootScript(w http.ResponseWriter, r *http.Request) []byte {
	if r.Method != http.MethodGet {
		return nil
	}
	answers := map[string]bootAnswer{}
	ask := func(r *http.Request, p string) int {
		a, ok := s.firstAnswer(r, p)
		if ok {
			answers[p] = a
		}
		return a.Status
	}
	// The session and the workspace load as for /api/; a failure to load
	// them, which they answer with an error of their own, leaves the page
	// without answers, and the app asks.
	loaded := &answerRecorder{header: http.Header{}, status: http.StatusOK}
	s.auth.LoadUser(s.loadWorkspace(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		ask(r, "/api/white-label/config")
		if ask(r, "/api/user") == http.StatusOK {
			for _, p := range bootPaths(r) {
				ask(r, p)
			}
		}
	}))).ServeHTTP(loaded, r)
	// A session that slid, or a malformed cookie, re-issues or clears the cookie (auth.LoadUser): the page carries it.
	for _, c := range loaded.header.Values("Set-Cookie") {
		w.Header().Add("Set-Cookie", c)
	}
	data, err := json.Marshal(answers) // escapes <, > and &: no "</script>" inside
	if err != nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteString(`<script type="application/json" id="` + bootElementID + `">`)
	b.Write(data)
	b.WriteString("</script>")
	return b.Bytes()
}

// firstAnswer asks the app's API for GET p as r's session (loaded) would,
// and reports whether the answer can go into the page: a 200 or a 401
// (signed out, which the app reads as nobody) of JSON within bootAnswerMax.
func (s *server) firstAnswer(r *http.Request, p string) (bootAnswer, bool) {
	u, err := url.ParseRequestURI(p)
	if err != nil {
		return bootAnswer{}, false
	}
	req := r.Clone(r.Context())
	req.Method = http.MethodGet
	req.URL = u
	req.RequestURI = p
	req.Body = http.NoBody
	req.ContentLength = 0
	// The page's own caching and encoding do not apply to the answer.
	for _, h := range []string{"If-None-Match", "If-Modified-Since", "Range", "If-Range", "Accept-Encoding"} {
		req.Header.Del(h)
	}
	rec := &answerRecorder{header: http.Header{}, status: http.StatusOK}
	s.api.ServeHTTP(rec, req)
	a := bootAnswer{Status: rec.status, Body: rec.body.String()}
	ct := rec.header.Get("Content-Type")
	ok := (rec.status == http.StatusOK || rec.status == http.StatusUnauthorized) && !rec.over &&
		strings.HasPrefix(ct, "application/json") && rec.header.Get("Content-Encoding") == ""
	return a, ok
}

// answerRecorder keeps an answer of the API in memory, up to bootAnswerMax.
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
	over   bool
}

func (a *answerRecorder) Header() http.Header { return a.header }

func (a *answerRecorder) WriteHeader(status int) {
	if !a.wrote {
		a.status, a.wrote = status, true
	}
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	if a.over || a.body.Len()+len(b) > bootAnswerMax {
		a.over = true
		a.body.Reset()
		return len(b), nil
	}
	return a.body.Write(b)
}
