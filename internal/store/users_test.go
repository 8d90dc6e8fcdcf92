package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestCreateUserRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		start := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))
		end := start.Add(14 * 24 * time.Hour)
		u := &store.User{
			Username:             "Ada@Example.com",
			PasswordHash:         "$argon2id$hash",
			FirstName:            "Ada",
			LastName:             "Lovelace",
			Email:                "ada@example.com",
			GoogleID:             "g-123",
			StripeCustomerID:     "cus_1",
			StripeSubscriptionID: "sub_1",
			TrialActivated:       true,
			TrialStartDate:       &start,
			TrialEndDate:         &end,
			IsAdmin:              true,
			EmailVerified:        true,
		}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if u.ID == 0 || u.ClientID != 1 || u.SubscriptionStatus != "free" || u.CreatedAt.IsZero() {
			t.Fatalf("CreateUser did not fill defaults: %+v", u)
		}
		got, err := s.User(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The trial dates the caller passed are not normalised in place;
		// compare them as instants at microsecond precision.
		if !got.TrialStartDate.Equal(start.Truncate(time.Microsecond)) || !got.TrialEndDate.Equal(end.Truncate(time.Microsecond)) {
			t.Errorf("trial dates = %v, %v; want %v, %v", got.TrialStartDate, got.TrialEndDate, start, end)
		}
		got.TrialStartDate, got.TrialEndDate = u.TrialStartDate, u.TrialEndDate
		if *got != *u {
			t.Errorf("User() =\n%+v\nwant\n%+v", *got, *u)
		}
		if got.CreatedAt != u.CreatedAt {
			t.Errorf("CreatedAt = %v, want %v", got.CreatedAt, u.CreatedAt)
		}
	})
}

func TestCreateUserWithoutPassword(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := &store.User{Username: "google@example.com", GoogleID: "g-1", ClientID: 1}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		got, err := s.UserByGoogleID(ctx, "g-1")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != u.ID || got.PasswordHash != "" || got.TrialStartDate != nil || got.DeletedAt != nil {
			t.Errorf("UserByGoogleID = %+v", got)
		}
	})
}

func TestCreateUserConflicts(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.CreateUser(ctx, &store.User{Username: "bob@example.com", GoogleID: "g-bob"}); err != nil {
			t.Fatal(err)
		}
		for _, u := range []*store.User{
			{Username: "bob@example.com"},
			{Username: "BOB@Example.COM"},
			{Username: "other@example.com", GoogleID: "g-bob"},
		} {
			err := s.CreateUser(ctx, u)
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("CreateUser(%q, %q) = %v, want ErrConflict", u.Username, u.GoogleID, err)
			}
		}
		// Two accounts without a Google ID do not collide.
		storetest.CreateUser(t, s, "carol@example.com")
		storetest.CreateUser(t, s, "dave@example.com")
	})
}

func TestCreateUserUnknownClient(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		err := s.CreateUser(context.Background(), &store.User{Username: "x@example.com", ClientID: 99})
		if err == nil {
			t.Fatal("CreateUser with client 99 succeeded; foreign keys are not enforced")
		}
	})
}

func TestUserByUsername(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "Eve@Example.com")
		for _, name := range []string{"Eve@Example.com", "eve@example.com", "EVE@EXAMPLE.COM"} {
			got, err := s.UserByUsername(ctx, name)
			if err != nil || got.ID != u.ID {
				t.Errorf("UserByUsername(%q) = %v, %v; want user %d", name, got, err, u.ID)
			}
		}
		if _, err := s.UserByUsername(ctx, "nobody@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown username: %v, want ErrNotFound", err)
		}
	})
}

func TestUserNotFound(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if _, err := s.User(ctx, 12345); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("User(12345) = %v, want ErrNotFound", err)
		}
		if _, err := s.UserByGoogleID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UserByGoogleID(nope) = %v, want ErrNotFound", err)
		}
		storetest.CreateUser(t, s, "nogoogle@example.com")
		if _, err := s.UserByGoogleID(ctx, ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf(`UserByGoogleID("") = %v, want ErrNotFound`, err)
		}
	})
}

