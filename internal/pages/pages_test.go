package pages

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var opt = Options{BaseURL: "https://sq.test"}

// samples is a valid content of each type.
var samples = map[string]string{
	TypeVCard: `{"firstName":"Ada","lastName":"Lovelace","photoUrl":"/images/7","jobTitle":"Analyst","company":"Engines Ltd",
		"phones":[{"type":"cell","number":"+44 20 7946 0000"}],"emails":[{"type":"work","address":"ada@example.com"}],
		"website":"https://example.com","address":{"street":"1 St James's Sq","city":"London","region":"","postalCode":"SW1Y 4JU","country":"UK"},
		"socials":[{"network":"LinkedIn","url":"https://linkedin.com/in/ada"}],"note":"Hello"}`,
	TypeLinks: `{"title":"Ada's links","bio":"Maths","links":[{"label":"Blog","url":"https://blog.example.com"},{"label":"Text me","url":"sms:+15551234567"}],"socials":[]}`,
	TypeMenu: `{"title":"Lunch","items":[{"section":"Starters","name":"Soup","description":"Of the day","price":"6.50","currency":"eur","dietary":["vegan"]},
		{"section":"Mains","name":"Pie","price":"12","currency":"EUR"}],"files":[{"label":"Printed menu","url":"https://sq.test/pdf/4"}]}`,
	TypeGallery:  `{"title":"Work","images":[{"url":"/images/1","caption":"One"},{"url":"https://sq.test/images/2/file","caption":"Two","alt":"A bridge"}]}`,
	TypeCoupon:   `{"headline":"10% off","description":"On everything","code":"SAVE10","terms":"One per visit","validUntil":"2026-12-31","timeZone":"Europe/Paris"}`,
	TypeEvent:    `{"title":"Launch","start":"2026-03-28T22:00","end":"2026-03-29T04:00","timeZone":"Europe/Paris","venue":"Hall","address":"1 Rue, Paris","description":"Party"}`,
	TypeApp:      `{"name":"Squares","description":"An app","appStoreUrl":"https://apps.apple.com/app/id1","googlePlayUrl":"https://play.google.com/store/apps/details?id=x"}`,
	TypeBusiness: `{"name":"Café","about":"Coffee","timeZone":"Europe/Paris","hours":{"mon":[{"open":"08:00","close":"18:00"}],"fri":[{"open":"18:00","close":"02:00"}]},"address":{"street":"2 Rue","city":"Paris","region":"","postalCode":"75001","country":"FR"},"phone":"+33 1 23 45 67 89","email":"hi@example.com","website":"https://example.com","links":[{"label":"Order","url":"https://order.example.com"}]}`,
}

func build(t *testing.T, typ, content string) *Page {
	t.Helper()
	p, err := Build(Input{Type: typ, Title: "T", Content: json.RawMessage(content)}, opt)
	if err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	p.Slug = "my-page"
	return p
}

func TestSamplesValid(t *testing.T) {
	for _, typ := range Types {
		build(t, typ, samples[typ])
	}
}

// withMember is sample content of typ with member path (dot separated,
// list indices as numbers) set to v.
func withMember(t *testing.T, typ, path string, v any) json.RawMessage {
	t.Helper()
	var m any
	if err := json.Unmarshal([]byte(samples[typ]), &m); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(path, ".")
	cur := m
	for i, part := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[part] = v
			} else {
				if c[part] == nil {
					c[part] = map[string]any{}
				}
				cur = c[part]
			}
		case []any:
			var n int
			fmt.Sscan(part, &n)
			if last {
				c[n] = v
			} else {
				cur = c[n]
			}
		}
	}
	b, _ := json.Marshal(m)
	return b
}

