package store_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// sessions creates n sessions of the user, named prefix-1 … prefix-n.
func sessions(t *testing.T, s *store.Store, userID int64, prefix string, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		sess := &store.Session{ID: prefix + "-" + string(rune('0'+i)), UserID: userID, ExpiresAt: time.Now().Add(time.Hour)}
		if err := s.CreateSession(context.Background(), sess); err != nil {
			t.Fatal(err)
		}
	}
}

func liveSession(t *testing.T, s *store.Store, id string) bool {
	t.Helper()
	_, _, err := s.SessionUser(context.Background(), id, time.Now(), time.Hour)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

func TestVerifyEmail(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "owner@example.com")
		if u.EmailVerified {
			t.Fatal("a new account starts verified")
		}
		sessions(t, s, u.ID, "squatter", 2)
		now := time.Now()
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkVerifyEmail, "verify-1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "password-1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		// A link works only for its own purpose.
		if _, err := s.VerifyEmail(ctx, "password-1", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("set-password link used to verify: %v", err)
		}
		if _, err := s.UsePasswordToken(ctx, "verify-1", now, "pw"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("verification link used to set a password: %v", err)
		}
		got, err := s.VerifyEmail(ctx, "verify-1", now)
		if err != nil || !got.EmailVerified || got.ID != u.ID {
			t.Fatalf("VerifyEmail = %+v, %v", got, err)
		}
		if liveSession(t, s, "squatter-1") || liveSession(t, s, "squatter-2") {
			t.Error("a session survived the verification")
		}
		if _, err := s.VerifyEmail(ctx, "verify-1", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("verification link used twice: %v", err)
		}
		if ok, _ := s.PasswordTokenValid(ctx, store.LinkSetPassword, "password-1", now); ok {
			t.Error("the other mailed link still works after the verification")
		}
	})
}

func TestUsePasswordTokenVerifiesAndEndsSessions(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := &store.User{Username: "trial@example.com", Email: "trial@example.com"}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		sessions(t, s, u.ID, "trial", 2)
		now := time.Now()
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "link", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.PasswordTokenValid(ctx, store.LinkSetPassword, "link", now); !ok || err != nil {
			t.Fatalf("PasswordTokenValid = %v, %v", ok, err)
		}
		if ok, _ := s.PasswordTokenValid(ctx, store.LinkSetPassword, "link", now.Add(time.Hour)); ok {
			t.Error("an expired link is valid")
		}
		got, err := s.UsePasswordToken(ctx, "link", now, "new-hash")
		if err != nil || !got.EmailVerified || got.PasswordHash != "new-hash" {
			t.Fatalf("UsePasswordToken = %+v, %v", got, err)
		}
		if liveSession(t, s, "trial-1") || liveSession(t, s, "trial-2") {
			t.Error("a session survived setting the password by mail")
		}
	})
}

func TestSetPasswordKeepsOnlyTheCurrentSession(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "change@example.com")
		other := storetest.CreateUser(t, s, "other@example.com")
		sessions(t, s, u.ID, "mine", 3)
		sessions(t, s, other.ID, "theirs", 1)
		if err := s.CreatePasswordToken(ctx, u.ID, store.LinkSetPassword, "old-link", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPassword(ctx, u.ID, "new-hash", "mine-2"); err != nil {
			t.Fatal(err)
		}
		if !liveSession(t, s, "mine-2") || liveSession(t, s, "mine-1") || liveSession(t, s, "mine-3") {
			t.Error("SetPassword kept the wrong sessions")
		}
		if !liveSession(t, s, "theirs-1") {
			t.Error("SetPassword ended another user's session")
		}
		if got, _ := s.User(ctx, u.ID); got.PasswordHash != "new-hash" {
			t.Errorf("password hash %q", got.PasswordHash)
		}
		if ok, _ := s.PasswordTokenValid(ctx, store.LinkSetPassword, "old-link", time.Now()); ok {
			t.Error("a mailed link outlived the password change")
		}
		if err := s.SetPassword(ctx, 999999, "x", ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown user: %v", err)
		}
	})
}

