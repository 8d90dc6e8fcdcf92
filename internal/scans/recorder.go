package scans

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/store"
)

// Scan is an answered scan as the request saw it. The request path only
// copies these header strings; parsing and hashing happen in the recorder.
type Scan struct {
	CodeID     int64
	At         time.Time
	UserAgent  string
	Referrer   string
	RemoteAddr string // the client's address (host:port or host)
	Route      string // what served it (store.RouteDefault when empty)
}

// Sink is where scans go: store.Store.
type Sink interface {
	RecordScans(ctx context.Context, events []store.ScanEvent) error
	Secret(ctx context.Context, name string, newValue []byte) ([]byte, error)
}

// BatchSizer is a Sink that knows the batch it writes best. The recorder
// then flushes at that many waiting scans and writes up to that many in a
// transaction (at least maxTx).
type BatchSizer interface {
	ScanBatchSize() int
}

// DayCloser is a Sink whose rollups close a day some time after it ends
// (store.CloseScanDays). The recorder closes them between batches, every
// Options.CloseEvery, so closing never runs beside a batch of this process.
type DayCloser interface {
	CloseScanDays(ctx context.Context, now time.Time) (int, error)
}

// Options tune a Recorder; zero values take the defaults.
type Options struct {
	Interval   time.Duration // flush at least this often; default 1 s
	CloseEvery time.Duration // ask a DayCloser sink to close days this often; default 1 min
	BatchSize  int           // flush as soon as this many scans wait; default the sink's ScanBatchSize, else 500
	Buffer     int           // scans Record can queue for the recorder's goroutine; default 65536
	MaxBytes   int64         // bytes of scans held, queued or waiting for the database; default 64 MB
	Logger     *slog.Logger  // default slog.Default()
}

// Loss bound. Record never waits: a redirect is answered whatever happens
// to its scan. The queue is drained into memory at once and written in
// batches; while the database is unreachable the recorder keeps up to
// maxPending scans and MaxBytes bytes in memory, retrying with backoff, and
// saves them when it is back. Beyond that bound Record drops the scan,
// counts it (Stats) and says so in the log. A batch the database refuses
// for its data is split until the one refused scan is found, and only that
// scan is dropped. Close writes everything still held. Otherwise a scan is
// lost only if the process dies without Close (a crash or SIGKILL): at most
// the scans of the last Interval plus those held during an outage.
const (
	maxPending = 1 << 18 // ~256k scans
	maxTx      = 5000    // scans per transaction, unless the sink's batch is larger
	maxBackoff = 30 * time.Second
	logEvery   = 10 * time.Second // at most one line a while for each kind of loss or failure
)

// Header-derived text is cut to these many bytes, on a rune boundary,
// before a scan is queued: the database keeps nothing longer, and a
// megabyte header must not stay in memory until the next flush.
const (
	maxUserAgent  = 512
	maxReferrer   = 2048
	maxRemoteAddr = 64  // an IPv6 address with zone and port
	scanOverhead  = 128 // the Scan and its string headers, for the byte bound
)

// Stats are a recorder's counters since it started.
type Stats struct {
	Queued  int64 // scans held now, queued or waiting for the database
	Bytes   int64 // their size
	Saved   int64 // scans written
	Dropped int64 // scans dropped because the queue was full or closed
	Refused int64 // scans the database refused for their data
}

// secretName names the stored key the daily visitor-hash salt comes from.
const secretName = "visitor_hash_key"

// Recorder saves scans off the request path in batches. Create it with
// NewRecorder and stop it with Close after the HTTP server has shut down.
type Recorder struct {
	sink     Sink
	log      *slog.Logger
	interval time.Duration
	batch    int
	perTx    int

	in        chan Scan
	closing   chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeCtx  context.Context // set before closing is closed
	closeErr  error           // set before done is closed

	maxBytes                                 int64
	held, heldBytes, saved, dropped, refused atomic.Int64
	dropLog, refuseLog, failLog              Throttle

	closeEvery time.Duration

	// Owned by the run goroutine; key, salts and clients by the one write
	// under way (run hands each write over and back through channels).
	nextClose time.Time
	key       []byte
	salts     map[int64][]byte  // UTC day (days since 1970) → salt
	clients   map[string]Client // user agent → parsed
}

