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

// Decision is where a routed scan goes. A nil Location is a page: the
// ended page when Route is store.RouteEnded, else the app links page.
type Decision struct {
	Route    string
	Location []string
}

// Router routes the scans of one code. What a scan reads is packed
// small and together (conds, keys, cumulative split weights), apart from
// what only the chosen route needs (its target): a scan goes through every
// rule of its code, and with rules, lists and strings each in their own
// allocation, a scan of one of 1,000 such codes under load spent more
// time waiting for memory than matching (BENCHMARKS.md).
type Router struct {
	conds              []cond
	keys               []uint32 // the countries and languages conds name, packed (packKey)
	rules              []target // by cond
	splitBelow         []uint8  // cumulative weights: buckets below one (and above the previous) pick its variant
	split              []target
	startsAt, expires  time.Time // zero: open
	afterEnd           []string  // nil: the ended page
	Limited            bool      // a scan limit holds: take each redirect (store.TakeLimitedScan)
	AppStore, AppsPlay []string  // a type apps code's store links
}

// cond is a rule's conditions.
type cond struct {
	zone                 *time.Location // nil: no day or time condition
	countries, languages span           // in Router.keys; empty: any
	os                   uint8          // bit per OSNames index; 0: any
	days                 uint8          // bit per weekday; 0: any
	window               bool
	from, to             uint16 // minutes of the day
}

// span is a range of Router.keys.
type span struct{ start, end uint16 }

// target is where a route sends a scan.
type target struct {
	location []string
	route    string
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
	keys := func(list []string) span {
		sp := span{start: uint16(len(rt.keys))}
		for _, k := range list {
			rt.keys = append(rt.keys, packKey(k))
		}
		sp.end = uint16(len(rt.keys))
		return sp
	}
	for i, ru := range r.Rules {
		c := cond{countries: keys(ru.When.Country), languages: keys(ru.When.Language)}
		for _, o := range ru.When.OS {
			c.os |= 1 << slices.Index(OSNames, o)
		}
		for _, d := range ru.When.Days {
			c.days |= 1 << slices.Index(DayNames, d)
		}
		if ru.When.From != "" && ru.When.To != "" {
			from, _ := Minutes(ru.When.From)
			to, _ := Minutes(ru.When.To)
			c.window, c.from, c.to = true, uint16(from), uint16(to)
		}
		if c.window || c.days != 0 {
			c.zone = zone(ru.When.TimeZone)
		}
		rt.conds = append(rt.conds, c)
		rt.rules = append(rt.rules, target{location: []string{location(ru.Destination)}, route: "rule:" + strconv.Itoa(i)})
	}
	sum := 0
	for i, v := range r.Split {
		sum += v.Weight
		rt.splitBelow = append(rt.splitBelow, uint8(sum))
		rt.split = append(rt.split, target{location: []string{location(v.Destination)}, route: "split:" + strconv.Itoa(i)})
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
// phone or the app links page). The error is reading the split's key.
func (rt *Router) Route(ctx context.Context, v Visit, def []string) (Decision, error) {
	if (!rt.startsAt.IsZero() && v.At.Before(rt.startsAt)) || (!rt.expires.IsZero() && !v.At.Before(rt.expires)) {
		return rt.Ended(), nil
	}
	// What the visitor is, worked out once and only if a rule asks.
	var os uint8
	var country, lang uint32
	var countryKnown, langKnown bool
	for i := range rt.conds {
		c := &rt.conds[i]
		if c.os != 0 {
			if os == 0 {
				os = osBit(v.UserAgent)
			}
			if c.os&os == 0 {
				continue
			}
		}
		if c.countries.end > c.countries.start {
			if !countryKnown {
				country, countryKnown = packKey(geo.Country(v.RemoteAddr)), true
			}
			if !slices.Contains(rt.keys[c.countries.start:c.countries.end], country) {
				continue
			}
		}
		if c.languages.end > c.languages.start {
			if !langKnown {
				lang, langKnown = packKey(Language(v.AcceptLanguage)), true
			}
			if !slices.Contains(rt.keys[c.languages.start:c.languages.end], lang) {
				continue
			}
		}
		if c.zone != nil {
			local := v.At.In(c.zone)
			if c.days != 0 && c.days&(1<<local.Weekday()) == 0 {
				continue
			}
			if c.window {
				h, m, _ := local.Clock()
				if !inWindow(h*60+m, int(c.from), int(c.to)) {
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
		b := StickyBucket(key, v.CodeID, v.RemoteAddr, v.UserAgent)
		for i, below := range rt.splitBelow {
			if b < int(below) {
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

func (t *target) decision() Decision { return Decision{Route: t.route, Location: t.location} }

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