func TestValidationPaths(t *testing.T) {
	long := strings.Repeat("x", MaxTitle+1)
	longText := strings.Repeat("é", MaxText+1)
	cases := []struct {
		typ, member string
		value       any
		want        string // the error's path
	}{
		{TypeVCard, "lastName", long, "content.lastName"},
		{TypeVCard, "firstName", long, "content.firstName"},
		{TypeVCard, "photoUrl", "https://elsewhere.test/me.jpg", "content.photoUrl"},
		{TypeVCard, "phones.0", map[string]any{"type": "cell", "number": "call me"}, "content.phones.0"},
		{TypeVCard, "phones.0", map[string]any{"type": "pager", "number": "+1 555 0100"}, "content.phones.0"},
		{TypeVCard, "emails.0", map[string]any{"type": "work", "address": "not-an-address"}, "content.emails.0"},
		{TypeVCard, "emails.0", map[string]any{"type": "work", "address": "Ada <ada@example.com>"}, "content.emails.0"},
		{TypeVCard, "website", "javascript:alert(1)", "content.website"},
		{TypeVCard, "website", "tel:+15551234567", "content.website"},
		{TypeVCard, "address.city", long, "content.address.city"},
		{TypeVCard, "address.postalCode", strings.Repeat("9", 21), "content.address.postalCode"},
		{TypeVCard, "socials.0.url", "ftp://example.com", "content.socials.0.url"},
		{TypeVCard, "socials.0.network", "<b>", "content.socials.0.network"},
		{TypeVCard, "note", longText, "content.note"},
		{TypeVCard, "jobTitle", "a\x00b", "content.jobTitle"},
		{TypeVCard, "phones", "+1 555", "content.phones"},
		{TypeLinks, "links", []any{}, "content.links"},
		{TypeLinks, "links.1.url", "javascript:alert(1)", "content.links.1.url"},
		{TypeLinks, "links.1.url", "data:text/html,hi", "content.links.1.url"},
		{TypeLinks, "links.1.url", "https://", "content.links.1.url"},
		{TypeLinks, "links.1.url", "mailto:nobody", "content.links.1.url"},
		{TypeLinks, "links.1.url", "https://a.test/x y", "content.links.1.url"},
		{TypeLinks, "links.0.label", "", "content.links.0.label"},
		{TypeLinks, "bio", longText, "content.bio"},
		{TypeLinks, "avatarUrl", "/logo/1", "content.avatarUrl"},
		{TypeMenu, "items.1.price", "twelve", "content.items.1.price"},
		{TypeMenu, "items.1.price", "12.345", "content.items.1.price"},
		{TypeMenu, "items.1.currency", "euro", "content.items.1.currency"},
		{TypeMenu, "items.1.currency", "", "content.items.1.currency"},
		{TypeMenu, "items.0.name", "", "content.items.0.name"},
		{TypeMenu, "items.0.dietary", []any{"vegan", "paleo"}, "content.items.0.dietary.1"},
		{TypeMenu, "files.0.url", "https://elsewhere.test/menu.pdf", "content.files.0.url"},
		{TypeMenu, "items.1.price", 12, "content.items.price"},
		{TypeGallery, "images", []any{}, "content.images"},
		{TypeGallery, "images.1.url", "https://elsewhere.test/a.jpg", "content.images.1.url"},
		{TypeGallery, "images.0.caption", long, "content.images.0.caption"},
		{TypeCoupon, "code", "", "content.code"},
		{TypeCoupon, "headline", "", "content.headline"},
		{TypeCoupon, "validUntil", "31/12/2026", "content.validUntil"},
		{TypeCoupon, "timeZone", "Mars/Olympus", "content.timeZone"},
		{TypeCoupon, "terms", longText, "content.terms"},
		{TypeEvent, "start", "2026-03-28 22:00", "content.start"},
		{TypeEvent, "end", "2026-03-28T21:00", "content.end"},
		{TypeEvent, "timeZone", "", "content.timeZone"},
		{TypeEvent, "timeZone", "Local", "content.timeZone"},
		{TypeEvent, "title", "", "content.title"},
		{TypeApp, "appStoreUrl", "itms-apps://x", "content.appStoreUrl"},
		{TypeApp, "googlePlayUrl", "market://details?id=x", "content.googlePlayUrl"},
		{TypeApp, "name", "", "content.name"},
		{TypeBusiness, "hours.mon.0.open", "8am", "content.hours.mon.0.open"},
		{TypeBusiness, "hours.mon.0.close", "25:00", "content.hours.mon.0.close"},
		{TypeBusiness, "hours.funday", []any{}, "content.hours.funday"},
		{TypeBusiness, "phone", "ring", "content.phone"},
		{TypeBusiness, "email", "x@", "content.email"},
		{TypeBusiness, "links.0.url", "javascript:alert(1)", "content.links.0.url"},
		{TypeBusiness, "timeZone", "Nowhere/Land", "content.timeZone"},
		{TypeBusiness, "timeZone", "Factory", "content.timeZone"},
		{TypeCoupon, "timeZone", "posixrules", "content.timeZone"},
		{TypeEvent, "timeZone", "right/Europe/Paris", "content.timeZone"},
		{TypeEvent, "timeZone", "localtime", "content.timeZone"},
		{TypeBusiness, "unknownField", 1, "content"},
	}
	for _, c := range cases {
		raw := withMember(t, c.typ, c.member, c.value)
		_, err := Build(Input{Type: c.typ, Title: "T", Content: raw}, opt)
		var e Errors
		if !errors.As(err, &e) {
			t.Errorf("%s %s=%v: err = %v, want Errors", c.typ, c.member, c.value, err)
			continue
		}
		if _, ok := e[c.want]; !ok {
			t.Errorf("%s %s=%v: errors %v, want one at %s", c.typ, c.member, c.value, e, c.want)
		}
	}
	// Too many entries.
	many := make([]any, MaxLinks+1)
	for i := range many {
		many[i] = map[string]any{"label": "L", "url": "https://a.test"}
	}
	if _, err := Build(Input{Type: TypeLinks, Title: "T", Content: withMember(t, TypeLinks, "links", many)}, opt); err == nil || !strings.Contains(err.Error(), "content.links:") {
		t.Errorf("51 links: %v", err)
	}
	imgs := make([]any, MaxImages+1)
	for i := range imgs {
		imgs[i] = map[string]any{"url": "/images/1"}
	}
	if _, err := Build(Input{Type: TypeGallery, Title: "T", Content: withMember(t, TypeGallery, "images", imgs)}, opt); err == nil || !strings.Contains(err.Error(), "content.images:") {
		t.Errorf("31 images: %v", err)
	}
	// The page's own fields.
	for _, c := range []struct {
		in   Input
		want string
	}{
		{Input{Type: "blog", Title: "T", Content: json.RawMessage(`{}`)}, "type"},
		{Input{Type: TypeLinks, Title: "", Content: json.RawMessage(samples[TypeLinks])}, "title"},
		{Input{Type: TypeLinks, Title: "T", Slug: "A B", Content: json.RawMessage(samples[TypeLinks])}, "slug"},
		{Input{Type: TypeLinks, Title: "T", Slug: "-ab", Content: json.RawMessage(samples[TypeLinks])}, "slug"},
		{Input{Type: TypeLinks, Title: "T", Language: "english!", Content: json.RawMessage(samples[TypeLinks])}, "language"},
		{Input{Type: TypeLinks, Title: "T", Theme: &Theme{FgColor: "red"}, Content: json.RawMessage(samples[TypeLinks])}, "theme.fgColor"},
		{Input{Type: TypeLinks, Title: "T", Theme: &Theme{AccentColor: "#12345g"}, Content: json.RawMessage(samples[TypeLinks])}, "theme.accentColor"},
		{Input{Type: TypeLinks, Title: "T", Theme: &Theme{LogoURL: "https://x.test/l.png"}, Content: json.RawMessage(samples[TypeLinks])}, "theme.logoUrl"},
		{Input{Type: TypeLinks, Title: "T"}, "content"},
		{Input{Type: TypeLinks, Title: "T", Content: json.RawMessage(`[1]`)}, "content"},
		{Input{Type: TypeLinks, Title: "T", Content: json.RawMessage(`{"links":[]} {}`)}, "content"},
	} {
		_, err := Build(c.in, opt)
		var e Errors
		if !errors.As(err, &e) || e[c.want] == "" {
			t.Errorf("%+v: %v, want an error at %s", c.in, err, c.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, ok := range []string{"https://a.test/x?y=1", "http://a.test", "tel:+15551234567", "mailto:a@b.test", "mailto:a@b.test?subject=hi", "sms:+15551234567", "HTTPS://A.TEST"} {
		if msg := CheckURL(ok, false); msg != "" {
			t.Errorf("%s: %s", ok, msg)
		}
	}
	if msg := CheckURL("https://a.test/"+strings.Repeat("é", MaxURL/2), false); msg != "at most 2000 bytes" {
		t.Errorf("a URL of %d bytes: %q", MaxURL+16, msg)
	}
	for _, bad := range []string{"javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "ftp://a.test", "//a.test", "a.test", "https://user:pw@a.test", "tel:call-me", "file:///etc/passwd", "https://a.test/\u202e"} {
		if msg := CheckURL(bad, false); msg == "" {
			t.Errorf("%s passed", bad)
		}
	}
}

func TestEscaping(t *testing.T) {
	evil := "<script>alert(1)</script>"
	for _, typ := range Types {
		var m map[string]any
		json.Unmarshal([]byte(samples[typ]), &m)
		for k, v := range m {
			if s, ok := v.(string); ok && !strings.HasSuffix(k, "Url") && k != "timeZone" && k != "start" && k != "end" && k != "validUntil" && k != "website" && k != "phone" && k != "email" && s != "" {
				m[k] = evil
			}
		}
		raw, _ := json.Marshal(m)
		p, err := Build(Input{Type: typ, Title: evil, Content: raw}, opt)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		p.Slug = "x-page"
		html, err := Render(p, View{Base: "/p/x-page", Now: time.Now(), Reveal: true, Opt: opt})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(html, []byte("<script")) {
			t.Errorf("%s: a <script> reached the page:\n%s", typ, html)
		}
		if !bytes.Contains(html, []byte("&lt;script&gt;alert(1)&lt;/script&gt;")) {
			t.Errorf("%s: the title is not shown as text", typ)
		}
	}
}

func TestRenderBasics(t *testing.T) {
	for _, typ := range Types {
		p := build(t, typ, samples[typ])
		p.Language = "fr"
		html, err := Render(p, View{Base: "/p/my-page", Now: time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC), Opt: opt})
		if err != nil {
			t.Fatal(err)
		}
		s := string(html)
		if !strings.Contains(s, `<html lang="fr">`) {
			t.Errorf("%s: lang not set", typ)
		}
		// No third-party request: no src, srcset or stylesheet off the site.
		for _, bad := range []string{`src="http`, `srcset="http`, `<link`, `<script`, "@import", "url(http"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s: page holds %q", typ, bad)
			}
		}
		// Each outbound button goes through /go/n.
		for i := range Buttons(p) {
			if typ != TypeVCard && typ != TypeMenu && !strings.Contains(s, fmt.Sprintf(`/p/my-page/go/%d"`, i)) {
				t.Errorf("%s: button %d (%+v) not linked", typ, i, Buttons(p)[i])
			}
		}
	}
	p := build(t, TypeCoupon, samples[TypeCoupon])
	before, _ := Render(p, View{Base: "/p/my-page", Now: time.Date(2026, 12, 31, 22, 0, 0, 0, time.UTC), Opt: opt})
	if bytes.Contains(before, []byte("SAVE10")) || !bytes.Contains(before, []byte(`name="show" value="code"`)) {
		t.Errorf("the code shows before Show code:\n%s", before)
	}
	shown, _ := Render(p, View{Base: "/p/my-page", Now: time.Date(2026, 12, 31, 22, 0, 0, 0, time.UTC), Reveal: true, Opt: opt})
	if !bytes.Contains(shown, []byte("SAVE10")) {
		t.Error("Show code does not show the code")
	}
	// 31 December ends at midnight in Paris: 23:00 UTC.
	ended, _ := Render(p, View{Base: "/p/my-page", Now: time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC), Reveal: true, Opt: opt})
	if bytes.Contains(ended, []byte("SAVE10")) || !bytes.Contains(ended, []byte("offer has ended")) {
		t.Errorf("an ended offer:\n%s", ended)
	}
	static, _ := Render(p, View{Static: true, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Opt: opt})
	if !bytes.Contains(static, []byte("<details>")) {
		t.Error("the static coupon has no details to show its code")
	}
}

