// Command squarely serves the Squarely web product and runs its
// maintenance commands. Run "squarely -h" for usage.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	// The binary runs in an empty root filesystem (issue 25): time zones for
	// analytics and CA roots for outgoing TLS (Stripe, Google, SMTP) are
	// embedded, used only when the host has none.
	_ "time/tzdata"

	_ "golang.org/x/crypto/x509roots/fallback"

	"github.com/squarely/squarely/internal/alerts"
	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/buildinfo"
	"github.com/squarely/squarely/internal/bulk"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/logging"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/outbox"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/qrcli"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/server"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/webhooks"
)

const usage = `Usage:
  squarely [serve]               serve the web app and API (the default)
  squarely admin grant EMAIL     make the user with this e-mail an admin
  squarely admin create-user EMAIL
                                 make an account (any sign-up policy) and mail it a link to
                                 choose its password (queued: the running server sends it)
  squarely qr [flags] TEXT       write a QR code file (squarely qr -h)
  squarely version               print the version, commit, build time and Go version
  squarely healthcheck [--url U] exit 0 if the server's /readyz answers 200, else 1
  squarely backup FILE           copy the SQLite database to FILE while it serves
  squarely migrate status        list the database migrations, applied and pending
  squarely export (--user EMAIL | --workspace ID) [--output FILE]
                                 write a workspace's codes, uploads, scans and redirects as a
                                 ZIP (--user: that user's personal workspace)
  squarely export-redirects --format nginx|caddy|csv|html [--listen PORT|HOST:PORT] [--output PATH] [--pages DIR]
                                 write every forwarding dynamic code's redirect, to serve
                                 the printed codes without Squarely on each host (custom
                                 domains too) as Squarely does (html needs --output DIR);
                                 nginx and caddy also write the hosted pages' files to
                                 --pages (default: squarely-pages beside --output)
  squarely -h                    show this help

Settings come from environment variables (SQUARELY_ADDR, SQUARELY_DATA_DIR,
DATABASE_URL, SQUARELY_BASE_URL, ...); docs/configuration.md lists them all.
Commands other than serve use the same settings to find the database.
`

// cores is how many processors Go chose at start: the CPUs this process
// may use, by its affinity and a container's CPU limit.
var cores = runtime.GOMAXPROCS(0)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program; it returns the exit code. ctx ends the server.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		if len(args) > 0 {
			break
		}
		return serve(ctx, getenv, stderr)
	case "admin":
		if len(args) == 2 && args[0] == "grant" {
			return adminGrant(ctx, args[1], getenv, stdout, stderr)
		}
		if len(args) == 2 && args[0] == "create-user" {
			return adminCreateUser(ctx, args[1], getenv, stdout, stderr)
		}
	case "qr":
		return qrcli.Run(args, os.Stdin, stdout, stderr)
	case "version":
		if len(args) == 0 {
			fmt.Fprintln(stdout, buildinfo.String())
			return 0
		}
	case "healthcheck":
		return healthcheck(ctx, args, getenv, stdout, stderr)
	case "backup":
		if len(args) == 1 {
			return backup(ctx, args[0], getenv, stdout, stderr)
		}
	case "export":
		return export(ctx, args, getenv, stdout, stderr)
	case "export-redirects":
		return exportRedirects(ctx, args, getenv, stdout, stderr)
	case "migrate":
		if len(args) == 1 && args[0] == "status" {
			return migrateStatus(ctx, getenv, stdout, stderr)
		}
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "squarely: unknown command %q\n\n", cmd)
		fmt.Fprint(stderr, usage)
		return 2
	}
	// A known command without the arguments it takes.
	if len(args) == 0 {
		fmt.Fprintf(stderr, "squarely: %s needs arguments\n\n", cmd)
	} else {
		fmt.Fprintf(stderr, "squarely: %s does not take the arguments %q\n\n", cmd, strings.Join(args, " "))
	}
	fmt.Fprint(stderr, usage)
	return 2
}

