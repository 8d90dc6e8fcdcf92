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
	// CodeID and Sticky give the visitor's sticky split bucket
	// (StickyBucket); the key is read only when the split decides.
	CodeID int64
	Sticky *StickyKey
}

// Decision is where a routed scan goes. A PageID is a hosted page of the
// code's workspace, answered as itself. Otherwise a nil Location is a
// page: the ended page when Route is store.RouteEnded, else the app links
// page.
type Decision struct {
	Route    string
	Location []string
	PageID   int64
}

// Router routes the scans of one code. What every scan reads (the rules'
// conditions, the countries and languages they name, the split's weights)
// is one slice of words, prog, apart from what only the chosen route needs
// (its target): a scan goes through every rule of its code, and with
// rules, lists and weights each in their own allocation, a scan of one of
// 1,000 such codes under load spent more time waiting for memory than
// matching (BENCHMARKS.md).
type Router struct {
	scheduled          bool // startsAt or expires is set
	prog               []uint32
	zones              []*time.Location // by the zone index of prog's rules
	rules              []target         // by rule
	places             []placeRule      // by rule, for the rules flagged in prog as having a region or city
	split              []target
	startsAt, expires  time.Time // zero: open
	afterEnd           []string  // nil: the ended page
	Limited            bool      // a scan limit holds: take each redirect (store.TakeLimitedScan)
	AppStore, AppsPlay []string  // a type apps code's store links
	key                string    // what the cache compiled it from (routingKey)
}

// A rule in prog is three words, then its countries, then its languages
// (packKey); after the rules come the split's cumulative weights (a bucket
// below one, and not below the one before, picks its variant).
//
//	word 0: OS bits (a bit per OSNames index; none: any) | weekday bits << 8 (none: any) | countries << 16
//	word 1: languages | zone index + 1 << 16 (0: no day or time condition) | 1 << 24 when it has a window
//	        | 1 << 25 when it names regions or cities (places)
//	word 2: the window's from | to << 16, in minutes of the day
const ruleWords = 3

// target is where a route sends a scan: location, or hosted page pageID.
type target struct {
	location []string
	route    string
	pageID   int64
}

// newTarget is the target of a rule's or split variant's destination or page.
func newTarget(destination string, pageID *int64, route string) target {
	if pageID != nil {
		return target{route: route, pageID: *pageID}
	}
	return target{location: []string{location(destination)}, route: route}
}

// placeRule is a rule's regions and cities; an empty list is not checked.
type placeRule struct{ regions, cities []string }

// matches reports whether p is in the rule's regions (by name or code) and
// cities, ignoring case (EqualFold: no lower-cased copy per scan).
func (pr *placeRule) matches(p geo.Place) bool {
	return (len(pr.regions) == 0 || holds(pr.regions, p.Region) || p.RegionCode != "" && holds(pr.regions, p.RegionCode)) &&
		(len(pr.cities) == 0 || holds(pr.cities, p.City))
}

// holds reports whether list names s, ignoring case.
func holds(list []string, s string) bool {
	return slices.ContainsFunc(list, func(item string) bool { return strings.EqualFold(item, s) })
}

// packKey packs a country code or primary language subtag (at most three
// ASCII letters, as validation keeps them) into a number, so a scan
// compares numbers held next to each other; "" packs to 0 and anything
// longer to a value no code packs to.
func packKey(s string) uint32 {
	if len(s) > 3 {
		return 1 << 31
	}
	var k uint32
	for i := 0; i < len(s); i++ {
		k = k<<8 | uint32(s[i])
	}
	return k
}

