package imports

import (
	"context"
	"log/slog"
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

// Runner creates the codes of queued import jobs; every instance runs
// one, and a job is held under a lease, so it resumes on another runner
// when its instance stops.
type Runner struct {
	store  *store.Store
	create Create
	log    *slog.Logger
	now    func() time.Time
	loop   *jobs.Loop

	// AfterItem, for tests, runs after each saved item.
	AfterItem func(j *store.ImportJob, it store.ImportItem)
}

// NewRunner returns a runner over st; Run starts it. now may be nil.
func NewRunner(st *store.Store, create Create, log *slog.Logger, now func() time.Time) *Runner {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Runner{store: st, create: create, log: log, now: now, loop: jobs.NewLoop(pollEvery)}
}

// Wake starts the runner on a new job without waiting for its next poll.
func (r *Runner) Wake() { r.loop.Wake() }

// Run works through jobs until ctx ends.
func (r *Runner) Run(ctx context.Context) {
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
