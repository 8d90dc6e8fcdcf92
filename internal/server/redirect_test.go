package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store/storetest"
)

// BenchmarkRedirect measures a cached scan through the whole handler
// (routing included), without the network: go test -bench Redirect -benchmem.
func BenchmarkRedirect(b *testing.B) {
	ctx := context.Background()
	st := storetest.Open(b)
	u := storetest.CreateUser(b, st, "bench@example.com")
	storetest.CreateDynamic(b, st, u.ID, "benchmk1")
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	rec := scans.NewRecorder(st, scans.Options{})
	b.Cleanup(func() { rec.Close(ctx) })
	h := New(Deps{Store: st, Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Recorder: rec})
	req := httptest.NewRequest("GET", "/d/benchmk1", nil)
	req.Header.Set("User-Agent", iPhoneUA)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusFound {
			b.Fatalf("status %d", w.Code)
		}
	}
}
