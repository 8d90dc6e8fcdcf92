// Package imports brings another shortener's links onto Squarely (issue
// 34 item 3): it reads them from a CSV file (Squarely's columns, or
// Bitly's and Dub's exports as they are) or from a service's API (Kutt,
// Shlink, YOURLS, Dub, Bitly: apis.go), checks each against the workspace
// (what will be created, what conflicts, what is already there) and, in a
// job, creates their dynamic codes with their short codes intact. Requests to other services go
// through netguard (the webhook address rules) with timeouts and retries.
package imports

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Link is one link read from a source.
type Link struct {
	ShortCode   string
	Destination string
	Title       string
	Tags        []string
	CreatedAt   *time.Time
	Clicks      int64
	// ShortURL is the link's whole short URL at the source, when it says
	// (https://bit.ly/abc): its origin is the old host the switch check
	// compares with.
	ShortURL string
}

const (
	// MaxLinks bounds one import.
	MaxLinks = 50_000
	// MaxLine is the longest CSV line read; a longer one refuses the file.
	MaxLine = 1 << 20
	// MaxFile bounds an uploaded CSV.
	MaxFile = 32 << 20
)

// Sources are the sources an import may name.
var (
	CSVSources = []string{"csv", "bitly-csv", "dub-csv"}
	APISources = []string{"kutt", "shlink", "yourls", "dub", "bitly"}
)

// Refused is a source the import cannot read, said for the user.
type Refused struct{ Message string }

func (e *Refused) Error() string { return e.Message }

func refusef(format string, args ...any) error { return &Refused{fmt.Sprintf(format, args...)} }

// column names, normalised (lower case, letters and digits only), for
// each field; Squarely's own first, then Bitly's and Dub's exports.
var columns = map[string][]string{
	"shortCode":   {"shortcode", "keyword", "key", "slug", "backhalf", "bitlink", "link", "shortlink", "shorturl", "shortlinkurl"},
	"destination": {"destination", "longurl", "url", "destinationurl", "originalurl", "target"},
	"title":       {"name", "title"},
	"tags":        {"tags", "tag", "tagnames"},
	"createdAt":   {"createdat", "created", "datecreated", "creationdate", "createddate"},
	"clicks":      {"clicks", "totalclicks", "engagements", "visits", "clickcount"},
}

func norm(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ReadCSV reads the links of a CSV file of source (csv, bitly-csv or
// dub-csv; the header names the columns, in any order and case). A cell
// that a spreadsheet would run as a formula (=, +, -, @ first, or a tab
// or carriage return) refuses the file, as does a tag of the tags cell
// that would ("a,+cmd"), or a line over MaxLine.
func ReadCSV(r io.Reader, source string) ([]Link, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	cr := csv.NewReader(&lineGuard{r: br})
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, csvErr(err, 1)
	}
	idx := map[string]int{}
	for i, h := range header {
		n := norm(strings.TrimPrefix(h, "\ufeff"))
		for field, names := range columns {
			for _, name := range names {
				if n == name {
					if _, seen := idx[field]; !seen {
						idx[field] = i
					}
				}
			}
		}
	}
	if _, ok := idx["destination"]; !ok {
		return nil, refusef("The header row names no destination column (destination, long_url or url)")
	}
	var out []Link
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvErr(err, line)
		}
		for i, cell := range rec {
			if !storableText(cell) {
				return nil, refusef("Row %d, column %d is not UTF-8 text, or holds a NUL character: save the file as UTF-8 CSV and upload again.", line, i+1)
			}
			// Cells are read trimmed: " =1+1" is imported as "=1+1".
			if trimmed := strings.TrimSpace(cell); formula(cell) || formula(trimmed) {
				first := cell[:1]
				if !formula(cell) {
					first = trimmed[:1]
				}
				return nil, refusef("Row %d, column %d starts with %q: a spreadsheet would run it as a formula. Remove it and upload again.", line, i+1, first)
			}
		}
		get := func(f string) string {
			if i, ok := idx[f]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if len(out) == MaxLinks {
			return nil, refusef("An import holds at most %d links", MaxLinks)
		}
		l := Link{ShortCode: shortCodeOf(get("shortCode")), Destination: get("destination"), Title: get("title")}
		for _, t := range strings.FieldsFunc(get("tags"), func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
			// Each tag is a name of its own, written alone into a cell
			// of the exports: "a,+cmd" is refused as "+cmd" would be.
			if t = strings.TrimSpace(t); formula(t) {
				return nil, refusef("Row %d, column %d holds the tag %q, which starts with %q: a spreadsheet would run it as a formula. Remove it and upload again.", line, idx["tags"]+1, t, t[:1])
			}
			if t != "" {
				l.Tags = append(l.Tags, t)
			}
		}
		if c := get("createdAt"); c != "" {
			if t, ok := parseTime(c); ok {
				l.CreatedAt = &t
			}
		}
		if n, err := strconv.ParseInt(strings.ReplaceAll(get("clicks"), ",", ""), 10, 64); err == nil && n > 0 {
			l.Clicks = n
		}
		if l.Destination == "" && l.ShortCode == "" {
			continue // a blank row
		}
		out = append(out, l)
	}
	_ = source // the three layouts share the column names above
	return out, nil
}

