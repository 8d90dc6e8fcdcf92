package scans

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	_ "time/tzdata" // rules name IANA zones: the binary carries them

	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/store"
)

// Smart routing (issue 23). A code with a routing object, or of type apps
// with both store links, gets a Router when its cache entry is loaded:
// everything a scan is matched against is parsed then, so a scan reads
// nothing but its own headers (and, for a code with a scan limit, takes
// its scan with one conditional UPDATE in the server).

// OSNames are the operating systems a rule may name; "other" is any other.
var OSNames = []string{"ios", "android", "windows", "macos", "linux", "other"}

// DayNames are the weekdays a rule may name, in time.Weekday order.
var DayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// Visit is what a scan tells about its visitor.
type Visit struct {
	UserAgent      string
	AcceptLanguage string
	RemoteAddr     string // the client's address, behind a trusted proxy the forwarded one
	At             time.Time
	// Bucket returns the visitor's sticky bucket, 0–99; asked only when
	// the split decides.
	Bucket func() int
}

// Decision is where a routed scan goes. A nil Location is a page: the
// ended page when Route is store.RouteEnded, else the app links page.
type Decision struct {
	Route    string
	Location []string
}

// Router routes the scans of one code.
type Router struct {
	rules              []rule
	split              []variant
	startsAt, expires  time.Time // zero: open
	afterEnd           []string  // nil: the ended page
	Limited            bool      // a scan limit holds: take each redirect (store.TakeLimitedScan)
	AppStore, AppsPlay []string  // a type apps code's store links
}

type rule struct {
	os        uint8 // bit per OSNames index; 0: any
	countries []string
	languages []string
	days      uint8 // bit per weekday; 0: any
	window    bool
	from, to  int // minutes of the day
	zone      *time.Location
	location  []string
	route     string
}

type variant struct {
	below    int // cumulative weight: the buckets below it (and above the previous) pick it
	location []string
	route    string
}

// NewRouter compiles a routing as stored (store.Redirect.Routing, "" for
// none) and, for a code of type apps, its type fields; nil when the code
// needs no routing. A routing that does not parse (the server validates
// what it saves) routes nothing.
func NewRouter(routing, appData string) *Router {
	r, _ := store.ParseRouting(routing)
	rt := &Router{}
	if appData != "" {
		var links struct {
			AppStore string `json:"appStoreUrl"`
			Play     string `json:"playStoreUrl"`
		}
		if json.Unmarshal([]byte(appData), &links) == nil && links.AppStore != "" && links.Play != "" {
			rt.AppStore, rt.AppsPlay = []string{location(links.AppStore)}, []string{location(links.Play)}
		}
	}
	if r == nil {
		if rt.AppStore == nil {
			return nil
		}
		return rt
	}
	for i, ru := range r.Rules {
		c := rule{
			countries: ru.When.Country, languages: ru.When.Language,
			location: []string{location(ru.Destination)}, route: "rule:" + strconv.Itoa(i),
		}
		for _, o := range ru.When.OS {
			c.os |= 1 << slices.Index(OSNames, o)
		}
		for _, d := range ru.When.Days {
			c.days |= 1 << slices.Index(DayNames, d)
		}
		if ru.When.From != "" && ru.When.To != "" {
			c.window = true
			c.from, _ = Minutes(ru.When.From)
			c.to, _ = Minutes(ru.When.To)
		}
		if c.window || c.days != 0 {
			c.zone = zone(ru.When.TimeZone)
		}
		rt.rules = append(rt.rules, c)
	}
	sum := 0
	for i, v := range r.Split {
		sum += v.Weight
		rt.split = append(rt.split, variant{below: sum, location: []string{location(v.Destination)}, route: "split:" + strconv.Itoa(i)})
	}
	if r.StartsAt != nil {
		rt.startsAt = *r.StartsAt
	}
	if r.ExpiresAt != nil {
		rt.expires = *r.ExpiresAt
	}
	if r.AfterEnd != nil && *r.AfterEnd != "" {
		rt.afterEnd = []string{location(*r.AfterEnd)}
	}
	rt.Limited = r.ScanLimit != nil
	return rt
}

// Route decides where v goes, the scan limit aside: outside the schedule
// it has ended; else the first matching rule, the split, or def (the
// code's destination; for a type apps code, the store of the visitor's
// phone or the app links page).
func (rt *Router) Route(v Visit, def []string) Decision {
	if (!rt.startsAt.IsZero() && v.At.Before(rt.startsAt)) || (!rt.expires.IsZero() && !v.At.Before(rt.expires)) {
		return rt.Ended()
	}
	// What the visitor is, worked out once and only if a rule asks.
	var os uint8
	var country, lang string
	var countryKnown, langKnown bool
	for i := range rt.rules {
		c := &rt.rules[i]
		if c.os != 0 {
			if os == 0 {
				os = osBit(v.UserAgent)
			}
			if c.os&os == 0 {
				continue
			}
		}
		if len(c.countries) > 0 {
			if !countryKnown {
				country, countryKnown = geo.Country(v.RemoteAddr), true
			}
			if !slices.Contains(c.countries, country) {
				continue
			}
		}
		if len(c.languages) > 0 {
			if !langKnown {
				lang, langKnown = Language(v.AcceptLanguage), true
			}
			if !slices.Contains(c.languages, lang) {
				continue
			}
		}
		if c.zone != nil {
			local := v.At.In(c.zone)
			if c.days != 0 && c.days&(1<<local.Weekday()) == 0 {
				continue
			}
			if c.window && !inWindow(local.Hour()*60+local.Minute(), c.from, c.to) {
				continue
			}
		}
		return Decision{Route: c.route, Location: c.location}
	}
	if len(rt.split) > 0 {
		b := v.Bucket()
		for _, s := range rt.split {
			if b < s.below {
				return Decision{Route: s.route, Location: s.location}
			}
		}
	}
	if rt.AppStore != nil {
		switch osBit(v.UserAgent) {
		case 1 << 0:
			return Decision{Route: store.RouteDefault, Location: rt.AppStore}
		case 1 << 1:
			return Decision{Route: store.RouteDefault, Location: rt.AppsPlay}
		}
		return Decision{Route: store.RouteDefault}
	}
	return Decision{Route: store.RouteDefault, Location: def}
}

