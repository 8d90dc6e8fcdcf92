// Package geotest writes small MaxMind-format city databases for tests and
// benchmarks, with github.com/maxmind/mmdbwriter, in the GeoIP2 City layout.
package geotest

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// City is one network's place.
type City struct {
	Network            string // CIDR, "81.2.69.0/24"
	Country            string // ISO 3166-1 alpha-2
	RegionCode, Region string // ISO 3166-2 subdivision code without the country ("BY"), English name
	City               string // English name
}

// WriteCities writes a database of cities into a temporary directory and
// returns its path.
func WriteCities(t testing.TB, cities ...City) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cities.mmdb")
	if err := Write(path, cities...); err != nil {
		t.Fatal(err)
	}
	return path
}

// Write writes a database of cities to path (bench-redirect's, too).
func Write(path string, cities ...City) error {
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "GeoIP2-City", RecordSize: 24, Languages: []string{"en"}})
	if err != nil {
		return err
	}
	for _, c := range cities {
		_, network, err := net.ParseCIDR(c.Network)
		if err != nil {
			return err
		}
		rec := mmdbtype.Map{
			"country": mmdbtype.Map{"iso_code": mmdbtype.String(c.Country)},
			"city":    mmdbtype.Map{"names": mmdbtype.Map{"en": mmdbtype.String(c.City)}},
		}
		if c.Region != "" {
			rec["subdivisions"] = mmdbtype.Slice{mmdbtype.Map{
				"iso_code": mmdbtype.String(c.RegionCode), "names": mmdbtype.Map{"en": mmdbtype.String(c.Region)},
			}}
		}
		if err := tree.Insert(network, rec); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := tree.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
