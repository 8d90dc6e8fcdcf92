package store_test

import (
	"context"
	"errors"
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
		if err := s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), start, end); err != nil {
			t.Fatal(err)
		}
		got, _ := s.PersonalWorkspace(ctx, u.ID)
		if !got.TrialActivated || !got.TrialStartDate.Equal(start) || !got.TrialEndDate.Equal(end) {
			t.Fatalf("after activation: %+v", got)
		}
		if err := s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), end, end.Add(time.Hour)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second activation: err = %v, want ErrConflict", err)
		}
		if got, _ := s.PersonalWorkspace(ctx, u.ID); !got.TrialStartDate.Equal(start) {
			t.Errorf("second activation moved the start to %v", got.TrialStartDate)
		}
		if err := s.ActivateTrial(ctx, 999999, start, end); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown user: %v", err)
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
			return s.ActivateTrial(ctx, storetest.Personal(t, s, u.ID), now.Add(time.Duration(i)*time.Minute), now.Add(72*time.Hour))
		}, store.ErrConflict)
	})
}
