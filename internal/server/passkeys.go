package server

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// Passkeys (issue 27): WebAuthn credentials registered from the account
// settings, used as the second factor of a pending sign-in or to sign in
// without a password.

const (
	passkeyCookie      = "squarely_webauthn"
	ceremonyLifetime   = 5 * time.Minute
	maxPasskeyName     = 64       // characters
	maxWebAuthnPayload = 64 << 10 // bytes of a browser's answer
	msgPasskeyRefused  = "The passkey could not be verified"
	msgCeremonyGone    = "This passkey request has expired. Please try again."
	msgPasskeyNotFound = "Passkey not found"
	msgVerifyBeforeKey = "Confirm your email address before adding a passkey"
)

// relyingParty returns the WebAuthn relying party of the request's host,
// or has answered. A white-label client served on its own domain is its
// own party (its passkeys work only there); everything else, the site and
// the clients' subdomains of it, is the party of SQUARELY_BASE_URL's host,
// so one passkey works on all of them.
func (s *server) relyingParty(w http.ResponseWriter, r *http.Request) (*webauthn.WebAuthn, bool) {
	base, _ := url.Parse(s.cfg.BaseURL) // config.Load checked it
	id, name, origin := base.Hostname(), "Squarely", s.cfg.BaseURL
	if c := requestClient(r); c != nil {
		name, origin = c.Name, c.SiteURL(s.clients.base)
		if c.CustomDomain != "" {
			id = c.CustomDomain
		}
	} else if ip, err := netip.ParseAddr(id); err == nil && ip.IsLoopback() && strings.EqualFold(hostOnly(r.Host), "localhost") {
		// Browsers refuse IP addresses as relying party ids: a site run on
		// a loopback address (development, the browser tests) takes
		// passkeys at localhost, the same machine, instead.
		id, origin = "localhost", base.Scheme+"://localhost"
		if base.Port() != "" {
			origin += ":" + base.Port()
		}
	}
	if _, err := netip.ParseAddr(id); err == nil {
		writeError(w, http.StatusServiceUnavailable, "Passkeys need the site's domain name: they do not work on an IP address")
		return nil, false
	}
	rp, err := webauthn.New(&webauthn.Config{RPID: id, RPDisplayName: name, RPOrigins: []string{origin}})
	if err != nil {
		s.internalError(w, "configuring WebAuthn", err)
		return nil, false
	}
	return rp, true
}

// passkeyParty returns the request's relying party and u with its
// passkeys there, or has answered.
func (s *server) passkeyParty(w http.ResponseWriter, r *http.Request, u *store.User) (*webauthn.WebAuthn, *passkeyUser, bool) {
	rp, ok := s.relyingParty(w, r)
	if !ok {
		return nil, nil, false
	}
	pu, err := s.loadPasskeyUser(r, u, rp.Config.RPID)
	if err != nil {
		s.internalError(w, "reading passkeys", err)
		return nil, nil, false
	}
	return rp, pu, true
}

// passkeyUser is a user as go-webauthn sees it, with the passkeys of one
// relying party.
type passkeyUser struct {
	u     *store.User
	rows  []store.WebAuthnCredential
	creds []webauthn.Credential
}

func (p *passkeyUser) WebAuthnID() []byte                         { return userHandle(p.u.ID) }
func (p *passkeyUser) WebAuthnName() string                       { return p.u.Email }
func (p *passkeyUser) WebAuthnDisplayName() string                { return p.u.Email }
func (p *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return p.creds }

// userHandle is the user handle passkeys carry: the account id, 8 bytes.
func userHandle(id int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(id)) }

// loadPasskeyUser reads u's passkeys of the relying party rpID.
func (s *server) loadPasskeyUser(r *http.Request, u *store.User, rpID string) (*passkeyUser, error) {
	rows, err := s.store.WebAuthnCredentials(r.Context(), u.ID, rpID)
	if err != nil {
		return nil, err
	}
	p := &passkeyUser{u: u, rows: rows}
	for _, row := range rows {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(row.Data), &c); err != nil {
			return nil, err
		}
		p.creds = append(p.creds, c)
	}
	return p, nil
}

