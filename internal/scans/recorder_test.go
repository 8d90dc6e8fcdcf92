package scans

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// memSink keeps batches in memory and can be told to fail.
type memSink struct {
	mu      sync.Mutex
	batches [][]store.ScanEvent
	fails   int // the next fails calls to RecordScans fail
}

func (m *memSink) RecordScans(_ context.Context, events []store.ScanEvent) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fails > 0 {
		m.fails--
		return errors.New("database unavailable")
	}
	m.batches = append(m.batches, append([]store.ScanEvent(nil), events...))
	return nil
}

func (m *memSink) Secret(context.Context, string, []byte) ([]byte, error) { return []byte("key"), nil }

func (m *memSink) events() []store.ScanEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []store.ScanEvent
	for _, b := range m.batches {
		all = append(all, b...)
	}
	return all
}

func (m *memSink) batchCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.batches)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRecorderFlushesOnInterval(t *testing.T) {
	sink := &memSink{}
	r := NewRecorder(sink, Options{Interval: 50 * time.Millisecond, BatchSize: 1000, Logger: quiet})
	defer r.Close(context.Background())
	at := time.Date(2026, 5, 5, 10, 0, 0, 0, time.UTC)
	r.Record(Scan{CodeID: 7, At: at, UserAgent: iPhone, Referrer: "https://news.example/a?secret=1", RemoteAddr: "203.0.113.9:5555"})
	r.Record(Scan{CodeID: 7, At: at, UserAgent: "Twitterbot/1.0", RemoteAddr: "198.51.100.1:80"})
	waitFor(t, "the interval flush", func() bool { return len(sink.events()) == 2 })
	ev := sink.events()
	human := ev[0]
	if human.CodeID != 7 || !human.ScannedAt.Equal(at) || human.DeviceType != Mobile || human.OS != "iOS" ||
		human.Browser != "Safari" || human.IsBot || human.Referrer != "https://news.example" {
		t.Errorf("human event = %+v", human)
	}
	if len(human.VisitorHash) != 32 || human.VisitorHash == ev[1].VisitorHash {
		t.Errorf("visitor hashes %q, %q", human.VisitorHash, ev[1].VisitorHash)
	}
	if !ev[1].IsBot || ev[1].DeviceType != Bot {
		t.Errorf("bot event = %+v", ev[1])
	}
}

func TestRecorderFlushesFullBatchesEarly(t *testing.T) {
	sink := &memSink{}
	r := NewRecorder(sink, Options{Interval: time.Hour, BatchSize: 10, Logger: quiet})
	defer r.Close(context.Background())
	for i := range 25 {
		r.Record(Scan{CodeID: int64(i), At: time.Now(), UserAgent: iPhone})
	}
	// Nothing but the batch size can write them before Close.
	waitFor(t, "full batches", func() bool { return len(sink.events()) >= 20 })
}

func TestRecorderRetriesAfterFailure(t *testing.T) {
	sink := &memSink{fails: 2}
	r := NewRecorder(sink, Options{Interval: 10 * time.Millisecond, Logger: quiet})
	r.Record(Scan{CodeID: 1, At: time.Now(), UserAgent: iPhone})
	// Backoff is 1 s then 2 s; Close retries at once.
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ev := sink.events(); len(ev) != 1 {
		t.Fatalf("after retries: %d events, want 1", len(ev))
	}
}

func TestRecorderCloseGivesUpAtDeadline(t *testing.T) {
	sink := &memSink{fails: 1 << 30}
	r := NewRecorder(sink, Options{Logger: quiet})
	r.Record(Scan{CodeID: 1, At: time.Now()})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := r.Close(ctx); err == nil {
		t.Fatal("Close reported success with the database down")
	}
}

