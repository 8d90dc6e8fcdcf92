package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/squarely/squarely/internal/store"
)

// identity is who a sign-in provider (Google, an OpenID Connect provider)
// says the user is.
type identity struct {
	Subject, Email        string
	EmailVerified         bool
	GivenName, FamilyName string
}

// accountLinks ties one provider's identities to accounts.
type accountLinks interface {
	provider() string // names the provider in logged reasons
	find(ctx context.Context, subject string) (*store.User, error)
	// linked reports whether u is linked to any identity of the provider.
	linked(ctx context.Context, u *store.User) (bool, error)
	link(ctx context.Context, u *store.User, subject string) error
	// claim gives the unverified account u to the identity (see
	// store.ClaimWithGoogle).
	claim(ctx context.Context, u *store.User, subject string) error
	// create saves the new account u linked to the identity.
	create(ctx context.Context, u *store.User, subject string) error
}

// identityUser finds the account for a provider's identity: the one linked
// to it; else the one whose username is its e-mail, but only when the
// provider has verified that e-mail (otherwise anyone could claim an
// address): linked now when its address was proven, claimed when not;
// else a new password-less account named by the e-mail, verified.
func (s *Service) identityUser(ctx context.Context, links accountLinks, id identity) (*store.User, error) {
	u, err := links.find(ctx, id.Subject)
	if err == nil {
		if u.IsDeleted {
			return nil, errors.New("the linked account is deleted")
		}
		return u, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}

	email := strings.ToLower(strings.TrimSpace(id.Email))
	if email == "" || !id.EmailVerified {
		return nil, fmt.Errorf("%s has not verified the e-mail %q", links.provider(), id.Email)
	}
	u, err = s.Store.UserByUsername(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		u = &store.User{
			Username:      email,
			Email:         email,
			EmailVerified: true, // the provider has verified it
			FirstName:     id.GivenName,
			LastName:      id.FamilyName,
		}
		err := s.CreateAccount(ctx, u, func(ctx context.Context, u *store.User) error { return links.create(ctx, u, id.Subject) })
		if err != nil {
			return nil, err
		}
		return u, nil
	}
	if err != nil {
		return nil, err
	}
	if u.IsDeleted {
		return nil, fmt.Errorf("the account of %q is deleted", email)
	}
	linked, err := links.linked(ctx, u)
	switch {
	case err != nil:
		return nil, err
	case linked:
		return nil, fmt.Errorf("the account of %q is linked to another %s account", email, links.provider())
	case !u.EmailVerified:
		// Nobody has proven this address yet, and the provider just did:
		// the account goes to this identity, and whatever an unproven
		// holder set up (password, sessions, links) ends.
		if err := links.claim(ctx, u, id.Subject); err != nil {
			return nil, err
		}
		return s.Store.User(ctx, u.ID)
	}
	if err := links.link(ctx, u, id.Subject); err != nil {
		return nil, err
	}
	return u, nil
}
