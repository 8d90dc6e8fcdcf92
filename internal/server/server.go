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

	// PasswordCost is the bcrypt cost; 0 = auth.DefaultPasswordCost.
	PasswordCost int
}

type server struct {
	store  *store.Store
	cfg    config.Config
	log    *slog.Logger
	now    func() time.Time
	auth   *auth.Service
	web    fs.FS
	logins *limiter // failed logins per client address
	signup *limiter // registrations per client address
	// anonWrites counts visitors' requests that store records
	// (generations, downloads, payment products) per client address.
	anonWrites *limiter
	// anonUploads and userUploads count stored files per visitor address
	// and per account (admitUpload).
	anonUploads, userUploads *limiter
	// contactSenders and contactClients count contact messages per sender
	// e-mail and per client address (public.go).
	contactSenders, contactClients *limiter

	redirects *scans.Cache    // short code → destination, for /d/{shortCode}
	recorder  *scans.Recorder // scans, saved off the request path
	mailer    mail.Mailer
}

// New returns the handler serving the whole site.
func New(d Deps) http.Handler {
	s := &server{store: d.Store, cfg: d.Config, log: d.Logger, now: d.Now, web: d.Web, recorder: d.Recorder, mailer: d.Mailer}
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
	}
	s.logins = newLimiter(d.Config.LoginRateLimit, time.Minute, s.now)
	s.signup = newLimiter(d.Config.RegisterRateLimit, time.Hour, s.now)
	s.anonWrites = newLimiter(anonWritesPerHour, time.Hour, s.now)
	s.anonUploads = newLimiter(anonUploadsPerHour, time.Hour, s.now)
	s.userUploads = newLimiter(userUploadsPerHour, time.Hour, s.now)
	s.contactSenders = newLimiter(contactsPerSenderPerHour, time.Hour, s.now)
	s.contactClients = newLimiter(contactsPerClientPerHour, time.Hour, s.now)
	return s.routes()
}
