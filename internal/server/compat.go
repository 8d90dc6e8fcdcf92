package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/compat"
	"github.com/squarely/squarely/internal/compat/shlink"
	"github.com/squarely/squarely/internal/compat/yourls"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// The compatible APIs (issue 34 item 5, package compat): YOURLS's
// yourls-api.php and Shlink's /rest/v3. Their routes sit behind the
// public API's key checks (the key from X-Api-Key or signature=), and
// create codes through saveDynamicCode, as /api/v1/codes does.

// compatKey returns the wrapper of a compatible API's routes: the key
// keyOf finds is checked as /api/v1 checks a Bearer key (its workspace,
// expiry, rate limit, scope and its maker's role), and a refusal of those
// checks is answered by refuse in the project's own shape.
func (s *server) compatKey(public *publicapi.API, keyOf func(*http.Request) string, refuse compat.Refuse) func(auth.Permission, string, http.HandlerFunc) http.Handler {
	return func(p auth.Permission, scope string, h http.HandlerFunc) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := keyOf(r)
			r = r.Clone(r.Context())
			r.Header.Del("Idempotency-Key") // theirs have none; a replayed answer would be in our shape
			r.Header.Del("Authorization")
			if key != "" {
				r.Header.Set("Authorization", "Bearer "+key)
			}
			rec := &capture{header: http.Header{}}
			reached := false
			checks := public.Authenticate(public.Require(scope, s.in(p)(func(_ http.ResponseWriter, r *http.Request) {
				reached = true
				for k, v := range rec.header {
					w.Header()[k] = v // the rate limit's headers
				}
				h(w, r)
			})))
			checks.ServeHTTP(rec, r)
			if reached {
				return
			}
			for _, k := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
				if v := rec.header.Get(k); v != "" {
					w.Header().Set(k, v)
				}
			}
			var problem apiError
			json.Unmarshal(rec.body.Bytes(), &problem)
			refuse(w, r, rec.status, problem.Message)
		})
	}
}

// capture is a ResponseWriter that keeps what is written.
type capture struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *capture) Header() http.Header { return c.header }
func (c *capture) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}
func (c *capture) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(b)
}

// compatRoutes mounts YOURLS's and Shlink's APIs on root.
func (s *server) compatRoutes(root *http.ServeMux, public *publicapi.API) {
	links := compatLinks{s}
	fail := func(r *http.Request, doing string, err error) {
		s.log.ErrorContext(r.Context(), doing, "err", err)
	}
	wrap := func(h http.Handler) http.Handler {
		h = s.withClient(frameDenied(apiCSP, h))
		h = s.logRequests(h)
		if s.cfg.TrustProxy {
			h = forwardedFor(h)
		}
		return h
	}

	sh := &shlink.API{Links: links, Fail: fail}
	key := s.compatKey(public, shlink.APIKey, shlink.Refuse)
	rest := http.NewServeMux()
	rest.HandleFunc("GET /rest/health", sh.Health)
	rest.HandleFunc("GET /rest/v3/health", sh.Health)
	rest.Handle("POST /rest/v3/short-urls", key(auth.PermEdit, publicapi.ScopeCodesWrite, sh.Create))
	rest.Handle("GET /rest/v3/short-urls", key(auth.PermRead, publicapi.ScopeCodesRead, sh.List))
	rest.Handle("GET /rest/v3/short-urls/{shortCode}", key(auth.PermRead, publicapi.ScopeCodesRead, sh.Get))
	rest.Handle("PATCH /rest/v3/short-urls/{shortCode}", key(auth.PermEdit, publicapi.ScopeCodesWrite, sh.Edit))
	rest.Handle("DELETE /rest/v3/short-urls/{shortCode}", key(auth.PermEdit, publicapi.ScopeCodesWrite, sh.Delete))
	rest.Handle("GET /rest/v3/short-urls/{shortCode}/visits", key(auth.PermRead, publicapi.ScopeAnalyticsRead, sh.Visits))
	rest.Handle("GET /rest/v3/tags", key(auth.PermRead, publicapi.ScopeCodesRead, sh.Tags))
	root.Handle("/rest/", wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := rest.Handler(r); pattern == "" {
			shlink.NotFound(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})))

	ykey := s.compatKey(public, yourls.Signature, yourls.Refuse)
	yl := &yourls.API{Links: links, Fail: fail, Authorized: func(action string, h http.HandlerFunc) http.Handler {
		switch action {
		case "shorturl":
			return ykey(auth.PermEdit, publicapi.ScopeCodesWrite, h)
		case "url-stats", "db-stats":
			return ykey(auth.PermRead, publicapi.ScopeAnalyticsRead, h)
		default:
			return ykey(auth.PermRead, publicapi.ScopeCodesRead, h)
		}
	}}
	root.Handle("/yourls-api.php", wrap(yl))
}

