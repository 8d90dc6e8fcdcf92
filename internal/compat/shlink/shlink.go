// Package shlink is a Shlink-compatible REST API under /rest/v3 (issue 34
// item 5; shlink.io/documentation/api-docs): short URLs (create, list,
// get, edit, delete), a short URL's visits, tags and health, with the
// key in X-Api-Key and errors as RFC 7807 problem details with Shlink's
// "type" values, so @shlinkio/shlink-js-sdk and the tools built on it
// work against Squarely. Short codes are Squarely's (chosen ones as
// customSlug); the links are the workspace's dynamic codes.
package shlink

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/compat"
	"github.com/squarely/squarely/internal/server/respond"
)

// Shlink's error types (its API contract's ErrorType).
const (
	TypeInvalidData     = "https://shlink.io/api/error/invalid-data"
	TypeNonUniqueSlug   = "https://shlink.io/api/error/non-unique-slug"
	TypeNotFound        = "https://shlink.io/api/error/short-url-not-found"
	TypeDomainNotFound  = "https://shlink.io/api/error/domain-not-found"
	TypeMissingAuth     = "https://shlink.io/api/error/missing-authentication"
	TypeInvalidAPIKey   = "https://shlink.io/api/error/invalid-api-key"
	TypeForbidden       = "https://shlink.io/api/error/forbidden-tag-operation" // Shlink's one 403 type
	TypeRouteNotFound   = "https://shlink.io/api/error/not-found"
	TypeTooManyRequests = "https://shlink.io/api/error/too-many-requests"
	TypeInternal        = "https://shlink.io/api/error/internal-server-error"

	// maxBody bounds a request's JSON.
	maxBody = 64 << 10
	// Version is the Shlink API version answered by /rest/health.
	Version = "4.0.0"
)

// API serves the routes; the server mounts each behind its key checks.
type API struct {
	Links compat.Links
	// Fail logs an unexpected error (the answer reveals nothing).
	Fail func(r *http.Request, doing string, err error)
}

// APIKey is the key of a Shlink request: X-Api-Key, or the apiKey query
// parameter Shlink also takes.
func APIKey(r *http.Request) string {
	if k := strings.TrimSpace(r.Header.Get("X-Api-Key")); k != "" {
		return k
	}
	return strings.TrimSpace(r.URL.Query().Get("apiKey"))
}

