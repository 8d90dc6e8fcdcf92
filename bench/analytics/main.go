// Command analytics times the analytics views over many scans (issues 15
// and 37). It seeds one workspace with dynamic codes (one per 1,000 scans,
// each with one of 10 tags and in one of 50 folders), share links of four
// scopes and -events scan events over the last -days days through
// store.RecordScans (COPY on PostgreSQL, multi-row INSERTs on SQLite) on a
// temporary SQLite file and in a PostgreSQL schema of its own, dropped
// after. Then it times what the analytics views ask the store for (the
// workspace, the hot code, a tag's and a folder's codes; 7 days, 90 days
// and all time; every country and one country alone; the tag's and the
// folder's next view after one of their codes is deleted, and after late
// scans), the share pages of those scopes and the dashboard's first page
// of codes, prints p50/p95 against their budgets, the seeding rate and the
// peak RSS of the views, and exits 1 when a budget is missed.
//
// PostgreSQL comes from DATABASE_URL, or the local test server. Flags
// bound the work: -events, -codes, -days, -runs, -view-time, -only sqlite|postgres.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/bench/internal/benchdb"
	"github.com/squarely/squarely/internal/sharelinks"
	"github.com/squarely/squarely/internal/store"
)

const (
	// viewBudget bounds the p95 of an analytics view and of the share
	// page's data; listBudget the dashboard's code list (issue 37).
	viewBudget = 200 * time.Millisecond
	listBudget = 50 * time.Millisecond
	// rssBudget bounds the peak resident memory while the views run.
	rssBudget = 300 << 20
	// hotShare of the events go to the first code, so the per-code view
	// is timed on a code with a tenth of the scans rather than on an
	// average one.
	hotShare = 0.1
	// tags and folders the codes are spread over, round robin: the tag
	// view reads a tenth of the codes, the folder view a fiftieth.
	tags, folders = 10, 50
)

func main() {
	events := flag.Int("events", 1_000_000, "scan events to seed")
	codes := flag.Int("codes", 0, "dynamic codes to spread them over (0: one per 1,000 events, at least 100)")
	days := flag.Int("days", 400, "how far back the seeded scans go: all time")
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
	if *codes == 0 {
		*codes = max(100, *events/1000)
	}
	ctx := context.Background()
	failed := false
	for _, db := range []string{"sqlite", "postgres"} {
		if *only != "" && *only != db {
			continue
		}
		over, err := bench(ctx, db, seedSize{*events, *codes, *days}, *runs, *viewTime, loc)
		if err != nil {
			fmt.Fprintf(os.Stderr, "analytics: %s: %v\n", db, err)
			os.Exit(1)
		}
		failed = failed || over
	}
	if failed {
		fmt.Println("some budget was missed")
		os.Exit(1)
	}
}

// seedSize is what to seed: events over codes and the last days.
type seedSize struct{ events, codes, days int }

