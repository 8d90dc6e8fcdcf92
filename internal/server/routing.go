package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/geo"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/zones"
)

// Smart routing of dynamic codes (issue 23, docs/API.md "Smart routing"):
// the owner sets a routing object; each scan is then routed by it from the
// redirect cache (scans.Router), and the scan event records the route.

const (
	maxRoutingRules = 20
	maxSplit        = 10
)

var endedNotice = notice{Title: "QR code no longer active", Heading: "This QR code is no longer active",
	Text: "Its campaign has ended. Thank you for scanning."}

var appLinksNotice = notice{Title: "Get the app", Heading: "Get the app", Text: "Choose your store:"}

// setRouting (PUT /api/dynamic-qrcodes/{id}/routing, and the public API's
// PUT /api/v1/codes/{id}/routing) replaces a code's routing object; null
// removes it. Bad input is 400 with errors by field path, another user's
// code 404, and either changes nothing.
func (s *server) setRouting(w http.ResponseWriter, r *http.Request) {
	if d, ok, err := s.saveRouting(w, r); ok {
		s.answerDynamic(w, d, err)
	}
}

// saveRouting reads and saves the routing of the code named by {id},
// answering the store's outcome; when the input is refused it has
// answered and ok is false.
func (s *server) saveRouting(w http.ResponseWriter, r *http.Request) (d *store.DynamicCode, ok bool, err error) {
	id, ok := pathID(w, r)
	if !ok {
		return nil, false, nil
	}
	var in any
	if !decodeJSON(w, r, &in) {
		return nil, false, nil
	}
	var v validation
	routing := checkRouting(&v, in)
	if err := s.checkRoutingPages(r.Context(), &v, wsID(r), routing); err != nil {
		s.internalError(w, "checking a routing's pages", err)
		return nil, false, nil
	}
	if v.failed(w) {
		return nil, false, nil
	}
	d, err = s.store.SetDynamicRouting(r.Context(), wsID(r), id, routing, s.now())
	return d, true, err
}

// routingJSON is a code's routing as the API shows it, null when unset.
func routingJSON(rt *store.Routing) *store.Routing {
	if rt == nil {
		return nil
	}
	out := *rt
	if out.Rules == nil {
		out.Rules = []store.RoutingRule{}
	}
	if out.Split == nil {
		out.Split = []store.SplitVariant{}
	}
	return &out
}

// checkRouting reads a routing object from decoded JSON, adding what is
// wrong to v by field path; nil for null.
func checkRouting(v *validation, in any) *store.Routing {
	if in == nil {
		return nil
	}
	obj, ok := in.(map[string]any)
	if !ok {
		v.add("routing", "Routing must be an object or null")
		return nil
	}
	rt := &store.Routing{}
	for _, key := range fields(obj) {
		val := obj[key]
		switch key {
		case "rules":
			list, ok := val.([]any)
			if val != nil && !ok {
				v.add("rules", "Must be a list")
			}
			if len(list) > maxRoutingRules {
				v.add("rules", fmt.Sprintf("At most %d rules", maxRoutingRules))
			}
			for i, item := range list {
				rt.Rules = append(rt.Rules, checkRule(v, "rules."+strconv.Itoa(i), fmt.Sprintf("Rule %d", i+1), item))
			}
		case "split":
			rt.Split = checkSplit(v, val)
		case "startsAt":
			rt.StartsAt = checkTime(v, key, "The start", val)
		case "expiresAt":
			rt.ExpiresAt = checkTime(v, key, "The end", val)
		case "scanLimit":
			if val == nil {
				break
			}
			n, ok := val.(float64)
			if !ok || n != float64(int64(n)) || n < 1 || n > 1e12 {
				v.add(key, "The scan limit must be a whole number of at least 1")
				break
			}
			limit := int64(n)
			rt.ScanLimit = &limit
		case "afterEnd":
			if val == nil {
				break
			}
			dest := checkRoutedLink(v, key, "The address after the end", val)
			rt.AfterEnd = &dest
		default:
			v.add(key, "Unknown field")
		}
	}
	if rt.StartsAt != nil && rt.ExpiresAt != nil && !rt.StartsAt.Before(*rt.ExpiresAt) {
		v.add("expiresAt", msgEndBeforeStart)
	}
	return rt
}

