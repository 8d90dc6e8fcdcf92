package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// Workspaces (issue 22): teams share codes with roles. Every route that
// touches a workspace's work goes through one wrapper, s.in(permission),
// which finds the workspace the request acts on (the session's active one,
// the {id} of /api/workspaces/{id}/…, or an API key's), checks the
// caller's role against the role rules (auth.Allowed), and puts both the
// workspace and the actor (for the audit log) in the request's context.

const (
	msgNoPermission      = "You do not have permission to do this in this workspace"
	msgWorkspaceMissing  = "Workspace not found"
	msgMemberMissing     = "Member not found"
	msgLastOwner         = "A workspace must keep at least one owner"
	msgPersonal          = "Your personal workspace cannot be deleted or left"
	msgInvitationBad     = "This invitation is invalid or has expired"
	msgInvitationMissing = "Invitation not found"
	msgWrongInvitee      = "This invitation was sent to another email address. Sign in with that address to accept it."
	msgAlreadyMember     = "Already a member"
	msgTwoFactorRequired = "This workspace requires two-factor authentication. Set it up in Account Settings to continue."
	msgRequire2FAOwnTOTP = "Set up two-factor authentication for your own account in Account Settings before requiring it of members"
	msgTooManyWorkspaces = "You have created too many workspaces recently. Please try again later."
	maxWorkspaceName     = 100
	// workspacesPerAddressFactor times SQUARELY_WORKSPACE_RATE_LIMIT
	// workspaces may be created per hour from one client address, for the
	// accounts behind one office's address.
	workspacesPerAddressFactor = 3
	invitationLifetime         = 7 * 24 * time.Hour
	// invitationPath is the app's page the mailed link opens; it signs in
	// or registers with the invited address, then accepts.
	invitationPath = "/invitations/accept"
)

// msgSignInRequired refuses visitors on an instance whose generator is
// for its members only.
const msgSignInRequired = "Sign in to make QR codes on this instance."

type workspaceKey struct{}

// workspaceFrom returns the workspace the request acts on: set by
// loadWorkspace (a session's), publicapi.Authenticate (a key's) or s.in (the path's);
// nil for a visitor.
func workspaceFrom(ctx context.Context) *store.Workspace {
	w, _ := ctx.Value(workspaceKey{}).(*store.Workspace)
	return w
}

// withWorkspace returns r acting on ws, as actor.
func withWorkspace(r *http.Request, ws *store.Workspace, actor store.Actor) *http.Request {
	ctx := context.WithValue(r.Context(), workspaceKey{}, ws)
	return r.WithContext(store.WithActor(ctx, actor))
}

// loadWorkspace puts the session's active workspace, and the signed-in
// user as the actor, into the request of a signed-in user, for every route
// under /api/: the public ones (previews, uploads) use it when there is one.
func (s *server) loadWorkspace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := auth.UserFrom(r.Context())
		if u == nil {
			next.ServeHTTP(w, r)
			return
		}
		sid, _ := auth.SessionID(r)
		ws, err := s.store.ActiveWorkspace(r.Context(), u.ID, sid)
		switch {
		case errors.Is(err, store.ErrNotFound):
			next.ServeHTTP(w, r) // s.in answers 404
		case err != nil:
			s.internalError(w, "finding the workspace", err)
		default:
			next.ServeHTTP(w, withWorkspace(r, ws, store.Actor{Type: "user", ID: u.ID, Email: u.Username}))
		}
	})
}

// in wraps a route that needs permission p in a workspace: the session's
// active one (loadWorkspace), an API key's (publicapi.Authenticate), or, under
// /api/workspaces/{id}/, that one. Signed out is 401; a workspace the
// caller is not a member of 404; a signed-in member without TOTP in a
// workspace that requires it 403 two_factor_required; a role too weak 403.
func (s *server) in(p auth.Permission) func(http.HandlerFunc) http.Handler {
	return s.inWorkspace(p, true)
}

// beforeTwoFactor is in for the few workspace routes a member who still
// has to set up the second factor the workspace requires needs anyway:
// who they are (GET /api/user) and switching workspace.
func (s *server) beforeTwoFactor(p auth.Permission) func(http.HandlerFunc) http.Handler {
	return s.inWorkspace(p, false)
}

