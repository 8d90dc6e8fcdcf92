package server

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
)

// GS1 Digital Link (issue 38, docs/API.md "GS1 Digital Link"): a
// workspace's products and lots (internal/gs1 keeps them), and the
// resolver answering /01/{gtin}/… on the base URL and on every verified
// custom domain from the in-process cache.

const (
	// maxGS1Products bounds a workspace's products.
	maxGS1Products = 10000
	// maxGS1Import bounds a products CSV, in bytes.
	maxGS1Import = 5 << 20
	// gs1AnalyticsLimit is how many rows the GS1 analytics answer by
	// default: more than a table on a page shows at a glance.
	gs1AnalyticsLimit = 100
	// maxGS1AnalyticsLimit bounds the rows one answer of them holds.
	maxGS1AnalyticsLimit = 1000
)

// Invalidators returns the functions that apply an announced key
// (store.ListenRedirects, OnRedirectsChanged) to the caches: a GTIN's
// (store.GS1Key) to products, a page's (store.PageKey) to hosted pages, a
// short code to redirects; and lost, which empties them all when
// announcements may have been missed.
func Invalidators(redirects *scans.Cache, products *gs1.Cache, hosted *pages.Live) (changed func(key string), lost func()) {
	changed = func(key string) {
		if gtin, ok := store.AnnouncedGTIN(key); ok {
			products.Invalidate(gtin)
			return
		}
		if slug, ok := store.AnnouncedPage(key); ok {
			hosted.Forget(slug)
			return
		}
		redirects.Invalidate(key)
	}
	lost = func() {
		redirects.InvalidateAll()
		products.InvalidateAll()
		hosted.ForgetAll()
	}
	return changed, lost
}

// newGS1Products is the products' keeper of the server.
func (s *server) newGS1Products() *gs1.Products {
	return &gs1.Products{Store: s.store, Now: func() time.Time { return s.now() }, Limit: maxGS1Products,
		CheckHref: func(h string) string { _, problem := codes.CheckDestination(h); return problem }}
}

// answerGS1 answers a products request's error.
func (s *server) answerGS1(w http.ResponseWriter, r *http.Request, doing string, err error) {
	var invalid *gs1.Invalid
	switch {
	case errors.As(err, &invalid):
		writeJSON(w, http.StatusBadRequest, apiError{Message: invalid.Error(), Errors: invalid.Fields})
	case errors.Is(err, gs1.ErrMissing):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, gs1.ErrExists):
		writeError(w, http.StatusConflict, err.Error())
	case errors.Is(err, gs1.ErrLimit):
		writeError(w, http.StatusForbidden, err.Error())
	case r.Context().Err() != nil:
	default:
		s.internalError(w, doing, err)
	}
}

