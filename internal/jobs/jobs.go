// Package jobs is the loop background runners share (bulk and alerts so
// far; mailings and webhooks next): work held in the database under a lease, so any
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
	"errors"
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