func TestLinkGoogleID(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := storetest.CreateUser(t, s, "a@example.com")
		b := storetest.CreateUser(t, s, "b@example.com")
		if err := s.LinkGoogleID(ctx, a.ID, "g-a"); err != nil {
			t.Fatal(err)
		}
		if err := s.LinkGoogleID(ctx, a.ID, "g-a"); err != nil {
			t.Errorf("relinking the same account: %v", err)
		}
		got, err := s.UserByGoogleID(ctx, "g-a")
		if err != nil || got.ID != a.ID {
			t.Fatalf("UserByGoogleID = %v, %v; want user %d", got, err, a.ID)
		}
		if err := s.LinkGoogleID(ctx, b.ID, "g-a"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("linking a taken Google ID: %v, want ErrConflict", err)
		}
		if err := s.LinkGoogleID(ctx, 999, "g-z"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("linking an unknown user: %v, want ErrNotFound", err)
		}
	})
}

func TestSetAdmin(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "Admin@Example.com")
		if err := s.SetAdmin(ctx, "admin@example.com", true); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.User(ctx, u.ID); got == nil || !got.IsAdmin {
			t.Fatalf("after SetAdmin(true): %+v", got)
		}
		if err := s.SetAdmin(ctx, "ADMIN@example.com", false); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.User(ctx, u.ID); got == nil || got.IsAdmin {
			t.Fatalf("after SetAdmin(false): %+v", got)
		}
		if err := s.SetAdmin(ctx, "nobody@example.com", true); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown user: %v, want ErrNotFound", err)
		}
		if err := s.SoftDeleteUser(ctx, u.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := s.SetAdmin(ctx, "admin@example.com", true); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted user: %v, want ErrNotFound", err)
		}
	})
}

func TestUpdateUserName(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "name@example.com")
		if err := s.UpdateUserName(ctx, u.ID, "Grace", "Hopper"); err != nil {
			t.Fatal(err)
		}
		got, err := s.User(ctx, u.ID)
		if err != nil || got.FirstName != "Grace" || got.LastName != "Hopper" {
			t.Fatalf("after UpdateUserName: %+v, %v", got, err)
		}
		if err := s.UpdateUserName(ctx, 999, "X", "Y"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown user: %v, want ErrNotFound", err)
		}
	})
}

func TestSoftDeleteUser(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		u := storetest.CreateUser(t, s, "gone@example.com")
		if err := s.LinkGoogleID(ctx, u.ID, "g-gone"); err != nil {
			t.Fatal(err)
		}
		sess := &store.Session{ID: "s-gone", UserID: u.ID, ExpiresAt: now.Add(time.Hour)}
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		if err := s.SoftDeleteUser(ctx, u.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		got, err := s.User(ctx, u.ID)
		if err != nil {
			t.Fatalf("User of a deleted user: %v", err)
		}
		if !got.IsDeleted || got.DeletedAt == nil || got.DeletedAt.Before(now.Add(-time.Second)) {
			t.Errorf("deleted user = %+v", got)
		}
		if _, _, err := s.SessionUser(ctx, sess.ID, now, time.Hour); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("session of a deleted user: %v, want ErrNotFound", err)
		}
		if n, err := s.DeleteExpiredSessions(ctx, now.Add(2*time.Hour)); err != nil || n != 0 {
			t.Errorf("sessions left after deletion: %d, %v", n, err)
		}
		if _, err := s.UserByUsername(ctx, "gone@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UserByUsername of a deleted user: %v, want ErrNotFound", err)
		}
		if _, err := s.UserByGoogleID(ctx, "g-gone"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UserByGoogleID of a deleted user: %v, want ErrNotFound", err)
		}
		if err := s.UpdateUserName(ctx, u.ID, "A", "B"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UpdateUserName of a deleted user: %v, want ErrNotFound", err)
		}

		// Deleting again keeps the first deletion time.
		if err := s.SoftDeleteUser(ctx, u.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		again, _ := s.User(ctx, u.ID)
		if again == nil || again.DeletedAt == nil || !again.DeletedAt.Equal(*got.DeletedAt) {
			t.Errorf("second delete changed DeletedAt: %v -> %v", got.DeletedAt, again)
		}

		// The e-mail and Google account are free for a new sign-up.
		fresh := &store.User{Username: "Gone@example.com", GoogleID: "g-gone"}
		if err := s.CreateUser(ctx, fresh); err != nil {
			t.Fatalf("signing up again after deletion: %v", err)
		}
		if byName, err := s.UserByUsername(ctx, "gone@example.com"); err != nil || byName.ID != fresh.ID {
			t.Errorf("UserByUsername after re-sign-up = %v, %v; want user %d", byName, err, fresh.ID)
		}

		if err := s.SoftDeleteUser(ctx, 999, time.Now()); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting an unknown user: %v, want ErrNotFound", err)
		}
	})
}
