package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
)

// Google is the OAuth client for "Sign in with Google". The endpoint URLs
// are fields so tests can point them at a fake provider.
type Google struct {
	ClientID     string
	ClientSecret string
	RedirectURL  string // BaseURL + "/auth/google/callback"
	AuthURL      string
	TokenURL     string
	UserInfoURL  string
}

// NewGoogle returns the client for Google's real endpoints, or nil when
// SQUARELY_GOOGLE_CLIENT_ID/SECRET are not set.
func NewGoogle(c config.Config) *Google {
	if !c.GoogleEnabled() {
		return nil
	}
	return &Google{
		ClientID:     c.GoogleClientID,
		ClientSecret: c.GoogleClientSecret,
		RedirectURL:  c.BaseURL + "/auth/google/callback",
		AuthURL:      "https://accounts.google.com/o/oauth2/v2/auth",
		TokenURL:     "https://oauth2.googleapis.com/token",
		UserInfoURL:  "https://openidconnect.googleapis.com/v1/userinfo",
	}
}

func (g *Google) oauth() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     g.ClientID,
		ClientSecret: g.ClientSecret,
		RedirectURL:  g.RedirectURL,
		Scopes:       []string{"openid", "email", "profile"},
		Endpoint: oauth2.Endpoint{
			AuthURL:   g.AuthURL,
			TokenURL:  g.TokenURL,
			AuthStyle: oauth2.AuthStyleInParams,
		},
	}
}

// googleCookie carries state and PKCE verifier from GoogleStart to the
// callback. Path /auth/google also covers /auth/google/callback.
const googleCookie = "squarely_google"

// googleIdentity is the part of Google's OpenID userinfo we use.
type googleIdentity struct {
	Sub           string   `json:"sub"`
	Email         string   `json:"email"`
	EmailVerified jsonBool `json:"email_verified"`
	GivenName     string   `json:"given_name"`
	FamilyName    string   `json:"family_name"`
}

// jsonBool accepts true and "true": Google's older endpoints send the string.
type jsonBool bool

func (b *jsonBool) UnmarshalJSON(data []byte) error {
	*b = jsonBool(string(data) == "true" || string(data) == `"true"`)
	return nil
}

// GoogleStart (GET /auth/google) sends the browser to Google, or back to
// the sign-in page with google=unavailable when Google sign-in is off.
func (s *Service) GoogleStart(w http.ResponseWriter, r *http.Request) {
	if s.Google == nil {
		http.Redirect(w, r, "/auth?google=unavailable", http.StatusFound)
		return
	}
	state, verifier := rand.Text(), oauth2.GenerateVerifier()
	s.setLaxCookie(w, r, googleCookie, "/auth/google", state+"."+verifier, int((10 * time.Minute).Seconds()))
	url := s.Google.oauth().AuthCodeURL(state,
		oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("prompt", "select_account"))
	http.Redirect(w, r, url, http.StatusFound)
}

// GoogleCallback (GET /auth/google/callback) checks the state, exchanges the
// code with the PKCE verifier, reads the user's identity, finds or creates
// their account and signs them in (see finishRedirect).
func (s *Service) GoogleCallback(w http.ResponseWriter, r *http.Request) {
	if s.Google == nil {
		http.Redirect(w, r, "/auth?google=unavailable", http.StatusFound)
		return
	}
	u, err := s.googleCallback(w, r)
	s.finishRedirect(w, r, "Google", "google", u, err)
}

// finishRedirect ends a sign-in through a provider's redirect (Google,
// OIDC) that found u, or failed with err: it signs u in and goes to /, or
// when u has a second factor goes to the sign-in page to ask for it
// (/auth?twoFactor=required); a new account the sign-up policy refuses
// goes to /auth?signup={code}; other failures go to /auth?{param}=failed
// and are logged with their reason.
func (s *Service) finishRedirect(w http.ResponseWriter, r *http.Request, provider, param string, u *store.User, err error) {
	s.finish(w, r, provider, param, err, func() ([]string, error) { return s.SignInOrChallenge(w, r, u) })
}

