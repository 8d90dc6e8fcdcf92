package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const idle = 30 * time.Minute

func createSession(t *testing.T, s *store.Store, id string, userID int64, created time.Time) {
	t.Helper()
	sess := &store.Session{ID: id, UserID: userID, CreatedAt: created, ExpiresAt: created.Add(idle)}
	if err := s.CreateSession(context.Background(), sess); err != nil {
		t.Fatalf("CreateSession(%q): %v", id, err)
	}
}

func TestSessionUser(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "sess@example.com")
		t0 := time.Now()
		createSession(t, s, "s1", u.ID, t0)

		got, _, err := s.SessionUser(ctx, "s1", t0.Add(time.Second), idle)
		if err != nil || got.ID != u.ID || got.Username != u.Username {
			t.Fatalf("SessionUser = %+v, %v; want user %d", got, err, u.ID)
		}
		if _, _, err := s.SessionUser(ctx, "unknown", t0, idle); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown session: %v, want ErrNotFound", err)
		}
		// ExpiresAt <= now is expired.
		if _, _, err := s.SessionUser(ctx, "s1", t0.Add(idle), idle); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("session at its expiry: %v, want ErrNotFound", err)
		}
	})
}

func TestSessionUserSlidesAtMostOnceAMinute(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "slide@example.com")
		t0 := time.Now()
		for _, id := range []string{"quiet", "extended", "capped"} {
			createSession(t, s, id, u.ID, t0)
		}

		// 30 s after the last write: no write, so the old expiry stands.
		if _, slid, err := s.SessionUser(ctx, "quiet", t0.Add(30*time.Second), idle); err != nil || slid {
			t.Fatalf("30 s after: slid %v, %v; want no write", slid, err)
		}
		if _, _, err := s.SessionUser(ctx, "quiet", t0.Add(idle+time.Second), idle); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a use within the minute extended the session: %v", err)
		}

		// 61 s after: the expiry moves to then+idle.
		seen := t0.Add(61 * time.Second)
		for _, id := range []string{"extended", "capped"} {
			if _, slid, err := s.SessionUser(ctx, id, seen, idle); err != nil || !slid {
				t.Fatalf("61 s after: slid %v, %v; want the write", slid, err)
			}
			// Of uses at the same moment, one writes: only it re-issues the cookie.
			if _, slid, err := s.SessionUser(ctx, id, seen, idle); err != nil || slid {
				t.Fatalf("second use at the same moment: slid %v, %v; want no write", slid, err)
			}
		}
		if _, _, err := s.SessionUser(ctx, "extended", t0.Add(idle+30*time.Second), idle); err != nil {
			t.Errorf("session not extended after a minute: %v", err)
		}
		// A use 30 s after that write does not move the expiry again.
		if _, _, err := s.SessionUser(ctx, "capped", seen.Add(30*time.Second), idle); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.SessionUser(ctx, "capped", seen.Add(idle), idle); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("session outlived its slid expiry: %v", err)
		}
	})
}

func TestCreateSessionBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "bad@example.com")
		now := time.Now()
		createSession(t, s, "dup", u.ID, now)
		err := s.CreateSession(ctx, &store.Session{ID: "dup", UserID: u.ID, ExpiresAt: now.Add(idle)})
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate session id: %v, want ErrConflict", err)
		}
		if err := s.CreateSession(ctx, &store.Session{ID: "orphan", UserID: 999, ExpiresAt: now.Add(idle)}); err == nil {
			t.Error("session for an unknown user was saved")
		}
		if err := s.CreateSession(ctx, &store.Session{ID: "noexp", UserID: u.ID}); err == nil {
			t.Error("session without ExpiresAt was saved")
		}
	})
}

func TestDeleteSession(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "logout@example.com")
		now := time.Now()
		createSession(t, s, "s1", u.ID, now)
		if err := s.DeleteSession(ctx, "s1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.SessionUser(ctx, "s1", now, idle); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted session: %v, want ErrNotFound", err)
		}
		if err := s.DeleteSession(ctx, "s1"); err != nil {
			t.Errorf("deleting a deleted session: %v", err)
		}
	})
}

func TestDeleteExpiredSessions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "expire@example.com")
		t0 := time.Now()
		createSession(t, s, "old1", u.ID, t0.Add(-2*idle))
		createSession(t, s, "old2", u.ID, t0.Add(-idle)) // expires exactly at t0
		createSession(t, s, "live", u.ID, t0)

		n, err := s.DeleteExpiredSessions(ctx, t0)
		if err != nil || n != 2 {
			t.Fatalf("DeleteExpiredSessions = %d, %v; want 2", n, err)
		}
		if _, _, err := s.SessionUser(ctx, "live", t0, idle); err != nil {
			t.Errorf("live session removed: %v", err)
		}
		if n, err := s.DeleteExpiredSessions(ctx, t0); err != nil || n != 0 {
			t.Errorf("second run = %d, %v; want 0", n, err)
		}
	})
}

func TestDeletingUserRowCascadesToSessions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "hard@example.com")
		now := time.Now()
		createSession(t, s, "s1", u.ID, now)
		// Only an operator removes user rows; sessions must go with them.
		if _, err := store.WriteDB(s).ExecContext(ctx, `DELETE FROM users WHERE id = $1`, u.ID); err != nil {
			t.Fatal(err)
		}
		if n, err := s.DeleteExpiredSessions(ctx, now.Add(2*idle)); err != nil || n != 0 {
			t.Errorf("sessions left after the user row went: %d, %v", n, err)
		}
	})
}