func (s *server) inWorkspace(p auth.Permission, needs2FA bool) func(http.HandlerFunc) http.Handler {
	return func(h http.HandlerFunc) http.Handler {
		return s.auth.RequireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ws := workspaceFrom(r.Context())
			if strings.HasPrefix(r.URL.Path, "/api/workspaces/") {
				var ok bool
				if ws, ok = s.pathWorkspace(w, r); !ok {
					return
				}
				actor, _ := store.ActorFrom(r.Context())
				r = withWorkspace(r, ws, actor)
			}
			if ws == nil {
				writeError(w, http.StatusNotFound, msgWorkspaceMissing)
				return
			}
			if needs2FA && (!s.twoFactorMet(w, r, ws) || !s.ssoMet(w, r, ws)) {
				return
			}
			if !auth.Allowed(ws.Role, p) {
				writeError(w, http.StatusForbidden, roleTooWeak(r, ws, p))
				return
			}
			h(w, r)
		}))
	}
}

// roleTitle is a role as the app's lists show it: "Editor".
func roleTitle(role string) string { return strings.ToUpper(role[:1]) + role[1:] }

// roleTooWeak is the message refusing ws's member (by role and
// workspace name) what p names; an API key, which has no role of its own
// to change, gets the general one.
func roleTooWeak(r *http.Request, ws *store.Workspace, p auth.Permission) string {
	if keyRequest(r) {
		return msgNoPermission
	}
	return auth.Refusal(ws.Role, ws.Name, p)
}

// twoFactorMet reports whether the caller meets ws's requirement of a
// second factor: an API key, or a member with TOTP, when it requires one.
// Otherwise it has answered 403 two_factor_required (or 500).
func (s *server) twoFactorMet(w http.ResponseWriter, r *http.Request, ws *store.Workspace) bool {
	if !ws.Require2FA || keyRequest(r) {
		return true
	}
	has, ok := s.hasTOTP(w, r)
	if ok && !has {
		writeJSON(w, http.StatusForbidden, apiError{Message: msgTwoFactorRequired, Code: "two_factor_required"})
	}
	return ok && has
}

// visitorRoute wraps a route visitors use too (the generator, image
// uploads), for what a signed-in member does there in their active
// workspace: store files into it, draw with its brand kits and logos. A
// member without the second factor that workspace requires is refused as
// on the workspace's own routes (403 two_factor_required); visitors, and
// members who meet it, go on. On an instance whose generator is not public
// (SQUARELY_PUBLIC_GENERATOR=false) visitors get 403 sign_in_required.
func (s *server) visitorRoute(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.cfg.PublicGenerator && auth.UserFrom(r.Context()) == nil {
			writeJSON(w, http.StatusForbidden, apiError{Message: msgSignInRequired, Code: "sign_in_required"})
			return
		}
		if ws := workspaceFrom(r.Context()); ws != nil && auth.UserFrom(r.Context()) != nil && (!s.twoFactorMet(w, r, ws) || !s.ssoMet(w, r, ws)) {
			return
		}
		h(w, r)
	})
}

// keyRequest reports whether r is an API key's (publicapi.Authenticate), which a
// workspace's 2FA requirement does not concern: it is no person signing in.
func keyRequest(r *http.Request) bool {
	a, _ := store.ActorFrom(r.Context())
	return a.Type == "api_key"
}

// hasTOTP reports whether the signed-in user has TOTP enabled; on failure
// (ok false) it has answered.
func (s *server) hasTOTP(w http.ResponseWriter, r *http.Request) (has, ok bool) {
	f, err := s.store.TwoFactorOf(r.Context(), auth.UserFrom(r.Context()).ID)
	if err != nil {
		s.internalError(w, "reading second factors", err)
		return false, false
	}
	return f.TOTP, true
}

