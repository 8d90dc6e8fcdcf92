// Package yourls is a YOURLS-compatible yourls-api.php (issue 34 item 5;
// yourls.org/docs/guide/advanced/api): GET or POST with action=shorturl
// (url, keyword, title), expand (shorturl), url-stats (shorturl) and
// db-stats, format=json, xml (the default, as in YOURLS) or simple, and
// signature= a Squarely API key (its passwordless token; the timestamped
// md5 signatures and username/password are not taken). Answers and
// errors have YOURLS's members (status, code, message, statusCode,
// errorCode, simple), so ShareX, browser extensions and scripts written
// for YOURLS keep working with only the base URL changed.
package yourls

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/compat"
)

const (
	// maxForm bounds a POSTed form.
	maxForm = 64 << 10
	// dateFormat is YOURLS's (MySQL's) datetime.
	dateFormat = "2006-01-02 15:04:05"
)

// API is yourls-api.php.
type API struct {
	Links compat.Links
	// Authorized runs h behind the key checks for action (its scope and
	// permission), refusals answered by Refuse; the server supplies it.
	Authorized func(action string, h http.HandlerFunc) http.Handler
	// Fail logs an unexpected error (the answer reveals nothing).
	Fail func(r *http.Request, doing string, err error)
}

// Signature is the key of a YOURLS request (signature=, in the query or
// a POSTed form).
func Signature(r *http.Request) string {
	return strings.TrimSpace(r.FormValue("signature"))
}

// field is one member of an answer, in order (YOURLS's XML keeps it).
type field struct {
	Key   string
	Value any // string, int, int64 or []field
}

type answer []field

