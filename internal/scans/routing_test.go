package scans

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/geo/geotest"
	"github.com/squarely/squarely/internal/scans/scanbench"
	"github.com/squarely/squarely/internal/store"
)

func TestLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"":                                "",
		"de":                              "de",
		"de-DE,de;q=0.9,en;q=0.8":         "de",
		"en;q=0.5, FR-ca;q=0.9, de;q=0.9": "fr", // the first of equals
		"*;q=1, pt-BR;q=0.1":              "pt",
		"es;q=0, it;q=0.2":                "it", // q=0: not acceptable
		"en;q=abc, nl":                    "nl",
	} {
		if got := Language(header); got != want {
			t.Errorf("Language(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestMinutesAndWindows(t *testing.T) {
	for s, want := range map[string]int{"00:00": 0, "09:30": 570, "23:59": 1439} {
		if m, ok := Minutes(s); !ok || m != want {
			t.Errorf("Minutes(%q) = %d, %v", s, m, ok)
		}
	}
	for _, s := range []string{"24:00", "9:30", "09:60", "09-30", "+9:30", "09:+3", ""} {
		if _, ok := Minutes(s); ok {
			t.Errorf("Minutes(%q) accepted", s)
		}
	}
	for _, tc := range []struct {
		m, from, to int
		in          bool
	}{
		{600, 540, 1020, true}, {1020, 540, 1020, false}, {539, 540, 1020, false},
		{1380, 1320, 120, true}, {60, 1320, 120, true}, {120, 1320, 120, false}, {600, 1320, 120, false},
	} {
		if got := inWindow(tc.m, tc.from, tc.to); got != tc.in {
			t.Errorf("inWindow(%d, %d, %d) = %v", tc.m, tc.from, tc.to, got)
		}
	}
	if _, err := LoadZone("Local"); err == nil {
		t.Error("Local accepted as a time zone")
	}
	if z, err := LoadZone("Europe/Berlin"); err != nil || z.String() != "Europe/Berlin" {
		t.Errorf("Europe/Berlin: %v %v", z, err)
	}
}

func TestOSName(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1": "ios",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36":                   "android",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36":                         "windows",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15":                      "macos",
		"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0":                                                                  "linux",
		"curl/8.5.0": "other",
		"":           "other",
	} {
		if got := OSName(ParseUserAgent(ua).OS); got != want {
			t.Errorf("%q: %s, want %s", ua, got, want)
		}
	}
}

// TestRouterNoRoutingNoRouter: plain codes keep today's path.
func TestRouterNoRoutingNoRouter(t *testing.T) {
	if NewRouter("", "") != nil || NewRouter("", `{"appStoreUrl":"https://apps.apple.com/x"}`) != nil {
		t.Fatal("a router for a code that needs none")
	}
	rt := NewRouter(`{"scanLimit":3}`, "")
	d, err := rt.Route(context.Background(), Visit{At: time.Now()}, []string{"https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	if !rt.Limited || d.Route != store.RouteDefault || d.Location[0] != "https://example.com/" {
		t.Fatalf("limited code: %+v %+v", rt, d)
	}
}

func TestStickyBucketSpread(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	var buckets [100]int
	for i := range 10000 {
		b := StickyBucket(key, 7, "198.51.100."+string(rune('0'+i%10))+":1", "ua"+string(rune(i)))
		if b < 0 || b > 99 {
			t.Fatalf("bucket %d", b)
		}
		buckets[b]++
	}
	for b, n := range buckets {
		if n < 50 || n > 160 {
			t.Errorf("bucket %d holds %d of 10000 visitors", b, n)
		}
	}
	if StickyBucket(key, 7, "198.51.100.1:1", "x") != StickyBucket(key, 7, "198.51.100.1:2", "x") {
		t.Error("the port moved a visitor")
	}
}

// A rule listing one language 70,000 times (more than a count's 16 bits)
// still routes as a rule listing it once, and the rules after it too.
func TestRouterRepeatedValues(t *testing.T) {
	many := make([]string, 70000)
	for i := range many {
		many[i] = "fr"
	}
	rt := NewRouter(routingText(t, &store.Routing{Rules: []store.RoutingRule{
		{When: store.RuleWhen{Language: append(many, "nl")}, Destination: "https://example.com/fr"},
		{When: store.RuleWhen{OS: []string{"ios"}}, Destination: "https://example.com/ios"},
	}}), "")
	ua := "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	for lang, want := range map[string]string{"fr-FR": "rule:0", "nl": "rule:0", "de": "rule:1"} {
		d, err := rt.Route(context.Background(), Visit{UserAgent: ua, AcceptLanguage: lang, At: time.Now()}, nil)
		if err != nil || d.Route != want {
			t.Errorf("%s: %s %v, want %s", lang, d.Route, err, want)
		}
	}
}

// BenchmarkRoute is the routing work of a scan of a code with 12 rules an
// iPhone meets none of and a 3-way split: what bench-redirect's smart
// codes add to a plain code's scan, the place looked up in a city
// database. The scans go round 1,000 such codes, as bench-redirect's do,
// so what a router takes in memory counts.
func BenchmarkRoute(b *testing.B) {
	if err := geo.LoadCities(geotest.WriteCities(b, scanbench.Place)); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { geo.LoadCities("") })
	routers := make([]*Router, 1000)
	for i := range routers {
		routers[i] = NewRouter(routingText(b, scanbench.SmartRouting(i)), "")
	}
	ctx, sticky := context.Background(), NewStickyKey(&memSink{})
	ua := "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	at := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	def := []string{"https://example.com/"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i = (i + 389) % len(routers) // a stride that visits every router
		d, err := routers[i].Route(ctx, Visit{UserAgent: ua, AcceptLanguage: "en-GB,en;q=0.9", RemoteAddr: "1.1.1.7:40000", At: at,
			CodeID: 7, Sticky: sticky}, def)
		if err != nil || d.Route[0] != 's' {
			b.Fatal(d.Route, err)
		}
	}
}

// routingText is r as the store keeps it.
func routingText(t testing.TB, r *store.Routing) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