// open reads the settings and opens the store (running migrations).
func open(ctx context.Context, getenv func(string) string, stderr io.Writer) (config.Config, *store.Store, bool) {
	return openWith(ctx, getenv, stderr, store.Open)
}

// openWith reads the settings and opens the store with opener.
func openWith(ctx context.Context, getenv func(string) string, stderr io.Writer,
	opener func(ctx context.Context, databaseURL, dataDir string) (*store.Store, error)) (config.Config, *store.Store, bool) {
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: invalid settings:\n%v\n", err)
		return cfg, nil, false
	}
	st, err := opener(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return cfg, nil, false
	}
	return cfg, st, true
}

func serve(ctx context.Context, getenv func(string) string, stderr io.Writer) int {
	cfg, st, ok := open(ctx, getenv, stderr)
	if !ok {
		return 1
	}
	defer st.Close()
	log := logging.New(stderr, cfg.LogFormat, cfg.LogLevel)
	// A scan allocates little but often: at Go's default of 100 the
	// collector took 11-17% more of a redirect's CPU than at 200
	// (BENCHMARKS.md, Redirects). An operator's GOGC still wins.
	if getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// Under load the scan recorder holds one of the runtime's Ps for
	// each batch it writes (on SQLite a few hundred milliseconds in
	// SQLite's Go code, on PostgreSQL encoding the COPY), and while the
	// collector runs its background worker holds another (a quarter of
	// the Ps): with as many Ps as cores, the redirects were left a core
	// short or more. Two Ps more keep every core theirs and leave the
	// kernel to share them: on two cores the redirect's p99 went from
	// 1.3-1.6 times the bare handler's with one P more to 1.2-1.4 with two
	// on SQLite, and from 1.9-2.3 to 1.5-1.8 on PostgreSQL, where one P
	// more had gained nothing (BENCHMARKS.md, Redirects). An operator's
	// GOMAXPROCS still wins.
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(cores + 2)
	}

	if indexed, err := st.CodeSearchIndexed(ctx); err == nil && !indexed {
		log.Warn("Code search reads every code of a workspace: the pg_trgm extension was not available when migration 0017 ran (docs/deploy.md, PostgreSQL and several instances, has the SQL that adds its indexes)")
	}
	google := auth.NewGoogle(cfg)
	if google == nil {
		log.Info("Google sign-in is off: set SQUARELY_GOOGLE_CLIENT_ID and SQUARELY_GOOGLE_CLIENT_SECRET to turn it on")
	}
	oidcClient := auth.NewOIDC(cfg)
	if oidcClient == nil {
		log.Info("OpenID Connect sign-in is off: set SQUARELY_OIDC_ISSUER and SQUARELY_OIDC_CLIENT_ID to turn it on")
	} else {
		log.Info("OpenID Connect sign-in is on", "issuer", cfg.OIDCIssuer, "button", cfg.OIDCName, "redirect", oidcClient.RedirectURL)
	}
	mailer, err := newMailer(cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	switch {
	case !cfg.PaymentsEnabled():
		log.Info("Payments are off: set SQUARELY_STRIPE_SECRET_KEY and SQUARELY_STRIPE_PUBLISHABLE_KEY to turn them on")
	case cfg.StripeWebhookSecret == "":
		log.Warn("Stripe webhooks are refused: set SQUARELY_STRIPE_WEBHOOK_SECRET, or subscriptions and payments are never recorded")
	}
	var meter *metrics.Metrics
	if cfg.MetricsEnabled() {
		meter = metrics.New(st, log)
		mailer = meter.Mailer(mailer)
	}
	if cfg.GeoIPCityDB == "" {
		log.Info("Scans are placed by country: set SQUARELY_GEOIP_CITY_DB to a city database (.mmdb) for regions and cities")
	} else if err := geo.LoadCities(cfg.GeoIPCityDB); err != nil {
		log.Error("SQUARELY_GEOIP_CITY_DB: not a readable MaxMind-format city database", "path", cfg.GeoIPCityDB, "err", err)
		return 1
	}
	recorder := scans.NewRecorder(st, scans.Options{Logger: log})
	pageEvents := server.NewPageEvents(st, log) // hosted pages' views and clicks, saved like scans
	redirects := scans.NewCache(st, nil)
	primeRedirects(ctx, st, redirects, log)
	products := gs1.NewCache(&gs1.Products{Store: st}, nil) // the GS1 resolver's
	hostedPages := pages.NewLive(scans.TTL, nil)            // /p/{slug}'s current versions
	gs1Scans := &gs1.Scans{Store: st, Log: log}
	// Sends the admin's mailings, resuming any an instance left unfinished.
	mailingRunner := mailings.NewRunner(mailings.Options{Store: st, Mailer: mailer, BaseURL: cfg.BaseURL, Leased: jobs.Leased{Logger: log}})
	bulkRunner := bulk.NewRunner(st, log, nil)
	// Sends queued mail (the new-device notice).
	mailOutbox := outbox.New(st, mailer, cfg.BaseURL, log)
	// Sends webhook deliveries and scan batches, resuming what any
	// instance left leased once the lease runs out.
	webhookRunner := webhooks.NewRunner(webhooks.Options{Store: st, Mailer: mailer, BaseURL: cfg.BaseURL,
		Policy: server.WebhookPolicy(cfg), Leased: jobs.Leased{Logger: log}})
	// Background work stops, and is waited for, before the store closes.
	bg, stopBG := context.WithCancel(context.Background())
	defer stopBG() // on the early returns; the stop below comes first otherwise
	srv := &http.Server{
		Handler: server.New(server.Deps{Store: st, Background: bg, Config: cfg, Logger: log, Google: google, OIDC: oidcClient,
			Recorder: recorder, PageEvents: pageEvents, Redirects: redirects, GS1: products, Pages: hostedPages, GS1Scans: gs1Scans, Mailer: mailer, Mailings: mailingRunner, Bulk: bulkRunner, Outbox: mailOutbox, Webhooks: webhookRunner, Metrics: meter}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // generous for uploads on slow links
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	log.Info("listening", "addr", ln.Addr().String(), "baseURL", cfg.BaseURL, "database", st.Dialect())
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, meter, log)
		if err != nil {
			fmt.Fprintf(stderr, "squarely: SQUARELY_METRICS_ADDR: %v\n", err)
			return 1
		}
		defer stopMetrics()
	}
	shutdownTLS := func(context.Context) error { return nil }
	if cfg.TLS != "" {
		if shutdownTLS, err = serveTLS(cfg, st, srv.Handler, log); err != nil {
			fmt.Fprintf(stderr, "squarely: %v\n", err)
			return 1
		}
	}

	var wg sync.WaitGroup
	wg.Go(func() { deleteExpiredSessions(bg, st, log) })
	if cfg.ScanRetentionDays > 0 {
		wg.Go(func() { deleteOldScans(bg, st, cfg.ScanRetentionDays, time.Now, log) })
	}
	// On shutdown the runner finishes the message in flight, records it
	// and releases its mailing for the next start (or another instance).
	wg.Go(func() { mailingRunner.Run(bg) })
	// Other instances' edits reach this one's redirect, GS1 and page caches (PostgreSQL).
	wg.Go(func() {
		listenLog := scans.Throttle{Every: time.Minute}
		changed, lost := server.Invalidators(redirects, products, hostedPages)
		st.ListenRedirects(bg, changed, lost, func(err error) {
			if ok, held := listenLog.Allow(time.Now()); ok {
				log.Error("listening for changed redirects; cached codes expire after "+scans.TTL.String(), "unlogged", held, "err", err)
			}
		})
	})
	// Resolved GS1 scans: the last counts are saved at the stop.
	wg.Go(func() { gs1Scans.Run(bg) })
	// Bulk jobs: a job in hand at the stop is released to the next runner.
	wg.Go(func() { bulkRunner.Run(bg) })
	// Queued mail: a message in flight at the stop is finished.
	wg.Go(func() { mailOutbox.Run(bg) })
	// Alerts (issue 24): destination checks, scan drops, their mail and
	// their webhook events (queued in the transaction that raises them). A
	// check in flight at the stop is dropped; its codes come due again.
	alertRunner := alerts.NewRunner(alerts.Options{Store: st, Mailer: mailer, Events: st.EnqueueWebhookEvent, BaseURL: cfg.BaseURL, Logger: log,
		Interval: cfg.LinkCheckInterval,
		Checker: &alerts.Checker{Policy: netguard.Policy{AllowHTTP: true, AllowPrivate: cfg.WebhookAllowPrivate},
			UserAgent: "Squarely link check (+" + cfg.BaseURL + ")"}})
	wg.Go(func() { alertRunner.Run(bg) })
	// Custom domains (issue 32): verified ones are re-checked daily; a
	// lost one's mail goes through the outbox. A check in flight at the
	// stop is dropped; its domain comes due again.
	domainRunner := domains.NewRunner(domains.RunnerOptions{Store: st, Verifier: domains.NewVerifier(cfg.DomainResolver, cfg.DomainHTTPPort, cfg.DomainAllowPrivate),
		BaseURL: cfg.BaseURL, Target: domains.TargetOf(cfg.BaseURL, cfg.PublicIPs), Logger: log})
	wg.Go(func() { domainRunner.Run(bg) })
	// Webhooks: deliveries in flight at the stop finish (10 s at most) and
	// are recorded.
	wg.Go(func() { webhookRunner.Run(bg) })
	defer wg.Wait()
	defer stopBG()

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		log.Error("server stopped", "err", err)
		closeRecorder(context.Background(), recorder, pageEvents, log)
		return 1
	case <-ctx.Done():
	}
	log.Info("shutting down")
	// One deadline for the whole shutdown, under the 30 seconds container
	// platforms wait after SIGTERM before they kill.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	code := 0
	// Requests get at most two thirds of it; the scans they recorded get
	// the rest.
	requestsCtx, cancelRequests := context.WithTimeout(shutdownCtx, shutdownTimeout*2/3)
	defer cancelRequests()
	if err := errors.Join(shutdownTLS(requestsCtx), srv.Shutdown(requestsCtx)); err != nil {
		log.Error("shutdown", "err", err)
		srv.Close() // no request may record a scan after the recorder closes
		code = 1
	}
	// Requests are done: flush buffered work (the scan recorder and page
	// events) here, before the store closes.
	if !closeRecorder(shutdownCtx, recorder, pageEvents, log) {
		code = 1
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		log.Error("server stopped", "err", err)
		code = 1
	}
	return code
}

