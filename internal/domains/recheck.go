package domains

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/store"
)

const (
	// RecheckEvery is how often a verified domain's proof is checked again.
	RecheckEvery = 24 * time.Hour
	// RecheckRetry is how soon a re-check that missed the proof is made
	// again: a second miss in a row marks the domain lost, so a failure
	// that passes within it (a DNS timeout, a SERVFAIL, the web server
	// restarting) marks nothing. A lost domain is re-checked as often, so
	// it is verified again soon after its proof is back.
	RecheckRetry = 3 * time.Hour
)

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	Store    *store.Store
	Verifier *Verifier
	BaseURL  string       // for the lost domain mail's link
	Target   Target       // where domains should point: re-checked with the proof
	Logger   *slog.Logger // nil = slog.Default()
	Now      func() time.Time
	// Batch is how many domains are claimed at once; 0 = 50.
	Batch int
}

// Runner re-checks verified domains (issue 32 item 5). Domains are claimed
// by the store's conditional update, so any number of instances may run
// one and each domain is checked by one of them.
type Runner struct{ o RunnerOptions }

// NewRunner returns a runner; start it with Run, or drive it with Pass.
func NewRunner(o RunnerOptions) *Runner {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Batch <= 0 {
		o.Batch = 50
	}
	return &Runner{o: o}
}

// Run makes a pass every minute until ctx ends: domains come due a day
// after their last check, which may have been on another instance.
func (r *Runner) Run(ctx context.Context) {
	jobs.NewLoop(time.Minute).Run(ctx, func(ctx context.Context) {
		if err := r.Pass(ctx); err != nil && ctx.Err() == nil {
			r.o.Logger.Error("domain re-check pass", "err", err)
		}
	})
}

// Pass claims and re-checks due domains, a batch at a time, until none is
// due.
func (r *Runner) Pass(ctx context.Context) error {
	return jobs.DrainBatches(ctx, r.o.Batch, func(ctx context.Context) ([]store.DomainRecheck, error) {
		return r.o.Store.ClaimDomainRechecks(ctx, r.o.Now(), RecheckEvery, RecheckRetry, r.o.Batch)
	}, func(list []store.DomainRecheck) error {
		for _, d := range list {
			checkCtx, cancel := context.WithTimeout(ctx, CheckTimeout)
			_, problem := r.o.Verifier.Check(checkCtx, d.Domain, d.Token)
			cancel()
			if ctx.Err() != nil {
				return nil // stopped mid-check: what failed then says nothing
			}
			lost, err := r.o.Store.RecordDomainRecheck(context.WithoutCancel(ctx), d, problem, r.o.Now(), map[string]any{
				"Domain": d.Domain, "Problem": problem,
				"TXTName": VerifyLabel + d.Domain, "TXTValue": VerifyPrefix + d.Token,
				"HTTPURL": "http://" + d.Domain + VerifyPath + d.Token, "HTTPBody": d.Token,
				"Link": r.o.BaseURL + "/workspace/domains",
			})
			if err != nil {
				return err
			}
			if lost {
				r.o.Logger.Warn("custom domain lost its proof", "domain", d.Domain, "workspace", d.WorkspaceID, "problem", problem)
			}
			if problem == "" {
				if err := r.recheckPointing(ctx, d); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// recheckPointing checks again whether a domain whose proof holds still
// points here; a domain seen pointing at verification may have moved.
func (r *Runner) recheckPointing(ctx context.Context, d store.DomainRecheck) error {
	checkCtx, cancel := context.WithTimeout(ctx, CheckTimeout)
	problem := r.o.Verifier.CheckPointing(checkCtx, d.Domain, r.o.Target)
	cancel()
	if ctx.Err() != nil {
		return nil
	}
	_, err := r.o.Store.RecordDomainPointing(context.WithoutCancel(ctx), d.WorkspaceID, d.ID, problem, r.o.Now())
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDomainUnverified) {
		return nil // deleted or released since it was claimed
	}
	return err
}