func TestSizeBudget(t *testing.T) {
	// The largest pages the bounds allow, less images: 20 KB gzipped.
	links := make([]any, MaxLinks)
	for i := range links {
		links[i] = map[string]any{"label": strings.Repeat("Link label ", 10)[:MaxTitle-10] + fmt.Sprint(i), "url": fmt.Sprintf("https://example.com/%d/%s", i, strings.Repeat("p", 60))}
	}
	big := map[string]json.RawMessage{TypeLinks: withMember(t, TypeLinks, "links", links)}
	items := make([]any, 120)
	for i := range items {
		items[i] = map[string]any{"section": fmt.Sprint("Section ", i/10), "name": fmt.Sprint("Dish number ", i), "description": "Slow-cooked with herbs from the garden and served with bread", "price": "12.50", "currency": "EUR", "dietary": []any{"vegan", "gluten-free"}}
	}
	big[TypeMenu] = withMember(t, TypeMenu, "items", items)
	for _, typ := range Types {
		raw := big[typ]
		if raw == nil {
			raw = json.RawMessage(samples[typ])
		}
		p, err := Build(Input{Type: typ, Title: "T", Content: raw}, opt)
		if err != nil {
			t.Fatal(err)
		}
		p.Slug = "size"
		html, _ := Render(p, View{Base: "/p/size", Now: time.Now(), Opt: opt})
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		zw.Write(html)
		zw.Close()
		if buf.Len() > 20<<10 {
			t.Errorf("%s: %d bytes gzipped (%d raw), budget 20 KB", typ, buf.Len(), len(html))
		}
		t.Logf("%s: %d bytes raw, %d gzipped", typ, len(html), buf.Len())
	}
}