func TestClaimWithGoogle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "claimed@example.com") // a squatter's password
		sessions(t, s, u.ID, "squatter", 1)
		if err := s.ClaimWithGoogle(ctx, u.ID, "g-owner"); err != nil {
			t.Fatal(err)
		}
		got, _ := s.User(ctx, u.ID)
		if got.GoogleID != "g-owner" || !got.EmailVerified || got.PasswordHash != "" {
			t.Errorf("after the claim: %+v", got)
		}
		if liveSession(t, s, "squatter-1") {
			t.Error("the squatter's session survived the claim")
		}
		v := storetest.CreateUser(t, s, "second@example.com")
		if err := s.ClaimWithGoogle(ctx, v.ID, "g-owner"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a Google id claimed twice: %v", err)
		}
	})
}

// Deleting an account announces the codes it stops (OnRedirectsChanged):
// those of its personal workspace and of the teams no one else is in.
func TestSoftDeleteUserAnnouncesItsCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		u := storetest.CreateUser(t, s, "codes@example.com")
		other := storetest.CreateUser(t, s, "else@example.com")
		storetest.CreateDynamic(t, s, u.ID, "aaa111")
		storetest.CreateDynamic(t, s, u.ID, "bbb222")
		storetest.CreateDynamic(t, s, other.ID, "ccc333")
		// A team of u's alone stops with u; one other is in does not.
		ctx := context.Background()
		for i, mates := range [][]int64{nil, {other.ID}} {
			w, err := s.CreateWorkspace(ctx, u.ID, 1, "Team", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range mates {
				store.WriteDB(s).Exec(`INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, 'editor', $3)`,
					w.ID, m, "2026-01-01T00:00:00.000000Z")
			}
			d := storetest.NewDynamic(u.ID, fmt.Sprintf("team%d", i))
			d.WorkspaceID = w.ID
			if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		s.OnRedirectsChanged(func(codes []string, _ error) { got = append(got, codes...) })
		err := s.SoftDeleteUser(ctx, u.ID, time.Now())
		sort.Strings(got)
		if err != nil || len(got) != 3 || got[0] != "aaa111" || got[1] != "bbb222" || got[2] != "team0" {
			t.Errorf("announced %v, %v; want aaa111 bbb222 team0", got, err)
		}
	})
}

// Parallel attempts each get their own count, so exactly the limit of them
// fall within it, on one instance or many.
func TestCountAttemptInParallel(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		window := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
		const n = 40
		counts := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				c, err := s.CountAttempt(ctx, "login", "203.0.113.9", window)
				if err != nil {
					t.Error(err)
				}
				counts[i] = c
			})
		}
		wg.Wait()
		sort.Ints(counts)
		for i, c := range counts {
			if c != i+1 {
				t.Fatalf("counts %v are not 1…%d", counts, n)
			}
		}
		if err := s.RefundAttempt(ctx, "login", "203.0.113.9", window); err != nil {
			t.Fatal(err)
		}
		if c, _ := s.CountAttempt(ctx, "login", "203.0.113.9", window); c != n {
			t.Errorf("after a refund the next count is %d, want %d", c, n)
		}
		if c, _ := s.CountAttempt(ctx, "signup", "203.0.113.9", window); c != 1 {
			t.Errorf("another limiter's count is %d, want 1", c)
		}
		if c, _ := s.CountAttempt(ctx, "login", "203.0.113.9", window.Add(time.Minute)); c != 1 {
			t.Errorf("the next window's count is %d, want 1", c)
		}
		if err := s.DeleteAttemptsBefore(ctx, "login", window.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if got := storetest.Count(t, s, "rate_limits"); got != 2 {
			t.Errorf("%d counters left, want the newest login window's and signup's", got)
		}
	})
}
