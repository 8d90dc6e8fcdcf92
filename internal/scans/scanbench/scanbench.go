// Package scanbench holds what the redirect benchmarks share: the routing
// of bench-redirect's smart codes, seeded by bench/seed and timed by
// BenchmarkRoute (internal/scans) and BenchmarkRedirect (internal/server),
// so the three measure the same codes.
package scanbench

import (
	"strconv"

	"github.com/squarely/squarely/internal/geo/geotest"
	"github.com/squarely/squarely/internal/store"
)

// SmartRouting is the routing of the i-th smart bench code (issue 23):
// every rule is tried for the bench's iPhone (English, from Place's
// addresses, or with no country) and none matches, so each scan checks 12
// rules (OS, country, language, region, city, days and a time window in a
// time zone; the region and city in the city database, where one is
// loaded) and then picks a split variant by its visitor hash.
func SmartRouting(i int) *store.Routing {
	dest := func(what string) string { return "https://example.com/" + what + "/" + strconv.Itoa(i) }
	rule := func(w store.RuleWhen, what string) store.RoutingRule {
		return store.RoutingRule{When: w, Destination: dest(what)}
	}
	return &store.Routing{
		Rules: []store.RoutingRule{
			rule(store.RuleWhen{OS: []string{"android"}}, "android"),
			rule(store.RuleWhen{OS: []string{"windows", "macos", "linux"}}, "desktop"),
			rule(store.RuleWhen{OS: []string{"ios"}, Country: []string{"DE", "AT", "CH"}}, "ios-dach"),
			rule(store.RuleWhen{OS: []string{"ios"}, Language: []string{"fr"}}, "ios-fr"),
			rule(store.RuleWhen{Country: []string{"US", "CA"}}, "na"),
			rule(store.RuleWhen{Country: []string{"FR", "BE", "LU"}}, "fr"),
			rule(store.RuleWhen{Language: []string{"de", "nl"}}, "de"),
			rule(store.RuleWhen{Language: []string{"es", "pt", "it"}}, "south"),
			rule(store.RuleWhen{Region: []string{"Bavaria", "DE-BE"}}, "bavaria-berlin"),
			rule(store.RuleWhen{City: []string{"Vienna", "Graz", "Linz"}}, "austria"),
			rule(store.RuleWhen{Days: []string{"sun"}, From: "23:58", To: "23:59", TimeZone: "Europe/Berlin"}, "late"),
			rule(store.RuleWhen{OS: []string{"other"}, From: "00:00", To: "00:01", TimeZone: "America/New_York"}, "midnight"),
		},
		Split: []store.SplitVariant{{Destination: dest("a"), Weight: 50}, {Destination: dest("b"), Weight: 30}, {Destination: dest("c"), Weight: 20}},
	}
}

// Place is where the city database the benchmarks load puts the bench's
// scans: 1.1.1.0/24, which the country database also places in Australia,
// so no rule of SmartRouting matches it. Scans from there (X-Forwarded-For
// in bench-redirect, RemoteAddr in the Go benchmarks) make every scan of a
// smart code look its place up.
var Place = geotest.City{Network: "1.1.1.0/24", Country: "AU", RegionCode: "NSW", Region: "New South Wales", City: "Sydney"}
