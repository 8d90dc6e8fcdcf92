// Package zones checks the time zone names people give.
package zones

import (
	"errors"
	"strings"
	"time"
)

// Check is the one check of a time zone a person gives (a code
// schedule's, a report schedule's, an analytics tz, a hosted page's): an IANA zone name
// such as Europe/Berlin, Etc/GMT+5 or UTC, loaded. time.LoadLocation also
// takes names that are not zones anyone lives in, and every route refuses
// them: Local and localtime (the server's own zone), Factory (the "-00"
// placeholder), posixrules, the posix/ and right/ copies of the database
// (right/ counts leap seconds, which Go's clock does not), SystemV/, and
// paths (./UTC, Europe//Berlin). A zone's name is ASCII parts joined by /,
// each starting with a capital letter, of letters, digits, _, - and +:
// the database's files that are not zones all start in lower case.
// What is already saved is loaded as it was (scans.LoadZone).
func Check(name string) (*time.Location, error) {
	if len(name) > 64 || name == "Factory" || name == "Local" || strings.HasPrefix(name, "SystemV/") {
		return nil, errNotAZone
	}
	for part := range strings.SplitSeq(name, "/") {
		if part == "" || part[0] < 'A' || part[0] > 'Z' {
			return nil, errNotAZone
		}
		for i := 1; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+') {
				return nil, errNotAZone
			}
		}
	}
	return time.LoadLocation(name)
}

var errNotAZone = errors.New("zones: not an IANA time zone name")
