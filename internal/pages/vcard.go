package pages

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Photo is an image embedded in a vCard.
type Photo struct {
	Data        []byte
	ContentType string // image/jpeg, image/png, image/webp
}

// VCard is the contact card of v as a vCard file: version "4.0" (RFC 6350)
// or "3.0" (RFC 2426, for older phones), lines folded at 75 octets and
// ended by CRLF, the photo embedded when given.
func VCard(v *VCardContent, version string, photo *Photo) []byte {
	if version != "3.0" {
		version = "4.0"
	}
	var b vbuilder
	b.line("BEGIN:VCARD")
	b.line("VERSION:" + version)
	fn := strings.TrimSpace(v.FirstName + " " + v.LastName)
	b.line("FN:" + vEscape(fn))
	b.line("N:" + vEscape(v.LastName) + ";" + vEscape(v.FirstName) + ";;;")
	if v.Company != "" {
		b.line("ORG:" + vEscape(v.Company))
	}
	if v.JobTitle != "" {
		b.line("TITLE:" + vEscape(v.JobTitle))
	}
	for _, p := range v.Phones {
		t := p.Type
		if version == "3.0" && t == "cell" {
			t = "CELL"
		}
		if version == "4.0" {
			b.line("TEL;VALUE=uri;TYPE=" + t + ":tel:" + telNumber(p.Number))
		} else {
			b.line("TEL;TYPE=" + strings.ToUpper(t) + ":" + vEscape(p.Number))
		}
	}
	for _, e := range v.Emails {
		t := e.Type
		if version == "3.0" {
			t = "INTERNET," + strings.ToUpper(t)
		}
		b.line("EMAIL;TYPE=" + t + ":" + vEscape(e.Address))
	}
	if a := v.Address; a != (Address{}) {
		b.line("ADR;TYPE=" + map[bool]string{true: "work", false: "WORK"}[version == "4.0"] + ":;;" +
			vEscape(a.Street) + ";" + vEscape(a.City) + ";" + vEscape(a.Region) + ";" + vEscape(a.PostalCode) + ";" + vEscape(a.Country))
	}
	if v.Website != "" {
		b.line("URL:" + v.Website)
	}
	for _, s := range v.Socials {
		b.line("X-SOCIALPROFILE;TYPE=" + vParam(s.Network) + ":" + s.URL)
	}
	if v.Note != "" {
		b.line("NOTE:" + vEscape(v.Note))
	}
	if photo != nil && len(photo.Data) > 0 {
		data := base64.StdEncoding.EncodeToString(photo.Data)
		if version == "4.0" {
			b.line("PHOTO:data:" + photo.ContentType + ";base64," + data)
		} else {
			kind := strings.ToUpper(strings.TrimPrefix(photo.ContentType, "image/"))
			b.line("PHOTO;ENCODING=b;TYPE=" + kind + ":" + data)
		}
	}
	b.line("END:VCARD")
	return []byte(b.String())
}

// telNumber is a number as a tel: URI holds it: digits and a leading +.
func telNumber(s string) string {
	var out strings.Builder
	for i, r := range s {
		if r >= '0' && r <= '9' || r == '+' && i == 0 {
			out.WriteRune(r)
		}
	}
	return out.String()
}

// vEscape escapes a text value (RFC 6350 3.4, RFC 5545 3.3.11).
func vEscape(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer(`\`, `\\`, ",", `\,`, ";", `\;`, "\n", `\n`, "\r", `\n`).Replace(s)
}

// vParam is a parameter value: only letters, digits and dashes are kept.
func vParam(s string) string {
	out := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return -1
	}, s)
	if out == "" {
		return "other"
	}
	return out
}

// vbuilder writes content lines folded at 75 octets (never inside a
// UTF-8 sequence), each ended by CRLF: the folding of RFC 6350 and 5545.
type vbuilder struct{ strings.Builder }

func (b *vbuilder) line(s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