// newMailer sends mail through SQUARELY_SMTP_URL, or logs it when unset.
func newMailer(cfg config.Config, log *slog.Logger) (mail.Mailer, error) {
	if cfg.SMTPURL == nil {
		log.Info("e-mail is off: messages are logged, not sent; set SQUARELY_SMTP_URL and SQUARELY_MAIL_FROM to send them")
		return mail.LogMailer{Logger: log}, nil
	}
	log.Info("e-mail goes out through SMTP", "server", cfg.SMTPURL.Host, "from", cfg.MailFrom, "rate", cfg.SMTPRate)
	return mail.NewSMTP(mail.SMTPOptions{URL: cfg.SMTPURL, From: cfg.MailFrom, Rate: cfg.SMTPRate, Logger: log})
}

// primedCodes is how many recently used codes a starting instance loads
// into its redirect cache before it listens: a few megabytes, a few
// queries' time.
const primedCodes = 50_000

// primeRedirects loads the codes scanned most recently into the cache, so
// that an instance restarted under load does not send its first scans of
// each code to the database at once. Failing only costs that.
func primeRedirects(ctx context.Context, st *store.Store, c *scans.Cache, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	recent, err := st.RecentRedirects(ctx, primedCodes)
	if err != nil {
		log.Warn("priming the redirect cache; codes load as they are scanned", "err", err)
		return
	}
	c.Prime(recent)
}

