package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
)

// BlobReader reads a blob's data from the database one chunk at a time.
// Why: uploads live in the database (up to 20 MB for a PDF), and serving one
// by loading it whole held file size × concurrent downloads in memory, with
// no bound. A BlobReader holds one chunk, however big the file and however
// slowly the client reads, and holds no connection between chunks.
//
// It is the io.ReadSeeker http.ServeContent wants: Seek is free (the size is
// known), so a conditional request (304) or HEAD reads no data at all, and a
// Range request reads only its range. Each chunk is checked against the
// blob's SHA-256, so a blob replaced or deleted mid-download fails the read
// instead of splicing two files. Not safe for concurrent use.
type BlobReader struct {
	s      *Store
	ctx    context.Context
	id     int64
	sha256 string
	size   int64
	chunk  int64  // how much one query reads
	off    int64  // where the next Read starts
	buf    []byte // the last chunk read, which starts at bufOff
	bufOff int64
	err    error // the last query's failure, for Err
}

// How much one query reads, which is what a download holds. PostgreSQL's
// substring fetches only the TOAST chunks the slice covers (a compressed
// value is decompressed up to the slice's end), so its chunks can be small:
// a 20 MB file took 52 ms in 256 KB chunks, 92 ms loaded whole. SQLite's
// substr first copies the whole value into SQLite's own heap, whatever the
// slice, so there fewer, larger chunks cost far less CPU: 100 ms in 1 MB
// chunks, 520 ms in 256 KB ones (26 ms loaded whole).
const (
	blobChunk       = 256 << 10
	sqliteBlobChunk = 1 << 20
)

// blobChunkQueries bounds the chunk queries in flight in the process, so the
// drivers' transient copies of chunks, and on SQLite substr's copy of the
// whole value, are bounded however many clients download at once.
var blobChunkQueries = make(chan struct{}, 4)

// BlobReader returns a reader of b's data; b needs only ID, Size and SHA256
// (BlobInfo's, without the data). ctx bounds every query it makes.
func (s *Store) BlobReader(ctx context.Context, b *Blob) *BlobReader {
	return &BlobReader{s: s, ctx: ctx, id: b.ID, sha256: b.SHA256, size: b.Size, chunk: s.blobChunk()}
}

// blobChunk is the size of s's chunks.
func (s *Store) blobChunk() int64 {
	if s.dialect == SQLite {
		return sqliteBlobChunk
	}
	return blobChunk
}

// Read reads from the current chunk, first fetching the one at the current
// offset when it does not hold it.
func (r *BlobReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.off < r.bufOff || r.off >= r.bufOff+int64(len(r.buf)) {
		if err := r.fill(); err != nil {
			r.err = err
			return 0, err
		}
	}
	n := copy(p, r.buf[r.off-r.bufOff:])
	r.off += int64(n)
	return n, nil
}

// Seek sets where the next Read starts, as bytes.Reader's does.
func (r *BlobReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.size
	default:
		return 0, errors.New("store: BlobReader.Seek: invalid whence")
	}
	if offset < 0 {
		return 0, errors.New("store: BlobReader.Seek: negative position")
	}
	r.off = offset
	return offset, nil
}

// Err is the failure of the last chunk query, if one failed: http.ServeContent
// drops a read error once it has sent the headers.
func (r *BlobReader) Err() error { return r.err }

// fill reads the chunk starting at r.off into r.buf.
func (r *BlobReader) fill() error {
	n := min(r.chunk, r.size-r.off)
	select {
	case blobChunkQueries <- struct{}{}:
		defer func() { <-blobChunkQueries }()
	case <-r.ctx.Done():
		return fail("read blob data", r.ctx.Err())
	}
	// Offsets are 1-based; on a BLOB (SQLite) or bytea (PostgreSQL) they
	// count bytes.
	q := `SELECT substr(data, $2, $3) FROM blobs WHERE id = $1 AND sha256 = $4`
	if r.s.dialect == Postgres {
		q = `SELECT substring(data from $2 for $3) FROM blobs WHERE id = $1 AND sha256 = $4`
	}
	rows, err := r.s.read.QueryContext(r.ctx, q, r.id, r.off+1, n, r.sha256)
	if err != nil {
		return fail("read blob data", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return fail("read blob data", err)
		}
		return fail("read blob data", sql.ErrNoRows)
	}
	var chunk sql.RawBytes // the driver's memory: copied once, into r.buf
	if err := rows.Scan(&chunk); err != nil {
		return fail("read blob data", err)
	}
	if int64(len(chunk)) != n {
		return fail("read blob data", fmt.Errorf("blob %d: %d bytes at %d, want %d", r.id, len(chunk), r.off, n))
	}
	if r.buf == nil {
		r.buf = make([]byte, 0, min(r.chunk, r.size))
	}
	r.buf = append(r.buf[:0], chunk...)
	r.bufOff = r.off
	return failOrNil("read blob data", rows.Close())
}
