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

// UTM presets belong to their workspace: names are unique in it ignoring
// case, another workspace neither sees nor deletes them, each change is
// audited, and the count limit holds under concurrent creations.
func TestUTMPresets(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ws, owner, _ := team(t, s)
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: owner.ID, Email: owner.Username})
		other, err := s.PersonalWorkspace(ctx, owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		p := &store.UTMPreset{Name: "Spring flyer", Source: "flyer", Medium: "print", Campaign: "spring"}
		if err := s.CreateUTMPreset(ctx, ws, p, 10, time.Now()); err != nil || p.ID == 0 {
			t.Fatalf("create = %v, id %d", err, p.ID)
		}
		dup := &store.UTMPreset{Name: "SPRING FLYER", Source: "x"}
		if err := s.CreateUTMPreset(ctx, ws, dup, 10, time.Now()); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a taken name (other case) = %v, want ErrConflict", err)
		}
		// The same name in another workspace is its own.
		if err := s.CreateUTMPreset(ctx, other.ID, &store.UTMPreset{Name: "Spring flyer"}, 10, time.Now()); err != nil {
			t.Errorf("the same name in another workspace = %v", err)
		}
		list, err := s.UTMPresets(ctx, ws)
		if err != nil || len(list) != 1 {
			t.Fatalf("list = %v, %v", list, err)
		}
		if got := list[0]; got.Name != p.Name || got.Source != "flyer" || got.Medium != "print" || got.Campaign != "spring" || got.Term != "" {
			t.Errorf("stored %+v", got)
		}
		if err := s.DeleteUTMPreset(ctx, other.ID, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete from another workspace = %v, want ErrNotFound", err)
		}
		if err := s.DeleteUTMPreset(ctx, ws, p.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteUTMPreset(ctx, ws, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("second delete = %v, want ErrNotFound", err)
		}
		log, err := s.AuditLog(ctx, ws, 0, 10)
		if err != nil || len(log) < 2 || log[0].Action != "utm_preset.deleted" || log[1].Action != "utm_preset.created" || log[1].Target.ID != p.ID {
			t.Errorf("audit log = %+v, %v", log, err)
		}

		// 12 concurrent creations against a limit of 5: exactly 5 are kept.
		const limit = 5
		var wg sync.WaitGroup
		errs := make(chan error, 12)
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.CreateUTMPreset(ctx, ws, &store.UTMPreset{Name: fmt.Sprintf("p%d", i)}, limit, time.Now())
			}()
		}
		wg.Wait()
		close(errs)
		made := 0
		for err := range errs {
			switch {
			case err == nil:
				made++
			case !errors.Is(err, store.ErrLimit):
				t.Errorf("create under the limit = %v", err)
			}
		}
		if list, _ := s.UTMPresets(ctx, ws); made != limit || len(list) != limit {
			t.Errorf("made %d, stored %d; want %d", made, len(list), limit)
		}
	})
}
