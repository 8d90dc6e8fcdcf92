package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/squarely/squarely/internal/netguard"
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
	// domainCheckTimeout bounds one verification, both methods together.
	domainCheckTimeout = 15 * time.Second
	// maxTokenAnswer is as much of the HTTP token's answer as is read.
	maxTokenAnswer = 1024
	// verifyLabel and verifyPrefix make the TXT record: verifyLabel.{domain}
	// holding verifyPrefix{token}; the HTTP token is at verifyPath{token}.
	verifyLabel  = "_squarely-verify."
	verifyPrefix = "squarely-verify="
	verifyPath   = "/.well-known/squarely-verify/"

	msgDomainMissing  = "Domain not found"
	msgDomainAlone    = "Enter the domain alone, such as qr.example.com: no scheme, port, path or wildcard"
	msgDomainInvalid  = "Domain must be a host name such as qr.example.com"
	msgDomainIP       = "An IP address cannot be a domain: enter a host name such as qr.example.com"
	msgDomainOurs     = "This is Squarely's own host or one of its subdomains"
	msgDomainClient   = "A white-label client's site already uses this domain"
	msgDomainTaken    = "Another workspace has verified this domain"
	msgDomainUnproved = "This domain is not verified yet: verify it before codes can use it"
	msgDomainID       = "domainId must be a domain's id, or null for the base URL"
)

// domainResponse is a domain as the API shows it, with what to publish to
// verify it.
type domainResponse struct {
	ID            int64      `json:"id"`
	Domain        string     `json:"domain"`
	Status        string     `json:"status"` // "pending" or "verified"
	Method        *string    `json:"method"` // "dns" or "http" once verified
	VerifiedAt    *time.Time `json:"verifiedAt"`
	LastCheckedAt *time.Time `json:"lastCheckedAt"`
	LastError     string     `json:"lastError"`
	Codes         int        `json:"codes"` // live dynamic codes printing it
	TXTName       string     `json:"txtName"`
	TXTValue      string     `json:"txtValue"`
	HTTPURL       string     `json:"httpUrl"`
	HTTPBody      string     `json:"httpBody"`
	CreatedAt     time.Time  `json:"createdAt"`
}

func domainJSON(d *store.Domain) domainResponse {
	out := domainResponse{
		ID: d.ID, Domain: d.Domain, Status: "pending", VerifiedAt: d.VerifiedAt, LastCheckedAt: d.LastCheckedAt,
		LastError: d.LastError, Codes: d.Codes, CreatedAt: d.CreatedAt,
		TXTName: verifyLabel + d.Domain, TXTValue: verifyPrefix + d.Token,
		HTTPURL: "http://" + d.Domain + verifyPath + d.Token, HTTPBody: d.Token,
	}
	if d.VerifiedAt != nil {
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
		out[i] = domainJSON(d)
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
		writeJSON(w, http.StatusCreated, domainJSON(d))
	}
}

// verifyDomain (POST /api/domains/{id}/verify, admins and owners) looks
// for the TXT record, then the HTTP token: 200 with the domain verified,
// or 422 with what was found instead (also kept as its lastError). A
// verified domain answers 200 as it is.
func (s *server) verifyDomain(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgDomainMissing)
	if !ok {
		return
	}
	ctx, ws := r.Context(), wsID(r)
	d, err := s.store.Domain(ctx, ws, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgDomainMissing)
		return
	case err != nil:
		s.internalError(w, "fetching a domain", err)
		return
	case d.VerifiedAt != nil:
		writeJSON(w, http.StatusOK, domainJSON(d))
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
		checkCtx, cancel := context.WithTimeout(ctx, domainCheckTimeout)
		method, problem = s.verifier.check(checkCtx, d.Domain, d.Token)
		cancel()
	}
	d, err = s.store.RecordDomainCheck(context.WithoutCancel(ctx), ws, id, method, problem, s.now())
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
		writeJSON(w, http.StatusOK, domainJSON(d))
	}
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

// domainVerifier proves a workspace controls a domain: a TXT record at
// _squarely-verify.{domain}, or the token answered over plain HTTP.
type domainVerifier struct {
	resolver *net.Resolver // TXT records and the HTTP host's addresses
	client   *http.Client  // SSRF-safe (netguard): no redirects, forbidden addresses refused when dialled
	port     string        // of the HTTP token's URL: 80; tests serve elsewhere
}