// bench seeds one database and times its views; over reports a missed budget.
func bench(ctx context.Context, db string, size seedSize, runs int, viewTime time.Duration, loc *time.Location) (over bool, err error) {
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
	sd, err := seed(ctx, st, now, size)
	if err != nil {
		return false, err
	}
	took := time.Since(start)
	fmt.Printf("%s: seeded %d scans over %d codes (%d tags, %d folders) and %d days in %v: %.0f scans/s (codes included); days of %s\n",
		db, size.events, size.codes, tags, folders, size.days, took.Round(time.Second), float64(size.events)/took.Seconds(), loc)

	// The workspace's country rows (internal/store/countrydays.go) begin
	// at the day the database was made: the seeded days before it are
	// counted back as the recorder's minute tick does, here until done.
	start = time.Now()
	for done := false; !done; {
		if done, err = st.CatchUpCountryDays(ctx, time.Now().Add(time.Minute)); err != nil {
			return false, err
		}
	}
	took = time.Since(start)
	fmt.Printf("%s: country rows counted back over %d days in %v: %.0f scans/s\n", db, size.days, took.Round(time.Second), float64(size.events)/took.Seconds())

	// Only the views' peak counts: the seeding's garbage goes back to the
	// system first, as a server's would long after its batches.
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		fmt.Printf("%s: peak RSS not measured: %v\n", db, err)
	}
	timed := func(name, label string, budget time.Duration, fn func() error) error {
		p50, p95, n, err := timeRuns(runs, viewTime, fn)
		if err != nil {
			return fmt.Errorf("%s %s: %w", name, label, err)
		}
		mark := "ok"
		if p95 > budget {
			mark, over = "OVER BUDGET", true
		}
		fmt.Printf("%s %-32s %-9s p50 %8v  p95 %8v  (%d runs)  %s\n", db, name, label,
			p50.Round(100*time.Microsecond), p95.Round(100*time.Microsecond), n, mark)
		return nil
	}

	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	scopes := []struct {
		name string
		q    store.ScanQuery
	}{
		{"workspace", store.ScanQuery{}},
		{"code (hot)", store.ScanQuery{CodeID: sd.codes[0]}},
		{fmt.Sprintf("tag (%d codes)", (size.codes+tags-1)/tags), store.ScanQuery{TagID: sd.tag}},
		{fmt.Sprintf("folder (%d codes)", (size.codes+folders-1)/folders), store.ScanQuery{FolderID: sd.folder}},
	}
	for _, sc := range scopes {
		q := sc.q
		q.WorkspaceID = sd.workspace
		if q.TagID > 0 || q.FolderID > 0 {
			// The first view of a tag or folder sums its codes' rows into
			// its own (internal/store/groupdays.go): timed apart.
			t0 := time.Now()
			if err := analyticsView(ctx, st, q, today, 0); err != nil {
				return over, err
			}
			fmt.Printf("%s %-32s first view, its rows built: %v\n", db, sc.name, time.Since(t0).Round(time.Millisecond))
		}
		for _, days := range []int{7, 90, 0} {
			err := timed(sc.name, rangeLabel(days), viewBudget, func() error { return analyticsView(ctx, st, q, today, days) })
			if err != nil {
				return over, err
			}
		}
		// One country's scans (?country=), one in thirteen of the seed's:
		// the workspace's from its country rows, the others' from rows by
		// country the first view builds from their scan events
		// (internal/store/countryrollups.go): timed apart, all time.
		byCountry := q
		byCountry.ByCountry, byCountry.Country = true, "DE"
		if q.CodeID > 0 || q.TagID > 0 || q.FolderID > 0 {
			t0 := time.Now()
			if err := analyticsView(ctx, st, byCountry, today, 0); err != nil {
				return over, err
			}
			fmt.Printf("%s %-32s first view, its rows by country built: %v\n", db, sc.name+", DE only", time.Since(t0).Round(time.Millisecond))
		}
		for _, days := range []int{7, 90, 0} {
			err := timed(sc.name+", DE only", rangeLabel(days), viewBudget, func() error { return analyticsView(ctx, st, byCountry, today, days) })
			if err != nil {
				return over, err
			}
		}
	}
	// The share page of each scope over its default range, 30 days: the
	// link read by its token, then what the page shows.
	for i, sc := range scopes {
		err := timed("share: "+sc.name, rangeLabel(30), viewBudget, func() error {
			l, err := st.ShareLinkByToken(ctx, sharelinks.HashToken(sd.shares[i]))
			if err != nil {
				return err
			}
			return analyticsView(ctx, st, l.Query(), today, 30)
		})
		if err != nil {
			return over, err
		}
	}
	// A code of the timed tag and folder is deleted (code i has tag i%tags
	// and folder i%folders, and folders is a multiple of tags): its rows
	// leave theirs in the deletion, and the next view of each reads them
	// as they are.
	t0 := time.Now()
	if _, err := st.DeleteDynamicCode(ctx, sd.workspace, sd.codes[folders], time.Now()); err != nil {
		return over, err
	}
	fmt.Printf("%s %-32s %v\n", db, "a code of both deleted", time.Since(t0).Round(time.Millisecond))
	// groupViews times one all-time view of the timed tag and folder, of
	// every country and then of DE, whose rows by country are summed
	// again from the events after such a change.
	groupViews := func(after string) error {
		for _, sc := range scopes[2:] {
			for _, country := range []string{"", "DE"} {
				q := sc.q
				q.WorkspaceID, q.ByCountry, q.Country = sd.workspace, country != "", country
				name := sc.name
				if country != "" {
					name += ", DE only"
				}
				t0 := time.Now()
				if err := analyticsView(ctx, st, q, today, 0); err != nil {
					return err
				}
				fmt.Printf("%s %-32s view %s, all time: %v\n", db, name, after, time.Since(t0).Round(time.Millisecond))
			}
		}
		return nil
	}
	if err := groupViews("after the deletion"); err != nil {
		return over, err
	}
	// Scans saved late into a closed day, as after a database outage:
	// 1,000 of up to ten codes of the timed tag and folder (the hot code
	// on a small seed), two days ago. The rows summed with them take them
	// as they are saved, and the next view of each reads them as they are.
	var lateCodes []int64
	for k := 2; k*folders < len(sd.codes) && len(lateCodes) < 10; k++ {
		lateCodes = append(lateCodes, sd.codes[k*folders])
	}
	if len(lateCodes) == 0 {
		lateCodes = sd.codes[:1]
	}
	late := make([]store.ScanEvent, 0, 1000)
	for i := range cap(late) {
		late = append(late, store.ScanEvent{CodeID: lateCodes[i%len(lateCodes)], ScannedAt: now.Add(-48*time.Hour + time.Duration(i)*time.Second),
			DeviceType: "mobile", OS: "iOS", Browser: "Safari", Country: "DE", VisitorHash: fmt.Sprintf("late%04d", i)})
	}
	t0 = time.Now()
	if err := st.RecordScans(ctx, late); err != nil {
		return over, err
	}
	fmt.Printf("%s %-32s %v\n", db, "1,000 late scans saved", time.Since(t0).Round(time.Millisecond))
	if err := groupViews("after late scans"); err != nil {
		return over, err
	}
	// GET /api/codes' first page: 50 codes and one to know there is a next.
	list := store.CodeQuery{WorkspaceID: sd.workspace, Sort: "created", Desc: true, Limit: 51}
	err = timed("code list", "page 1", listBudget, func() error {
		refs, err := st.ListCodes(ctx, list)
		if err != nil {
			return err
		}
		_, _, err = st.CodesByRef(ctx, sd.workspace, refs)
		return err
	})
	if err != nil {
		return over, err
	}
	if peak, err := peakRSS(); err != nil {
		fmt.Printf("%s: peak RSS not measured: %v\n", db, err)
	} else {
		mark := "ok"
		if peak > rssBudget {
			mark, over = "OVER BUDGET", true
		}
		fmt.Printf("%s peak RSS during the views %d MB  %s\n", db, peak>>20, mark)
	}
	// Timings on a shared machine mean little without its load.
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("%s load average after the views: %s", db, load)
	}
	return over, nil
}