// packKeys packs a rule's list once per value: a list repeating a value
// thousands of times (validation checks each value, not how often it
// comes) must neither slow a scan nor overflow its count's 16 bits.
func packKeys(list []string) []uint32 {
	keys := make([]uint32, len(list))
	for i, k := range list {
		keys[i] = packKey(k)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
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
		var os, days, window, zoneIndex uint32
		for _, o := range ru.When.OS {
			os |= 1 << slices.Index(OSNames, o)
		}
		for _, d := range ru.When.Days {
			days |= 1 << slices.Index(DayNames, d)
		}
		var from, to int
		if ru.When.From != "" && ru.When.To != "" {
			from, _ = Minutes(ru.When.From)
			to, _ = Minutes(ru.When.To)
			window = 1
		}
		if window == 1 || days != 0 {
			rt.zones = append(rt.zones, zone(ru.When.TimeZone))
			zoneIndex = uint32(len(rt.zones))
		}
		countries, languages := packKeys(ru.When.Country), packKeys(ru.When.Language)
		var places uint32
		if len(ru.When.Region)+len(ru.When.City) > 0 {
			places = 1
			rt.places = append(rt.places, make([]placeRule, i+1-len(rt.places))...)
			rt.places[i] = placeRule{ru.When.Region, ru.When.City}
		}
		rt.prog = append(rt.prog, os|days<<8|uint32(len(countries))<<16,
			uint32(len(languages))|zoneIndex<<16|window<<24|places<<25, uint32(from)|uint32(to)<<16)
		rt.prog = append(append(rt.prog, countries...), languages...)
		rt.rules = append(rt.rules, newTarget(ru.Destination, ru.PageID, "rule:"+strconv.Itoa(i)))
	}
	sum := 0
	for i, v := range r.Split {
		sum += v.Weight
		rt.prog = append(rt.prog, uint32(sum))
		rt.split = append(rt.split, newTarget(v.Destination, v.PageID, "split:"+strconv.Itoa(i)))
	}
	if r.StartsAt != nil {
		rt.startsAt, rt.scheduled = *r.StartsAt, true
	}
	if r.ExpiresAt != nil {
		rt.expires, rt.scheduled = *r.ExpiresAt, true
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
// phone or the app links page). The error is reading the split's key.
func (rt *Router) Route(ctx context.Context, v Visit, def []string) (Decision, error) {
	if rt.scheduled && ((!rt.startsAt.IsZero() && v.At.Before(rt.startsAt)) || (!rt.expires.IsZero() && !v.At.Before(rt.expires))) {
		return rt.Ended(), nil
	}
	// What the visitor is, worked out once and only if a rule asks.
	var os uint32
	var country, lang uint32
	var countryKnown, langKnown, placeKnown bool
	var place geo.Place
	p := rt.prog
	for i := range rt.rules {
		w0, w1, w2 := p[0], p[1], p[2]
		countries, languages := int(w0>>16), int(w1&0xffff)
		keys := p[ruleWords : ruleWords+countries+languages]
		p = p[ruleWords+countries+languages:]
		if want := w0 & 0xff; want != 0 {
			if os == 0 {
				os = uint32(osBit(v.UserAgent))
			}
			if want&os == 0 {
				continue
			}
		}
		if countries > 0 {
			if !countryKnown {
				country, countryKnown = packKey(geo.Country(v.RemoteAddr)), true
			}
			if !slices.Contains(keys[:countries], country) {
				continue
			}
		}
		if languages > 0 {
			if !langKnown {
				lang, langKnown = packKey(Language(v.AcceptLanguage)), true
			}
			if !slices.Contains(keys[countries:], lang) {
				continue
			}
		}
		if w1>>25&1 == 1 {
			if !placeKnown {
				place, placeKnown = geo.PlaceOf(v.RemoteAddr), true
			}
			if !rt.places[i].matches(place) {
				continue
			}
		}
		if z := w1 >> 16 & 0xff; z != 0 {
			local := v.At.In(rt.zones[z-1])
			if days := w0 >> 8 & 0xff; days != 0 && days&(1<<local.Weekday()) == 0 {
				continue
			}
			if w1>>24&1 == 1 {
				h, m, _ := local.Clock()
				if !inWindow(h*60+m, int(w2&0xffff), int(w2>>16)) {
					continue
				}
			}
		}
		return rt.rules[i].decision(), nil
	}
	if len(rt.split) > 0 {
		key, err := v.Sticky.Get(ctx)
		if err != nil {
			return Decision{}, err
		}
		b := uint32(StickyBucket(key, v.CodeID, v.RemoteAddr, v.UserAgent))
		for i, below := range p {
			if b < below {
				return rt.split[i].decision(), nil
			}
		}
	}
	if rt.AppStore != nil {
		switch osBit(v.UserAgent) {
		case 1 << 0:
			return Decision{Route: store.RouteDefault, Location: rt.AppStore}, nil
		case 1 << 1:
			return Decision{Route: store.RouteDefault, Location: rt.AppsPlay}, nil
		}
		return Decision{Route: store.RouteDefault}, nil
	}
	return Decision{Route: store.RouteDefault, Location: def}, nil
}

func (t *target) decision() Decision {
	return Decision{Route: t.route, Location: t.location, PageID: t.pageID}
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
// and a code's scanners send few distinct ones. A sync.Map, whose reads of
// known keys take no lock: every routed scan reads it, on every core.
// Cleared when full.
var (
	osMemo   sync.Map // user agent → uint8
	osMemoed atomic.Int64
)

// osBit is the OSNames bit of a user agent's operating system, memoised
// under the header's first maxUserAgent bytes (what ParseUserAgent reads),
// so a megabyte header is neither kept nor parsed.
func osBit(ua string) uint8 {
	ua = text(ua, maxUserAgent)
	if b, ok := osMemo.Load(ua); ok {
		return b.(uint8)
	}
	b := uint8(1 << slices.Index(OSNames, OSName(ParseUserAgent(ua).OS)))
	if osMemoed.Add(1) > maxClients {
		osMemo.Clear()
		osMemoed.Store(1)
	}
	osMemo.Store(ua, b)
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