// checkRule reads the rule at path, which the person knows as name
// ("Rule 1"): each refusal starts with it, so it reads on its own.
func checkRule(v *validation, path, name string, in any) store.RoutingRule {
	var ru store.RoutingRule
	obj, ok := in.(map[string]any)
	if !ok {
		v.add(path, name+" must be an object")
		return ru
	}
	for _, key := range fields(obj) {
		val := obj[key]
		switch key {
		case "when":
			ru.When = checkWhen(v, path+".when", name, val)
		case "destination":
			ru.Destination = checkRoutedLink(v, path+".destination", name+": destination", val)
		case "pageId":
			ru.PageID = checkRoutedPage(v, path+".pageId", name, val)
		default:
			v.add(path+"."+key, name+": unknown field")
		}
	}
	checkOneTarget(v, path, name, obj)
	return ru
}

// checkOneTarget checks that a rule or split variant names one target:
// a destination or a page (pageId).
func checkOneTarget(v *validation, path, name string, obj map[string]any) {
	_, dest := obj["destination"]
	_, page := obj["pageId"]
	switch {
	case dest && page:
		v.add(path+".pageId", name+": give a destination or a page, not both")
	case !dest && !page:
		v.add(path+".destination", name+": destination is required")
	}
}

// checkRoutedPage reads a rule's or variant's pageId: a page's id, which
// checkRoutingPages then finds in the workspace.
func checkRoutedPage(v *validation, path, name string, in any) *int64 {
	n, ok := in.(float64)
	if !ok || n != float64(int64(n)) || n < 1 || n > 1<<53 {
		v.add(path, name+": pageId must be a page's id")
		return nil
	}
	id := int64(n)
	return &id
}

// checkRoutingPages checks that every page rt answers with is one of
// workspace ws's, adding each that is not to v by field path (the
// error is the store's).
func (s *server) checkRoutingPages(ctx context.Context, v *validation, ws int64, rt *store.Routing) error {
	if rt == nil {
		return nil
	}
	check := func(path, name string, id *int64) error {
		if id == nil {
			return nil
		}
		_, err := s.store.Page(ctx, ws, *id)
		if errors.Is(err, store.ErrNotFound) {
			v.add(path, name+": no page with this id in this workspace")
			return nil
		}
		return err
	}
	for i, ru := range rt.Rules {
		if err := check("rules."+strconv.Itoa(i)+".pageId", fmt.Sprintf("Rule %d", i+1), ru.PageID); err != nil {
			return err
		}
	}
	for i, sv := range rt.Split {
		if err := check("split."+strconv.Itoa(i)+".pageId", fmt.Sprintf("Variant %c", 'A'+i), sv.PageID); err != nil {
			return err
		}
	}
	return nil
}

// checkRoutedLink is codes.CheckLink for a destination of the routing,
// refused in words that name it (subject): "Rule 1: destination is not a
// valid URL".
func checkRoutedLink(v *validation, path, subject string, in any) string {
	var p codes.Problems
	dest := codes.CheckLink(&p, path, in)
	if rf, ok := codes.AsRefused(p.Err()); ok {
		if rf.Fields[path] == codes.MsgURLRequired {
			v.add(path, subject+" is required")
		} else {
			v.add(path, subject+" is not a valid URL")
		}
	}
	return dest
}

