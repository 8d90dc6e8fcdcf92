package server

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/sharelinks"
	"github.com/squarely/squarely/internal/store"
)

// Share links (package sharelinks): editors and up make and revoke them,
// every member lists them; /s/{token} is the public read-only page and
// /s/{token}.csv its CSV.

const (
	maxShareLinks     = 100 // live links per workspace
	msgShareMissing   = "Share link not found"
	msgShareScope     = "Give one of codeId, tagId, folderId or workspace: true"
	msgShareScopeGone = "The code, tag or folder to share was not found"
)

var msgShareLimit = "A workspace keeps at most " + strconv.Itoa(maxShareLinks) +
	" share links that have not expired. Revoke one to make another."

// shareCSP: the page has inline styles and SVG, one form to itself and no script.
const shareCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

type shareScopeJSON struct {
	CodeID    int64 `json:"codeId,omitempty"`
	TagID     int64 `json:"tagId,omitempty"`
	FolderID  int64 `json:"folderId,omitempty"`
	Workspace bool  `json:"workspace,omitempty"`
}

// valid reports whether the scope names exactly one of a code, a tag, a
// folder or the workspace (shared with report schedules).
func (sc *shareScopeJSON) valid() bool {
	set := 0
	for _, id := range []int64{sc.CodeID, sc.TagID, sc.FolderID} {
		if id != 0 {
			set++
		}
	}
	if sc.Workspace {
		set++
	}
	return set == 1 && sc.CodeID >= 0 && sc.TagID >= 0 && sc.FolderID >= 0
}

type shareLinkJSON struct {
	ID        int64          `json:"id"`
	Token     string         `json:"token,omitempty"` // only when made
	URL       string         `json:"url,omitempty"`   // only when made
	TokenHint string         `json:"tokenHint"`
	Scope     shareScopeJSON `json:"scope"`
	ScopeName string         `json:"scopeName"`
	Protected bool           `json:"protected"`
	ExpiresAt *string        `json:"expiresAt"`
	Expired   bool           `json:"expired"`
	CreatedAt string         `json:"createdAt"`
}

func (s *server) shareLinkJSON(l *store.ShareLink) shareLinkJSON {
	out := shareLinkJSON{
		ID: l.ID, TokenHint: l.TokenHint, ScopeName: l.ScopeName, Protected: l.PasswordHash != "",
		Scope:     shareScopeJSON{CodeID: l.CodeID, TagID: l.TagID, FolderID: l.FolderID, Workspace: l.CodeID+l.TagID+l.FolderID == 0},
		CreatedAt: l.CreatedAt.UTC().Format(time.RFC3339),
	}
	if l.ExpiresAt != nil {
		at := l.ExpiresAt.UTC().Format(time.RFC3339)
		out.ExpiresAt, out.Expired = &at, !s.now().Before(*l.ExpiresAt)
	}
	return out
}

// listShareLinks (GET /api/share-links): the workspace's links not revoked.
func (s *server) listShareLinks(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ShareLinks(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing share links", err)
		return
	}
	out := make([]shareLinkJSON, len(list))
	for i, l := range list {
		out[i] = s.shareLinkJSON(l)
	}
	writeJSON(w, http.StatusOK, out)
}

