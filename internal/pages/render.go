package pages

import (
	"bytes"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/imaging"
)

// CSP is the Content-Security-Policy of a served page: no script at all,
// inline style, images and forms from the page's own origin only.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Button is an outbound link of a page. The page links to /p/{slug}/go/{n}
// (n its index in Buttons) so the click is counted before the redirect.
type Button struct {
	Label string
	URL   string
	Kind  string // call, email, sms, directions, website, link, social, store, file, calendar
}

// Buttons is every outbound link of p in a fixed order: the numbering of
// /p/{slug}/go/{n}. imageURL turns an upload URL into the address it is
// served at (menu files).
func Buttons(p *Page) []Button {
	var out []Button
	add := func(kind, label, u string) {
		if u != "" {
			out = append(out, Button{Label: label, URL: u, Kind: kind})
		}
	}
	switch v := p.Content.(type) {
	case *VCardContent:
		for _, ph := range v.Phones {
			add("call", "Call "+ph.Number, "tel:"+telNumber(ph.Number))
		}
		for _, e := range v.Emails {
			add("email", "E-mail "+e.Address, "mailto:"+e.Address)
		}
		add("directions", "Directions", directions(v.Address))
		add("website", "Website", v.Website)
		for _, s := range v.Socials {
			add("social", s.Network, s.URL)
		}
	case *LinksContent:
		for _, l := range v.Links {
			add("link", l.Label, l.URL)
		}
		for _, s := range v.Socials {
			add("social", s.Network, s.URL)
		}
	case *MenuContent:
		for _, f := range v.Files {
			add("file", f.Label, f.URL)
		}
	case *EventContent:
		add("calendar", "Google Calendar", GoogleCalendarURL(v, ""))
	case *AppContent:
		add("store", "Download on the App Store", v.AppStoreURL)
		add("store", "Get it on Google Play", v.GooglePlayURL)
	case *BusinessContent:
		if v.Phone != "" {
			add("call", "Call", "tel:"+telNumber(v.Phone))
		}
		if v.Email != "" {
			add("email", "E-mail", "mailto:"+v.Email)
		}
		add("directions", "Directions", directions(v.Address))
		add("website", "Website", v.Website)
		for _, l := range v.Links {
			add("link", l.Label, l.URL)
		}
	}
	return out
}

