package scans

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

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

// Backpressure: with a tiny queue and a sink that is slow, Record waits
// instead of dropping, and every scan arrives.
func TestRecorderBackpressureLosesNothing(t *testing.T) {
	sink := &slowSink{memSink: &memSink{}, delay: 2 * time.Millisecond}
	r := NewRecorder(sink, Options{Buffer: 4, BatchSize: 8, Logger: quiet})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				r.Record(Scan{CodeID: int64(g*1000 + i), At: time.Now()})
			}
		})
	}
	wg.Wait()
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, e := range sink.events() {
		seen[e.CodeID] = true
	}
	if len(seen) != 800 || len(sink.events()) != 800 {
		t.Errorf("%d events, %d distinct; want 800", len(sink.events()), len(seen))
	}
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
		if len(ua) > maxMemoUserAgent {
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
