// Package jobs is the loop every background runner shares (bulk jobs,
// mailings, webhook deliveries, link checks and alerts, domain re-checks,
// the mail outbox): work held in the database under a lease, so any
// instance may take it, one at a time, and another resumes it once the
// lease of an instance that stopped runs out.
//
// A runner's Run is a Loop: a pass at once, then after every poll or Wake,
// until its context ends. A pass Drains its store: it claims a job (the
// store's conditional update that takes a job queued, or one whose lease
// ran out, for a new lease), runs it, and claims the next, until the claim
// finds none (store.ErrNotFound).
// The store's claims and writes run to the end even when the context ends,
// so a claim is never committed unbeknown to its runner; the context only
// stops new work.
package jobs

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// Loop calls a pass at once, then every Poll and after each Wake.
type Loop struct {
	poll time.Duration
	wake chan struct{}
}

// NewLoop returns a loop that polls every poll.
func NewLoop(poll time.Duration) *Loop {
	return &Loop{poll: poll, wake: make(chan struct{}, 1)}
}

// Wake makes the loop run its next pass now (after the one under way, if
// any), rather than at the next poll. It never blocks.
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run calls pass until ctx ends, and returns once ctx has ended and the
// pass under way has returned. No pass starts after ctx ends.
func (l *Loop) Run(ctx context.Context, pass func(ctx context.Context)) {
	tick := time.NewTicker(l.poll)
	defer tick.Stop()
	for ctx.Err() == nil {
		pass(ctx)
		select {
		case <-ctx.Done():
		case <-l.wake:
		case <-tick.C:
		}
	}
}

// Drain claims a job and runs it, then the next, until claim finds none
// (store.ErrNotFound), claim or run fails, or ctx ends. claim gets ctx
// without its cancellation (see the package comment). It returns the
// first error other than store.ErrNotFound.
func Drain[J any](ctx context.Context, claim func(context.Context) (J, error), run func(J) error) error {
	write := context.WithoutCancel(ctx)
	for ctx.Err() == nil {
		j, err := claim(write)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := run(j); err != nil {
			return err
		}
	}
	return nil
}

// DrainBatches is Drain for claims of up to size jobs at a time: it stops
// after a claim that found none or fewer than size (none were left then),
// without a last claim that would find nothing.
func DrainBatches[J any](ctx context.Context, size int, claim func(context.Context) ([]J, error), run func([]J) error) error {
	short := false
	return Drain(ctx, func(ctx context.Context) ([]J, error) {
		if short {
			return nil, store.ErrNotFound
		}
		list, err := claim(ctx)
		if err == nil && len(list) == 0 {
			err = store.ErrNotFound
		}
		short = len(list) < size
		return list, err
	}, run)
}

// Leased are the options of a runner that holds its jobs under leases.
type Leased struct {
	Logger *slog.Logger     // nil = slog.Default()
	Now    func() time.Time // nil = time.Now
	Owner  string           // names this instance in leases; "" = random (NewOwner)
	Lease  time.Duration    // how long a claim holds without renewal; 0 = 1 minute
	Poll   time.Duration    // how often to look for work besides Wake; 0 = the runner's default
}

// Fill sets the defaults of the options left zero; poll is the runner's
// default Poll.
func (o *Leased) Fill(poll time.Duration) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Owner == "" {
		o.Owner = NewOwner()
	}
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = poll
	}
}

// NewOwner names this instance in the leases it takes: random, so two
// instances never share one.
func NewOwner() string {
	var b [8]byte
	rand.Read(b[:])
	return fmt.Sprintf("%x", b)
}

// Lease is the heartbeat of a claim held while its job runs: Keep renews
// it once a third of its length has passed, so a renewal can fail twice
// before another instance may take the job over.
type Lease struct {
	length  time.Duration
	renewed time.Time
}

// NewLease starts the heartbeat of a lease of length taken at now.
func NewLease(length time.Duration, now time.Time) *Lease {
	return &Lease{length: length, renewed: now}
}

// Keep calls renew when the lease is due for renewal at now; an error
// means the lease may be lost and the job must stop.
func (l *Lease) Keep(now time.Time, renew func() error) error {
	if now.Sub(l.renewed) <= l.length/3 {
		return nil
	}
	if err := renew(); err != nil {
		return err
	}
	l.renewed = now
	return nil
}

// RunBatches works through one claimed job a batch at a time: step does
// the next batch and reports done when none was left, then finish records
// the job as done. When ctx ends, release hands the job to the next
// runner (with a context that outlives ctx). A step failing with
// store.ErrItemTaken means another runner holds the job now: it stops. A
// step failing otherwise is logged and tried again after pause, the lease
// still holding the job.
func RunBatches(ctx context.Context, log *slog.Logger, pause time.Duration,
	step func(ctx context.Context) (done bool, err error), release func(ctx context.Context) error, finish func()) {
	for {
		if ctx.Err() != nil {
			if err := release(context.WithoutCancel(ctx)); err != nil {
				log.Error("releasing a job", "err", err)
			}
			return
		}
		done, err := step(ctx)
		switch {
		case errors.Is(err, store.ErrItemTaken):
			log.Warn("job taken over by another runner")
			return
		case err != nil:
			if ctx.Err() == nil {
				log.Error("running a job", "err", err)
				select {
				case <-ctx.Done():
				case <-time.After(pause):
				}
			}
		case done:
			finish()
			return
		}
	}
}