// Record never waits: with a tiny queue and a slow sink, the scans that
// find no room are dropped and counted, and every other one arrives.
func TestRecorderNeverWaits(t *testing.T) {
	sink := &slowSink{memSink: &memSink{}, delay: 20 * time.Millisecond}
	// Room for about 50 scans in memory: the rest find none while the sink writes.
	r := NewRecorder(sink, Options{Buffer: 4, BatchSize: 8, MaxBytes: 50 * scanOverhead, Logger: quiet})
	var wg sync.WaitGroup
	start := time.Now()
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				r.Record(Scan{CodeID: int64(g*1000 + i), At: time.Now()})
			}
		})
	}
	wg.Wait()
	// 800 scans through a sink that takes 20 ms a batch of 8 would take
	// 2 s if Record waited for room.
	if took := time.Since(start); took > time.Second {
		t.Errorf("recording took %v: Record waited", took)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if st.Dropped == 0 || st.Saved+st.Dropped != 800 || int64(len(sink.events())) != st.Saved {
		t.Errorf("stats %+v with %d events stored; want drops, and saved + dropped = 800", st, len(sink.events()))
	}
	if st.Queued != 0 || st.Bytes != 0 {
		t.Errorf("after Close %d scans (%d bytes) still held", st.Queued, st.Bytes)
	}
}

// The queue is bounded in bytes as well as in scans.
func TestRecorderBoundsQueuedBytes(t *testing.T) {
	sink := &memSink{fails: 1 << 30} // the database is down: everything stays queued
	r := NewRecorder(sink, Options{MaxBytes: 100 << 10, Logger: quiet})
	ua := strings.Repeat("x", maxUserAgent)
	for range 1000 {
		r.Record(Scan{CodeID: 1, At: time.Now(), UserAgent: ua})
	}
	st := r.Stats()
	if st.Bytes > 100<<10 || st.Queued == 0 || st.Queued+st.Dropped != 1000 {
		t.Errorf("stats %+v; want at most 100 KiB held and the rest dropped", st)
	}
}

// While the database writes a batch, however long it takes, the queue is
// drained into memory: scans are dropped only beyond the memory bound, not
// once the queue (Buffer) is full.
func TestRecorderDrainsWhileWriting(t *testing.T) {
	sink := &heldSink{memSink: &memSink{}, hold: make(chan struct{})}
	r := NewRecorder(sink, Options{Interval: time.Hour, Buffer: 4, BatchSize: 4, Logger: quiet})
	for i := range 4 {
		r.Record(Scan{CodeID: int64(i), At: time.Now(), UserAgent: iPhone})
	}
	waitFor(t, "the first write", func() bool { return sink.started.Load() })
	// 25 times the queue, recorded while that write waits.
	for i := range 100 {
		r.Record(Scan{CodeID: int64(100 + i), At: time.Now(), UserAgent: iPhone})
		waitFor(t, "the queue drained during the write", func() bool { return len(r.in) == 0 })
	}
	if st := r.Stats(); st.Dropped != 0 || st.Queued != 104 {
		t.Fatalf("stats %+v during the write; want 104 held, none dropped", st)
	}
	close(sink.hold)
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := sink.events()
	if st := r.Stats(); len(ev) != 104 || st.Saved != 104 || st.Dropped != 0 || st.Queued != 0 {
		t.Fatalf("%d events saved, stats %+v; want all 104", len(ev), st)
	}
	for i, e := range ev[4:] {
		if e.CodeID != int64(100+i) {
			t.Fatalf("event %d is code %d: out of order", 4+i, e.CodeID)
		}
	}
}

// heldSink is a memSink whose writes wait until hold is closed.
type heldSink struct {
	*memSink
	hold    chan struct{}
	started atomic.Bool
}

func (h *heldSink) RecordScans(ctx context.Context, events []store.ScanEvent) error {
	h.started.Store(true)
	<-h.hold
	return h.memSink.RecordScans(ctx, events)
}

type slowSink struct {
	*memSink
	delay time.Duration
}

