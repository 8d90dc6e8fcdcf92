package server

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// White-label clients (spec 02 §2, §7; docs/API.md "White-label"): the
// admins' client management, and the brand a host's visitors see.

const (
	defaultPrimaryColor   = "#3B82F6" // spec 02 §9
	defaultSecondaryColor = "#1E40AF"
	maxClientName         = 100
	maxBrandURL           = 2048
	// maxCustomCSS bytes of a client's CSS: room for a theme, not a site.
	maxCustomCSS = 10_000
)

var (
	hexColorPattern  = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	hostLabelPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	// uploadedLogoPattern is a logo uploaded here (POST /api/upload-logo).
	uploadedLogoPattern = regexp.MustCompile(`^/logo/[0-9]{1,16}$`)
)

// clientResponse is a client as the admin page shows it. Its key appears
// whole (apiKey) only in the answers of its creation and of a rotation.
type clientResponse struct {
	ID                     int64     `json:"id"`
	Name                   string    `json:"name"`
	CustomDomain           string    `json:"customDomain"`
	Subdomain              string    `json:"subdomain"`
	LogoURL                string    `json:"logoUrl"`
	PrimaryColor           string    `json:"primaryColor"`
	SecondaryColor         string    `json:"secondaryColor"`
	CustomFavicon          string    `json:"customFavicon"`
	RemoveSquarelyBranding bool      `json:"removeSquarelyBranding"`
	CustomCSS              string    `json:"customCSS"`
	APIKeyMasked           string    `json:"apiKeyMasked"`
	APIKey                 string    `json:"apiKey,omitempty"`
	IsActive               bool      `json:"isActive"`
	SiteURL                string    `json:"siteUrl"`
	CreatedAt              time.Time `json:"createdAt"`
	UpdatedAt              time.Time `json:"updatedAt"`
}

