package server

import (
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	crew "github.com/crewjam/saml"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/saml"
	"github.com/squarely/squarely/internal/store"
)

// SAML single sign-on per team workspace (issue 33 item 3): the owners'
// settings (/api/workspaces/{id}/sso), and the service provider's
// metadata, login and assertion consumer (/auth/saml/{id}/…). The checks
// on a response are crewjam/saml's (signature, audience, recipient,
// validity, InResponseTo) and internal/saml's (a signed assertion);
// the requests sent and the assertions accepted are kept in the database,
// so each response counts once on every instance.

const (
	msgSSOMissing  = "Single sign-on is not set up for this workspace"
	msgSSORequired = "This workspace requires signing in through its single sign-on"
	maxRoleMapping = 100
)

type ssoJSON struct {
	Configured        bool              `json:"configured"`
	IdPEntityID       string            `json:"idpEntityId,omitempty"`
	IdPMetadataURL    string            `json:"idpMetadataUrl,omitempty"`
	RoleMapping       map[string]string `json:"roleMapping"`
	DefaultRole       string            `json:"defaultRole,omitempty"`
	EnforceSSO        bool              `json:"enforceSso"`
	AllowIdPInitiated bool              `json:"allowIdpInitiated"`
	BreakGlassUserID  *int64            `json:"breakGlassUserId"`
	// What the owner gives the IdP.
	SPEntityID  string `json:"spEntityId"`
	SPMetadata  string `json:"spMetadataUrl"`
	ACSURL      string `json:"acsUrl"`
	LoginURL    string `json:"loginUrl"`
	UpdatedAt   string `json:"updatedAt,omitempty"`
	Certificate string `json:"spCertificate,omitempty"`
}

func (s *server) ssoView(ws int64, c *store.SSO) (ssoJSON, error) {
	urls, err := saml.WorkspaceURLs(s.cfg.BaseURL, ws)
	if err != nil {
		return ssoJSON{}, err
	}
	v := ssoJSON{RoleMapping: map[string]string{}, SPEntityID: urls.Metadata.String(), SPMetadata: urls.Metadata.String(),
		ACSURL: urls.ACS.String(), LoginURL: urls.Login.String()}
	if c == nil {
		return v, nil
	}
	md, err := saml.ParseMetadata([]byte(c.IdPMetadataXML))
	if err != nil {
		return ssoJSON{}, err
	}
	v.Configured, v.IdPEntityID, v.IdPMetadataURL = true, md.EntityID, c.IdPMetadataURL
	v.RoleMapping, v.DefaultRole, v.EnforceSSO, v.AllowIdPInitiated = c.RoleMapping, c.DefaultRole, c.EnforceSSO, c.AllowIdPInitiated
	v.BreakGlassUserID, v.UpdatedAt, v.Certificate = c.BreakGlassUserID, c.UpdatedAt.UTC().Format(time.RFC3339), c.SPCertPEM
	return v, nil
}

