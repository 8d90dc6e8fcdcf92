package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"golang.org/x/crypto/acme/autocert"

	"github.com/squarely/squarely/internal/certs"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/store"
)

// Operations commands (issue 25): what a container image without a shell
// or curl needs, and a backup that runs beside the server.

// healthcheckTimeout bounds `squarely healthcheck`, under Docker's default
// 30-second HEALTHCHECK timeout.
const healthcheckTimeout = 5 * time.Second

// healthcheck exits 0 when the server's /readyz answers 200: by default the
// one SQUARELY_ADDR names, on the loopback address when it names none.
func healthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	flags.SetOutput(stderr)
	target := flags.String("url", "", "the readiness URL to ask (default: http://127.0.0.1:PORT/readyz from SQUARELY_ADDR)")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		return 2
	}
	if *target == "" {
		cfg, err := config.Load(getenv)
		if err != nil {
			fmt.Fprintf(stderr, "squarely: invalid settings:\n%v\n", err)
			return 1
		}
		*target = "http://" + loopback(cfg.Addr) + "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *target, nil)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: healthcheck: %v\n", err)
		return 1
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: healthcheck: %v\n", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "squarely: healthcheck: %s answered %s\n", *target, resp.Status)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", *target, resp.Status)
	return 0
}

// loopback turns a listen address into one to dial: an empty or wildcard
// host becomes 127.0.0.1.
func loopback(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// backup copies the SQLite database to file while the server runs.
func backup(ctx context.Context, file string, getenv func(string) string, stdout, stderr io.Writer) int {
	_, st, ok := openExisting(ctx, getenv, stderr)
	if !ok {
		return 1
	}
	defer st.Close()
	start := time.Now()
	if err := st.Backup(ctx, file); err != nil {
		fmt.Fprintf(stderr, "squarely: backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up to %s in %s\n", file, time.Since(start).Round(time.Millisecond))
	return 0
}

// migrateStatus prints each migration and when it was applied.
func migrateStatus(ctx context.Context, getenv func(string) string, stdout, stderr io.Writer) int {
	_, st, ok := openExisting(ctx, getenv, stderr)
	if !ok {
		return 1
	}
	defer st.Close()
	list, err := st.MigrationStatus(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	pending := 0
	for _, m := range list {
		state := "applied " + m.AppliedAt.UTC().Format(time.RFC3339)
		if m.AppliedAt.IsZero() {
			state = "pending"
			pending++
		}
		fmt.Fprintf(stdout, "%04d %-40s %s\n", m.Version, m.Name, state)
	}
	fmt.Fprintf(stdout, "%s database, %d pending (applied when `squarely serve` starts)\n", st.Dialect(), pending)
	return 0
}

// serveMetrics serves the Prometheus metrics on their own listener (for
// the monitoring network only) until the returned stop is called.
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	log.Info("metrics listening", "addr", ln.Addr().String(), "path", "/metrics")
	return func() { srv.Close() }, nil
}

// Scan retention: how often and in what bites old scan events go.
const (
	retentionEvery = 24 * time.Hour
	retentionBatch = 5000
	retentionPause = 100 * time.Millisecond // between batches: the recorder writes meanwhile
)

// deleteOldScans deletes the scan events older than days, at start and
// then daily, in batches, until ctx ends. Every instance may run it: the
// batches of two instances delete different rows or none.
func deleteOldScans(ctx context.Context, st *store.Store, days int, now func() time.Time, log *slog.Logger) {
	tick := time.NewTicker(retentionEvery)
	defer tick.Stop()
	for {
		before := now().AddDate(0, 0, -days)
		var total int64
		for {
			n, err := st.DeleteScanEventsBefore(ctx, before, retentionBatch)
			total += n
			if err != nil {
				if ctx.Err() == nil {
					log.Error("deleting old scan events", "err", err)
				}
				break
			}
			if n < retentionBatch {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(retentionPause):
			}
		}
		if total > 0 {
			log.Info("deleted old scan events; their days stay in the rollups", "count", total, "retention_days", days)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// serveTLS serves handler over HTTPS on SQUARELY_TLS_ADDR and answers
// SQUARELY_TLS_HTTP_ADDR (ACME HTTP-01, else a redirect to https), beside
// the plain SQUARELY_ADDR listener, which stays for health checks and
// proxies. shutdown stops both like http.Server.Shutdown.
func serveTLS(cfg config.Config, st *store.Store, handler http.Handler, log *slog.Logger) (shutdown func(context.Context) error, err error) {
	var m *autocert.Manager
	if cfg.TLS == "acme" {
		m = certs.NewManager(cfg, st, certs.Options{})
	}
	tlsConfig, err := certs.TLSConfig(cfg, m)
	if err != nil {
		return nil, err
	}
	errorLog := slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	httpsLn, err := net.Listen("tcp", cfg.TLSAddr)
	if err != nil {
		return nil, fmt.Errorf("SQUARELY_TLS_ADDR: %w", err)
	}
	httpLn, err := net.Listen("tcp", cfg.TLSHTTPAddr)
	if err != nil {
		httpsLn.Close()
		return nil, fmt.Errorf("SQUARELY_TLS_HTTP_ADDR: %w", err)
	}
	https := &http.Server{Handler: handler, TLSConfig: tlsConfig, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 2 * time.Minute, WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, ErrorLog: errorLog}
	_, port, _ := net.SplitHostPort(httpsLn.Addr().String())
	plain := &http.Server{Handler: certs.HTTPHandler(port, m, handler), ReadHeaderTimeout: 10 * time.Second, ErrorLog: errorLog}
	go https.Serve(tls.NewListener(httpsLn, tlsConfig))
	go plain.Serve(httpLn)
	log.Info("serving HTTPS", "mode", cfg.TLS, "addr", httpsLn.Addr().String(), "http", httpLn.Addr().String())
	return func(ctx context.Context) error { return errors.Join(https.Shutdown(ctx), plain.Shutdown(ctx)) }, nil
}
