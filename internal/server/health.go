package server

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Operations: checks for load balancers and counters for monitoring
// (docs/API.md, "Operations and limits"). They are mounted beside the
// redirects, outside the site's middleware: a probe needs no session and
// is not worth a log line.

// readyTimeout bounds the readiness check's wait for the database.
const readyTimeout = 2 * time.Second

// healthz (GET /healthz) answers 200 while the process serves requests.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz (GET /readyz) answers 200 when the database answers and has every
// migration applied, else 503: take the instance out of rotation.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.store.Ready(ctx); err != nil {
		if ok, held := s.lookupLog.Allow(s.now()); ok {
			s.log.ErrorContext(r.Context(), "readiness check", "unlogged", held, "err", err)
		}
		writeError(w, http.StatusServiceUnavailable, "The database is not ready.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// metrics (GET /metrics) answers the instance's counters in Prometheus'
// text format. They hold no personal data: only totals of this process.
func (s *server) metrics(w http.ResponseWriter, r *http.Request) {
	st := s.recorder.Stats()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	for _, m := range []struct {
		name, kind, help string
		value            int64
	}{
		{"squarely_scans_queued", "gauge", "Scans held in memory, waiting to be saved.", st.Queued},
		{"squarely_scans_queued_bytes", "gauge", "Bytes of the scans held in memory.", st.Bytes},
		{"squarely_scans_saved_total", "counter", "Scans saved to the database.", st.Saved},
		{"squarely_scans_dropped_total", "counter", "Scans dropped because the queue was full or closed.", st.Dropped},
		{"squarely_scans_refused_total", "counter", "Scans the database refused for their data.", st.Refused},
		{"squarely_redirects_stale_total", "counter", "Redirects answered from an expired cache entry while the database failed.", s.redirects.Stale()},
	} {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", m.name, m.help, m.name, m.kind, m.name, m.value)
	}
}
