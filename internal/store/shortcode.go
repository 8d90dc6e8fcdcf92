package store

import "crypto/rand"

const (
	// shortCodeLength characters of base62 give 47 bits: unguessable, and
	// short enough for a small code at level M.
	shortCodeLength = 8
	base62          = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// MaxShortCode is the longest short code the database holds: a chosen
	// one (issue 34) may be 64 characters of base62, - and _.
	MaxShortCode = 64
)

// NewShortCode draws a random base62 short code for a dynamic code; a
// taken one is ErrConflict on insert, and the caller draws again.
func NewShortCode() string { return RandomBase62(shortCodeLength) }

// ValidShortCode reports whether code could be a short code: 1 to
// MaxShortCode characters of base62, - and _. Nothing else names a code, so nothing
// else is looked up: PostgreSQL refuses NUL and invalid UTF-8 in text, and
// that error failed the batched lookup of every code loaded with it.
func ValidShortCode(code string) bool {
	if code == "" || len(code) > MaxShortCode {
		return false
	}
	for i := 0; i < len(code); i++ {
		if c := code[i]; !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

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