// compatLinks is the app as the compatible APIs use it (compat.Links).
type compatLinks struct{ s *server }

func (c compatLinks) link(d *store.DynamicCode) compat.Link {
	l := compat.Link{ID: d.ID, ShortCode: d.ShortCode, ShortURL: c.s.codeURL(d), LongURL: d.Destination, Title: d.Name,
		Domain: d.Domain, Visits: d.ScanCount, CreatedAt: d.CreatedAt, Tags: []string{}}
	for _, t := range d.Tags {
		l.Tags = append(l.Tags, t.Name)
	}
	return l
}

// domainID is the id of the workspace's verified domain named name ("":
// the base URL, nil), or compat.ErrUnknownDomain.
func (c compatLinks) domainID(r *http.Request, name string) (*int64, error) {
	if name == "" {
		return nil, nil
	}
	list, err := c.s.store.Domains(r.Context(), wsID(r))
	if err != nil {
		return nil, err
	}
	for _, d := range list {
		if strings.EqualFold(d.Domain, strings.TrimSuffix(name, ".")) && d.VerifiedAt != nil {
			return &d.ID, nil
		}
	}
	return nil, compat.ErrUnknownDomain
}

// refusal turns an answer the app wrote into a compat.Refused.
func refusal(rec *capture) error {
	var p apiError
	json.Unmarshal(rec.body.Bytes(), &p)
	rf := &compat.Refused{Status: rec.status, Message: p.Message, Code: p.Code}
	for k := range p.Errors {
		if rf.Field == "" || k < rf.Field {
			rf.Field = k
		}
	}
	if rf.Status == 0 {
		rf.Status = http.StatusInternalServerError
	}
	return rf
}

func (c compatLinks) Create(r *http.Request, in compat.NewLink) (compat.Link, error) {
	domainID, err := c.domainID(r, in.Domain)
	if err != nil {
		return compat.Link{}, err
	}
	title := strings.TrimSpace(in.Title)
	if problem := codes.NameProblem(title); problem != "" {
		return compat.Link{}, &compat.Refused{Status: http.StatusBadRequest, Message: problem, Field: "name"}
	}
	tagIDs, err := c.tagIDs(r, in.Tags)
	if err != nil {
		return compat.Link{}, err
	}
	values := map[string]string{"destination": in.LongURL, "qrType": "url", "name": title, "shortCode": in.ShortCode}
	if domainID != nil {
		values["domainId"] = strconv.FormatInt(*domainID, 10)
	}
	rec := &capture{header: http.Header{}}
	d, ok := c.s.saveDynamicCode(rec, r, values, nil)
	if !ok {
		return compat.Link{}, refusal(rec)
	}
	ctx, ws := r.Context(), wsID(r)
	if folder := publicapi.KeyFolder(ctx); folder != nil {
		if err := c.s.store.SetCodeFolder(ctx, ws, true, d.ID, folder); err != nil {
			return compat.Link{}, err
		}
	}
	if len(tagIDs) > 0 {
		if err := c.s.store.SetCodeTags(ctx, ws, true, d.ID, tagIDs); err != nil {
			return compat.Link{}, err
		}
	}
	if d, err = c.s.store.DynamicCode(ctx, ws, d.ID); err != nil {
		return compat.Link{}, err
	}
	return c.link(d), nil
}

// tagIDs are the ids of the workspace's tags named names (tagIDsByName).
func (c compatLinks) tagIDs(r *http.Request, names []string) ([]int64, error) {
	ids, err := c.s.tagIDsByName(r.Context(), wsID(r), names)
	var crf *compatRefusal
	if errors.As(err, &crf) {
		return nil, &compat.Refused{Status: http.StatusBadRequest, Message: crf.msg, Field: "tags"}
	}
	return ids, err
}

