// Package server is Squarely's HTTP front: the JSON API under /api/, the
// sign-in redirects under /auth/, and the embedded React app for every
// other path. routes.go lists every route.
package server

import (
	"cmp"
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/billing"
	"github.com/squarely/squarely/internal/bulk"
	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/certs"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/digests"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/imports"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/outbox"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/metrics"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/webhooks"
	"github.com/squarely/squarely/web"
)

// Deps is what the server is built from.
type Deps struct {
	Store  *store.Store
	Config config.Config
	Logger *slog.Logger     // nil = slog.Default()
	Now    func() time.Time // nil = time.Now; tests move the clock
	Google *auth.Google     // nil = Google sign-in is off
	OIDC   *auth.OIDC       // nil = OpenID Connect sign-in is off
	Web    fs.FS            // the React app; nil = web.Dist()

	// Recorder saves scans of dynamic codes; the caller closes it after the
	// HTTP server has shut down. nil = one the server starts and never
	// closes, for tests and tools that do not count scans.
	Recorder *scans.Recorder
	// PageEvents saves hosted pages' visitor events; the caller closes it
	// after the HTTP server has shut down, as Recorder. nil = one the
	// server starts and never closes.
	PageEvents *PageEvents
	Mailer     mail.Mailer // nil = mail.LogMailer on Logger
	// Mailings is woken when an admin queues a mailing; nil = queued
	// mailings wait for a runner's next poll (another instance, or a test's).
	Mailings *mailings.Runner
	// Redirects caches short codes for the redirects; the caller keeps it
	// current across instances (store.ListenRedirects). nil = one of the
	// server's own.
	Redirects *scans.Cache

	// GS1 caches GS1 Digital Link products for the resolver; the caller
	// keeps it current across instances with Redirects (Invalidators).
	// nil = one of the server's own.
	GS1 *gs1.Cache
	// Pages knows the current version of hosted pages for /p/{slug}; the
	// caller keeps it current across instances with Redirects
	// (Invalidators). nil = one of the server's own.
	Pages *pages.Live
	// GS1Scans counts resolved GS1 scans; the caller runs it (and lets it
	// save the last counts before the store closes). nil = one the
	// server starts and never stops, for tests.
	GS1Scans *gs1.Scans

	// Bulk runs bulk jobs; the caller runs it. nil = one the server
	// starts and never stops, for tests.
	Bulk *bulk.Runner
	// Background ends the server's own background work (the import
	// runner) at the stop; nil: it never ends, for tests.
	Background context.Context

	// Outbox sends queued mail (the new-device notice); the caller runs
	// it. nil = one the server starts and never stops, for tests.
	Outbox *outbox.Sender

	// Webhooks is woken when a test event or a retry is queued; the caller
	// runs it. nil = they wait for a runner's next poll (another
	// instance's, or a test's).
	Webhooks *webhooks.Runner

	// Metrics counts requests and watches the scan queue; nil = off
	// (neither SQUARELY_METRICS_ADDR nor SQUARELY_METRICS_TOKEN set).
	Metrics *metrics.Metrics

	// PasswordCost is the bcrypt cost; 0 = auth.DefaultPasswordCost.
	PasswordCost int
	// CountryScanLimit bounds the scans of a range a country's analytics
	// read; 0 = defaultCountryScanLimit.
	CountryScanLimit int64
	// PasswordHashed, when set, is called after each bcrypt computation;
	// tests count them.
	PasswordHashed func()
}

