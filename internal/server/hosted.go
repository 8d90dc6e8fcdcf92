package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/imaging"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
)

// Serving hosted pages (issue 35): GET /p/{slug} on the base URL and on
// the workspace's verified domains, and the scans of a code whose
// destination is a page (redirect.go answers /d/{code} with the page, no
// second redirect). A page's HTML is rendered once per version (and per
// variant: a revealed code, open or closed, an ended offer) and kept with
// its gzip; the version comes with the code's cached redirect, which an
// edit invalidates on every instance like a destination's, or for
// /p/{slug} and a routing rule's page from pages.Live, which the same
// announcement invalidates (Invalidators). Visitors' actions are saved
// off the request path as page events: no address is kept, only a daily
// salted hash.

const (
	maxRenderedPages = 2000 // page versions kept rendered; the cache is emptied past it
	pageEventQueue   = 10000
	pageEventBatch   = 200
)

// hostedPage is one version of a page, decoded, with its rendered variants.
type hostedPage struct {
	page        *pages.Page
	workspaceID int64
	sizes       map[int64][2]int // its images' sizes (srcset)
	mu          sync.Mutex
	variants    map[string]renderedPage
}

type renderedPage struct{ html, gz []byte }

type pageVersion struct{ id, version int64 }

// hostedPages caches pages for serving.
type hostedPages struct {
	mu       sync.Mutex
	versions map[pageVersion]*hostedPage
	live     *pages.Live // the current version of pages by slug and id

	saltMu sync.Mutex
	salt   []byte
}

func newHostedPages(live *pages.Live) *hostedPages {
	return &hostedPages{versions: map[pageVersion]*hostedPage{}, live: live}
}

// keep caches a loaded page version.
func (h *hostedPages) keep(hp *hostedPage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.versions) >= maxRenderedPages {
		clear(h.versions)
	}
	h.versions[pageVersion{hp.page.ID, hp.page.Version}] = hp
}

// loadPage reads page id (or the page at slug) from the store into the cache.
func (s *server) loadPage(ctx context.Context, id int64, slug string) (*hostedPage, error) {
	sp, err := s.store.LivePage(ctx, id, slug)
	if err != nil {
		return nil, err
	}
	p, err := s.decodePage(sp)
	if err != nil {
		return nil, err
	}
	var images []int64
	for _, u := range pages.Uploads(p, s.pageOptions()) {
		if u.Kind == "image" {
			images = append(images, u.ID)
		}
	}
	sizes, err := s.store.ImageSizes(ctx, images)
	if err != nil {
		return nil, err
	}
	hp := &hostedPage{page: p, workspaceID: sp.WorkspaceID, sizes: sizes, variants: map[string]renderedPage{}}
	s.hosted.keep(hp)
	return hp, nil
}

// pageByVersion is version of page id, from the cache or the store (which
// may hold a newer one: an edit the cached redirect has not seen yet).
func (s *server) pageByVersion(ctx context.Context, id, version int64) (*hostedPage, error) {
	s.hosted.mu.Lock()
	hp := s.hosted.versions[pageVersion{id, version}]
	s.hosted.mu.Unlock()
	if hp != nil {
		return hp, nil
	}
	return s.loadPage(ctx, id, "")
}

// currentPage is the current version of page id (slug ""), or of the page
// at slug (id 0): from the cache while pages.Live knows it, else from the
// store.
func (s *server) currentPage(ctx context.Context, id int64, slug string) (*hostedPage, error) {
	live := s.hosted.live
	var cur pages.Current
	var ok bool
	if id == 0 {
		cur, ok = live.BySlug(slug)
	} else {
		cur, ok = live.ByID(id)
	}
	if ok {
		s.hosted.mu.Lock()
		hp := s.hosted.versions[pageVersion{cur.ID, cur.Version}]
		s.hosted.mu.Unlock()
		if hp != nil {
			return hp, nil
		}
	}
	gen := live.Gen()
	hp, err := s.loadPage(ctx, id, slug)
	if err != nil {
		return nil, err
	}
	live.Keep(pages.Current{ID: hp.page.ID, Version: hp.page.Version, Slug: hp.page.Slug}, gen)
	return hp, nil
}

