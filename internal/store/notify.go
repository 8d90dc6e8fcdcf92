package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// redirectChannel is the PostgreSQL notification channel on which a
// changed short code is announced to every instance's redirect cache.
const redirectChannel = "squarely_redirects"

// Every write that changes what a scan of a short code resolves to (its
// destination, routing, app data, pause, password or client, the code's
// creation or deletion, the deletion of its workspace, its owner's account
// or its client) announces the code once its transaction has committed:
// redirectsChanged calls this instance's hooks (OnRedirectsChanged: the
// redirect cache drops the codes) and tells the other instances
// (NotifyRedirect). Callers of the store never do it by hand;
// TestWritesAnnounceRedirects fails when a method writes what a scan reads
// without announcing it.
//
// GS1 Digital Link entries (gs1.go) are announced the same way, each GTIN
// under its GS1Key ("gs1:" and the GTIN, which no short code can be):
// hooks and listeners tell the two apart with AnnouncedGTIN.

// redirectHooks are the functions OnRedirectsChanged registered.
type redirectHooks struct {
	mu  sync.Mutex
	fns []func(shortCodes []string, notifyErr error)
}

// OnRedirectsChanged registers f, called after every committed change to
// what scans of shortCodes resolve to, with the error of announcing it to
// the other instances (nil on SQLite, or when it went out).
func (s *Store) OnRedirectsChanged(f func(shortCodes []string, notifyErr error)) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.fns = append(s.hooks.fns, f)
}

// redirectsChanged announces committed changes to scans of shortCodes: to
// the other instances, then to this one's hooks. The announcement goes out
// even when ctx has ended, as the change it follows was committed.
func (s *Store) redirectsChanged(ctx context.Context, shortCodes ...string) {
	if len(shortCodes) == 0 {
		return
	}
	err := s.NotifyRedirect(context.WithoutCancel(ctx), shortCodes...)
	s.hooks.mu.Lock()
	fns := s.hooks.fns
	s.hooks.mu.Unlock()
	for _, f := range fns {
		f(shortCodes, err)
	}
}

// NotifyRedirect tells every instance listening (ListenRedirects) that the
// short codes' redirects changed: as few notifications as PostgreSQL's
// payload limit allows, each a newline-separated list (a workspace's
// deletion announces all its codes). On SQLite, which one instance serves,
// it does nothing.
func (s *Store) NotifyRedirect(ctx context.Context, shortCodes ...string) error {
	if s.dialect != Postgres {
		return nil
	}
	for len(shortCodes) > 0 {
		n, size := 0, 0
		for n < len(shortCodes) && (n == 0 || size+1+len(shortCodes[n]) <= maxNotifyPayload) {
			size += 1 + len(shortCodes[n])
			n++
		}
		payload := strings.Join(shortCodes[:n], "\n")
		shortCodes = shortCodes[n:]
		if _, err := s.write.ExecContext(ctx, `SELECT pg_notify($1, $2)`, redirectChannel, payload); err != nil {
			return fail("announce a changed redirect", err)
		}
	}
	return nil
}

// maxNotifyPayload keeps a notification under PostgreSQL's limit of 8000
// bytes.
const maxNotifyPayload = 7900

// ListenRedirects calls changed with each short code announced by
// NotifyRedirect, on any instance, until ctx ends. Whenever its connection
// is lost, announcements may have been missed: once it listens again it
// calls lost, so the caller can drop what it cached. On SQLite it returns
// at once. Errors go to onError, and it retries with backoff.
func (s *Store) ListenRedirects(ctx context.Context, changed func(shortCode string), lost func(), onError func(error)) {
	if s.dialect != Postgres {
		return
	}
	backoff := time.Duration(0)
	for first := true; ; first = false {
		err := s.listen(ctx, changed, func() {
			backoff = 0
			if !first {
				lost()
			}
		})
		if ctx.Err() != nil {
			return
		}
		onError(err)
		backoff = min(max(2*backoff, 100*time.Millisecond), 5*time.Second)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
	}
}

// listen holds a connection of the pool LISTENing, calling listening once
// it does, until the connection fails or ctx ends. The connection is then
// closed rather than returned to the pool, which would keep it listening.
func (s *Store) listen(ctx context.Context, changed func(string), listening func()) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fail("listen for changed redirects", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		defer pc.Close(context.Background())
		if _, err := pc.Exec(ctx, "LISTEN "+redirectChannel); err != nil {
			return err
		}
		listening()
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				return err
			}
			for code := range strings.SplitSeq(n.Payload, "\n") {
				changed(code)
			}
		}
	})
	if err == nil {
		err = errors.New("the connection closed")
	}
	return fail("listen for changed redirects", err)
}
