// Command seed prepares and checks the database of bench/redirect.sh,
// through the store the server uses. It reads DATABASE_URL and
// SQUARELY_DATA_DIR like squarely does.
//
//	seed schema URL          create a fresh PostgreSQL schema; print URL with search_path set to it
//	seed drop-schema URL     drop the schema URL's search_path names
//	seed codes N FILE        create N dynamic codes for the bench user; write their short codes to FILE
//	seed smart-codes N FILE  the same, each with smart routing: 12 rules no phone of the bench meets and a 3-way split
//	seed citydb FILE         write the city database that places the bench's forwarded addresses (scanbench.Place)
//	seed page-codes N FILE   create N hosted pages (link lists) and a code opening each; write the short codes to FILE
//	seed count               print the bench user's recorded human scans
//	seed webhook URL         subscribe an endpoint at URL to the bench workspace's scan.created (or enable it again)
//	seed webhook-off         disable the bench workspace's endpoints
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/geo/geotest"
	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/scans/scanbench"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/webhooks"
)

const benchUser = "bench@squarely.test"

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: seed schema URL | drop-schema URL | codes N FILE | smart-codes N FILE | page-codes N FILE | gs1-products N FILE | citydb FILE | count | webhook URL | webhook-off")
	}
	switch {
	case args[0] == "schema" && len(args) == 2:
		return createSchema(ctx, args[1])
	case args[0] == "drop-schema" && len(args) == 2:
		return dropSchema(ctx, args[1])
	case args[0] == "citydb" && len(args) == 2:
		return geotest.Write(args[1], scanbench.Place)
	case args[0] == "codes" && len(args) == 3:
		n, err := strconv.Atoi(args[1])
		if err != nil || n <= 0 {
			return fmt.Errorf("N must be a positive number, got %q", args[1])
		}
		return seedCodes(ctx, n, args[2], false)
	case args[0] == "smart-codes" && len(args) == 3:
		n, err := strconv.Atoi(args[1])
		if err != nil || n <= 0 {
			return fmt.Errorf("N must be a positive number, got %q", args[1])
		}
		return seedCodes(ctx, n, args[2], true)
	case args[0] == "page-codes" && len(args) == 3:
		n, err := strconv.Atoi(args[1])
		if err != nil || n <= 0 {
			return fmt.Errorf("N must be a positive number, got %q", args[1])
		}
		return seedPageCodes(ctx, n, args[2])
	case args[0] == "gs1-products" && len(args) == 3:
		n, err := strconv.Atoi(args[1])
		if err != nil || n <= 0 {
			return fmt.Errorf("N must be a positive number, got %q", args[1])
		}
		return seedGS1Products(ctx, n, args[2])
	case args[0] == "count" && len(args) == 1:
		return count(ctx)
	case args[0] == "webhook" && len(args) == 2:
		return webhook(ctx, args[1], true)
	case args[0] == "webhook-off" && len(args) == 1:
		return webhook(ctx, "", false)
	}
	return fmt.Errorf("unknown command %q", args)
}

func createSchema(ctx context.Context, base string) error {
	var suffix [6]byte
	rand.Read(suffix[:])
	schema := "bench_" + hex.EncodeToString(suffix[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		return err
	}
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	fmt.Println(u.String())
	return nil
}

func dropSchema(ctx context.Context, withSchema string) error {
	u, err := url.Parse(withSchema)
	if err != nil {
		return err
	}
	schema := u.Query().Get("search_path")
	if schema == "" {
		return errors.New("the URL names no search_path")
	}
	db, err := sql.Open("pgx", withSchema)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `DROP SCHEMA "`+schema+`" CASCADE`)
	return err
}

func open(ctx context.Context) (*store.Store, error) {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
}

