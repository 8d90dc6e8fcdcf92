package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// SAML single sign-on per team workspace (issue 33 item 3): the IdP's
// metadata, how its groups map to roles, and the state that makes each
// response count once (the requests sent, the assertions accepted).

// SSO is a workspace's single sign-on set-up.
type SSO struct {
	WorkspaceID       int64
	IdPMetadataXML    string
	IdPMetadataURL    string            // where the XML came from, "" when uploaded
	RoleMapping       map[string]string // IdP group → role
	DefaultRole       string            // for a member in none of the mapped groups
	EnforceSSO        bool              // members must have signed in through the IdP
	AllowIdPInitiated bool
	// BreakGlassUserID is the one owner enforce_sso lets in without the
	// IdP, so an IdP outage cannot lock the workspace out (nil: none).
	BreakGlassUserID *int64
	// The service provider's key pair, made once per workspace: the
	// certificate its metadata publishes.
	SPKeyPEM, SPCertPEM string
	UpdatedAt           time.Time
}

var (
	// ErrSSOPersonal refuses single sign-on on a personal workspace.
	ErrSSOPersonal = errors.New("store: a personal workspace has no single sign-on")
	// ErrBreakGlassNotOwner refuses a break-glass member who is not an owner.
	ErrBreakGlassNotOwner = errors.New("store: the break-glass member is not an owner")
	// ErrAssertionReplayed refuses an assertion accepted before.
	ErrAssertionReplayed = errors.New("store: the assertion was used before")
)

// SetSSO saves the workspace's set-up. A workspace keeps the key pair it
// was first given (SPKeyPEM and SPCertPEM are read only then), so the IdP's
// copy of its metadata stays valid across edits.
func (s *Store) SetSSO(ctx context.Context, c *SSO, now time.Time) error {
	mapping, err := json.Marshal(c.RoleMapping)
	if err != nil {
		return fail("set single sign-on", err)
	}
	return s.inTx(ctx, "set single sign-on", func(tx *sql.Tx) error {
		var personal bool
		var name string
		err := tx.QueryRowContext(ctx, `SELECT personal_user_id IS NOT NULL, name FROM workspaces WHERE id = $1 AND NOT is_deleted`+s.forUpdate(""),
			c.WorkspaceID).Scan(&personal, &name)
		switch {
		case err != nil:
			return fail("set single sign-on", err)
		case personal:
			return ErrSSOPersonal
		}
		if c.BreakGlassUserID != nil {
			var role string
			err := tx.QueryRowContext(ctx, `SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`,
				c.WorkspaceID, *c.BreakGlassUserID).Scan(&role)
			if errors.Is(err, sql.ErrNoRows) || role != RoleOwner {
				return ErrBreakGlassNotOwner
			}
			if err != nil {
				return fail("set single sign-on", err)
			}
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO workspace_sso (workspace_id, idp_metadata_xml, idp_metadata_url, role_mapping, default_role,
				allow_idp_initiated, break_glass_user_id, sp_key_pem, sp_cert_pem, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (workspace_id) DO UPDATE SET idp_metadata_xml = excluded.idp_metadata_xml,
				idp_metadata_url = excluded.idp_metadata_url, role_mapping = excluded.role_mapping,
				default_role = excluded.default_role, allow_idp_initiated = excluded.allow_idp_initiated,
				break_glass_user_id = excluded.break_glass_user_id, updated_at = excluded.updated_at`,
			c.WorkspaceID, c.IdPMetadataXML, c.IdPMetadataURL, string(mapping), c.DefaultRole,
			c.AllowIdPInitiated, c.BreakGlassUserID, c.SPKeyPEM, c.SPCertPEM, dbTime(now))
		if err != nil {
			return fail("set single sign-on", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET enforce_sso = $2 WHERE id = $1`, c.WorkspaceID, c.EnforceSSO); err != nil {
			return fail("set single sign-on", err)
		}
		return s.audit(ctx, tx, c.WorkspaceID, "workspace.sso_changed", Target{"workspace", c.WorkspaceID, name},
			map[string]any{"idpMetadataUrl": c.IdPMetadataURL, "roleMapping": c.RoleMapping, "defaultRole": c.DefaultRole,
				"enforceSso": c.EnforceSSO, "allowIdpInitiated": c.AllowIdPInitiated})
	})
}

// WorkspaceSSO returns the live workspace's set-up; ErrNotFound when it
// has none.
func (s *Store) WorkspaceSSO(ctx context.Context, workspaceID int64) (*SSO, error) {
	c := &SSO{WorkspaceID: workspaceID}
	var mapping string
	var breakGlass sql.NullInt64
	err := s.read.QueryRowContext(ctx, `
		SELECT o.idp_metadata_xml, o.idp_metadata_url, o.role_mapping, o.default_role, w.enforce_sso, o.allow_idp_initiated,
			o.break_glass_user_id, o.sp_key_pem, o.sp_cert_pem, o.updated_at
		FROM workspace_sso o JOIN workspaces w ON w.id = o.workspace_id
		WHERE o.workspace_id = $1 AND NOT w.is_deleted`, workspaceID).Scan(
		&c.IdPMetadataXML, &c.IdPMetadataURL, &mapping, &c.DefaultRole, &c.EnforceSSO, &c.AllowIdPInitiated,
		&breakGlass, &c.SPKeyPEM, &c.SPCertPEM, scanTime(&c.UpdatedAt))
	if err != nil {
		return nil, fail("fetch single sign-on", err)
	}
	if breakGlass.Valid {
		c.BreakGlassUserID = &breakGlass.Int64
	}
	if err := json.Unmarshal([]byte(mapping), &c.RoleMapping); err != nil {
		return nil, fail("fetch single sign-on", err)
	}
	return c, nil
}

// DeleteSSO removes the workspace's set-up, and with it the requirement
// to sign in through it.
func (s *Store) DeleteSSO(ctx context.Context, workspaceID int64) error {
	return s.inTx(ctx, "delete single sign-on", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM workspace_sso WHERE workspace_id = $1`, workspaceID)
		if err != nil {
			return fail("delete single sign-on", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET enforce_sso = false WHERE id = $1`, workspaceID); err != nil {
			return fail("delete single sign-on", err)
		}
		return s.audit(ctx, tx, workspaceID, "workspace.sso_removed", Target{"workspace", workspaceID, ""}, nil)
	})
}