// storableText reports whether s is UTF-8 without NUL characters: other
// text cannot be stored on PostgreSQL, and would be stored damaged on SQLite.
func storableText(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

// MsgNotText is a link's refusal when a service's answer gave it text
// that is not storable (a NUL character, which JSON can carry).
const MsgNotText = "Not UTF-8 text, or holds a NUL character"

// Clean reports whether the link's text is storable; if not, it makes it
// so (each bad byte or NUL becomes U+FFFD), so that the import can record
// the link as refused, and returns MsgNotText.
func (l *Link) Clean() string {
	ok := true
	for _, p := range append([]*string{&l.ShortCode, &l.Destination, &l.Title, &l.ShortURL}, pointers(l.Tags)...) {
		if !storableText(*p) {
			ok = false
			*p = strings.ReplaceAll(strings.ToValidUTF8(*p, "\uFFFD"), "\x00", "\uFFFD")
		}
	}
	if ok {
		return ""
	}
	return MsgNotText
}

// pointers points at each string of list.
func pointers(list []string) []*string {
	out := make([]*string, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

// formula reports a cell a spreadsheet would evaluate (CSV injection).
func formula(cell string) bool {
	if cell == "" {
		return false
	}
	switch cell[0] {
	case '=', '+', '@', '\t', '\r':
		return true
	case '-':
		// -1 is a number, -foo a formula.
		_, err := strconv.ParseFloat(cell, 64)
		return err != nil
	}
	return false
}

func csvErr(err error, line int) error {
	var tooLong *lineTooLong
	if errors.As(err, &tooLong) {
		return refusef("Line %d is longer than %d bytes: this is not a CSV file of links", line, MaxLine)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return refusef("The file is not valid CSV at line %d: %v", pe.Line, pe.Err)
	}
	if errors.Is(err, io.EOF) {
		return refusef("The file is empty")
	}
	return err
}

type lineTooLong struct{}

func (*lineTooLong) Error() string { return "line too long" }

// lineGuard passes a reader through, failing at a line over MaxLine.
type lineGuard struct {
	r   *bufio.Reader
	run int
}

func (g *lineGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			g.run = 0
		} else if g.run++; g.run > MaxLine {
			return 0, &lineTooLong{}
		}
	}
	return n, err
}

// shortCodeOf is the short code of a cell: a code, or a short URL
// ("bit.ly/abc", "https://go.brand.com/menu") whose path it ends.
func shortCodeOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02", "1/2/2006 15:04", "1/2/2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
