// Package pages is the hosted pages of issue 35: the pages a dynamic code
// can open instead of redirecting (a contact card, a link list, a menu, a
// gallery, a coupon, an event, an app download page, a business page).
// It holds their types and validation (errors by field path, as the API
// answers them), their server-side HTML, their vCard and iCalendar files
// and the "Open now" of opening hours. It does no I/O: the store keeps
// pages, the server serves them.
package pages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The eight page types.
const (
	TypeVCard    = "vcard"
	TypeLinks    = "links"
	TypeMenu     = "menu"
	TypeGallery  = "gallery"
	TypeCoupon   = "coupon"
	TypeEvent    = "event"
	TypeApp      = "app"
	TypeBusiness = "business"
)

// Types is every page type, in the order the app lists them.
var Types = []string{TypeVCard, TypeLinks, TypeMenu, TypeGallery, TypeCoupon, TypeEvent, TypeApp, TypeBusiness}

// Bounds.
const (
	MaxTitle     = 120  // runes of a title, a name, a label, a headline
	MaxShortText = 60   // runes of a type, a network, a currency, a job title's parts
	MaxText      = 2000 // runes of a description, a bio, a note, terms
	MaxURL       = 2000 // bytes of a URL
	MaxLinks     = 50   // links of a link list
	MaxImages    = 30   // images of a gallery
	MaxItems     = 300  // items of a menu
	MaxFiles     = 10   // files of a menu
	MaxList      = 10   // phones, e-mails, socials of a contact card
	MaxBody      = 1 << 20
	// The years an event's start and end may lie in: an event from year
	// 1 to 9999 is a typo, whatever was meant.
	MinEventYear = 1900
	MaxEventYear = 2100
	maxSlug      = 64
	DefaultLang  = "en"
	defaultFg    = "#0f172a"
	defaultBg    = "#ffffff"
	defaultAccnt = "#2563eb"
)

// Page is a page as the API shows and takes it. Content is one of the
// *Content types below, by Type.
type Page struct {
	ID        int64     `json:"id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	Slug      string    `json:"slug"`
	URL       string    `json:"url"`
	Language  string    `json:"language"`
	Theme     Theme     `json:"theme"`
	Content   any       `json:"content"`
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Theme is a page's colours and logo. BrandKitID names the workspace's
// brand kit the colours came from (the server checks it is the workspace's).
type Theme struct {
	BrandKitID  *int64 `json:"brandKitId,omitempty"`
	FgColor     string `json:"fgColor"`
	BgColor     string `json:"bgColor"`
	AccentColor string `json:"accentColor"`
	LogoURL     string `json:"logoUrl,omitempty"`
}

// Errors maps field paths ("content.phones.0") to what is wrong there.
type Errors map[string]string

func (e Errors) Error() string {
	keys := slices.Sorted(maps.Keys(e))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + e[k]
	}
	return "pages: invalid page: " + strings.Join(parts, "; ")
}

// Options are what validation needs from outside.
type Options struct {
	// BaseURL is the site's base URL: an image may be named by its upload
	// URL on it ({base}/images/{id}) as well as by its path.
	BaseURL string
}

// Phone, Email, Social, Address and Link are the parts pages share.
type (
	Phone struct {
		Type   string `json:"type"`
		Number string `json:"number"`
	}
	Email struct {
		Type    string `json:"type"`
		Address string `json:"address"`
	}
	Social struct {
		Network string `json:"network"`
		URL     string `json:"url"`
	}
	Address struct {
		Street     string `json:"street"`
		City       string `json:"city"`
		Region     string `json:"region"`
		PostalCode string `json:"postalCode"`
		Country    string `json:"country"`
	}
	Link struct {
		Label string `json:"label"`
		URL   string `json:"url"`
	}
)

// VCardContent is a contact card ("vCard Plus").
type VCardContent struct {
	FirstName string   `json:"firstName"`
	LastName  string   `json:"lastName"`
	PhotoURL  string   `json:"photoUrl,omitempty"`
	JobTitle  string   `json:"jobTitle"`
	Company   string   `json:"company"`
	Phones    []Phone  `json:"phones"`
	Emails    []Email  `json:"emails"`
	Website   string   `json:"website"`
	Address   Address  `json:"address"`
	Socials   []Social `json:"socials"`
	Note      string   `json:"note"`
}

// LinksContent is a link list.
type LinksContent struct {
	Title     string   `json:"title"`
	AvatarURL string   `json:"avatarUrl,omitempty"`
	Bio       string   `json:"bio"`
	Links     []Link   `json:"links"`
	Socials   []Social `json:"socials"`
}

// MenuContent is a menu: items in order, grouped by consecutive Section,
// and optional files (a PDF or an image of the printed menu).
type MenuContent struct {
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Items       []MenuItem `json:"items"`
	Files       []Link     `json:"files"`
}

// MenuItem is a dish. Price is a decimal ("12.50"), Currency ISO 4217.
type MenuItem struct {
	Section     string   `json:"section"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Price       string   `json:"price"`
	Currency    string   `json:"currency"`
	Dietary     []string `json:"dietary"`
}

