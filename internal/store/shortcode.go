package store

import "crypto/rand"

const (
	// shortCodeLength characters of base62 give 47 bits: unguessable, and
	// short enough for a small code at level M.
	shortCodeLength = 8
	base62          = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// NewShortCode draws a random base62 short code for a dynamic code; a
// taken one is ErrConflict on insert, and the caller draws again.
func NewShortCode() string { return RandomBase62(shortCodeLength) }

// RandomBase62 draws n random base62 characters (short codes, API keys).
func RandomBase62(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	for i := range b {
		// 256 % 62 skews the first 8 symbols by 1/256: harmless for
		// unguessability, and simpler than rejection sampling.
		b[i] = base62[int(b[i])%len(base62)]
	}
	return string(b)
}
