package geo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/geo/geotest"
)

func TestPlaceOf(t *testing.T) {
	if geo.PlaceOf("8.8.8.8") != (geo.Place{}) || geo.CitiesLoaded() {
		t.Fatal("a place without a database")
	}
	path := geotest.WriteCities(t,
		geotest.City{Network: "81.2.69.0/24", Country: "GB", RegionCode: "ENG", Region: "England", City: "London"},
		geotest.City{Network: "2a02:8070::/32", Country: "DE", RegionCode: "BY", Region: "Bavaria", City: "Munich"},
		geotest.City{Network: "89.160.20.0/24", Country: "SE", City: "Linköping"},
	)
	if err := geo.LoadCities(path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { geo.LoadCities("") })
	for addr, want := range map[string]geo.Place{
		"81.2.69.160":          {"GB", "England", "GB-ENG", "London"},
		"[2a02:8070::1]:443":   {"DE", "Bavaria", "DE-BY", "Munich"},
		"::ffff:89.160.20.112": {"SE", "", "", "Linköping"},
		"8.8.8.8":              {},
		"10.0.0.1":             {},
		"not an address":       {},
	} {
		if got := geo.PlaceOf(addr); got != want {
			t.Errorf("PlaceOf(%q) = %+v, want %+v", addr, got, want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.mmdb")
	os.WriteFile(bad, []byte("not a database"), 0o600)
	if err := geo.LoadCities(bad); err == nil {
		t.Error("a file that is not a database loaded")
	}
	if !geo.CitiesLoaded() || geo.PlaceOf("81.2.69.160").City != "London" {
		t.Error("a failed load dropped the loaded database")
	}
	if geo.LoadCities(""); geo.CitiesLoaded() {
		t.Error("still loaded")
	}
}

// Routing rules on a region or city look the place up in the scan's
// request, so a lookup's cost is part of a smart code's redirect.
func BenchmarkPlaceOf(b *testing.B) {
	path := geotest.WriteCities(b, geotest.City{Network: "81.2.69.0/24", Country: "GB", RegionCode: "ENG", Region: "England", City: "London"})
	if err := geo.LoadCities(path); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { geo.LoadCities("") })
	b.ReportAllocs()
	for b.Loop() {
		if geo.PlaceOf("81.2.69.160:443").City != "London" {
			b.Fatal("no place")
		}
	}
}
