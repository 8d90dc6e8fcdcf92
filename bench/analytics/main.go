// Command analytics times the analytics views over a million scans (issue
// 15, item 5). It seeds 1,000 dynamic codes of one user and 1,000,000 scan
// events through store.RecordScans (COPY on PostgreSQL, multi-row INSERTs on
// SQLite) on a temporary SQLite file and in a PostgreSQL schema of its own,
// dropped after, then times what GET /api/analytics and
// GET /api/dynamic-qrcodes/{id}/analytics ask the store for, over the last
// 7 days, 90 days and all time, and prints p50/p95.
//
// PostgreSQL comes from DATABASE_URL, or the local test server. Flags
// bound the work: -events, -codes, -runs, -view-time, -only sqlite|postgres.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/squarely/squarely/bench/internal/benchdb"
	"github.com/squarely/squarely/internal/store"
)

const (
	budget = 200 * time.Millisecond
	// spanDays is how far back the seeded scans go: "all time" is a year.
	spanDays = 365
	// hotShare of the events go to the first code, so the per-code view
	// is timed on a code with 100,000 scans rather than on an average one.
	hotShare = 0.1
)

func main() {
	events := flag.Int("events", 1_000_000, "scan events to seed")
	codes := flag.Int("codes", 1_000, "dynamic codes to spread them over")
	runs := flag.Int("runs", 20, "timed runs of each view")
	viewTime := flag.Duration("view-time", 30*time.Second, "stop timing a view after this long, however few its runs")
	only := flag.String("only", "", "sqlite or postgres: time one database")
	zone := flag.String("tz", "America/New_York", "the viewer's time zone: its days start inside UTC days, so each range has partial days at its ends")
	flag.Parse()
	loc, err := time.LoadLocation(*zone)
	if err != nil {
		fmt.Fprintf(os.Stderr, "analytics: %v\n", err)
		os.Exit(2)
	}
	ctx := context.Background()
	failed := false
	for _, db := range []string{"sqlite", "postgres"} {
		if *only != "" && *only != db {
			continue
		}
		over, err := bench(ctx, db, *events, *codes, *runs, *viewTime, loc)
		if err != nil {
			fmt.Fprintf(os.Stderr, "analytics: %s: %v\n", db, err)
			os.Exit(1)
		}
		failed = failed || over
	}
	if failed {
		fmt.Printf("some p95 exceeded the %v budget\n", budget)
	}
}

// bench seeds one database and times its views; over reports a p95 above budget.
func bench(ctx context.Context, db string, events, codes, runs int, viewTime time.Duration, loc *time.Location) (over bool, err error) {
	var st *store.Store
	switch db {
	case "sqlite":
		dir, err := os.MkdirTemp("", "squarely-bench-analytics-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(dir)
		if st, err = store.Open(ctx, "", dir); err != nil {
			return false, err
		}
	default:
		base := os.Getenv("DATABASE_URL")
		if base == "" {
			base = benchdb.DefaultPostgres
		}
		withSchema, drop, err := benchdb.TempSchema(ctx, base, "bench_analytics_")
		if err != nil {
			return false, err
		}
		defer func() { err = errors.Join(err, drop()) }()
		if st, err = store.Open(ctx, withSchema, ""); err != nil {
			return false, err
		}
	}
	defer st.Close()

	now := time.Now().UTC()
	start := time.Now()
	workspaceID, ids, err := seed(ctx, st, now, events, codes)
	if err != nil {
		return false, err
	}
	fmt.Printf("%s: seeded %d scans over %d codes in %v; days of %s\n", db, events, codes, time.Since(start).Round(time.Second), loc)

	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	for _, view := range []struct {
		name string
		code int64
	}{{"account", 0}, {"per-code (hot code)", ids[0]}} {
		for _, days := range []int{7, 90, 0} {
			label := fmt.Sprintf("%d days", days)
			if days == 0 {
				label = "all time"
			}
			q := store.ScanQuery{WorkspaceID: workspaceID, CodeID: view.code}
			var took []time.Duration
			for began := time.Now(); len(took) < runs && time.Since(began) < viewTime; {
				t0 := time.Now()
				if err := analyticsView(ctx, st, q, today, days); err != nil {
					return false, err
				}
				took = append(took, time.Since(t0))
			}
			slices.Sort(took)
			p50, p95 := took[len(took)/2], took[(len(took)*95+99)/100-1]
			mark := "ok"
			if p95 > budget {
				mark, over = "OVER BUDGET", true
			}
			fmt.Printf("%s %-20s %-9s p50 %8v  p95 %8v  (%d runs)  %s\n", db, view.name, label,
				p50.Round(100*time.Microsecond), p95.Round(100*time.Microsecond), len(took), mark)
		}
	}
	return over, nil
}

// analyticsView asks the store what the analytics handlers ask it for a
// range of days ending today (0: all time) in today's time zone: the
// code's ownership, the first scan for all time, the report and the
// previous period's count.
func analyticsView(ctx context.Context, st *store.Store, q store.ScanQuery, today time.Time, days int) error {
	if q.CodeID > 0 {
		if _, err := st.DynamicCode(ctx, q.WorkspaceID, q.CodeID); err != nil {
			return err
		}
	}
	q.To = today.AddDate(0, 0, 1)
	if days == 0 {
		q.From = time.Time{}
		first, ok, err := st.FirstScan(ctx, q)
		if err != nil {
			return err
		}
		q.From = today
		if ok {
			f := first.In(today.Location())
			q.From = time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, today.Location())
		}
		_, err = st.ScanReport(ctx, q)
		return err
	}
	q.From = today.AddDate(0, 0, 1-days)
	if _, err := st.ScanReport(ctx, q); err != nil {
		return err
	}
	pq := q
	pq.From, pq.To = q.From.Add(-q.To.Sub(q.From)), q.From
	_, err := st.ScanCount(ctx, pq)
	return err
}

