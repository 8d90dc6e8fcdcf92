package pages

import (
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/zones"
)

// checker gathers a page's problems by field path; the first problem of a
// path is kept.
type checker struct {
	errs Errors
	opt  Options
}

func (c *checker) fail(path, msg string) {
	if _, ok := c.errs[path]; !ok {
		c.errs[path] = msg
	}
}

// text checks a text field: valid UTF-8, no control characters but line
// breaks and tabs, at most max runes, present when required.
func (c *checker) text(path, s string, max int, required bool) {
	switch {
	case required && strings.TrimSpace(s) == "":
		c.fail(path, "this field is required")
	case !utf8.ValidString(s):
		c.fail(path, "text must be valid UTF-8")
	case utf8.RuneCountInString(s) > max:
		c.fail(path, fmt.Sprintf("at most %d characters", max))
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }):
		c.fail(path, "text must not hold control characters")
	}
}

func (c *checker) max(path string, n, max int) {
	if n > max {
		c.fail(path, fmt.Sprintf("at most %d entries", max))
	}
}

// Link schemes: what a page's buttons may open.
var linkSchemes = []string{"http", "https", "tel", "mailto", "sms"}

// CheckURL is why s may not be a link on a page ("" when it may): http(s)
// with a host, or tel:, mailto:, sms:. web limits it to http(s).
func CheckURL(s string, web bool) string {
	if len(s) > MaxURL {
		return fmt.Sprintf("at most %d bytes", MaxURL)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || !unicode.IsPrint(r) }) || !utf8.ValidString(s) {
		return "a URL must not hold spaces or control characters"
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return "must be a full URL such as https://example.com"
	}
	scheme := strings.ToLower(u.Scheme)
	if web && scheme != "http" && scheme != "https" {
		return "must be an http or https URL"
	}
	if !slices.Contains(linkSchemes, scheme) {
		return "links may be http(s), tel:, mailto: or sms: URLs only"
	}
	switch scheme {
	case "http", "https":
		if u.Host == "" || u.Opaque != "" || u.User != nil {
			return "must be a full URL such as https://example.com"
		}
	case "tel", "sms":
		num := u.Opaque
		if i := strings.IndexAny(num, "?;"); i >= 0 {
			num = num[:i]
		}
		if !phonePattern.MatchString(num) {
			return "must be tel: or sms: and a phone number"
		}
	case "mailto":
		addr := u.Opaque
		if i := strings.IndexByte(addr, '?'); i >= 0 {
			addr = addr[:i]
		}
		if a, err := url.PathUnescape(addr); err != nil || !validEmail(a) {
			return "must be mailto: and an e-mail address"
		}
	}
	return ""
}

func (c *checker) web(path, s string, required bool) {
	if s == "" {
		if required {
			c.fail(path, "this field is required")
		}
		return
	}
	if msg := CheckURL(s, true); msg != "" {
		c.fail(path, msg)
	}
}

func (c *checker) link(path string, l *Link) {
	l.Label = strings.TrimSpace(l.Label)
	c.text(path+".label", l.Label, MaxTitle, true)
	if l.URL == "" {
		c.fail(path+".url", "this field is required")
	} else if msg := CheckURL(l.URL, false); msg != "" {
		c.fail(path+".url", msg)
	}
}

func (c *checker) image(path, s string) {
	if s == "" {
		return
	}
	if _, ok := c.opt.ImageRef(s); !ok {
		c.fail(path, "an image must be one of your uploaded images (POST /api/upload-image)")
	}
}

func (c *checker) phone(path string, p *Phone) {
	if p.Type == "" {
		p.Type = "cell"
	}
	if !slices.Contains(PhoneTypes, p.Type) {
		c.fail(path, "type must be one of "+strings.Join(PhoneTypes, ", "))
		return
	}
	if !phonePattern.MatchString(p.Number) {
		c.fail(path, "number must be a phone number such as +44 20 7946 0000")
	}
}

func validEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

func (c *checker) email(path string, e *Email) {
	if e.Type == "" {
		e.Type = "work"
	}
	if !slices.Contains(EmailTypes, e.Type) {
		c.fail(path, "type must be one of "+strings.Join(EmailTypes, ", "))
		return
	}
	if !validEmail(e.Address) {
		c.fail(path, "address must be an e-mail address")
	}
}

func (c *checker) address(path string, a *Address) {
	c.text(path+".street", a.Street, MaxTitle, false)
	c.text(path+".city", a.City, MaxShortText, false)
	c.text(path+".region", a.Region, MaxShortText, false)
	c.text(path+".postalCode", a.PostalCode, 20, false)
	c.text(path+".country", a.Country, MaxShortText, false)
}

func (c *checker) socials(path string, list []Social) {
	c.max(path, len(list), MaxList)
	for i, s := range list {
		p := fmt.Sprintf("%s.%d", path, i)
		if !networkPattern.MatchString(s.Network) {
			c.fail(p+".network", "network must be a name of at most 30 letters or digits")
		}
		c.web(p+".url", s.URL, true)
	}
}

// zone checks an IANA time zone name (zones.Check: one people live in;
// none is UTC when not required); nil when it is not one.
func (c *checker) zone(path, name string, required bool) *time.Location {
	if name == "" {
		if required {
			c.fail(path, "a time zone such as Europe/Paris is required")
			return nil
		}
		return time.UTC
	}
	loc, err := zones.Check(name)
	if err != nil {
		c.fail(path, "must be a time zone such as Europe/Paris")
		return nil
	}
	return loc
}

func (c *checker) theme(t *Theme) {
	for _, f := range []struct {
		path string
		v    *string
		def  string
	}{{"theme.fgColor", &t.FgColor, defaultFg}, {"theme.bgColor", &t.BgColor, defaultBg}, {"theme.accentColor", &t.AccentColor, defaultAccnt}} {
		if *f.v == "" {
			*f.v = f.def
		}
		if !colorPattern.MatchString(*f.v) {
			c.fail(f.path, "colours are #RRGGBB")
		}
		*f.v = strings.ToLower(*f.v)
	}
	c.image("theme.logoUrl", t.LogoURL)
	if t.BrandKitID != nil && *t.BrandKitID <= 0 {
		c.fail("theme.brandKitId", "brandKitId must be a brand kit's id")
	}
}

func (c *checker) hours(path string, h Hours) {
	for day, list := range h {
		p := path + "." + day
		if !slices.Contains(weekdays[:], day) {
			c.fail(p, "days are "+strings.Join(weekdays[:], ", "))
			continue
		}
		c.max(p, len(list), 4)
		for i, in := range list {
			q := fmt.Sprintf("%s.%d", p, i)
			if !clockPattern.MatchString(in.Open) || in.Open == "24:00" {
				c.fail(q+".open", "open must be a time HH:MM")
			}
			if !clockPattern.MatchString(in.Close) {
				c.fail(q+".close", "close must be a time HH:MM (24:00 for midnight)")
			}
			if in.Open == in.Close {
				c.fail(q+".close", "close must differ from open")
			}
		}
	}
}
