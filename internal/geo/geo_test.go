package geo

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCountry(t *testing.T) {
	for addr, want := range map[string]string{
		// Public resolvers and well-known networks whose country is stable.
		"8.8.8.8":                   "US", // Google
		"8.8.8.8:443":               "US",
		"[2001:4860:4860::8888]:53": "US", // Google, IPv6
		"::ffff:8.8.8.8":            "US", // IPv4-mapped
		"2a00:1450:4001::1":         "DE", // Google Frankfurt
		"81.2.69.142":               "GB",
		"203.0.113.9":               "", // documentation range
		"10.1.2.3":                  "",
		"192.168.0.1":               "",
		"172.16.5.4":                "",
		"127.0.0.1":                 "",
		"::1":                       "",
		"fe80::1%eth0":              "",
		"fd00::1":                   "",
		"0.0.0.0":                   "",
		"":                          "",
		"not-an-address":            "",
		"999.1.1.1":                 "",
		"1.2.3.4\x00":               "",
	} {
		if got := Country(addr); got != want {
			t.Errorf("Country(%q) = %q, want %q", addr, got, want)
		}
	}
}

// The recorder looks a country up for every scan it saves.
func BenchmarkCountry(b *testing.B) {
	Country("2a00:1450:4001::1") // unpacks the IPv6 table once
	addrs := []string{"8.8.8.8:443", "81.2.69.142", "[2a00:1450:4001::1]:80", "10.0.0.1"}
	for i := 0; b.Loop(); i++ {
		Country(addrs[i%len(addrs)])
	}
}

// TestCountries: the list KnownCountry searches is sorted and without
// repeats, and the app offers exactly the same codes
// (web/src/features/dashboard/lib/countries.ts).
func TestCountries(t *testing.T) {
	if !slices.IsSorted(Countries) || len(slices.Compact(slices.Clone(Countries))) != len(Countries) || len(Countries) != 250 {
		t.Fatalf("Countries: %d codes, sorted %v", len(Countries), slices.IsSorted(Countries))
	}
	for code, known := range map[string]bool{"DE": true, "XK": true, "ZW": true, "AD": true, "ZZ": false, "EU": false, "de": false, "": false} {
		if KnownCountry(code) != known {
			t.Errorf("KnownCountry(%q) = %v", code, !known)
		}
	}
	src, err := os.ReadFile("../../web/src/features/dashboard/lib/countries.ts")
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(string(src), "export const countryCodes = [")
	list, _, _ = strings.Cut(list, "]")
	var app []string
	for _, m := range regexp.MustCompile(`'([A-Z]{2})'`).FindAllStringSubmatch(list, -1) {
		app = append(app, m[1])
	}
	if !slices.Equal(app, Countries) {
		t.Errorf("the app's countries differ from the server's: %d against %d", len(app), len(Countries))
	}
}
