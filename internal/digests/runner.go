package digests

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
)

// Builder makes the digest of a schedule's scope for [from, to) (in the
// schedule's time zone), with its files in the schedule's formats. The
// server provides it: the figures, the PDF and the CSV are the analytics
// views' own.
type Builder func(ctx context.Context, sc *store.ReportSchedule, from, to time.Time) (*Digest, error)

// Options configure a Runner.
type Options struct {
	Store   *store.Store
	Mailer  mail.Mailer
	BaseURL string
	Build   Builder
	// Poll is how often due schedules are looked for: 0 = 30 seconds, so
	// a digest goes out within a minute of its hour.
	jobs.Leased
	// SendTimeout bounds one message, retries included. 0 = 1 minute.
	SendTimeout time.Duration
}

// retryDelays are the waits before the second and the third try of a
// digest the mail server did not take: three tries over about an hour,
// after which the delivery stays failed.
var retryDelays = []time.Duration{10 * time.Minute, 50 * time.Minute}

// Keep is how long delivery rows are kept; pruneEvery is how often a
// runner deletes older ones.
const (
	Keep       = 400 * 24 * time.Hour
	pruneEvery = 24 * time.Hour
)

// Runner sends due digests until its context ends. Any number of
// instances may run one: a schedule is held by one runner at a time
// (store.ClaimReportSchedule's lease), and a row per schedule, recipient
// and period is written before each message, so no one gets a period's
// digest twice, even when a lease runs out mid-run. A message a killed
// process left unrecorded is not sent again (as mailings). A message the
// mail server refused is tried again later (retryDelays), under the same
// row, so it too goes out at most once.
type Runner struct {
	o      Options
	loop   *jobs.Loop
	pruned time.Time // the last PruneReportDeliveries
}

// NewRunner returns a runner; start it with Run.
func NewRunner(o Options) *Runner {
	o.Fill(30 * time.Second)
	if o.SendTimeout <= 0 {
		o.SendTimeout = time.Minute
	}
	return &Runner{o: o, loop: jobs.NewLoop(o.Poll)}
}

// Run sends due digests until ctx ends; the message in flight then is
// finished and recorded.
func (r *Runner) Run(ctx context.Context) { r.loop.Run(ctx, r.Pass) }

// Pass sends every digest due now and every retry due now, then returns;
// once a day it deletes the delivery rows older than Keep.
func (r *Runner) Pass(ctx context.Context) {
	if now := r.o.Now(); now.Sub(r.pruned) >= pruneEvery {
		if _, err := r.o.Store.PruneReportDeliveries(context.WithoutCancel(ctx), now.Add(-Keep)); err != nil {
			r.o.Logger.Error("deleting old report deliveries", "err", err)
		}
		r.pruned = now
	}
	err := jobs.Drain(ctx, func(ctx context.Context) (*store.ReportSchedule, error) {
		return r.o.Store.ClaimReportSchedule(ctx, r.o.Owner, r.o.Now(), r.o.Lease)
	}, func(sc *store.ReportSchedule) error { return r.send(ctx, sc) })
	if err != nil && ctx.Err() == nil {
		r.o.Logger.Error("sending report digests", "err", err)
	}
	err = jobs.Drain(ctx, func(ctx context.Context) (*store.ReportRetry, error) {
		return r.o.Store.ClaimReportRetry(ctx, r.o.Now())
	}, func(rt *store.ReportRetry) error { return r.retry(ctx, rt) })
	if err != nil && ctx.Err() == nil {
		r.o.Logger.Error("retrying report digests", "err", err)
	}
}