func TestOpenNow(t *testing.T) {
	h := Hours{
		"mon": {{Open: "09:00", Close: "17:00"}},
		"fri": {{Open: "18:00", Close: "02:00"}}, // past midnight
		"sat": {{Open: "10:00", Close: "12:00"}, {Open: "14:00", Close: "24:00"}},
	}
	for _, c := range []struct {
		zone string
		at   time.Time
		open bool
	}{
		// Monday 1 June 2026: Paris is UTC+2, New York UTC-4.
		{"Europe/Paris", time.Date(2026, 6, 1, 6, 59, 0, 0, time.UTC), false},
		{"Europe/Paris", time.Date(2026, 6, 1, 7, 0, 0, 0, time.UTC), true},
		{"Europe/Paris", time.Date(2026, 6, 1, 14, 59, 0, 0, time.UTC), true},
		{"Europe/Paris", time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC), false},
		{"America/New_York", time.Date(2026, 6, 1, 7, 0, 0, 0, time.UTC), false}, // 03:00 there
		{"America/New_York", time.Date(2026, 6, 1, 13, 0, 0, 0, time.UTC), true},
		{"America/New_York", time.Date(2026, 6, 1, 21, 30, 0, 0, time.UTC), false},
		// Friday night into Saturday.
		{"America/New_York", time.Date(2026, 6, 6, 5, 30, 0, 0, time.UTC), true}, // Sat 01:30
		{"America/New_York", time.Date(2026, 6, 6, 6, 0, 0, 0, time.UTC), false}, // Sat 02:00
		{"Europe/Paris", time.Date(2026, 6, 5, 22, 0, 0, 0, time.UTC), true},     // Sat 00:00
		{"Europe/Paris", time.Date(2026, 6, 6, 21, 59, 0, 0, time.UTC), true},    // Sat 23:59
		{"Europe/Paris", time.Date(2026, 6, 6, 11, 0, 0, 0, time.UTC), false},    // Sat 13:00
		// Winter: Paris UTC+1.
		{"Europe/Paris", time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC), true},
		{"Europe/Paris", time.Date(2026, 1, 5, 16, 30, 0, 0, time.UTC), false},
	} {
		open, known := h.OpenAt(c.zone, c.at)
		if !known || open != c.open {
			t.Errorf("%s at %s: open %v known %v, want %v", c.zone, c.at, open, known, c.open)
		}
	}
	if _, known := (Hours{}).OpenAt("Europe/Paris", time.Now()); known {
		t.Error("no hours: known")
	}
	// And on the page, through the injected clock.
	p := build(t, TypeBusiness, samples[TypeBusiness])
	open, _ := Render(p, View{Base: "/p/b", Now: time.Date(2026, 6, 1, 7, 0, 0, 0, time.UTC), Opt: opt})
	closed, _ := Render(p, View{Base: "/p/b", Now: time.Date(2026, 6, 1, 16, 0, 0, 0, time.UTC), Opt: opt})
	if !bytes.Contains(open, []byte("Open now")) || !bytes.Contains(closed, []byte("Closed now")) {
		t.Error("the page does not say Open now / Closed now by the clock")
	}
}

