package auth

import (
	"context"
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
)

// Who may make a new account (SQUARELY_SIGNUP, SQUARELY_SIGNUP_DOMAINS;
// issue 33 item 1). Every path that makes one (registration, the trial's
// sign-up, a first sign-in through Google or OpenID Connect) goes through
// CreateAccount, which checks the instance's policy first.

// SignupRefused is a new account the policy refuses: Code for the app to
// act on (it shows Message instead of the form), Message in words.
type SignupRefused struct{ Code, Message string }

func (e *SignupRefused) Error() string { return "auth: sign-up refused: " + e.Code }

// CreateAccount saves the new account u through save once the instance's
// sign-up policy allows an account at u's address; otherwise it answers a
// *SignupRefused and saves nothing.
func (s *Service) CreateAccount(ctx context.Context, u *store.User, save func(context.Context, *store.User) error) error {
	if err := s.mayCreate(ctx, u.Username); err != nil {
		return err
	}
	return save(ctx, u)
}

// mayCreate checks the policy for a new account at email.
func (s *Service) mayCreate(ctx context.Context, email string) error {
	email = strings.ToLower(strings.TrimSpace(email))
	if domains := s.Config.SignupDomains; len(domains) > 0 {
		_, domain, _ := strings.Cut(email, "@")
		if !slices.Contains(domains, domain) {
			return &SignupRefused{"signup_domain", "New accounts on this instance are for addresses at " + strings.Join(domains, ", ") + " only."}
		}
	}
	switch s.Config.Signup {
	case config.SignupClosed:
		return &SignupRefused{"signup_closed", "This instance does not take new accounts. Ask its administrator for one."}
	case config.SignupInvite:
		invited, err := s.Store.InvitedAddress(ctx, email, s.now())
		if err != nil {
			return err
		}
		if !invited {
			return &SignupRefused{"signup_invite_only", "This instance takes new accounts by invitation only: ask a workspace admin to invite this address."}
		}
	}
	return nil
}