// listGS1Products (GET /api/gs1/products) answers the workspace's products.
func (s *server) listGS1Products(w http.ResponseWriter, r *http.Request) {
	list, err := s.gs1.List(r.Context(), wsID(r))
	if err != nil {
		s.answerGS1(w, r, "listing GS1 products", err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// getGS1Product (GET /api/gs1/products/{gtin}) answers one product.
func (s *server) getGS1Product(w http.ResponseWriter, r *http.Request) {
	gtin, err := gs1.PathGTIN(r.PathValue("gtin"))
	var p *gs1.Product
	if err == nil {
		p, err = s.gs1.Get(r.Context(), wsID(r), gtin)
	}
	if err != nil {
		s.answerGS1(w, r, "reading a GS1 product", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// createGS1Product (POST /api/gs1/products) saves a new product: 201.
func (s *server) createGS1Product(w http.ResponseWriter, r *http.Request) {
	var in gs1.Product
	if !decodeJSON(w, r, &in) {
		return
	}
	p, err := s.gs1.Create(r.Context(), wsID(r), &in)
	if err != nil {
		s.answerGS1(w, r, "creating a GS1 product", err)
		return
	}
	writeJSON(w, http.StatusCreated, p)
}

// updateGS1Product (PUT /api/gs1/products/{gtin}) replaces a product's
// name, links and lots.
func (s *server) updateGS1Product(w http.ResponseWriter, r *http.Request) {
	gtin, err := gs1.PathGTIN(r.PathValue("gtin"))
	if err != nil {
		s.answerGS1(w, r, "", err)
		return
	}
	var in gs1.Product
	if !decodeJSON(w, r, &in) {
		return
	}
	p, err := s.gs1.Update(r.Context(), wsID(r), gtin, &in)
	if err != nil {
		s.answerGS1(w, r, "updating a GS1 product", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// deleteGS1Product (DELETE /api/gs1/products/{gtin}): 204.
func (s *server) deleteGS1Product(w http.ResponseWriter, r *http.Request) {
	gtin, err := gs1.PathGTIN(r.PathValue("gtin"))
	if err == nil {
		err = s.gs1.Delete(r.Context(), wsID(r), gtin)
	}
	if err != nil {
		s.answerGS1(w, r, "deleting a GS1 product", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// recallGS1Lot (POST /api/gs1/products/{gtin}/lots/{lot}/recall {"href"})
// makes href the lot's recall notice and default link, audited.
func (s *server) recallGS1Lot(w http.ResponseWriter, r *http.Request) {
	gtin, err := gs1.PathGTIN(r.PathValue("gtin"))
	if err != nil {
		s.answerGS1(w, r, "", err)
		return
	}
	var in struct {
		Href string `json:"href"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	p, err := s.gs1.Recall(r.Context(), wsID(r), gtin, r.PathValue("lot"), strings.TrimSpace(in.Href))
	if err != nil {
		s.answerGS1(w, r, "recalling a GS1 lot", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// importGS1Products (POST /api/gs1/products/import, a text/csv body)
// creates or replaces the products a CSV lists.
func (s *server) importGS1Products(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "text/csv" {
		writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be text/csv")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxGS1Import))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "The file must be at most 5 MB")
		return
	}
	res, err := s.gs1.Import(r.Context(), wsID(r), strings.NewReader(string(body)))
	if err != nil {
		s.answerGS1(w, r, "importing GS1 products", err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// gs1Analytics (GET /api/gs1/analytics?from=&to=&limit=, UTC days
// YYYY-MM-DD, the last 30 by default) answers the most scanned (GTIN, lot,
// link type) rows of the range with the product's name, at most limit of
// them (gs1AnalyticsLimit by default, at most maxGS1AnalyticsLimit), and
// how many rows and scans it leaves off (otherRows, otherScans), so that
// a range of many GTINs, lots and days stays a bounded answer whose
// figures still add up to every scan.
func (s *server) gs1Analytics(w http.ResponseWriter, r *http.Request) {
	to := s.now().UTC().Truncate(24 * time.Hour)
	from := to.AddDate(0, 0, -29)
	for k, t := range map[string]*time.Time{"from": &from, "to": &to} {
		if v := r.URL.Query().Get(k); v != "" {
			d, err := time.Parse(time.DateOnly, v)
			if err != nil {
				fieldError(w, k, k+" must be a date, YYYY-MM-DD")
				return
			}
			*t = d
		}
	}
	if analyticsDatesError(w, from, to.AddDate(0, 0, 1)) {
		return
	}
	limit := gs1AnalyticsLimit
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxGS1AnalyticsLimit {
			fieldError(w, "limit", "limit must be a number from 1 to "+strconv.Itoa(maxGS1AnalyticsLimit))
			return
		}
		limit = n
	}
	counts, err := s.store.GS1ScanCounts(r.Context(), wsID(r), from, to, limit)
	if err != nil {
		s.internalError(w, "reading GS1 scans", err)
		return
	}
	type row struct {
		GTIN     string `json:"gtin"`
		Name     string `json:"name"`
		Lot      string `json:"lot"`
		LinkType string `json:"linkType"`
		Scans    int64  `json:"scans"`
		// OtherLots marks the row of the lots counted together
		// (store.GS1OtherLots, past store.GS1UnlistedLots a day).
		OtherLots bool `json:"otherLots,omitempty"`
	}
	out := make([]row, len(counts.Top))
	shown := int64(0)
	for i, c := range counts.Top {
		out[i] = row{c.GTIN, c.Name, c.Lot, c.LinkType, c.Scans, c.Lot == store.GS1OtherLots}
		shown += c.Scans
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"from": from.Format(time.DateOnly), "to": to.Format(time.DateOnly), "scans": out,
		"otherRows": counts.Rows - int64(len(out)), "otherScans": counts.Scans - shown,
	})
}

// gs1Problem answers a resolver error as RFC 9457 problem details, the
// shape GS1's resolver standard gives errors.
func gs1Problem(w http.ResponseWriter, status int, detail string) {
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "about:blank", "title": http.StatusText(status), "status": status, "detail": detail})
}

// resolveGS1 answers a GS1 Digital Link request (GET or HEAD
// /01/{gtin}[/22/…][/10/…][/21/…][?…]) from the cache: the linkset with
// ?linkType=all or Accept: application/linkset+json, else 307 to the
// link of the type asked for (the default link without one) in the
// language preferred. On a workspace's domain its products answer, on
// the base URL the first workspace to list the GTIN. A redirect is
// counted per GTIN, lot and link type (the lots the product does not list
// bounded per day: store.GS1UnlistedLots).
func (s *server) resolveGS1(w http.ResponseWriter, r *http.Request) {
	var query url.Values // most scans have no query: nothing to parse
	if r.URL.RawQuery != "" {
		query = r.URL.Query()
	}
	req, err := gs1.Parse(r.URL.EscapedPath(), query)
	if err != nil {
		gs1Problem(w, http.StatusBadRequest, err.Error())
		return
	}
	ws := hostWorkspace(r)
	e, err := s.gs1Cache.Lookup(r.Context(), req.GTIN, ws)
	if err != nil {
		if r.Context().Err() == nil {
			s.log.ErrorContext(r.Context(), "looking up a GTIN", "gtin", req.GTIN, "err", err)
			w.Header().Set("Retry-After", "5")
			gs1Problem(w, http.StatusServiceUnavailable, "Please try again in a moment")
		}
		return
	}
	if e == nil {
		gs1Problem(w, http.StatusNotFound, "No product is registered for GTIN "+req.GTIN)
		return
	}
	for _, name := range gs1Headers {
		if len(r.Header.Get(name)) > maxGS1Header {
			gs1Problem(w, http.StatusBadRequest, "The "+name+" header must be at most "+strconv.Itoa(maxGS1Header)+" bytes")
			return
		}
	}
	h := w.Header()
	h["Cache-Control"] = noStore
	h["Vary"] = gs1Vary
	// The linkset of the same path, a reference relative to the request's.
	h["Link"] = []string{"<" + r.URL.EscapedPath() + `?linkType=all>; rel="linkset"; type="` + gs1.LinksetType + `"`}
	if req.LinkType == "all" || acceptsLinkset(r) {
		origin := s.cfg.BaseURL
		if ws != 0 {
			origin = "https://" + strings.TrimSuffix(strings.ToLower(hostOnly(r.Host)), ".")
		}
		h.Set("Content-Type", gs1.LinksetType)
		w.WriteHeader(http.StatusOK)
		json.NewEncoder(w).Encode(e.Linkset(req.URI(origin), req.Lot()))
		return
	}
	a := e.Choose(req, r.Header.Get("Accept-Language"))
	if !a.Found {
		gs1Problem(w, http.StatusNotFound, "GTIN "+req.GTIN+" has no link to follow")
		return
	}
	if r.Method == http.MethodGet {
		lot := req.Lot()
		_, listed := e.Lots[lot]
		s.gs1Scans.Add(gs1.ScanKey{WorkspaceID: e.WorkspaceID, GTIN: req.GTIN, Lot: lot, LinkType: a.LinkType, Day: s.now().UTC().Format(time.DateOnly), Listed: listed})
	}
	h["Location"] = []string{a.Target.Location(req)}
	w.WriteHeader(http.StatusTemporaryRedirect)
}

// gs1Vary is the resolver's Vary header: its answers depend on both
// gs1Headers.
var (
	gs1Vary    = []string{"Accept, Accept-Language"}
	gs1Headers = [...]string{"Accept", "Accept-Language"}
)

// maxGS1Header bounds the Accept and Accept-Language headers the
// resolver reads: a browser's are a few hundred bytes at most. A
// megabyte's Accept-Language (500,000 tags) took 1.5 s and 73 MB to weigh
// against a product's links, its Accept 50 ms and 27 MB to read.
const maxGS1Header = 4096

// acceptsLinkset reports whether the request's Accept names the linkset
// media type.
func acceptsLinkset(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && mt == gs1.LinksetType && params["q"] != "0" {
			return true
		}
	}
	return false
}
