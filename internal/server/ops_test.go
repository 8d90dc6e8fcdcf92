package server

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/logging"
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// Operations (issue 25).

// withJSONLogs logs JSON lines, as SQUARELY_LOG_FORMAT=json does.
func withJSONLogs(e **env) option {
	return func(d *Deps) { d.Logger = logging.New(logSink{e}, "json", 0) }
}

// logSink writes to the env's log buffer once start has made it.
type logSink struct{ e **env }

func (s logSink) Write(p []byte) (int, error) { return (*s.e).logs.Write(p) }

// logLines decodes the JSON log lines whose request_id is id.
func logLines(t *testing.T, logs, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if m["request_id"] == id {
			out = append(out, m)
		}
	}
	return out
}

func TestRequestIDs(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		for _, trust := range []bool{false, true} {
			var e *env
			e = start(t, st, withJSONLogs(&e), withConfig(func(c *config.Config) { c.TrustProxy = trust }))
			c := e.browser()

			// Every answer has an id, a fresh one per request; the proxy's is
			// kept only behind a trusted proxy, and only when well-formed.
			a := e.do(c, "GET", "/api/user", "", "X-Request-Id", "proxy-id-1")
			b := e.do(c, "GET", "/d/nothing", "")
			ida, idb := a.Header.Get("X-Request-Id"), b.Header.Get("X-Request-Id")
			if trust && ida != "proxy-id-1" || !trust && (ida == "proxy-id-1" || len(ida) != 26) || len(idb) != 26 || ida == idb {
				t.Errorf("trust %v: ids %q and %q", trust, ida, idb)
			}
			for _, bad := range []string{"two words", strings.Repeat("x", 129), "quote\"d"} {
				r := e.do(c, "GET", "/healthz", "", "X-Request-Id", bad)
				if id := r.Header.Get("X-Request-Id"); id == bad || len(id) != 26 {
					t.Errorf("trust %v: id %q kept as %q", trust, bad, id)
				}
			}
			// The request line carries the id.
			if lines := logLines(t, e.logs.String(), ida); len(lines) != 1 || lines[0]["msg"] != "request" || lines[0]["path"] != "/api/user" {
				t.Errorf("trust %v: log lines of %s: %v\n%s", trust, ida, lines, e.logs.String())
			}
		}

		// A handler's own log line and the request line share the id.
		var e *env
		e = start(t, st, withJSONLogs(&e))
		c := e.browser()
		body := `{"name":"Ann","email":"ann@example.com","subject":"Hello there","message":"A question about codes","inquiryType":"general"}`
		r := e.do(c, "POST", "/api/contact", body)
		expect(t, r, http.StatusCreated, "")
		lines := logLines(t, e.logs.String(), r.Header.Get("X-Request-Id"))
		if len(lines) != 2 || !strings.Contains(lines[0]["msg"].(string), "not mailed") || lines[1]["msg"] != "request" {
			t.Errorf("contact's log lines: %v\n%s", lines, e.logs.String())
		}
		// So does an internal error's.
		st.Close()
		r = e.do(c, "POST", "/api/contact", strings.Replace(body, "ann@", "bob@", 1))
		expect(t, r, http.StatusInternalServerError, "Internal server error")
		lines = logLines(t, e.logs.String(), r.Header.Get("X-Request-Id"))
		if len(lines) != 2 || lines[0]["msg"] != "internal error" || lines[0]["level"] != "ERROR" || lines[1]["status"] != float64(500) {
			t.Errorf("internal error's log lines: %v\n%s", lines, e.logs.String())
		}
	})
}

// promtoolCheck runs `promtool check metrics` on an exposition.
func promtoolCheck(t *testing.T, exposition []byte) {
	t.Helper()
	cmd := exec.Command(testenv.Command(t, "promtool"), "check", "metrics")
	cmd.Stdin = bytes.NewReader(exposition)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

func TestMetrics(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		const token = "0123456789abcdef-metrics"
		var e *env
		e = start(t, st, withJSONLogs(&e), withConfig(func(c *config.Config) { c.MetricsToken = token }),
			func(d *Deps) { d.Metrics = metrics.New(d.Store, d.Logger) })
		c := e.browser()
		expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		expect(t, e.do(c, "GET", "/api/user", ""), http.StatusUnauthorized, "")
		expect(t, e.do(c, "GET", "/api/no-such-thing", ""), http.StatusNotFound, "Not found")
		e.do(c, "GET", "/d/nothing", "")
		e.do(c, "GET", "/dashboard", "")
		e.do(c, "GET", "/pricing", "") // no page of the app: 404
		e.do(c, "BREW", "/api/user", "")

		for _, auth := range []string{"", "Bearer wrong", token, "Bearer " + token + "x"} {
			r := e.do(c, "GET", "/metrics", "", "Authorization", auth)
			expect(t, r, http.StatusUnauthorized, "A valid metrics token is required.")
		}
		r := e.do(c, "GET", "/metrics", "", "Authorization", "Bearer "+token)
		body := string(r.body)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("metrics with the token: %d %s", r.StatusCode, body)
		}
		pools := map[string]string{store.SQLite: `db_name="write"`, store.Postgres: `db_name="main"`}[st.Dialect()]
		for _, want := range []string{
			`squarely_http_requests_total{method="GET",route="GET /api/user",status="401"} 2`,
			`squarely_http_requests_total{method="GET",route="/api/",status="404"} 1`,
			`squarely_http_requests_total{method="GET",route="GET /d/{shortCode}",status="404"} 1`,
			`squarely_http_requests_total{method="GET",route="/",status="200"} 1`,
			`squarely_http_requests_total{method="GET",route="/",status="404"} 1`,
			`squarely_http_requests_total{method="OTHER",route="/api/",status="405"} 1`,
			`squarely_http_request_duration_seconds_bucket{method="GET",route="GET /api/user",status="401",le="+Inf"} 2`,
			"\nsquarely_scans_dropped_total 0\n", "\nsquarely_scans_queued 0\n", "\nsquarely_redirects_stale_total 0\n",
			`squarely_jobs{kind="bulk",state="queued"} 0`, `squarely_jobs{kind="mailing",state="sending"} 0`,
			`squarely_mails_total{result="sent"} 0`, `squarely_build_info{build_time=`,
			"go_goroutines ", "process_resident_memory_bytes ", "go_sql_max_open_connections{" + pools + "}",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		promtoolCheck(t, r.body)
		// The metrics count a request once, by its pattern, with no personal data.
		if strings.Contains(body, "nothing") || strings.Contains(body, "no-such-thing") {
			t.Errorf("metrics name a path:\n%s", body)
		}

		// Without a token, the public listener has no /metrics.
		e = start(t, st, func(d *Deps) { d.Metrics = metrics.New(d.Store, d.Logger) })
		if r := e.do(e.browser(), "GET", "/metrics", "", "Authorization", "Bearer "+token); strings.Contains(string(r.body), "squarely_") {
			t.Errorf("public /metrics without a token: %d %s", r.StatusCode, r.body)
		}
	})
}