func (s *server) clientJSON(c *store.Client) clientResponse {
	return clientResponse{
		ID: c.ID, Name: c.Name, CustomDomain: c.CustomDomain, Subdomain: c.Subdomain, LogoURL: c.LogoURL,
		PrimaryColor: c.PrimaryColor, SecondaryColor: c.SecondaryColor, CustomFavicon: c.CustomFavicon,
		RemoveSquarelyBranding: c.RemoveBranding, CustomCSS: c.CustomCSS,
		APIKeyMasked: maskedKey(c.APIKeyPrefix, c.APIKeyLast4), IsActive: c.IsActive,
		SiteURL: c.SiteURL(s.clients.base), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
}

// clientRequest is the body of a create or an update. Optional fields may
// be absent (the form sends empty ones as absent): absent means empty, or
// the default colour; isActive absent keeps the client active.
type clientRequest struct {
	Name                   string  `json:"name"`
	CustomDomain           *string `json:"customDomain"`
	Subdomain              *string `json:"subdomain"`
	LogoURL                *string `json:"logoUrl"`
	PrimaryColor           *string `json:"primaryColor"`
	SecondaryColor         *string `json:"secondaryColor"`
	CustomFavicon          *string `json:"customFavicon"`
	RemoveSquarelyBranding bool    `json:"removeSquarelyBranding"`
	CustomCSS              *string `json:"customCSS"`
	IsActive               *bool   `json:"isActive"`
}

// readClient decodes and checks a client's fields. On failure it has answered.
func (s *server) readClient(w http.ResponseWriter, r *http.Request) (*store.Client, bool) {
	var in clientRequest
	if !decodeJSON(w, r, &in) {
		return nil, false
	}
	opt := func(p *string) string {
		if p == nil {
			return ""
		}
		return strings.TrimSpace(*p)
	}
	c := &store.Client{
		Name:           strings.TrimSpace(in.Name),
		CustomDomain:   strings.TrimSuffix(strings.ToLower(opt(in.CustomDomain)), "."),
		Subdomain:      strings.ToLower(opt(in.Subdomain)),
		LogoURL:        opt(in.LogoURL),
		PrimaryColor:   strings.ToUpper(orDefault(opt(in.PrimaryColor), defaultPrimaryColor)),
		SecondaryColor: strings.ToUpper(orDefault(opt(in.SecondaryColor), defaultSecondaryColor)),
		CustomFavicon:  opt(in.CustomFavicon),
		RemoveBranding: in.RemoveSquarelyBranding,
		CustomCSS:      opt(in.CustomCSS),
		IsActive:       in.IsActive == nil || *in.IsActive,
	}
	var v validation
	switch {
	case c.Name == "":
		v.add("name", "Name is required")
	case utf8.RuneCountInString(c.Name) > maxClientName:
		v.add("name", "Name must be at most 100 characters")
	}
	if c.CustomDomain != "" && !s.validCustomDomain(c.CustomDomain) {
		v.add("customDomain", "Custom domain must be a host name such as qr.example.com")
	}
	if c.Subdomain != "" && (!hostLabelPattern.MatchString(c.Subdomain) || c.Subdomain == "www") {
		v.add("subdomain", "Subdomain must be letters, digits and hyphens, such as acme")
	}
	for field, color := range map[string]string{"primaryColor": c.PrimaryColor, "secondaryColor": c.SecondaryColor} {
		if !hexColorPattern.MatchString(color) {
			v.add(field, "Colour must be #RRGGBB")
		}
	}
	if !validBrandURL(c.LogoURL) {
		v.add("logoUrl", "Logo URL must be an https URL or an uploaded logo")
	}
	if !validBrandURL(c.CustomFavicon) {
		v.add("customFavicon", "Favicon must be an https URL or an uploaded logo")
	}
	switch {
	case len(c.CustomCSS) > maxCustomCSS:
		v.add("customCSS", "Custom CSS must be at most 10,000 characters")
	case strings.ContainsRune(c.CustomCSS, '<'):
		// The app puts the CSS in a <style> element: no markup may close it.
		v.add("customCSS", "Custom CSS must not contain '<'")
	}
	if v.failed(w) {
		return nil, false
	}
	// A workspace's verified domain serves that workspace's codes (domains.go).
	if c.CustomDomain != "" {
		_, err := s.store.VerifiedDomain(r.Context(), c.CustomDomain)
		switch {
		case err == nil:
			writeError(w, http.StatusConflict, "A workspace has verified this domain for its codes")
			return nil, false
		case !errors.Is(err, store.ErrNotFound):
			s.internalError(w, "checking workspace domains", err)
			return nil, false
		}
	}
	return c, true
}

// validCustomDomain accepts a lower-case DNS name of two labels or more
// that is not the site's own host or one of its subdomains.
func (s *server) validCustomDomain(host string) bool {
	if len(host) > maxHostLength || host == s.clients.baseHost || strings.HasSuffix(host, "."+s.clients.baseHost) {
		return false
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !hostLabelPattern.MatchString(l) {
			return false
		}
	}
	return true
}

// validBrandURL accepts "", an https URL, or an uploaded logo's path.
func validBrandURL(raw string) bool {
	if raw == "" || uploadedLogoPattern.MatchString(raw) {
		return true
	}
	if len(raw) > maxBrandURL || strings.ContainsAny(raw, " \"'()\\<>") {
		return false
	}
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil
}

// answerClient answers a saved client, or the reason it was not saved.
func (s *server) answerClient(w http.ResponseWriter, status int, c *store.Client, err error) {
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "Another client already uses this custom domain or subdomain")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "Client not found")
	case err != nil:
		s.internalError(w, "saving a client", err)
	default:
		s.clients.invalidate()
		writeJSON(w, status, s.clientJSON(c))
	}
}

// listClients (GET /api/white-label/clients, admins).
func (s *server) listClients(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Clients(r.Context())
	if err != nil {
		s.internalError(w, "listing clients", err)
		return
	}
	out := make([]clientResponse, len(list))
	for i, c := range list {
		out[i] = s.clientJSON(c)
	}
	writeJSON(w, http.StatusOK, out)
}