// Dietary tags a menu item may carry.
var Dietary = []string{"vegetarian", "vegan", "gluten-free", "dairy-free", "nut-free", "halal", "kosher", "spicy"}

// GalleryContent is up to MaxImages images.
type GalleryContent struct {
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Images      []Image `json:"images"`
}

// Image is an uploaded image and its caption.
type Image struct {
	URL     string `json:"url"`
	Caption string `json:"caption"`
	Alt     string `json:"alt"`
}

// CouponContent is a coupon: Code is hidden until "Show code"; after
// ValidUntil (a date, or a local date and time, in TimeZone, UTC when
// empty; a date is valid through its end) the page says the offer ended.
type CouponContent struct {
	Headline    string `json:"headline"`
	Description string `json:"description"`
	Code        string `json:"code"`
	Terms       string `json:"terms"`
	ValidUntil  string `json:"validUntil"`
	TimeZone    string `json:"timeZone"`
	ImageURL    string `json:"imageUrl,omitempty"`
}

// EventContent is an event; Start and End are local times
// ("YYYY-MM-DDTHH:MM") in TimeZone (IANA).
type EventContent struct {
	Title       string `json:"title"`
	Start       string `json:"start"`
	End         string `json:"end"`
	TimeZone    string `json:"timeZone"`
	Venue       string `json:"venue"`
	Address     string `json:"address"`
	Description string `json:"description"`
	ImageURL    string `json:"imageUrl,omitempty"`
}

// AppContent is an app download page. At least one store URL is set.
type AppContent struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	IconURL       string `json:"iconUrl,omitempty"`
	AppStoreURL   string `json:"appStoreUrl"`
	GooglePlayURL string `json:"googlePlayUrl"`
}

// BusinessContent is a business page with opening hours in TimeZone.
type BusinessContent struct {
	Name     string  `json:"name"`
	LogoURL  string  `json:"logoUrl,omitempty"`
	About    string  `json:"about"`
	TimeZone string  `json:"timeZone"`
	Hours    Hours   `json:"hours"`
	Address  Address `json:"address"`
	Phone    string  `json:"phone"`
	Email    string  `json:"email"`
	Website  string  `json:"website"`
	Links    []Link  `json:"links"`
}

// newContent is the empty content of type t, nil for an unknown type.
func newContent(t string) any {
	switch t {
	case TypeVCard:
		return &VCardContent{}
	case TypeLinks:
		return &LinksContent{}
	case TypeMenu:
		return &MenuContent{}
	case TypeGallery:
		return &GalleryContent{}
	case TypeCoupon:
		return &CouponContent{}
	case TypeEvent:
		return &EventContent{}
	case TypeApp:
		return &AppContent{}
	case TypeBusiness:
		return &BusinessContent{}
	}
	return nil
}

// Input is a page's body as a request sends it: Content stays raw until
// Type is known.
type Input struct {
	Type     string          `json:"type"`
	Title    string          `json:"title"`
	Slug     string          `json:"slug"`
	Language string          `json:"language"`
	Theme    *Theme          `json:"theme"`
	Content  json.RawMessage `json:"content"`
}

