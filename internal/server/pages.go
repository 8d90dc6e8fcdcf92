package server

import (
	"crypto/rand"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/store"
)

// Hosted pages (issue 35, docs/API.md "Hosted pages"): a workspace's
// pages, the resource behind /p/{slug} and the dynamic codes that open a
// page. Types and validation are internal/pages'; storage and the free
// plan's limit internal/store's. Serving is hosted.go.

const (
	maxFreePages   = 200 // per workspace on the free plan (neither subscribed nor on its trial)
	msgPageMissing = "Page not found"
	msgPageLimit   = "A workspace without a subscription can have at most 200 pages"
	msgSlugTaken   = "This address is taken: choose another slug"
	slugTries      = 5
)

// pageOptions are the page rules' view of the site.
func (s *server) pageOptions() pages.Options { return pages.Options{BaseURL: s.cfg.BaseURL} }

// pageURL is the address a page is served at.
func (s *server) pageURL(slug string) string { return s.cfg.BaseURL + "/p/" + slug }

// decodePage reads a stored page into its typed form.
func (s *server) decodePage(sp *store.Page) (*pages.Page, error) {
	content, err := pages.DecodeContent(sp.Type, []byte(sp.Content))
	if err != nil {
		return nil, err
	}
	p := &pages.Page{ID: sp.ID, Type: sp.Type, Title: sp.Title, Slug: sp.Slug, URL: s.pageURL(sp.Slug),
		Language: sp.Language, Content: content, Version: sp.Version, CreatedAt: sp.CreatedAt, UpdatedAt: sp.UpdatedAt}
	if err := json.Unmarshal([]byte(sp.Theme), &p.Theme); err != nil {
		return nil, err
	}
	return p, nil
}

// listPages (GET /api/pages): the workspace's pages, newest first.
func (s *server) listPages(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Pages(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing pages", err)
		return
	}
	out := make([]*pages.Page, 0, len(list))
	for _, sp := range list {
		p, err := s.decodePage(sp)
		if err != nil {
			s.internalError(w, "reading a page", err)
			return
		}
		out = append(out, p)
	}
	writeJSON(w, http.StatusOK, out)
}

// workspacePage is the page of the request's workspace {id} names; on
// failure it has answered (404 for another workspace's).
func (s *server) workspacePage(w http.ResponseWriter, r *http.Request) (*store.Page, bool) {
	id, ok := idParam(w, r, "id", msgPageMissing)
	if !ok {
		return nil, false
	}
	sp, err := s.store.Page(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgPageMissing)
	case err != nil:
		s.internalError(w, "fetching a page", err)
	default:
		return sp, true
	}
	return nil, false
}

// getPage (GET /api/pages/{id}).
func (s *server) getPage(w http.ResponseWriter, r *http.Request) {
	sp, ok := s.workspacePage(w, r)
	if !ok {
		return
	}
	p, err := s.decodePage(sp)
	if err != nil {
		s.internalError(w, "reading a page", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// readPage reads and checks a page's body: its fields by internal/pages,
// then that its uploads and brand kit are the workspace's. On failure it
// has answered 400 with the errors by field path.
func (s *server) readPage(w http.ResponseWriter, r *http.Request) (*pages.Page, bool) {
	var in pages.Input
	if !decodeJSON(w, r, &in) {
		return nil, false
	}
	p, err := pages.Build(in, s.pageOptions())
	var invalid pages.Errors
	if errors.As(err, &invalid) {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "The page is not valid", Errors: invalid})
		return nil, false
	}
	if err != nil {
		s.internalError(w, "checking a page", err)
		return nil, false
	}
	ws := wsID(r)
	for _, u := range pages.Uploads(p, s.pageOptions()) {
		b, err := s.store.Blob(r.Context(), u.ID)
		if errors.Is(err, store.ErrNotFound) || err == nil && (b.WorkspaceID == nil || *b.WorkspaceID != ws || b.Kind != u.Kind) {
			writeJSON(w, http.StatusBadRequest, apiError{Message: "The page is not valid",
				Errors: map[string]string{"content": "an image or file the page names is not one of this workspace's uploads"}})
			return nil, false
		}
		if err != nil {
			s.internalError(w, "checking a page's uploads", err)
			return nil, false
		}
	}
	if id := p.Theme.BrandKitID; id != nil {
		if _, err := s.store.BrandKit(r.Context(), ws, *id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				writeJSON(w, http.StatusBadRequest, apiError{Message: "The page is not valid", Errors: map[string]string{"theme.brandKitId": msgKitMissing}})
			} else {
				s.internalError(w, "checking a page's brand kit", err)
			}
			return nil, false
		}
	}
	return p, true
}