// compatRefusal is a tag name refused by tagIDsByName.
type compatRefusal struct{ msg string }

func (e *compatRefusal) Error() string { return e.msg }

// tagIDsByName are the ids of the workspace's tags named names (without
// case, as the database's unique index compares them: store.NameKeys),
// made when missing: what a link's tags are for the compatible APIs and
// imports. A bad name, or more than 20, is a *compatRefusal.
func (s *server) tagIDsByName(ctx context.Context, ws int64, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if len(names) > 20 {
		return nil, &compatRefusal{"A link has at most 20 tags"}
	}
	names = slices.Clone(names)
	for i, name := range names {
		names[i] = strings.TrimSpace(name)
		v := &validation{}
		checkName(v, "tags", names[i], maxTagName)
		if rf, ok := codes.AsRefused(v.Err()); ok {
			return nil, &compatRefusal{"Tag " + strconv.Quote(names[i]) + ": " + rf.Message}
		}
	}
	list, keys, err := s.tagsKeyed(ctx, ws, names)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, name := range names {
		named := func(t *store.Tag) bool { return keys[t.Name] == keys[name] }
		i := slices.IndexFunc(list, named)
		if i < 0 {
			t := &store.Tag{Name: name, Color: defaultColor}
			err := s.store.CreateTag(ctx, ws, t, s.now())
			if errors.Is(err, store.ErrConflict) {
				// A parallel request made it first: it is that one.
				if list, keys, err = s.tagsKeyed(ctx, ws, names); err != nil {
					return nil, err
				}
				if i = slices.IndexFunc(list, named); i < 0 {
					// Renamed or deleted meanwhile.
					return nil, &compatRefusal{"Tag " + strconv.Quote(name) + ": another tag of that name was being changed at the same time; try again"}
				}
			} else if err != nil {
				return nil, err
			} else {
				list = append(list, t)
				i = len(list) - 1
			}
		}
		if !slices.Contains(ids, list[i].ID) {
			ids = append(ids, list[i].ID)
		}
	}
	return ids, nil
}

// tagsKeyed are the workspace's tags and the database's keys of their
// names and of names (store.NameKeys).
func (s *server) tagsKeyed(ctx context.Context, ws int64, names []string) ([]*store.Tag, map[string]string, error) {
	list, err := s.store.Tags(ctx, ws)
	if err != nil {
		return nil, nil, err
	}
	all := slices.Clone(names)
	for _, t := range list {
		all = append(all, t.Name)
	}
	keys, err := s.store.NameKeys(ctx, all)
	return list, keys, err
}

// code is the workspace's live code with shortCode on the host domain
// names (one of the workspace's verified domains; "" or the base URL's
// host: the base URL), within the key's folder, or compat.ErrNotFound.
// With no domain named, the workspace's only code with shortCode answers
// wherever it is: clients written before short codes were per host name
// none. When several of its hosts have it, the domain must be named.
func (c compatLinks) code(r *http.Request, shortCode, domain string) (*store.DynamicCode, error) {
	var domainID *int64
	named := domain != "" && !strings.EqualFold(hostOnly(strings.TrimSuffix(domain, ".")), c.s.clients.baseHost)
	if named {
		var err error
		if domainID, err = c.domainID(r, domain); err != nil {
			return nil, err
		}
	}
	list, err := c.s.store.DynamicCodesByShortCode(r.Context(), wsID(r), shortCode)
	if err != nil {
		return nil, err
	}
	d := store.CodeOnHost(list, domainID)
	if d == nil && !named && len(list) == 1 {
		d = list[0]
	}
	if d == nil {
		return nil, compat.ErrNotFound
	}
	if folder := publicapi.KeyFolder(r.Context()); folder != nil && (d.FolderID == nil || *d.FolderID != *folder) {
		return nil, compat.ErrNotFound
	}
	return d, nil
}

func (c compatLinks) Get(r *http.Request, shortCode, domain string) (compat.Link, error) {
	d, err := c.code(r, shortCode, domain)
	if err != nil {
		return compat.Link{}, err
	}
	return c.link(d), nil
}

