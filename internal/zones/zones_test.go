package zones

import (
	"strings"
	"testing"
)

// Check takes the zones people live in (and UTC, Etc/ and the
// database's links) and refuses the other names time.LoadLocation loads.
func TestCheck(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "America/Argentina/Buenos_Aires", "America/Port-au-Prince", "Etc/GMT+5",
		"Etc/GMT-14", "UTC", "GMT0", "US/Eastern", "EST5EDT", "Asia/Calcutta"} {
		if z, err := Check(name); err != nil || z.String() != name {
			t.Errorf("%s: %v %v", name, z, err)
		}
	}
	for _, name := range []string{"", "Local", "localtime", "Factory", "posixrules", "posix/Europe/Berlin", "right/Europe/Berlin",
		"SystemV/EST5", "./UTC", "Europe//Berlin", "Europe/Berlin/", "/etc/localtime", "../zoneinfo/UTC", "europe/berlin",
		"zone.tab", "tzdata.zi", "+VERSION", "Europe/Berlin\x00", "Mars/Olympus", "Europe/" + strings.Repeat("A", 60)} {
		if z, err := Check(name); err == nil {
			t.Errorf("%q accepted: %v", name, z)
		}
	}
}