// Problem answers an RFC 7807 problem with Shlink's type and extra members.
func Problem(w http.ResponseWriter, status int, typ, title, detail string, extra map[string]any) {
	body := map[string]any{"type": typ, "title": title, "detail": detail, "status": status}
	for k, v := range extra {
		body[k] = v
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// Refuse answers the key checks' refusals as Shlink does (compat.Refuse).
func Refuse(w http.ResponseWriter, r *http.Request, status int, message string) {
	switch {
	case status == http.StatusUnauthorized && APIKey(r) == "":
		Problem(w, status, TypeMissingAuth, "Invalid authorization", "Expected one of the following authentication headers, [\"X-Api-Key\"], but none were provided", nil)
	case status == http.StatusUnauthorized:
		Problem(w, status, TypeInvalidAPIKey, "Invalid API key", "Provided API key does not exist or is invalid.", nil)
	case status == http.StatusForbidden:
		Problem(w, status, TypeForbidden, "Forbidden operation", message, nil)
	case status == http.StatusTooManyRequests:
		Problem(w, status, TypeTooManyRequests, "Too many requests", message, nil)
	case status == http.StatusNotFound:
		Problem(w, status, TypeRouteNotFound, "Not found", message, nil)
	default:
		Problem(w, status, TypeInternal, http.StatusText(status), message, nil)
	}
}

// NotFound answers a path Shlink's API does not have.
func NotFound(w http.ResponseWriter, r *http.Request) {
	Problem(w, http.StatusNotFound, TypeRouteNotFound, "Not found", "Requested route does not exist.", nil)
}

// Health (GET /rest/health, /rest/v3/health).
func (a *API) Health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/health+json")
	json.NewEncoder(w).Encode(map[string]any{"status": "pass", "version": Version, "links": map[string]string{}})
}

// shortURL is a Shlink ShortUrl.
type shortURL struct {
	ShortCode        string         `json:"shortCode"`
	ShortURL         string         `json:"shortUrl"`
	LongURL          string         `json:"longUrl"`
	DateCreated      string         `json:"dateCreated"`
	VisitsSummary    visitsSummary  `json:"visitsSummary"`
	Tags             []string       `json:"tags"`
	Meta             map[string]any `json:"meta"`
	Domain           *string        `json:"domain"`
	Title            *string        `json:"title"`
	Crawlable        bool           `json:"crawlable"`
	ForwardQuery     bool           `json:"forwardQuery"`
	HasRedirectRules bool           `json:"hasRedirectRules"`
}

type visitsSummary struct {
	Total   int64 `json:"total"`
	NonBots int64 `json:"nonBots"`
	Bots    int64 `json:"bots"`
}

// atom is Shlink's date format (ISO 8601 with a numeric offset).
const atom = "2006-01-02T15:04:05-07:00"

func view(l compat.Link) shortURL {
	out := shortURL{
		ShortCode: l.ShortCode, ShortURL: l.ShortURL, LongURL: l.LongURL, DateCreated: l.CreatedAt.UTC().Format(atom),
		VisitsSummary: visitsSummary{Total: l.Visits, NonBots: l.Visits}, Tags: l.Tags,
		Meta: map[string]any{"validSince": nil, "validUntil": nil, "maxVisits": nil},
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	if l.Domain != "" {
		out.Domain = &l.Domain
	}
	if l.Title != "" {
		out.Title = &l.Title
	}
	return out
}

// decode reads a JSON object body; on failure it has answered.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err == nil {
		err = respond.DecodeValue(b, v)
	}
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooBig):
		Problem(w, http.StatusRequestEntityTooLarge, TypeInvalidData, "Invalid data", "Request body too large", map[string]any{"invalidElements": []string{}})
	case errors.Is(err, respond.ErrNUL) || errors.Is(err, respond.ErrNotUTF8):
		// Read as JSON, bad bytes would become U+FFFD and be kept.
		Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", "Provided data must be UTF-8 text without NUL characters", map[string]any{"invalidElements": []string{}})
	default:
		Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", "Provided data is not valid JSON: "+err.Error(), map[string]any{"invalidElements": []string{}})
	}
	return false
}

// domainParam is the domain query parameter ("" or DEFAULT: the base URL).
func domainParam(r *http.Request) string {
	d := strings.TrimSpace(r.URL.Query().Get("domain"))
	if strings.EqualFold(d, "DEFAULT") {
		return ""
	}
	return d
}

// answerErr answers an error of Links for shortCode.
func (a *API) answerErr(w http.ResponseWriter, r *http.Request, shortCode, slug string, err error) {
	var rf *compat.Refused
	switch {
	case errors.Is(err, compat.ErrNotFound) && shortCode == "":
		Problem(w, http.StatusNotFound, TypeDomainNotFound, "Domain not found", fmt.Sprintf("Domain with authority %q could not be found", domainParam(r)), nil)
	case errors.Is(err, compat.ErrNotFound):
		extra := map[string]any{"shortCode": shortCode}
		detail := fmt.Sprintf("No URL found with short code %q", shortCode)
		if d := domainParam(r); d != "" {
			extra["domain"] = d
			detail += fmt.Sprintf(" for domain %q", d)
		}
		Problem(w, http.StatusNotFound, TypeNotFound, "Short URL not found", detail, extra)
	case errors.As(err, &rf) && rf.Code == "taken":
		Problem(w, http.StatusBadRequest, TypeNonUniqueSlug, "Invalid custom slug", fmt.Sprintf("Provided slug %q is already in use.", slug), map[string]any{"customSlug": slug})
	case errors.As(err, &rf) && rf.Status == http.StatusBadRequest:
		field := shlinkField(rf.Field)
		Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", rf.Message, map[string]any{"invalidElements": []string{field}})
	case errors.As(err, &rf) && rf.Status == http.StatusConflict:
		Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", rf.Message, map[string]any{"invalidElements": []string{shlinkField(rf.Field)}})
	case errors.As(err, &rf):
		Problem(w, rf.Status, TypeForbidden, "Forbidden operation", rf.Message, nil)
	default:
		a.Fail(r, "answering a Shlink request", err)
		Problem(w, http.StatusInternalServerError, TypeInternal, "Internal server error", "An unexpected error occurred", nil)
	}
}