func (c compatLinks) List(r *http.Request) ([]compat.Link, error) {
	ctx, ws := r.Context(), wsID(r)
	live, err := c.s.store.DynamicCodes(ctx, ws, false)
	if err != nil {
		return nil, err
	}
	paused, err := c.s.store.DynamicCodes(ctx, ws, true)
	if err != nil {
		return nil, err
	}
	all := append(live, paused...)
	slices.SortStableFunc(all, func(a, b *store.DynamicCode) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	folder := publicapi.KeyFolder(ctx)
	out := make([]compat.Link, 0, len(all))
	for _, d := range all {
		if folder != nil && (d.FolderID == nil || *d.FolderID != *folder) {
			continue
		}
		out = append(out, c.link(d))
	}
	return out, nil
}

func (c compatLinks) Edit(r *http.Request, shortCode, domain string, e compat.Edit) (compat.Link, error) {
	d, err := c.code(r, shortCode, domain)
	if err != nil {
		return compat.Link{}, err
	}
	ctx, ws := r.Context(), wsID(r)
	// Everything is checked before anything changes.
	var dest string
	if e.LongURL != nil {
		var problem string
		if dest, problem = codes.CheckDestination(*e.LongURL); problem != "" {
			return compat.Link{}, &compat.Refused{Status: http.StatusBadRequest, Message: problem, Field: "destination"}
		}
	}
	var title string
	if e.Title != nil {
		title = strings.TrimSpace(*e.Title)
		if problem := codes.NameProblem(title); problem != "" {
			return compat.Link{}, &compat.Refused{Status: http.StatusBadRequest, Message: problem, Field: "name"}
		}
	}
	var tagIDs []int64
	if e.Tags != nil {
		if tagIDs, err = c.tagIDs(r, *e.Tags); err != nil {
			return compat.Link{}, err
		}
	}
	if e.LongURL != nil || title != "" {
		changes := store.CodeChanges{Dynamic: true, ID: d.ID, Destination: dest, Name: title}
		out, err := c.s.store.UpdateCodes(ctx, ws, []store.CodeChanges{changes}, c.s.now())
		if err == nil {
			err = out[0].Err
		}
		if err != nil {
			return compat.Link{}, err
		}
	}
	if e.Title != nil && title == "" && d.Name != "" {
		// A title of null or "" clears it, as Shlink does (CodeChanges
		// takes an empty name for no change).
		if _, err := c.s.store.RenameDynamicCode(ctx, ws, d.ID, "", c.s.now()); err != nil {
			return compat.Link{}, err
		}
	}
	if e.Tags != nil {
		if err := c.s.store.SetCodeTags(ctx, ws, true, d.ID, tagIDs); err != nil {
			return compat.Link{}, err
		}
	}
	if d, err = c.s.store.DynamicCode(ctx, ws, d.ID); err != nil {
		return compat.Link{}, err
	}
	return c.link(d), nil
}

func (c compatLinks) Delete(r *http.Request, shortCode, domain string) error {
	d, err := c.code(r, shortCode, domain)
	if err != nil {
		return err
	}
	_, err = c.s.store.DeleteDynamicCode(r.Context(), wsID(r), d.ID, c.s.now())
	if errors.Is(err, store.ErrNotFound) {
		return compat.ErrNotFound
	}
	return err
}

func (c compatLinks) Visits(r *http.Request, shortCode, domain string) ([]compat.Visit, error) {
	d, err := c.code(r, shortCode, domain)
	if err != nil {
		return nil, err
	}
	var out []compat.Visit
	err = c.s.store.ScanEvents(r.Context(), wsID(r), d.ID, func(e *store.ScanEvent) error {
		out = append(out, compat.Visit{At: e.ScannedAt, Referrer: e.Referrer, Device: e.DeviceType, OS: e.OS, Browser: e.Browser,
			Country: e.Country, Bot: e.IsBot})
		return nil
	})
	slices.Reverse(out) // newest first
	return out, err
}

func (c compatLinks) Tags(r *http.Request) ([]string, error) {
	list, err := c.s.store.Tags(r.Context(), wsID(r))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, t := range list {
		out = append(out, t.Name)
	}
	return out, nil
}

func (c compatLinks) TagKeys(r *http.Request, names []string) (map[string]string, error) {
	return c.s.store.NameKeys(r.Context(), names)
}

func (c compatLinks) Stats(r *http.Request) (int64, int64, error) {
	list, err := c.List(r)
	if err != nil {
		return 0, 0, err
	}
	var clicks int64
	for _, l := range list {
		clicks += l.Visits
	}
	return int64(len(list)), clicks, nil
}