// render is the page's HTML for a variant, rendered once.
func (s *server) render(hp *hostedPage, reveal bool) (renderedPage, error) {
	now := s.now()
	variant := ""
	switch v := hp.page.Content.(type) {
	case *pages.CouponContent:
		switch {
		case v.Expired(now):
			variant, reveal = "ended", false
		case reveal:
			variant = "reveal"
		}
	case *pages.BusinessContent:
		open, known := v.Hours.OpenAt(v.TimeZone, now)
		variant = strconv.FormatBool(open) + strconv.FormatBool(known)
	default:
		reveal = false
	}
	hp.mu.Lock()
	out, ok := hp.variants[variant]
	hp.mu.Unlock()
	if ok {
		return out, nil
	}
	html, err := pages.Render(hp.page, pages.View{Base: "/p/" + hp.page.Slug, Now: now, Reveal: reveal, Sizes: hp.sizes, Opt: s.pageOptions()})
	if err != nil {
		return renderedPage{}, err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(html)
	zw.Close()
	out = renderedPage{html: html, gz: buf.Bytes()}
	hp.mu.Lock()
	hp.variants[variant] = out
	hp.mu.Unlock()
	return out, nil
}

// answerPage answers a request with hosted page hp: an app page sends
// phones to their store; a coupon's "Show code" (?show=code) is counted.
// The view itself is counted by the caller, which knows whether it was
// a scan.
func (s *server) answerHosted(w http.ResponseWriter, r *http.Request, hp *hostedPage, status int) {
	h := w.Header()
	if to := pages.StoreRedirect(hp.page, r.UserAgent()); to != "" {
		h.Set("Location", to)
		w.WriteHeader(http.StatusFound)
		return
	}
	_, coupon := hp.page.Content.(*pages.CouponContent)
	reveal := coupon && r.URL.Query().Get("show") == "code"
	out, err := s.render(hp, reveal)
	if err != nil {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "rendering a hosted page", "err", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	if reveal && r.Method == http.MethodGet && !hp.page.Content.(*pages.CouponContent).Expired(s.now()) {
		s.pageEvent(r, hp.page.ID, store.PageReveal, 0)
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pages.CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding, User-Agent")
	body := out.html
	if acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = out.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// answerPageScan answers a scan of a page code (redirect.go): the page
// itself.
func (s *server) answerPageScan(w http.ResponseWriter, r *http.Request, t scans.Target) {
	hp, err := s.pageByVersion(r.Context(), t.PageID, t.PageVersion)
	s.answerScannedPage(w, r, t, hp, err)
}

// answerRoutedPage answers a scan that a routing rule or split variant
// sends to page id (routing.go): the page itself, or after a code's
// password, a redirect (303) to its address. A page that is not the
// code's workspace's (the code moved) is not found.
func (s *server) answerRoutedPage(w http.ResponseWriter, r *http.Request, t scans.Target, id int64) {
	hp, err := s.currentPage(r.Context(), id, "")
	if err == nil && hp.workspaceID != t.WorkspaceID {
		err = store.ErrNotFound
	}
	if err == nil && r.Method == http.MethodPost {
		w.Header().Set("Location", s.pageURL(hp.page.Slug))
		w.WriteHeader(http.StatusSeeOther)
		return
	}
	s.answerScannedPage(w, r, t, hp, err)
}

// answerScannedPage answers a scan with page hp, read with err; the view
// is counted.
func (s *server) answerScannedPage(w http.ResponseWriter, r *http.Request, t scans.Target, hp *hostedPage, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.scanPage(w, http.StatusNotFound, s.clientBrand(r.Context(), t.ClientID), notFoundNotice)
		return
	case err != nil:
		s.routeFailed(w, r, "reading a hosted page", err)
		return
	}
	if r.Method == http.MethodGet {
		s.pageEvent(r, hp.page.ID, store.PageView, 0)
	}
	s.answerHosted(w, r, hp, http.StatusOK)
}

// slugPage is the page {slug} names, checked against the host: a
// workspace's domain serves its own pages only. On failure it has answered.
func (s *server) slugPage(w http.ResponseWriter, r *http.Request) (*hostedPage, bool) {
	w.Header()["Cache-Control"] = noStore
	slug := r.PathValue("slug")
	var hp *hostedPage
	err := store.ErrNotFound
	if pages.ValidSlug(slug) {
		hp, err = s.currentPage(r.Context(), 0, slug)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && hostWorkspace(r) != 0 && hp.workspaceID != hostWorkspace(r):
		s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
	case err != nil:
		s.routeFailed(w, r, "reading a hosted page", err)
	default:
		return hp, true
	}
	return nil, false
}

// servePage (GET /p/{slug}).
func (s *server) servePage(w http.ResponseWriter, r *http.Request) {
	hp, ok := s.slugPage(w, r)
	if !ok {
		return
	}
	if r.Method == http.MethodGet && r.URL.Query().Get("show") == "" {
		s.pageEvent(r, hp.page.ID, store.PageView, 0)
	}
	s.answerHosted(w, r, hp, http.StatusOK)
}

// pageGo (GET /p/{slug}/go/{n}): 302 to the page's button n, counted.
func (s *server) pageGo(w http.ResponseWriter, r *http.Request) {
	hp, ok := s.slugPage(w, r)
	if !ok {
		return
	}
	buttons := pages.Buttons(hp.page)
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 || n >= len(buttons) || strconv.Itoa(n) != r.PathValue("n") {
		s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
		return
	}
	b := buttons[n]
	if r.Method == http.MethodGet {
		s.pageEvent(r, hp.page.ID, store.PageClick, n)
		if b.Kind == "calendar" {
			s.pageEvent(r, hp.page.ID, store.PageCalendar, 0)
		}
	}
	target := b.URL
	if strings.HasPrefix(target, "/") { // a menu file: our own upload's page
		target = s.cfg.BaseURL + target
	}
	w.Header().Set("Location", target)
	w.WriteHeader(http.StatusFound)
}

// pageContact (GET /p/{slug}/contact.vcf[?version=3.0]): a contact card's
// vCard, its photo embedded; counted as a contact save.
func (s *server) pageContact(w http.ResponseWriter, r *http.Request) {
	hp, ok := s.slugPage(w, r)
	if !ok {
		return
	}
	v, ok := hp.page.Content.(*pages.VCardContent)
	if !ok {
		s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
		return
	}
	photo, err := s.pagePhoto(r.Context(), hp, v.PhotoURL)
	if errors.Is(err, errBusy) {
		busy(w)
		return
	}
	if err != nil {
		s.routeFailed(w, r, "reading a contact's photo", err)
		return
	}
	version := "4.0"
	if r.URL.Query().Get("version") == "3.0" {
		version = "3.0"
	}
	card := pages.VCard(v, version, photo)
	if r.Method == http.MethodGet {
		s.pageEvent(r, hp.page.ID, store.PageSave, 0)
	}
	h := w.Header()
	h.Set("Content-Type", "text/vcard; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="contact.vcf"`)
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(card)
}

// vcardPhotoWidth is the widest photo a contact card embeds: a phone shows
// it as a small round picture, and the card is built on each download, so
// a 10 MB upload embedded as it is cost about 40 MB a request on a public
// URL. Wider photos are embedded scaled (and cached) as the page's images are.
const vcardPhotoWidth = 640

// pagePhoto is the uploaded image a page names, at most vcardPhotoWidth
// wide (nil for none, or one that is no longer there or not the page's
// workspace's). No scale slot freeing in time is errBusy.
func (s *server) pagePhoto(ctx context.Context, hp *hostedPage, url string) (*pages.Photo, error) {
	u, ok := s.pageOptions().ImageRef(url)
	if !ok {
		return nil, nil
	}
	info, err := s.store.BlobInfo(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if info.WorkspaceID == nil || *info.WorkspaceID != hp.workspaceID || info.Kind != "image" {
		return nil, nil
	}
	if info.Width > vcardPhotoWidth {
		img, err := s.scaleBlob(ctx, info.ID, info.SHA256, vcardPhotoWidth)
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, imaging.ErrFormat) {
			return nil, nil // gone meanwhile, or unreadable: the card without it
		}
		if err != nil {
			return nil, err
		}
		return &pages.Photo{Data: img.Data, ContentType: img.ContentType}, nil
	}
	b, err := s.store.Blob(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &pages.Photo{Data: b.Data, ContentType: b.ContentType}, nil
}

// pageEvent (GET /p/{slug}/event.ics): an event page's calendar file;
// counted as a calendar add.
func (s *server) pageCalendar(w http.ResponseWriter, r *http.Request) {
	hp, ok := s.slugPage(w, r)
	if !ok {
		return
	}
	v, ok := hp.page.Content.(*pages.EventContent)
	if !ok {
		s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
		return
	}
	ics, err := pages.ICS(v, "page-"+strconv.FormatInt(hp.page.ID, 10)+"@"+s.clients.baseHost, s.pageURL(hp.page.Slug), s.now())
	if err != nil {
		s.internalError(w, "writing an event's calendar", err)
		return
	}
	if r.Method == http.MethodGet {
		s.pageEvent(r, hp.page.ID, store.PageCalendar, 0)
	}
	h := w.Header()
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="event.ics"`)
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(ics)
}

// pageEvent queues a visitor's action (PageEvents); a full queue drops
// it (counted) rather than slow the page.
func (s *server) pageEvent(r *http.Request, pageID int64, kind string, button int) {
	if scans.ParseUserAgent(r.UserAgent()).IsBot {
		return
	}
	now := s.now()
	e := store.PageEvent{PageID: pageID, Kind: kind, Button: button, Visitor: s.visitorHash(r, now), At: now}
	s.pageEvents.add(e)
}

// visitorHash is a visitor's id for a day: an HMAC of the day, the
// client's address and user agent under a secret every instance shares.
// The address is never stored.
func (s *server) visitorHash(r *http.Request, now time.Time) string {
	h := s.hosted
	h.saltMu.Lock()
	if h.salt == nil {
		fresh := make([]byte, 32)
		rand.Read(fresh)
		salt, err := s.store.Secret(context.WithoutCancel(r.Context()), "page-visitors", fresh)
		if err == nil {
			h.salt = salt
		}
	}
	salt := h.salt
	h.saltMu.Unlock()
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(now.UTC().Format("2006-01-02") + "\x00" + clientIP(r) + "\x00" + r.UserAgent()))
	return hex.EncodeToString(m.Sum(nil)[:12])
}
