package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// createBlobInfo saves a pdf of data and returns it as BlobInfo does,
// without its data.
func createBlobInfo(t testing.TB, s *store.Store, data []byte) *store.Blob {
	t.Helper()
	b := &store.Blob{Kind: "pdf", FileName: "big.pdf", ContentType: "application/pdf", Data: data}
	if err := s.CreateBlob(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	info, err := s.BlobInfo(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// BlobReader returns exactly the blob's bytes, whatever the size of the
// reads, across chunk boundaries and after any seek.
func TestBlobReader(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		chunk := int64(store.BlobChunk(s))
		data := make([]byte, 2*chunk+12345)
		rand.Read(data)
		info := createBlobInfo(t, s, data)
		size := int64(len(data))

		// Sequential reads of an odd size, which straddle every boundary.
		r := s.BlobReader(ctx, info)
		var got bytes.Buffer
		buf := make([]byte, 7919)
		for {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got.Bytes(), data) {
			t.Fatalf("read %d bytes that differ from the %d written", got.Len(), len(data))
		}
		// One read asking for everything, as io.ReadFull does.
		r = s.BlobReader(ctx, info)
		all := make([]byte, len(data))
		if _, err := io.ReadFull(r, all); err != nil || !bytes.Equal(all, data) {
			t.Fatalf("io.ReadFull: %v, equal %v", err, bytes.Equal(all, data))
		}
		if n, err := r.Read(buf); n != 0 || err != io.EOF {
			t.Errorf("Read at the end = %d, %v; want 0, EOF", n, err)
		}

		// Seeks, each followed by a read of n bytes that must be
		// data[want:want+n].
		r = s.BlobReader(ctx, info)
		for _, c := range []struct {
			name   string
			offset int64
			whence int
			want   int64
			n      int
		}{
			{"start, across the first boundary", chunk - 10, io.SeekStart, chunk - 10, 20},
			{"current, forward", 5, io.SeekCurrent, chunk + 15, 100},
			{"current, back into the previous chunk", -(chunk + 3), io.SeekCurrent, 112, 50},
			{"current, zero", 0, io.SeekCurrent, 162, 1},
			{"start, across the second boundary", 2*chunk - 1, io.SeekStart, 2*chunk - 1, 2},
			{"end", -100, io.SeekEnd, size - 100, 100},
			{"start, zero", 0, io.SeekStart, 0, 3},
		} {
			pos, err := r.Seek(c.offset, c.whence)
			if err != nil || pos != c.want {
				t.Fatalf("%s: Seek(%d, %d) = %d, %v; want %d", c.name, c.offset, c.whence, pos, err, c.want)
			}
			p := make([]byte, c.n)
			if _, err := io.ReadFull(r, p); err != nil || !bytes.Equal(p, data[c.want:c.want+int64(c.n)]) {
				t.Errorf("%s: %d bytes at %d: %v, equal %v", c.name, c.n, c.want, err, bytes.Equal(p, data[c.want:c.want+int64(c.n)]))
			}
		}
		for _, off := range []int64{size, size + 10} {
			if _, err := r.Seek(off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			if n, err := r.Read(buf); n != 0 || err != io.EOF {
				t.Errorf("Read at %d of %d = %d, %v; want 0, EOF", off, size, n, err)
			}
		}
		if pos, err := r.Seek(0, io.SeekEnd); pos != size || err != nil {
			t.Errorf("Seek(0, SeekEnd) = %d, %v; want %d", pos, err, size)
		}
		if _, err := r.Seek(-1, io.SeekStart); err == nil {
			t.Error("Seek(-1, SeekStart) succeeded")
		}
		if _, err := r.Seek(0, 7); err == nil {
			t.Error("Seek with whence 7 succeeded")
		}
		if r.Err() != nil {
			t.Errorf("Err() = %v after good reads", r.Err())
		}

		// An empty blob reads nothing, and asks the database nothing.
		if n, err := s.BlobReader(ctx, &store.Blob{ID: 1}).Read(buf); n != 0 || err != io.EOF {
			t.Errorf("reading an empty blob = %d, %v; want 0, EOF", n, err)
		}
	})
}

// A blob replaced or deleted under a reader fails the read rather than
// mixing two files, and a cancelled request stops it.
func TestBlobReaderFails(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		data := make([]byte, store.BlobChunk(s)+1)
		rand.Read(data)
		info := createBlobInfo(t, s, data)
		buf := make([]byte, 10)

		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.BlobReader(cancelled, info).Read(buf); err == nil {
			t.Error("a read under a cancelled context succeeded")
		}

		r := s.BlobReader(ctx, info)
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
		if err := s.ReplaceBlobData(ctx, info.ID, "application/pdf", bytes.Repeat([]byte("x"), len(data))); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Seek(int64(store.BlobChunk(s)), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if n, err := r.Read(buf); err == nil || r.Err() == nil {
			t.Errorf("reading a replaced blob = %d bytes, %v, Err() %v; want an error", n, err, r.Err())
		}
		if err := s.DeleteBlob(ctx, info.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BlobReader(ctx, info).Read(buf); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("reading a deleted blob: %v, want ErrNotFound", err)
		}
	})
}

// BenchmarkBlobReader reads a 20 MB blob through BlobReader, as serving
// it does, against loading it whole with Blob.
func BenchmarkBlobReader(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			var s *store.Store
			if db == "sqlite" {
				s = storetest.Open(b)
			} else {
				s = storetest.OpenPostgres(b)
			}
			data := make([]byte, 20<<20)
			rand.Read(data)
			info := createBlobInfo(b, s, data)
			ctx := context.Background()
			b.Run("chunks", func(b *testing.B) {
				b.SetBytes(info.Size)
				for b.Loop() {
					if _, err := io.Copy(io.Discard, s.BlobReader(ctx, info)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("whole", func(b *testing.B) {
				b.SetBytes(info.Size)
				for b.Loop() {
					if _, err := s.Blob(ctx, info.ID); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