// DecodeContent decodes raw as the content of type t, refusing unknown
// members. The error is an Errors naming the member at fault.
func DecodeContent(t string, raw []byte) (any, error) {
	c := newContent(t)
	if c == nil {
		return nil, Errors{"type": "type must be one of " + strings.Join(Types, ", ")}
	}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, Errors{"content": "content is required"}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, Errors{"content." + te.Field: "must be " + jsonKind(te.Type.Kind().String())}
		}
		return nil, Errors{"content": "content is not valid: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, Errors{"content": "content must be one JSON object"}
	}
	return c, nil
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "slice":
		return "a list"
	case "struct", "map":
		return "an object"
	case "int64", "int", "float64":
		return "a number"
	case "bool":
		return "true or false"
	}
	return "of another type"
}

// Build checks in and returns the page it describes (ID, URL and times
// are the caller's to fill). All problems are reported at once, by path.
func Build(in Input, opt Options) (*Page, error) {
	c := &checker{errs: Errors{}, opt: opt}
	p := &Page{
		Type:     strings.TrimSpace(in.Type),
		Title:    strings.TrimSpace(in.Title),
		Slug:     strings.TrimSpace(in.Slug),
		Language: strings.TrimSpace(in.Language),
	}
	if p.Language == "" {
		p.Language = DefaultLang
	}
	if in.Theme != nil {
		p.Theme = *in.Theme
	}
	c.text("title", p.Title, MaxTitle, true)
	if p.Slug != "" && !ValidSlug(p.Slug) {
		c.fail("slug", "slug must be 3 to 64 lower-case letters, digits and dashes, not starting or ending with a dash")
	}
	if !langPattern.MatchString(p.Language) {
		c.fail("language", "language must be a language tag such as en or pt-BR")
	}
	c.theme(&p.Theme)
	content, err := DecodeContent(p.Type, in.Content)
	if err != nil {
		var e Errors
		if !errors.As(err, &e) {
			return nil, err
		}
		maps.Copy(c.errs, e)
	} else {
		p.Content = content
		validateContent(c, content)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return p, nil
}

// Validate checks a page already built (as the store reads it back).
func Validate(p *Page, opt Options) error {
	c := &checker{errs: Errors{}, opt: opt}
	validateContent(c, p.Content)
	if len(c.errs) > 0 {
		return c.errs
	}
	return nil
}

var (
	slugPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`)
	langPattern  = regexp.MustCompile(`^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$`)
	colorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	// phonePattern is a number as people write it; tel: links drop all but
	// digits and a leading +.
	phonePattern    = regexp.MustCompile(`^\+?[0-9][0-9 ().\-]{1,28}[0-9]$`)
	pricePattern    = regexp.MustCompile(`^[0-9]{1,7}(\.[0-9]{1,2})?$`)
	currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)
	clockPattern    = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$`)
	networkPattern  = regexp.MustCompile(`^[\p{L}\p{N} ._+-]{1,30}$`)
)

// ValidSlug reports whether s may name a page in /p/{slug}.
func ValidSlug(s string) bool {
	return len(s) <= maxSlug && slugPattern.MatchString(s) && !strings.Contains(s, "--")
}

// The kinds of phone and e-mail entries.
var (
	PhoneTypes = []string{"cell", "work", "home", "fax", "other"}
	EmailTypes = []string{"work", "home", "other"}
)