// shlinkField names a Squarely field as Shlink's request names it.
func shlinkField(f string) string {
	switch f {
	case "destination":
		return "longUrl"
	case "shortCode":
		return "customSlug"
	case "name":
		return "title"
	case "domainId":
		return "domain"
	}
	return f
}

// Create (POST /rest/v3/short-urls {longUrl, customSlug?, title?, tags?,
// domain?, findIfExists?}).
func (a *API) Create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		LongURL      *string  `json:"longUrl"`
		CustomSlug   string   `json:"customSlug"`
		Title        *string  `json:"title"`
		Tags         []string `json:"tags"`
		Domain       string   `json:"domain"`
		FindIfExists bool     `json:"findIfExists"`
	}
	if !decode(w, r, &in) {
		return
	}
	if in.LongURL == nil || strings.TrimSpace(*in.LongURL) == "" {
		Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", "Provided data is not valid", map[string]any{"invalidElements": []string{"longUrl"}})
		return
	}
	if in.FindIfExists {
		list, err := a.Links.List(r)
		if err != nil {
			a.answerErr(w, r, "", "", err)
			return
		}
		for _, l := range list {
			if l.LongURL == strings.TrimSpace(*in.LongURL) && (in.CustomSlug == "" || l.ShortCode == in.CustomSlug) && l.Domain == in.Domain &&
				(in.Tags == nil || slices.Equal(l.Tags, in.Tags)) {
				writeJSON(w, http.StatusOK, view(l))
				return
			}
		}
	}
	nl := compat.NewLink{LongURL: *in.LongURL, ShortCode: strings.TrimSpace(in.CustomSlug), Domain: in.Domain, Tags: in.Tags}
	if in.Title != nil {
		nl.Title = *in.Title
	}
	l, err := a.Links.Create(r, nl)
	if errors.Is(err, compat.ErrNotFound) {
		Problem(w, http.StatusNotFound, TypeDomainNotFound, "Domain not found", fmt.Sprintf("Domain with authority %q could not be found", in.Domain), map[string]any{"authority": in.Domain})
		return
	}
	if err != nil {
		a.answerErr(w, r, "", nl.ShortCode, err)
		return
	}
	writeJSON(w, http.StatusOK, view(l))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// pagination is Shlink's paginator.
type pagination struct {
	CurrentPage        int `json:"currentPage"`
	PagesCount         int `json:"pagesCount"`
	ItemsPerPage       int `json:"itemsPerPage"`
	ItemsInCurrentPage int `json:"itemsInCurrentPage"`
	TotalItems         int `json:"totalItems"`
}

// page cuts n items into the page the request asks for (page from 1,
// itemsPerPage, -1 for all; default 10): the range and the paginator.
func page(r *http.Request, n int) (from, to int, p pagination) {
	q := r.URL.Query()
	cur, err := strconv.Atoi(q.Get("page"))
	if err != nil || cur < 1 {
		cur = 1
	}
	per, err := strconv.Atoi(q.Get("itemsPerPage"))
	if err != nil || per == 0 || per < -1 {
		per = 10
	}
	if per == -1 {
		per = max(n, 1)
		cur = 1
	}
	per = min(per, 1000)
	pages := (n + per - 1) / per
	from = n // a page past the end, however far (cur × per may overflow)
	if cur <= pages {
		from = (cur - 1) * per
	}
	to = min(from+per, n)
	return from, to, pagination{CurrentPage: cur, PagesCount: pages, ItemsPerPage: per, ItemsInCurrentPage: to - from, TotalItems: n}
}