// createShareLink (POST /api/share-links {scope, expiresAt?, password?}) —
// 201 with the token and URL, shown this once.
func (s *server) createShareLink(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Scope     *shareScopeJSON `json:"scope"`
		ExpiresAt *time.Time      `json:"expiresAt"`
		Password  string          `json:"password"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	v := &validation{}
	l := &store.ShareLink{WorkspaceID: wsID(r), CreatedBy: auth.UserFrom(r.Context()).ID}
	if sc := in.Scope; sc == nil || !sc.valid() {
		v.add("scope", msgShareScope)
	} else {
		l.CodeID, l.TagID, l.FolderID = sc.CodeID, sc.TagID, sc.FolderID
	}
	if in.ExpiresAt != nil {
		if !in.ExpiresAt.After(s.now()) {
			v.add("expiresAt", "expiresAt must be in the future")
		} else if in.ExpiresAt.UTC().Year() > 9999 {
			// The databases' time text has four digits of year: a link
			// saved later could no longer be read, nor its workspace's list.
			v.add("expiresAt", "expiresAt must be before the year 10000 (UTC)")
		}
		at := in.ExpiresAt.UTC()
		l.ExpiresAt = &at
	}
	if in.Password != "" {
		checkNewPassword(v, "password", in.Password)
	}
	if v.failed(w) {
		return
	}
	if in.Password != "" {
		var ok bool
		if l.PasswordHash, ok = s.hashPassword(w, r, in.Password); !ok {
			return
		}
	}
	token, hash, hint := sharelinks.NewToken()
	l.TokenHash, l.TokenHint = hash, hint
	switch err := s.store.CreateShareLink(r.Context(), l, maxShareLinks, s.now()); {
	case errors.Is(err, store.ErrNotFound):
		fieldError(w, "scope", msgShareScopeGone)
		return
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, msgShareLimit)
		return
	case err != nil:
		s.internalError(w, "creating a share link", err)
		return
	}
	out := s.shareLinkJSON(l)
	out.Token, out.URL = token, s.cfg.BaseURL+"/s/"+token
	writeJSON(w, http.StatusCreated, out)
}

// deleteShareLink (DELETE /api/share-links/{id}) revokes a link: its page
// answers 410 from now on.
func (s *server) deleteShareLink(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgShareMissing)
	if !ok {
		return
	}
	switch err := s.store.RevokeShareLink(r.Context(), wsID(r), id, s.now()); {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgShareMissing)
	case err != nil:
		s.internalError(w, "revoking a share link", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// shareCookie names the cookie that remembers a protected link's password
// was given; its path covers the page and its CSV.
func shareCookie(l *store.ShareLink) string { return "share_" + strconv.FormatInt(l.ID, 10) }

// shareViewsPerMinute bounds, per client address, the requests for share
// pages, their CSVs and their password forms: each reads a whole range of
// analytics, and the page needs no sign-in. A reader changing the range
// now and then stays far below it.
const shareViewsPerMinute = 60

// msgShareViews answers a client over shareViewsPerMinute.
const msgShareViews = "Too many requests for shared reports from this address. Please wait a minute."

// sharePage serves GET and POST /s/{token} and GET /s/{token}.csv: the
// link's analytics (the range in the query, as the app's views take it),
// its password form, or 404 / 410. Every request is counted, a token that
// does not exist too, before any database read of the link.
func (s *server) sharePage(w http.ResponseWriter, r *http.Request) {
	if !s.shareViews.take(w, clientKey(r), msgShareViews) {
		return
	}
	token, csv := r.PathValue("token"), false
	if t, ok := strings.CutSuffix(token, ".csv"); ok && r.Method == http.MethodGet {
		token, csv = t, true
	}
	h := w.Header()
	h.Set("Content-Security-Policy", shareCSP)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the token stays out of Referer
	h.Set("X-Robots-Tag", "noindex")
	var l *store.ShareLink
	var err error
	if sharelinks.ValidToken(token) {
		l, err = s.store.ShareLinkByToken(r.Context(), sharelinks.HashToken(token))
	} else {
		err = store.ErrNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.sharePlain(w, http.StatusNotFound, "Not found", "There is no shared report at this address.")
		return
	case err != nil:
		s.internalError(w, "reading a share link", err)
		return
	case l.RevokedAt != nil || l.ExpiresAt != nil && !s.now().Before(*l.ExpiresAt):
		s.shareGone(w)
		return
	}
	if l.PasswordHash != "" {
		if r.Method == http.MethodPost {
			s.unlockShare(w, r, l, token)
			return
		}
		if c, err := r.Cookie(shareCookie(l)); err != nil || !sharelinks.Granted(c.Value, token, l.PasswordHash) {
			s.shareHTML(w, http.StatusUnauthorized, func(b *bytes.Buffer) error { return sharelinks.PasswordPage(b, "") })
			return
		}
	} else if r.Method == http.MethodPost {
		http.Redirect(w, r, "/s/"+token, http.StatusSeeOther)
		return
	}
	rep, ok := s.shareReport(w, r, l, token)
	if !ok {
		return
	}
	if csv {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="scans-`+rep.From.Format(time.DateOnly)+`.csv"`)
		h.Set("X-Content-Type-Options", "nosniff")
		if err := sharelinks.CSV(w, rep); err != nil {
			s.log.ErrorContext(r.Context(), "writing a share link's CSV", "err", err)
		}
		return
	}
	s.shareHTML(w, http.StatusOK, func(b *bytes.Buffer) error { return sharelinks.Page(b, rep) })
}

