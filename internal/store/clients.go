package store

import (
	"context"
	"time"
)

// Client is a white-label tenant: its brand replaces Squarely's on its own
// domain. Client 1 is Squarely itself and always exists.
type Client struct {
	ID             int64
	Name           string
	CustomDomain   string // "" = none; unique when set
	Subdomain      string // "" = none; unique when set
	LogoURL        string
	PrimaryColor   string // default #3B82F6
	SecondaryColor string // default #1E40AF
	CustomFavicon  string
	RemoveBranding bool
	CustomCSS      string
	APIKey         string
	IsActive       bool
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Client returns the client with the given id.
func (s *Store) Client(ctx context.Context, id int64) (*Client, error) {
	c := new(Client)
	err := s.read.QueryRowContext(ctx, `
		SELECT id, name, COALESCE(custom_domain, ''), COALESCE(subdomain, ''), logo_url,
			primary_color, secondary_color, custom_favicon, remove_branding, custom_css,
			api_key, is_active, created_at, updated_at
		FROM clients WHERE id = $1`, id,
	).Scan(&c.ID, &c.Name, &c.CustomDomain, &c.Subdomain, &c.LogoURL,
		&c.PrimaryColor, &c.SecondaryColor, &c.CustomFavicon, &c.RemoveBranding, &c.CustomCSS,
		&c.APIKey, &c.IsActive, scanTime(&c.CreatedAt), scanTime(&c.UpdatedAt))
	if err != nil {
		return nil, fail("fetch client", err)
	}
	return c, nil
}
