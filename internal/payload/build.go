package payload

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/gs1"
)

// The builders run after validation, so they may assume valid fields.
// Single-line fields are trimmed (get); free text (notes, bodies, messages,
// plain text, Wi-Fi credentials) is kept byte for byte (f[k]).

// Records (vCard, iCalendar) end every line, the last included, with CRLF
// as their grammars require. Lines are not folded at 75 octets: folding is
// a SHOULD, costs modules, and every reader we target unfolds or ignores it.
const crlf = "\r\n"

func buildURL(f Fields, _ Options) (string, error) { return get(f, "url"), nil }

func buildText(f Fields, _ Options) (string, error) { return f["text"], nil }

// buildContact writes a vCard 3.0 (RFC 2426).
func buildContact(f Fields, _ Options) (string, error) {
	first, last := get(f, "firstName"), get(f, "lastName")
	var b strings.Builder
	line := func(s ...string) { b.WriteString(strings.Join(s, "") + crlf) }
	line("BEGIN:VCARD")
	line("VERSION:3.0")
	line("N:", escapeText(last), ";", escapeText(first), ";;;")
	line("FN:", escapeText(strings.TrimSpace(first+" "+last)))
	line("TEL:", escapeText(get(f, "phoneNumber")))
	if v := get(f, "email"); v != "" {
		line("EMAIL:", escapeText(v))
	}
	if v := f["notes"]; strings.TrimSpace(v) != "" {
		line("NOTE:", escapeText(v))
	}
	// URL and PHOTO are uri values, not text: they are written unescaped
	// (validation has refused white space and control characters).
	if v := get(f, "url"); v != "" {
		line("URL:", v)
	}
	if v := get(f, "imageUrl"); v != "" {
		line("PHOTO;VALUE=URI:", v)
	}
	line("END:VCARD")
	return b.String(), nil
}

// escapeText escapes a TEXT value the way vCard (RFC 2426 §4, RFC 6350
// §3.4) and iCalendar (RFC 5545 §3.3.11) both do: backslash, comma and
// semicolon get a backslash, and any line break becomes \n.
func escapeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return textEscaper.Replace(s)
}

var textEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `;`, `\;`, "\n", `\n`)

func buildPayment(_ Fields, opt Options) (string, error) {
	if opt.ProductID == "" {
		return "", ErrNoProductID
	}
	if opt.BaseURL == "" {
		return "", ErrNoBaseURL
	}
	return opt.BaseURL + "/payment?id=" + url.QueryEscape(opt.ProductID), nil
}

func buildPDF(f Fields, opt Options) (string, error) {
	return fileURL(opt, "/pdf/", get(f, "pdfFile"))
}

func buildImages(f Fields, opt Options) (string, error) {
	return fileURL(opt, "/images/", get(f, "imageFile"))
}

// fileURL points at the product's page for an uploaded file.
func fileURL(opt Options, prefix, id string) (string, error) {
	if opt.BaseURL == "" {
		return "", ErrNoBaseURL
	}
	return opt.BaseURL + prefix + url.PathEscape(id), nil
}

// buildEmail writes a mailto URI (RFC 6068) with subject and body only when
// present. Everything but unreserved characters is percent-encoded, so a
// space is %20 (never '+', which mail clients keep literally) and line
// breaks in the body are sent as %0D%0A as §5 asks.
func buildEmail(f Fields, _ Options) (string, error) {
	// validEmail leaves only atext, '.' and '@' in the address; the atext
	// characters RFC 6068 does not allow raw are encoded.
	s := "mailto:" + percentEncode(get(f, "email"), "!$'*+@")
	var q []string
	if v := f["subject"]; strings.TrimSpace(v) != "" {
		q = append(q, "subject="+percentEncode(v, ""))
	}
	if v := f["body"]; strings.TrimSpace(v) != "" {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", "\n"), "\n", "\r\n")
		q = append(q, "body="+percentEncode(v, ""))
	}
	if len(q) > 0 {
		s += "?" + strings.Join(q, "&")
	}
	return s, nil
}

// percentEncode percent-encodes every byte of s (UTF-8 included) except the
// RFC 3986 unreserved characters and those in keep.
func percentEncode(s, keep string) string { return gs1.EscapeKeeping(s, keep) }

