package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/geo/geotest"
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/scans/scanbench"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// BenchmarkRedirect measures a cached scan through the whole handler,
// without the network: a plain code, and a smart one with 12 rules the
// iPhone meets none of and a 3-way split (bench-redirect's smart codes),
// and a GS1 Digital Link resolved from the cache to a lot's recall
// notice: go test -bench Redirect -benchmem.
func BenchmarkRedirect(b *testing.B) {
	ctx := context.Background()
	st := storetest.Open(b)
	u := storetest.CreateUser(b, st, "bench@example.com")
	storetest.CreateDynamic(b, st, u.ID, "benchmk1")
	smart := storetest.CreateDynamic(b, st, u.ID, "benchmk2")
	_, err := st.SetDynamicRouting(ctx, storetest.Personal(b, st, u.ID), smart.ID, scanbench.SmartRouting(0), time.Now())
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	rec := scans.NewRecorder(st, scans.Options{})
	b.Cleanup(func() { rec.Close(ctx) })
	// A GS1 Digital Link product with a lot of its own: the resolver's run.
	if err := st.CreateGS1Product(ctx, storetest.Personal(b, st, u.ID), &store.GS1Product{GTIN: "09506000134352", Name: "Bench",
		Links: `[{"linkType":"gs1:defaultLink","href":"https://example.com/p"}]`,
		Lots:  []store.GS1Lot{{Lot: "L1", Links: `[{"linkType":"gs1:recallStatus","href":"https://example.com/r"}]`}}}, 10, time.Now()); err != nil {
		b.Fatal(err)
	}
	// The smart code's region and city rules look up the scan's place.
	if err := geo.LoadCities(geotest.WriteCities(b, scanbench.Place)); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { geo.LoadCities("") })
	h := New(Deps{Store: st, Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Recorder: rec, Metrics: metrics.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)))})
	for _, run := range []struct{ name, path string }{
		{"plain", "/d/benchmk1"}, {"smart", "/d/benchmk2"}, {"gs1", "/01/09506000134352/10/L1?linkType=gs1:recallStatus"},
	} {
		b.Run(run.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", run.path, nil)
			req.Host = "localhost:8080" // the base host's: scans take the short path
			req.RemoteAddr = "1.1.1.7:40000"
			req.Header.Set("User-Agent", iPhoneUA)
			req.Header.Set("Accept-Language", "en-GB,en;q=0.8")
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusFound && w.Code != http.StatusTemporaryRedirect {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}

// A scan on the base host takes scansFirst's short path; on any other host
// it goes through the mux and the site's wrappers. Both must answer alike:
// status, Location, and the headers every answer carries; and the short
// path's scans are counted under the scan route in /metrics.
func TestScansShortPathAnswersAsTheMux(t *testing.T) {
	st := storetest.Open(t)
	var meter *metrics.Metrics
	e := start(t, st, func(d *Deps) { meter = metrics.New(d.Store, d.Logger); d.Metrics = meter })
	c, _ := e.signedIn("short@example.com")
	code := e.createDynamic(c, "https://example.com/short")["shortCode"].(string)
	paused := e.createDynamic(c, "https://example.com/paused")
	expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(paused)+"/pause", ""), http.StatusOK, "")
	expect(t, e.do(c, "POST", "/api/gs1/products", gs1Product), http.StatusCreated, "")
	h := e.srv.Config.Handler
	answer := func(host, method, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		req.Host = host
		req.Header.Set("User-Agent", iPhoneUA)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	for _, tc := range []struct{ method, path string }{
		{"GET", "/d/" + code}, {"HEAD", "/d/" + code}, {"GET", "/d/" + paused["shortCode"].(string)},
		{"GET", "/d/NoSuchCode1"}, {"GET", "/d/%00"}, {"GET", "/d/"}, {"GET", "/d/."}, {"GET", "/d/a/b"},
		{"GET", "/01/09506000134352/10/L7"}, {"HEAD", "/01/09506000134352?linkType=gs1:pip"}, {"GET", "/01/09520123456788"},
		{"GET", "/01/09506000134353"}, {"GET", "/01/09506000134352//10/L7"}, {"GET", "/01/09506000134352/"},
	} {
		short, long := answer("localhost:8080", tc.method, tc.path), answer("elsewhere.example", tc.method, tc.path)
		if short.Code != long.Code || short.Header().Get("Location") != long.Header().Get("Location") {
			t.Errorf("%s %s: short path %d %q, mux %d %q", tc.method, tc.path, short.Code, short.Header().Get("Location"), long.Code, long.Header().Get("Location"))
		}
		for _, name := range []string{"X-Content-Type-Options", "Referrer-Policy", "Cache-Control", "Content-Type", "Link", "Vary"} {
			if short.Header().Get(name) != long.Header().Get(name) {
				t.Errorf("%s %s: %s %q on the short path, %q through the mux", tc.method, tc.path, name, short.Header().Get(name), long.Header().Get(name))
			}
		}
		if id := short.Header().Get("X-Request-Id"); len(id) != 26 {
			t.Errorf("%s %s: X-Request-Id %q", tc.method, tc.path, id)
		}
	}
	m := httptest.NewRecorder()
	meter.Handler().ServeHTTP(m, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(m.Body.String(), `squarely_http_requests_total{method="GET",route="GET /d/{shortCode}",status="302"} 2`) ||
		!strings.Contains(m.Body.String(), `squarely_http_requests_total{method="HEAD",route="GET /d/{shortCode}",status="302"} 2`) ||
		!strings.Contains(m.Body.String(), `squarely_http_requests_total{method="GET",route="GET /01/",status="307"}`) {
		t.Errorf("the scans are not counted under their route:\n%s", m.Body.String())
	}
}
