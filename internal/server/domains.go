package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
)

// Custom domains of workspaces (issue 25 item 7, docs/API.md "Domains"):
// a workspace claims a domain, proves it controls it with a DNS TXT record
// or an HTTP token, and its dynamic codes may then print
// https://{domain}/d/{code}. Such a host serves /d/ for its workspace's
// codes only, and sends everything else to the base URL, where the app is.

const (
	// maxWorkspaceDomains bounds a workspace's claims, pending or verified.
	maxWorkspaceDomains = 20
	// domainChecksPerHour bounds verifications per workspace: each one
	// makes a DNS lookup and an HTTP request to a host the user names.
	domainChecksPerHour = 30

	msgDomainMissing  = codes.MsgDomainMissing
	msgDomainAlone    = "Enter the domain alone, such as qr.example.com: no scheme, port, path or wildcard"
	msgDomainInvalid  = "Domain must be a host name such as qr.example.com"
	msgDomainIP       = "An IP address cannot be a domain: enter a host name such as qr.example.com"
	msgDomainOurs     = "This is Squarely's own host or one of its subdomains"
	msgDomainClient   = "A white-label client's site already uses this domain"
	msgDomainTaken    = "Another workspace has verified this domain"
	msgDomainUnproved = codes.MsgDomainUnproved
)

// domainResponse is a domain as the API shows it, with what to publish to
// verify it.
type domainResponse struct {
	ID            int64      `json:"id"`
	Domain        string     `json:"domain"`
	Status        string     `json:"status"` // "pending", "verified" or "lost"
	Method        *string    `json:"method"` // "dns" or "http" once verified
	VerifiedAt    *time.Time `json:"verifiedAt"`
	LastCheckedAt *time.Time `json:"lastCheckedAt"`
	LastError     string     `json:"lastError"`
	LostAt        *time.Time `json:"lostAt"` // since the daily re-checks stopped finding the proof
	Codes         int        `json:"codes"`  // live dynamic codes printing it
	TXTName       string     `json:"txtName"`
	TXTValue      string     `json:"txtValue"`
	HTTPURL       string     `json:"httpUrl"`
	HTTPBody      string     `json:"httpBody"`
	CreatedAt     time.Time  `json:"createdAt"`
	// LinksOnly: / redirects to RootURL ("": a 404 page) and unknown
	// paths answer a 404 page, not the app (issue 34).
	LinksOnly bool   `json:"linksOnly"`
	RootURL   string `json:"rootUrl"`
	// Where to point the domain: a CNAME to CNAMETarget (the base host),
	// or A/AAAA records with Addresses (SQUARELY_PUBLIC_IPS, may be
	// empty); Pointing once the pointing check has seen the domain's
	// requests reach this instance, and PointError what it found instead.
	CNAMETarget    string     `json:"cnameTarget"`
	Addresses      []string   `json:"addresses"`
	Pointing       bool       `json:"pointing"`
	PointCheckedAt *time.Time `json:"pointCheckedAt"`
	PointError     string     `json:"pointError"`
}

func (s *server) domainJSON(d *store.Domain) domainResponse {
	out := domainResponse{
		ID: d.ID, Domain: d.Domain, Status: "pending", VerifiedAt: d.VerifiedAt, LastCheckedAt: d.LastCheckedAt,
		LastError: d.LastError, LostAt: d.LostAt, Codes: d.Codes, CreatedAt: d.CreatedAt,
		TXTName: domains.VerifyLabel + d.Domain, TXTValue: domains.VerifyPrefix + d.Token,
		HTTPURL: "http://" + d.Domain + domains.VerifyPath + d.Token, HTTPBody: d.Token,
		LinksOnly: d.LinksOnly, RootURL: d.RootURL,
		CNAMETarget: s.clients.baseHost, Addresses: make([]string, len(s.cfg.PublicIPs)),
		Pointing: d.PointedAt != nil, PointCheckedAt: d.PointCheckedAt, PointError: d.PointError,
	}
	for i, ip := range s.cfg.PublicIPs {
		out.Addresses[i] = ip.String()
	}
	switch {
	case d.LostAt != nil:
		out.Status, out.Method = "lost", &d.Method
	case d.VerifiedAt != nil:
		out.Status, out.Method = "verified", &d.Method
	}
	return out
}