func checkWhen(v *validation, path, name string, in any) store.RuleWhen {
	var w store.RuleWhen
	obj, ok := in.(map[string]any)
	if !ok {
		if in != nil {
			v.add(path, name+": conditions must be an object")
		}
		return w
	}
	// Every refusal of a condition names its rule.
	add := func(field, msg string) { v.add(field, name+": "+msg) }
	for _, key := range fields(obj) {
		val := obj[key]
		p := path + "." + key
		switch key {
		case "os":
			w.OS = checkList(add, p, val, "devices", "unknown operating system; use "+strings.Join(scans.OSNames, ", "), func(s string) (string, bool) {
				return s, slices.Contains(scans.OSNames, s)
			})
		case "country":
			w.Country = checkList(add, p, val, "countries", "not an ISO 3166-1 alpha-2 country code", func(s string) (string, bool) {
				s = strings.ToUpper(s)
				return s, geo.KnownCountry(s)
			})
		case "region", "city":
			what := map[string]string{"region": "regions", "city": "cities"}[key]
			list := checkList(add, p, val, what, "a "+key+" must be a name of at most 100 characters", placeName)
			if !geo.CitiesLoaded() {
				add(p, "regions and cities need a city database: set SQUARELY_GEOIP_CITY_DB")
			}
			if key == "region" {
				w.Region = list
			} else {
				w.City = list
			}
		case "language":
			w.Language = checkList(add, p, val, "languages", "not a language subtag (BCP 47), such as de or en", primaryLanguage)
		case "days":
			w.Days = checkList(add, p, val, "days", "days are "+strings.Join(scans.DayNames, ", "), func(s string) (string, bool) {
				return s, slices.Contains(scans.DayNames, s)
			})
		case "from", "to":
			s, ok := val.(string)
			if _, valid := scans.Minutes(s); !ok || !valid {
				add(p, "the time must be HH:MM, such as 09:00")
			}
			if key == "from" {
				w.From = s
			} else {
				w.To = s
			}
		case "timeZone":
			s, ok := val.(string)
			if ok && s != "" {
				_, err := zones.Check(s)
				ok = err == nil
			}
			if !ok {
				add(p, "unknown time zone; use an IANA name such as Europe/Berlin")
			}
			w.TimeZone = s
		default:
			add(p, "unknown field")
		}
	}
	switch {
	case w.From == "" && w.To != "":
		add(path+".from", "give both a start and an end time")
	case w.To == "" && w.From != "":
		add(path+".to", "give both a start and an end time")
	}
	return w
}

// fields are a JSON object's keys in order, so the first error reported
// (the message) is the same on every try.
func fields(obj map[string]any) []string { return slices.Sorted(maps.Keys(obj)) }

// placeName checks a region's or city's name (or a region's ISO 3166-2
// code): trimmed, not empty, at most 100 characters, no control characters.
func placeName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	return s, s != "" && utf8.RuneCountInString(s) <= 100 && utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// primaryLanguage checks a BCP 47 primary language subtag, answering it
// in canonical form (lower case).
func primaryLanguage(s string) (string, bool) {
	s = strings.ToLower(s)
	if len(s) < 2 || len(s) > 3 || strings.ContainsFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return s, false
	}
	b, err := language.ParseBase(s)
	if err != nil {
		return s, false
	}
	return b.String(), true
}

// checkList reads a non-empty list of strings (what the person calls
// them: "countries"), each passed through ok (which may normalise it); a
// value it refuses is reported as msg.
func checkList(add func(field, msg string), path string, in any, what, msg string, ok func(string) (string, bool)) []string {
	list, isList := in.([]any)
	if !isList || len(list) == 0 {
		add(path, what+" must be a non-empty list")
		return nil
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, isString := item.(string)
		norm, valid := ok(s)
		if !isString || !valid {
			add(path, msg)
			return nil
		}
		if !slices.Contains(out, norm) {
			out = append(out, norm)
		}
	}
	return out
}

func checkSplit(v *validation, in any) []store.SplitVariant {
	if in == nil {
		return nil
	}
	list, ok := in.([]any)
	switch {
	case !ok:
		v.add("split", "Must be a list")
		return nil
	case len(list) == 0:
		return nil
	case len(list) == 1:
		v.add("split", "A split needs at least 2 variants")
	case len(list) > maxSplit:
		v.add("split", fmt.Sprintf("A split has at most %d variants", maxSplit))
	}
	var out []store.SplitVariant
	sum := 0
	for i, item := range list {
		path, name := "split."+strconv.Itoa(i), fmt.Sprintf("Variant %c", 'A'+i)
		obj, ok := item.(map[string]any)
		if !ok {
			v.add(path, name+" must be an object")
			continue
		}
		var sv store.SplitVariant
		for _, key := range fields(obj) {
			val := obj[key]
			switch key {
			case "destination":
				sv.Destination = checkRoutedLink(v, path+".destination", name+": destination", val)
			case "pageId":
				sv.PageID = checkRoutedPage(v, path+".pageId", name, val)
			case "weight":
				n, ok := val.(float64)
				if !ok || n != float64(int(n)) || n < 1 || n > 100 {
					v.add(path+".weight", name+": the weight must be a whole number from 1 to 100")
					continue
				}
				sv.Weight = int(n)
			default:
				v.add(path+"."+key, name+": unknown field")
			}
		}
		checkOneTarget(v, path, name, obj)
		sum += sv.Weight
		out = append(out, sv)
	}
	if sum != 100 {
		v.add("split", fmt.Sprintf("The variants' weights must add up to 100 (now %d)", sum))
	}
	return out
}

