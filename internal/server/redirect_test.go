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

// BenchmarkRedirect measures a cached scan through the whole handler,
// without the network: a plain code, and a smart one with 10 rules the
// iPhone meets none of and a 3-way split (bench-redirect's smart codes):
// go test -bench Redirect -benchmem.
func BenchmarkRedirect(b *testing.B) {
	ctx := context.Background()
	st := storetest.Open(b)
	u := storetest.CreateUser(b, st, "bench@example.com")
	storetest.CreateDynamic(b, st, u.ID, "benchmk1")
	smart := storetest.CreateDynamic(b, st, u.ID, "benchmk2")
	rule := func(w store.RuleWhen) store.RoutingRule {
		return store.RoutingRule{When: w, Destination: "https://example.com/r"}
	}
	_, err := st.SetDynamicRouting(ctx, storetest.Personal(b, st, u.ID), smart.ID, &store.Routing{
		Rules: []store.RoutingRule{
			rule(store.RuleWhen{OS: []string{"android"}}), rule(store.RuleWhen{OS: []string{"windows", "macos", "linux"}}),
			rule(store.RuleWhen{OS: []string{"ios"}, Country: []string{"DE", "AT", "CH"}}), rule(store.RuleWhen{OS: []string{"ios"}, Language: []string{"fr"}}),
			rule(store.RuleWhen{Country: []string{"US", "CA"}}), rule(store.RuleWhen{Country: []string{"FR", "BE", "LU"}}),
			rule(store.RuleWhen{Language: []string{"de", "nl"}}), rule(store.RuleWhen{Language: []string{"es", "pt", "it"}}),
			rule(store.RuleWhen{Days: []string{"sun"}, From: "23:58", To: "23:59", TimeZone: "Europe/Berlin"}),
			rule(store.RuleWhen{OS: []string{"other"}, From: "00:00", To: "00:01", TimeZone: "America/New_York"}),
		},
		Split: []store.SplitVariant{{Destination: "https://example.com/a", Weight: 50}, {Destination: "https://example.com/b", Weight: 30},
			{Destination: "https://example.com/c", Weight: 20}},
	}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	rec := scans.NewRecorder(st, scans.Options{})
	b.Cleanup(func() { rec.Close(ctx) })
	h := New(Deps{Store: st, Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Recorder: rec})
	for name, code := range map[string]string{"plain": "benchmk1", "smart": "benchmk2"} {
		b.Run(name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/d/"+code, nil)
			req.Header.Set("User-Agent", iPhoneUA)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusFound {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}
