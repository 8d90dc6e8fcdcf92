// Package metrics is Squarely's Prometheus instrumentation (issue 25): HTTP
// requests by route pattern, the Go runtime and the process, the database
// pools, the scan queue, background jobs, mail and the build. The server
// serves Handler on SQUARELY_METRICS_ADDR (and, with SQUARELY_METRICS_TOKEN,
// on the public /metrics).
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/squarely/squarely/internal/buildinfo"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// Metrics holds the registry and the instruments code updates directly.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// series holds each (route, method, status)'s two series once looked
	// up: the vectors hash the three labels and lock on every lookup.
	series sync.Map // seriesKey → requestSeries
	mails  *prometheus.CounterVec
	log    *slog.Logger
}

// New registers every collector that needs only the store.
func New(st *store.Store, log *slog.Logger) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		registry: reg,
		log:      log,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "squarely_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "squarely_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route pattern, method and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method", "status"}),
		mails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "squarely_mails_total",
			Help: "E-mails handed to the mailer, by result (sent or failed).",
		}, []string{"result"}),
	}
	m.mails.WithLabelValues("sent")
	m.mails.WithLabelValues("failed")
	reg.MustRegister(m.requests, m.duration, m.mails,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "squarely_build_info",
			Help: "Always 1; the labels tell the build (squarely version).",
			ConstLabels: prometheus.Labels{"version": buildinfo.Version, "commit": buildinfo.Commit,
				"build_time": buildinfo.BuildTime, "goversion": buildinfo.GoVersion()},
		}, func() float64 { return 1 }),
		&jobsCollector{store: st, log: log},
	)
	for role, db := range st.Pools() {
		reg.MustRegister(collectors.NewDBStatsCollector(db, role))
	}
	return m
}

// Handler answers the registry in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelError)})
}

// ScanStats is the scan queue's state (scans.Recorder.Stats and
// scans.Cache.Stale).
type ScanStats struct {
	Queued, Bytes, Saved, Dropped, Refused, Stale int64
}

// WatchScans exports the scan queue under the names GET /metrics used
// before this package: read at each scrape.
func (m *Metrics) WatchScans(stats func() ScanStats) {
	for _, s := range []struct {
		name, help string
		counter    bool
		value      func(ScanStats) int64
	}{
		{"squarely_scans_queued", "Scans held in memory, waiting to be saved.", false, func(s ScanStats) int64 { return s.Queued }},
		{"squarely_scans_queued_bytes", "Bytes of the scans held in memory.", false, func(s ScanStats) int64 { return s.Bytes }},
		{"squarely_scans_saved_total", "Scans saved to the database.", true, func(s ScanStats) int64 { return s.Saved }},
		{"squarely_scans_dropped_total", "Scans dropped because the queue was full or closed.", true, func(s ScanStats) int64 { return s.Dropped }},
		{"squarely_scans_refused_total", "Scans the database refused for their data.", true, func(s ScanStats) int64 { return s.Refused }},
		{"squarely_redirects_stale_total", "Redirects answered from an expired cache entry while the database failed.", true, func(s ScanStats) int64 { return s.Stale }},
	} {
		value := func() float64 { return float64(s.value(stats())) }
		if s.counter {
			m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: s.name, Help: s.help}, value))
		} else {
			m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: s.name, Help: s.help}, value))
		}
	}
}

// Observe counts a request and its duration under route, the ServeMux
// pattern that matched ("" when none did).
func (m *Metrics) Observe(route, method string, status int, took time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	key := seriesKey{route, knownMethod(method), status}
	s, ok := m.series.Load(key)
	if !ok {
		labels := []string{key.route, key.method, strconv.Itoa(status)}
		s, _ = m.series.LoadOrStore(key, requestSeries{m.requests.WithLabelValues(labels...), m.duration.WithLabelValues(labels...)})
	}
	series := s.(requestSeries)
	series.count.Inc()
	series.took.Observe(took.Seconds())
}

type seriesKey struct {
	route, method string
	status        int
}

type requestSeries struct {
	count prometheus.Counter
	took  prometheus.Observer
}

// knownMethod keeps the method label to the standard methods: a client
// may send any token as a method.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// Mailer counts what next sends and fails to send. A mail.LogMailer comes
// back as it is: it sends nothing to count, and the server tells that mail
// is off by its type (wrapped, digests and newsletters were "sent" to the
// log whenever metrics were on without SMTP).
func (m *Metrics) Mailer(next mail.Mailer) mail.Mailer {
	if _, logOnly := next.(mail.LogMailer); logOnly {
		return next
	}
	return countingMailer{next, m.mails}
}

type countingMailer struct {
	next  mail.Mailer
	count *prometheus.CounterVec
}

func (c countingMailer) Send(ctx context.Context, msg mail.Message) error {
	err := c.next.Send(ctx, msg)
	if err != nil {
		c.count.WithLabelValues("failed").Inc()
	} else {
		c.count.WithLabelValues("sent").Inc()
	}
	return err
}

// jobsCollector counts the background jobs by kind and state at each
// scrape, from the database (the jobs of every instance).
type jobsCollector struct {
	store *store.Store
	log   *slog.Logger
}

var jobsDesc = prometheus.NewDesc("squarely_jobs", "Background jobs in the database, by kind and state.", []string{"kind", "state"}, nil)

// jobStates are the states reported even when no job is in them.
var jobStates = map[string][]string{
	"bulk":    {"queued", "running", "done", "failed"},
	"mailing": {"queued", "sending", "done"},
}

func (c *jobsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- jobsDesc }

func (c *jobsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := c.store.JobCounts(ctx)
	if err != nil {
		c.log.Warn("counting jobs for metrics", "err", err)
		ch <- prometheus.NewInvalidMetric(jobsDesc, err)
		return
	}
	values := map[[2]string]int64{}
	for kind, states := range jobStates {
		for _, state := range states {
			values[[2]string{kind, state}] = 0
		}
	}
	for _, n := range counts {
		values[[2]string{n.Kind, n.State}] = n.Count
	}
	for k, v := range values {
		ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(v), k[0], k[1])
	}
}