// buildLocation writes a geo URI (RFC 5870) when both coordinates are
// given, else a maps search link for the address.
func buildLocation(f Fields, _ Options) (string, error) {
	lat, okLat := parseCoordinate(get(f, "latitude"), 90)
	lng, okLng := parseCoordinate(get(f, "longitude"), 180)
	if okLat && okLng {
		return "geo:" + formatFloat(lat) + "," + formatFloat(lng), nil
	}
	return "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(get(f, "address")), nil
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// buildEvent writes an iCalendar (RFC 5545) VEVENT in a VCALENDAR. The end
// defaults to the start, as the spec says. An all-day end is written as
// the following day, because DTEND is exclusive: a one-day event on
// 2026-03-15 ends at 20260316. Times are floating (no zone), as a
// datetime-local input gives them. UID and DTSTAMP are left out so that
// the same fields always give the same code; readers import the event as new.
func buildEvent(f Fields, _ Options) (string, error) {
	start, _ := parseEventTime(get(f, "startDate"))
	end := start
	if v := get(f, "endDate"); v != "" {
		end, _ = parseEventTime(v)
	}
	var b strings.Builder
	line := func(s ...string) { b.WriteString(strings.Join(s, "") + crlf) }
	line("BEGIN:VCALENDAR")
	line("VERSION:2.0")
	line("PRODID:-//Squarely//QR Code Generator//EN")
	line("BEGIN:VEVENT")
	line("SUMMARY:", escapeText(get(f, "title")))
	if start.allDay {
		line("DTSTART;VALUE=DATE:", start.t.Format("20060102"))
		line("DTEND;VALUE=DATE:", end.t.AddDate(0, 0, 1).Format("20060102"))
	} else {
		line("DTSTART:", start.t.Format("20060102T150405"))
		line("DTEND:", end.t.Format("20060102T150405"))
	}
	line("LOCATION:", escapeText(get(f, "location")))
	if v := f["description"]; strings.TrimSpace(v) != "" {
		line("DESCRIPTION:", escapeText(v))
	}
	line("END:VEVENT")
	line("END:VCALENDAR")
	return b.String(), nil
}

// buildSMS writes SMSTO:number:message rather than an RFC 5724 sms: URI.
// SMSTO is what QR readers (ZXing, iOS and Android cameras) recognise
// everywhere, and it carries the message raw: no percent-encoding to
// inflate accents or emoji, and no disagreement between platforms over
// "?body=" and "&body=". The number cannot hold ':' (validation), so a
// message may.
func buildSMS(f Fields, _ Options) (string, error) {
	return "SMSTO:" + get(f, "phoneNumber") + ":" + f["message"], nil
}

// buildBitcoin writes a BIP21 URI with only the parameters given.
func buildBitcoin(f Fields, _ Options) (string, error) {
	var q []string
	if v := get(f, "amount"); v != "" {
		q = append(q, "amount="+v)
	}
	if v := f["label"]; strings.TrimSpace(v) != "" {
		q = append(q, "label="+percentEncode(v, ""))
	}
	if v := f["message"]; strings.TrimSpace(v) != "" {
		q = append(q, "message="+percentEncode(v, ""))
	}
	s := "bitcoin:" + get(f, "address")
	if len(q) > 0 {
		s += "?" + strings.Join(q, "&")
	}
	return s, nil
}

// buildWiFi writes the de facto Wi-Fi network format (ZXing's
// WIFI:T:…;S:…;P:…;H:…;;) with \ ; , : and " escaped by a backslash.
func buildWiFi(f Fields, _ Options) (string, error) {
	enc := wifiEncryption(f)
	s := "WIFI:T:" + enc + ";S:" + wifiEscaper.Replace(f["ssid"]) + ";"
	if enc != "nopass" {
		s += "P:" + wifiEscaper.Replace(f["password"]) + ";"
	}
	if hidden, _ := strconv.ParseBool(get(f, "hidden")); hidden {
		s += "H:true;"
	}
	return s + ";", nil
}

var wifiEscaper = strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, `:`, `\:`, `"`, `\"`)

// buildGS1 writes the canonical GS1 Digital Link URI of the fields on
// the chosen domain, or the base URL.
func buildGS1(f Fields, opt Options) (string, error) {
	origin := opt.GS1Origin
	if origin == "" {
		origin = opt.BaseURL
	}
	if origin == "" {
		return "", ErrNoBaseURL
	}
	l, _ := gs1.FromFields(f)
	return l.URI(origin), nil
}