// List (GET /rest/v3/short-urls?page&itemsPerPage&searchTerm&tags[]
// &tagsMode&orderBy): the workspace's links, newest first unless orderBy
// (field-ASC|DESC of shortCode, longUrl, title, dateCreated, visits).
func (a *API) List(w http.ResponseWriter, r *http.Request) {
	list, err := a.Links.List(r)
	if err != nil {
		a.answerErr(w, r, "", "", err)
		return
	}
	q := r.URL.Query()
	term := strings.ToLower(strings.TrimSpace(q.Get("searchTerm")))
	tags := append(q["tags[]"], q["tags"]...)
	all := q.Get("tagsMode") == "all"
	var keys map[string]string // the app's keys of the tags' names
	if len(tags) > 0 {
		names := slices.Clone(tags)
		for _, l := range list {
			names = append(names, l.Tags...)
		}
		if keys, err = a.Links.TagKeys(r, names); err != nil {
			a.answerErr(w, r, "", "", err)
			return
		}
	}
	kept := list[:0:0]
	for _, l := range list {
		if term != "" && !strings.Contains(strings.ToLower(l.ShortCode+" "+l.LongURL+" "+l.Title+" "+strings.Join(l.Tags, " ")), term) {
			continue
		}
		if len(tags) > 0 {
			match := 0
			for _, t := range tags {
				if k, ok := keys[t]; ok && slices.ContainsFunc(l.Tags, func(x string) bool { return keys[x] == k }) {
					match++
				}
			}
			if match == 0 || all && match < len(tags) {
				continue
			}
		}
		kept = append(kept, l)
	}
	if field, dir, ok := strings.Cut(q.Get("orderBy"), "-"); ok {
		cmp := map[string]func(a, b compat.Link) int{
			"shortCode":   func(a, b compat.Link) int { return strings.Compare(a.ShortCode, b.ShortCode) },
			"longUrl":     func(a, b compat.Link) int { return strings.Compare(a.LongURL, b.LongURL) },
			"title":       func(a, b compat.Link) int { return strings.Compare(a.Title, b.Title) },
			"dateCreated": func(a, b compat.Link) int { return a.CreatedAt.Compare(b.CreatedAt) },
			"visits":      func(a, b compat.Link) int { return int(a.Visits - b.Visits) },
			"nonBotVisits": func(a, b compat.Link) int {
				return int(a.Visits - b.Visits)
			},
		}[field]
		if cmp != nil {
			slices.SortStableFunc(kept, func(a, b compat.Link) int {
				if strings.EqualFold(dir, "DESC") {
					return cmp(b, a)
				}
				return cmp(a, b)
			})
		}
	}
	from, to, p := page(r, len(kept))
	data := make([]shortURL, 0, to-from)
	for _, l := range kept[from:to] {
		data = append(data, view(l))
	}
	writeJSON(w, http.StatusOK, map[string]any{"shortUrls": map[string]any{"data": data, "pagination": p}})
}

// Get (GET /rest/v3/short-urls/{shortCode}?domain).
func (a *API) Get(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("shortCode")
	l, err := a.Links.Get(r, code, domainParam(r))
	if err != nil {
		a.answerErr(w, r, code, "", err)
		return
	}
	writeJSON(w, http.StatusOK, view(l))
}