// normalizeDomain returns the ASCII (punycode), lower-case form of a
// domain a user typed, or the message refusing it.
func (s *server) normalizeDomain(raw string) (string, string) {
	d := strings.TrimSpace(raw)
	switch {
	case d == "":
		return "", "Domain is required"
	case len(d) > 4*maxHostLength || !utf8.ValidString(d):
		return "", msgDomainInvalid
	case strings.ContainsAny(d, "/:@*?#[]\\ "):
		return "", msgDomainAlone
	}
	d = strings.TrimSuffix(d, ".")
	if _, err := netip.ParseAddr(d); err == nil {
		return "", msgDomainIP
	}
	ascii, err := idna.Lookup.ToASCII(d)
	if err != nil {
		return "", msgDomainInvalid
	}
	labels := strings.Split(ascii, ".")
	if top := labels[len(labels)-1]; strings.Trim(top, "0123456789") == "" {
		return "", msgDomainIP // 1.2.3 and the like: not a name
	}
	if ascii == s.clients.baseHost || strings.HasSuffix(ascii, "."+s.clients.baseHost) {
		return "", msgDomainOurs
	}
	if !s.validCustomDomain(ascii) {
		return "", msgDomainInvalid
	}
	return ascii, ""
}

// clientDomain reports whether an active white-label client serves host;
// on failure it has answered 500.
func (s *server) clientDomain(w http.ResponseWriter, r *http.Request, host string) (bool, bool) {
	c, err := s.clients.byHost(r.Context(), host)
	if err != nil {
		s.internalError(w, "checking white-label domains", err)
		return false, false
	}
	return c != nil, true
}

// listDomains (GET /api/domains, every member: editors pick a code's
// domain) answers the workspace's domains by name.
func (s *server) listDomains(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Domains(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing domains", err)
		return
	}
	out := make([]domainResponse, len(list))
	for i, d := range list {
		out[i] = s.domainJSON(d)
	}
	writeJSON(w, http.StatusOK, out)
}