// getSSO (GET /api/workspaces/{id}/sso, owners) is the set-up, or the
// addresses to give an IdP before there is one.
func (s *server) getSSO(w http.ResponseWriter, r *http.Request) {
	ws := wsID(r)
	c, err := s.store.WorkspaceSSO(r.Context(), ws)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, "reading single sign-on", err)
		return
	}
	v, err := s.ssoView(ws, c)
	if err != nil {
		s.internalError(w, "showing single sign-on", err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// putSSO (PUT /api/workspaces/{id}/sso, owners) sets the IdP up from its
// metadata (XML, or a URL read through the webhook address rules), with
// the group → role mapping and the switches.
func (s *server) putSSO(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IdPMetadataXML    string            `json:"idpMetadataXml"`
		IdPMetadataURL    string            `json:"idpMetadataUrl"`
		RoleMapping       map[string]string `json:"roleMapping"`
		DefaultRole       string            `json:"defaultRole"`
		EnforceSSO        bool              `json:"enforceSso"`
		AllowIdPInitiated bool              `json:"allowIdpInitiated"`
		BreakGlassUserID  *int64            `json:"breakGlassUserId"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	ws := workspaceFrom(r.Context())
	existing, err := s.store.WorkspaceSSO(r.Context(), ws.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, "reading single sign-on", err)
		return
	}
	var v validation
	in.IdPMetadataURL = strings.TrimSpace(in.IdPMetadataURL)
	switch {
	case in.IdPMetadataXML == "" && in.IdPMetadataURL == "" && existing == nil:
		v.add("idpMetadataXml", "Paste the IdP's metadata XML, or give its metadata URL")
	case in.IdPMetadataXML != "" && in.IdPMetadataURL != "":
		v.add("idpMetadataUrl", "Give the metadata XML or its URL, not both")
	}
	if in.DefaultRole == "" {
		in.DefaultRole = store.RoleViewer
	}
	if !ssoRole(in.DefaultRole) {
		v.add("defaultRole", "defaultRole must be admin, editor or viewer")
	}
	if len(in.RoleMapping) > maxRoleMapping {
		v.add("roleMapping", "At most 100 groups can be mapped")
	}
	for group, role := range in.RoleMapping {
		if group == "" || utf8.RuneCountInString(group) > 256 {
			v.add("roleMapping", "A group name must have 1 to 256 characters")
		} else if !ssoRole(role) {
			v.add("roleMapping."+group, "The role must be admin, editor or viewer")
		}
	}
	if v.failed(w) {
		return
	}

	raw := []byte(in.IdPMetadataXML)
	if len(raw) == 0 && in.IdPMetadataURL == "" {
		// A change of roles or switches keeps the IdP it has.
		raw, in.IdPMetadataURL = []byte(existing.IdPMetadataXML), existing.IdPMetadataURL
	} else if in.IdPMetadataURL != "" {
		u, err := s.webhookPolicy.CheckURL(r.Context(), in.IdPMetadataURL)
		if err != nil {
			fieldError(w, "idpMetadataUrl", "The metadata URL is not allowed: "+err.Error())
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		defer cancel()
		// A client for this one fetch: its connection is closed after, not left idle.
		client := s.webhookPolicy.Client(10 * time.Second)
		defer client.CloseIdleConnections()
		if raw, err = saml.FetchMetadata(ctx, client, u.String()); err != nil {
			fieldError(w, "idpMetadataUrl", upperFirst(err.Error()))
			return
		}
	}
	field := map[bool]string{true: "idpMetadataUrl", false: "idpMetadataXml"}[in.IdPMetadataURL != ""]
	if _, err := saml.ParseMetadata(raw); err != nil {
		fieldError(w, field, upperFirst(err.Error()))
		return
	}

	c := &store.SSO{WorkspaceID: ws.ID, IdPMetadataXML: string(raw), IdPMetadataURL: in.IdPMetadataURL,
		RoleMapping: in.RoleMapping, DefaultRole: in.DefaultRole, EnforceSSO: in.EnforceSSO,
		AllowIdPInitiated: in.AllowIdPInitiated, BreakGlassUserID: in.BreakGlassUserID}
	if c.RoleMapping == nil {
		c.RoleMapping = map[string]string{}
	}
	if c.EnforceSSO && c.BreakGlassUserID == nil {
		// The owner who turns enforcement on keeps a way in.
		me := auth.UserFrom(r.Context()).ID
		c.BreakGlassUserID = &me
	}
	if c.SPKeyPEM, c.SPCertPEM, err = saml.NewKeyPair(ws.Name+" (Squarely)", s.now()); err != nil {
		s.internalError(w, "making the service provider's key", err)
		return
	}
	err = s.store.SetSSO(r.Context(), c, s.now())
	switch {
	case errors.Is(err, store.ErrSSOPersonal):
		writeError(w, http.StatusConflict, "A personal workspace has no single sign-on")
		return
	case errors.Is(err, store.ErrBreakGlassNotOwner):
		fieldError(w, "breakGlassUserId", "The break-glass member must be an owner of this workspace")
		return
	case err != nil:
		s.internalError(w, "saving single sign-on", err)
		return
	}
	s.getSSO(w, r)
}

// deleteSSO (DELETE /api/workspaces/{id}/sso, owners) turns it off.
func (s *server) deleteSSO(w http.ResponseWriter, r *http.Request) {
	err := s.store.DeleteSSO(r.Context(), wsID(r))
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgSSOMissing)
	case err != nil:
		s.internalError(w, "removing single sign-on", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func ssoRole(role string) bool {
	return role == store.RoleAdmin || role == store.RoleEditor || role == store.RoleViewer
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ssoMet reports whether the signed-in member may act in ws, which may
// require its single sign-on: a session that signed in through its IdP,
// or its break-glass owner. Otherwise it has answered 403 sso_required.
func (s *server) ssoMet(w http.ResponseWriter, r *http.Request, ws *store.Workspace) bool {
	if !ws.EnforceSSO || keyRequest(r) {
		return true
	}
	sid, _ := auth.SessionID(r)
	through, err := s.store.SessionSignedInThrough(r.Context(), sid, ws.ID)
	if err == nil && !through {
		through, err = s.store.IsBreakGlass(r.Context(), ws.ID, auth.UserFrom(r.Context()).ID)
	}
	if err != nil {
		s.internalError(w, "checking single sign-on", err)
		return false
	}
	if !through {
		writeJSON(w, http.StatusForbidden, apiError{Message: msgSSORequired, Code: "sso_required"})
	}
	return through
}

// serviceProvider is workspace id's SAML service provider; ok false when
// it has no single sign-on or on failure, answered: to a program (the
// metadata's reader) 404 or 500, and a browser's navigation (browser: the
// login and the ACS) back to the sign-in page, which says why
// (?sso=missing or ?sso=failed) where JSON would be shown as the page.
// An id that is no id at all is 404 either way.
func (s *server) serviceProvider(w http.ResponseWriter, r *http.Request, browser bool) (*crew.ServiceProvider, *store.SSO, bool) {
	missing := func() {
		if browser {
			http.Redirect(w, r, "/auth?sso=missing", http.StatusFound)
			return
		}
		writeError(w, http.StatusNotFound, msgSSOMissing)
	}
	failed := func(doing string, err error) {
		if !browser {
			s.internalError(w, doing, err)
			return
		}
		s.log.ErrorContext(r.Context(), "internal error", "doing", doing, "err", err)
		http.Redirect(w, r, "/auth?sso=failed", http.StatusFound)
	}
	// An id that cannot be one is a path that does not exist: 404, as
	// every impossible path parameter is.
	id, ok := idParam(w, r, "id", msgSSOMissing)
	if !ok {
		return nil, nil, false
	}
	c, err := s.store.WorkspaceSSO(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		missing()
		return nil, nil, false
	}
	if err != nil {
		failed("reading single sign-on", err)
		return nil, nil, false
	}
	sp, err := saml.ServiceProvider(s.cfg.BaseURL, c, assertionLog{s, r.Context()}, s.now())
	if err != nil {
		failed("making the service provider", err)
		return nil, nil, false
	}
	return sp, c, true
}

// assertionLog is the SP's replay cache: the database's saml_assertions,
// shared by every instance.
type assertionLog struct {
	s   *server
	ctx context.Context
}

func (l assertionLog) Consume(id string, expires time.Time) error {
	err := l.s.store.ConsumeSAMLAssertion(l.ctx, id, expires, l.s.now())
	if errors.Is(err, store.ErrAssertionReplayed) {
		return crew.ErrAssertionReplayed
	}
	return err
}

// samlMetadata (GET /auth/saml/{id}/metadata) is the SP's metadata for
// the workspace's IdP.
func (s *server) samlMetadata(w http.ResponseWriter, r *http.Request) {
	sp, _, ok := s.serviceProvider(w, r, false)
	if !ok {
		return
	}
	body, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		s.internalError(w, "writing the SAML metadata", err)
		return
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	w.Write([]byte(xml.Header))
	w.Write(body)
}

// samlLogin (GET /auth/saml/{id}/login) sends the browser to the IdP with
// an AuthnRequest the ACS will accept one answer to.
func (s *server) samlLogin(w http.ResponseWriter, r *http.Request) {
	sp, c, ok := s.serviceProvider(w, r, true)
	if !ok {
		return
	}
	// Each start saves a request: counted per address as sign-ins are,
	// so one client cannot fill the table before its rows expire. The
	// start is a browser's navigation (a link, not a fetch): one over the
	// limit goes back to the sign-in page, which says to wait a minute
	// (?sso=busy), not to a JSON 429 the person would read as a page. (A
	// redirect carries no Retry-After: on a 3xx it would ask the browser
	// to wait before loading the sign-in page.)
	allowed, _, _, err := s.addressLogins.takeQuota(clientKey(r))
	if err != nil {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "counting an attempt", "limiter", s.addressLogins.name, "err", err)
		http.Redirect(w, r, "/auth?sso=failed", http.StatusFound)
		return
	}
	if !allowed {
		http.Redirect(w, r, "/auth?sso=busy", http.StatusFound)
		return
	}
	req, err := sp.MakeAuthenticationRequest(sp.GetSSOBindingLocation(crew.HTTPRedirectBinding), crew.HTTPRedirectBinding, crew.HTTPPostBinding)
	if err == nil {
		err = s.store.SaveSAMLRequest(r.Context(), req.ID, c.WorkspaceID, s.now().Add(saml.RequestLifetime), s.now())
	}
	var to *url.URL
	if err == nil {
		to, err = req.Redirect("", sp)
	}
	if err != nil {
		s.log.WarnContext(r.Context(), "SAML sign-in could not start", "workspace", c.WorkspaceID, "err", err)
		http.Redirect(w, r, "/auth?sso=failed", http.StatusFound)
		return
	}
	// The request belongs to this browser: over HTTPS the ACS takes its
	// answer only with this cookie (SameSite=None, as the IdP posts from
	// its own site), so nobody can sign a victim's browser in to their own
	// account with a response they got (login CSRF). Plain HTTP (local
	// use) cannot carry a cross-site cookie and goes without.
	if s.auth.IsHTTPS(r) {
		http.SetCookie(w, &http.Cookie{Name: samlRequestCookie, Value: req.ID, Path: "/auth/saml/", MaxAge: int(saml.RequestLifetime.Seconds()),
			HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode})
	}
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// samlRequestCookie names the AuthnRequest this browser started.
const samlRequestCookie = "squarely_saml_request"

// samlACS (POST /auth/saml/{id}/acs) takes the IdP's response (HTTP-POST
// binding), checks it, and signs its user in as a member of the workspace
// with the role their groups map to.
func (s *server) samlACS(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, saml.MaxResponse+4096)
	sp, c, ok := s.serviceProvider(w, r, true)
	if !ok {
		return
	}
	u, err := s.samlUser(r, sp, c)
	s.auth.FinishSAML(w, r, c.WorkspaceID, u, err)
}

func (s *server) samlUser(r *http.Request, sp *crew.ServiceProvider, c *store.SSO) (*store.User, error) {
	if err := r.ParseForm(); err != nil {
		return nil, errors.New("the form could not be read")
	}
	facts, err := saml.Inspect(r.PostForm.Get("SAMLResponse"))
	if err != nil {
		return nil, err
	}
	if !facts.AssertionSigned {
		return nil, errors.New("the assertion is not signed")
	}
	var expected []string
	if s.auth.IsHTTPS(r) && facts.InResponseTo != "" {
		if c, err := r.Cookie(samlRequestCookie); err != nil || c.Value != facts.InResponseTo {
			return nil, errors.New("the response answers a request this browser did not start")
		}
	}
	if facts.InResponseTo != "" {
		open, err := s.store.SAMLRequestOpen(r.Context(), facts.InResponseTo, c.WorkspaceID, s.now())
		if err != nil {
			return nil, err
		}
		if !open {
			return nil, errors.New("the response answers no open request of this workspace")
		}
		expected = []string{facts.InResponseTo}
	}
	assertion, err := sp.ParseResponse(r, expected)
	if err != nil {
		var invalid *crew.InvalidResponseError
		if errors.As(err, &invalid) {
			err = invalid.PrivateErr
		}
		return nil, err
	}
	if facts.InResponseTo != "" {
		// One answer per request, however many responses race for it.
		closed, err := s.store.CloseSAMLRequest(r.Context(), facts.InResponseTo, c.WorkspaceID, s.now())
		if err != nil {
			return nil, err
		}
		if !closed {
			return nil, errors.New("the request was answered already")
		}
	}
	id, err := saml.IdentityOf(assertion)
	if err != nil {
		return nil, err
	}
	_, domain, _ := strings.Cut(id.Email, "@")
	proven, err := s.store.DomainProven(r.Context(), c.WorkspaceID, domain)
	if err != nil {
		return nil, err
	}
	u, err := s.auth.SAMLUser(r.Context(), c.WorkspaceID, proven, auth.SAMLIdentity{
		Subject: id.Subject, Email: id.Email, GivenName: id.GivenName, FamilyName: id.FamilyName})
	if err != nil {
		return nil, err
	}
	role := saml.MapRole(id.Groups, c.RoleMapping, c.DefaultRole)
	if err := s.store.SyncSSOMember(r.Context(), c.WorkspaceID, u.ID, u.Username, role, s.now()); err != nil {
		return nil, err
	}
	return u, nil
}

// findSSO (POST /api/auth/sso {"email"}) is where "Sign in with SSO"
// starts for an address: the login URL of the workspace whose IdP signs
// in its domain.
func (s *server) findSSO(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	_, domain, ok := strings.Cut(email, "@")
	if !ok || domain == "" || strings.ContainsAny(domain, "@%_ ") || len(email) > 254 {
		fieldError(w, "email", "Enter your work e-mail address")
		return
	}
	id, err := s.store.SSOWorkspaceForDomain(r.Context(), domain)
	if errors.Is(err, store.ErrNotFound) {
		writeJSON(w, http.StatusNotFound, apiError{Message: "No workspace signs in " + domain + " addresses through single sign-on",
			Errors: map[string]string{"email": "No workspace signs in " + domain + " addresses through single sign-on"}})
		return
	}
	if err != nil {
		s.internalError(w, "finding single sign-on", err)
		return
	}
	urls, err := saml.WorkspaceURLs(s.cfg.BaseURL, id)
	if err != nil {
		s.internalError(w, "finding single sign-on", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"loginUrl": urls.Login.Path})
}