func (a answer) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		b.Write(k)
		b.WriteByte(':')
		var v []byte
		var err error
		if sub, ok := f.Value.([]field); ok {
			v, err = answer(sub).MarshalJSON()
		} else {
			v, err = json.Marshal(f.Value)
		}
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func (a answer) get(key string) any {
	for _, f := range a {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// writeXML writes fields as YOURLS's XML: an element per member.
func writeXML(b *strings.Builder, fields []field) {
	for _, f := range fields {
		name := strings.ReplaceAll(f.Key, "-", "_")
		b.WriteString("<" + name + ">")
		if sub, ok := f.Value.([]field); ok {
			writeXML(b, sub)
		} else {
			xml.EscapeText(stringWriter{b}, []byte(fmt.Sprint(f.Value)))
		}
		b.WriteString("</" + name + ">")
	}
}

type stringWriter struct{ b *strings.Builder }

func (w stringWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// Output answers a in the request's format, with status.
func Output(w http.ResponseWriter, r *http.Request, status int, a answer) {
	w.Header().Set("Cache-Control", "no-store")
	switch format(r) {
	case "json":
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		b, _ := a.MarshalJSON()
		w.Write(b)
	case "simple":
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		w.WriteHeader(status)
		w.Write([]byte(fmt.Sprint(a.get("simple"))))
	default:
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<result>")
		writeXML(&b, a)
		b.WriteString("</result>")
		w.Header().Set("Content-Type", "application/xml; charset=UTF-8")
		w.WriteHeader(status)
		w.Write([]byte(b.String()))
	}
}

func format(r *http.Request) string {
	switch f := r.FormValue("format"); f {
	case "json", "jsonp", "simple":
		if f == "jsonp" {
			return "json"
		}
		return f
	}
	return "xml"
}

// fail answers a YOURLS error: {errorCode, message, simple, statusCode}
// and code when given.
func fail(w http.ResponseWriter, r *http.Request, status int, code, message string, more ...field) {
	a := answer{{"status", "fail"}}
	if code != "" {
		a = append(a, field{"code", code})
	}
	a = append(a, field{"message", message}, field{"errorCode", strconv.Itoa(status)}, field{"statusCode", status})
	a = append(a, more...)
	a = append(a, field{"simple", message})
	Output(w, r, status, a)
}

// Refuse answers the key checks' refusals as YOURLS does (compat.Refuse):
// 403 "Please log in" for a missing or invalid signature.
func Refuse(w http.ResponseWriter, r *http.Request, status int, message string) {
	if status == http.StatusUnauthorized {
		fail(w, r, http.StatusForbidden, "", "Please log in")
		return
	}
	fail(w, r, status, "", message)
}

// parse reads a POSTed form (bounded) before anything reads its values;
// on failure it has answered.
func parse(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	}
	if err := r.ParseForm(); err != nil {
		fail(w, r, http.StatusBadRequest, "", "Malformed request: "+err.Error())
		return false
	}
	// Text that is not UTF-8, or holds a NUL, cannot be stored (PostgreSQL
	// refuses it; SQLite would keep it damaged) and names no link.
	for k, vs := range r.Form {
		if !storable(k) || slices.ContainsFunc(vs, func(v string) bool { return !storable(v) }) {
			fail(w, r, http.StatusBadRequest, "", "Malformed request: parameters must be UTF-8 text without NUL characters")
			return false
		}
	}
	return true
}

// storable reports text PostgreSQL can store and SQLite keeps intact.
func storable(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

// ServeHTTP (GET|POST /yourls-api.php) dispatches on action.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, POST")
		fail(w, r, http.StatusMethodNotAllowed, "", "Method not allowed")
		return
	}
	if !parse(w, r) {
		return
	}
	var h http.HandlerFunc
	action := r.FormValue("action")
	switch action {
	case "shorturl":
		h = a.shorturl
	case "expand":
		h = a.expand
	case "url-stats":
		h = a.urlStats
	case "db-stats", "stats":
		action, h = "db-stats", a.dbStats
	case "version":
		Output(w, r, http.StatusOK, answer{{"version", "1.9.2"}, {"db_version", "505"}, {"simple", "1.9.2"}})
		return
	default:
		fail(w, r, http.StatusBadRequest, "", `Unknown or missing "action" parameter`)
		return
	}
	a.Authorized(action, h).ServeHTTP(w, r)
}

// keyword is the short code a request's shorturl names: the keyword, or
// the last path segment of a short URL, with that URL's host ("" for a
// bare keyword).
func keyword(r *http.Request) (kw, host string) {
	s := strings.TrimSpace(r.FormValue("shorturl"))
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s, host
}

func (a *API) shorturl(w http.ResponseWriter, r *http.Request) {
	url := strings.TrimSpace(r.FormValue("url"))
	if url == "" {
		fail(w, r, http.StatusBadRequest, "error:nourl", "Missing or malformed URL")
		return
	}
	kw := strings.TrimSpace(r.FormValue("keyword"))
	l, err := a.Links.Create(r, compat.NewLink{LongURL: url, ShortCode: kw, Title: strings.TrimSpace(r.FormValue("title"))})
	var rf *compat.Refused
	switch {
	case errors.As(err, &rf) && rf.Code == "taken":
		fail(w, r, http.StatusBadRequest, "error:keyword", fmt.Sprintf("Short URL %s already exists in database or is reserved", kw))
		return
	case errors.As(err, &rf) && rf.Field == "shortCode":
		fail(w, r, http.StatusBadRequest, "error:keyword", fmt.Sprintf("Short URL %s already exists in database or is reserved", kw))
		return
	case errors.As(err, &rf) && rf.Field == "destination":
		fail(w, r, http.StatusBadRequest, "error:nourl", "Missing or malformed URL")
		return
	case errors.As(err, &rf):
		fail(w, r, rf.Status, "error:"+strings.ToLower(strings.ReplaceAll(http.StatusText(rf.Status), " ", "")), rf.Message)
		return
	case err != nil:
		a.Fail(r, "creating a YOURLS link", err)
		fail(w, r, http.StatusInternalServerError, "error:db", "Error saving url to database")
		return
	}
	Output(w, r, http.StatusOK, answer{
		{"url", []field{{"keyword", l.ShortCode}, {"url", l.LongURL}, {"title", l.Title}, {"date", l.CreatedAt.UTC().Format(dateFormat)}, {"ip", ""}, {"clicks", 0}}},
		{"status", "success"},
		{"message", l.LongURL + " added to database"},
		{"title", l.Title},
		{"shorturl", l.ShortURL},
		{"statusCode", 200},
		{"simple", l.ShortURL},
	})
}

// link finds the link a request's shorturl names: on the host of a short
// URL (short codes are per host), or when that host is none of the
// workspace's (YOURLS has one host: an old one, say) as for a bare
// keyword. On failure it has answered YOURLS's 404.
func (a *API) link(w http.ResponseWriter, r *http.Request) (compat.Link, bool) {
	kw, host := keyword(r)
	l, err := a.Links.Get(r, kw, host)
	if host != "" && errors.Is(err, compat.ErrUnknownDomain) {
		l, err = a.Links.Get(r, kw, "")
	}
	switch {
	case errors.Is(err, compat.ErrNotFound):
		fail(w, r, http.StatusNotFound, "", "Error: short URL not found", field{"keyword", kw})
		return l, false
	case err != nil:
		a.Fail(r, "reading a YOURLS link", err)
		fail(w, r, http.StatusInternalServerError, "", "Error: could not read the short URL")
		return l, false
	}
	return l, true
}

func (a *API) expand(w http.ResponseWriter, r *http.Request) {
	l, ok := a.link(w, r)
	if !ok {
		return
	}
	Output(w, r, http.StatusOK, answer{
		{"keyword", l.ShortCode}, {"shorturl", l.ShortURL}, {"longurl", l.LongURL}, {"title", l.Title},
		{"message", "success"}, {"statusCode", 200}, {"simple", l.LongURL},
	})
}

func (a *API) urlStats(w http.ResponseWriter, r *http.Request) {
	l, ok := a.link(w, r)
	if !ok {
		return
	}
	Output(w, r, http.StatusOK, answer{
		{"statusCode", 200}, {"message", "success"},
		{"link", []field{{"shorturl", l.ShortURL}, {"url", l.LongURL}, {"title", l.Title},
			{"timestamp", l.CreatedAt.UTC().Format(dateFormat)}, {"ip", ""}, {"clicks", strconv.FormatInt(l.Visits, 10)}}},
		{"simple", strconv.FormatInt(l.Visits, 10)},
	})
}

func (a *API) dbStats(w http.ResponseWriter, r *http.Request) {
	links, clicks, err := a.Links.Stats(r)
	if err != nil {
		a.Fail(r, "counting YOURLS links", err)
		fail(w, r, http.StatusInternalServerError, "", "Error: could not count the links")
		return
	}
	Output(w, r, http.StatusOK, answer{
		{"db-stats", []field{{"total_links", strconv.FormatInt(links, 10)}, {"total_clicks", strconv.FormatInt(clicks, 10)}}},
		{"statusCode", 200}, {"message", "success"},
		{"simple", fmt.Sprintf("%d links, %d clicks", links, clicks)},
	})
}
