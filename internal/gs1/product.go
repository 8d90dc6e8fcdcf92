package gs1

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of a product entry.
const (
	MaxName     = 200
	MaxTitle    = 200
	MaxLinks    = 50  // per product or lot
	MaxLots     = 500 // per product
	MaxLanguage = 35  // BCP 47's longest practical tag
)

// LotLinks is one lot's own links.
type LotLinks struct {
	Lot   string   `json:"lot"`
	Links []Target `json:"links"`
}

// Product is a product entry as the API sends and receives it.
type Product struct {
	GTIN      string     `json:"gtin"`
	Name      string     `json:"name"`
	Links     []Target   `json:"links"`
	Lots      []LotLinks `json:"lots"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// Check normalises p (the GTIN padded to 14 digits, text trimmed) and
// returns its problems by JSON path ("links[0].href"); empty when valid.
// A product needs a gs1:defaultLink, the resolver's answer when no other
// link fits; checkHref returns the problem of a link's href, or "".
func (p *Product) Check(checkHref func(string) string) FieldErrors {
	e := FieldErrors{}
	p.GTIN = strings.TrimSpace(p.GTIN)
	if msg := GTINProblem(p.GTIN); msg != "" {
		e["gtin"] = msg
	} else {
		p.GTIN = GTIN14(p.GTIN)
	}
	p.Name = strings.TrimSpace(p.Name)
	switch {
	case p.Name == "":
		e["name"] = "Product name is required"
	case utf8.RuneCountInString(p.Name) > MaxName:
		e["name"] = fmt.Sprintf("Product name must be at most %d characters", MaxName)
	case hasControl(p.Name):
		e["name"] = "Product name must not contain control characters"
	}
	if p.Links == nil {
		p.Links = []Target{}
	}
	if p.Lots == nil {
		p.Lots = []LotLinks{}
	}
	checkLinks(e, "links", p.Links, checkHref)
	hasDefault := false
	for _, l := range p.Links {
		hasDefault = hasDefault || l.LinkType == DefaultLink
	}
	if _, bad := e["links"]; !bad && !hasDefault {
		e["links"] = "A product needs a gs1:defaultLink: the link a scan opens when no other fits"
	}
	if len(p.Lots) > MaxLots {
		e["lots"] = fmt.Sprintf("A product may have at most %d lots", MaxLots)
	}
	seen := map[string]bool{}
	lot, _ := ByCode("10")
	for i := range p.Lots {
		l := &p.Lots[i]
		path := fmt.Sprintf("lots[%d]", i)
		l.Lot = strings.TrimSpace(l.Lot)
		switch msg := lot.Problem(l.Lot); {
		case l.Lot == "":
			e[path+".lot"] = "AI (10): A batch or lot number is required."
		case msg != "":
			e[path+".lot"] = msg
		case seen[l.Lot]:
			e[path+".lot"] = "This lot is listed twice"
		}
		seen[l.Lot] = true
		if l.Links == nil {
			l.Links = []Target{}
		}
		checkLinks(e, path+".links", l.Links, checkHref)
	}
	return e
}

func checkLinks(e FieldErrors, path string, links []Target, checkHref func(string) string) {
	if len(links) > MaxLinks {
		e[path] = fmt.Sprintf("At most %d links", MaxLinks)
		return
	}
	for i := range links {
		l := &links[i]
		p := fmt.Sprintf("%s[%d].", path, i)
		l.LinkType = strings.TrimSpace(l.LinkType)
		if rest, ok := strings.CutPrefix(l.LinkType, Voc); ok {
			l.LinkType = "gs1:" + rest
		}
		if !KnownLinkType(l.LinkType) {
			e[p+"linkType"] = "Unknown GS1 link type: use one of the GS1 Web Vocabulary's, such as gs1:pip"
		}
		l.Href = strings.TrimSpace(l.Href)
		if msg := checkHref(l.Href); msg != "" {
			e[p+"href"] = msg
		}
		l.Title = strings.TrimSpace(l.Title)
		if utf8.RuneCountInString(l.Title) > MaxTitle {
			e[p+"title"] = fmt.Sprintf("Title must be at most %d characters", MaxTitle)
		} else if hasControl(l.Title) {
			e[p+"title"] = "Title must not contain control characters"
		}
		l.Language = strings.TrimSpace(l.Language)
		if l.Language != "" && !validLanguage(l.Language) {
			e[p+"language"] = "Language must be a language tag such as en or fr-CA"
		}
		l.Context = strings.TrimSpace(l.Context)
		if len(l.Context) > 100 {
			e[p+"context"] = "Context must be at most 100 characters"
		}
	}
}

// hasControl reports a control character (a NUL, which PostgreSQL cannot
// store, among them) or bytes that are not UTF-8 in a name or title.
func hasControl(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl)
}

// validLanguage accepts BCP 47-shaped tags: letters, digits and hyphens,
// starting with a 2-3 letter language.
func validLanguage(tag string) bool {
	if len(tag) > MaxLanguage {
		return false
	}
	for i, sub := range strings.Split(tag, "-") {
		if sub == "" || len(sub) > 8 || strings.Trim(strings.ToLower(sub), "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			return false
		}
		if i == 0 && (len(sub) < 2 || len(sub) > 3 || strings.Trim(strings.ToLower(sub), "abcdefghijklmnopqrstuvwxyz") != "") {
			return false
		}
	}
	return true
}

// Entry is the resolver's view of p in a workspace.
func (p *Product) Entry(workspaceID int64) *Entry {
	e := &Entry{WorkspaceID: workspaceID, GTIN: p.GTIN, Name: p.Name, Links: p.Links, Lots: map[string][]Target{}}
	for _, l := range p.Lots {
		e.Lots[l.Lot] = l.Links
	}
	return e
}

// Recall makes href the lot's gs1:recallStatus and its gs1:defaultLink,
// replacing any it had, and keeps its other links; a lot not listed yet
// is added.
func (p *Product) Recall(lot, href string) {
	i := 0
	for i < len(p.Lots) && p.Lots[i].Lot != lot {
		i++
	}
	if i == len(p.Lots) {
		p.Lots = append(p.Lots, LotLinks{Lot: lot})
	}
	l := &p.Lots[i]
	kept := []Target{}
	for _, t := range l.Links {
		if t.LinkType != RecallStatus && t.LinkType != DefaultLink {
			kept = append(kept, t)
		}
	}
	l.Links = append(kept,
		Target{LinkType: RecallStatus, Href: href, Title: "Recall notice"},
		Target{LinkType: DefaultLink, Href: href, Title: "Recall notice"})
}
