package store

// BlobChunk is how much one of s's BlobReader queries reads, for tests
// that cross chunk boundaries.
func BlobChunk(s *Store) int { return int(s.blobChunk()) }