func validateContent(c *checker, content any) {
	switch v := content.(type) {
	case *VCardContent:
		c.text("content.firstName", v.FirstName, MaxTitle, v.LastName == "")
		c.text("content.lastName", v.LastName, MaxTitle, false)
		c.image("content.photoUrl", v.PhotoURL)
		c.text("content.jobTitle", v.JobTitle, MaxTitle, false)
		c.text("content.company", v.Company, MaxTitle, false)
		c.max("content.phones", len(v.Phones), MaxList)
		for i := range v.Phones {
			c.phone(fmt.Sprintf("content.phones.%d", i), &v.Phones[i])
		}
		c.max("content.emails", len(v.Emails), MaxList)
		for i := range v.Emails {
			c.email(fmt.Sprintf("content.emails.%d", i), &v.Emails[i])
		}
		c.web("content.website", v.Website, false)
		c.address("content.address", &v.Address)
		c.socials("content.socials", v.Socials)
		c.text("content.note", v.Note, MaxText, false)
	case *LinksContent:
		c.text("content.title", v.Title, MaxTitle, false)
		c.image("content.avatarUrl", v.AvatarURL)
		c.text("content.bio", v.Bio, MaxText, false)
		if len(v.Links) == 0 {
			c.fail("content.links", "add at least one link")
		}
		c.max("content.links", len(v.Links), MaxLinks)
		for i := range v.Links {
			c.link(fmt.Sprintf("content.links.%d", i), &v.Links[i])
		}
		c.socials("content.socials", v.Socials)
	case *MenuContent:
		c.text("content.title", v.Title, MaxTitle, false)
		c.text("content.description", v.Description, MaxText, false)
		if len(v.Items) == 0 && len(v.Files) == 0 {
			c.fail("content.items", "add at least one item or file")
		}
		c.max("content.items", len(v.Items), MaxItems)
		for i := range v.Items {
			it := &v.Items[i]
			p := fmt.Sprintf("content.items.%d", i)
			c.text(p+".section", it.Section, MaxTitle, false)
			c.text(p+".name", it.Name, MaxTitle, true)
			c.text(p+".description", it.Description, MaxText, false)
			it.Price = strings.TrimSpace(it.Price)
			if it.Price != "" && !pricePattern.MatchString(it.Price) {
				c.fail(p+".price", "price must be a number such as 12.50")
			}
			it.Currency = strings.ToUpper(strings.TrimSpace(it.Currency))
			switch {
			case it.Currency != "" && !currencyPattern.MatchString(it.Currency):
				c.fail(p+".currency", "currency must be a three-letter code such as EUR")
			case it.Price != "" && it.Currency == "":
				c.fail(p+".currency", "a price needs its currency")
			}
			c.max(p+".dietary", len(it.Dietary), len(Dietary))
			for j, d := range it.Dietary {
				if !slices.Contains(Dietary, d) {
					c.fail(fmt.Sprintf("%s.dietary.%d", p, j), "dietary tags are "+strings.Join(Dietary, ", "))
				}
			}
		}
		c.max("content.files", len(v.Files), MaxFiles)
		for i := range v.Files {
			p := fmt.Sprintf("content.files.%d", i)
			c.text(p+".label", v.Files[i].Label, MaxTitle, true)
			if _, ok := c.opt.FileRef(v.Files[i].URL); !ok {
				c.fail(p+".url", "a menu file must be one of your uploaded PDFs or images")
			}
		}
	case *GalleryContent:
		c.text("content.title", v.Title, MaxTitle, false)
		c.text("content.description", v.Description, MaxText, false)
		if len(v.Images) == 0 {
			c.fail("content.images", "add at least one image")
		}
		c.max("content.images", len(v.Images), MaxImages)
		for i := range v.Images {
			p := fmt.Sprintf("content.images.%d", i)
			if v.Images[i].URL == "" {
				c.fail(p+".url", "an image is required")
			}
			c.image(p+".url", v.Images[i].URL)
			c.text(p+".caption", v.Images[i].Caption, MaxTitle, false)
			c.text(p+".alt", v.Images[i].Alt, MaxTitle, false)
		}
	case *CouponContent:
		c.text("content.headline", v.Headline, MaxTitle, true)
		c.text("content.description", v.Description, MaxText, false)
		c.text("content.code", v.Code, MaxShortText, true)
		c.text("content.terms", v.Terms, MaxText, false)
		c.image("content.imageUrl", v.ImageURL)
		loc := c.zone("content.timeZone", v.TimeZone, false)
		if v.ValidUntil != "" && loc != nil {
			if _, err := couponEnd(v.ValidUntil, loc); err != nil {
				c.fail("content.validUntil", "validUntil must be a date (YYYY-MM-DD) or a local time (YYYY-MM-DDTHH:MM)")
			} else if t, err := parseLocal(v.ValidUntil); err == nil {
				// A local time, as an event's start: one the zone skips is no time.
				if msg := skippedTime(t, loc); msg != "" {
					c.fail("content.validUntil", "validUntil "+msg)
				}
			}
		}
	case *EventContent:
		c.text("content.title", v.Title, MaxTitle, true)
		c.text("content.venue", v.Venue, MaxTitle, false)
		c.text("content.address", v.Address, MaxText, false)
		c.text("content.description", v.Description, MaxText, false)
		c.image("content.imageUrl", v.ImageURL)
		loc := c.zone("content.timeZone", v.TimeZone, true)
		start, err1 := parseLocal(v.Start)
		if err1 != nil {
			c.fail("content.start", "start must be a local time YYYY-MM-DDTHH:MM")
		}
		end, err2 := parseLocal(v.End)
		if err2 != nil {
			c.fail("content.end", "end must be a local time YYYY-MM-DDTHH:MM")
		}
		inYears := fmt.Sprintf(" must be in the years %d to %d", MinEventYear, MaxEventYear)
		if err1 == nil && (start.Year() < MinEventYear || start.Year() > MaxEventYear) {
			c.fail("content.start", "start"+inYears)
		}
		if err2 == nil && (end.Year() < MinEventYear || end.Year() > MaxEventYear) {
			c.fail("content.end", "end"+inYears)
		}
		// A wall clock the zone skips (its clocks go forward over it) is no
		// time there: it was saved, and each calendar read it its own way.
		if err1 == nil && loc != nil {
			if msg := skippedTime(start, loc); msg != "" {
				c.fail("content.start", "start "+msg)
			}
		}
		if err2 == nil && loc != nil {
			if msg := skippedTime(end, loc); msg != "" {
				c.fail("content.end", "end "+msg)
			}
		}
		if err1 == nil && err2 == nil && loc != nil && !inZone(end, loc).After(inZone(start, loc)) {
			c.fail("content.end", "end must be after start")
		}
	case *AppContent:
		c.text("content.name", v.Name, MaxTitle, true)
		c.text("content.description", v.Description, MaxText, false)
		c.image("content.iconUrl", v.IconURL)
		c.web("content.appStoreUrl", v.AppStoreURL, false)
		c.web("content.googlePlayUrl", v.GooglePlayURL, false)
		if v.AppStoreURL == "" && v.GooglePlayURL == "" {
			c.fail("content.appStoreUrl", "give an App Store or a Google Play URL")
		}
	case *BusinessContent:
		c.text("content.name", v.Name, MaxTitle, true)
		c.image("content.logoUrl", v.LogoURL)
		c.text("content.about", v.About, MaxText, false)
		c.zone("content.timeZone", v.TimeZone, true)
		c.hours("content.hours", v.Hours)
		c.address("content.address", &v.Address)
		if v.Phone != "" && !phonePattern.MatchString(v.Phone) {
			c.fail("content.phone", "phone must be a phone number")
		}
		if v.Email != "" && !validEmail(v.Email) {
			c.fail("content.email", "email must be an e-mail address")
		}
		c.web("content.website", v.Website, false)
		c.max("content.links", len(v.Links), MaxLinks)
		for i := range v.Links {
			c.link(fmt.Sprintf("content.links.%d", i), &v.Links[i])
		}
	}
}

