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

// The free plan's limits are an owner's across the workspaces they own
// without a subscription (issue 32): parallel creations split between two
// of one owner's workspaces pass the dynamic limit and the storage quota
// exactly as in one, a subscribed workspace has its own, and a member who
// is not an owner shares nothing until made one.
func TestFreeAllowanceAcrossWorkspaces(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		owner := storetest.CreateUser(t, s, "owner@example.com")
		personal := storetest.Personal(t, s, owner.ID)
		var teams [3]int64
		for i := range teams {
			ws, err := s.CreateWorkspace(ctx, owner.ID, 1, fmt.Sprintf("Team %d", i), now)
			if err != nil {
				t.Fatal(err)
			}
			teams[i] = ws.ID
		}
		storetest.CreateDynamic(t, s, owner.ID, "pers0000") // in the personal workspace

		const limit, tries = 5, 20
		var wg sync.WaitGroup
		var mu sync.Mutex
		made := map[int64]int{}
		for i := range tries {
			wg.Go(func() {
				d := storetest.NewDynamic(owner.ID, fmt.Sprintf("pool%04d", i))
				d.WorkspaceID = teams[i%2]
				err := s.CreateDynamicCode(ctx, d, limit)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					made[d.WorkspaceID]++
				case !errors.Is(err, store.ErrLimit):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if made[teams[0]]+made[teams[1]] != limit-1 {
			t.Fatalf("created %v across two workspaces; want %d in all (one code is in the personal workspace)", made, limit-1)
		}
		for _, ws := range []int64{personal, teams[0], teams[1], teams[2]} {
			if n, err := s.CountDynamicCodes(ctx, ws, time.Now()); err != nil || n != limit {
				t.Errorf("CountDynamicCodes(%d) = %d, %v; want the owner's %d", ws, n, err, limit)
			}
		}

		var stored int
		for i := range tries {
			wg.Go(func() {
				ws := teams[i%2]
				err := s.CreateBlobWithin(ctx, &store.Blob{OwnerID: &owner.ID, WorkspaceID: &ws, Kind: "image", FileName: "f", ContentType: "image/png", Data: make([]byte, 30)}, 100)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					stored++
				case !errors.Is(err, store.ErrQuota):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if used, err := s.BlobBytes(ctx, personal); stored != 3 || err != nil || used != 90 {
			t.Errorf("%d files stored, the owner uses %d bytes (%v); want 3 and 90", stored, used, err)
		}

		// A subscribed workspace has limits of its own and adds nothing to
		// the owner's free use.
		var id int64
		storetest.QueryRow(t, s, `UPDATE workspaces SET subscription_status = 'active' WHERE id = $1 RETURNING id`, []any{teams[2]}, &id)
		paid := storetest.NewDynamic(owner.ID, "paid0000")
		paid.WorkspaceID = teams[2]
		if err := s.CreateDynamicCode(ctx, paid, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateBlobWithin(ctx, &store.Blob{OwnerID: &owner.ID, WorkspaceID: &teams[2], Kind: "image", FileName: "f", ContentType: "image/png", Data: make([]byte, 90)}, 100); err != nil {
			t.Errorf("the subscribed workspace's own quota: %v", err)
		}
		if n, _ := s.CountDynamicCodes(ctx, teams[2], time.Now()); n != 1 {
			t.Errorf("the subscribed workspace counts %d codes, want its own 1", n)
		}
		if n, _ := s.CountDynamicCodes(ctx, personal, time.Now()); n != limit {
			t.Errorf("the owner's free count is %d after a code in a subscribed workspace, want %d", n, limit)
		}

		// An editor's own workspace does not share the team's; an owner's does.
		member := storetest.CreateUser(t, s, "member@example.com")
		member.EmailVerified = true
		mine := storetest.Personal(t, s, member.ID)
		inv := &store.Invitation{WorkspaceID: teams[0], Email: member.Username, Role: store.RoleEditor, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := s.CreateInvitation(ctx, inv, "token-hash"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptInvitation(ctx, "token-hash", member, now); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(member.ID, "mine0000"), limit); err != nil {
			t.Errorf("an editor of a full team is limited in their own workspace: %v", err)
		}
		if err := s.SetMemberRole(ctx, teams[0], member.ID, store.RoleOwner, func(string) bool { return true }); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.CountDynamicCodes(ctx, mine, time.Now()); n != 1+made[teams[0]] {
			t.Errorf("a co-owner's count = %d, want their 1 and the team's %d", n, made[teams[0]])
		}
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(member.ID, "mine0001"), 1+made[teams[0]]); !errors.Is(err, store.ErrLimit) {
			t.Errorf("a co-owner at their limit: %v, want ErrLimit", err)
		}

		// A running trial lifts the codes' limit as a subscription does: its
		// codes count for no other workspace until it ends. Files still count.
		trial := teams[0] // the team with more codes: at least 2 of the 4
		if made[teams[1]] > made[trial] {
			trial = teams[1]
		}
		if err := s.ActivateTrial(ctx, trial, owner.ID, now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.CountDynamicCodes(ctx, personal, now.Add(time.Minute)); n != limit-made[trial] {
			t.Errorf("the owner's free count during a trial is %d, want %d without the trial's %d", n, limit-made[trial], made[trial])
		}
		if n, _ := s.CountDynamicCodes(ctx, personal, now.Add(2*time.Hour)); n != limit {
			t.Errorf("the owner's free count after the trial is %d, want %d", n, limit)
		}
		if used, _ := s.BlobBytes(ctx, personal); used != 90 {
			t.Errorf("the owner's free storage during a trial is %d bytes, want 90", used)
		}
	})
}