type server struct {
	store *store.Store
	cfg   config.Config
	log   *slog.Logger
	now   func() time.Time
	auth  *auth.Service
	web   fs.FS
	pages http.Handler // the React app's files and prerendered pages (spa.go)
	// api is the app's API under /api/, for a request whose session and
	// workspace are loaded; boot.go asks it for the answers written into
	// the app's pages.
	api http.Handler
	// hostPolicy says which hosts Squarely serves (GET /tls/allowed).
	hostPolicy func(ctx context.Context, host string) error
	// logins counts failed logins per client address and account (and
	// wrong mailed-link tokens per address); addressLogins is the looser
	// ceiling per client address, whatever the account, so one address's
	// wrong passwords do not lock another account out from it.
	logins, addressLogins *limiter
	accountLogins         *limiter // failed logins per account, from any address
	badKeys               *limiter // invalid API keys per client address
	signup                *limiter // registrations per client address
	// accountMails and accountMailsFrom count the account links mailed
	// (verification, set-password, claim) per e-mail address and per
	// client address.
	accountMails, accountMailsFrom *limiter
	hashing                        *gate // password hashes running at once per client address
	// anonWrites counts visitors' requests that store records
	// (generations, downloads, payment products) per client address.
	anonWrites *limiter
	// anonUploads and userUploads count stored files per visitor address
	// and per account (admitUpload).
	anonUploads, userUploads *limiter
	// contactSenders and contactClients count contact messages per sender
	// e-mail and per client address (public.go).
	contactSenders, contactClients *limiter

	// Resource bounds (bounds.go).
	renders                              chan struct{} // a slot per render or logo decode under way
	previewsByAddress, previewsByAccount *limiter
	userRecords                          *limiter // generation and download records per account
	uploading                            *inFlight
	normalizing                          sync.Mutex // one stored full-size logo normalised at a time (renderLogo)

	redirects *scans.Cache  // short code → destination, for /d/{shortCode}
	hosted    *hostedPages  // hosted pages for /p/{slug} and page codes (hosted.go)
	scaled    *scaledImages // images at their srcset widths (scaled.go)
	// GS1 Digital Link (gs1.go): products, the resolver's cache, and
	// resolved scans counted until they are saved.
	gs1        *gs1.Products
	gs1Cache   *gs1.Cache
	gs1Scans   *gs1.Scans
	recorder   *scans.Recorder  // scans, saved off the request path
	pageEvents *PageEvents      // hosted pages' visitor events, likewise
	lookupLog  scans.Throttle   // failed redirect lookups, logged at a bounded rate
	sticky     *scans.StickyKey // the salt of smart codes' split buckets (routing.go)
	mailer     mail.Mailer
	mailings   *mailings.Runner

	// billing calls Stripe; nil when payments are off (payments.go).
	billing   *billing.Client
	checkouts *limiter // public calls that cost a Stripe request, per client address

	// Wrong passwords of protected codes, per client address and per code.
	codePasswordsFrom, codePasswords *limiter
	// Views of share pages and their CSVs, per client address (sharelinks.go).
	shareViews *limiter
	// digests sends scheduled reports (reportschedules.go); reportTests
	// counts their test sendings per schedule.
	digests     *digests.Runner
	reportTests *limiter

	bulk *bulk.Runner
	// handler is the whole site (New's answer): the switch check asks it
	// what a short URL answers.
	handler http.Handler
	// imports creates the codes of import jobs (imports.go).
	imports *imports.Runner
	// bulkEditRunner runs bulk edits (bulkedit.go).
	bulkEditRunner *bulkedit.Runner
	outbox         *outbox.Sender
	// countryScanLimit is Deps.CountryScanLimit or its default.
	countryScanLimit int64
	// creator checks and prepares every code created or changed.
	creator *codes.Creator
	// webhooks sends webhook deliveries (nil: another does); webhookPolicy
	// says which endpoint URLs are accepted (SQUARELY_WEBHOOK_ALLOW_*).
	webhooks      *webhooks.Runner
	webhookPolicy netguard.Policy
	// bulkWork caps the heavy bulk requests (checking a spreadsheet,
	// rendering a job's ZIP) running at once on this instance.
	bulkWork chan struct{}
	// bulkByAccount caps the slots one account holds, so one account
	// cannot fill bulkWork for everyone.
	bulkByAccount *inFlight
	clients       *clientCache // white-label clients by host and id
	// apiCalls counts public API requests per key (SQUARELY_API_RATE_LIMIT).
	apiCalls *limiter
	metrics  *metrics.Metrics // nil = off
	exports  *limiter         // workspace exports per workspace
	// Custom domains of workspaces (domains.go): verified hosts, the
	// verifier, and verifications per workspace.
	domains      *domainCache
	verifier     *domains.Verifier
	domainChecks *limiter
	// Team workspaces created per account and per client address
	// (SQUARELY_WORKSPACE_RATE_LIMIT, workspaces.go).
	workspacesByAccount, workspacesByAddress *limiter
}