// parseLocal reads a local "YYYY-MM-DDTHH:MM" as a wall clock (in UTC).
func parseLocal(s string) (time.Time, error) {
	return time.Parse("2006-01-02T15:04", s)
}

// inZone is the wall clock t in loc.
func inZone(t time.Time, loc *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, loc)
}

// skippedTime says why the wall clock t (as parseLocal reads it) is no
// time in loc, "" when it is one: it falls in a gap where loc's clocks go
// forward (e.g. 02:00 to 03:00 on 2026-03-29 in Europe/Berlin). time.Date
// moves such a clock to one side of the gap, so the change is the zone
// boundary of that instant nearest to it.
func skippedTime(t time.Time, loc *time.Location) string {
	at := inZone(t, loc)
	wall := func(x time.Time) time.Time {
		_, off := x.Zone()
		return x.UTC().Add(time.Duration(off) * time.Second)
	}
	if wall(at).Equal(t) {
		return ""
	}
	start, end := at.ZoneBounds()
	for _, change := range []time.Time{start, end} {
		if change.IsZero() {
			continue
		}
		from, to := wall(change.Add(-time.Second)).Add(time.Second), wall(change)
		if !t.Before(from) && t.Before(to) {
			clock := func(x time.Time) string {
				if x.Format(time.DateOnly) == t.Format(time.DateOnly) {
					return x.Format("15:04")
				}
				return x.Format("2006-01-02 15:04")
			}
			return fmt.Sprintf("does not exist in %s: clocks go forward from %s to %s on %s", loc, clock(from), clock(to), t.Format(time.DateOnly))
		}
	}
	return fmt.Sprintf("does not exist in %s: its clocks skip it", loc)
}

