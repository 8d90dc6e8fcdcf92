package publicapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
)

const (
	// KeyPrefix marks our keys, so they are recognisable in code and by
	// secret scanners.
	KeyPrefix = "sq_"
	// keyRandom characters of base62 after the prefix: 238 bits.
	keyRandom = 40
	// keyShownPrefix characters of a key (its "sq_" included) are kept to
	// be shown, with its last 4.
	keyShownPrefix = 9
)

// NewKey draws a key and returns it with what is kept of it.
func NewKey() (string, store.KeyParts) {
	key := KeyPrefix + store.RandomBase62(keyRandom)
	return key, store.KeyParts{Hash: HashKey(key), Prefix: key[:keyShownPrefix], Last4: key[len(key)-4:]}
}

// HashKey is what the store keeps of a key. Keys are long random strings,
// so a plain SHA-256 is enough: there is nothing to guess.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Authenticate lets a request through with the workspace of its Bearer
// key, counted against the key's rate limit (RateLimit-* headers on every
// answer, 429 past it). POSTs and PATCHes then go through Idempotency-Key
// handling.
func (a *API) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="squarely"`)
			respond.Error(w, http.StatusUnauthorized, "Missing API key: send Authorization: Bearer sq_…")
			return
		}
		// The key is looked up before any limiter: a valid key works
		// whatever else comes from its address (failed logins, bad keys).
		// Keys are 238 random bits, so the lookup cannot be guessed into;
		// invalid keys are counted per address on their own, to bound the
		// lookups of a key-guessing client.
		hash := HashKey(key)
		access, err := (*store.APIKeyAccess)(nil), store.ErrNotFound
		if strings.HasPrefix(key, KeyPrefix) {
			access, err = a.Store.APIKeyAccess(r.Context(), hash)
		}
		if errors.Is(err, store.ErrNotFound) {
			if !a.BadKey(w, r) {
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="squarely", error="invalid_token"`)
			respond.Error(w, http.StatusUnauthorized, "Invalid API key")
			return
		}
		if err != nil {
			a.Fail(w, "checking an API key", err)
			return
		}
		if access.ExpiresAt != nil && !a.Now().Before(*access.ExpiresAt) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="squarely", error="invalid_token"`)
			respond.Error(w, http.StatusUnauthorized, "API key expired")
			return
		}
		allowed, remaining, reset, err := a.Quota(hash)
		if err != nil {
			a.Fail(w, "counting an API call", err)
			return
		}
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(a.RateLimit))
		h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("RateLimit-Reset", strconv.Itoa(int((reset+time.Second-1)/time.Second)))
		if !allowed {
			respond.TooMany(w, reset, fmt.Sprintf("Rate limit of %d requests per minute exceeded", a.RateLimit))
			return
		}
		r = a.Enter(r, access)
		r = r.WithContext(context.WithValue(r.Context(), limitsKey{}, access.KeyLimits))
		if r.Method == http.MethodPost || r.Method == http.MethodPatch {
			a.idempotent(w, r, hash, next)
			return
		}
		next.ServeHTTP(w, r)
	})
}
