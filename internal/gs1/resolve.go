package gs1

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Voc is the GS1 Web Vocabulary's namespace, which link types live in.
const Voc = "https://gs1.org/voc/"

// Link types (GS1 Web Vocabulary, "LinkType") a product may list.
const (
	DefaultLink  = "gs1:defaultLink"
	RecallStatus = "gs1:recallStatus"
)

// LinkTypes are the GS1 link types Squarely accepts, as CURIEs.
var LinkTypes = []string{
	DefaultLink, "gs1:pip", RecallStatus, "gs1:instructions", "gs1:certificationInfo", "gs1:review",
	"gs1:allergenInfo", "gs1:nutritionalInfo", "gs1:ingredientsInfo", "gs1:safetyInfo", "gs1:sustainabilityInfo",
	"gs1:recyclingInfo", "gs1:promotion", "gs1:relatedVideo", "gs1:traceability", "gs1:productSustainabilityInfo",
	"gs1:epil", "gs1:smpc", "gs1:support", "gs1:registerProduct", "gs1:whatsInTheBox", "gs1:faqs",
}

// ExpandLinkType writes a link type as a full URI: "gs1:pip" and
// "https://gs1.org/voc/pip" both give the latter; "all" stays.
func ExpandLinkType(t string) string {
	if rest, ok := strings.CutPrefix(t, "gs1:"); ok {
		return Voc + rest
	}
	return t
}

// KnownLinkType reports whether t (a CURIE) is one of LinkTypes.
func KnownLinkType(t string) bool { return slices.Contains(LinkTypes, t) }

// Target is one link of a product or lot entry.
type Target struct {
	LinkType string `json:"linkType"` // a CURIE of LinkTypes, "gs1:pip"
	Href     string `json:"href"`
	Title    string `json:"title"`
	Language string `json:"language,omitempty"` // a BCP 47 tag, "" for any
	Context  string `json:"context,omitempty"`
	// Forward passes the request's key qualifiers and data attributes on
	// to Href as query parameters (10=…, 17=…).
	Forward bool `json:"forward,omitempty"`
}

// Entry is what the resolver knows of a GTIN in one workspace: the
// product's links, and more specific links for some lots.
type Entry struct {
	WorkspaceID int64
	GTIN        string
	Name        string
	Links       []Target
	Lots        map[string][]Target // by lot number
}

// Answer is the resolver's choice for a request.
type Answer struct {
	Target   Target
	LinkType string // the CURIE counted in analytics
	Found    bool   // false: the entry has no link to send the request to
}

// Choose picks the link for req from e: of the link type asked for (the
// default link when none is, or when the entry has none of that type), a
// lot's own links winning over the product's, the language the
// Accept-Language header prefers, and the context asked for.
func (e *Entry) Choose(req *Request, acceptLanguage string) Answer {
	want := DefaultLink
	if req.LinkType != "" {
		want = "gs1:" + strings.TrimPrefix(req.LinkType, Voc)
	}
	for _, t := range []string{want, DefaultLink} {
		for _, links := range [][]Target{e.Lots[req.Lot()], e.Links} {
			if best, ok := pick(links, t, req.Context, acceptLanguage); ok {
				return Answer{Target: best, LinkType: t, Found: true}
			}
		}
	}
	return Answer{}
}

// pick is the link of type t in links best matching the context and the
// Accept-Language header (read only when there is a choice).
func pick(links []Target, t, context, acceptLanguage string) (Target, bool) {
	var cands []Target
	for _, l := range links {
		if l.LinkType == t && (context == "" || l.Context == "" || l.Context == context) {
			cands = append(cands, l)
		}
	}
	switch len(cands) {
	case 0:
		return Target{}, false
	case 1:
		return cands[0], true
	}
	prefs := newPreferences(ParseAcceptLanguage(acceptLanguage))
	best, bestScore := cands[0], -1
	for _, l := range cands {
		score := prefs.score(l.Language)
		if context != "" && l.Context == context {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = l, score
		}
	}
	return best, true
}

// preferences are an Accept-Language header's tags in order, indexed by
// tag and by primary language (case-folded, as strings.EqualFold
// compares), so that each link is ranked in one look-up: comparing every
// link with every tag grew with their product (50 links and a 4 KB
// header of 2,048 tags took 5 ms, now 1 ms; the resolver refuses longer
// headers).
type preferences struct {
	n              int
	exact, primary map[string]int // the first place of each
}

func newPreferences(tags []string) preferences {
	p := preferences{n: len(tags), exact: map[string]int{}, primary: map[string]int{}}
	for i, t := range tags {
		if k := foldKey(t); !has(p.exact, k) {
			p.exact[k] = i
		}
		if k := foldKey(primary(t)); !has(p.primary, k) {
			p.primary[k] = i
		}
	}
	return p
}

func has(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// score ranks a link's language against the preferences in order: an
// exact tag beats its primary language ("en-GB" for "en"), and both beat
// a link for any language (""); a link in another language comes last.
// The first preference either matches decides.
func (p preferences) score(lang string) int {
	if lang == "" {
		return 1
	}
	i, ok := p.primary[foldKey(primary(lang))]
	if !ok {
		return 0 // an exact match has the same primary language
	}
	if e, ok := p.exact[foldKey(lang)]; ok && e == i {
		return 10 + 4*(p.n-i)
	}
	return 9 + 4*(p.n-i)
}

// foldKey maps each rune of s to the least of its case-folding orbit:
// two strings have the same key exactly when strings.EqualFold says equal.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

func primary(tag string) string {
	p, _, _ := strings.Cut(tag, "-")
	return p
}

// ParseAcceptLanguage returns the tags of an Accept-Language header
// (RFC 9110 §12.5.4) by descending quality, dropping q=0 and "*".
func ParseAcceptLanguage(h string) []string {
	type tq struct {
		tag string
		q   float64
	}
	var list []tq
	for part := range strings.SplitSeq(h, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag = strings.TrimSpace(tag)
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		if tag != "" && tag != "*" && q > 0 {
			list = append(list, tq{tag, q})
		}
	}
	slices.SortStableFunc(list, func(a, b tq) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	out := make([]string, len(list))
	for i, t := range list {
		out[i] = t.tag
	}
	return out
}

// Location is the URL to send req to for t: Href, with the request's
// key qualifiers, data attributes and other query parameters (a campaign's
// utm_source, say; not linkType or context, which were the resolver's)
// added to its query when t forwards them, the request's value winning
// over Href's.
func (t Target) Location(req *Request) string {
	if !t.Forward || len(req.Values) == 0 && len(req.Rest) == 0 {
		return t.Href
	}
	u, err := url.Parse(t.Href)
	if err != nil {
		return t.Href
	}
	q := u.Query()
	for k, v := range req.Values {
		q.Set(k, v)
	}
	for k, vs := range req.Rest {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}