func TestStoreRedirect(t *testing.T) {
	p := build(t, TypeApp, samples[TypeApp])
	if got := StoreRedirect(p, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"); !strings.HasPrefix(got, "https://apps.apple.com") {
		t.Errorf("iPhone: %q", got)
	}
	if got := StoreRedirect(p, "Mozilla/5.0 (Linux; Android 14; Pixel 8)"); !strings.HasPrefix(got, "https://play.google.com") {
		t.Errorf("Android: %q", got)
	}
	if got := StoreRedirect(p, "Mozilla/5.0 (X11; Linux x86_64)"); got != "" {
		t.Errorf("desktop: %q", got)
	}
}

func python(t *testing.T, module, script string, args ...string) string {
	t.Helper()
	// Debian's python3 has the module when the one on PATH (pyenv) has not.
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import "+module).Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 %s is missing (apt-get install python3-%s)", module, module)
		}
		t.Skipf("python3 %s is missing", module)
	}
	out, err := exec.Command(py, append([]string{"-c", script}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	return string(out)
}

// A 1×1 PNG.
var pngPixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")

func TestVCardParsedByVobject(t *testing.T) {
	v := &VCardContent{
		FirstName: "Дмитрий", LastName: "Шостакович-山田; \"Jr\", \\ 太郎", JobTitle: "Composer, pianist",
		Company: "Союз композиторов", Phones: []Phone{{Type: "cell", Number: "+7 495 123-45-67"}},
		Emails: []Email{{Type: "work", Address: "d@example.com"}}, Website: "https://example.com",
		Address: Address{Street: "Ул. Тверская, 1", City: "Москва", Country: "Россия"},
		Note:    strings.Repeat("Длинная заметка; со всеми, знаками\n", 8),
	}
	dir := t.TempDir()
	for _, ver := range []string{"3.0", "4.0"} {
		card := VCard(v, ver, &Photo{Data: pngPixel, ContentType: "image/png"})
		for _, line := range strings.Split(string(card), "\r\n") {
			if len(line) > 75 {
				t.Errorf("%s: a line of %d octets", ver, len(line))
			}
		}
		f := filepath.Join(dir, "c"+ver+".vcf")
		os.WriteFile(f, card, 0o600)
		out := python(t, "vobject", `
import sys, vobject, vobject.base, base64, json
c = vobject.readOne(open(sys.argv[1], encoding="utf-8").read())
photo = c.photo.value
if isinstance(photo, str):
    # vobject reads every card as 3.0, whose text values split at commas;
    # a 4.0 PHOTO is a data: URI (RFC 6350 6.2.4), read from its content line.
    for line, n in vobject.base.getLogicalLines(open(sys.argv[1], encoding="utf-8")):
        name, params, value, group = vobject.base.parseLine(line, n)
        if name == "PHOTO":
            assert value.startswith("data:image/png;base64,"), value[:40]
            photo = base64.b64decode(value.split(",", 1)[1])
print(json.dumps({"version": c.version.value, "fn": c.fn.value, "family": c.n.value.family, "given": c.n.value.given,
  "org": c.org.value, "title": c.title.value, "tel": c.tel.value, "email": c.email.value, "note": c.note.value,
  "city": c.adr.value.city, "street": c.adr.value.street, "photo": base64.b64encode(photo).decode()}, ensure_ascii=False))
`, f)
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", ver, err, out)
		}
		want := map[string]any{
			"version": ver, "fn": v.FirstName + " " + v.LastName, "family": v.LastName, "given": v.FirstName,
			"title": v.JobTitle, "email": "d@example.com", "note": v.Note, "city": "Москва", "street": v.Address.Street,
			"photo": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==",
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s = %q, want %q", ver, k, got[k], w)
			}
		}
		if org, _ := got["org"].([]any); len(org) != 1 || org[0] != v.Company {
			t.Errorf("%s: org = %v", ver, got["org"])
		}
		if tel := got["tel"].(string); !strings.Contains(tel, "4951234567") && !strings.Contains(tel, "495 123-45-67") {
			t.Errorf("%s: tel = %q", ver, tel)
		}
	}
}