// storedPage is p as the store keeps it.
func storedPage(p *pages.Page) (*store.Page, error) {
	theme, err := json.Marshal(p.Theme)
	if err != nil {
		return nil, err
	}
	content, err := json.Marshal(p.Content)
	if err != nil {
		return nil, err
	}
	return &store.Page{ID: p.ID, Type: p.Type, Slug: p.Slug, Title: p.Title, Language: p.Language, Theme: string(theme), Content: string(content)}, nil
}

// newSlug is a random slug: 10 lower-case letters and digits.
func newSlug() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 10)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// createPage (POST /api/pages) — 201; a taken slug 409; past the free
// plan's limit 403.
func (s *server) createPage(w http.ResponseWriter, r *http.Request) {
	p, ok := s.readPage(w, r)
	if !ok {
		return
	}
	drawn := p.Slug == ""
	limit := maxFreePages
	if s.premium(workspaceFrom(r.Context())) {
		limit = 0
	}
	var sp *store.Page
	var err error
	for try := 1; ; try++ {
		if drawn {
			p.Slug = newSlug()
		}
		if sp, err = storedPage(p); err != nil {
			s.internalError(w, "encoding a page", err)
			return
		}
		err = s.store.CreatePage(r.Context(), wsID(r), sp, limit, s.now())
		if !drawn || !errors.Is(err, store.ErrConflict) || try == slugTries {
			break
		}
	}
	s.answerPage(w, http.StatusCreated, sp, err)
}

// updatePage (PUT /api/pages/{id}): the body replaces the page; its type
// stays. The next scan on every instance serves the change.
func (s *server) updatePage(w http.ResponseWriter, r *http.Request) {
	old, ok := s.workspacePage(w, r)
	if !ok {
		return
	}
	p, ok := s.readPage(w, r)
	if !ok {
		return
	}
	if p.Type != old.Type {
		fieldError(w, "type", "a page's type cannot change: make a new page")
		return
	}
	if p.Slug == "" {
		p.Slug = old.Slug
	}
	p.ID = old.ID
	sp, err := storedPage(p)
	if err != nil {
		s.internalError(w, "encoding a page", err)
		return
	}
	err = s.store.UpdatePage(r.Context(), wsID(r), sp, s.now())
	s.answerPage(w, http.StatusOK, sp, err)
}

func (s *server) answerPage(w http.ResponseWriter, status int, sp *store.Page, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgPageMissing)
	case errors.Is(err, store.ErrConflict):
		writeJSON(w, http.StatusConflict, apiError{Message: msgSlugTaken, Errors: map[string]string{"slug": msgSlugTaken}})
	case errors.Is(err, store.ErrPageLimit):
		writeError(w, http.StatusForbidden, msgPageLimit)
	case err != nil:
		s.internalError(w, "saving a page", err)
	default:
		p, err := s.decodePage(sp)
		if err != nil {
			s.internalError(w, "reading a page", err)
			return
		}
		writeJSON(w, status, p)
	}
}