// checkTime reads the instant at path, which the person knows as subject
// ("The start").
func checkTime(v *validation, path, subject string, in any) *time.Time {
	if in == nil {
		return nil
	}
	s, ok := in.(string)
	t, err := time.Parse(time.RFC3339, s)
	if !ok || err != nil {
		v.add(path, subject+" must be a date and time (RFC 3339), such as 2026-12-01T09:00:00Z")
		return nil
	}
	t = t.UTC()
	// RFC 3339 has four-digit years; before 2000 no schedule of ours can
	// mean anything (year 1 is Go's zero time, which reads as no date).
	if t.Before(minScheduleTime) || t.After(maxScheduleTime) {
		v.add(path, subject+msgScheduleRange)
		return nil
	}
	return &t
}

// A schedule's dates (startsAt, expiresAt) lie in the years 2000 to 9999.
var (
	minScheduleTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxScheduleTime = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

const (
	msgScheduleRange  = " must be a date from the year 2000 to 9999"
	msgEndBeforeStart = "The end must be after the start"
)

// routeScan decides where a scan of a routed code goes. take counts the
// scan against a scan limit (a GET that redirects); otherwise the limit is
// only read. Bots (link previews, crawlers) never use up a limit, as they
// are left out of scanCount: a coupon's 100 scans are 100 people's. On
// failure it has answered 503 and returns false.
func (s *server) routeScan(w http.ResponseWriter, r *http.Request, t scans.Target, take bool) (scans.Decision, bool) {
	ctx := r.Context()
	// The split's key is read from the database once per process, and
	// only when a split decides.
	d, err := t.Router.Route(ctx, scans.Visit{
		UserAgent: r.UserAgent(), AcceptLanguage: r.Header.Get("Accept-Language"), RemoteAddr: r.RemoteAddr, At: s.now(),
		CodeID: t.ID, Sticky: s.sticky,
	}, t.Location)
	if err != nil {
		return s.routeFailed(w, r, "reading the split key", err)
	}
	if !t.Router.Limited || d.Route == store.RouteEnded {
		return d, true
	}
	within := false
	if take && !scans.ParseUserAgent(r.UserAgent()).IsBot {
		within, err = s.store.TakeLimitedScan(ctx, t.ID)
	} else {
		var reached bool
		reached, err = s.store.LimitReached(ctx, t.ID)
		within = !reached
	}
	if err != nil {
		return s.routeFailed(w, r, "counting a limited scan", err)
	}
	if !within {
		return t.Router.Ended(), true
	}
	return d, true
}

func (s *server) routeFailed(w http.ResponseWriter, r *http.Request, doing string, err error) (scans.Decision, bool) {
	if r.Context().Err() == nil {
		if ok, held := s.lookupLog.Allow(s.now()); ok {
			s.log.Error(doing, "unlogged", held, "err", err)
		}
		w.Header().Set("Retry-After", "5")
		page(w, http.StatusServiceUnavailable, unavailablePage)
	}
	return scans.Decision{}, false
}

// answerRouted answers a routed scan: a hosted page (a rule's or
// variant's, or a page code's own by default), a redirect with status, the
// ended page (410) or the app links page.
func (s *server) answerRouted(w http.ResponseWriter, r *http.Request, t scans.Target, d scans.Decision, status int) {
	switch {
	case d.PageID != 0:
		s.answerRoutedPage(w, r, t, d.PageID)
	case d.Route == store.RouteDefault && t.PageID != 0 && r.Method != http.MethodPost:
		s.answerPageScan(w, r, t)
	case d.Location != nil:
		w.Header()["Location"] = d.Location
		w.WriteHeader(status)
	case d.Route == store.RouteEnded:
		s.scanPage(w, http.StatusGone, s.clientBrand(r.Context(), t.ClientID), endedNotice)
	default:
		n := appLinksNotice
		n.Links = []noticeLink{{"App Store", t.Router.AppStore[0]}, {"Google Play", t.Router.AppsPlay[0]}}
		s.scanPage(w, http.StatusOK, s.clientBrand(r.Context(), t.ClientID), n)
	}
}