// directions is a maps search for an address ("" when it is empty).
func directions(a Address) string {
	q := strings.Join(nonEmpty(a.Street, a.City, a.Region, a.PostalCode, a.Country), ", ")
	if q == "" {
		return ""
	}
	return "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(q)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// StoreRedirect is where an app page sends a phone straight away: the App
// Store for iOS, Google Play for Android; "" for other devices.
func StoreRedirect(p *Page, userAgent string) string {
	v, ok := p.Content.(*AppContent)
	if !ok {
		return ""
	}
	switch {
	case strings.Contains(userAgent, "iPhone") || strings.Contains(userAgent, "iPad") || strings.Contains(userAgent, "iPod"):
		return v.AppStoreURL
	case strings.Contains(userAgent, "Android"):
		return v.GooglePlayURL
	}
	return ""
}

// View is how a page is rendered.
type View struct {
	// Base is the path the page's own links start from: "/p/{slug}".
	// Static (the export) makes the outbound links direct, shows a
	// coupon's code in a <details> and leaves "Open now" out (nothing
	// computes it there); Image then names the exported files.
	Base   string
	Static bool
	// Now is the clock ("Open now", an ended coupon).
	Now time.Time
	// Reveal shows a coupon's code ("Show code" was followed).
	Reveal bool
	// Image is where an upload is served (default /images/{id}/file; menu
	// files go through /go/{n}).
	Image func(Upload) string
	// Sizes are the width and height of image uploads by id, where known:
	// such an image gets width, height and a srcset of the widths of
	// imaging.Widths below its own (served at /images/{id}/file?w=).
	Sizes map[int64][2]int
	Opt   Options
}

// imageSizes are the sizes attribute of each kind of image (Pic).
var imageSizes = map[string]string{
	"hero": "112px",
	"logo": "256px",
	"full": "(max-width: 480px) calc(100vw - 32px), 448px",
}

type renderData struct {
	*Page
	V        View
	Buttons  []Button
	BtnIndex map[string]int
}

// Render is p's HTML page. Everything a phone needs is inline; it needs no
// script; the user's text is escaped by html/template.
func Render(p *Page, v View) ([]byte, error) {
	d := renderData{Page: p, V: v, Buttons: Buttons(p)}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// go is the href of button i: counted through the server, direct in the
// export.
func (d renderData) Go(kind string, nth int) template.URL {
	n := 0
	for i, b := range d.Buttons {
		if b.Kind != kind {
			continue
		}
		if n == nth {
			if d.V.Static {
				return template.URL(b.URL) //nolint:gosec // checked by CheckURL on save
			}
			return template.URL(d.V.Base + "/go/" + strconv.Itoa(i))
		}
		n++
	}
	return ""
}

// Btn is the href of the button of kind and URL u (the first match).
func (d renderData) Btn(kind, u string) template.URL {
	for i, b := range d.Buttons {
		if b.Kind == kind && (u == "" || b.URL == u || b.URL == "tel:"+telNumber(u) || b.URL == "mailto:"+u) {
			if d.V.Static {
				return template.URL(b.URL) //nolint:gosec // checked by CheckURL on save
			}
			return template.URL(d.V.Base + "/go/" + strconv.Itoa(i))
		}
	}
	return ""
}

// Img is the src of an image upload URL.
func (d renderData) Img(s string) string {
	u, ok := d.V.Opt.ImageRef(s)
	if !ok {
		return ""
	}
	if d.V.Image != nil {
		return d.V.Image(u)
	}
	return "/images/" + strconv.FormatInt(u.ID, 10) + "/file"
}

// Pic is the attributes of the <img> of image upload s shown as kind
// (hero, logo or full, the layout's imageSizes): its src, and where its
// size is known its width, height, srcset and sizes.
func (d renderData) Pic(s, kind string) template.HTMLAttr {
	src := d.Img(s)
	u, _ := d.V.Opt.ImageRef(s)
	size, known := d.V.Sizes[u.ID]
	if !known || d.V.Image != nil {
		return template.HTMLAttr(`src="` + template.HTMLEscapeString(src) + `"`) //nolint:gosec // escaped
	}
	var set []string
	for _, w := range imaging.Widths {
		if w < size[0] {
			set = append(set, src+"?w="+strconv.Itoa(w)+" "+strconv.Itoa(w)+"w")
		}
	}
	set = append(set, src+" "+strconv.Itoa(size[0])+"w")
	return template.HTMLAttr(`src="` + template.HTMLEscapeString(src) + `" srcset="` + template.HTMLEscapeString(strings.Join(set, ", ")) + //nolint:gosec // escaped
		`" sizes="` + imageSizes[kind] + `" width="` + strconv.Itoa(size[0]) + `" height="` + strconv.Itoa(size[1]) + `"`)
}

// FileHref is the href of a menu file.
func (d renderData) FileHref(i int, s string) template.URL {
	if !d.V.Static {
		return d.Btn("file", s)
	}
	u, ok := d.V.Opt.FileRef(s)
	if !ok {
		return ""
	}
	if d.V.Image != nil {
		return template.URL(d.V.Image(u)) //nolint:gosec // our own relative path
	}
	return ""
}

// File is the href of one of the page's own files (contact.vcf, event.ics).
func (d renderData) File(name string) string { return d.V.Base + "/" + name }

// Open is "Open now" of a business page: "open", "closed" or "".
func (d renderData) Open() string {
	v, ok := d.Content.(*BusinessContent)
	if !ok {
		return ""
	}
	open, known := v.Hours.OpenAt(v.TimeZone, d.V.Now)
	switch {
	case !known || d.V.Static:
		return ""
	case open:
		return "open"
	}
	return "closed"
}

// Ended reports whether a coupon's offer ended.
func (d renderData) Ended() bool {
	v, ok := d.Content.(*CouponContent)
	return ok && v.Expired(d.V.Now)
}

// When is an event's time as the page shows it.
func (d renderData) When() string {
	v, ok := d.Content.(*EventContent)
	if !ok {
		return ""
	}
	s, err1 := parseLocal(v.Start)
	e, err2 := parseLocal(v.End)
	if err1 != nil || err2 != nil {
		return ""
	}
	out := s.Format("Monday 2 January 2006, 15:04") + " – "
	if s.Format("2006-01-02") == e.Format("2006-01-02") {
		out += e.Format("15:04")
	} else {
		out += e.Format("Monday 2 January 2006, 15:04")
	}
	return out + " (" + v.TimeZone + ")"
}

// GoogleCal is the Google Calendar link of an event page.
func (d renderData) GoogleCal() template.URL { return d.Go("calendar", 0) }

// Sections groups a menu's items by consecutive section.
func (d renderData) Sections() []menuSection {
	v, ok := d.Content.(*MenuContent)
	if !ok {
		return nil
	}
	var out []menuSection
	for _, it := range v.Items {
		if len(out) == 0 || out[len(out)-1].Name != it.Section {
			out = append(out, menuSection{Name: it.Section})
		}
		out[len(out)-1].Items = append(out[len(out)-1].Items, it)
	}
	return out
}

type menuSection struct {
	Name  string
	Items []MenuItem
}

// Days is a business's hours by weekday from Monday, for the table.
func (d renderData) Days() []dayHours {
	v, ok := d.Content.(*BusinessContent)
	if !ok {
		return nil
	}
	out := make([]dayHours, 0, 7)
	for _, day := range DayNames {
		var spans []string
		for _, in := range v.Hours[day.Key] {
			spans = append(spans, in.Open+"–"+in.Close)
		}
		text := "Closed"
		if len(spans) > 0 {
			text = strings.Join(spans, ", ")
		}
		out = append(out, dayHours{Name: day.Name, Text: text})
	}
	return out
}

type dayHours struct{ Name, Text string }

// AddressLines is an address as lines.
func AddressLines(a Address) []string {
	return nonEmpty(a.Street, strings.Join(nonEmpty(a.PostalCode, a.City), " "), a.Region, a.Country)
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"addr": AddressLines,
	"css":  func(s string) template.CSS { return template.CSS(s) }, //nolint:gosec // colours checked by colorPattern
}).Parse(pageHTML))