// pathWorkspace is the caller's workspace named by the {id} path value;
// on failure it has answered (404 unless a member, 500).
func (s *server) pathWorkspace(w http.ResponseWriter, r *http.Request) (*store.Workspace, bool) {
	id, ok := idParam(w, r, "id", msgWorkspaceMissing)
	if !ok {
		return nil, false
	}
	ws, err := s.store.MemberWorkspace(r.Context(), auth.UserFrom(r.Context()).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgWorkspaceMissing)
		return nil, false
	}
	if err != nil {
		s.internalError(w, "finding the workspace", err)
		return nil, false
	}
	return ws, true
}

// wsID is the id of the workspace a route wrapped in s.in acts on.
func wsID(r *http.Request) int64 { return workspaceFrom(r.Context()).ID }

// workspaceOf is the workspace a signed-in editor's request saves into
// (uploads, payment products on the public routes), nil for a visitor or
// a role that may not edit: what they make is kept like a visitor's.
func workspaceOf(r *http.Request) *int64 {
	if ws := workspaceFrom(r.Context()); ws != nil && auth.Allowed(ws.Role, auth.PermEdit) {
		return &ws.ID
	}
	return nil
}

// workspaceRef is the workspace as GET /api/user shows it.
type workspaceRef struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	Require2FA bool   `json:"require2fa"`
}

// workspaceJSON is a workspace in GET /api/workspaces.
type workspaceJSON struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	Personal   bool   `json:"personal"`
	Require2FA bool   `json:"require2fa"`
	// AlertEmails is the caller's choice to get the workspace's alerts by
	// e-mail (alerts.go); only owners and admins are mailed.
	AlertEmails bool `json:"alertEmails"`
	// AutoJoin is the e-mail domain whose verified addresses join the
	// workspace when they sign in, with their role (autojoin.go); null: off.
	AutoJoin *autoJoinJSON `json:"autoJoin"`
}

type autoJoinJSON struct {
	Domain string `json:"domain"`
	Role   string `json:"role"`
}

func toWorkspaceJSON(ws *store.Workspace) workspaceJSON {
	out := workspaceJSON{ID: ws.ID, Name: ws.Name, Role: ws.Role, Personal: ws.Personal, Require2FA: ws.Require2FA, AlertEmails: ws.AlertEmails}
	if ws.AutoJoinDomain != "" {
		out.AutoJoin = &autoJoinJSON{Domain: ws.AutoJoinDomain, Role: ws.AutoJoinRole}
	}
	return out
}

// workspaceName reads and checks the {"name"} of a workspace; on failure
// it has answered.
func workspaceName(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Name string `json:"name"`
	}
	if !decodeJSON(w, r, &in) {
		return "", false
	}
	return checkWorkspaceName(w, in.Name)
}

// checkWorkspaceName trims and checks a workspace's name; on failure it
// has answered.
func checkWorkspaceName(w http.ResponseWriter, name string) (string, bool) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		fieldError(w, "name", "Name is required")
	case utf8.RuneCountInString(name) > maxWorkspaceName:
		fieldError(w, "name", "Name must be at most 100 characters")
	case strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }):
		fieldError(w, "name", "Name must not contain control or formatting characters")
	default:
		return name, true
	}
	return "", false
}

// listWorkspaces (GET /api/workspaces) lists the caller's workspaces.
func (s *server) listWorkspaces(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Workspaces(r.Context(), auth.UserFrom(r.Context()).ID)
	if err != nil {
		s.internalError(w, "listing workspaces", err)
		return
	}
	out := make([]workspaceJSON, len(list))
	for i, ws := range list {
		out[i] = toWorkspaceJSON(ws)
	}
	writeJSON(w, http.StatusOK, out)
}