// newDomainVerifier asks the DNS server at resolverAddr ("" = the
// system's) and fetches tokens through netguard, private addresses allowed
// only with allowPrivate.
func newDomainVerifier(resolverAddr string, allowPrivate bool) *domainVerifier {
	v := &domainVerifier{resolver: net.DefaultResolver, port: "80"}
	if resolverAddr != "" {
		var d net.Dialer
		v.resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, resolverAddr)
		}}
	}
	v.client = netguard.Policy{AllowHTTP: true, AllowPrivate: allowPrivate}.Client(10 * time.Second)
	// The token's host is resolved by the same resolver as the TXT record;
	// the address dialled is still checked by netguard.
	t := v.client.Transport.(*http.Transport)
	dial := t.DialContext
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := v.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil || len(ips) == 0 {
			return nil, fmt.Errorf("%s does not resolve", host)
		}
		return dial(ctx, network, net.JoinHostPort(ips[0].Unmap().String(), v.port))
	}
	return v
}

// check tries the TXT record, then the HTTP token; it returns the method
// that proved the domain, or "" and what each method found instead.
func (v *domainVerifier) check(ctx context.Context, domain, token string) (method, problem string) {
	dnsProblem := v.checkTXT(ctx, domain, token)
	if dnsProblem == "" {
		return "dns", ""
	}
	httpProblem := v.checkHTTP(ctx, domain, token)
	if httpProblem == "" {
		return "http", ""
	}
	return "", "Not verified. DNS: " + dnsProblem + " HTTP: " + httpProblem
}

func (v *domainVerifier) checkTXT(ctx context.Context, domain, token string) string {
	name := verifyLabel + domain
	records, err := v.resolver.LookupTXT(ctx, name)
	if dnsErr, ok := errors.AsType[*net.DNSError](err); ok && dnsErr.IsNotFound {
		return "there is no TXT record at " + name + "."
	}
	if err != nil {
		return "looking up the TXT record at " + name + " failed; try again in a few minutes."
	}
	for _, rec := range records {
		if strings.TrimSpace(rec) == verifyPrefix+token {
			return ""
		}
	}
	return fmt.Sprintf("the TXT record at %s does not hold %s%s.", name, verifyPrefix, token)
}

func (v *domainVerifier) checkHTTP(ctx context.Context, domain, token string) string {
	url := "http://" + domain + verifyPath + token
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return url + " is not a valid URL."
	}
	resp, err := v.client.Do(req)
	if err != nil {
		if addrErr, ok := errors.AsType[*netguard.AddressError](err); ok {
			return fmt.Sprintf("%s resolves to an address that cannot be checked (%s).", domain, addrErr.Reason)
		}
		return url + " could not be reached."
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("%s answered %d, not 200 with the token.", url, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer))
	if err != nil || strings.TrimSpace(string(body)) != token {
		return url + " did not answer the token alone."
	}
	return ""
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

type domainWorkspaceKey struct{}

// onCustomDomain serves requests that come by a workspace's verified
// domain: /d/ for that workspace's codes only (lookupScan), everything
// else redirected to the base URL, where the app is.
func (s *server) onCustomDomain(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.TrimSuffix(strings.ToLower(hostOnly(r.Host)), ".")
		if host == "" || host == s.clients.baseHost || len(host) > maxHostLength {
			next.ServeHTTP(w, r)
			return
		}
		d, err := s.domains.byHost(r.Context(), host)
		if err != nil {
			// The base site is a safe answer while the store is down.
			s.log.ErrorContext(r.Context(), "resolving a custom domain", "err", err)
		}
		switch {
		case d == nil:
			next.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/d/"):
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), domainWorkspaceKey{}, d.WorkspaceID)))
		case r.Method == http.MethodGet || r.Method == http.MethodHead:
			http.Redirect(w, r, s.cfg.BaseURL+r.URL.RequestURI(), http.StatusFound)
		default:
			writeError(w, http.StatusNotFound, "Not found")
		}
	})
}

// hostWorkspace is the workspace whose verified domain the request came
// by, 0 for any other host.
func hostWorkspace(r *http.Request) int64 {
	id, _ := r.Context().Value(domainWorkspaceKey{}).(int64)
	return id
}

// codeURL is the URL dynamic code d encodes: on its custom domain (always
// https: the domain's certificate is Squarely's, SQUARELY_TLS, or its
// proxy's), else on its client's host or the base URL.
func (s *server) codeURL(d *store.DynamicCode) string {
	if d.Domain != "" {
		return "https://" + d.Domain + "/d/" + d.ShortCode
	}
	return s.shortURL(d.ClientID, d.ShortCode)
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
		fieldError(w, "domainId", msgDomainID)
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
// workspace: errDomainMissing or store.ErrDomainUnverified otherwise.
func (s *server) codeDomain(ctx context.Context, workspaceID, id int64) (*store.Domain, error) {
	d, err := s.store.Domain(ctx, workspaceID, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, errDomainMissing
	case err != nil:
		return nil, err
	case d.VerifiedAt == nil:
		return nil, store.ErrDomainUnverified
	}
	return d, nil
}
