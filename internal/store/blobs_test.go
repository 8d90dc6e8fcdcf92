package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestBlobRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "files@example.com")
		big := make([]byte, 5<<20)
		rand.Read(big)
		for _, b := range []*store.Blob{
			{OwnerID: &u.ID, Kind: "logo", FileName: "logo.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00\xff")},
			{Kind: "pdf", FileName: "menu.pdf", ContentType: "application/pdf", Data: big, Title: "Menu", Description: "Our menu"},
		} {
			if err := s.CreateBlob(ctx, b); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b.Data)
			if b.ID == 0 || b.Size != int64(len(b.Data)) || b.SHA256 != hex.EncodeToString(sum[:]) || b.CreatedAt.IsZero() {
				t.Errorf("CreateBlob filled ID %d, Size %d, SHA256 %s, CreatedAt %v", b.ID, b.Size, b.SHA256, b.CreatedAt)
			}
			got, err := s.Blob(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Data, b.Data) {
				t.Errorf("blob %d: %d bytes read back differ from the %d written", b.ID, len(got.Data), len(b.Data))
			}
			got.Data = b.Data // compared above, and too big to print
			if !reflect.DeepEqual(got, b) {
				g, w := *got, *b
				g.Data, w.Data = nil, nil
				t.Errorf("Blob() =\n%+v\nwant\n%+v", g, w)
			}
		}
	})
}

func TestBlobBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if _, err := s.Blob(ctx, 4242); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Blob(4242) = %v, want ErrNotFound", err)
		}
		if err := s.CreateBlob(ctx, &store.Blob{Kind: "video", ContentType: "video/mp4", Data: []byte{1}}); err == nil {
			t.Error("a blob of kind video was saved")
		}
		owner := int64(999)
		if err := s.CreateBlob(ctx, &store.Blob{OwnerID: &owner, Kind: "logo", ContentType: "image/png", Data: []byte{1}}); err == nil {
			t.Error("a blob of an unknown owner was saved")
		}
	})
}

// Blob ids cannot be counted through: the pdf and images pages are public.
func TestBlobIDsAreRandom(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seen := map[int64]bool{}
		prev := int64(0)
		for range 20 {
			b := &store.Blob{Kind: "image", ContentType: "image/png", Data: []byte("x")}
			if err := s.CreateBlob(ctx, b); err != nil {
				t.Fatal(err)
			}
			if b.ID < 1 || b.ID > 1<<53 || seen[b.ID] || b.ID == prev+1 {
				t.Fatalf("blob id %d after %d (seen %v)", b.ID, prev, seen)
			}
			if _, err := s.BlobInfo(ctx, b.ID); err != nil {
				t.Fatalf("BlobInfo(%d): %v", b.ID, err)
			}
			seen[b.ID], prev = true, b.ID
		}
	})
}

// The quota holds under parallel uploads: of 20 files of 30 bytes against
// a quota of 100, exactly 3 are stored.
func TestCreateBlobWithinQuota(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "quota@example.com")
		ws := storetest.Personal(t, s, u.ID)
		var wg sync.WaitGroup
		var mu sync.Mutex
		stored, refused := 0, 0
		for range 20 {
			wg.Go(func() {
				err := s.CreateBlobWithin(ctx, &store.Blob{OwnerID: &u.ID, WorkspaceID: &ws, Kind: "image", FileName: "f", ContentType: "image/png", Data: make([]byte, 30)}, 100)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					stored++
				case errors.Is(err, store.ErrQuota):
					refused++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		used, err := s.BlobBytes(ctx, ws)
		if err != nil {
			t.Fatal(err)
		}
		if stored != 3 || refused != 17 || used != 90 {
			t.Errorf("%d stored, %d refused, %d bytes used; want 3, 17, 90", stored, refused, used)
		}
	})
}