// createWorkspace (POST /api/workspaces {name}) makes a team workspace of
// the host's client, the caller its owner. 201 with the workspace. A valid
// request is counted per account and per client address
// (SQUARELY_WORKSPACE_RATE_LIMIT an hour; 429 past it) before the work, so
// parallel requests cannot all slip under the limit.
func (s *server) createWorkspace(w http.ResponseWriter, r *http.Request) {
	name, ok := workspaceName(w, r)
	if !ok {
		return
	}
	u := auth.UserFrom(r.Context())
	if !s.workspacesByAccount.take(w, strconv.FormatInt(u.ID, 10), msgTooManyWorkspaces) ||
		!s.workspacesByAddress.take(w, clientKey(r), msgTooManyWorkspaces) {
		return
	}
	ws, err := s.store.CreateWorkspace(r.Context(), u.ID, codeClientID(r, u), name, s.now())
	if err != nil {
		s.internalError(w, "creating a workspace", err)
		return
	}
	writeJSON(w, http.StatusCreated, toWorkspaceJSON(ws))
}

// updateWorkspace (PATCH /api/workspaces/{id} {name?, require2fa?}):
// renaming needs an admin; requiring 2FA of the members, an owner who has
// TOTP themselves (so they do not lock themselves out).
func (s *server) updateWorkspace(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name       *string `json:"name"`
		Require2FA *bool   `json:"require2fa"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.Name == nil && in.Require2FA == nil {
		fieldError(w, "name", "Name is required")
		return
	}
	ws := workspaceFrom(r.Context())
	var name string
	if in.Name != nil {
		var ok bool
		if name, ok = checkWorkspaceName(w, *in.Name); !ok {
			return
		}
	}
	if in.Require2FA != nil {
		if !auth.Allowed(ws.Role, auth.PermOwn) {
			writeError(w, http.StatusForbidden, msgNoPermission)
			return
		}
		if *in.Require2FA {
			has, ok := s.hasTOTP(w, r)
			if !ok {
				return
			}
			if !has {
				fieldError(w, "require2fa", msgRequire2FAOwnTOTP)
				return
			}
		}
		if err := s.store.SetRequire2FA(r.Context(), ws.ID, *in.Require2FA); err != nil {
			s.internalError(w, "setting the workspace's 2FA requirement", err)
			return
		}
		ws.Require2FA = *in.Require2FA
	}
	if in.Name != nil {
		if err := s.store.RenameWorkspace(r.Context(), ws.ID, name); err != nil {
			s.internalError(w, "renaming a workspace", err)
			return
		}
		ws.Name = name
	}
	writeJSON(w, http.StatusOK, toWorkspaceJSON(ws))
}

// deleteWorkspace (DELETE /api/workspaces/{id}, owner; not the personal
// one): its codes stop redirecting at once. 204.
func (s *server) deleteWorkspace(w http.ResponseWriter, r *http.Request) {
	ws := workspaceFrom(r.Context())
	if ws.Personal {
		writeError(w, http.StatusConflict, msgPersonal)
		return
	}
	if err := s.store.DeleteWorkspace(r.Context(), ws.ID, s.now()); err != nil {
		s.internalError(w, "deleting a workspace", err)
		return
	}
	s.domains.invalidate() // its domains were released
	w.WriteHeader(http.StatusNoContent)
}

// activateWorkspace (POST /api/workspaces/{id}/activate, any member) makes
// the workspace the session's active one and answers it.
func (s *server) activateWorkspace(w http.ResponseWriter, r *http.Request) {
	ws := workspaceFrom(r.Context())
	sid, ok := auth.SessionID(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "Not authenticated")
		return
	}
	if err := s.store.SetSessionWorkspace(r.Context(), sid, ws.ID); err != nil {
		s.internalError(w, "activating a workspace", err)
		return
	}
	writeJSON(w, http.StatusOK, toWorkspaceJSON(ws))
}

type memberJSON struct {
	UserID   int64     `json:"userId"`
	Email    string    `json:"email"`
	Role     string    `json:"role"`
	JoinedAt time.Time `json:"joinedAt"`
}

// listMembers (GET /api/workspaces/{id}/members, any member).
func (s *server) listMembers(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Members(r.Context(), workspaceFrom(r.Context()).ID)
	if err != nil {
		s.internalError(w, "listing members", err)
		return
	}
	out := make([]memberJSON, len(list))
	for i, m := range list {
		out[i] = memberJSON{UserID: m.UserID, Email: m.Email, Role: m.Role, JoinedAt: m.JoinedAt}
	}
	writeJSON(w, http.StatusOK, out)
}

// memberChanged answers the outcome of a change to a member. A refusal
// names the caller's role: below admin they may change nobody else, as an
// admin no owner.
func (s *server) memberChanged(w http.ResponseWriter, r *http.Request, err error, ok func()) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgMemberMissing)
	case errors.Is(err, store.ErrForbidden):
		ws, need := workspaceFrom(r.Context()), auth.PermManage
		if auth.Allowed(ws.Role, need) {
			need = auth.PermOwn
		}
		writeError(w, http.StatusForbidden, auth.Refusal(ws.Role, ws.Name, need))
	case errors.Is(err, store.ErrLastOwner):
		writeError(w, http.StatusConflict, msgLastOwner)
	case errors.Is(err, store.ErrPersonal):
		writeError(w, http.StatusConflict, msgPersonal)
	case err != nil:
		s.internalError(w, "changing a member", err)
	default:
		ok()
	}
}

// setMemberRole (PATCH /api/workspaces/{id}/members/{userId} {role}, admin;
// owners' roles and making owners: owner).
func (s *server) setMemberRole(w http.ResponseWriter, r *http.Request) {
	userID, ok := idParam(w, r, "userId", msgMemberMissing)
	if !ok {
		return
	}
	var in struct {
		Role string `json:"role"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if !auth.ValidRole(in.Role) {
		fieldError(w, "role", "Role must be owner, admin, editor or viewer")
		return
	}
	ws := workspaceFrom(r.Context())
	err := s.store.SetMemberRole(r.Context(), ws.ID, userID, in.Role, func(current string) bool {
		return auth.MayChangeMember(ws.Role, current, in.Role)
	})
	s.memberChanged(w, r, err, func() { w.WriteHeader(http.StatusNoContent) })
}