func TestICSParsedByIcalendarAcrossDST(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		e                  EventContent
		startUTC, endUTC   string
		hoursLong          float64
		dstStart, dstAfter bool
	}{
		// Paris springs forward at 02:00 on 29 March 2026: 22:00 CET to 04:00 CEST is 5 hours.
		{EventContent{Title: "Nuit; blanche, \\ ok", Start: "2026-03-28T22:00", End: "2026-03-29T04:00", TimeZone: "Europe/Paris", Venue: "Salle", Description: "Line 1\nLine 2"},
			"2026-03-28 21:00:00+00:00", "2026-03-29 02:00:00+00:00", 5, false, true},
		// New York falls back at 02:00 on 1 November 2026: 00:30 EDT to 03:30 EST is 4 hours.
		{EventContent{Title: "Late show", Start: "2026-11-01T00:30", End: "2026-11-01T03:30", TimeZone: "America/New_York"},
			"2026-11-01 04:30:00+00:00", "2026-11-01 08:30:00+00:00", 4, true, false},
		{EventContent{Title: "UTC", Start: "2026-07-01T10:00", End: "2026-07-01T11:00", TimeZone: "UTC"},
			"2026-07-01 10:00:00+00:00", "2026-07-01 11:00:00+00:00", 1, false, false},
	} {
		ics, err := ICS(&c.e, "p-1@sq.test", "https://sq.test/p/x", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "e.ics")
		os.WriteFile(f, ics, 0o600)
		out := python(t, "icalendar", `
import sys, json, datetime
from icalendar import Calendar
cal = Calendar.from_ical(open(sys.argv[1], "rb").read())
ev = [c for c in cal.walk("VEVENT")][0]
s, e = ev.decoded("DTSTART"), ev.decoded("DTEND")
utc = datetime.timezone.utc
print(json.dumps({"summary": str(ev["SUMMARY"]), "description": str(ev.get("DESCRIPTION", "")),
  "start": str(s.astimezone(utc)), "end": str(e.astimezone(utc)), "hours": (e - s).total_seconds() / 3600,
  "tzs": [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")]}))
`, f)
		var got struct {
			Summary, Description, Start, End string
			Hours                            float64
			TZs                              []string
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if got.Summary != c.e.Title || got.Description != c.e.Description || got.Start != c.startUTC || got.End != c.endUTC || got.Hours != c.hoursLong {
			t.Errorf("%s: parsed %+v\nwant start %s end %s, %v hours\n%s", c.e.TimeZone, got, c.startUTC, c.endUTC, c.hoursLong, ics)
		}
		if c.e.TimeZone != "UTC" && (len(got.TZs) != 1 || got.TZs[0] != c.e.TimeZone) {
			t.Errorf("%s: VTIMEZONEs %v", c.e.TimeZone, got.TZs)
		}
		if c.e.TimeZone != "UTC" {
			checkVTimezone(t, &c.e, ics)
		}
		// The VTIMEZONE itself, read by our own clock: the offset in force
		// at the start and at the end must be Go's.
		loc, _ := time.LoadLocation(c.e.TimeZone)
		s, _ := parseLocal(c.e.Start)
		e, _ := parseLocal(c.e.End)
		if inZone(s, loc).IsDST() != c.dstStart || inZone(e, loc).IsDST() != c.dstAfter {
			t.Errorf("%s: test case DST flags wrong", c.e.TimeZone)
		}
	}
	g := GoogleCalendarURL(&EventContent{Title: "A&B", Start: "2026-03-28T22:00", End: "2026-03-29T04:00", TimeZone: "Europe/Paris"}, "")
	if !strings.Contains(g, "dates=20260328T220000%2F20260329T040000") || !strings.Contains(g, "ctz=Europe%2FParis") || !strings.Contains(g, "text=A%26B") {
		t.Errorf("Google Calendar link: %s", g)
	}
}