// unlockShare checks a protected link's password (POST /s/{token}), with
// the wrong guesses limited as for protected codes, and on success keeps
// a cookie for the link and shows its page.
func (s *server) unlockShare(w http.ResponseWriter, r *http.Request, l *store.ShareLink, token string) {
	r.Body = http.MaxBytesReader(w, r.Body, maxUnlockBody)
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	linkKey := "share:" + strconv.FormatInt(l.ID, 10)
	if !s.codePasswordsFrom.take(w, clientKey(r), msgCodePasswordTries) || !s.codePasswords.take(w, linkKey, msgCodePasswordTries) {
		return
	}
	match, ok := s.checkPassword(w, r, &store.User{PasswordHash: l.PasswordHash}, r.PostForm.Get("password"))
	if !ok {
		return
	}
	if !match {
		s.shareHTML(w, http.StatusUnauthorized, func(b *bytes.Buffer) error { return sharelinks.PasswordPage(b, msgCodePasswordWrong) })
		return
	}
	s.codePasswordsFrom.refund(clientKey(r))
	s.codePasswords.refund(linkKey)
	cookie := &http.Cookie{
		Name: shareCookie(l), Value: sharelinks.Grant(token, l.PasswordHash), Path: "/s/",
		HttpOnly: true, Secure: strings.HasPrefix(s.cfg.BaseURL, "https://"), SameSite: http.SameSiteLaxMode,
	}
	if l.ExpiresAt != nil {
		cookie.Expires = *l.ExpiresAt
	}
	http.SetCookie(w, cookie)
	http.Redirect(w, r, "/s/"+token, http.StatusSeeOther)
}

// shareReport reads the link's analytics for the request's range, as the
// app's analytics views do; on failure it has answered.
func (s *server) shareReport(w http.ResponseWriter, r *http.Request, l *store.ShareLink, token string) (*sharelinks.Report, bool) {
	q := l.Query()
	sr, ok := s.parseScanRange(w, r, q)
	if !ok {
		return nil, false
	}
	out, err := s.buildScanReport(r.Context(), q, sr)
	if errors.Is(err, store.ErrNotFound) { // the code was deleted
		s.shareGone(w)
		return nil, false
	}
	if err != nil {
		s.internalError(w, "reading a share link's analytics", err)
		return nil, false
	}
	rep := &sharelinks.Report{
		Token: token, Scope: "Workspace", Name: l.ScopeName, From: sr.from, To: sr.to, TimeZone: sr.loc.String(),
		Hourly: out.Granularity == "hour", AllTime: sr.allTime, Scans: out.Scans, Visitors: out.UniqueVisitors,
		NoVisitors: l.TagID > 0 || l.FolderID > 0, Countries: map[string]int64{"": out.UnknownCountry},
		Devices: out.Devices, OS: out.OS, Browsers: out.Browsers, Referrers: map[string]int64{},
		Attribution: out.Attribution, Now: s.now(), Places: out.CitiesEnabled,
		Regions: map[string]int64{}, Cities: map[string]int64{},
	}
	for _, p := range out.Regions {
		rep.Regions[store.RegionKey(p.Country, p.Region)] = p.Scans
	}
	for _, p := range out.Cities {
		rep.Cities[store.CityKey(p.Country, p.Region, p.City)] = p.Scans
	}
	switch {
	case l.CodeID > 0:
		rep.Scope = "Code"
	case l.TagID > 0:
		rep.Scope = "Tag"
	case l.FolderID > 0:
		rep.Scope = "Folder"
	}
	if out.Previous != nil {
		rep.Previous = &out.Previous.Scans
	}
	for _, p := range out.Series {
		at, _ := time.Parse(time.RFC3339, p.Start)
		rep.Series = append(rep.Series, sharelinks.Point{Start: at.In(sr.loc), Scans: p.Scans})
	}
	for _, c := range out.Countries {
		rep.Countries[c.Country] = c.Scans
	}
	for _, rc := range out.Referrers {
		rep.Referrers[rc.Referrer] += rc.Count
	}
	// The referrers beyond the report's first ten are "Other" here too.
	rep.Referrers[sharelinks.Other] += out.OtherReferrers
	return rep, true
}

func (s *server) shareHTML(w http.ResponseWriter, status int, render func(*bytes.Buffer) error) {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		s.internalError(w, "rendering a share page", err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *server) shareGone(w http.ResponseWriter) {
	s.shareHTML(w, http.StatusGone, func(b *bytes.Buffer) error { return sharelinks.GonePage(b) })
}

func (s *server) sharePlain(w http.ResponseWriter, status int, title, text string) {
	s.shareHTML(w, status, func(b *bytes.Buffer) error { return sharelinks.PlainPage(b, title, text) })
}