// send mails the digest of sc's latest due period to each recipient not
// mailed it yet, then moves sc to its next sending.
func (r *Runner) send(ctx context.Context, sc *store.ReportSchedule) error {
	record := context.WithoutCancel(ctx) // as mailings: writes finish
	claimed := r.o.Now()
	log := r.o.Logger.With("schedule", sc.ID, "workspace", sc.WorkspaceID)
	s, err := ScheduleOf(sc)
	if err != nil {
		// A zone the validation passed is missing from this binary: try
		// again in a day rather than every poll.
		log.Error("report schedule with an unknown time zone", "err", err)
		return r.o.Store.FinishReportSchedule(record, sc.ID, r.o.Owner, claimed.Add(24*time.Hour), claimed)
	}
	// After downtime only the latest due period goes out, late; the ones
	// missed before it are not caught up.
	due := sc.NextSendAt
	for next := s.Next(due); !next.After(claimed); next = s.Next(next) {
		due = next
	}
	from, to := s.Period(due)
	switch err := r.deliver(ctx, record, sc, from, to, log); {
	case errors.Is(err, store.ErrNotFound):
		// The schedule's code was deleted: nothing to report, and retrying
		// would not change that.
		log.Warn("report schedule's code is deleted; no digest sent", "from", from)
	case err != nil:
		return err
	}
	return r.o.Store.FinishReportSchedule(record, sc.ID, r.o.Owner, s.Next(claimed), claimed)
}

// deliver sends the digest of [from, to) to each recipient with no
// delivery row for the period yet.
func (r *Runner) deliver(ctx, record context.Context, sc *store.ReportSchedule, from, to time.Time, log *slog.Logger) error {
	if len(sc.Recipients) == 0 {
		return nil
	}
	d, err := r.o.Build(record, sc, from, to)
	if err != nil {
		return fmt.Errorf("building the digest of schedule %d: %w", sc.ID, err) // ErrNotFound: its code is deleted
	}
	key, err := mailings.UnsubscribeKey(record, r.o.Store)
	if err != nil {
		return fmt.Errorf("loading the unsubscribe key: %w", err)
	}
	lease := jobs.NewLease(r.o.Lease, r.o.Now())
	sent := 0
	defer func() {
		if sent > 0 {
			log.Info("report digests sent", "count", sent, "from", from, "to", to)
		}
	}()
	for _, rcpt := range sc.Recipients {
		if ctx.Err() != nil {
			return nil // stopped; the next runner sends the rest
		}
		now := r.o.Now()
		if err := lease.Keep(now, func() error {
			return r.o.Store.RenewReportLease(record, sc.ID, r.o.Owner, now, r.o.Lease)
		}); err != nil {
			return fmt.Errorf("lost the lease of report schedule %d: %w", sc.ID, err)
		}
		status := store.ReportSending
		if d.Empty() && !sc.SendEmpty {
			status = store.ReportSkipped
		}
		first, err := r.o.Store.StartReportDelivery(record, sc.ID, rcpt.UserID, from, status, now)
		if err != nil {
			return err
		}
		if !first || status == store.ReportSkipped {
			continue
		}
		err = r.mail(record, sc, d, rcpt, key)
		if err == nil {
			sent++
		}
		if err := r.settle(record, sc.ID, rcpt, from, 1, err, log); err != nil {
			return err
		}
	}
	return nil
}

