package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestRenameAndDeleteQRCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "owner@example.com")
		other := storetest.CreateUser(t, s, "other@example.com")
		var id int64
		err := store.WriteDB(s).QueryRow(`INSERT INTO qr_codes (workspace_id, user_id, name) VALUES ((SELECT id FROM workspaces WHERE personal_user_id = $1), $1, 'Old') RETURNING id`, u.ID).Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RenameQRCode(ctx, other.ID, id, "Mine now"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rename by another user: %v", err)
		}
		if err := s.DeleteQRCode(ctx, other.ID, id, time.Now()); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete by another user: %v", err)
		}
		q, err := s.RenameQRCode(ctx, u.ID, id, "New")
		if err != nil || q.Name != "New" || q.ID != id {
			t.Fatalf("RenameQRCode = %+v, %v", q, err)
		}
		if err := s.DeleteQRCode(ctx, u.ID, id, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.QRCode(ctx, u.ID, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted code still found: %v", err)
		}
		if err := s.DeleteQRCode(ctx, u.ID, id, time.Now()); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting twice: %v", err)
		}
		if _, err := s.RenameQRCode(ctx, u.ID, id, "x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("renaming a deleted code: %v", err)
		}
	})
}
