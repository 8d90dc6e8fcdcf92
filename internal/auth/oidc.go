package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/saml"
	"github.com/squarely/squarely/internal/store"
)

// OIDC is "Sign in with …" for any OpenID Connect provider (Keycloak,
// Authentik, Entra ID, …): discovery from the issuer, the authorization
// code flow with PKCE, and an ID token whose signature, issuer, audience,
// expiry and nonce are checked. Accounts follow Google's ownership rules
// (identityUser), keyed by issuer and subject.
type OIDC struct {
	Issuer       string
	ClientID     string
	ClientSecret string // "" = a public client, PKCE only
	Name         string // the button's label
	GroupsClaim  string // the ID token's claim with the user's groups; "" = not read
	RedirectURL  string // BaseURL + "/auth/oidc/callback"

	mu       sync.Mutex
	provider *oidc.Provider // discovered on first use, then kept
}

// NewOIDC returns the client configured by SQUARELY_OIDC_*, or nil when
// SQUARELY_OIDC_ISSUER is not set.
func NewOIDC(c config.Config) *OIDC {
	if !c.OIDCEnabled() {
		return nil
	}
	return &OIDC{
		Issuer: c.OIDCIssuer, ClientID: c.OIDCClientID, ClientSecret: c.OIDCClientSecret,
		Name: c.OIDCName, RedirectURL: c.BaseURL + "/auth/oidc/callback", GroupsClaim: c.OIDCGroupsClaim,
	}
}

// oidcTimeout bounds each call to the provider.
const oidcTimeout = 15 * time.Second

// discover reads the provider's discovery document on first use. A
// failure is not kept, so a provider down at start works once it is up.
func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, nil
	}
	ctx, cancel := context.WithTimeout(ctx, oidcTimeout)
	defer cancel()
	p, err := oidc.NewProvider(ctx, o.Issuer)
	if err != nil {
		return nil, fmt.Errorf("discovering %s: %w", o.Issuer, err)
	}
	o.provider = p
	return p, nil
}

func (o *OIDC) oauth(p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     o.ClientID,
		ClientSecret: o.ClientSecret,
		RedirectURL:  o.RedirectURL,
		Scopes:       []string{oidc.ScopeOpenID, "email", "profile"},
		Endpoint:     p.Endpoint(),
	}
}

// oidcCookie carries state, nonce and PKCE verifier from OIDCStart to the
// callback, for 10 minutes.
const oidcCookie = "squarely_oidc"

// OIDCStart (GET /auth/oidc) sends the browser to the provider, or back to
// the sign-in page with oidc=unavailable when OIDC sign-in is off.
func (s *Service) OIDCStart(w http.ResponseWriter, r *http.Request) {
	if s.OIDC == nil {
		http.Redirect(w, r, "/auth?oidc=unavailable", http.StatusFound)
		return
	}
	p, err := s.OIDC.discover(r.Context())
	if err != nil {
		s.logger().Warn("OIDC sign-in failed", "err", err)
		http.Redirect(w, r, "/auth?oidc=failed", http.StatusFound)
		return
	}
	state, nonce, verifier := rand.Text(), rand.Text(), oauth2.GenerateVerifier()
	s.setLaxCookie(w, r, oidcCookie, "/auth/oidc", state+"."+nonce+"."+verifier, int((10 * time.Minute).Seconds()))
	http.Redirect(w, r, s.OIDC.oauth(p).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oidc.Nonce(nonce)), http.StatusFound)
}

// OIDCCallback (GET /auth/oidc/callback) checks the state, exchanges the
// code with the PKCE verifier, verifies the ID token and its nonce, finds
// or creates the account and signs it in (see finishRedirect).
func (s *Service) OIDCCallback(w http.ResponseWriter, r *http.Request) {
	if s.OIDC == nil {
		http.Redirect(w, r, "/auth?oidc=unavailable", http.StatusFound)
		return
	}
	u, err := s.oidcCallback(w, r)
	s.finishRedirect(w, r, "OIDC", "oidc", u, err)
}