// Edit (PATCH /rest/v3/short-urls/{shortCode}?domain {longUrl?, title?,
// tags?}): the other members Shlink takes (validSince, maxVisits, …) are
// accepted and ignored.
func (a *API) Edit(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("shortCode")
	var in struct {
		LongURL *string `json:"longUrl"`
		// Title is a RawMessage, not a pointer to one: a pointer is left
		// nil by null, which then read as no title given (kept), while
		// Shlink clears the title.
		Title json.RawMessage `json:"title"`
		Tags  *[]string       `json:"tags"`
	}
	if !decode(w, r, &in) {
		return
	}
	e := compat.Edit{LongURL: in.LongURL, Tags: in.Tags}
	if in.Title != nil {
		var t *string
		if err := json.Unmarshal(in.Title, &t); err != nil {
			Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", "title must be a string or null", map[string]any{"invalidElements": []string{"title"}})
			return
		}
		title := ""
		if t != nil {
			title = *t
		}
		e.Title = &title
	}
	l, err := a.Links.Edit(r, code, domainParam(r), e)
	if err != nil {
		a.answerErr(w, r, code, "", err)
		return
	}
	writeJSON(w, http.StatusOK, view(l))
}

// Delete (DELETE /rest/v3/short-urls/{shortCode}?domain): 204.
func (a *API) Delete(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("shortCode")
	if err := a.Links.Delete(r, code, domainParam(r)); err != nil {
		a.answerErr(w, r, code, "", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Visits (GET /rest/v3/short-urls/{shortCode}/visits?domain&page
// &itemsPerPage&startDate&endDate&excludeBots), newest first.
func (a *API) Visits(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("shortCode")
	visits, err := a.Links.Visits(r, code, domainParam(r))
	if err != nil {
		a.answerErr(w, r, code, "", err)
		return
	}
	q := r.URL.Query()
	excludeBots := q.Get("excludeBots") == "true"
	var start, end *time.Time
	for _, f := range []struct {
		name string
		at   **time.Time
	}{{"startDate", &start}, {"endDate", &end}} {
		name, at := f.name, f.at
		if s := strings.TrimSpace(q.Get(name)); s != "" {
			t, ok := parseDate(s)
			if !ok {
				Problem(w, http.StatusBadRequest, TypeInvalidData, "Invalid data", name+" must be an ISO 8601 date, such as 2024-05-01 or 2024-05-01T10:00:00+02:00",
					map[string]any{"invalidElements": []string{name}})
				return
			}
			*at = &t
		}
	}
	kept := visits[:0:0]
	for _, v := range visits {
		if excludeBots && v.Bot {
			continue
		}
		if start != nil && v.At.Before(*start) || end != nil && v.At.After(*end) {
			continue
		}
		kept = append(kept, v)
	}
	from, to, p := page(r, len(kept))
	data := make([]map[string]any, 0, to-from)
	for _, v := range kept[from:to] {
		var loc any
		if v.Country != "" {
			loc = map[string]any{"countryCode": v.Country, "countryName": v.Country, "regionName": nil, "cityName": nil,
				"latitude": nil, "longitude": nil, "timezone": nil, "isEmpty": false}
		}
		ua := strings.TrimSpace(strings.Join([]string{v.Browser, v.OS, v.Device}, " "))
		data = append(data, map[string]any{"referer": v.Referrer, "date": v.At.UTC().Format(atom), "userAgent": ua,
			"visitLocation": loc, "potentialBot": v.Bot})
	}
	writeJSON(w, http.StatusOK, map[string]any{"visits": map[string]any{"data": data, "pagination": p}})
}

// parseDate reads a visits filter's date: ISO 8601 with a time and an
// offset (instants compare whatever the offset), or a day (its midnight, UTC).
func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Tags (GET /rest/v3/tags): the workspace's tag names.
func (a *API) Tags(w http.ResponseWriter, r *http.Request) {
	tags, err := a.Links.Tags(r)
	if err != nil {
		a.answerErr(w, r, "", "", err)
		return
	}
	_, _, p := page(r, len(tags))
	p.ItemsPerPage, p.ItemsInCurrentPage, p.CurrentPage, p.PagesCount = len(tags), len(tags), 1, 1
	writeJSON(w, http.StatusOK, map[string]any{"tags": map[string]any{"data": tags, "pagination": p}})
}