// seed creates the user, its codes and the events, in batches so memory
// stays bounded whatever -events says.
func seed(ctx context.Context, st *store.Store, now time.Time, events, codes int) (workspaceID int64, ids []int64, err error) {
	u := &store.User{Username: "bench-analytics@squarely.test", Email: "bench-analytics@squarely.test"}
	if err := st.CreateUser(ctx, u); err != nil {
		return 0, nil, err
	}
	ws, err := st.PersonalWorkspace(ctx, u.ID)
	if err != nil {
		return 0, nil, err
	}
	for i := range codes {
		d := &store.DynamicCode{
			WorkspaceID: ws.ID, UserID: u.ID, Name: "Bench " + strconv.Itoa(i+1), ShortCode: fmt.Sprintf("a%07d", i+1),
			Destination: "https://example.com/landing/" + strconv.Itoa(i+1), QRType: "url",
			Style: store.Style{
				FgColor: "#000000", BgColor: "#FFFFFF", QRStyle: "squares", DotShape: "square",
				CornerShape: "square", InnerCornerShape: "square", ErrorCorrectionLevel: "M", LogoSize: "medium",
				FrameText: "SCAN ME", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
			},
			CreatedAt: now,
		}
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			return 0, nil, err
		}
		ids = append(ids, d.ID)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	devices := []string{"mobile", "mobile", "mobile", "tablet", "desktop"}
	oses := []string{"iOS", "Android", "Windows", "macOS", "Linux"}
	browsers := []string{"Safari", "Chrome", "Firefox", "Edge", "Samsung Internet"}
	countries := []string{"US", "DE", "FR", "GB", "BR", "IN", "JP", "NL", "ES", "IT", "CA", "AU", ""}
	referrers := []string{"", "", "", "https://instagram.com", "https://facebook.com", "https://news.example.org"}
	span := int64(spanDays * 24 * time.Hour)
	step := span / int64(events) // between two events
	batch := make([]store.ScanEvent, 0, 50_000)
	for done := 0; done < events; {
		batch = batch[:0]
		for range min(cap(batch), events-done) {
			code := ids[0]
			if rng.Float64() >= hotShare {
				code = ids[rng.IntN(len(ids))]
			}
			e := store.ScanEvent{
				CodeID: code,
				// Oldest first, as the recorder meets them.
				ScannedAt:   now.Add(-time.Duration(span - step*int64(done+len(batch)) - rng.Int64N(step))),
				DeviceType:  devices[rng.IntN(len(devices))],
				OS:          oses[rng.IntN(len(oses))],
				Browser:     browsers[rng.IntN(len(browsers))],
				Referrer:    referrers[rng.IntN(len(referrers))],
				VisitorHash: fmt.Sprintf("%016x", rng.Uint64N(200_000)),
				Country:     countries[rng.IntN(len(countries))],
			}
			if rng.IntN(20) == 0 { // one scan in twenty is a crawler
				e.IsBot, e.DeviceType, e.Browser = true, "bot", "Googlebot"
			}
			batch = append(batch, e)
		}
		if err := st.RecordScans(ctx, batch); err != nil {
			return 0, nil, err
		}
		done += len(batch)
	}
	return ws.ID, ids, nil
}