// seedCodes creates n codes for the bench user (created on first use),
// named b0000001… or, smart, s0000001… with routing, with four writers
// (PostgreSQL takes them in parallel; SQLite serialises them).
func seedCodes(ctx context.Context, n int, file string, smart bool) error {
	st, err := open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.UserByUsername(ctx, benchUser)
	if errors.Is(err, store.ErrNotFound) {
		u = &store.User{Username: benchUser, Email: benchUser}
		err = st.CreateUser(ctx, u)
	}
	if err != nil {
		return err
	}
	prefix := "b"
	if smart {
		prefix = "s"
	}
	codes := make([]string, n)
	for i := range codes {
		codes[i] = fmt.Sprintf("%s%07d", prefix, i+1)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan int)
	)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				d := &store.DynamicCode{
					UserID: u.ID, Name: "Bench " + codes[i], ShortCode: codes[i],
					Destination: "https://example.com/landing/" + strconv.Itoa(i+1), QRType: "url",
					Style: store.Style{
						FgColor: "#000000", BgColor: "#FFFFFF", QRStyle: "squares", DotShape: "square",
						CornerShape: "square", InnerCornerShape: "square", ErrorCorrectionLevel: "M", LogoSize: "medium",
						FrameText: "SCAN ME", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
					},
					CreatedAt: time.Now(),
				}
				err := st.CreateDynamicCode(ctx, d, 0)
				if err == nil && smart {
					_, err = st.SetDynamicRouting(ctx, u.ID, d.ID, scanbench.SmartRouting(i), time.Now())
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range codes {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// Their destinations count as checked now, as if the link checks
	// (alerts) were spread over their interval as in a running
	// deployment: codes never checked are due at once, and checking
	// 20,000 of them (example.com, unreachable here) during the loads
	// wrote to every code's row twice and slowed the loads by more than
	// half as the table bloated (BENCHMARKS.md).
	now := time.Now()
	if _, err := st.ClaimLinkChecks(ctx, now, now, n); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, c := range codes {
		fmt.Fprintln(w, c)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// count prints the human scans recorded for the bench user's codes.
func count(ctx context.Context) error {
	st, err := open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.UserByUsername(ctx, benchUser)
	if err != nil {
		return err
	}
	a, err := st.UserAnalytics(ctx, u.ID, u.ID, time.Now())
	if err != nil {
		return err
	}
	fmt.Println(a.TotalScans)
	return nil
}

// webhook subscribes the bench workspace to scan.created at url (on): it
// adds the endpoint the first time and enables it again after; or it
// disables every endpoint of the workspace (off).
func webhook(ctx context.Context, url string, on bool) error {
	st, _, ws, err := openBench(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.WebhookEndpoints(ctx, ws.ID)
	if err != nil {
		return err
	}
	if on && len(list) == 0 {
		e := &store.WebhookEndpoint{WorkspaceID: ws.ID, URL: url, Events: []string{store.EventScanCreated}, Secret: webhooks.NewSecret()}
		return st.CreateWebhookEndpoint(ctx, e, 0, time.Now())
	}
	for _, e := range list {
		if _, err := st.UpdateWebhookEndpoint(ctx, ws.ID, e.ID, store.WebhookPatch{Enabled: &on}, time.Now()); err != nil {
			return err
		}
	}
	return nil
}

// seedPageCodes creates n hosted pages (issue 35: link lists of ten links,
// a bio and socials) and a code opening each, p0000001…, whose scans
// answer the page itself.
func seedPageCodes(ctx context.Context, n int, file string) error {
	st, u, ws, err := openBench(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	var links []string
	for j := range 10 {
		links = append(links, fmt.Sprintf(`{"label":"Link number %d","url":"https://example.com/link/%d"}`, j+1, j+1))
	}
	content := `{"title":"Bench links","bio":"Ten links and two profiles, as a link list has them.","links":[` + strings.Join(links, ",") +
		`],"socials":[{"network":"Mastodon","url":"https://social.example/@bench"},{"network":"GitHub","url":"https://github.com/bench"}]}`
	codes := make([]string, n)
	for i := range codes {
		codes[i] = fmt.Sprintf("p%07d", i+1)
		p := &store.Page{Type: "links", Slug: fmt.Sprintf("bench-page-%d", i+1), Title: "Bench page", Language: "en",
			Theme: `{"fgColor":"#0f172a","bgColor":"#ffffff","accentColor":"#2563eb"}`, Content: content}
		if err := st.CreatePage(ctx, ws.ID, p, 1<<30, time.Now()); err != nil {
			return err
		}
		d := &store.DynamicCode{
			UserID: u.ID, Name: "Bench " + codes[i], ShortCode: codes[i], PageID: &p.ID,
			Destination: "https://example.com/p/" + p.Slug, QRType: "url",
			Style: store.Style{
				FgColor: "#000000", BgColor: "#FFFFFF", QRStyle: "squares", DotShape: "square",
				CornerShape: "square", InnerCornerShape: "square", ErrorCorrectionLevel: "M", LogoSize: "medium",
				FrameText: "SCAN ME", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "rounded",
			},
			CreatedAt: time.Now(),
		}
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			return err
		}
	}
	now := time.Now()
	if _, err := st.ClaimLinkChecks(ctx, now, now, n); err != nil {
		return err
	}
	return os.WriteFile(file, []byte(strings.Join(codes, "\n")+"\n"), 0o644)
}

// seedGS1Products creates n GS1 Digital Link products (GTINs
// 0950600000001c…, each with a default link, product information in two
// languages and a recall link for its lot L1) and writes one resolver
// path per product, /01/{gtin}/10/L{1-4}, cycling through four lots, so
// that a quarter of the scans meet a lot's own links.
func seedGS1Products(ctx context.Context, n int, file string) error {
	st, _, ws, err := openBench(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	products := &gs1.Products{Store: st, Now: time.Now, CheckHref: func(string) string { return "" }, Limit: 1 << 30}
	paths := make([]string, n)
	for i := range paths {
		body := fmt.Sprintf("0950600%06d", i+1)
		gtin := body + string(gs1.CheckDigit(body))
		base := "https://brand.example/products/" + gtin
		p := &gs1.Product{GTIN: gtin, Name: "Bench product " + gtin, Links: []gs1.Target{
			{LinkType: "gs1:defaultLink", Href: base, Title: "Product page"},
			{LinkType: "gs1:pip", Href: base + "/en", Title: "Product information", Language: "en"},
			{LinkType: "gs1:pip", Href: base + "/de", Title: "Produktinformation", Language: "de"},
		}, Lots: []gs1.LotLinks{{Lot: "L1", Links: []gs1.Target{
			{LinkType: "gs1:recallStatus", Href: base + "/recall", Title: "Recall notice"},
		}}}}
		if _, err := products.Create(ctx, ws.ID, p); err != nil {
			return err
		}
		paths[i] = fmt.Sprintf("01/%s/10/L%d", gtin, i%4+1)
	}
	return os.WriteFile(file, []byte(strings.Join(paths, "\n")+"\n"), 0o644)
}

// openBench opens the store with the bench user (seeded by `codes`) and
// its personal workspace; the caller closes the store.
func openBench(ctx context.Context) (*store.Store, *store.User, *store.Workspace, error) {
	st, err := open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	u, err := st.UserByUsername(ctx, benchUser)
	if err == nil {
		var ws *store.Workspace
		if ws, err = st.PersonalWorkspace(ctx, u.ID); err == nil {
			return st, u, ws, nil
		}
	}
	st.Close()
	return nil, nil, nil, err
}