func (s *slowSink) RecordScans(ctx context.Context, events []store.ScanEvent) error {
	time.Sleep(s.delay)
	return s.memSink.RecordScans(ctx, events)
}

func TestVisitorHashRotatesDaily(t *testing.T) {
	sink := &memSink{}
	r := NewRecorder(sink, Options{Interval: time.Hour, Logger: quiet})
	day1 := time.Date(2026, 5, 5, 23, 0, 0, 0, time.UTC)
	for _, at := range []time.Time{day1, day1.Add(30 * time.Minute), day1.Add(2 * time.Hour)} {
		r.Record(Scan{CodeID: 1, At: at, UserAgent: iPhone, RemoteAddr: "203.0.113.9:1234"})
	}
	r.Record(Scan{CodeID: 1, At: day1, UserAgent: iPhone, RemoteAddr: "203.0.113.10:1234"})
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := sink.events()
	if ev[0].VisitorHash != ev[1].VisitorHash {
		t.Error("same visitor, same day: different hashes")
	}
	if ev[0].VisitorHash == ev[2].VisitorHash {
		t.Error("same visitor, next day: same hash")
	}
	if ev[0].VisitorHash == ev[3].VisitorHash {
		t.Error("different addresses: same hash")
	}
}

// The loss bound on a real database: 10,000 scans recorded, then Close,
// and every one is stored and counted.
func TestRecorderShutdownFlushToStore(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "rec@example.com")
		var ids []int64
		for i := range 3 {
			ids = append(ids, storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("rec%05d", i)).ID)
		}
		// A long interval: only Close can have written them.
		r := NewRecorder(s, Options{Interval: time.Hour, BatchSize: 1 << 20, Logger: quiet})
		const n = 10000
		var wg sync.WaitGroup
		for g := range 10 {
			wg.Go(func() {
				for i := range n / 10 {
					ua := iPhone
					if i%100 == 0 {
						ua = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
					}
					r.Record(Scan{CodeID: ids[(g+i)%3], At: time.Now(), UserAgent: ua, RemoteAddr: "192.0.2.1:1"})
				}
			})
		}
		wg.Wait()
		if err := r.Close(ctx); err != nil {
			t.Fatal(err)
		}
		var events, humans int64
		for _, id := range ids {
			d, err := s.DynamicCode(ctx, u.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			humans += d.ScanCount
			s.ScanEvents(ctx, u.ID, id, func(*store.ScanEvent) error { events++; return nil })
		}
		if events != n || humans != n-n/100 {
			t.Errorf("stored %d events, %d human scans; want %d and %d", events, humans, n, n-n/100)
		}
	})
}

// Oversized headers from a scanner are neither stored nor kept in memory.
func TestRecorderBoundsHostileHeaders(t *testing.T) {
	sink := &memSink{}
	r := NewRecorder(sink, Options{Interval: time.Hour, Logger: quiet})
	at := time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC)
	huge := strings.Repeat("a", 1<<20)
	r.Record(Scan{CodeID: 1, At: at, UserAgent: iPhone + huge, Referrer: "https://" + huge + ".example/", RemoteAddr: "203.0.113.9:1"})
	r.Record(Scan{CodeID: 1, At: at, UserAgent: iPhone, Referrer: "https://news.example:8443/story?id=7", RemoteAddr: "203.0.113.9:1"})
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := sink.events()
	if len(ev) != 2 {
		t.Fatalf("%d events, want 2", len(ev))
	}
	if len(ev[0].Referrer) != 0 || ev[1].Referrer != "https://news.example:8443" {
		t.Fatalf("referrers: %d bytes kept of the huge one, %q of the normal one", len(ev[0].Referrer), ev[1].Referrer)
	}
	if ev[0].OS != ev[1].OS || ev[0].Browser != ev[1].Browser {
		t.Errorf("the long user agent parsed as %s/%s, the short one as %s/%s", ev[0].OS, ev[0].Browser, ev[1].OS, ev[1].Browser)
	}
	for ua := range r.clients {
		if len(ua) > maxUserAgent {
			t.Errorf("a %d-byte user agent is kept in the memo", len(ua))
		}
	}
}