func TestAccountExport(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		expect(t, e.do(c, "GET", "/api/account/export", ""), http.StatusUnauthorized, "")
		e.register(c, "export@example.com", "correct horse battery")
		u, err := st.UserByUsername(context.Background(), "export@example.com")
		if err != nil {
			t.Fatal(err)
		}
		mine := storetest.CreateDynamic(t, st, u.ID, "mine1")
		// A chosen short code on a verified domain prints at its root.
		ws := storetest.Personal(t, st, u.ID)
		if err := st.CreateDomain(context.Background(), ws, &store.Domain{Domain: "qr.export.example", Token: "t"}, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		var domainID int64
		storetest.QueryRow(t, st, `UPDATE workspace_domains SET verified_at = created_at, pointed_at = created_at, method = 'dns' RETURNING id`, nil, &domainID)
		onDomain := storetest.NewDynamic(u.ID, "autumn")
		onDomain.DomainID, onDomain.ShortCodeChosen = &domainID, true
		if err := st.CreateDynamicCode(context.Background(), onDomain, 0); err != nil {
			t.Fatal(err)
		}
		other := storetest.CreateUser(t, st, "other@example.com")
		storetest.CreateDynamic(t, st, other.ID, "theirs1")
		scan := store.ScanEvent{CodeID: mine.ID, ScannedAt: time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC), DeviceType: "=cmd", Country: "DE", VisitorHash: "v"}
		if err := st.RecordScans(context.Background(), []store.ScanEvent{scan}); err != nil {
			t.Fatal(err)
		}

		expect(t, e.do(c, "POST", "/api/brand-kits", `{"name":"Export kit","fgColor":"#123456"}`), http.StatusCreated, "")
		r := e.do(c, "GET", "/api/account/export", "")
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/zip" ||
			!strings.HasPrefix(r.Header.Get("Content-Disposition"), `attachment; filename="squarely-export-2026-03-01.zip"`) {
			t.Fatalf("export: %d %v", r.StatusCode, r.Header)
		}
		zr, err := zip.NewReader(bytes.NewReader(r.body), int64(len(r.body)))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, f := range zr.File {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			files[f.Name] = string(b)
		}
		if !strings.Contains(files["codes.json"], `"ShortCode": "mine1"`) || strings.Contains(files["codes.json"], "theirs1") ||
			!strings.Contains(files["codes.json"], `"ShortURL": "http://localhost:8080/d/mine1"`) ||
			!strings.Contains(files["codes.json"], `"ShortURL": "https://qr.export.example/autumn"`) ||
			!strings.Contains(files["codes.json"], `"Name": "Export kit"`) || !strings.Contains(files["codes.json"], `#123456`) {
			t.Errorf("codes.json:\n%s", files["codes.json"])
		}
		if files["scans.csv"] != "short_code,scanned_at,device_type,os,browser,referrer,visitor,is_bot,country\nmine1,2026-02-01T10:00:00Z,'=cmd,,,,v,false,DE\n" {
			t.Errorf("scans.csv:\n%s", files["scans.csv"])
		}
		if !strings.Contains(files["redirects/nginx.conf"], `"0 /d/mine1" "https://example.com/menu";`) || strings.Contains(files["redirects/nginx.conf"], "theirs1") ||
			files["redirects/html/d/mine1/index.html"] == "" || !strings.Contains(files["redirects/Caddyfile"], "\t\t/d/mine1 \"https://example.com/menu\" \"\"") {
			t.Errorf("redirects: %v", files)
		}
		// By id: the caller's workspace, not another's.
		if r := e.do(c, "GET", fmt.Sprintf("/api/workspaces/%d/export", storetest.Personal(t, st, u.ID)), ""); r.StatusCode != http.StatusOK {
			t.Errorf("own workspace by id: %d %s", r.StatusCode, r.body)
		}
		expect(t, e.do(c, "GET", fmt.Sprintf("/api/workspaces/%d/export", storetest.Personal(t, st, other.ID)), ""), http.StatusNotFound, "")
		// Exports are bounded per workspace.
		for range exportsPerHour - 2 {
			e.do(c, "GET", "/api/account/export", "")
		}
		expect(t, e.do(c, "GET", "/api/account/export", ""), http.StatusTooManyRequests, msgExportLimit)
	})
}
