package store

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"
	"time"
)

// DefaultClientID is Squarely itself: it always exists and cannot be deleted.
const DefaultClientID = 1

// ErrDefaultClient refuses to delete the default client.
var ErrDefaultClient = errors.New("store: the default client cannot be deleted")

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
	// The client's API key is kept only as its hash; these two are what
	// may be shown of it. Both "" = no key yet.
	APIKeyPrefix, APIKeyLast4 string
	IsActive                  bool
	CreatedAt                 time.Time
	UpdatedAt                 time.Time
}

// SiteURL is the public URL of the client's site: its custom domain,
// else its subdomain of the base URL's host (with the base URL's port);
// "" when it has neither. Both take the base URL's scheme.
func (c *Client) SiteURL(base *url.URL) string {
	switch {
	case c == nil:
		return ""
	case c.CustomDomain != "":
		return base.Scheme + "://" + c.CustomDomain
	case c.Subdomain != "":
		host := c.Subdomain + "." + strings.ToLower(base.Hostname())
		if base.Port() != "" {
			host += ":" + base.Port()
		}
		return base.Scheme + "://" + host
	}
	return ""
}

const clientColumns = `
	id, name, COALESCE(custom_domain, ''), COALESCE(subdomain, ''), logo_url,
	primary_color, secondary_color, custom_favicon, remove_branding, custom_css,
	api_key_prefix, api_key_last4, is_active, created_at, updated_at`

func scanClient(row interface{ Scan(...any) error }) (*Client, error) {
	c := new(Client)
	err := row.Scan(&c.ID, &c.Name, &c.CustomDomain, &c.Subdomain, &c.LogoURL,
		&c.PrimaryColor, &c.SecondaryColor, &c.CustomFavicon, &c.RemoveBranding, &c.CustomCSS,
		&c.APIKeyPrefix, &c.APIKeyLast4, &c.IsActive, scanTime(&c.CreatedAt), scanTime(&c.UpdatedAt))
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Client returns the client with the given id.
func (s *Store) Client(ctx context.Context, id int64) (*Client, error) {
	c, err := scanClient(s.read.QueryRowContext(ctx, `SELECT `+clientColumns+` FROM clients WHERE id = $1`, id))
	if err != nil {
		return nil, fail("fetch client", err)
	}
	return c, nil
}

// Clients returns every client, by id.
func (s *Store) Clients(ctx context.Context) ([]*Client, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+clientColumns+` FROM clients ORDER BY id`)
	if err != nil {
		return nil, fail("list clients", err)
	}
	defer rows.Close()
	var list []*Client
	for rows.Next() {
		c, err := scanClient(rows)
		if err != nil {
			return nil, fail("list clients", err)
		}
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list clients", err)
	}
	return list, nil
}

// ActiveClientByHost returns the active client whose custom domain is host,
// or, when host is {sub}.{baseHost}, whose subdomain is sub. Hosts compare
// in lower case. ErrNotFound when none.
func (s *Store) ActiveClientByHost(ctx context.Context, host, baseHost string) (*Client, error) {
	host = strings.ToLower(host)
	sub, _ := strings.CutSuffix(host, "."+strings.ToLower(baseHost))
	if sub == host || strings.Contains(sub, ".") {
		sub = ""
	}
	c, err := scanClient(s.read.QueryRowContext(ctx, `
		SELECT `+clientColumns+` FROM clients
		WHERE is_active AND (custom_domain = $1 OR ($2 <> '' AND subdomain = $2))
		ORDER BY CASE WHEN custom_domain = $1 THEN 0 ELSE 1 END LIMIT 1`, host, sub))
	if err != nil {
		return nil, fail("fetch client by host", err)
	}
	return c, nil
}

// CreateClient saves a new client (active unless IsActive is false, which
// a new one never is) and fills in ID and the times. ErrConflict when its
// custom domain or subdomain is taken.
func (s *Store) CreateClient(ctx context.Context, c *Client, now time.Time) error {
	c.CreatedAt, c.UpdatedAt, c.IsActive = normTime(now), normTime(now), true
	// api_key is unique and NOT NULL: a fresh client holds a marker that
	// no key's hash equals until a key is rotated in.
	err := s.write.QueryRowContext(ctx, `
		INSERT INTO clients (name, custom_domain, subdomain, logo_url, primary_color, secondary_color,
			custom_favicon, remove_branding, custom_css, api_key, is_active, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
		RETURNING id`,
		c.Name, nullIfEmpty(c.CustomDomain), nullIfEmpty(c.Subdomain), c.LogoURL, c.PrimaryColor, c.SecondaryColor,
		c.CustomFavicon, c.RemoveBranding, c.CustomCSS, "none:"+newMarker(), true, dbTime(now),
	).Scan(&c.ID)
	if err != nil {
		return fail("create client", err)
	}
	return nil
}