// sizedSink asks for batches larger than maxTx, as PostgreSQL does.
type sizedSink struct{ memSink }

func (*sizedSink) ScanBatchSize() int { return 7000 }

func TestRecorderTakesTheSinksBatchSize(t *testing.T) {
	sink := &sizedSink{}
	r := NewRecorder(sink, Options{Interval: time.Hour, Logger: quiet})
	defer r.Close(context.Background())
	for i := range 7000 {
		r.Record(Scan{CodeID: int64(i), At: time.Now(), UserAgent: iPhone})
	}
	// Only a full batch can be written before Close, and in one transaction.
	waitFor(t, "the full batch", func() bool { return len(sink.events()) == 7000 })
	if n := sink.batchCount(); n != 1 {
		t.Errorf("%d transactions, want 1", n)
	}
}

// refusingSink refuses, as PostgreSQL does, any batch holding a scan of
// code 13.
type refusingSink struct{ memSink }

func (s *refusingSink) RecordScans(ctx context.Context, events []store.ScanEvent) error {
	for _, e := range events {
		if e.CodeID == 13 {
			return fmt.Errorf("store: unable to record scans: %w", &pgconn.PgError{Code: "22021", Message: "invalid byte sequence"})
		}
	}
	return s.memSink.RecordScans(ctx, events)
}

// A scan the database refuses is dropped alone: the scans batched with it
// and after it are saved.
func TestRecorderDropsOnlyTheRefusedScan(t *testing.T) {
	sink := &refusingSink{}
	r := NewRecorder(sink, Options{Interval: time.Hour, BatchSize: 100, Logger: quiet})
	for i := range 1000 {
		r.Record(Scan{CodeID: int64(i % 50), At: time.Now(), UserAgent: iPhone})
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Refused != 20 || st.Saved != 980 || len(sink.events()) != 980 {
		t.Errorf("stats %+v, %d stored; want 20 refused and 980 saved", st, len(sink.events()))
	}
}

// Header text that is not UTF-8, or is cut inside a character, used to
// make PostgreSQL refuse the batch forever. Each is stored cleaned, and the
// scans after them are all saved.
func TestRecorderStoresPoisonHeaders(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "poison@example.com")
		d := storetest.CreateDynamic(t, s, u.ID, "poison1")
		r := NewRecorder(s, Options{Interval: time.Hour, Logger: quiet})
		poison := []Scan{
			{UserAgent: "Mozilla/5.0 \xff\xfe (X11)", Referrer: "https://news.example/\xff"},
			{UserAgent: iPhone, Referrer: "https://%ff%fe.example/path"},
			// A name the parser does not know, cut at byte 50 inside "é".
			{UserAgent: strings.Repeat("a", 49) + "ééé", Referrer: "https://caf\xc3"},
		}
		for _, p := range poison {
			p.CodeID, p.At, p.RemoteAddr = d.ID, time.Now(), "203.0.113.7:1"
			r.Record(p)
		}
		for range 100 {
			r.Record(Scan{CodeID: d.ID, At: time.Now(), UserAgent: iPhone, RemoteAddr: "203.0.113.8:1"})
		}
		if err := r.Close(ctx); err != nil {
			t.Fatal(err)
		}
		var events []store.ScanEvent
		s.ScanEvents(ctx, u.ID, d.ID, func(e *store.ScanEvent) error { events = append(events, *e); return nil })
		if len(events) != 103 {
			t.Fatalf("%d scans stored, want 103 (stats %+v)", len(events), r.Stats())
		}
		for _, e := range events {
			for _, v := range []string{e.OS, e.Browser, e.Referrer, e.DeviceType} {
				if !utf8.ValidString(v) {
					t.Errorf("stored %q, not UTF-8", v)
				}
			}
		}
	})
}