// row returns the stored passkey of credential c.
func (p *passkeyUser) row(c *webauthn.Credential) *store.WebAuthnCredential {
	id := base64.RawURLEncoding.EncodeToString(c.ID)
	for i := range p.rows {
		if p.rows[i].CredentialID == id {
			return &p.rows[i]
		}
	}
	return nil
}

// beginCeremony saves go-webauthn's session data for the finish call under
// a new cookie token, and answers options to the browser.
func (s *server) beginCeremony(w http.ResponseWriter, r *http.Request, kind string, userID int64, name string, session *webauthn.SessionData, options any) {
	data, err := json.Marshal(session)
	if err != nil {
		s.internalError(w, "encoding a passkey ceremony", err)
		return
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	now := s.now()
	c := &store.WebAuthnCeremony{ID: store.TokenHash(base64.RawURLEncoding.EncodeToString(raw)), UserID: userID, Kind: kind, Name: name, Data: string(data), ExpiresAt: now.Add(ceremonyLifetime)}
	if err := s.store.CreateWebAuthnCeremony(r.Context(), c, now); err != nil {
		s.internalError(w, "saving a passkey ceremony", err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: passkeyCookie, Value: base64.RawURLEncoding.EncodeToString(raw), Path: "/api/webauthn/",
		MaxAge: int(ceremonyLifetime / time.Second), HttpOnly: true, Secure: s.auth.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
	writeJSON(w, http.StatusOK, options)
}

// takeCeremony reads the browser's answer (at most maxWebAuthnPayload
// bytes) and ends the ceremony of kind it answers, which works once.
// Otherwise it has answered.
func (s *server) takeCeremony(w http.ResponseWriter, r *http.Request, kind string) (*store.WebAuthnCeremony, *webauthn.SessionData, []byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebAuthnPayload))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "Request body too large")
		return nil, nil, nil, false
	}
	ck, err := r.Cookie(passkeyCookie)
	if err != nil {
		writeError(w, http.StatusBadRequest, msgCeremonyGone)
		return nil, nil, nil, false
	}
	http.SetCookie(w, &http.Cookie{Name: passkeyCookie, Path: "/api/webauthn/", MaxAge: -1, HttpOnly: true, Secure: s.auth.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
	c, err := s.store.TakeWebAuthnCeremony(r.Context(), store.TokenHash(ck.Value), kind, s.now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusBadRequest, msgCeremonyGone)
		return nil, nil, nil, false
	}
	if err != nil {
		s.internalError(w, "reading a passkey ceremony", err)
		return nil, nil, nil, false
	}
	var session webauthn.SessionData
	if err := json.Unmarshal([]byte(c.Data), &session); err != nil {
		s.internalError(w, "decoding a passkey ceremony", err)
		return nil, nil, nil, false
	}
	return c, &session, body, true
}

// beginPasskeyRegistration (POST /api/webauthn/register/begin {name}) starts
// adding a passkey to the signed-in account: the options for
// navigator.credentials.create.
func (s *server) beginPasskeyRegistration(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "":
		in.Name = "Passkey"
	case utf8.RuneCountInString(in.Name) > maxPasskeyName:
		fieldError(w, "name", "Name must be at most 64 characters")
		return
	case strings.ContainsFunc(in.Name, isControlOrFormat):
		fieldError(w, "name", "Name must not contain control or formatting characters")
		return
	}
	u := auth.UserFrom(r.Context())
	if !u.EmailVerified {
		writeError(w, http.StatusForbidden, msgVerifyBeforeKey)
		return
	}
	rp, pu, ok := s.passkeyParty(w, r, u)
	if !ok {
		return
	}
	options, session, err := rp.BeginRegistration(pu,
		webauthn.WithExclusions(webauthn.Credentials(pu.creds).CredentialDescriptors()),
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired))
	if err != nil {
		s.internalError(w, "starting a passkey registration", err)
		return
	}
	s.beginCeremony(w, r, "register", u.ID, in.Name, session, options)
}