// finish is finishRedirect with the sign-in signIn does once err is nil.
func (s *Service) finish(w http.ResponseWriter, r *http.Request, provider, param string, err error, signIn func() ([]string, error)) {
	var methods []string
	var refused *SignupRefused
	if err == nil {
		methods, err = signIn()
	}
	switch {
	case errors.As(err, &refused):
		// The app's sign-in page says why, in the policy's words.
		http.Redirect(w, r, "/auth?signup="+refused.Code, http.StatusFound)
	case errors.Is(err, ErrSuspended):
		s.logger().WarnContext(r.Context(), provider+" sign-in refused", "err", err)
		http.Redirect(w, r, "/auth?"+param+"=suspended", http.StatusFound)
	case errors.Is(err, ErrSAMLAccountTaken):
		s.logger().WarnContext(r.Context(), provider+" sign-in refused", "err", err)
		http.Redirect(w, r, "/auth?"+param+"=account_exists", http.StatusFound)
	case err != nil:
		s.logger().WarnContext(r.Context(), provider+" sign-in failed", "err", err)
		http.Redirect(w, r, "/auth?"+param+"=failed", http.StatusFound)
	case methods != nil:
		http.Redirect(w, r, "/auth?twoFactor=required", http.StatusFound)
	default:
		http.Redirect(w, r, "/", http.StatusFound)
	}
}

func (s *Service) googleCallback(w http.ResponseWriter, r *http.Request) (*store.User, error) {
	c, err := r.Cookie(googleCookie)
	if err != nil {
		return nil, errors.New("no state cookie (expired, or the flow did not start here)")
	}
	s.setLaxCookie(w, r, googleCookie, "/auth/google", "", -1)
	state, verifier, _ := strings.Cut(c.Value, ".")
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("google answered error %q", e)
	}
	if state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(q.Get("state"))) != 1 {
		return nil, errors.New("state does not match")
	}
	if q.Get("code") == "" {
		return nil, errors.New("no code")
	}

	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	conf := s.Google.oauth()
	tok, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("exchanging the code: %w", err)
	}
	id, err := s.Google.userInfo(ctx, conf.Client(ctx, tok))
	if err != nil {
		return nil, err
	}
	return s.googleUser(ctx, id)
}

func (g *Google) userInfo(ctx context.Context, client *http.Client) (*googleIdentity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.UserInfoURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching userinfo: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching userinfo: status %s", resp.Status)
	}
	var id googleIdentity
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&id); err != nil {
		return nil, fmt.Errorf("decoding userinfo: %w", err)
	}
	if id.Sub == "" {
		return nil, errors.New("userinfo without sub")
	}
	return &id, nil
}

// googleLinks ties Google identities to accounts through users.google_id.
type googleLinks struct{ st *store.Store }

func (googleLinks) provider() string { return "google" }

func (g googleLinks) find(ctx context.Context, sub string) (*store.User, error) {
	return g.st.UserByGoogleID(ctx, sub)
}

func (googleLinks) linked(_ context.Context, u *store.User) (bool, error) {
	return u.GoogleID != "", nil
}

func (g googleLinks) link(ctx context.Context, u *store.User, sub string) error {
	if err := g.st.LinkGoogleID(ctx, u.ID, sub); err != nil {
		return err
	}
	u.GoogleID = sub
	return nil
}

func (g googleLinks) claim(ctx context.Context, u *store.User, sub string) error {
	return g.st.ClaimWithGoogle(ctx, u.ID, sub)
}

func (g googleLinks) create(ctx context.Context, u *store.User, sub string) error {
	u.GoogleID = sub
	return g.st.CreateUser(ctx, u)
}

// googleUser finds or creates the account of a Google identity.
func (s *Service) googleUser(ctx context.Context, id *googleIdentity) (*store.User, error) {
	return s.identityUser(ctx, googleLinks{s.Store}, identity{
		Subject: id.Sub, Email: id.Email, EmailVerified: bool(id.EmailVerified),
		GivenName: id.GivenName, FamilyName: id.FamilyName,
	})
}