// retry tries again to mail a delivery ClaimReportRetry took.
func (r *Runner) retry(ctx context.Context, rt *store.ReportRetry) error {
	record := context.WithoutCancel(ctx)
	log := r.o.Logger.With("schedule", rt.ScheduleID)
	giveUp := func(reason string) error {
		log.Warn("report digest not retried", "user", rt.UserID, "from", rt.PeriodStart, "reason", reason)
		return r.o.Store.FinishReportDelivery(record, rt.ScheduleID, rt.UserID, rt.PeriodStart, store.ReportFailed, reason, r.o.Now())
	}
	sc := rt.Schedule
	if sc == nil {
		return giveUp("the workspace is deleted")
	}
	log = log.With("workspace", sc.WorkspaceID)
	i := slices.IndexFunc(sc.Recipients, func(rc store.Recipient) bool { return rc.UserID == rt.UserID })
	if i < 0 {
		return giveUp("no longer a recipient")
	}
	rcpt := sc.Recipients[i]
	s, err := ScheduleOf(sc)
	if err != nil {
		return giveUp(err.Error())
	}
	d, err := r.o.Build(record, sc, rt.PeriodStart, s.End(rt.PeriodStart))
	if errors.Is(err, store.ErrNotFound) {
		return giveUp("the code is deleted")
	}
	if err == nil {
		var key []byte
		if key, err = mailings.UnsubscribeKey(record, r.o.Store); err != nil {
			return fmt.Errorf("loading the unsubscribe key: %w", err)
		}
		err = r.mail(record, sc, d, rcpt, key)
	}
	if err == nil {
		log.Info("report digest sent on a retry", "attempt", rt.Attempt, "from", rt.PeriodStart)
	}
	return r.settle(record, sc.ID, rcpt, rt.PeriodStart, rt.Attempt, err, log)
}

// settle records how try attempt at mailing rcpt the period's digest
// ended (sendErr nil: sent): sent, failed with a retry due after a delay,
// or failed for good after the last try.
func (r *Runner) settle(ctx context.Context, scheduleID int64, rcpt store.Recipient, period time.Time, attempt int, sendErr error, log *slog.Logger) error {
	now := r.o.Now()
	switch {
	case sendErr == nil:
		return r.o.Store.FinishReportDelivery(ctx, scheduleID, rcpt.UserID, period, store.ReportSent, "", now)
	case attempt <= len(retryDelays):
		at := now.Add(retryDelays[attempt-1])
		log.Warn("report digest not delivered; will try again", "to", rcpt.Email, "attempt", attempt, "retry_at", at, "err", sendErr)
		return r.o.Store.RetryReportDelivery(ctx, scheduleID, rcpt.UserID, period, sendErr.Error(), at, now)
	}
	log.Error("report digest not delivered; giving up", "to", rcpt.Email, "attempts", attempt, "err", sendErr)
	return r.o.Store.FinishReportDelivery(ctx, scheduleID, rcpt.UserID, period, store.ReportFailed, sendErr.Error(), now)
}

// mail sends d to one recipient.
func (r *Runner) mail(ctx context.Context, sc *store.ReportSchedule, d *Digest, rcpt store.Recipient, key []byte) error {
	msg, err := Message(r.o.BaseURL, sc, d, rcpt.Email, UnsubscribeURL(r.o.BaseURL, key, sc.ID, rcpt.UserID))
	if err != nil {
		return err
	}
	sendCtx, cancel := context.WithTimeout(ctx, r.o.SendTimeout)
	defer cancel()
	return r.o.Mailer.Send(sendCtx, msg)
}

// ErrNoRecipients is a test sending of a schedule nobody is on any more.
var ErrNoRecipients = errors.New("digests: the schedule has no recipients")

// SendNow mails the digest of sc's last full period to its recipients at
// once, whether or not it had scans: the "send a test now" of the app. It
// records no delivery, so the scheduled digest of that period still goes
// out. It returns how many messages went out, and the first failure.
func (r *Runner) SendNow(ctx context.Context, sc *store.ReportSchedule) (int, error) {
	if len(sc.Recipients) == 0 {
		return 0, ErrNoRecipients
	}
	s, err := ScheduleOf(sc)
	if err != nil {
		return 0, err
	}
	from, to := s.LastFull(r.o.Now())
	d, err := r.o.Build(ctx, sc, from, to)
	if err != nil {
		return 0, err
	}
	key, err := mailings.UnsubscribeKey(ctx, r.o.Store)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, rcpt := range sc.Recipients {
		if err := r.mail(ctx, sc, d, rcpt, key); err != nil {
			return sent, fmt.Errorf("sending to %s: %w", rcpt.Email, err)
		}
		sent++
	}
	return sent, nil
}
