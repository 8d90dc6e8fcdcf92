package auth

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/squarely/squarely/internal/store"
)

// SAML sign-in (issue 33 item 3): internal/saml checks the IdP's response
// and reads who it names; this finds or makes the account and signs it in.

// SAMLIdentity is who a workspace's IdP says the user is.
type SAMLIdentity struct {
	Subject, Email        string
	GivenName, FamilyName string
}

// ErrSAMLAccountTaken refuses an IdP's identity whose address already has
// an account the workspace may not take over: it has not proven the
// address's domain.
var ErrSAMLAccountTaken = errors.New("an account with this address exists, and the workspace has not verified its domain")

// SAMLUser finds the account for workspace workspaceID's IdP's identity id.
// An IdP is set up by a workspace's owner, not by whoever owns the address
// it asserts, so its e-mail counts as proven only when the workspace has
// verified the address's domain (domainProven): then the identity links to
// the account at that address as Google's does. Otherwise it gets the
// account already linked to it, or a new one, unverified; never someone
// else's.
func (s *Service) SAMLUser(ctx context.Context, workspaceID int64, domainProven bool, id SAMLIdentity) (*store.User, error) {
	links := oidcLinks{s.Store, "saml:" + strconv.FormatInt(workspaceID, 10), s.now()}
	ident := identity{Subject: id.Subject, Email: id.Email, EmailVerified: domainProven, GivenName: id.GivenName, FamilyName: id.FamilyName}
	if domainProven {
		return s.identityUser(ctx, links, ident)
	}
	u, err := links.find(ctx, id.Subject)
	switch {
	case err == nil && u.IsDeleted:
		return nil, errors.New("the linked account is deleted")
	case err == nil:
		return u, nil
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	if existing, err := s.Store.UserByUsername(ctx, id.Email); err == nil {
		// An account this workspace made (its SCIM provisioned it) is its own to link.
		if existing.ManagedBy != workspaceID || existing.IsDeleted {
			return nil, ErrSAMLAccountTaken
		}
		return existing, links.link(ctx, existing, id.Subject)
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	u = &store.User{Username: id.Email, Email: id.Email, FirstName: id.GivenName, LastName: id.FamilyName, ManagedBy: workspaceID}
	if err := s.CreateAccount(ctx, u, func(ctx context.Context, u *store.User) error { return links.create(ctx, u, id.Subject) }); err != nil {
		return nil, err
	}
	return u, nil
}

// FinishSAML ends a sign-in through workspace workspaceID's IdP that found
// u, or failed with err, as Google's and OIDC's end (see finishRedirect);
// the session counts as signed in through the IdP.
func (s *Service) FinishSAML(w http.ResponseWriter, r *http.Request, workspaceID int64, u *store.User, err error) {
	s.finish(w, r, "SAML", "sso", err, func() ([]string, error) { return s.SignInThroughIdP(w, r, u, workspaceID) })
}