// An event after 2040 in a zone with DST: Go's ZoneBounds may answer an
// end that does not advance there (past the zone's listed transitions),
// and building the VTIMEZONE looped for ever, growing the file until the
// process ran out of memory. Its VTIMEZONE must list exactly the offset
// changes an hour-by-hour scan of the zone finds in the event's first and
// last years, and give its start and end Go's offsets.
func TestICSAfter2040(t *testing.T) {
	for _, e := range []EventContent{
		{Title: "New year", Start: "2041-12-31T22:00", End: "2042-01-01T02:00", TimeZone: "Europe/Paris"},
		{Title: "Late show", Start: "2045-11-05T00:30", End: "2045-11-05T03:30", TimeZone: "America/New_York"},
		{Title: "Summer", Start: "2050-12-30T10:00", End: "2051-01-02T10:00", TimeZone: "Australia/Sydney"},
		{Title: "Years", Start: "2041-07-01T10:00", End: "2049-01-15T10:00", TimeZone: "Europe/Paris"},
	} {
		done := make(chan []byte, 1)
		go func() {
			ics, err := ICS(&e, "p-1@sq.test", "", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			if err != nil {
				t.Error(err)
			}
			done <- ics
		}()
		var ics []byte
		select {
		case ics = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s %s: ICS did not return in 5 s", e.TimeZone, e.Start)
		}
		checkVTimezone(t, &e, ics)
		loc, _ := time.LoadLocation(e.TimeZone)
		s, _ := parseLocal(e.Start)
		en, _ := parseLocal(e.End)
		years := [][2]int{{s.Year(), en.Year()}}
		if en.Year() > s.Year()+1 {
			years = [][2]int{{s.Year(), s.Year()}, {en.Year(), en.Year()}}
		}
		var want []string
		for i, y := range years {
			from, to := time.Date(y[0], 1, 1, 0, 0, 0, 0, loc), time.Date(y[1]+1, 1, 1, 0, 0, 0, 0, loc)
			if i > 0 {
				want = append(want, from.UTC().Format(time.RFC3339)) // the last year's 1 January
			}
			_, prev := from.Zone()
			for u := from.Add(time.Hour); u.Before(to); u = u.Add(time.Hour) {
				if _, off := u.Zone(); off != prev {
					want = append(want, u.UTC().Format(time.RFC3339))
					prev = off
				}
			}
		}
		// Our VTIMEZONE's changes: each observance's onset after the first.
		var got []string
		for _, o := range observances(ics) {
			got = append(got, o.onset.Format(time.RFC3339))
		}
		if len(got) == 0 || fmt.Sprint(got[1:]) != fmt.Sprint(want) {
			t.Errorf("%s %s: VTIMEZONE changes %v, want %v\n%s", e.TimeZone, e.Start, got, want, ics)
		}
	}
}

type readObservance struct {
	onset time.Time // its DTSTART, a wall clock in its TZOFFSETFROM, as an instant
	to    int       // TZOFFSETTO, in seconds
	dst   bool
}

// observances reads ics's VTIMEZONE's STANDARD and DAYLIGHT components.
func observances(ics []byte) []readObservance {
	seconds := func(v string) int {
		sign := 1
		if v[0] == '-' {
			sign = -1
		}
		n := 0
		for i := 1; i+2 <= len(v); i += 2 {
			d, _ := strconv.Atoi(v[i : i+2])
			n += d * []int{3600, 60, 1}[i/2]
		}
		return sign * n
	}
	var list []readObservance
	var cur readObservance
	var wall time.Time
	for _, line := range strings.Split(string(ics), "\r\n") {
		switch k, v, _ := strings.Cut(line, ":"); k {
		case "BEGIN":
			cur = readObservance{dst: v == "DAYLIGHT"}
		case "DTSTART":
			wall, _ = time.Parse("20060102T150405", v)
		case "TZOFFSETFROM":
			cur.onset = wall.Add(-time.Duration(seconds(v)) * time.Second)
		case "TZOFFSETTO":
			cur.to = seconds(v)
		case "END":
			if v == "STANDARD" || v == "DAYLIGHT" {
				list = append(list, cur)
			}
		}
	}
	return list
}

// checkVTimezone reads ics's VTIMEZONE by our own clock: the offset in
// force at the event's start and at its end, and whether it is DST, must
// be Go's.
func checkVTimezone(t *testing.T, e *EventContent, ics []byte) {
	t.Helper()
	list := observances(ics)
	loc, _ := time.LoadLocation(e.TimeZone)
	s, _ := parseLocal(e.Start)
	en, _ := parseLocal(e.End)
	for _, at := range []time.Time{inZone(s, loc), inZone(en, loc)} {
		var in *readObservance
		for i := range list {
			if !list[i].onset.After(at) && (in == nil || list[i].onset.After(in.onset)) {
				in = &list[i]
			}
		}
		if _, off := at.Zone(); in == nil || in.to != off || in.dst != at.IsDST() {
			t.Errorf("%s %s–%s: at %s the VTIMEZONE gives %+v, Go %d (DST %v)\n%s", e.TimeZone, e.Start, e.End, at, in, off, at.IsDST(), ics)
		}
	}
}

// An event from year 1 to 9999 (saved before its years were checked): its
// VTIMEZONE listed every change between, 1.7 MB, built anew for each
// download (in a third of a second). It holds the event's first and last
// years, gives DTSTART and DTEND their offsets, and the file parses.
func TestICSLongEventIsSmall(t *testing.T) {
	dir := t.TempDir()
	for _, zone := range []string{"Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Tokyo"} {
		// The first as saved; the second within what pytz can localize
		// (it overflows a day either side), for python3-icalendar.
		for i, e := range []EventContent{
			{Title: "Forever", Start: "0001-01-01T00:00", End: "9999-12-31T23:59", TimeZone: zone},
			{Title: "Forever", Start: "0001-01-02T12:00", End: "9999-12-30T12:00", TimeZone: zone},
		} {
			began := time.Now()
			ics, err := ICS(&e, "p-1@sq.test", "https://sq.test/p/x", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			if len(ics) > 2<<10 {
				t.Errorf("%s %s–%s: %d bytes in %v, want at most 2 KB", zone, e.Start, e.End, len(ics), time.Since(began))
			}
			checkVTimezone(t, &e, ics)
			if i == 0 {
				continue
			}
			f := filepath.Join(dir, "e.ics")
			os.WriteFile(f, ics, 0o600)
			out := python(t, "icalendar", `
import sys, json
from icalendar import Calendar
cal = Calendar.from_ical(open(sys.argv[1], "rb").read())
ev = [c for c in cal.walk("VEVENT")][0]
s, e = ev.decoded("DTSTART"), ev.decoded("DTEND")
print(json.dumps({"start": s.replace(tzinfo=None).isoformat(), "end": e.replace(tzinfo=None).isoformat(),
  "tzs": [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")],
  "errors": [str(c.errors) for c in cal.walk() if c.errors]}))
`, f)
			var got struct {
				Start, End  string
				TZs, Errors []string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got.Start != "0001-01-02T12:00:00" || got.End != "9999-12-30T12:00:00" || len(got.TZs) != 1 || got.TZs[0] != zone || len(got.Errors) > 0 {
				t.Errorf("%s: parsed %+v\n%s", zone, got, ics)
			}
		}
	}
}

// An event's start and end must lie in the years 1900 to 2100: one from
// year 1 to 9999 was saved (its calendar file then listed 8,000 years of
// summer-time changes).
func TestEventYears(t *testing.T) {
	for _, c := range []struct {
		start, end string
		want       map[string]string
	}{
		{"0001-01-01T00:00", "9999-12-31T23:59", map[string]string{
			"content.start": "start must be in the years 1900 to 2100", "content.end": "end must be in the years 1900 to 2100"}},
		{"1899-12-31T23:00", "1900-01-01T01:00", map[string]string{"content.start": "start must be in the years 1900 to 2100"}},
		{"2100-12-31T23:00", "2101-01-01T01:00", map[string]string{"content.end": "end must be in the years 1900 to 2100"}},
		{"1900-01-01T00:00", "2100-12-31T23:59", nil},
	} {
		raw, _ := json.Marshal(map[string]string{"title": "Launch", "start": c.start, "end": c.end, "timeZone": "Europe/Paris"})
		_, err := Build(Input{Type: TypeEvent, Title: "T", Content: raw}, opt)
		var got Errors
		if err != nil && !errors.As(err, &got) {
			t.Fatalf("%s–%s: %v", c.start, c.end, err)
		}
		if fmt.Sprint(map[string]string(got)) != fmt.Sprint(c.want) {
			t.Errorf("%s–%s: errors %v, want %v", c.start, c.end, map[string]string(got), c.want)
		}
	}
}

// An event's start or end at a local time its zone skips (the clocks go
// forward over it) is refused on its field, naming the change: such a
// time was saved, and calendars each read it their own way. The times
// either side of the gap, and a time the clocks go back over (it exists,
// twice), are taken.
func TestEventSkippedTimes(t *testing.T) {
	for _, c := range []struct {
		zone, start, end string
		want             map[string]string
	}{
		{"Europe/Berlin", "2026-03-29T02:30", "2026-03-29T04:00", map[string]string{
			"content.start": "start does not exist in Europe/Berlin: clocks go forward from 02:00 to 03:00 on 2026-03-29"}},
		{"Europe/Berlin", "2026-03-28T20:00", "2026-03-29T02:00", map[string]string{
			"content.end": "end does not exist in Europe/Berlin: clocks go forward from 02:00 to 03:00 on 2026-03-29"}},
		{"America/New_York", "2026-03-08T02:30", "2026-03-08T02:59", map[string]string{
			"content.start": "start does not exist in America/New_York: clocks go forward from 02:00 to 03:00 on 2026-03-08",
			"content.end":   "end does not exist in America/New_York: clocks go forward from 02:00 to 03:00 on 2026-03-08"}},
		{"America/New_York", "2026-03-07T22:00", "2026-03-08T02:00", map[string]string{
			"content.end": "end does not exist in America/New_York: clocks go forward from 02:00 to 03:00 on 2026-03-08"}},
		{"Europe/Berlin", "2026-03-29T01:59", "2026-03-29T03:00", nil},
		{"America/New_York", "2026-03-08T01:59", "2026-03-08T03:00", nil},
		{"Europe/Berlin", "2026-10-25T02:30", "2026-10-25T02:45", nil},
		{"America/New_York", "2026-11-01T01:30", "2026-11-01T01:45", nil},
		{"Europe/Berlin", "2026-03-30T02:30", "2026-03-30T03:30", nil},
	} {
		raw, _ := json.Marshal(map[string]string{"title": "Launch", "start": c.start, "end": c.end, "timeZone": c.zone})
		_, err := Build(Input{Type: TypeEvent, Title: "T", Content: raw}, opt)
		var got Errors
		if err != nil && !errors.As(err, &got) {
			t.Fatalf("%s %s–%s: %v", c.zone, c.start, c.end, err)
		}
		if fmt.Sprint(map[string]string(got)) != fmt.Sprint(c.want) {
			t.Errorf("%s %s–%s: errors %v, want %v", c.zone, c.start, c.end, map[string]string(got), c.want)
		}
	}
}

// A coupon's validUntil given as a local time is refused, as an event's
// times are, when its zone skips it.
func TestCouponSkippedTime(t *testing.T) {
	for until, want := range map[string]string{
		"2026-03-29T02:30": "validUntil does not exist in Europe/Berlin: clocks go forward from 02:00 to 03:00 on 2026-03-29",
		"2026-03-29T03:00": "",
		"2026-03-29":       "",
	} {
		raw, _ := json.Marshal(map[string]string{"headline": "10% off", "code": "SAVE10", "validUntil": until, "timeZone": "Europe/Berlin"})
		_, err := Build(Input{Type: TypeCoupon, Title: "T", Content: raw}, opt)
		var got Errors
		if err != nil && !errors.As(err, &got) {
			t.Fatalf("%s: %v", until, err)
		}
		if got["content.validUntil"] != want {
			t.Errorf("%s: errors %v, want %q", until, map[string]string(got), want)
		}
	}
}