// removeMember (DELETE /api/workspaces/{id}/members/{userId}): an admin
// removes a member (an owner, owners too); anyone may remove themselves
// (leave). Their codes stay the workspace's.
func (s *server) removeMember(w http.ResponseWriter, r *http.Request) {
	userID, ok := idParam(w, r, "userId", msgMemberMissing)
	if !ok {
		return
	}
	ws := workspaceFrom(r.Context())
	self := userID == auth.UserFrom(r.Context()).ID
	err := s.store.RemoveMember(r.Context(), ws.ID, userID, func(current string) bool {
		return self || auth.MayChangeMember(ws.Role, current, "")
	})
	s.memberChanged(w, r, err, func() { w.WriteHeader(http.StatusNoContent) })
}

type invitationJSON struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	ExpiresAt time.Time `json:"expiresAt"`
	CreatedAt time.Time `json:"createdAt"`
}

// inviteMember (POST /api/workspaces/{id}/invitations {email, role}, admin;
// inviting an owner: owner) mails a link with a single-use token, valid 7
// days, to {base}/invitations/accept?token=…; the database keeps its hash.
func (s *server) inviteMember(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	v := &validation{}
	if !validEmail(email) {
		v.add("email", "Please enter a valid email address")
	}
	if !auth.ValidRole(in.Role) {
		v.add("role", "Role must be owner, admin, editor or viewer")
	}
	if v.failed(w) {
		return
	}
	ws := workspaceFrom(r.Context())
	if !auth.MayChangeMember(ws.Role, "", in.Role) {
		writeError(w, http.StatusForbidden, msgNoPermission)
		return
	}
	if !s.takeMail(w, r, email) {
		return
	}
	u := auth.UserFrom(r.Context())
	raw := make([]byte, 32)
	rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	inv := &store.Invitation{WorkspaceID: ws.ID, Email: email, Role: in.Role, InvitedBy: u.ID,
		CreatedAt: s.now(), ExpiresAt: s.now().Add(invitationLifetime)}
	var invited *store.AlreadyInvitedError
	switch err := s.store.CreateInvitation(r.Context(), inv, store.TokenHash(token)); {
	case errors.Is(err, store.ErrAlreadyMember):
		writeError(w, http.StatusConflict, msgAlreadyMember)
		return
	case errors.As(err, &invited):
		// Resend or change the role from the pending list instead.
		writeError(w, http.StatusConflict, "Already invited as "+roleTitle(invited.Role))
		return
	case err != nil:
		s.internalError(w, "creating an invitation", err)
		return
	}
	// The address rides along so the sign-in and sign-up forms can be filled in with it.
	link := s.cfg.BaseURL + invitationPath + "?token=" + token + "&email=" + url.QueryEscape(email)
	m, err := mail.Render(email, "workspace_invitation", mail.Data{BaseURL: s.cfg.BaseURL, Fields: map[string]any{
		"Link": link, "Workspace": ws.Name,
		"Inviter": u.Username, "Role": in.Role, "Email": email,
	}})
	if err == nil {
		err = s.mailer.Send(r.Context(), m)
	}
	if err != nil {
		s.internalError(w, "mailing an invitation", err)
		return
	}
	writeJSON(w, http.StatusCreated, invitationJSON{ID: inv.ID, Email: inv.Email, Role: inv.Role, ExpiresAt: inv.ExpiresAt, CreatedAt: inv.CreatedAt})
}