// NewRecorder starts a recorder writing to sink.
func NewRecorder(sink Sink, opt Options) *Recorder {
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	perTx := maxTx
	if opt.BatchSize <= 0 {
		opt.BatchSize = 500
		if b, ok := sink.(BatchSizer); ok {
			opt.BatchSize = b.ScanBatchSize()
			perTx = max(perTx, opt.BatchSize)
		}
	}
	if opt.CloseEvery <= 0 {
		opt.CloseEvery = time.Minute
	}
	if opt.Buffer <= 0 {
		opt.Buffer = 1 << 16
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 64 << 20
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	r := &Recorder{
		sink: sink, log: opt.Logger, interval: opt.Interval, batch: min(opt.BatchSize, perTx), perTx: perTx,
		in: make(chan Scan, opt.Buffer), closing: make(chan struct{}), done: make(chan struct{}),
		salts: map[int64][]byte{}, clients: map[string]Client{}, maxBytes: opt.MaxBytes, closeEvery: opt.CloseEvery,
		dropLog: Throttle{Every: logEvery}, refuseLog: Throttle{Every: logEvery}, failLog: Throttle{Every: logEvery},
	}
	go r.run()
	return r
}

// Record queues a scan, its header text cut to size and made valid UTF-8.
// It never waits: when the queue is full, or the recorder closed (the
// server has stopped by then), the scan is dropped and counted.
func (r *Recorder) Record(s Scan) {
	s.UserAgent = text(s.UserAgent, maxUserAgent)
	s.Referrer = text(s.Referrer, maxReferrer)
	s.RemoteAddr = text(s.RemoteAddr, maxRemoteAddr)
	n := size(s)
	select {
	case <-r.closing:
		r.drop("the recorder is closed")
		return
	default:
	}
	// Counted before it is queued: the recorder may save it at once.
	r.held.Add(1)
	if r.heldBytes.Add(n) <= r.maxBytes {
		select {
		case r.in <- s:
			return
		default:
		}
	}
	r.held.Add(-1)
	r.heldBytes.Add(-n)
	r.drop("the scan queue is full")
}

// Stats returns the recorder's counters.
func (r *Recorder) Stats() Stats {
	return Stats{Queued: r.held.Load(), Bytes: r.heldBytes.Load(), Saved: r.saved.Load(), Dropped: r.dropped.Load(), Refused: r.refused.Load()}
}

func (r *Recorder) drop(why string) {
	total := r.dropped.Add(1)
	if ok, held := r.dropLog.Allow(time.Now()); ok {
		r.log.Warn("scans dropped: "+why, "dropped", total, "unlogged", held)
	}
}

// release forgets the scans that were saved or refused.
func (r *Recorder) release(done []Scan) {
	var n int64
	for _, s := range done {
		n += size(s)
	}
	r.held.Add(-int64(len(done)))
	r.heldBytes.Add(-n)
}

// size is about how much memory a queued scan holds.
func size(s Scan) int64 {
	return int64(scanOverhead + len(s.UserAgent) + len(s.Referrer) + len(s.RemoteAddr))
}

// text makes header-derived text storable: valid UTF-8 without NUL, at
// most max bytes cut on a rune boundary, and not sharing memory with a
// longer header.
func text(s string, max int) string {
	cut := len(s) > max
	if cut {
		s = cutRunes(s, max)
	}
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		s = cutRunes(strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", ""), max)
	} else if cut {
		s = strings.Clone(s)
	}
	return s
}

// cutRunes returns s's longest prefix of at most max bytes that does not
// end inside a UTF-8 sequence.
func cutRunes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// Close writes every queued scan and stops the recorder. If ctx ends
// first, the scans not yet written are reported in the error.
func (r *Recorder) Close(ctx context.Context) error {
	r.closeOnce.Do(func() {
		r.closeCtx = ctx
		close(r.closing)
	})
	select {
	case <-r.done:
		return r.closeErr
	case <-ctx.Done():
		return fmt.Errorf("scans: closing the recorder: %w", ctx.Err())
	}
}

// run receives scans and hands them to one write at a time, in its own
// goroutine, so that the queue is drained while the database writes: a
// batch that took seconds under load (16,384 scans a transaction on
// PostgreSQL) left the scans arriving meanwhile in the 65,536-scan queue
// alone, and under a bench's load it overflowed (BENCHMARKS.md) with the
// memory bound far from reached. Scans now wait in memory up to
// maxPending and MaxBytes, as the loss bound says.
func (r *Recorder) run() {
	defer close(r.done)
	tick := time.NewTicker(r.interval)
	defer tick.Stop()
	var (
		pending  []Scan       // received, not yet handed to a write
		writing  chan written // the write under way, nil when none is
		inflight int          // the scans it holds
		retryAt  time.Time
		backoff  time.Duration
	)
	// write hands pending to a write, which reports on writing.
	write := func() {
		batch := pending
		pending, inflight = nil, len(batch)
		done := make(chan written, 1)
		writing = done
		go func() {
			err := r.flush(context.Background(), &batch)
			done <- written{rest: batch, err: err}
		}()
	}
	due := func() bool { return writing == nil && len(pending) > 0 && !time.Now().Before(retryAt) }
	// finished takes back what a write left unwritten, ahead of what came since.
	finished := func(w written) {
		writing, inflight = nil, 0
		pending = append(w.rest, pending...)
		if w.err != nil {
			backoff = min(max(2*backoff, time.Second), maxBackoff)
			retryAt = time.Now().Add(backoff)
			if ok, held := r.failLog.Allow(time.Now()); ok {
				r.log.Error("saving scans; will retry", "pending", len(pending), "retryIn", backoff, "unlogged", held, "err", w.err)
			}
			return
		}
		if !retryAt.IsZero() {
			r.log.Info("saving scans again")
		}
		backoff, retryAt = 0, time.Time{}
	}
	for {
		in := r.in
		room := maxPending - len(pending) - inflight
		if room <= 0 {
			in = nil // let the queue fill until the database is back
		}
		select {
		case s := <-in:
			pending = append(pending, s)
			pending = r.drain(pending, len(pending)+room-1)
			if len(pending) >= r.batch && due() {
				write()
			}
		case w := <-writing:
			finished(w)
			if len(pending) >= r.batch && due() {
				write()
			}
		case <-tick.C:
			if writing == nil {
				r.closeDays() // never beside a write of this process
			}
			if due() {
				write()
			}
		case <-r.closing:
			if writing != nil {
				w := <-writing
				pending = append(w.rest, pending...)
			}
			pending = r.drain(pending, -1)
			r.closeErr = r.flushAll(r.closeCtx, pending)
			return
		}
	}
}

// written is the outcome of a write: the scans it left unwritten (from
// the first that failed) and why.
type written struct {
	rest []Scan
	err  error
}

// closeDays lets the sink close the days that are due, once per
// closeEvery; a failure is logged and tried again next time.
func (r *Recorder) closeDays() {
	closer, ok := r.sink.(DayCloser)
	now := time.Now()
	if !ok || now.Before(r.nextClose) {
		return
	}
	r.nextClose = now.Add(r.closeEvery)
	ctx, cancel := context.WithTimeout(context.Background(), r.closeEvery)
	defer cancel()
	if n, err := closer.CloseScanDays(ctx, now); err != nil {
		r.log.Error("closing days of scans; will retry", "closed", n, "err", err)
	} else if n > 0 {
		r.log.Info("closed days of scans", "days", n)
	}
}

// drain moves queued scans into pending without waiting, up to limit
// pending scans (-1 = all).
func (r *Recorder) drain(pending []Scan, limit int) []Scan {
	for limit < 0 || len(pending) < limit {
		select {
		case s := <-r.in:
			pending = append(pending, s)
		default:
			return pending
		}
	}
	return pending
}

// flushAll writes pending, retrying until it succeeds or ctx ends.
func (r *Recorder) flushAll(ctx context.Context, pending []Scan) error {
	backoff := 100 * time.Millisecond
	for {
		err := r.flush(ctx, &pending)
		if err == nil {
			return nil
		}
		if ok, held := r.failLog.Allow(time.Now()); ok {
			r.log.Error("saving scans at shutdown; retrying", "pending", len(pending), "unlogged", held, "err", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("scans: %d scans not saved: %w", len(pending), err)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

// flush writes *pending in transactions of at most perTx scans, removing
// each written batch, so a failure keeps exactly the unwritten scans.
func (r *Recorder) flush(ctx context.Context, pending *[]Scan) error {
	events := make([]store.ScanEvent, 0, min(len(*pending), r.perTx))
	for len(*pending) > 0 {
		chunk := (*pending)[:min(len(*pending), r.perTx)]
		events = events[:0]
		for _, s := range chunk {
			e, err := r.event(ctx, s)
			if err != nil {
				return err
			}
			events = append(events, e)
		}
		n, err := r.save(ctx, events)
		r.release(chunk[:n])
		*pending = (*pending)[n:]
		if err != nil {
			return err
		}
	}
	*pending = nil // let the backing array go
	return nil
}

// save writes events and returns how many of them, from the first, are
// done with: saved, or refused by the database for their data. A refused
// batch is split in halves until the refused scan is alone, which is
// logged and dropped, so one bad row never holds back the others.
func (r *Recorder) save(ctx context.Context, events []store.ScanEvent) (int, error) {
	err := r.sink.RecordScans(ctx, events)
	switch {
	case err == nil:
		r.saved.Add(int64(len(events)))
		return len(events), nil
	case !store.Refused(err):
		return 0, err
	case len(events) == 1:
		total := r.refused.Add(1)
		if ok, held := r.refuseLog.Allow(time.Now()); ok {
			r.log.Error("the database refused a scan; dropped it", "code", events[0].CodeID, "refused", total, "unlogged", held, "err", err)
		}
		return 1, nil
	}
	half := len(events) / 2
	n, err := r.save(ctx, events[:half])
	if err != nil {
		return n, err
	}
	m, err := r.save(ctx, events[half:])
	return n + m, err
}

// maxClients bounds the parsed user-agent memo.
const maxClients = 4096

// maxReferrerHost bounds a stored referrer's host (with port): DNS names
// are at most 253 bytes, and a longer header is only a way to fill the
// database.
const maxReferrerHost = 260

// event turns a request's scan into what is stored: the client parsed, the
// referrer cut to its origin (paths and queries may be private), and the
// address replaced by the visitor hash and its country, region and city
// (looked up here, off the request path).
func (r *Recorder) event(ctx context.Context, s Scan) (store.ScanEvent, error) {
	c, ok := r.clients[s.UserAgent]
	if !ok {
		c = ParseUserAgent(s.UserAgent)
		if len(r.clients) >= maxClients {
			clear(r.clients)
		}
		r.clients[s.UserAgent] = c
	}
	salt, err := r.salt(ctx, s.At)
	if err != nil {
		return store.ScanEvent{}, err
	}
	// A city database, when set, places the scan in a region and city;
	// its country, when it has one, goes with them, so a city is never
	// counted under another database's country.
	place := geo.PlaceOf(s.RemoteAddr)
	if place.Country == "" {
		place.Country = geo.Country(s.RemoteAddr)
	}
	return store.ScanEvent{
		CodeID:      s.CodeID,
		ScannedAt:   s.At,
		DeviceType:  c.Device,
		OS:          c.OS,
		Browser:     c.Browser,
		Referrer:    origin(s.Referrer),
		VisitorHash: VisitorHash(salt, host(s.RemoteAddr), s.UserAgent),
		IsBot:       c.IsBot,
		Country:     place.Country,
		Region:      place.Region,
		City:        place.City,
		Route:       cmp.Or(s.Route, store.RouteDefault),
	}, nil
}

// salt returns the visitor-hash salt of t's UTC day: HMAC-SHA256 of the
// date under a key kept in the database, so every instance derives the same
// salt, it changes every day, and no salt is ever stored.
func (r *Recorder) salt(ctx context.Context, t time.Time) ([]byte, error) {
	day := t.Unix() / 86400 // a number, not the date's text: this runs for every scan
	if s, ok := r.salts[day]; ok {
		return s, nil
	}
	if r.key == nil {
		fresh := make([]byte, 32)
		rand.Read(fresh)
		key, err := r.sink.Secret(ctx, secretName, fresh)
		if err != nil {
			return nil, err
		}
		r.key = key
	}
	if len(r.salts) > 2 {
		clear(r.salts) // only today and yesterday are asked for
	}
	m := hmac.New(sha256.New, r.key)
	m.Write([]byte(t.UTC().Format(time.DateOnly)))
	r.salts[day] = m.Sum(nil)
	return r.salts[day], nil
}

// VisitorHash identifies a visitor within a day without keeping the
// address: SHA-256 of the day's salt, the address and the user agent, as
// 32 hex digits.
func VisitorHash(salt []byte, addr, userAgent string) string {
	sum := visitorSum(salt, 0, addr, userAgent)
	return hex.EncodeToString(sum[:16])
}

// visitorSum is the SHA-256 behind a visitor hash; a code id other than 0
// goes in after the salt (StickyBucket's per-code hash).
func visitorSum(salt []byte, code int64, addr, userAgent string) [sha256.Size]byte {
	// One buffer on the stack for the usual sizes: every scan is hashed,
	// and a hash.Hash and its writes cost two allocations each time.
	var buf [512]byte
	b := append(buf[:0], salt...)
	if code != 0 {
		b = binary.BigEndian.AppendUint64(b, uint64(code))
	}
	b = append(b, addr...)
	b = append(b, 0)
	b = append(b, userAgent...)
	return sha256.Sum256(b)
}

// host strips the port from a RemoteAddr.
func host(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// origin returns scheme://host of a referrer, or "" when it has none.
func origin(ref string) string {
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Scheme == "" || u.Host == "" || len(u.Host) > maxReferrerHost {
		return ""
	}
	// A percent-escaped host is unescaped into bytes that may not be UTF-8.
	return text(u.Scheme+"://"+u.Host, maxReferrer)
}
