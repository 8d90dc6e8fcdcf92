package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestActivateTrial(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "trial@example.com")
		start := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
		end := start.Add(72 * time.Hour)
		if err := s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), u.ID, start, end); err != nil {
			t.Fatal(err)
		}
		got, _ := s.PersonalWorkspace(ctx, u.ID)
		if !got.TrialActivated || !got.TrialStartDate.Equal(start) || !got.TrialEndDate.Equal(end) {
			t.Fatalf("after activation: %+v", got)
		}
		if err := s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), u.ID, end, end.Add(time.Hour)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second activation: err = %v, want ErrConflict", err)
		}
		if got, _ := s.PersonalWorkspace(ctx, u.ID); !got.TrialStartDate.Equal(start) {
			t.Errorf("second activation moved the start to %v", got.TrialStartDate)
		}
		if err := s.ActivateTrial(ctx, 999999, u.ID, start, end); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown workspace: %v", err)
		}

		// The account's trial is used too: a workspace it makes brings no
		// second one. An account that never had one gets one, in one of
		// two workspaces that race for it.
		var teams [3]int64
		for i := range teams {
			ws, err := s.CreateWorkspace(ctx, u.ID, 1, fmt.Sprint("Team ", i), start)
			if err != nil {
				t.Fatal(err)
			}
			teams[i] = ws.ID
		}
		if err := s.ActivateTrial(ctx, teams[0], u.ID, start, end); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a used account's new workspace: %v, want ErrConflict", err)
		}
		other := storetest.CreateUser(t, s, "other@example.com")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() { errs[i] = s.ActivateTrial(ctx, teams[1+i], other.ID, start, end) })
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) || (!errors.Is(errs[0], store.ErrConflict) && !errors.Is(errs[1], store.ErrConflict)) {
			t.Errorf("one owner's two racing activations: %v", errs)
		}
		for i, err := range errs {
			ws, _ := s.MemberWorkspace(ctx, u.ID, teams[1+i])
			if ws.TrialActivated != (err == nil) {
				t.Errorf("team %d: trial activated %v after %v", 1+i, ws.TrialActivated, err)
			}
		}
	})
}

func TestPasswordToken(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := &store.User{Username: "nopass@example.com", Email: "nopass@example.com"}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "hash-a", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "hash-b", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UsePasswordToken(ctx, "hash-a", now.Add(time.Hour), "pw"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("expired token: %v", err)
		}
		if _, err := s.UsePasswordToken(ctx, "unknown", now, "pw"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown token: %v", err)
		}
		got, err := s.UsePasswordToken(ctx, "hash-a", now, "bcrypt-hash")
		if err != nil || got.ID != u.ID || got.PasswordHash != "bcrypt-hash" {
			t.Fatalf("UsePasswordToken = %+v, %v", got, err)
		}
		// Used: this token and the user's other one are gone.
		for _, h := range []string{"hash-a", "hash-b"} {
			if _, err := s.UsePasswordToken(ctx, h, now, "again"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("token %s after use: %v", h, err)
			}
		}
	})
}

// Concurrent uses of one token, and concurrent activations of one trial:
// exactly one succeeds (PostgreSQL runs them at read committed).
func TestTokenAndTrialRaces(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "race@example.com")
		now := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "hash-race", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		race := func(what string, try func(i int) error, lost error) {
			const n = 8
			errs := make(chan error, n)
			for i := range n {
				go func() { errs <- try(i) }()
			}
			won := 0
			for range n {
				switch err := <-errs; {
				case err == nil:
					won++
				case !errors.Is(err, lost):
					t.Errorf("%s: %v", what, err)
				}
			}
			if won != 1 {
				t.Errorf("%s: %d of %d concurrent calls succeeded, want 1", what, won, n)
			}
		}
		race("UsePasswordToken", func(i int) error {
			_, err := s.UsePasswordToken(ctx, "hash-race", now, "pw")
			return err
		}, store.ErrNotFound)
		race("ActivateTrial", func(i int) error {
			return s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), u.ID, now.Add(time.Duration(i)*time.Minute), now.Add(72*time.Hour))
		}, store.ErrConflict)
	})
}
