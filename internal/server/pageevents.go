package server

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/squarely/squarely/internal/store"
)

// PageEvents saves hosted pages' visitor events (views, clicks, saves,
// reveals, calendar adds) off the request path, in batches. Like the scan
// recorder, the caller creates it (NewPageEvents) and closes it after the
// HTTP server has shut down: Close saves every event still queued.
type PageEvents struct {
	store *store.Store
	log   *slog.Logger

	in        chan store.PageEvent
	closing   chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	lastErr   error // the last failed save, read after done is closed

	saved, dropped atomic.Int64
}

// NewPageEvents starts saving page events to st.
func NewPageEvents(st *store.Store, log *slog.Logger) *PageEvents {
	if log == nil {
		log = slog.Default()
	}
	p := &PageEvents{store: st, log: log, in: make(chan store.PageEvent, pageEventQueue), closing: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

// add queues e; it never waits: a full queue, or a closed one (the server
// has stopped by then), drops it, counted.
func (p *PageEvents) add(e store.PageEvent) {
	select {
	case <-p.closing:
		p.dropped.Add(1)
		return
	default:
	}
	select {
	case p.in <- e:
	default:
		p.dropped.Add(1)
	}
}

// Close saves the queued events and stops; it returns early with ctx's
// error, or the error of a save that failed.
func (p *PageEvents) Close(ctx context.Context) error {
	p.closeOnce.Do(func() { close(p.closing) })
	select {
	case <-p.done:
		return p.lastErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Saved and Dropped count the events saved and dropped so far.
func (p *PageEvents) Saved() int64   { return p.saved.Load() }
func (p *PageEvents) Dropped() int64 { return p.dropped.Load() }

// run saves queued events in batches of up to pageEventBatch until Close,
// then what is left.
func (p *PageEvents) run() {
	defer close(p.done)
	batch := make([]store.PageEvent, 0, pageEventBatch)
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if err := p.store.RecordPageEvents(context.Background(), batch); err != nil {
			p.lastErr = err
			p.log.Error("saving page events", "events", len(batch), "err", err)
		} else {
			p.saved.Add(int64(len(batch)))
		}
		batch = batch[:0]
	}
	// take moves the queued events into batches, saving each full one.
	take := func() {
		for {
			select {
			case e := <-p.in:
				batch = append(batch, e)
				if len(batch) == pageEventBatch {
					flush()
				}
			default:
				return
			}
		}
	}
	for {
		select {
		case <-p.closing:
			take()
			flush()
			return
		case e := <-p.in:
			batch = append(batch, e)
			take()
			flush()
		}
	}
}
