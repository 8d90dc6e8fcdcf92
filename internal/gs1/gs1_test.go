package gs1

import (
	"context"
	"encoding/json"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Check digits for each GTIN length, from GS1's and the industry's
// published examples, and every wrong digit refused.
func TestCheckDigits(t *testing.T) {
	for _, gtin := range []string{
		"96385074",       // GTIN-8, GS1 General Specifications' example
		"036000291452",   // GTIN-12 (UPC-A)
		"4006381333931",  // GTIN-13 (EAN-13)
		"9520123456788",  // GTIN-13 of the Digital Link standard's examples
		"09506000134352", // GTIN-14 of GS1's resolver examples
		"10614141000415", // GTIN-14 with indicator digit 1
	} {
		if p := GTINProblem(gtin); p != "" {
			t.Errorf("%s: %s", gtin, p)
		}
		last := gtin[len(gtin)-1]
		for d := byte('0'); d <= '9'; d++ {
			if d == last {
				continue
			}
			if p := GTINProblem(gtin[:len(gtin)-1] + string(d)); p != MsgGTINCheckDigit {
				t.Errorf("%s with check digit %c: %q", gtin, d, p)
			}
		}
	}
	for in, want := range map[string]string{
		"":                MsgGTINRequired,
		"9638507":         MsgGTINLength,
		"96385074123":     MsgGTINLength,
		"095060001343520": MsgGTINLength,
		"9638507A":        MsgGTINDigit,
		"9638 5074":       MsgGTINDigit,
	} {
		if got := GTINProblem(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if GTIN14("96385074") != "00000096385074" || GTIN14("9520123456788") != "09520123456788" {
		t.Error("GTIN14 pads wrong")
	}
}

// URIs in GS1's canonical order and encoding: the Digital Link
// standard's own examples.
func TestURIs(t *testing.T) {
	for _, c := range []struct {
		fields map[string]string
		want   string
	}{
		{map[string]string{"gtin": "9520123456788", "lot": "ABC/123", "serial": "12345", "expiry": "180426"},
			"https://id.gs1.org/01/09520123456788/10/ABC%2F123/21/12345?17=180426"},
		{map[string]string{"gtin": "09520123456788", "serial": "456789", "lot": "ABC123", "cpv": "2A"},
			"https://id.gs1.org/01/09520123456788/22/2A/10/ABC123/21/456789"},
		{map[string]string{"gtin": "96385074"}, "https://id.gs1.org/01/00000096385074"},
		{map[string]string{"gtin": "09506000134352", "bestBefore": "261200", "expiry": "261231", "netWeightKg": "001250", "lot": "A+B(1)"},
			"https://id.gs1.org/01/09506000134352/10/A%2BB%281%29?15=261200&17=261231&3103=001250"},
	} {
		l, e := FromFields(c.fields)
		if len(e) > 0 {
			t.Fatalf("%v: %v", c.fields, e)
		}
		if got := l.URI("https://id.gs1.org"); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.fields, got, c.want)
		}
		// It parses back to the same link.
		u, _ := url.Parse(c.want)
		req, err := Parse(u.EscapedPath(), u.Query())
		if err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
		if req.URI("https://id.gs1.org") != c.want {
			t.Errorf("%s parsed to %+v", c.want, req.Link)
		}
	}
}

// Field errors in GS1's wording.
func TestFieldErrors(t *testing.T) {
	for _, c := range []struct {
		fields      map[string]string
		field, want string
	}{
		{map[string]string{"gtin": "9520123456789"}, "gtin", MsgGTINCheckDigit},
		{map[string]string{}, "gtin", MsgGTINRequired},
		{map[string]string{"gtin": "9520123456788", "lot": "ABC#1"}, "lot", "AI (10): A non-CSET 82 character was found where a CSET 82 character is expected."},
		{map[string]string{"gtin": "9520123456788", "serial": "é"}, "serial", "AI (21): A non-CSET 82 character was found where a CSET 82 character is expected."},
		{map[string]string{"gtin": "9520123456788", "lot": strings.Repeat("A", 21)}, "lot", "AI (10): The component is longer than the maximum length (20) permitted by the GS1 AI syntax."},
		{map[string]string{"gtin": "9520123456788", "expiry": "261301"}, "expiry", "AI (17): The date contains an illegal month of the year."},
		{map[string]string{"gtin": "9520123456788", "expiry": "250229"}, "expiry", "AI (17): The date contains an illegal day of the month."},
		{map[string]string{"gtin": "9520123456788", "productionDate": "260100"}, "productionDate", "AI (11): The date contains an illegal day of the month."},
		{map[string]string{"gtin": "9520123456788", "bestBefore": "2612"}, "bestBefore", "AI (15): The component is shorter than the minimum length (6) permitted by the GS1 AI syntax."},
		{map[string]string{"gtin": "9520123456788", "expiry": "26-12-"}, "expiry", "AI (17): A non-digit character was found where a digit is expected."},
	} {
		_, e := FromFields(c.fields)
		if e[c.field] != c.want {
			t.Errorf("%v: %v, want %s: %q", c.fields, e, c.field, c.want)
		}
	}
	// A leap day and day 00 of an expiry are valid.
	if _, e := FromFields(map[string]string{"gtin": "9520123456788", "expiry": "280229", "bestBefore": "260200"}); len(e) > 0 {
		t.Errorf("valid dates refused: %v", e)
	}
}

// Requests that are not Digital Link URIs this resolver takes.
func TestParseRefusals(t *testing.T) {
	for path, want := range map[string]string{
		"/01/09520123456789":                               MsgGTINCheckDigit,
		"/01/09520123456788/21/1/10/A":                     "AI (10) is out of order",
		"/01/09520123456788/10/A/10/B":                     "AI (10) is out of order",
		"/01/09520123456788/254/1":                         "AI (254) is not a key qualifier of AI (01)",
		"/01/09520123456788/17/260101":                     "AI (17) is not a key qualifier",
		"/01/09520123456788/10":                            "must be followed by its value",
		"/00/123":                                          "must start with /01/",
		"/01/09520123456788/10/%ZZ":                        "not percent-encoded correctly",
		"/01/09520123456788/10/" + strings.Repeat("A", 21): "longer than the maximum",
	} {
		_, err := Parse(path, url.Values{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	// A path longer than the GTIN and three key qualifiers is refused
	// before it is split further: one of half a million segments took
	// half a second and 29 MB.
	for _, path := range []string{
		"/01/09520123456788/22/A/10/B/21/C/21/D",
		"/01/09520123456788" + strings.Repeat("/a", 500_000),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse(path, url.Values{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "at most its key qualifiers (22), (10) and (21)") {
			t.Errorf("%.60s…: %v", path, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
			t.Errorf("%.60s…: %d bytes allocated", path, n)
		}
	}
	if _, err := Parse("/01/09520123456788/22/A/10/B/21/C", url.Values{}); err != nil {
		t.Errorf("every key qualifier: %v", err)
	}
	if _, err := Parse("/01/09520123456788", url.Values{"17": {"261301"}}); err == nil || !strings.Contains(err.Error(), "illegal month") {
		t.Errorf("bad expiry in the query: %v", err)
	}
	if _, err := Parse("/01/09520123456788", url.Values{"10": {"A"}}); err == nil || !strings.Contains(err.Error(), "belongs in the path") {
		t.Errorf("lot in the query: %v", err)
	}
	req, err := Parse("/01/9520123456788/10/L1", url.Values{"linkType": {"gs1:pip"}, "utm_source": {"x"}, "99": {"internal"}})
	if err != nil || req.GTIN != "09520123456788" || req.LinkType != Voc+"pip" || req.Rest.Get("utm_source") != "x" || req.Rest.Get("99") != "internal" {
		t.Errorf("request: %+v, %v", req, err)
	}
}

func entry() *Entry {
	return &Entry{GTIN: "09506000134352", Name: "Cereal", Links: []Target{
		{LinkType: DefaultLink, Href: "https://brand.example/p", Title: "Product"},
		{LinkType: "gs1:pip", Href: "https://brand.example/en/pip", Title: "Info", Language: "en"},
		{LinkType: "gs1:pip", Href: "https://brand.example/fr/pip", Title: "Infos", Language: "fr"},
		{LinkType: "gs1:pip", Href: "https://brand.example/de-at/pip", Title: "Info AT", Language: "de-AT"},
		{LinkType: "gs1:instructions", Href: "https://brand.example/manual", Title: "Manual"},
		{LinkType: "gs1:certificationInfo", Href: "https://brand.example/cert", Title: "Certificates", Context: "eu"},
		{LinkType: "gs1:certificationInfo", Href: "https://brand.example/cert-us", Title: "Certificates", Context: "us"},
		{LinkType: "gs1:review", Href: "https://brand.example/review", Title: "Review", Forward: true},
		{LinkType: RecallStatus, Href: "https://brand.example/no-recall", Title: "No recall"},
	}, Lots: map[string][]Target{
		"L9": {{LinkType: RecallStatus, Href: "https://brand.example/recall/L9", Title: "Recall"},
			{LinkType: DefaultLink, Href: "https://brand.example/recall/L9", Title: "Recall"}},
	}}
}

// The resolver's choice for each link type, language, context and lot.
func TestChoose(t *testing.T) {
	e := entry()
	for _, c := range []struct {
		path, linkType, context, lang string
		want, counted                 string
	}{
		{"/01/09506000134352", "", "", "", "https://brand.example/p", DefaultLink},
		{"/01/09506000134352", "gs1:pip", "", "fr-CH, en;q=0.5", "https://brand.example/fr/pip", "gs1:pip"},
		{"/01/09506000134352", Voc + "pip", "", "de-AT", "https://brand.example/de-at/pip", "gs1:pip"},
		{"/01/09506000134352", "gs1:pip", "", "de-DE, en;q=0.1", "https://brand.example/de-at/pip", "gs1:pip"},
		{"/01/09506000134352", "gs1:pip", "", "ja, en;q=0.8, fr;q=0.9", "https://brand.example/fr/pip", "gs1:pip"},
		{"/01/09506000134352", "gs1:pip", "", "", "https://brand.example/en/pip", "gs1:pip"},
		{"/01/09506000134352", "gs1:instructions", "", "fr", "https://brand.example/manual", "gs1:instructions"},
		{"/01/09506000134352", "gs1:certificationInfo", "us", "", "https://brand.example/cert-us", "gs1:certificationInfo"},
		{"/01/09506000134352", "gs1:recallStatus", "", "", "https://brand.example/no-recall", RecallStatus},
		{"/01/09506000134352/10/L9", "gs1:recallStatus", "", "", "https://brand.example/recall/L9", RecallStatus},
		{"/01/09506000134352/10/L9", "", "", "", "https://brand.example/recall/L9", DefaultLink},
		{"/01/09506000134352/10/L9", "gs1:pip", "", "en", "https://brand.example/en/pip", "gs1:pip"},
		{"/01/09506000134352/10/L1", "", "", "", "https://brand.example/p", DefaultLink},
		// A type the entry lacks falls back to the default link.
		{"/01/09506000134352", "gs1:smpc", "", "", "https://brand.example/p", DefaultLink},
		// Forwarding passes the qualifiers and attributes on.
		{"/01/09506000134352/10/L1", "gs1:review", "", "", "https://brand.example/review?10=L1", "gs1:review"},
	} {
		req, err := Parse(c.path, url.Values{})
		if err != nil {
			t.Fatal(err)
		}
		req.LinkType, req.Context = ExpandLinkType(c.linkType), c.context
		a := e.Choose(req, c.lang)
		if !a.Found || a.Target.Location(req) != c.want || a.LinkType != c.counted {
			t.Errorf("%s %s %s %q: %+v → %s", c.path, c.linkType, c.context, c.lang, a, a.Target.Location(req))
		}
	}
	if a := (&Entry{}).Choose(&Request{}, ""); a.Found {
		t.Error("an empty entry chose a link")
	}
}

// Links are ranked against the Accept-Language tags in one look-up each,
// as comparing each link with every tag in order ranked them: the first
// tag of the same primary language decides, exact or not.
func TestLanguageScore(t *testing.T) {
	naive := func(lang string, prefs []string) int {
		if lang == "" {
			return 1
		}
		n := len(prefs)
		for i, p := range prefs {
			switch {
			case strings.EqualFold(lang, p):
				return 10 + 4*(n-i)
			case strings.EqualFold(primary(lang), primary(p)):
				return 9 + 4*(n-i)
			}
		}
		return 0
	}
	headers := []string{"", "en", "fr-CH, fr;q=0.9, en;q=0.8", "EN-gb, en-GB, en", "de, de-AT", "de-AT, de",
		"\u017fv, Sv", "x, en-US;q=0.5, *, EN;q=0.7", "\xff, -x, en-"}
	langs := []string{"", "en", "EN-GB", "en-US", "fr", "fr-CH", "de-AT", "de", "sv", "ja", "x", "-x"}
	for _, h := range headers {
		h, _ = strconv.Unquote(`"` + h + `"`)
		prefs := ParseAcceptLanguage(h)
		p := newPreferences(prefs)
		for _, l := range langs {
			if got, want := p.score(l), naive(l, prefs); got != want {
				t.Errorf("%q for %q: %d, want %d", l, h, got, want)
			}
		}
	}
}

// The linkset has RFC 9264's JSON shape: {"linkset":[{"anchor", <relation
// type URI>: [{"href", "title"?, "hreflang"?: [..]}]}]}, the lot's links
// first under their relation type.
func TestLinkset(t *testing.T) {
	b, err := json.Marshal(entry().Linkset("https://brand.example/01/09506000134352/10/L9", "L9"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil || len(doc.Linkset) != 1 {
		t.Fatalf("%s: %v", b, err)
	}
	ctx := doc.Linkset[0]
	var anchor string
	if json.Unmarshal(ctx["anchor"], &anchor) != nil || anchor != "https://brand.example/01/09506000134352/10/L9" {
		t.Errorf("anchor %s", ctx["anchor"])
	}
	for rel, raw := range ctx {
		if rel == "anchor" {
			continue
		}
		if !strings.HasPrefix(rel, Voc) {
			t.Errorf("relation type %q is not a GS1 vocabulary URI", rel)
		}
		var targets []struct {
			Href     string   `json:"href"`
			Title    string   `json:"title"`
			Hreflang []string `json:"hreflang"`
			Context  []string `json:"context"`
		}
		if err := json.Unmarshal(raw, &targets); err != nil || len(targets) == 0 {
			t.Errorf("%s: %s", rel, raw)
		}
		for _, tg := range targets {
			if _, err := url.Parse(tg.Href); err != nil || tg.Href == "" {
				t.Errorf("%s: href %q", rel, tg.Href)
			}
		}
	}
	var recall []struct{ Href string }
	json.Unmarshal(ctx[Voc+"recallStatus"], &recall)
	if len(recall) != 2 || recall[0].Href != "https://brand.example/recall/L9" {
		t.Errorf("recallStatus targets: %+v", recall)
	}
	var pip []struct{ Hreflang []string }
	json.Unmarshal(ctx[Voc+"pip"], &pip)
	if len(pip) != 3 || pip[1].Hreflang[0] != "fr" {
		t.Errorf("pip targets: %+v", pip)
	}
}

// GS1 verdicts at the edges of the consumer-unit X-dimension range.
func TestSymbolCheck(t *testing.T) {
	for _, c := range []struct {
		s        Symbol
		problems int
		contains string
	}{
		{Symbol{XDimensionMm: 0.625, QuietZone: 4, Level: "M"}, 0, ""},
		{Symbol{XDimensionMm: 0.375, QuietZone: 4, Level: "H"}, 0, ""},
		{Symbol{XDimensionMm: 0.99, QuietZone: 4, Level: "Q"}, 0, ""},
		{Symbol{XDimensionMm: 0.37, QuietZone: 4, Level: "M"}, 1, "under the 0.375 mm minimum"},
		{Symbol{XDimensionMm: 1.2, QuietZone: 4, Level: "M"}, 1, "over the 0.99 mm maximum"},
		{Symbol{XDimensionMm: 0.5, QuietZone: 2, Level: "M"}, 1, "quiet zone is 2 modules"},
		{Symbol{XDimensionMm: 0.5, QuietZone: 4, Level: "M", Logo: true}, 1, "logo"},
		{Symbol{XDimensionMm: 0.5, QuietZone: 4, Level: "L"}, 1, "level M or higher"},
	} {
		v := Check(c.s)
		if len(v.Problems) != c.problems || v.OK != (c.problems == 0) || (c.contains != "" && !strings.Contains(v.Problems[0], c.contains)) {
			t.Errorf("%+v: %+v", c.s, v)
		}
	}
}

// Product entries: GS1's rules by JSON path, a default link required,
// recall making the recall notice the lot's default.
func TestProductCheck(t *testing.T) {
	noHref := func(h string) string {
		if !strings.HasPrefix(h, "https://") {
			return "Please enter a valid URL"
		}
		return ""
	}
	p := Product{GTIN: "9506000134352", Name: " Cereal ", Links: []Target{{LinkType: "https://gs1.org/voc/defaultLink", Href: "https://a.example"}}}
	if e := p.Check(noHref); len(e) > 0 || p.GTIN != "09506000134352" || p.Name != "Cereal" || p.Links[0].LinkType != DefaultLink {
		t.Fatalf("valid product: %v %+v", e, p)
	}
	bad := Product{GTIN: "9506000134353", Links: []Target{{LinkType: "gs1:nope", Href: "ftp://x", Language: "english!"}},
		Lots: []LotLinks{{Lot: "A#"}, {Lot: "B"}, {Lot: "B"}}}
	e := bad.Check(noHref)
	for k, want := range map[string]string{
		"gtin": MsgGTINCheckDigit, "name": "Product name is required", "links[0].linkType": "Unknown GS1 link type",
		"links[0].href": "Please enter a valid URL", "links[0].language": "Language must be", "lots[0].lot": "non-CSET 82",
		"lots[2].lot": "listed twice",
	} {
		if !strings.Contains(e[k], want) {
			t.Errorf("%s: %q, want %q (all: %v)", k, e[k], want, e)
		}
	}
	if e := (&Product{GTIN: "9506000134352", Name: "X", Links: []Target{{LinkType: "gs1:pip", Href: "https://a.example"}}}).Check(noHref); !strings.Contains(e["links"], "gs1:defaultLink") {
		t.Errorf("no default link: %v", e)
	}
	p.Lots = []LotLinks{{Lot: "L1", Links: []Target{{LinkType: "gs1:pip", Href: "https://a.example/l1"}, {LinkType: DefaultLink, Href: "https://a.example/old"}}}}
	p.Recall("L1", "https://a.example/recall")
	p.Recall("L2", "https://a.example/recall2")
	en := p.Entry(7)
	for lot, want := range map[string]string{"L1": "https://a.example/recall", "L2": "https://a.example/recall2", "L3": "https://a.example"} {
		if a := en.Choose(&Request{Link: Link{Values: map[string]string{"10": lot}}}, ""); a.Target.Href != want {
			t.Errorf("lot %s after recall: %+v", lot, a)
		}
	}
	if len(en.Lots["L1"]) != 3 {
		t.Errorf("recall dropped the lot's other links: %+v", en.Lots["L1"])
	}
}

type loader struct {
	calls   int
	entries map[string][]*Entry
}

func (l *loader) GS1Entries(_ context.Context, gtin string) ([]*Entry, error) {
	l.calls++
	return l.entries[gtin], nil
}

// The cache reads a GTIN once, unknown ones included, until it is
// invalidated; the base URL gets the oldest entry, a domain its
// workspace's.
func TestCache(t *testing.T) {
	l := &loader{entries: map[string][]*Entry{"09506000134352": {{WorkspaceID: 1, Name: "first"}, {WorkspaceID: 2, Name: "second"}}}}
	c := NewCache(l, nil)
	ctx := context.Background()
	for range 3 {
		if e, _ := c.Lookup(ctx, "09506000134352", 0); e == nil || e.Name != "first" {
			t.Fatalf("base URL: %+v", e)
		}
		if e, _ := c.Lookup(ctx, "09506000134352", 2); e == nil || e.Name != "second" {
			t.Fatalf("workspace 2: %+v", e)
		}
		if e, _ := c.Lookup(ctx, "09506000134352", 3); e != nil {
			t.Fatalf("workspace 3: %+v", e)
		}
		if e, _ := c.Lookup(ctx, "09520123456788", 0); e != nil {
			t.Fatalf("unknown: %+v", e)
		}
	}
	if l.calls != 2 {
		t.Errorf("%d loads, want 2", l.calls)
	}
	c.Invalidate("09506000134352")
	c.Lookup(ctx, "09506000134352", 0)
	c.Lookup(ctx, "09520123456788", 0)
	if l.calls != 3 {
		t.Errorf("%d loads after invalidating one, want 3", l.calls)
	}
	c.InvalidateAll()
	c.Lookup(ctx, "09520123456788", 0)
	if l.calls != 4 {
		t.Errorf("%d loads after invalidating all, want 4", l.calls)
	}
}
