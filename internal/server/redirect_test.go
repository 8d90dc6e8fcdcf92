package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// BenchmarkRedirect measures a cached scan through the whole handler
// (routing included), without the network: go test -bench Redirect -benchmem.
func BenchmarkRedirect(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchmarkRedirect(b, nil) })
	// 10 rules an iPhone meets none of, then a 3-way split (issue 23).
	b.Run("smart", func(b *testing.B) {
		dest := "https://example.com/"
		rule := func(w store.RuleWhen) store.RoutingRule {
			return store.RoutingRule{When: w, Destination: dest + "rule"}
		}
		benchmarkRedirect(b, &store.Routing{
			Rules: []store.RoutingRule{
				rule(store.RuleWhen{OS: []string{"android"}}), rule(store.RuleWhen{OS: []string{"windows", "macos"}}),
				rule(store.RuleWhen{OS: []string{"ios"}, Country: []string{"DE"}}), rule(store.RuleWhen{OS: []string{"ios"}, Language: []string{"fr"}}),
				rule(store.RuleWhen{Country: []string{"US", "CA"}}), rule(store.RuleWhen{Country: []string{"FR"}}),
				rule(store.RuleWhen{Language: []string{"de"}}), rule(store.RuleWhen{Language: []string{"es", "it"}}),
				rule(store.RuleWhen{Days: []string{"sun"}, From: "23:58", To: "23:59", TimeZone: "Europe/Berlin"}),
				rule(store.RuleWhen{OS: []string{"other"}, From: "00:00", To: "00:01", TimeZone: "America/New_York"}),
			},
			Split: []store.SplitVariant{{Destination: dest + "a", Weight: 50}, {Destination: dest + "b", Weight: 30}, {Destination: dest + "c", Weight: 20}},
		})
	})
}

func benchmarkRedirect(b *testing.B, routing *store.Routing) {
	ctx := context.Background()
	st := storetest.Open(b)
	u := storetest.CreateUser(b, st, "bench@example.com")
	d := storetest.CreateDynamic(b, st, u.ID, "benchmk1")
	if _, err := st.SetDynamicRouting(ctx, u.ID, d.ID, routing, time.Now()); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	rec := scans.NewRecorder(st, scans.Options{})
	b.Cleanup(func() { rec.Close(ctx) })
	h := New(Deps{Store: st, Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Recorder: rec})
	req := httptest.NewRequest("GET", "/d/benchmk1", nil)
	req.Header.Set("User-Agent", iPhoneUA)
	req.Header.Set("Accept-Language", "en-GB,en;q=0.9")
	req.RemoteAddr = "1.1.1.1:40000"
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusFound {
			b.Fatalf("status %d", w.Code)
		}
	}
}
