// Package sharelinks makes the tokens of share links and lays out what
// their public page and CSV show: the analytics of a code, a tag's or a
// folder's codes or a workspace, read-only, for people without an account.
//
// Nothing on the page may single out one scanner: referrers are cut to
// their host, and every country, region, city or referrer with fewer than
// MinCell scans is counted under "Other" instead.
package sharelinks

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// MinCell is the fewest scans a country, city or referrer is shown with.
const MinCell = 5

// Other is the row the folded cells are counted in.
const Other = "Other"

// tokenBytes of randomness make a token: 43 characters of base64url.
const tokenBytes = 32

// hintLength is how much of a token the list shows.
const hintLength = 6

// NewToken returns a new random token, the hash the store keeps of it
// and the hint the list shows.
func NewToken() (token, hash, hint string) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), token[:hintLength]
}

// HashToken is the stored form of a token: its SHA-256 in hex. The store
// finds a link by it, so a lookup's timing says nothing about the token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ValidToken reports whether s could be a token, before any lookup.
func ValidToken(s string) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

// Grant is the cookie value that lets a browser which gave a protected
// link's password read its page: derived from the token and the
// password's hash, which only the server knows, so it cannot be made
// without the password and ends with the link.
func Grant(token, passwordHash string) string {
	sum := sha256.Sum256([]byte("squarely share grant\x00" + token + "\x00" + passwordHash))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Granted reports whether cookie is the link's Grant, in constant time.
func Granted(cookie, token, passwordHash string) bool {
	return subtle.ConstantTimeCompare([]byte(cookie), []byte(Grant(token, passwordHash))) == 1
}

// ReferrerHost cuts a recorded referrer (an origin or a URL) to its host:
// no path, query or port. What does not parse is "".
func ReferrerHost(ref string) string {
	if !strings.Contains(ref, "://") {
		ref = "https://" + ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Row is one line of a table: a name and its scans.
type Row struct {
	Name  string
	Scans int64
}

// Fold turns counts into rows, most scans first (ties by name), with every
// name under MinCell scans (and the empty name, unknown) counted in a last
// row "Other" together with what is beyond the first max rows.
func Fold(counts map[string]int64, max int) []Row {
	rows := []Row{}
	var other int64
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		n := counts[name]
		if n < MinCell || name == "" || name == Other {
			other += n
			continue
		}
		rows = append(rows, Row{name, n})
	}
	return keep(rows, other, max)
}

// Rows turns counts that need no folding (devices, systems, browsers)
// into rows, most scans first, beyond max counted in "Other".
func Rows(counts map[string]int64, max int) []Row {
	rows := []Row{}
	for name, n := range counts {
		if n > 0 {
			rows = append(rows, Row{name, n})
		}
	}
	return keep(rows, 0, max)
}

func keep(rows []Row, other int64, max int) []Row {
	slices.SortFunc(rows, func(a, b Row) int { return cmp.Or(cmp.Compare(b.Scans, a.Scans), strings.Compare(a.Name, b.Name)) })
	if len(rows) > max {
		for _, r := range rows[max:] {
			other += r.Scans
		}
		rows = rows[:max]
	}
	if other > 0 {
		rows = append(rows, Row{Other, other})
	}
	return rows
}

// Hosts adds up referrers by host; Other (the referrers a report did not
// list) stays Other.
func Hosts(referrers map[string]int64) map[string]int64 {
	hosts := map[string]int64{}
	for ref, n := range referrers {
		if ref != Other {
			ref = ReferrerHost(ref)
		}
		hosts[ref] += n
	}
	return hosts
}
