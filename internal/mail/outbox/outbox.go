// Package outbox sends the mail queued in the store's outbox
// (store.QueueMail): mail that must not hold up the request or the check
// that made it, such as the new-device notice of a sign-in. Every instance
// runs a Sender; each mail is claimed by one of them (store.ClaimQueuedMail)
// and sent once.
package outbox

import (
	"context"
	"log/slog"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

const (
	// poll is how often an idle sender looks for mail queued on another
	// instance (this instance's wakes it at once).
	poll = 5 * time.Second
	// sendTimeout bounds one message, retries included.
	sendTimeout = time.Minute
	// KeepUnsent is how long a mail that failed (or that a sender which
	// died left unsent) stays in the outbox, to look into, before it is
	// deleted with the address and browser it may hold; pruneEvery is how
	// often a sender deletes those.
	KeepUnsent = 30 * 24 * time.Hour
	pruneEvery = 24 * time.Hour
)

// Sender sends the outbox's mail.
type Sender struct {
	store   *store.Store
	mailer  mail.Mailer
	baseURL string
	log     *slog.Logger
	loop    *jobs.Loop
	pruned  time.Time // the last PruneQueuedMail
}

// New returns a sender; start it with Run.
func New(st *store.Store, mailer mail.Mailer, baseURL string, log *slog.Logger) *Sender {
	if log == nil {
		log = slog.Default()
	}
	return &Sender{store: st, mailer: mailer, baseURL: baseURL, log: log, loop: jobs.NewLoop(poll)}
}

// Wake tells the sender mail was queued, so it goes out without waiting
// for the next poll.
func (s *Sender) Wake() { s.loop.Wake() }

// Run sends queued mail until ctx ends; a message in flight then is
// finished and recorded.
func (s *Sender) Run(ctx context.Context) {
	s.loop.Run(ctx, func(ctx context.Context) {
		s.Prune(ctx, time.Now())
		if err := s.Drain(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("sending queued mail", "err", err)
		}
	})
}

// Prune deletes, once a day, the unsent mail older than KeepUnsent.
func (s *Sender) Prune(ctx context.Context, now time.Time) {
	if now.Sub(s.pruned) < pruneEvery {
		return
	}
	if _, err := s.store.PruneQueuedMail(context.WithoutCancel(ctx), now.Add(-KeepUnsent)); err != nil {
		s.log.Error("deleting old unsent mail", "err", err)
		return
	}
	s.pruned = now
}

// Drain sends every pending mail, one at a time, until none is left or
// ctx ends. A mail that cannot be sent is marked failed and logged.
func (s *Sender) Drain(ctx context.Context) error {
	return jobs.Drain(ctx, s.store.ClaimQueuedMail, func(m *store.QueuedMail) error {
		// A send and its record run to the end once started.
		write := context.WithoutCancel(ctx)
		err := s.send(write, m)
		if err != nil {
			s.log.Warn("queued mail not sent", "mail", m.ID, "template", m.Template, "err", err)
		}
		return s.store.FinishQueuedMail(write, m.ID, err == nil)
	})
}

func (s *Sender) send(ctx context.Context, m *store.QueuedMail) error {
	msg, err := mail.Render(m.To, m.Template, mail.Data{BaseURL: s.baseURL, Fields: m.Fields})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	return s.mailer.Send(ctx, msg)
}
