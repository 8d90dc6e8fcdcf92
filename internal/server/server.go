// Package server is Squarely's HTTP front: the JSON API under /api/, the
// sign-in redirects under /auth/, and the embedded React app for every
// other path. routes.go lists every route.
package server

import (
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/web"
)

// Deps is what the server is built from.
type Deps struct {
	Store  *store.Store
	Config config.Config
	Logger *slog.Logger     // nil = slog.Default()
	Now    func() time.Time // nil = time.Now; tests move the clock
	Google *auth.Google     // nil = Google sign-in is off
	Web    fs.FS            // the React app; nil = web.Dist()

	// Recorder saves scans of dynamic codes; the caller closes it after the
	// HTTP server has shut down. nil = one the server starts and never
	// closes, for tests and tools that do not count scans.
	Recorder *scans.Recorder
	Mailer   mail.Mailer // nil = mail.LogMailer on Logger
	// Mailings is woken when an admin queues a mailing; nil = queued
	// mailings wait for a runner's next poll (another instance, or a test's).
	Mailings *mailings.Runner

	// PasswordCost is the bcrypt cost; 0 = auth.DefaultPasswordCost.
	PasswordCost int
	// PasswordHashed, when set, is called after each bcrypt computation;
	// tests count them.
	PasswordHashed func()
}

type server struct {
	store         *store.Store
	cfg           config.Config
	log           *slog.Logger
	now           func() time.Time
	auth          *auth.Service
	web           fs.FS
	logins        *limiter // failed logins per client address
	accountLogins *limiter // failed logins per account, from any address
	signup        *limiter // registrations per client address
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

	redirects *scans.Cache    // short code → destination, for /d/{shortCode}
	recorder  *scans.Recorder // scans, saved off the request path
	mailer    mail.Mailer
	mailings  *mailings.Runner
}

// New returns the handler serving the whole site.
func New(d Deps) http.Handler {
	s := &server{store: d.Store, cfg: d.Config, log: d.Logger, now: d.Now, web: d.Web, recorder: d.Recorder, mailer: d.Mailer, mailings: d.Mailings}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.recorder == nil {
		s.recorder = scans.NewRecorder(d.Store, scans.Options{Logger: s.log})
	}
	if s.mailer == nil {
		s.mailer = mail.LogMailer{Logger: s.log}
	}
	s.redirects = scans.NewCache(d.Store, nil)
	if s.now == nil {
		s.now = time.Now
	}
	if s.web == nil {
		s.web = web.Dist()
	}
	s.auth = &auth.Service{
		Store:        d.Store,
		Config:       d.Config,
		Now:          s.now,
		Logger:       s.log,
		Google:       d.Google,
		PasswordCost: d.PasswordCost,
		Hashed:       d.PasswordHashed,
	}
	s.logins = s.newLimiter("login", d.Config.LoginRateLimit, time.Minute)
	s.accountLogins = s.newLimiter("login-account", d.Config.LoginAccountRateLimit, time.Hour)
	s.signup = s.newLimiter("signup", d.Config.RegisterRateLimit, time.Hour)
	s.accountMails = s.newLimiter("account-mail", d.Config.AccountMailRateLimit, time.Hour)
	s.accountMailsFrom = s.newLimiter("account-mail-from", 10*d.Config.AccountMailRateLimit, time.Hour)
	s.hashing = newGate(d.Config.HashesPerAddress)
	s.anonWrites = s.newLimiter("anon-write", anonWritesPerHour, time.Hour)
	s.anonUploads = s.newLimiter("anon-upload", anonUploadsPerHour, time.Hour)
	s.userUploads = s.newLimiter("user-upload", userUploadsPerHour, time.Hour)
	return s.routes()
}