func (s *Service) oidcCallback(w http.ResponseWriter, r *http.Request) (*store.User, error) {
	c, err := r.Cookie(oidcCookie)
	if err != nil {
		return nil, errors.New("no state cookie (expired, or the flow did not start here)")
	}
	s.setLaxCookie(w, r, oidcCookie, "/auth/oidc", "", -1)
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 {
		return nil, errors.New("malformed state cookie")
	}
	state, nonce, verifier := parts[0], parts[1], parts[2]
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("the provider answered error %q", e)
	}
	if state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(q.Get("state"))) != 1 {
		return nil, errors.New("state does not match")
	}
	if q.Get("code") == "" {
		return nil, errors.New("no code")
	}

	ctx, cancel := context.WithTimeout(r.Context(), oidcTimeout)
	defer cancel()
	p, err := s.OIDC.discover(ctx)
	if err != nil {
		return nil, err
	}
	conf := s.OIDC.oauth(p)
	tok, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("exchanging the code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, errors.New("no ID token in the token response")
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: s.OIDC.ClientID}).Verify(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("verifying the ID token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return nil, errors.New("nonce does not match")
	}
	var claims struct {
		Email         string   `json:"email"`
		EmailVerified jsonBool `json:"email_verified"`
		GivenName     string   `json:"given_name"`
		FamilyName    string   `json:"family_name"`
	}
	if err := idt.Claims(&claims); err != nil {
		return nil, fmt.Errorf("reading the ID token's claims: %w", err)
	}
	u, err := s.identityUser(ctx, oidcLinks{s.Store, s.OIDC.Issuer, s.now()}, identity{
		Subject: idt.Subject, Email: claims.Email, EmailVerified: bool(claims.EmailVerified),
		GivenName: claims.GivenName, FamilyName: claims.FamilyName,
	})
	if err != nil || s.OIDC.GroupsClaim == "" || !u.EmailVerified {
		return u, err
	}
	var all map[string]any
	if err := idt.Claims(&all); err != nil {
		return nil, fmt.Errorf("reading the ID token's claims: %w", err)
	}
	return u, s.mapGroups(ctx, u, groupsOf(all[s.OIDC.GroupsClaim]))
}

// groupsOf reads a groups claim: a list of strings, or one string.
func groupsOf(claim any) []string {
	switch v := claim.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, g := range v {
			if s, ok := g.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// mapGroups gives u, in the workspace that takes in u's e-mail domain and
// has a single sign-on role mapping, the role its groups map to.
func (s *Service) mapGroups(ctx context.Context, u *store.User, groups []string) error {
	_, domain, _ := strings.Cut(u.Email, "@")
	c, err := s.Store.MappedWorkspaceForDomain(ctx, domain)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.Store.SyncSSOMember(ctx, c.WorkspaceID, u.ID, u.Username, saml.MapRole(groups, c.RoleMapping, c.DefaultRole), s.now())
}

// setLaxCookie sets or (maxAge < 0) clears an HttpOnly cookie of the
// sign-in flows (provider state, pending sign-in, device). Lax: it is sent
// on a provider's top-level redirect back.
func (s *Service) setLaxCookie(w http.ResponseWriter, r *http.Request, name, path, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: path, MaxAge: maxAge,
		HttpOnly: true, Secure: s.IsHTTPS(r), SameSite: http.SameSiteLaxMode,
	})
}

// oidcLinks ties an OpenID provider's identities to accounts through
// user_identities.
type oidcLinks struct {
	st     *store.Store
	issuer string
	now    time.Time
}

func (l oidcLinks) provider() string { return l.issuer }

func (l oidcLinks) find(ctx context.Context, sub string) (*store.User, error) {
	return l.st.UserByIdentity(ctx, l.issuer, sub)
}

func (l oidcLinks) linked(ctx context.Context, u *store.User) (bool, error) {
	return l.st.HasIdentity(ctx, u.ID, l.issuer)
}

func (l oidcLinks) link(ctx context.Context, u *store.User, sub string) error {
	return l.st.LinkIdentity(ctx, u.ID, l.issuer, sub, l.now)
}

func (l oidcLinks) claim(ctx context.Context, u *store.User, sub string) error {
	return l.st.ClaimWithIdentity(ctx, u.ID, l.issuer, sub, l.now)
}

// create saves the account, then its link. Should the link fail, the
// account stands verified and the next sign-in links it by its e-mail.
func (l oidcLinks) create(ctx context.Context, u *store.User, sub string) error {
	if err := l.st.CreateUser(ctx, u); err != nil {
		return err
	}
	return l.st.LinkIdentity(ctx, u.ID, l.issuer, sub, l.now)
}
