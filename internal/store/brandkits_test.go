package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Brand kits are the workspace's: another workspace's id is ErrNotFound,
// names are unique ignoring case, the limit holds, and the database itself
// keeps at most one default per workspace.
func TestBrandKitStore(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC)
		ws := storetest.Personal(t, s, storetest.CreateUser(t, s, "kits@example.com").ID)
		other := storetest.Personal(t, s, storetest.CreateUser(t, s, "other@example.com").ID)
		a := &store.BrandKit{Name: "Bistro", Style: `{"fgColor":"#8B0000"}`, IsDefault: true}
		if err := s.CreateBrandKit(ctx, ws, a, 3, now); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateBrandKit(ctx, ws, &store.BrandKit{Name: "BISTRO", Style: `{}`}, 3, now); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a taken name: %v, want ErrConflict", err)
		}
		b := &store.BrandKit{Name: "Harbour", Style: `{}`, IsDefault: true}
		if err := s.CreateBrandKit(ctx, ws, b, 3, now); err != nil {
			t.Fatal(err)
		}
		if got, err := s.BrandKit(ctx, ws, a.ID); err != nil || got.IsDefault || got.Style != a.Style {
			t.Errorf("the old default after a new one: %+v, %v", got, err)
		}
		if _, err := s.BrandKit(ctx, other, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's kit: %v", err)
		}
		if err := s.DeleteBrandKit(ctx, other, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting another workspace's kit: %v", err)
		}
		b.ID, b.Name = a.ID, "Stolen"
		if err := s.UpdateBrandKit(ctx, other, b, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("updating another workspace's kit: %v", err)
		}
		// Below the application's transaction, the unique index refuses a second default.
		if _, err := store.WriteDB(s).ExecContext(ctx, `UPDATE brand_kits SET is_default = $1 WHERE id = $2`, true, a.ID); err == nil {
			t.Error("the database took a second default kit")
		}
		if err := s.CreateBrandKit(ctx, ws, &store.BrandKit{Name: "Third", Style: `{}`}, 3, now); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateBrandKit(ctx, ws, &store.BrandKit{Name: "Fourth", Style: `{}`}, 3, now); !errors.Is(err, store.ErrKitLimit) {
			t.Errorf("past the limit: %v, want ErrKitLimit", err)
		}
		if list, err := s.BrandKits(ctx, ws); err != nil || len(list) != 3 || list[0].Name != "Bistro" || list[1].Name != "Harbour" || !list[1].IsDefault {
			t.Errorf("list = %+v, %v", list, err)
		}
		if list, err := s.BrandKits(ctx, other); err != nil || len(list) != 0 {
			t.Errorf("the other workspace's list = %+v, %v", list, err)
		}
	})
}