// createDomain (POST /api/domains {"domain"}, admins and owners) claims a
// domain: 201 with the TXT record and the HTTP token that would prove it.
func (s *server) createDomain(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Domain string `json:"domain"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	host, problem := s.normalizeDomain(in.Domain)
	if problem != "" {
		fieldError(w, "domain", problem)
		return
	}
	served, ok := s.clientDomain(w, r, host)
	if !ok {
		return
	}
	if served {
		writeError(w, http.StatusConflict, msgDomainClient)
		return
	}
	d := &store.Domain{Domain: host, Token: strings.ToLower(rand.Text())}
	err := s.store.CreateDomain(r.Context(), wsID(r), d, maxWorkspaceDomains, s.now())
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "This workspace has already added this domain")
	case errors.Is(err, store.ErrDomainTaken):
		writeError(w, http.StatusConflict, msgDomainTaken)
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, fmt.Sprintf("A workspace can have at most %d domains", maxWorkspaceDomains))
	case err != nil:
		s.internalError(w, "adding a domain", err)
	default:
		writeJSON(w, http.StatusCreated, s.domainJSON(d))
	}
}

// verifyDomain (POST /api/domains/{id}/verify, admins and owners) looks
// for the TXT record, then the HTTP token: 200 with the domain verified,
// or 422 with what was found instead (also kept as its lastError). A
// verified domain answers 200 as it is.
func (s *server) verifyDomain(w http.ResponseWriter, r *http.Request) {
	d, ok := s.pathDomain(w, r)
	if !ok {
		return
	}
	ctx, ws, id := r.Context(), d.WorkspaceID, d.ID
	if d.VerifiedAt != nil {
		writeJSON(w, http.StatusOK, s.domainJSON(d))
		return
	}
	if !s.domainChecks.take(w, strconv.FormatInt(ws, 10), "Too many verification attempts. Please try again in an hour.") {
		return
	}
	served, ok := s.clientDomain(w, r, d.Domain)
	if !ok {
		return
	}
	method, problem := "", msgDomainClient
	if !served {
		checkCtx, cancel := context.WithTimeout(ctx, domains.CheckTimeout)
		method, problem = s.verifier.Check(checkCtx, d.Domain, d.Token)
		cancel()
	}
	d, err := s.store.RecordDomainCheck(context.WithoutCancel(ctx), ws, id, method, problem, s.now())
	switch {
	case errors.Is(err, store.ErrDomainTaken):
		writeError(w, http.StatusConflict, msgDomainTaken)
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgDomainMissing)
	case err != nil:
		s.internalError(w, "recording a domain check", err)
	case d.VerifiedAt == nil:
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Message: problem, Code: "verification_failed"})
	default:
		s.domains.invalidate()
		// Proved: whether it points here too is the next thing its owner
		// needs to know, and checking now saves them a second click.
		if pointed, err := s.recordPointing(ctx, d); err == nil {
			d = pointed
		} else {
			s.log.ErrorContext(ctx, "recording a domain's pointing check", "err", err)
		}
		writeJSON(w, http.StatusOK, s.domainJSON(d))
	}
}

// checkDomainPointing (POST /api/domains/{id}/pointing, admins and
// owners) checks again whether a verified domain's requests reach this
// instance: 200 with the domain pointing here, 422 "not_pointing" with
// what its DNS records show instead (kept as its pointError), 409 while
// the domain is not verified.
func (s *server) checkDomainPointing(w http.ResponseWriter, r *http.Request) {
	d, ok := s.pathDomain(w, r)
	if !ok {
		return
	}
	if d.VerifiedAt == nil {
		writeJSON(w, http.StatusConflict, apiError{Message: "Verify the domain first: then check where it points", Code: "not_verified"})
		return
	}
	if !s.domainChecks.take(w, strconv.FormatInt(d.WorkspaceID, 10), "Too many verification attempts. Please try again in an hour.") {
		return
	}
	d, err := s.recordPointing(r.Context(), d)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDomainUnverified):
		writeError(w, http.StatusNotFound, msgDomainMissing) // deleted or released meanwhile
	case err != nil:
		s.internalError(w, "recording a domain's pointing check", err)
	case d.PointedAt == nil:
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Message: d.PointError, Code: "not_pointing"})
	default:
		writeJSON(w, http.StatusOK, s.domainJSON(d))
	}
}

// pathDomain is the request's workspace's domain the path's {id} names;
// otherwise it has answered (404 for another workspace's or a bad id).
func (s *server) pathDomain(w http.ResponseWriter, r *http.Request) (*store.Domain, bool) {
	id, ok := idParam(w, r, "id", msgDomainMissing)
	if !ok {
		return nil, false
	}
	d, err := s.store.Domain(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgDomainMissing)
		return nil, false
	case err != nil:
		s.internalError(w, "fetching a domain", err)
		return nil, false
	}
	return d, true
}

// recordPointing runs the pointing check of verified domain d and saves
// its outcome.
func (s *server) recordPointing(ctx context.Context, d *store.Domain) (*store.Domain, error) {
	checkCtx, cancel := context.WithTimeout(ctx, domains.CheckTimeout)
	problem := s.verifier.CheckPointing(checkCtx, d.Domain, s.pointTarget())
	cancel()
	return s.store.RecordDomainPointing(context.WithoutCancel(ctx), d.WorkspaceID, d.ID, problem, s.now())
}

// pointTarget is where custom domains should point to reach this instance.
func (s *server) pointTarget() domains.Target {
	return domains.TargetOf(s.cfg.BaseURL, s.cfg.PublicIPs)
}

// answerReach (GET /.well-known/squarely-reach/{nonce}, on every host)
// answers the pointing check: the answer ties the nonce to the host it
// came by and to this instance's base URL.
func (s *server) answerReach(w http.ResponseWriter, r *http.Request) {
	nonce := r.PathValue("nonce")
	host, _ := s.customHost(r)
	w.Header()["Cache-Control"] = noStore
	if !domains.ValidNonce(nonce) || host == "" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, domains.ReachAnswer(s.cfg.BaseURL, host, nonce))
}

// deleteDomain (DELETE /api/domains/{id}, admins and owners): 204. A
// domain live codes print is refused (409): their printed URLs would stop
// working; move the codes to another domain first.
func (s *server) deleteDomain(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgDomainMissing)
	if !ok {
		return
	}
	_, err := s.store.DeleteDomain(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgDomainMissing)
	case errors.Is(err, store.ErrDomainInUse):
		writeError(w, http.StatusConflict, "Dynamic codes print this domain: move them to another domain before deleting it")
	case err != nil:
		s.internalError(w, "deleting a domain", err)
	default:
		s.domains.invalidate()
		w.WriteHeader(http.StatusNoContent)
	}
}

// domainCache maps hosts to the verified workspace domains they are; a
// nil domain is a host that is none.
type domainCache struct {
	store *store.Store
	now   func() time.Time
	hosts cacheMap[string, *store.Domain]
}

func (dc *domainCache) byHost(ctx context.Context, host string) (*store.Domain, error) {
	if d, ok := dc.hosts.get(host, dc.now()); ok {
		return d, nil
	}
	d, err := dc.store.VerifiedDomain(ctx, host)
	if errors.Is(err, store.ErrNotFound) {
		d, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	dc.hosts.put(host, d, dc.now())
	return d, nil
}

// invalidate forgets every host, after a verification or a deletion.
func (dc *domainCache) invalidate() { dc.hosts.clear() }

// hostKey is the context key of the verified domain a request came by
// (scans.Host).
type hostKey struct{}

// onCustomDomain serves requests that come by a workspace's verified
// domain: /d/ for that workspace's codes only (lookupScan) and /01/ for
// its GS1 products (resolveGS1), and /{shortCode} as /d/{shortCode} (issue
// 34: a root path that is a short code's, not one of the app's words,
// codes.ShortCodeReserved). Everything else is redirected to the base URL,
// where the app is; on a links-only domain / redirects to the URL the
// workspace chose and everything else answers the workspace's 404 page.
func (s *server) onCustomDomain(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, custom := s.customHost(r)
		if !custom {
			next.ServeHTTP(w, r)
			return
		}
		d, err := s.domains.byHost(r.Context(), host)
		if err != nil {
			// The base site is a safe answer while the store is down.
			s.log.ErrorContext(r.Context(), "resolving a custom domain", "err", err)
		}
		if d == nil {
			next.ServeHTTP(w, r)
			return
		}
		inDomain := func(r *http.Request) *http.Request {
			return r.WithContext(context.WithValue(r.Context(), hostKey{}, scans.Host{DomainID: d.ID, WorkspaceID: d.WorkspaceID}))
		}
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch code := rootShortCode(r.URL.Path); {
		case strings.HasPrefix(r.URL.Path, "/d/") || strings.HasPrefix(r.URL.Path, "/01/") || strings.HasPrefix(r.URL.Path, "/p/") ||
			strings.HasPrefix(r.URL.Path, domains.ReachPath):
			next.ServeHTTP(w, inDomain(r))
		case code != "" && (read || r.Method == http.MethodPost):
			// Exactly as /d/{shortCode}: its scan, rules, pages and the
			// password form, which posts back to the same path.
			r = inDomain(r)
			r.URL.Path, r.URL.RawPath = "/d/"+code, ""
			next.ServeHTTP(w, r)
		case d.LinksOnly && r.URL.Path == "/" && read && d.RootURL != "":
			w.Header()["Cache-Control"] = noStore
			http.Redirect(w, r, d.RootURL, http.StatusFound)
		case d.LinksOnly:
			w.Header()["Cache-Control"] = noStore
			s.scanPage(w, http.StatusNotFound, s.clientBrand(r.Context(), d.ClientID), notFoundNotice)
		case read:
			http.Redirect(w, r, s.cfg.BaseURL+r.URL.RequestURI(), http.StatusFound)
		default:
			writeError(w, http.StatusNotFound, "Not found")
		}
	})
}

// rootShortCode is the short code a root path /{shortCode} of a custom
// domain names, or "" when the path is not one: more than one segment, a
// character no short code has, or a word the app uses at the root.
func rootShortCode(path string) string {
	code, ok := strings.CutPrefix(path, "/")
	if !ok || !codes.RootShortCode(code) {
		return ""
	}
	return code
}

// setDomainLinks (PATCH /api/domains/{id} {"linksOnly", "rootUrl"},
// admins and owners) sets whether a domain serves links only and where
// its / redirects then (an http(s) URL, "" for a 404 page).
func (s *server) setDomainLinks(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgDomainMissing)
	if !ok {
		return
	}
	var in struct {
		LinksOnly bool   `json:"linksOnly"`
		RootURL   string `json:"rootUrl"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	root := strings.TrimSpace(in.RootURL)
	if root != "" {
		var problem string
		if root, problem = codes.CheckDestination(root); problem != "" {
			fieldError(w, "rootUrl", problem)
			return
		}
	}
	d, err := s.store.SetDomainLinks(r.Context(), wsID(r), id, in.LinksOnly, root)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgDomainMissing)
	case err != nil:
		s.internalError(w, "setting a domain's links", err)
	default:
		s.domains.invalidate()
		writeJSON(w, http.StatusOK, s.domainJSON(d))
	}
}