// listInvitations (GET /api/workspaces/{id}/invitations, admin): the
// pending ones, newest first.
func (s *server) listInvitations(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Invitations(r.Context(), workspaceFrom(r.Context()).ID, s.now())
	if err != nil {
		s.internalError(w, "listing invitations", err)
		return
	}
	out := make([]invitationJSON, len(list))
	for i, inv := range list {
		out[i] = invitationJSON{ID: inv.ID, Email: inv.Email, Role: inv.Role, ExpiresAt: inv.ExpiresAt, CreatedAt: inv.CreatedAt}
	}
	writeJSON(w, http.StatusOK, out)
}

// revokeInvitation (DELETE /api/workspaces/{id}/invitations/{invitationId}, admin). 204.
func (s *server) revokeInvitation(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "invitationId", msgInvitationMissing)
	if !ok {
		return
	}
	err := s.store.DeleteInvitation(r.Context(), workspaceFrom(r.Context()).ID, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgInvitationMissing)
	case err != nil:
		s.internalError(w, "revoking an invitation", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// previewInvitation (GET /api/invitations/preview?token=…, public) says
// what an invitation's link is for before its holder signs in: the
// workspace, the role and who sent it. Only the token's holder, to whom it
// was mailed, can ask; anything else is the accept's 404.
func (s *server) previewInvitation(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if token == "" {
		fieldError(w, "token", "Token is required")
		return
	}
	p, err := s.store.PreviewInvitation(r.Context(), store.TokenHash(token), s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgInvitationBad)
		return
	case err != nil:
		s.internalError(w, "reading an invitation", err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"workspaceName": p.WorkspaceName, "role": p.Role, "invitedBy": p.InvitedBy,
		"expiresAt": p.ExpiresAt.UTC().Format(time.RFC3339)})
}

// acceptInvitation (POST /api/invitations/accept {token}, signed in) joins
// the caller to the invitation's workspace when their verified address is
// the invited one (403 otherwise, and the invitation stays), and makes it
// the session's active workspace. 404 for an unknown, used or expired token.
func (s *server) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token string `json:"token"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.Token == "" {
		fieldError(w, "token", "Token is required")
		return
	}
	u := auth.UserFrom(r.Context())
	id, err := s.store.AcceptInvitation(r.Context(), store.TokenHash(in.Token), u, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgInvitationBad)
		return
	case errors.Is(err, store.ErrWrongInvitee):
		writeError(w, http.StatusForbidden, msgWrongInvitee)
		return
	case err != nil:
		s.internalError(w, "accepting an invitation", err)
		return
	}
	if sid, ok := auth.SessionID(r); ok {
		if err := s.store.SetSessionWorkspace(r.Context(), sid, id); err != nil {
			s.internalError(w, "activating a workspace", err)
			return
		}
	}
	ws, err := s.store.MemberWorkspace(r.Context(), u.ID, id)
	if err != nil {
		s.internalError(w, "reading a workspace", err)
		return
	}
	writeJSON(w, http.StatusOK, toWorkspaceJSON(ws))
}