// A flood of megabyte user agents while the database is down: the queue
// keeps 512 bytes of each, not a megabyte, so the heap stays small.
func TestRecorderUserAgentFloodKeepsMemoryBounded(t *testing.T) {
	sink := &memSink{fails: 1 << 30}
	r := NewRecorder(sink, Options{Logger: quiet})
	before := heapInUse()
	const scans = 300
	for i := range scans {
		ua := make([]byte, 1<<20) // a fresh header per request, as the server reads it
		for j := range ua {
			ua[j] = 'a' + byte(i%26)
		}
		r.Record(Scan{CodeID: 1, At: time.Now(), UserAgent: string(ua), RemoteAddr: "203.0.113.9:1"})
	}
	grown := heapInUse() - before
	if st := r.Stats(); st.Queued != scans {
		t.Fatalf("stats %+v, want %d queued", st, scans)
	}
	// Keeping the headers would hold 300 MB.
	if grown > 16<<20 {
		t.Errorf("the heap grew by %d MB holding %d scans", grown>>20, scans)
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// The recorder stores the country of the address, never the address.
func TestRecorderStoresTheCountry(t *testing.T) {
	sink := &memSink{}
	r := NewRecorder(sink, Options{Interval: 20 * time.Millisecond, BatchSize: 1000, Logger: quiet})
	defer r.Close(context.Background())
	at := time.Date(2026, 5, 5, 10, 0, 0, 0, time.UTC)
	addrs := []string{"8.8.8.8:5555", "[2a00:1450:4001::1]:443", "10.0.0.1:80", "garbage"}
	for _, a := range addrs {
		r.Record(Scan{CodeID: 1, At: at, UserAgent: iPhone, RemoteAddr: a})
	}
	waitFor(t, "the flush", func() bool { return len(sink.events()) == len(addrs) })
	var got []string
	for _, e := range sink.events() {
		got = append(got, e.Country)
		if row := fmt.Sprint(e); strings.Contains(row, "8.8.8.8") || strings.Contains(row, "2a00") {
			t.Errorf("an address kept: %s", row)
		}
	}
	if strings.Join(got, ",") != "US,DE,," {
		t.Errorf("countries = %q", got)
	}
}

// closingSink is a memSink that also closes days: the first call fails.
type closingSink struct {
	*memSink
	mu    sync.Mutex
	calls []time.Time
}

func (c *closingSink) CloseScanDays(_ context.Context, now time.Time) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, now)
	if len(c.calls) == 1 {
		return 0, errors.New("database unavailable")
	}
	return 1, nil
}

// TestRecorderClosesDays checks that the recorder asks a sink that closes
// days to do so every CloseEvery, not on every tick, and goes on
// recording and closing after a failed close.
func TestRecorderClosesDays(t *testing.T) {
	sink := &closingSink{memSink: &memSink{}}
	var logs strings.Builder // written by the recorder only, read after Close
	r := NewRecorder(sink, Options{Interval: 5 * time.Millisecond, CloseEvery: 100 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	began := time.Now()
	r.Record(Scan{CodeID: 1, At: began})
	calls := func() []time.Time {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		return slices.Clone(sink.calls)
	}
	waitFor(t, "three closes", func() bool { return len(calls()) >= 3 })
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := calls()
	for i := 1; i < len(got); i++ {
		if gap := got[i].Sub(got[i-1]); gap < 100*time.Millisecond {
			t.Errorf("closes %d and %d %v apart; want at least 100ms", i-1, i, gap)
		}
	}
	if len(sink.events()) != 1 {
		t.Errorf("saved %d scans; want 1", len(sink.events()))
	}
	if !strings.Contains(logs.String(), "closing days of scans; will retry") || !strings.Contains(logs.String(), "closed days of scans") {
		t.Errorf("log lacks the failed and the successful close:\n%s", logs.String())
	}
}