// Ended is where a scan goes once the code's schedule or limit is over.
func (rt *Router) Ended() Decision {
	return Decision{Route: store.RouteEnded, Location: rt.afterEnd}
}

// inWindow reports whether minute m of the day is in [from, to); a window
// whose to is before its from spans midnight.
func inWindow(m, from, to int) bool {
	if from <= to {
		return m >= from && m < to
	}
	return m >= from || m < to
}

// Minutes parses "HH:MM" (24-hour) into minutes of the day.
func Minutes(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[:2])
	m, err2 := strconv.Atoi(s[3:])
	if err1 != nil || err2 != nil || s[0] == '+' || s[3] == '+' || h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// zones memoises loaded time zones: loading reads the zone database.
var zones sync.Map // name → *time.Location

// zone is the named IANA time zone, UTC for "" (or an unknown name, which
// validation refuses before it is saved).
func zone(name string) *time.Location {
	if z, ok := zones.Load(name); ok {
		return z.(*time.Location)
	}
	z, err := LoadZone(name)
	if err != nil {
		z = time.UTC
	}
	zones.Store(name, z)
	return z
}

// LoadZone loads an IANA time zone by name; "" is UTC. "Local" is refused:
// it names the server's zone, not one the owner chose.
func LoadZone(name string) (*time.Location, error) {
	if name == "Local" {
		return nil, errLocalZone
	}
	return time.LoadLocation(name)
}

var errLocalZone = errors.New("scans: Local is not a time zone name")

// osMemo maps user agents to their OS bit: parsing one costs microseconds,
// and a code's scanners send few distinct ones. Cleared when full.
var osMemo struct {
	sync.RWMutex
	m map[string]uint8
}

// osBit is the OSNames bit of a user agent's operating system.
func osBit(ua string) uint8 {
	osMemo.RLock()
	b, ok := osMemo.m[ua]
	osMemo.RUnlock()
	if ok {
		return b
	}
	b = 1 << slices.Index(OSNames, OSName(ParseUserAgent(ua).OS))
	osMemo.Lock()
	if osMemo.m == nil || len(osMemo.m) >= maxClients {
		osMemo.m = map[string]uint8{}
	}
	osMemo.m[ua] = b
	osMemo.Unlock()
	return b
}

// OSName is the routing name (OSNames) of the parser's operating system.
func OSName(parsed string) string {
	switch parsed {
	case "iOS":
		return "ios"
	case "Android":
		return "android"
	case "Windows", "Windows NT":
		return "windows"
	case "macOS":
		return "macos"
	case "Linux":
		return "linux"
	}
	return "other"
}

// Language is the lower-case primary subtag of the Accept-Language entry
// with the highest q (the first among equals), "" when there is none.
func Language(header string) string {
	best, bestQ := "", -1.0
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(part, ";")
		tag = strings.TrimSpace(tag)
		if tag == "" || tag == "*" {
			continue
		}
		q := 1.0
		if p := strings.TrimSpace(params); strings.HasPrefix(p, "q=") {
			v, err := strconv.ParseFloat(p[2:], 64)
			if err != nil {
				continue
			}
			q = v
		}
		if q <= 0 {
			continue // q=0: not acceptable
		}
		if q > bestQ {
			primary, _, _ := strings.Cut(tag, "-")
			best, bestQ = strings.ToLower(primary), q
		}
	}
	return best
}

// StickyKey is the salt of split buckets, derived from the stored key the
// visitor hashes come from (every instance derives the same one). It does
// not turn over daily like theirs: a visitor keeps their variant.
type StickyKey struct {
	sink Sink
	mu   sync.Mutex // held while reading it
	key  atomic.Pointer[[]byte]
}

// NewStickyKey returns a key read from sink on first use.
func NewStickyKey(sink Sink) *StickyKey { return &StickyKey{sink: sink} }

// Get returns the key, reading it once (a failed read is tried again on
// the next call).
func (k *StickyKey) Get(ctx context.Context) ([]byte, error) {
	if p := k.key.Load(); p != nil {
		return *p, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if p := k.key.Load(); p != nil {
		return *p, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh)
	key, err := k.sink.Secret(ctx, secretName, fresh)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("split"))
	derived := m.Sum(nil)
	k.key.Store(&derived)
	return derived, nil
}

// StickyBucket is a visitor's split bucket of code id, 0–99: their visitor
// hash under the sticky key and the code, so each code splits on its own.
func StickyBucket(key []byte, codeID int64, addr, userAgent string) int {
	sum := visitorSum(key, codeID, host(addr), userAgent)
	return int(binary.BigEndian.Uint64(sum[:8]) % 100)
}