// createClient (POST /api/white-label/clients, admins). 201 with the new
// client's API key whole, once (spec 02 §2: a client has its key from the
// start). Should the key fail after the client is saved, the client stays
// and its card offers Create key.
func (s *server) createClient(w http.ResponseWriter, r *http.Request) {
	c, ok := s.readClient(w, r)
	if !ok {
		return
	}
	if err := s.store.CreateClient(r.Context(), c, s.now()); err != nil {
		s.answerClient(w, http.StatusCreated, c, err)
		return
	}
	s.clients.invalidate()
	s.giveClientKey(w, r, c.ID, http.StatusCreated)
}

// updateClient (PUT /api/white-label/clients/{id}, admins) replaces a
// client's fields; its key stays.
func (s *server) updateClient(w http.ResponseWriter, r *http.Request) {
	id, ok := clientPathID(w, r)
	if !ok {
		return
	}
	c, ok := s.readClient(w, r)
	if !ok {
		return
	}
	c.ID = id
	saved, err := s.store.UpdateClient(r.Context(), c, s.now())
	s.answerClient(w, http.StatusOK, saved, err)
}

// deleteClient (DELETE /api/white-label/clients/{id}, admins). 204; the
// default client is refused (409).
func (s *server) deleteClient(w http.ResponseWriter, r *http.Request) {
	id, ok := clientPathID(w, r)
	if !ok {
		return
	}
	err := s.store.DeleteClient(r.Context(), id, s.now())
	switch {
	case errors.Is(err, store.ErrDefaultClient):
		writeError(w, http.StatusConflict, "The default client cannot be deleted")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "Client not found")
	case err != nil:
		s.internalError(w, "deleting a client", err)
	default:
		s.clients.invalidate()
		w.WriteHeader(http.StatusNoContent)
	}
}

// rotateClientKey (POST /api/white-label/clients/{id}/rotate-key, admins)
// replaces the client's API key; the answer holds the new key whole, once.
// The old key stops working at once.
func (s *server) rotateClientKey(w http.ResponseWriter, r *http.Request) {
	if id, ok := clientPathID(w, r); ok {
		s.giveClientKey(w, r, id, http.StatusOK)
	}
}

// giveClientKey gives client id a new API key and answers the client with
// the key whole (status), or the reason it could not.
func (s *server) giveClientKey(w http.ResponseWriter, r *http.Request, id int64, status int) {
	key, parts := publicapi.NewKey()
	c, err := s.store.SetClientKey(r.Context(), id, parts, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "Client not found")
	case err != nil:
		s.internalError(w, "setting a client key", err)
	default:
		out := s.clientJSON(c)
		out.APIKey = key
		writeJSON(w, status, out)
	}
}

// clientPathID reads {id}; a malformed one is an unknown client.
func clientPathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	return idParam(w, r, "id", "Client not found")
}

// whiteLabelConfig (GET /api/white-label/config, public) is the brand of
// the host the request came by: its client's, else the default client's.
// It also tells whether Google sign-in is on (googleSignIn: whether
// /auth/google has a client to send the visitor to), so the sign-in pages
// and the after-download dialog offer Google only then; nothing else
// answers it.
func (s *server) whiteLabelConfig(w http.ResponseWriter, r *http.Request) {
	c := requestClient(r)
	if c == nil {
		var err error
		if c, err = s.clients.byID(r.Context(), store.DefaultClientID); err != nil || c == nil {
			s.internalError(w, "reading the default client", err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"name": c.Name, "primaryColor": c.PrimaryColor, "secondaryColor": c.SecondaryColor,
		"customFavicon": c.CustomFavicon, "customCSS": c.CustomCSS, "logoUrl": c.LogoURL,
		"removeSquarelyBranding": c.RemoveBranding, "isDefault": c.ID == store.DefaultClientID,
		// Not the brand's but the site's: the sign-in pages offer Google only when it is configured.
		"googleSignIn": s.auth.Google != nil,
		// And the instance's access settings (issue 33): whether visitors
		// may use the generator, whether passwords sign in.
		"publicGenerator": s.cfg.PublicGenerator, "passwordLogin": s.cfg.PasswordLogin,
	})
}