// deletePage (DELETE /api/pages/{id}) — 204; a page live codes open 409
// with their names ("codes").
func (s *server) deletePage(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgPageMissing)
	if !ok {
		return
	}
	var inUse *store.PageInUseError
	switch err := s.store.DeletePage(r.Context(), wsID(r), id); {
	case errors.As(err, &inUse):
		writeJSON(w, http.StatusConflict, map[string]any{
			"message": "This page is used by live codes: " + strings.Join(inUse.Codes, ", ") + ". Point them elsewhere or delete them first.",
			"codes":   inUse.Codes,
		})
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgPageMissing)
	case err != nil:
		s.internalError(w, "deleting a page", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// pageAnalyticsJSON is a page's analytics over a period.
type pageAnalyticsJSON struct {
	From         time.Time        `json:"from"`
	To           time.Time        `json:"to"`
	Views        int64            `json:"views"`
	Visitors     int64            `json:"uniqueVisitors"`
	Clicks       []pageButtonJSON `json:"clicks"`
	ContactSaves int64            `json:"contactSaves"`
	Reveals      int64            `json:"reveals"`
	CalendarAdds int64            `json:"calendarAdds"`
}

type pageButtonJSON struct {
	Button int    `json:"button"`
	Label  string `json:"label"`
	Kind   string `json:"kind"`
	URL    string `json:"url"`
	Clicks int64  `json:"clicks"`
}

// pageAnalytics (GET /api/pages/{id}/analytics?from=&to=[&format=csv]):
// views, unique visitors, clicks per button, contact saves, code reveals
// and calendar adds in [from, to) (RFC 3339 or YYYY-MM-DD; the last 30
// days by default).
func (s *server) pageAnalytics(w http.ResponseWriter, r *http.Request) {
	sp, ok := s.workspacePage(w, r)
	if !ok {
		return
	}
	from, to, ok := periodParams(w, r, s.now())
	if !ok {
		return
	}
	st, err := s.store.PageAnalytics(r.Context(), wsID(r), sp.ID, from, to)
	if err != nil {
		s.internalError(w, "counting a page's analytics", err)
		return
	}
	p, err := s.decodePage(sp)
	if err != nil {
		s.internalError(w, "reading a page", err)
		return
	}
	out := pageAnalyticsJSON{From: from, To: to, Views: st.Views, Visitors: st.Visitors, ContactSaves: st.ContactSaves,
		Reveals: st.Reveals, CalendarAdds: st.CalendarAdds, Clicks: []pageButtonJSON{}}
	for i, b := range pages.Buttons(p) {
		out.Clicks = append(out.Clicks, pageButtonJSON{Button: i, Label: b.Label, Kind: b.Kind, URL: b.URL, Clicks: st.Clicks[i]})
	}
	if r.URL.Query().Get("format") != "csv" {
		writeJSON(w, http.StatusOK, out)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="page-`+strconv.FormatInt(sp.ID, 10)+`-analytics.csv"`)
	cw := csv.NewWriter(w)
	cw.Write([]string{"metric", "button", "label", "url", "count"})
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, row := range [][2]string{{"views", n(out.Views)}, {"unique_visitors", n(out.Visitors)}, {"contact_saves", n(out.ContactSaves)},
		{"reveals", n(out.Reveals)}, {"calendar_adds", n(out.CalendarAdds)}} {
		cw.Write([]string{row[0], "", "", "", row[1]})
	}
	for _, c := range out.Clicks {
		cw.Write([]string{"clicks", strconv.Itoa(c.Button), csvSafe(c.Label), csvSafe(c.URL), n(c.Clicks)})
	}
	cw.Flush()
}

// csvSafe keeps a spreadsheet from reading a cell as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// periodParams reads from and to (RFC 3339 or YYYY-MM-DD, to exclusive;
// a date to counts its whole day). Default: the 30 days to now. On
// failure it has answered 400.
func periodParams(w http.ResponseWriter, r *http.Request, now time.Time) (from, to time.Time, ok bool) {
	parse := func(name string, def time.Time, endOfDay bool) (time.Time, bool) {
		raw := r.URL.Query().Get(name)
		if raw == "" {
			return def, true
		}
		if t, err := time.Parse(time.RFC3339, raw); err == nil {
			return t, true
		}
		if t, err := time.Parse("2006-01-02", raw); err == nil {
			if endOfDay {
				t = t.AddDate(0, 0, 1)
			}
			return t, true
		}
		fieldError(w, name, name+" must be a date (YYYY-MM-DD) or an RFC 3339 time")
		return time.Time{}, false
	}
	if to, ok = parse("to", now, true); !ok {
		return
	}
	if from, ok = parse("from", to.AddDate(0, 0, -30), false); !ok {
		return
	}
	if !from.Before(to) {
		fieldError(w, "from", "from must be before to")
		return from, to, false
	}
	return from, to, !analyticsDatesError(w, from, to)
}

// formPage reads a dynamic code form's pageId (issue 35): the
// workspace's page the code opens, whose URL becomes the destination when
// the form gives none. nil without a pageId; on failure it has answered.
func (s *server) formPage(w http.ResponseWriter, r *http.Request, values map[string]string) (*int64, bool) {
	raw := strings.TrimSpace(values["pageId"])
	if raw == "" {
		return nil, true
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	var sp *store.Page
	if err == nil && id > 0 && workspaceFrom(r.Context()) != nil {
		sp, err = s.store.Page(r.Context(), wsID(r), id)
	} else {
		err = store.ErrNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeJSON(w, http.StatusNotFound, apiError{Message: msgPageMissing, Errors: map[string]string{"pageId": msgPageMissing}})
		return nil, false
	case err != nil:
		s.internalError(w, "fetching a code's page", err)
		return nil, false
	}
	if strings.TrimSpace(values["destination"]) == "" {
		values["destination"] = s.pageURL(sp.Slug)
	}
	return &sp.ID, true
}

// setCodePage points the workspace's code id at the page raw names (a
// JSON id, or null to make it a redirect again). On failure it has answered.
func (s *server) setCodePage(w http.ResponseWriter, r *http.Request, id int64, raw json.RawMessage) (*store.DynamicCode, bool) {
	var pageID *int64
	dest := ""
	if v := strings.TrimSpace(string(raw)); v != "null" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fieldError(w, "pageId", "pageId must be a page's id or null")
			return nil, false
		}
		sp, err := s.store.Page(r.Context(), wsID(r), n)
		if errors.Is(err, store.ErrNotFound) {
			writeJSON(w, http.StatusNotFound, apiError{Message: msgPageMissing, Errors: map[string]string{"pageId": msgPageMissing}})
			return nil, false
		}
		if err != nil {
			s.internalError(w, "fetching a code's page", err)
			return nil, false
		}
		pageID, dest = &sp.ID, s.pageURL(sp.Slug)
	}
	d, err := s.store.SetDynamicPage(r.Context(), wsID(r), id, pageID, dest, s.now())
	if err != nil {
		s.answerDynamic(w, d, err)
		return nil, false
	}
	return d, true
}

// readPageID reads a PATCH's raw "pageId": absent (set false), null (a
// redirect again) or one of the workspace's pages (404 otherwise). On
// failure it has answered.
func (s *server) readPageID(w http.ResponseWriter, r *http.Request, raw json.RawMessage) (id *int64, set, ok bool) {
	if len(raw) == 0 {
		return nil, false, true
	}
	if string(raw) == "null" {
		return nil, true, true
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil || n <= 0 {
		fieldError(w, "pageId", "pageId must be a page's id or null")
		return nil, false, false
	}
	switch _, err := s.store.Page(r.Context(), wsID(r), n); {
	case errors.Is(err, store.ErrNotFound):
		writeJSON(w, http.StatusNotFound, apiError{Message: msgPageMissing, Errors: map[string]string{"pageId": msgPageMissing}})
		return nil, false, false
	case err != nil:
		s.internalError(w, "fetching a code's page", err)
		return nil, false, false
	}
	return &n, true, true
}