// customHost is the request's host, lower case, and whether it may be a
// workspace's domain: not empty, not the base host, not too long to be one.
func (s *server) customHost(r *http.Request) (string, bool) {
	host := strings.TrimSuffix(strings.ToLower(hostOnly(r.Host)), ".")
	return host, host != "" && host != s.clients.baseHost && len(host) <= maxHostLength
}

// scanHost is the verified domain the request came by, the zero Host for
// any other host (the base URL's, a white-label client's).
func scanHost(r *http.Request) scans.Host {
	h, _ := r.Context().Value(hostKey{}).(scans.Host)
	return h
}

// hostWorkspace is the workspace whose verified domain the request came
// by, 0 for any other host.
func hostWorkspace(r *http.Request) int64 { return scanHost(r).WorkspaceID }

// codeURL is the URL dynamic code d encodes: on its custom domain (always
// https: the domain's certificate is Squarely's, SQUARELY_TLS, or its
// proxy's), else on its client's host or the base URL.
//
// A chosen short code on a custom domain prints in root form,
// https://{domain}/{shortCode} (issue 34), which the domain answers as
// /d/{shortCode}; random codes keep the /d/ form they were printed with.
func (s *server) codeURL(d *store.DynamicCode) string {
	return codes.PrintedURL(s.clientBaseURL(d.ClientID), d.Domain, d.ShortCode, d.ShortCodeChosen)
}

