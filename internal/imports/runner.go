package imports

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/store"
)

const (
	lease       = 30 * time.Second
	pollEvery   = time.Second
	batch       = 100
	maxAttempts = 5
)

// Create makes the dynamic code of a pending item of job j and answers
// the item's outcome (Status created with CodeID, conflict or failed with
// Error). It is the server's, through the app's creation path; an error
// is a failure to retry (the database), not a refusal.
type Create func(ctx context.Context, j *store.ImportJob, it store.ImportItem) (store.ImportItem, error)

// Check compares one imported link of job j on the old host and on
// Squarely (the switch check); it is the server's. An error is a failure
// to retry, not a difference.
type Check func(ctx context.Context, j *store.ImportJob, it store.ImportItem) (store.ImportCheck, error)

// Runner creates the codes of queued import jobs, then runs the queued
// switch checks; every instance runs one, and a job or a check is held
// under a lease, so it resumes on another runner when its instance stops.
// A runner checks one link at a time, so an old host gets one request at a
// time from it.
type Runner struct {
	store  *store.Store
	create Create
	check  Check
	log    *slog.Logger
	now    func() time.Time
	loop   *jobs.Loop // the imports
	checks *jobs.Loop // the switch checks

	// AfterItem, for tests, runs after each saved item.
	AfterItem func(j *store.ImportJob, it store.ImportItem)
}

// NewRunner returns a runner over st; Run starts it. now may be nil.
func NewRunner(st *store.Store, create Create, check Check, log *slog.Logger, now func() time.Time) *Runner {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Runner{store: st, create: create, check: check, log: log, now: now, loop: jobs.NewLoop(pollEvery), checks: jobs.NewLoop(pollEvery)}
}

// Wake starts the runner on a new job or check without waiting for its
// next poll.
func (r *Runner) Wake() {
	r.loop.Wake()
	r.checks.Wake()
}

// Run works through jobs, and beside them switch checks (a long check
// does not hold up an import), until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.checks.Run(ctx, func(ctx context.Context) {
			err := jobs.Drain(ctx, func(ctx context.Context) (*store.ImportJob, error) {
				now := r.now()
				return r.store.ClaimImportCheck(ctx, now, now.Add(lease))
			}, func(j *store.ImportJob) error {
				r.runCheck(ctx, j)
				return nil
			})
			if err != nil && ctx.Err() == nil {
				r.log.Error("claiming a switch check", "err", err)
			}
		})
	}()
	r.loop.Run(ctx, func(ctx context.Context) {
		err := jobs.Drain(ctx, func(ctx context.Context) (*store.ImportJob, error) {
			now := r.now()
			return r.store.ClaimImportJob(ctx, now, now.Add(lease))
		}, func(j *store.ImportJob) error {
			r.runJob(ctx, j)
			return nil
		})
		if err != nil && ctx.Err() == nil {
			r.log.Error("claiming an import job", "err", err)
		}
	})
	wg.Wait()
}

// runCheck compares job j's imported links not yet checked, one at a time.
func (r *Runner) runCheck(ctx context.Context, j *store.ImportJob) {
	log := r.log.With("import", j.ID, "check", true)
	finish := func() {
		if err := r.store.FinishImportCheck(context.Background(), j.ID); err != nil {
			log.Error("finishing a switch check", "err", err)
		}
	}
	if j.CheckAttempts > maxAttempts {
		finish() // the links left unchecked keep check.ready false
		return
	}
	jobs.RunBatches(ctx, log, pollEvery, func(ctx context.Context) (bool, error) {
		items, err := r.store.UncheckedImportItems(ctx, j.ID, batch)
		if err != nil || len(items) == 0 {
			return err == nil, err
		}
		for _, it := range items {
			if ctx.Err() != nil {
				break
			}
			c, err := r.check(ctx, j, it)
			if err == nil {
				err = r.store.SetImportCheck(ctx, j.ID, c, r.now().Add(lease))
			}
			if err != nil {
				return false, err
			}
		}
		return false, nil
	}, func(ctx context.Context) error {
		return r.store.ReleaseImportCheck(ctx, j.ID)
	}, finish)
}

func (r *Runner) runJob(ctx context.Context, j *store.ImportJob) {
	if j.Attempts > maxAttempts {
		r.finish(j, store.ImportFailed, "The import stopped too many times and was given up; links not yet created are marked failed")
		return
	}
	jobs.RunBatches(ctx, r.log.With("import", j.ID), pollEvery, func(ctx context.Context) (bool, error) {
		items, err := r.store.ImportItems(ctx, j.ID, 0, batch, store.ImportPending)
		if err != nil || len(items) == 0 {
			return err == nil, err
		}
		for _, it := range items {
			if ctx.Err() != nil {
				break
			}
			out, err := r.create(ctx, j, it)
			if err == nil {
				now := r.now()
				err = r.store.SetImportItem(ctx, j.ID, out, now, now.Add(lease))
			}
			if err != nil {
				return false, err // the next step reads the item again
			}
			if r.AfterItem != nil {
				r.AfterItem(j, out)
			}
		}
		return false, nil
	}, func(ctx context.Context) error {
		return r.store.ReleaseImportJob(ctx, j.ID)
	}, func() { r.finish(j, store.ImportDone, "") })
}

func (r *Runner) finish(j *store.ImportJob, status, reason string) {
	if err := r.store.FinishImportJob(context.Background(), j.ID, status, reason, r.now()); err != nil {
		r.log.Error("finishing an import job", "import", j.ID, "err", err)
	}
}