const pageHTML = `<!doctype html>
<html lang="{{.Language}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root{--fg:{{css .Theme.FgColor}};--bg:{{css .Theme.BgColor}};--ac:{{css .Theme.AccentColor}}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:480px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:1.6rem;line-height:1.2;margin:8px 0;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:24px 0 8px}
p{margin:0 0 12px;white-space:pre-line;overflow-wrap:anywhere}
img{max-width:100%;height:auto;border-radius:12px}
.hero{display:block;margin:0 auto 12px;width:112px;height:112px;object-fit:cover;border-radius:50%}
.logo{display:block;height:64px;width:auto;max-width:100%;object-fit:contain;margin:0 auto 12px;border-radius:0}
.center{text-align:center}
.sub{opacity:.8}
.btn{display:block;margin:10px 0;padding:13px 16px;border-radius:12px;background:var(--ac);color:#fff;text-align:center;font-weight:600;text-decoration:none;overflow-wrap:anywhere;border:0;width:100%;font-size:1rem}
.btn.alt{background:transparent;color:var(--fg);border:2px solid var(--ac)}
a{color:var(--ac)}
ul{list-style:none;padding:0;margin:0}
.item{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid rgba(128,128,128,.25)}
.tags{font-size:.85rem;opacity:.8}
figure{margin:0 0 16px}figcaption{font-size:.9rem;opacity:.85;margin-top:4px}
.code{font:700 1.6rem/1.2 ui-monospace,monospace;letter-spacing:.08em;padding:14px;border:2px dashed var(--ac);border-radius:12px;text-align:center;overflow-wrap:anywhere}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;font-size:.9rem}
.open{background:#dcfce7;color:#14532d}.closed{background:#fee2e2;color:#7f1d1d}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:4px 0;font-weight:400}
</style></head>
<body><main>
{{- with .Theme.LogoURL}}{{if $.Img .}}<img class="logo" {{$.Pic . "logo"}} alt="">{{end}}{{end}}
{{- if eq .Type "vcard"}}{{with .Content}}
<div class="center">{{if $.Img .PhotoURL}}<img class="hero" {{$.Pic .PhotoURL "hero"}} alt="Photo of {{$.Content.FirstName}} {{$.Content.LastName}}">{{end}}
<h1>{{.FirstName}} {{.LastName}}</h1>
{{if or .JobTitle .Company}}<p class="sub">{{.JobTitle}}{{if and .JobTitle .Company}} · {{end}}{{.Company}}</p>{{end}}</div>
<a class="btn" href="{{$.File "contact.vcf"}}" download="contact.vcf">Save contact</a>
{{range $i, $p := .Phones}}<a class="btn alt" href="{{$.Btn "call" $p.Number}}">Call {{$p.Number}}</a>
{{end}}{{range .Emails}}<a class="btn alt" href="{{$.Btn "email" .Address}}">E-mail {{.Address}}</a>
{{end}}{{with addr .Address}}<h2>Address</h2><p>{{range .}}{{.}}
{{end}}</p><a class="btn alt" href="{{$.Go "directions" 0}}">Directions</a>
{{end}}{{if .Website}}<a class="btn alt" href="{{$.Go "website" 0}}">Website</a>
{{end}}{{if .Socials}}<ul>{{range $i, $s := .Socials}}<li><a class="btn alt" href="{{$.Go "social" $i}}">{{$s.Network}}</a></li>{{end}}</ul>
{{end}}{{with .Note}}<h2>About</h2><p>{{.}}</p>{{end}}
{{end}}
{{- else if eq .Type "links"}}{{with .Content}}
<div class="center">{{if $.Img .AvatarURL}}<img class="hero" {{$.Pic .AvatarURL "hero"}} alt="">{{end}}
<h1>{{or .Title $.Title}}</h1>{{with .Bio}}<p>{{.}}</p>{{end}}</div>
<ul>{{range $i, $l := .Links}}<li><a class="btn" href="{{$.Go "link" $i}}">{{$l.Label}}</a></li>{{end}}</ul>
{{if .Socials}}<ul>{{range $i, $s := .Socials}}<li><a class="btn alt" href="{{$.Go "social" $i}}">{{$s.Network}}</a></li>{{end}}</ul>{{end}}
{{end}}
{{- else if eq .Type "menu"}}{{with .Content}}
<h1>{{or .Title $.Title}}</h1>{{with .Description}}<p>{{.}}</p>{{end}}
{{range $.Sections}}{{with .Name}}<h2>{{.}}</h2>{{end}}<ul>{{range .Items}}<li class="item"><div><strong>{{.Name}}</strong>{{with .Description}}<br><span class="sub">{{.}}</span>{{end}}{{with .Dietary}}<br><span class="tags">{{range $j, $t := .}}{{if $j}}, {{end}}{{$t}}{{end}}</span>{{end}}</div>{{if .Price}}<div>{{.Price}} {{.Currency}}</div>{{end}}</li>{{end}}</ul>
{{end}}{{range $i, $f := .Files}}<a class="btn alt" href="{{$.FileHref $i $f.URL}}">{{$f.Label}}</a>
{{end}}{{end}}
{{- else if eq .Type "gallery"}}{{with .Content}}
<h1>{{or .Title $.Title}}</h1>{{with .Description}}<p>{{.}}</p>{{end}}
{{range $i, $im := .Images}}<figure><img {{$.Pic $im.URL "full"}} alt="{{or $im.Alt $im.Caption}}"{{if $i}} loading="lazy"{{end}} decoding="async">{{with $im.Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>
{{end}}{{end}}
{{- else if eq .Type "coupon"}}{{with .Content}}
{{if $.Img .ImageURL}}<img {{$.Pic .ImageURL "full"}} alt="">{{end}}
<h1>{{.Headline}}</h1>{{with .Description}}<p>{{.}}</p>{{end}}
{{if $.Ended}}<p role="status"><strong>This offer has ended.</strong></p>
{{else if $.V.Static}}<details><summary class="btn">Show code</summary><p class="code">{{.Code}}</p></details>
{{else if $.V.Reveal}}<p class="code" role="status">{{.Code}}</p>
{{else}}<form method="get" action="{{$.V.Base}}"><input type="hidden" name="show" value="code"><button class="btn" type="submit">Show code</button></form>
{{end}}{{with .ValidUntil}}<p class="sub">Valid until {{.}}</p>{{end}}{{with .Terms}}<h2>Terms</h2><p class="sub">{{.}}</p>{{end}}
{{end}}
{{- else if eq .Type "event"}}{{with .Content}}
{{if $.Img .ImageURL}}<img {{$.Pic .ImageURL "full"}} alt="">{{end}}
<h1>{{.Title}}</h1><p><strong>{{$.When}}</strong></p>
{{if or .Venue .Address}}<p>{{.Venue}}{{if and .Venue .Address}}
{{end}}{{.Address}}</p>{{end}}{{with .Description}}<p>{{.}}</p>{{end}}
<a class="btn" href="{{$.File "event.ics"}}">Add to calendar</a>
<a class="btn alt" href="{{$.GoogleCal}}">Add to Google Calendar</a>
{{end}}
{{- else if eq .Type "app"}}{{with .Content}}
<div class="center">{{if $.Img .IconURL}}<img class="hero" {{$.Pic .IconURL "hero"}} alt="">{{end}}<h1>{{.Name}}</h1>{{with .Description}}<p>{{.}}</p>{{end}}</div>
{{if .AppStoreURL}}<a class="btn" href="{{$.Btn "store" .AppStoreURL}}">Download on the App Store</a>{{end}}
{{if .GooglePlayURL}}<a class="btn" href="{{$.Btn "store" .GooglePlayURL}}">Get it on Google Play</a>{{end}}
{{end}}
{{- else if eq .Type "business"}}{{with .Content}}
<div class="center">{{if $.Img .LogoURL}}<img class="logo" {{$.Pic .LogoURL "logo"}} alt="{{$.Content.Name}} logo">{{end}}<h1>{{.Name}}</h1>
{{with $.Open}}<p><span class="badge {{.}}" role="status">{{if eq . "open"}}Open now{{else}}Closed now{{end}}</span></p>{{end}}</div>
{{with .About}}<p>{{.}}</p>{{end}}
{{if .Phone}}<a class="btn" href="{{$.Go "call" 0}}">Call {{.Phone}}</a>{{end}}
{{if .Email}}<a class="btn alt" href="{{$.Go "email" 0}}">E-mail</a>{{end}}
{{if .Hours}}<h2>Opening hours</h2><table>{{range $.Days}}<tr><th scope="row">{{.Name}}</th><td>{{.Text}}</td></tr>{{end}}</table>{{end}}
{{with addr .Address}}<h2>Address</h2><p>{{range .}}{{.}}
{{end}}</p><a class="btn alt" href="{{$.Go "directions" 0}}">Directions</a>{{end}}
{{if .Website}}<a class="btn alt" href="{{$.Go "website" 0}}">Website</a>{{end}}
{{range $i, $l := .Links}}<a class="btn alt" href="{{$.Go "link" $i}}">{{$l.Label}}</a>
{{end}}{{end}}
{{- end}}
</main></body></html>
`