// readDomainID reads a code's "domainId": absent (set false), null (the
// base URL) or a positive id. On failure it has answered 400.
func readDomainID(w http.ResponseWriter, raw json.RawMessage) (id *int64, set, ok bool) {
	if len(raw) == 0 {
		return nil, false, true
	}
	if string(raw) == "null" {
		return nil, true, true
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil || n <= 0 {
		fieldError(w, "domainId", codes.MsgDomainID)
		return nil, false, false
	}
	return &n, true, true
}

// answerDomainRefused answers a code's domain the store refused, and
// reports whether err was one.
func answerDomainRefused(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, store.ErrDomainUnverified):
		fieldError(w, "domainId", msgDomainUnproved)
	case errors.Is(err, store.ErrDomainNotPointing):
		fieldError(w, "domainId", codes.MsgDomainNotPointing)
	case errors.Is(err, errDomainMissing):
		writeError(w, http.StatusNotFound, msgDomainMissing)
	default:
		return false
	}
	return true
}

// errDomainMissing is a code's domain that is not the workspace's, told
// apart from the code itself not being found.
var errDomainMissing = errors.New("server: no such domain in the workspace")

// codeDomain returns the verified domain id names in the request's
// workspace and points here: errDomainMissing, store.ErrDomainUnverified
// or store.ErrDomainNotPointing otherwise.
func (s *server) codeDomain(ctx context.Context, workspaceID, id int64) (*store.Domain, error) {
	d, err := s.store.Domain(ctx, workspaceID, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, errDomainMissing
	case err != nil:
		return nil, err
	case d.VerifiedAt == nil:
		return nil, store.ErrDomainUnverified
	case d.PointedAt == nil:
		return nil, store.ErrDomainNotPointing
	}
	return d, nil
}
