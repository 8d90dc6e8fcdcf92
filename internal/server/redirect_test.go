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
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/scans/scanbench"
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
	h := New(Deps{Store: st, Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Recorder: rec, Metrics: metrics.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)))})
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