func rangeLabel(days int) string {
	if days == 0 {
		return "all time"
	}
	return fmt.Sprintf("%d days", days)
}

// timeRuns runs fn runs times, or until limit has gone, and gives the
// p50 and p95 of its durations and how many runs there were.
func timeRuns(runs int, limit time.Duration, fn func() error) (p50, p95 time.Duration, n int, err error) {
	var took []time.Duration
	for began := time.Now(); len(took) < runs && time.Since(began) < limit; {
		t0 := time.Now()
		if err := fn(); err != nil {
			return 0, 0, 0, err
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	return took[len(took)/2], took[(len(took)*95+99)/100-1], len(took), nil
}

// resetPeakRSS sets the process's peak resident memory (VmHWM) back to
// what it uses now (Linux).
func resetPeakRSS() error {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS reads VmHWM, the peak resident memory since resetPeakRSS, in bytes.
func peakRSS() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			return n << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// analyticsView asks the store what the analytics handlers ask it for a
// range of days ending today (0: all time) in today's time zone: the
// code's ownership, the first scan for all time, for one country the
// scans it would read from the events (the handler's bound on them), the
// report and the previous period's count.
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
		if q.ByCountry {
			if _, err := st.CountryEventScans(ctx, q); err != nil {
				return err
			}
		}
		_, err = st.ScanReport(ctx, q)
		return err
	}
	q.From = today.AddDate(0, 0, 1-days)
	pq := q
	pq.From, pq.To = q.From.Add(-q.To.Sub(q.From)), q.From
	if q.ByCountry {
		for _, r := range []store.ScanQuery{q, pq} {
			if _, err := st.CountryEventScans(ctx, r); err != nil {
				return err
			}
		}
	}
	if _, err := st.ScanReport(ctx, q); err != nil {
		return err
	}
	_, err := st.ScanCount(ctx, pq)
	return err
}

// seeded is what seed made: the workspace, its codes (the hot one first),
// the tag and folder the views read, and the tokens of share links of the
// workspace, the hot code, that tag and that folder.
type seeded struct {
	workspace   int64
	codes       []int64
	tag, folder int64
	shares      []string
}

// seed creates the user, its codes with their tags and folders, the share
// links and the events, in batches so memory stays bounded whatever
// -events says.
func seed(ctx context.Context, st *store.Store, now time.Time, size seedSize) (sd seeded, err error) {
	u := &store.User{Username: "bench-analytics@squarely.test", Email: "bench-analytics@squarely.test"}
	if err := st.CreateUser(ctx, u); err != nil {
		return sd, err
	}
	ws, err := st.PersonalWorkspace(ctx, u.ID)
	if err != nil {
		return sd, err
	}
	sd.workspace = ws.ID
	var tagIDs, folderIDs []int64
	for i := range tags {
		t := &store.Tag{Name: fmt.Sprintf("Tag %d", i+1), Color: "#2563eb"}
		if err := st.CreateTag(ctx, ws.ID, t, now); err != nil {
			return sd, err
		}
		tagIDs = append(tagIDs, t.ID)
	}
	for i := range folders {
		f := &store.Folder{Name: fmt.Sprintf("Folder %d", i+1)}
		if err := st.CreateFolder(ctx, ws.ID, f, now); err != nil {
			return sd, err
		}
		folderIDs = append(folderIDs, f.ID)
	}
	sd.tag, sd.folder = tagIDs[0], folderIDs[0]
	for i := range size.codes {
		d := &store.DynamicCode{
			WorkspaceID: ws.ID, UserID: u.ID, Name: "Bench " + strconv.Itoa(i+1), ShortCode: fmt.Sprintf("a%07d", i+1),
			Destination: "https://example.com/landing/" + strconv.Itoa(i+1), QRType: "url",
			Style: store.Style{
				FgColor: "#000000", BgColor: "#FFFFFF", QRStyle: "squares", DotShape: "square",
				CornerShape: "square", InnerCornerShape: "square", ErrorCorrectionLevel: "M", LogoSize: "medium",
				FrameText: "SCAN ME", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
			},
			CreatedAt: now.Add(time.Duration(i-size.codes) * time.Second),
		}
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			return sd, err
		}
		if err := st.SetCodeTags(ctx, ws.ID, true, d.ID, []int64{tagIDs[i%tags]}); err != nil {
			return sd, err
		}
		if err := st.SetCodeFolder(ctx, ws.ID, true, d.ID, &folderIDs[i%folders]); err != nil {
			return sd, err
		}
		sd.codes = append(sd.codes, d.ID)
	}
	for _, scope := range []store.ShareLink{{}, {CodeID: sd.codes[0]}, {TagID: sd.tag}, {FolderID: sd.folder}} {
		token, hash, hint := sharelinks.NewToken()
		l := scope
		l.WorkspaceID, l.TokenHash, l.TokenHint, l.CreatedBy = ws.ID, hash, hint, u.ID
		if err := st.CreateShareLink(ctx, &l, 10, now); err != nil {
			return sd, err
		}
		sd.shares = append(sd.shares, token)
	}

	ids := sd.codes
	rng := rand.New(rand.NewPCG(1, 2))
	devices := []string{"mobile", "mobile", "mobile", "tablet", "desktop"}
	oses := []string{"iOS", "Android", "Windows", "macOS", "Linux"}
	browsers := []string{"Safari", "Chrome", "Firefox", "Edge", "Samsung Internet"}
	countries := []string{"US", "DE", "FR", "GB", "BR", "IN", "JP", "NL", "ES", "IT", "CA", "AU", ""}
	referrers := []string{"", "", "", "https://instagram.com", "https://facebook.com", "https://news.example.org"}
	events := size.events
	span := int64(time.Duration(size.days) * 24 * time.Hour)
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
			return sd, err
		}
		done += len(batch)
	}
	return sd, nil
}
