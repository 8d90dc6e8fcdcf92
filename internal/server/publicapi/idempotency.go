package publicapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/server/respond"
)

const (
	// idempotencyTTL is how long a first answer is replayed.
	idempotencyTTL = 24 * time.Hour
	// maxIdempotencyKey characters of an Idempotency-Key.
	maxIdempotencyKey = 255
)

// idempotent runs a POST or PATCH once per Idempotency-Key (per API key): a repeat
// with the same method, path and body gets the first answer back and
// changes nothing; the same key with another request is 422, and a repeat
// while the first still runs is 409. Answers of 500 and up are not kept,
// so a retry runs again. Without the header the request just runs.
func (a *API) idempotent(w http.ResponseWriter, r *http.Request, keyHash string, next http.Handler) {
	idem := r.Header.Get("Idempotency-Key")
	if idem == "" {
		next.ServeHTTP(w, r)
		return
	}
	if len(idem) > maxIdempotencyKey || strings.ContainsFunc(idem, func(c rune) bool { return c < 0x21 || c > 0x7e }) {
		respond.Error(w, http.StatusBadRequest, "Idempotency-Key must be 1 to 255 printable ASCII characters")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, respond.MaxBody))
	if err != nil {
		respond.Error(w, http.StatusRequestEntityTooLarge, "Request body too large")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
	requestHash := hex.EncodeToString(sum[:])

	prev, err := a.Store.BeginIdempotent(r.Context(), keyHash, idem, requestHash, a.Now(), idempotencyTTL)
	if err != nil {
		a.Fail(w, "claiming an idempotency key", err)
		return
	}
	switch {
	case prev == nil:
	case prev.RequestHash != requestHash:
		respond.Error(w, http.StatusUnprocessableEntity, "This Idempotency-Key was already used with a different request")
		return
	case prev.Status == 0:
		respond.Error(w, http.StatusConflict, "A request with this Idempotency-Key is still in progress")
		return
	default:
		w.Header().Set("Idempotent-Replayed", "true")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(prev.Status)
		io.WriteString(w, prev.Body)
		return
	}

	rec := &teeWriter{ResponseWriter: w}
	next.ServeHTTP(rec, r)
	// The answer is out; record it even if the client has gone.
	ctx := context.WithoutCancel(r.Context())
	if rec.status == 0 || rec.status >= 500 {
		err = a.Store.AbandonIdempotent(ctx, keyHash, idem)
	} else {
		err = a.Store.FinishIdempotent(ctx, keyHash, idem, rec.status, rec.body.String())
	}
	if err != nil {
		a.Log.ErrorContext(r.Context(), "recording an idempotent answer", "err", err)
	}
}

// teeWriter passes an answer on and keeps a copy of its status and body.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *teeWriter) WriteHeader(status int) {
	if t.status == 0 {
		t.status = status
	}
	t.ResponseWriter.WriteHeader(status)
}

func (t *teeWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.body.Write(b)
	return t.ResponseWriter.Write(b)
}
