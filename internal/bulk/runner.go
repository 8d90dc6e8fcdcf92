package bulk

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/store"
)

const (
	// batchSize rows are saved per transaction: progress still moves
	// several times a second, and each commit's cost is shared.
	batchSize = 250
	// lease is how long a job stays with its runner without news; a runner
	// renews it with every batch, so only a stopped instance lets it lapse.
	lease = 30 * time.Second
	// pollEvery is how often an idle runner looks for jobs (other
	// instances' uploads, lapsed leases).
	pollEvery = time.Second
	// maxAttempts ends a job that keeps stopping its runners as failed
	// rather than retrying it forever.
	maxAttempts = 5
	// saveTries bounds the retries of a batch that drew a taken short code.
	saveTries = 3
)

// Messages saved with items and jobs.
const (
	msgLimitAtSave = "Your dynamic QR code limit was reached before this row was saved"
	msgGaveUp      = "The job stopped too many times and was given up; rows not yet saved are marked failed"
)

// Runner saves the items of queued jobs. Every instance runs one; a job is
// held under a lease in the database, so one runner works on it at a time
// and another takes it over when its instance stops.
type Runner struct {
	store *store.Store
	log   *slog.Logger
	now   func() time.Time
	loop  *jobs.Loop

	// afterBatch, for tests, runs after each saved batch.
	afterBatch func(job *store.BulkJob)
}

// NewRunner returns a runner over st; Run starts it. now may be nil
// (time.Now).
func NewRunner(st *store.Store, log *slog.Logger, now func() time.Time) *Runner {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Runner{store: st, log: log, now: now, loop: jobs.NewLoop(pollEvery)}
}

// Wake tells the runner a job was queued, so it starts without waiting
// for its next poll.
func (r *Runner) Wake() { r.loop.Wake() }

// Run works through jobs until ctx ends. A job in hand when ctx ends is
// released for the next runner, its saved rows kept.
func (r *Runner) Run(ctx context.Context) { r.loop.Run(ctx, r.drain) }

// drain runs claimable jobs until there are none.
func (r *Runner) drain(ctx context.Context) {
	err := jobs.Drain(ctx, func(ctx context.Context) (*store.BulkJob, error) {
		now := r.now()
		return r.store.ClaimBulkJob(ctx, now, now.Add(lease))
	}, func(j *store.BulkJob) error {
		r.runJob(ctx, j)
		return nil
	})
	if err != nil && ctx.Err() == nil {
		r.log.Error("claiming a bulk job", "err", err)
	}
}

// runJob saves j's pending items batch by batch, then marks it done.
func (r *Runner) runJob(ctx context.Context, j *store.BulkJob) {
	if j.Attempts > maxAttempts {
		r.finish(j, store.BulkFailed, msgGaveUp)
		return
	}
	jobs.RunBatches(ctx, r.log.With("job", j.ID), pollEvery, func(ctx context.Context) (bool, error) {
		items, err := r.store.BulkItems(ctx, j.ID, 0, batchSize, store.ItemPending)
		if err != nil || len(items) == 0 {
			return err == nil, err
		}
		if err := r.save(ctx, j, items); err != nil {
			return false, err
		}
		if r.afterBatch != nil {
			r.afterBatch(j)
		}
		return false, nil
	}, func(ctx context.Context) error {
		return r.store.ReleaseBulkJob(ctx, j.ID)
	}, func() { r.finish(j, store.BulkDone, "") })
}

// save saves one batch, drawing new short codes when one was taken.
func (r *Runner) save(ctx context.Context, j *store.BulkJob, items []store.BulkItem) error {
	var err error
	for range saveTries {
		now := r.now()
		err = r.store.SaveBulkItems(ctx, j, items, now, now.Add(lease), msgLimitAtSave)
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return err
}

func (r *Runner) finish(j *store.BulkJob, status, reason string) {
	// A finished job must be recorded even as the instance stops.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.store.FinishBulkJob(ctx, j.ID, status, reason, r.now()); err != nil {
		r.log.Error("finishing a bulk job", "job", j.ID, "err", err)
	}
}