// shutdownTimeout bounds a graceful shutdown.
const shutdownTimeout = 25 * time.Second

// closeRecorder saves the scans and page events still buffered, giving the database until
// ctx ends or shutdownTimeout, and reports whether all were saved.
func closeRecorder(ctx context.Context, r *scans.Recorder, pe *server.PageEvents, log *slog.Logger) bool {
	ctx, cancel := context.WithTimeout(ctx, shutdownTimeout)
	defer cancel()
	ok := true
	if err := r.Close(ctx); err != nil {
		log.Error("saving the last scans", "err", err)
		ok = false
	} else {
		log.Info("scans saved", "saved", r.Stats().Saved, "dropped", r.Stats().Dropped, "refused", r.Stats().Refused)
	}
	if err := pe.Close(ctx); err != nil {
		log.Error("saving the last page events", "err", err)
		return false
	}
	log.Info("page events saved", "saved", pe.Saved(), "dropped", pe.Dropped())
	return ok
}

// deleteExpiredSessions removes expired sessions at start and every hour
// until ctx ends. Every instance may run it; the delete is idempotent.
func deleteExpiredSessions(ctx context.Context, st *store.Store, log *slog.Logger) {
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	for {
		n, err := st.DeleteExpiredSessions(ctx, time.Now())
		if err != nil && ctx.Err() == nil {
			log.Error("deleting expired sessions", "err", err)
		} else if n > 0 {
			log.Info("deleted expired sessions", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func adminGrant(ctx context.Context, email string, getenv func(string) string, stdout, stderr io.Writer) int {
	_, st, ok := openWith(ctx, getenv, stderr, store.OpenToChange)
	if !ok {
		return 1
	}
	defer st.Close()
	err := st.SetAdmin(ctx, email, true)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "squarely: no user with the e-mail %q (the user must register first)\n", email)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s is now an admin\n", email)
	return 0
}

// createdAccountLink is how long the link of an account an admin made works.
const createdAccountLink = 7 * 24 * time.Hour

// adminCreateUser makes an account for email, whatever the sign-up policy
// (on a closed instance this is how accounts are made), and queues the
// mail with its set-password link in the outbox, which the running server
// sends; the link is printed too, for an instance without mail.
func adminCreateUser(ctx context.Context, email string, getenv func(string) string, stdout, stderr io.Writer) int {
	email = strings.ToLower(strings.TrimSpace(email))
	if !mail.ValidAddress(email) {
		fmt.Fprintf(stderr, "squarely: %q is not an e-mail address\n", email)
		return 2
	}
	cfg, st, ok := openWith(ctx, getenv, stderr, store.OpenToChange)
	if !ok {
		return 1
	}
	defer st.Close()
	u := &store.User{Username: email, Email: email}
	err := st.CreateUser(ctx, u)
	if errors.Is(err, store.ErrConflict) {
		fmt.Fprintf(stderr, "squarely: %s already has an account\n", email)
		return 1
	}
	token, hash := store.NewLinkToken()
	link := cfg.BaseURL + "/set-password?token=" + token
	now := time.Now()
	if err == nil {
		err = st.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, hash, now.Add(createdAccountLink))
	}
	if err == nil {
		err = st.QueueMail(ctx, email, "account_created", map[string]any{"Link": link}, now)
	}
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "created %s; a link to choose a password (7 days) is queued for mail:\n%s\n", email, link)
	return 0
}