// SaveSAMLRequest records an AuthnRequest sent for the workspace, to be
// answered before expires.
func (s *Store) SaveSAMLRequest(ctx context.Context, id string, workspaceID int64, expires, now time.Time) error {
	return s.inTx(ctx, "save SAML request", func(tx *sql.Tx) error {
		// Requests nobody answered go as new ones come.
		if _, err := tx.ExecContext(ctx, `DELETE FROM saml_requests WHERE expires_at <= $1`, dbTime(now)); err != nil {
			return fail("save SAML request", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO saml_requests (id, workspace_id, expires_at) VALUES ($1, $2, $3)`,
			id, workspaceID, dbTime(expires))
		return failOrNil("save SAML request", err)
	})
}

// SAMLRequestOpen reports whether the workspace sent request id and it
// has not expired nor been answered.
func (s *Store) SAMLRequestOpen(ctx context.Context, id string, workspaceID int64, now time.Time) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM saml_requests WHERE id = $1 AND workspace_id = $2 AND expires_at > $3`,
		id, workspaceID, dbTime(now)).Scan(&n)
	return n > 0, failOrNil("read SAML request", err)
}

// CloseSAMLRequest marks request id answered. It reports false when it was
// answered already (by a parallel response), or expired.
func (s *Store) CloseSAMLRequest(ctx context.Context, id string, workspaceID int64, now time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM saml_requests WHERE id = $1 AND workspace_id = $2 AND expires_at > $3`,
		id, workspaceID, dbTime(now))
	if err != nil {
		return false, fail("close SAML request", err)
	}
	n, err := res.RowsAffected()
	return n == 1, failOrNil("close SAML request", err)
}

// ConsumeSAMLAssertion records the assertion id as used until expires:
// ErrAssertionReplayed when it was recorded before. The records of
// assertions past their expiry go as new ones come.
func (s *Store) ConsumeSAMLAssertion(ctx context.Context, id string, expires, now time.Time) error {
	return s.inTx(ctx, "consume SAML assertion", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM saml_assertions WHERE expires_at <= $1`, dbTime(now)); err != nil {
			return fail("consume SAML assertion", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO saml_assertions (id, expires_at) VALUES ($1, $2)`, id, dbTime(expires))
		if isUniqueViolation(err) {
			return ErrAssertionReplayed
		}
		return failOrNil("consume SAML assertion", err)
	})
}

// SessionSignedInThrough reports whether the session signed in through
// the workspace's IdP.
func (s *Store) SessionSignedInThrough(ctx context.Context, sessionID string, workspaceID int64) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = $1 AND sso_workspace_id = $2`, sessionID, workspaceID).Scan(&n)
	return n > 0, failOrNil("read single sign-on session", err)
}

// IsBreakGlass reports whether the user is the workspace's break-glass
// owner (still an owner).
func (s *Store) IsBreakGlass(ctx context.Context, workspaceID, userID int64) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `
		SELECT count(*) FROM workspace_sso o JOIN workspace_members m ON m.workspace_id = o.workspace_id AND m.user_id = o.break_glass_user_id
		WHERE o.workspace_id = $1 AND o.break_glass_user_id = $2 AND m.role = 'owner'`, workspaceID, userID).Scan(&n)
	return n > 0, failOrNil("read break-glass owner", err)
}

// SyncSSOMember makes the user a member of the workspace with the role
// its IdP's groups map to: a new member joins with it, a member's role
// follows it, an owner stays an owner (the IdP grants no ownership and
// takes none away).
func (s *Store) SyncSSOMember(ctx context.Context, workspaceID, userID int64, email, role string, now time.Time) error {
	ctx = WithActor(ctx, Actor{Type: "user", ID: userID, Email: email})
	return s.inTx(ctx, "sync single sign-on member", func(tx *sql.Tx) error {
		return s.joinAs(ctx, tx, workspaceID, userID, email, role, now, "single sign-on")
	})
}

// provenDomains counts workspace $1's verified custom domains that are
// domain $2 or under it ($3 = "%." + $2).
const provenDomains = `SELECT count(*) FROM workspace_domains WHERE workspace_id = $1 AND verified_at IS NOT NULL
	AND (domain = $2 OR domain LIKE $3)`

// DomainProven reports whether the workspace has proven the e-mail
// domain: one of its verified custom domains is the domain or under it
// (as auto-join requires).
func (s *Store) DomainProven(ctx context.Context, workspaceID int64, domain string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, provenDomains, workspaceID, domain, "%."+domain).Scan(&n)
	return n > 0, failOrNil("read proven domains", err)
}