// New returns the handler serving the whole site.
func New(d Deps) http.Handler {
	s := &server{store: d.Store, cfg: d.Config, log: d.Logger, now: d.Now, web: d.Web, recorder: d.Recorder, mailer: d.Mailer, mailings: d.Mailings, bulk: d.Bulk, outbox: d.Outbox,
		webhooks: d.Webhooks, webhookPolicy: WebhookPolicy(d.Config), hostPolicy: certs.HostPolicy(d.Store, d.Config.BaseURL)}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.recorder == nil {
		s.recorder = scans.NewRecorder(d.Store, scans.Options{Logger: s.log})
	}
	if s.mailer == nil {
		s.mailer = mail.LogMailer{Logger: s.log}
	}
	s.redirects = d.Redirects
	if s.redirects == nil {
		s.redirects = scans.NewCache(d.Store, nil)
	}
	s.gs1 = s.newGS1Products()
	s.gs1Cache = d.GS1
	if s.gs1Cache == nil {
		s.gs1Cache = gs1.NewCache(s.gs1, nil)
	}
	// The store announces every committed change to what a scan resolves
	// to (a short code, or a GTIN's products): this instance's caches
	// drop them at once, the others when they hear of it
	// (store.ListenRedirects).
	live := d.Pages
	if live == nil {
		live = pages.NewLive(scans.TTL, nil)
	}
	changed, _ := Invalidators(s.redirects, s.gs1Cache, live)
	s.hosted = newHostedPages(live)
	s.scaled = newScaledImages()
	s.pageEvents = d.PageEvents
	if s.pageEvents == nil {
		s.pageEvents = NewPageEvents(d.Store, s.log)
	}
	d.Store.OnRedirectsChanged(func(codes []string, notifyErr error) {
		for _, c := range codes {
			changed(c)
		}
		if notifyErr != nil {
			s.log.Error("announcing changed redirects; other instances see them when their cache expires", "codes", len(codes), "err", notifyErr)
		}
	})
	s.lookupLog.Every = 10 * time.Second
	s.sticky = scans.NewStickyKey(d.Store)
	if s.now == nil {
		s.now = time.Now
	}
	if s.bulk == nil {
		s.bulk = bulk.NewRunner(d.Store, s.log, s.now)
		go s.bulk.Run(context.Background())
	}
	// Imports (issue 34): a job in hand at the stop is left to its lease.
	s.imports = imports.NewRunner(d.Store, s.importLink, s.checkLink, s.log, s.now)
	bg := d.Background
	if bg == nil {
		bg = context.Background()
	}
	go s.imports.Run(bg)
	// Bulk edits: a job in hand at the stop is left to its lease.
	s.bulkEditRunner = bulkedit.NewRunner(d.Store, s.log, s.now)
	go s.bulkEditRunner.Run(bg)
	// Scheduled digests: a schedule in hand at the stop is left to its
	// lease; without SMTP none is sent (the Reports tab says so too).
	s.digests = digests.NewRunner(digests.Options{Store: d.Store, Mailer: s.mailer, BaseURL: d.Config.BaseURL, Build: s.buildDigest,
		Leased: jobs.Leased{Logger: s.log, Now: s.now}})
	if s.mailEnabled() {
		go s.digests.Run(bg)
	} else {
		s.log.Info("Scheduled report digests are not sent: set SQUARELY_SMTP_URL and SQUARELY_MAIL_FROM to turn mail on")
	}
	if s.outbox == nil {
		s.outbox = outbox.New(d.Store, s.mailer, d.Config.BaseURL, s.log)
		go s.outbox.Run(context.Background())
	}
	s.gs1Scans = d.GS1Scans
	if s.gs1Scans == nil {
		s.gs1Scans = &gs1.Scans{Store: d.Store, Log: s.log}
		go s.gs1Scans.Run(context.Background())
	}
	s.bulkWork = make(chan struct{}, bulkWorkSlots)
	s.bulkByAccount = newInFlight(bulkSlotsPerAccount)
	s.clients = newClientCache(d.Store, d.Config.BaseURL, s.now)
	if s.web == nil {
		s.web = web.Dist()
	}
	s.pages = spa(s.web, d.Config.BaseURL, web.Routes(), s.bootScript)
	s.auth = &auth.Service{
		Store:        d.Store,
		Config:       d.Config,
		Now:          s.now,
		Logger:       s.log,
		Google:       d.Google,
		OIDC:         d.OIDC,
		PasswordCost: d.PasswordCost,
		Hashed:       d.PasswordHashed,
	}
	s.auth.NewDevice = s.mailNewDevice
	s.countryScanLimit = cmp.Or(d.CountryScanLimit, defaultCountryScanLimit)
	s.logins = s.newLimiter("login", d.Config.LoginRateLimit, time.Minute)
	s.addressLogins = s.newLimiter("login-address", loginsPerAddressFactor*d.Config.LoginRateLimit, time.Minute)
	s.accountLogins = s.newLimiter("login-account", d.Config.LoginAccountRateLimit, time.Hour)
	s.badKeys = s.newLimiter("api-key-invalid", d.Config.LoginRateLimit, time.Minute)
	s.signup = s.newLimiter("signup", d.Config.RegisterRateLimit, time.Hour)
	s.accountMails = s.newLimiter("account-mail", d.Config.AccountMailRateLimit, time.Hour)
	s.accountMailsFrom = s.newLimiter("account-mail-from", 10*d.Config.AccountMailRateLimit, time.Hour)
	s.hashing = newGate(d.Config.HashesPerAddress)
	s.anonWrites = s.newLimiter("anon-write", anonWritesPerHour, time.Hour)
	s.anonUploads = s.newLimiter("anon-upload", anonUploadsPerHour, time.Hour)
	s.userUploads = s.newLimiter("user-upload", userUploadsPerHour, time.Hour)
	s.checkouts = s.newLimiter("checkout", checkoutsPerHour, time.Hour)
	s.codePasswordsFrom = s.newLimiter("code-password-from", codePasswordTriesPerAddress, codePasswordWindow)
	s.codePasswords = s.newLimiter("code-password", codePasswordTriesPerCode, codePasswordWindow)
	s.shareViews = s.newLimiter("share-view", shareViewsPerMinute, time.Minute)
	s.reportTests = s.newLimiter("report-send-now", sendNowPerHour, time.Hour)
	if d.Config.PaymentsEnabled() {
		s.billing = billing.New(billing.Config{
			SecretKey: d.Config.StripeSecretKey, WebhookSecret: d.Config.StripeWebhookSecret, APIURL: d.Config.StripeAPIURL,
		})
	}
	s.renders = make(chan struct{}, renderSlots())
	s.creator = &codes.Creator{
		Store: d.Store, BaseURL: d.Config.BaseURL, Now: func() time.Time { return s.now() }, LimitMessage: s.limitMessage(),
		Slot: s.acquireRender, StoredLogo: s.renderLogo, NormalizeLogo: s.normalizeLogo, Domain: s.codeDomain, ShortURL: s.codeURL,
	}
	s.previewsByAddress = s.newLimiter("preview-address", previewsPerMinute, time.Minute)
	s.previewsByAccount = s.newLimiter("preview-account", previewsPerMinute, time.Minute)
	s.userRecords = s.newLimiter("user-records", recordsPerHour, time.Hour)
	s.uploading = newInFlight(uploadsInFlight)
	s.apiCalls = s.newLimiter("api-call", d.Config.APIRateLimit, time.Minute)
	s.contactSenders = s.newLimiter("contact-sender", contactsPerSenderPerHour, time.Hour)
	s.contactClients = s.newLimiter("contact-client", contactsPerClientPerHour, time.Hour)
	s.exports = s.newLimiter("workspace-export", exportsPerHour, time.Hour)
	s.workspacesByAccount = s.newLimiter("workspace-create", d.Config.WorkspaceRateLimit, time.Hour)
	s.workspacesByAddress = s.newLimiter("workspace-create-address", workspacesPerAddressFactor*d.Config.WorkspaceRateLimit, time.Hour)
	s.domains = &domainCache{store: d.Store, now: s.now}
	s.verifier = domains.NewVerifier(d.Config.DomainResolver, d.Config.DomainHTTPPort, d.Config.DomainAllowPrivate)
	s.domainChecks = s.newLimiter("domain-check", domainChecksPerHour, time.Hour)
	s.metrics = d.Metrics
	if s.metrics != nil {
		s.metrics.WatchScans(func() metrics.ScanStats {
			st := s.recorder.Stats()
			return metrics.ScanStats{Queued: st.Queued, Bytes: st.Bytes, Saved: st.Saved, Dropped: st.Dropped, Refused: st.Refused, Stale: s.redirects.Stale()}
		})
	}
	s.handler = s.routes()
	return s.handler
}