// finishPasskeyRegistration (POST /api/webauthn/register/finish, the
// browser's PublicKeyCredential) checks the attestation against the
// ceremony (challenge, origin, relying party id) and saves the passkey.
func (s *server) finishPasskeyRegistration(w http.ResponseWriter, r *http.Request) {
	c, session, body, ok := s.takeCeremony(w, r, "register")
	if !ok {
		return
	}
	u := auth.UserFrom(r.Context())
	if c.UserID != u.ID {
		writeError(w, http.StatusBadRequest, msgCeremonyGone)
		return
	}
	rp, pu, ok := s.passkeyParty(w, r, u)
	if !ok {
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(body)
	var cred *webauthn.Credential
	if err == nil {
		cred, err = rp.CreateCredential(pu, *session, parsed)
	}
	if err != nil {
		s.log.Warn("passkey registration refused", "user", u.ID, "err", err)
		writeError(w, http.StatusBadRequest, msgPasskeyRefused)
		return
	}
	data, err := json.Marshal(cred)
	if err != nil {
		s.internalError(w, "encoding a passkey", err)
		return
	}
	row := &store.WebAuthnCredential{UserID: u.ID, RPID: rp.Config.RPID, CredentialID: base64.RawURLEncoding.EncodeToString(cred.ID),
		Name: c.Name, Data: string(data), CreatedAt: s.now()}
	err = s.store.AddWebAuthnCredential(r.Context(), row)
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, "This passkey is already registered")
		return
	}
	if err != nil {
		s.internalError(w, "saving a passkey", err)
		return
	}
	writeJSON(w, http.StatusCreated, passkeyJSON(row))
}

