package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// Resource bounds (issue 8): how much CPU and memory one request, address
// or account can take. See docs/API.md, "Operations and limits".

// renderWait is how long a request waits for a render slot before it is
// answered 503: the machine is busy, and a queue longer than this would
// only hold memory.
const renderWait = 10 * time.Second

// renderSlots is how many renders (and logo decodes) run at once: two per
// processor (on SQLite the server runs one more than the cores:
// cmd/squarely) keep every core busy while one waits on memory, and bound
// the memory renders hold to a few times the largest one.
func renderSlots() int { return 2 * runtime.GOMAXPROCS(0) }

// Preview limits, per client address and per account: above what people
// behind one address typing in the generator ask for (previews follow the
// form), while the render slots bound what the ones admitted cost at once.
const previewsPerMinute = 300

// recordsPerHour bounds the generation and download records one account
// writes (visitors: anonWritesPerHour per address). Each record is bounded
// too (maxContent, maxUserAgent, maxReferrer, maxSessionID), so an account
// writes at most a few tens of megabytes an hour.
const recordsPerHour = 1000

// uploadsInFlight is how many uploads one account (or visitor address)
// may send at once: a person uploads one file at a time, and each upload
// holds its file in memory until it is stored.
const uploadsInFlight = 2

// errBusy is no render slot freeing up within renderWait.
var errBusy = errors.New("server: no render slot free")

// acquireRender takes a render slot and returns the function that gives
// it back; errBusy when none frees up within renderWait, or ctx's error.
func (s *server) acquireRender(ctx context.Context) (done func(), err error) {
	t := time.NewTimer(renderWait)
	defer t.Stop()
	select {
	case s.renders <- struct{}{}:
		return func() { <-s.renders }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errBusy
	}
}

// startRender is acquireRender for a request. When no slot frees up it
// answers 503; when the client leaves first it answers nothing.
func (s *server) startRender(w http.ResponseWriter, r *http.Request) (done func(), ok bool) {
	done, err := s.acquireRender(r.Context())
	if errors.Is(err, errBusy) {
		busy(w)
	}
	return done, err == nil
}

// busy answers 503: no render slot freed up in time.
func busy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	writeError(w, http.StatusServiceUnavailable, "The server is busy. Please try again in a moment.")
}

// admitPreview counts a rendering request (a preview or a download)
// against its address and, signed in, its account; otherwise it has
// answered 429.
func (s *server) admitPreview(w http.ResponseWriter, r *http.Request, u *store.User) bool {
	const msg = "Too many QR code previews. Please wait a moment."
	if !s.previewsByAddress.take(w, clientKey(r), msg) {
		return false
	}
	return u == nil || s.previewsByAccount.take(w, strconv.FormatInt(u.ID, 10), msg)
}

// admitRecord counts a request that stores a generation or download
// record: per address for visitors (admitAnonWrite), per account for
// users. Otherwise it has answered 429.
func (s *server) admitRecord(w http.ResponseWriter, r *http.Request, u *store.User) bool {
	if u == nil {
		return s.admitAnonWrite(w, r, u)
	}
	return s.userRecords.take(w, strconv.FormatInt(u.ID, 10), "Too many QR codes from this account. Please try again later.")
}

// holdUpload admits an upload if its account (or visitor address) has
// fewer than uploadsInFlight under way, and returns the function that ends
// it; otherwise it has answered 429.
func (s *server) holdUpload(w http.ResponseWriter, r *http.Request) (done func(), ok bool) {
	key := clientKey(r)
	if u := auth.UserFrom(r.Context()); u != nil {
		key = "user " + strconv.FormatInt(u.ID, 10)
	}
	if !s.uploading.enter(key) {
		tooMany(w, time.Second, "Another upload is still under way. Please wait for it to finish.")
		return nil, false
	}
	return func() { s.uploading.leave(key) }, true
}

// quotaBytes is the storage quota in bytes: a subscribed workspace's, or
// an owner's across their free workspaces (store.CreateBlobWithin).
func (s *server) quotaBytes() int64 { return int64(s.cfg.StorageQuotaMB) << 20 }

// quotaMessage is the 413 message for an upload past the quota of ws.
func (s *server) quotaMessage(ws *store.Workspace) string {
	msg := fmt.Sprintf("Your files would take more than your %d MB of storage. Please delete files you no longer need.", s.cfg.StorageQuotaMB)
	if !ws.Subscribed() {
		msg += msgFreeShared
	}
	return msg
}

// inFlight counts work under way per key, up to a limit.
type inFlight struct {
	limit int
	mu    sync.Mutex
	n     map[string]int
}

func newInFlight(limit int) *inFlight { return &inFlight{limit: limit, n: map[string]int{}} }

// enter counts one more for key, unless key is at the limit.
func (f *inFlight) enter(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key] >= f.limit {
		return false
	}
	f.n[key]++
	return true
}

func (f *inFlight) leave(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key]--; f.n[key] <= 0 {
		delete(f.n, key)
	}
}