// couponEnd is the instant a coupon's validUntil ends.
func couponEnd(s string, loc *time.Location) (time.Time, error) {
	if d, err := time.Parse("2006-01-02", s); err == nil {
		return time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc), nil
	}
	t, err := parseLocal(s)
	if err != nil {
		return time.Time{}, err
	}
	return inZone(t, loc), nil
}

// Expired reports whether a coupon's offer has ended at now.
func (v *CouponContent) Expired(now time.Time) bool {
	if v.ValidUntil == "" {
		return false
	}
	loc, err := loadZone(v.TimeZone)
	if err != nil {
		return false
	}
	end, err := couponEnd(v.ValidUntil, loc)
	return err == nil && !now.Before(end)
}

func loadZone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	if name == "Local" || strings.HasPrefix(name, "/") || strings.Contains(name, "..") {
		return nil, errors.New("pages: not a time zone")
	}
	return time.LoadLocation(name)
}

// FileRef is the upload a menu file's URL names: {base}/pdf/{id} or
// /pdf/{id} (a PDF) or an image URL as ImageRef takes it. kind is "pdf"
// or "image".
func (o Options) FileRef(s string) (ref Upload, ok bool) {
	if ref, ok := o.uploadRef(s, "/pdf/"); ok {
		ref.Kind = "pdf"
		return ref, true
	}
	return o.ImageRef(s)
}

// Upload is an uploaded file a page names.
type Upload struct {
	Kind string // "image" or "pdf"
	ID   int64
}

// ImageRef is the uploaded image an image URL names: {base}/images/{id}
// or /images/{id} (the upload's page or /file).
func (o Options) ImageRef(s string) (Upload, bool) {
	ref, ok := o.uploadRef(s, "/images/")
	ref.Kind = "image"
	return ref, ok
}

func (o Options) uploadRef(s, prefix string) (Upload, bool) {
	if o.BaseURL != "" {
		s = strings.TrimPrefix(s, strings.TrimSuffix(o.BaseURL, "/"))
	}
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return Upload{}, false
	}
	rest = strings.TrimSuffix(rest, "/file")
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != rest {
		return Upload{}, false
	}
	return Upload{ID: id}, true
}

// Uploads is every upload p names (images, logo, menu files), for the
// server to check they are the workspace's, and for the export.
func Uploads(p *Page, opt Options) []Upload {
	var out []Upload
	add := func(s string, file bool) {
		if s == "" {
			return
		}
		var u Upload
		var ok bool
		if file {
			u, ok = opt.FileRef(s)
		} else {
			u, ok = opt.ImageRef(s)
		}
		if ok && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	add(p.Theme.LogoURL, false)
	switch v := p.Content.(type) {
	case *VCardContent:
		add(v.PhotoURL, false)
	case *LinksContent:
		add(v.AvatarURL, false)
	case *MenuContent:
		for _, f := range v.Files {
			add(f.URL, true)
		}
	case *GalleryContent:
		for _, im := range v.Images {
			add(im.URL, false)
		}
	case *CouponContent:
		add(v.ImageURL, false)
	case *EventContent:
		add(v.ImageURL, false)
	case *AppContent:
		add(v.IconURL, false)
	case *BusinessContent:
		add(v.LogoURL, false)
	}
	return out
}
