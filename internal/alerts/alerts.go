// Package alerts warns a workspace when a printed code goes wrong (issue 24
// item 5): a destination that stops answering (checked every interval by
// Checker) or scans that collapse (read from the daily rollups). Alerts are
// raised by the store's conditional updates, so any number of instances
// may run a Runner; each alert is mailed once to the workspace's owners and
// admins who want alert e-mails, and is a webhook event (Events).
package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// EventSink adds a webhook event to the transaction that raises an alert:
// the webhooks' store method (Store.EnqueueWebhookEvent) has this shape.
type EventSink = store.EmitFunc

// Options configure a Runner.
type Options struct {
	Store    *store.Store
	Mailer   mail.Mailer
	Checker  *Checker
	Events   EventSink // nil = no webhook events
	BaseURL  string
	Interval time.Duration // how often each code is checked; 0 = 6 hours
	Logger   *slog.Logger  // nil = slog.Default()
	Now      func() time.Time
	// Batch is how many codes are claimed at once; 0 = 200.
	Batch int
}

// Runner checks destinations, looks for scan drops and mails alerts.
type Runner struct {
	o         Options
	lastDrops time.Time
}

// NewRunner returns a runner; start it with Run, or drive it with Pass.
func NewRunner(o Options) *Runner {
	if o.Interval <= 0 {
		o.Interval = 6 * time.Hour
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Batch <= 0 {
		o.Batch = 200
	}
	return &Runner{o: o}
}

// poll is how often Run looks for due work: codes come due one interval
// after their last check, which may have been on another instance.
func (r *Runner) poll() time.Duration { return min(r.o.Interval, time.Minute) }

// Run makes a pass every poll until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	jobs.NewLoop(r.poll()).Run(ctx, func(ctx context.Context) {
		if err := r.Pass(ctx); err != nil && ctx.Err() == nil {
			r.o.Logger.Error("alerts pass", "err", err)
		}
	})
}

// Pass checks the codes that are due, raises scan drops (at most every
// hour or interval, whichever is shorter) and mails the pending alerts.
func (r *Runner) Pass(ctx context.Context) error {
	errCheck := r.checkDue(ctx)
	var errDrops error
	if now := r.o.Now(); now.Sub(r.lastDrops) >= min(r.o.Interval, time.Hour) {
		if _, errDrops = r.o.Store.RaiseScanDrops(ctx, now, r.o.Events); errDrops == nil {
			r.lastDrops = now
		}
	}
	return errors.Join(errCheck, errDrops, r.mailPending(ctx))
}

// checkDue claims and checks due codes, a batch at a time, until none is due.
func (r *Runner) checkDue(ctx context.Context) error {
	return jobs.DrainBatches(ctx, r.o.Batch, func(ctx context.Context) ([]store.LinkTarget, error) {
		now := r.o.Now()
		return r.o.Store.ClaimLinkChecks(ctx, now, now.Add(-r.o.Interval), r.o.Batch)
	}, func(targets []store.LinkTarget) error {
		var urls []string
		for _, t := range targets {
			urls = append(urls, t.URLs...)
		}
		results := r.o.Checker.Check(ctx, urls)
		if ctx.Err() != nil {
			return nil // stopped mid-check: what failed then says nothing
		}
		for _, t := range targets {
			res, checked := codeResult(t, results)
			if !checked {
				continue
			}
			if _, err := r.o.Store.RecordLinkCheck(ctx, t, res, r.o.Now(), r.o.Events); err != nil {
				return err
			}
		}
		return nil
	})
}

// codeResult folds the results of a code's destinations: the first that
// failed, else OK if any was checked; checked is false when every one was
// skipped (an address the checker may not reach).
func codeResult(t store.LinkTarget, results map[string]Result) (store.LinkResult, bool) {
	checked := false
	for _, u := range t.URLs {
		res := results[u]
		if res.Failed {
			return store.LinkResult{URL: u, Reason: res.Reason}, true
		}
		checked = checked || !res.Skipped
	}
	return store.LinkResult{OK: true}, checked
}

// mailPending mails every alert whose mail is pending.
func (r *Runner) mailPending(ctx context.Context) error {
	return jobs.Drain(ctx, r.o.Store.ClaimAlertMail, func(a *store.Alert) error {
		status := store.AlertMailSent
		if err := r.mail(ctx, a); err != nil {
			status = store.AlertMailFailed
			r.o.Logger.Warn("alert mail not sent", "alert", a.ID, "type", a.Type, "err", err)
		}
		return r.o.Store.FinishAlertMail(context.WithoutCancel(ctx), a.ID, status)
	})
}

// templates names each alert type's mail.
var templates = map[string]string{
	store.AlertDestinationDown:      "alert_destination_down",
	store.AlertDestinationRecovered: "alert_destination_recovered",
	store.AlertScansDropped:         "alert_scans_dropped",
}

// mail sends alert a to each of its workspace's recipients.
func (r *Runner) mail(ctx context.Context, a *store.Alert) error {
	to, err := r.o.Store.AlertRecipients(ctx, a.WorkspaceID)
	if err != nil {
		return err
	}
	// The mail names the workspace, and its link opens the dashboard in it.
	workspace, _, err := r.o.Store.WorkspaceOwners(ctx, a.WorkspaceID)
	if err != nil {
		return err
	}
	d := a.Data
	fields := map[string]any{
		"Name": d.Name, "ShortCode": d.ShortCode, "Destination": d.Destination, "Reason": d.Reason,
		"Day": d.Day, "Workspace": workspace, "DashboardURL": r.o.BaseURL + "/dashboard?workspace=" + strconv.FormatInt(a.WorkspaceID, 10),
	}
	if d.Since != nil {
		fields["Since"] = d.Since.UTC().Format("2 January 2006, 15:04 UTC")
	}
	if d.Scans != nil && d.DailyAverage != nil {
		fields["Scans"], fields["DailyAverage"] = *d.Scans, fmt.Sprintf("%.0f", *d.DailyAverage)
	}
	var errs []error
	for _, addr := range to {
		msg, err := mail.Render(addr, templates[a.Type], mail.Data{BaseURL: r.o.BaseURL, Fields: fields})
		if err == nil {
			err = r.o.Mailer.Send(ctx, msg)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