// SSOWorkspaceForDomain is the live workspace with single sign-on that
// has proven the e-mail domain (its auto-join domain, or a verified custom
// domain that is the domain or under it); ErrNotFound for none.
func (s *Store) SSOWorkspaceForDomain(ctx context.Context, domain string) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `
		SELECT w.id FROM workspaces w JOIN workspace_sso o ON o.workspace_id = w.id
		WHERE NOT w.is_deleted AND (w.auto_join_domain = $1 OR EXISTS (SELECT 1 FROM workspace_domains d
			WHERE d.workspace_id = w.id AND d.verified_at IS NOT NULL AND (d.domain = $1 OR d.domain LIKE $2)))
		ORDER BY w.id LIMIT 1`, domain, "%."+domain).Scan(&id)
	return id, failOrNil("find single sign-on by domain", err)
}

// AnySSO reports whether a live workspace has single sign-on, for the
// sign-in page's "Sign in with SSO".
func (s *Store) AnySSO(ctx context.Context) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM workspace_sso o JOIN workspaces w ON w.id = o.workspace_id WHERE NOT w.is_deleted`).Scan(&n)
	return n > 0, failOrNil("read single sign-on", err)
}

// MappedWorkspaceForDomain is the single sign-on set-up of the live
// workspace that takes in the e-mail domain (its auto-join domain);
// ErrNotFound for none.
func (s *Store) MappedWorkspaceForDomain(ctx context.Context, domain string) (*SSO, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT w.id FROM workspaces w JOIN workspace_sso o ON o.workspace_id = w.id
		WHERE w.auto_join_domain = $1 AND NOT w.is_deleted`, strings.ToLower(domain)).Scan(&id)
	if err != nil {
		return nil, fail("find single sign-on by domain", err)
	}
	return s.WorkspaceSSO(ctx, id)
}