// UpdateClient saves c's editable fields (not its key or times) and
// returns the client as stored. ErrConflict as CreateClient.
func (s *Store) UpdateClient(ctx context.Context, c *Client, now time.Time) (*Client, error) {
	res, err := s.write.ExecContext(ctx, `
		UPDATE clients SET name = $2, custom_domain = $3, subdomain = $4, logo_url = $5, primary_color = $6,
			secondary_color = $7, custom_favicon = $8, remove_branding = $9, custom_css = $10, is_active = $11,
			updated_at = $12
		WHERE id = $1`,
		c.ID, c.Name, nullIfEmpty(c.CustomDomain), nullIfEmpty(c.Subdomain), c.LogoURL, c.PrimaryColor,
		c.SecondaryColor, c.CustomFavicon, c.RemoveBranding, c.CustomCSS, c.IsActive, dbTime(now))
	if err := mustAffect("update client", res, err); err != nil {
		return nil, err
	}
	return s.Client(ctx, c.ID)
}

// DeleteClient deletes a client other than the default one. Its users and
// codes move to the default client, and the account its key acted as is
// soft-deleted with it, so the key stops working.
func (s *Store) DeleteClient(ctx context.Context, id int64, now time.Time) error {
	if id == DefaultClientID {
		return fail("delete client", ErrDefaultClient)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fail("delete client", err)
	}
	defer tx.Rollback()
	var apiUser sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT api_user_id FROM clients WHERE id = $1`, id).Scan(&apiUser); err != nil {
		return fail("delete client", err)
	}
	// Its codes' scans show the default client's brand from now on.
	codes, err := shortCodes(ctx, tx, `d.client_id = $1`, id)
	if err != nil {
		return err
	}
	if apiUser.Valid {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET is_deleted = true, deleted_at = $2 WHERE id = $1`,
			apiUser.Int64, dbTime(now)); err != nil {
			return fail("delete client", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET is_deleted = true, deleted_at = $2 WHERE personal_user_id = $1`,
			apiUser.Int64, dbTime(now)); err != nil {
			return fail("delete client", err)
		}
	}
	for _, table := range []string{"users", "workspaces", "qr_codes", "dynamic_qr_codes"} {
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET client_id = $2 WHERE client_id = $1`, id, DefaultClientID); err != nil {
			return fail("delete client", err)
		}
	}
	if err := releaseDomains(ctx, tx); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM clients WHERE id = $1`, id)
	if err := mustAffect("delete client", res, err); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fail("delete client", err)
	}
	s.redirectsChanged(ctx, codes...)
	return nil
}

// SetClientKey replaces a client's API key with the one hashed as keyHash,
// and returns the client. The key acts as the client's own account, made
// here the first time (no password, so it cannot sign in).
func (s *Store) SetClientKey(ctx context.Context, id int64, k KeyParts, now time.Time) (*Client, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail("rotate client key", err)
	}
	defer tx.Rollback()
	var apiUser sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT api_user_id FROM clients WHERE id = $1`, id).Scan(&apiUser); err != nil {
		return nil, fail("rotate client key", err)
	}
	if !apiUser.Valid {
		err := tx.QueryRowContext(ctx, `
			INSERT INTO users (client_id, username, email, created_at) VALUES ($1, $2, '', $3) RETURNING id`,
			id, clientAccountName(id), dbTime(now)).Scan(&apiUser.Int64)
		if err != nil {
			return nil, fail("rotate client key", err)
		}
		if err := createPersonalWorkspace(ctx, tx, apiUser.Int64, id, now); err != nil {
			return nil, err
		}
	}
	_, err = tx.ExecContext(ctx, `
		UPDATE clients SET api_key = $2, api_key_prefix = $3, api_key_last4 = $4, api_user_id = $5, updated_at = $6
		WHERE id = $1`, id, k.Hash, k.Prefix, k.Last4, apiUser.Int64, dbTime(now))
	if err != nil {
		return nil, fail("rotate client key", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fail("rotate client key", err)
	}
	return s.Client(ctx, id)
}

// clientAccountName is the username of the account a client's key acts
// as: under the reserved .invalid domain, so no one can register it.
func clientAccountName(id int64) string {
	return "client-" + itoa(id) + "@api.invalid"
}