type passkeyResponse struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	RPID       string     `json:"rpId"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

func passkeyJSON(c *store.WebAuthnCredential) passkeyResponse {
	return passkeyResponse{ID: c.ID, Name: c.Name, RPID: c.RPID, CreatedAt: c.CreatedAt, LastUsedAt: c.LastUsedAt}
}

// listPasskeys (GET /api/webauthn/credentials) answers the signed-in
// user's passkeys, oldest first.
func (s *server) listPasskeys(w http.ResponseWriter, r *http.Request) {
	rows, err := s.store.WebAuthnCredentials(r.Context(), auth.UserFrom(r.Context()).ID, "")
	if err != nil {
		s.internalError(w, "listing passkeys", err)
		return
	}
	out := make([]passkeyResponse, 0, len(rows))
	for i := range rows {
		out = append(out, passkeyJSON(&rows[i]))
	}
	writeJSON(w, http.StatusOK, out)
}

// deletePasskey (DELETE /api/webauthn/credentials/{id}) removes one of the
// signed-in user's passkeys.
func (s *server) deletePasskey(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgPasskeyNotFound)
	if !ok {
		return
	}
	err := s.store.DeleteWebAuthnCredential(r.Context(), auth.UserFrom(r.Context()).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgPasskeyNotFound)
		return
	}
	if err != nil {
		s.internalError(w, "deleting a passkey", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Passkey removed"})
}

// beginPasskeyLogin (POST /api/webauthn/login/begin) starts a sign-in with
// a passkey: the second factor of the browser's pending sign-in (its
// user's passkeys allowed), or else a sign-in by passkey alone (any
// passkey of this relying party, user verification required).
func (s *server) beginPasskeyLogin(w http.ResponseWriter, r *http.Request) {
	rp, ok := s.relyingParty(w, r)
	if !ok {
		return
	}
	// Each start saves a ceremony: counted per address as sign-ins are,
	// so one client cannot fill the table before its rows expire.
	if !s.addressLogins.take(w, clientKey(r), msgTooManyStarts) {
		return
	}
	pending, err := s.auth.PendingUser(r)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, "reading a pending sign-in", err)
		return
	}
	if pending == nil {
		options, session, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
		if err != nil {
			s.internalError(w, "starting a passkey sign-in", err)
			return
		}
		s.beginCeremony(w, r, "login", 0, "", session, options)
		return
	}
	pu, err := s.loadPasskeyUser(r, pending, rp.Config.RPID)
	if err != nil {
		s.internalError(w, "reading passkeys", err)
		return
	}
	if len(pu.creds) == 0 {
		writeError(w, http.StatusBadRequest, "This account has no passkey for this site")
		return
	}
	options, session, err := rp.BeginLogin(pu)
	if err != nil {
		s.internalError(w, "starting a passkey sign-in", err)
		return
	}
	s.beginCeremony(w, r, "login", pending.ID, "", session, options)
}

// finishPasskeyLogin (POST /api/webauthn/login/finish, the browser's
// assertion) checks the signature against the ceremony and the stored
// public key (challenge, origin, relying party id, sign count) and signs
// in: the pending sign-in it was begun for, or the passkey's owner. Each
// attempt counts against the client address like a failed login until one
// succeeds.
func (s *server) finishPasskeyLogin(w http.ResponseWriter, r *http.Request) {
	if !s.logins.take(w, clientKey(r), msgTooManyLogins) {
		return
	}
	c, session, body, ok := s.takeCeremony(w, r, "login")
	if !ok {
		return
	}
	rp, ok := s.relyingParty(w, r)
	if !ok {
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body)
	if err != nil {
		s.log.Warn("passkey sign-in refused", "err", err)
		writeError(w, http.StatusUnauthorized, msgPasskeyRefused)
		return
	}
	var (
		pu      *passkeyUser
		cred    *webauthn.Credential
		loadErr error
	)
	if c.UserID != 0 {
		u, perr := s.auth.PendingUser(r)
		if errors.Is(perr, store.ErrNotFound) || perr == nil && u.ID != c.UserID {
			writeError(w, http.StatusUnauthorized, msgPendingGone)
			return
		}
		if perr != nil {
			s.internalError(w, "reading a pending sign-in", perr)
			return
		}
		if pu, loadErr = s.loadPasskeyUser(r, u, rp.Config.RPID); loadErr == nil {
			cred, err = rp.ValidateLogin(pu, *session, parsed)
		}
	} else {
		_, cred, err = rp.ValidatePasskeyLogin(func(_, handle []byte) (webauthn.User, error) {
			if len(handle) != 8 {
				return nil, errors.New("unknown user handle")
			}
			u, err := s.store.User(r.Context(), int64(binary.BigEndian.Uint64(handle)))
			if err != nil || u.IsDeleted {
				return nil, errors.New("unknown user handle")
			}
			pu, loadErr = s.loadPasskeyUser(r, u, rp.Config.RPID)
			return pu, loadErr
		}, *session, parsed)
	}
	if loadErr != nil {
		s.internalError(w, "reading passkeys", loadErr)
		return
	}
	if err == nil && cred.Authenticator.CloneWarning {
		err = errors.New("the sign count went backwards: a cloned authenticator")
	}
	if err != nil {
		s.log.Warn("passkey sign-in refused", "err", err)
		writeError(w, http.StatusUnauthorized, msgPasskeyRefused)
		return
	}
	row := pu.row(cred)
	if row == nil {
		s.internalError(w, "updating a passkey", errors.New("the passkey is not among the user's"))
		return
	}
	data, err := json.Marshal(cred)
	if err == nil {
		err = s.store.UseWebAuthnCredential(r.Context(), row.ID, string(data), s.now())
	}
	if err != nil {
		s.internalError(w, "updating a passkey", err)
		return
	}
	s.logins.refund(clientKey(r))
	if c.UserID != 0 {
		s.finishPending(w, r, pu.u)
		return
	}
	if err := s.auth.SignIn(w, r, pu.u); errors.Is(err, auth.ErrSuspended) {
		writeJSON(w, http.StatusForbidden, apiError{Message: msgSuspended, Code: "account_suspended"})
		return
	} else if err != nil {
		s.internalError(w, "signing in", err)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(r, pu.u))
}
