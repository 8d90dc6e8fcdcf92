package scim

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// userIn is a User as IdPs send it (Okta's and Entra ID's request shapes).
type userIn struct {
	UserName   string `json:"userName"`
	ExternalID string `json:"externalId"`
	Name       struct {
		GivenName  string `json:"givenName"`
		FamilyName string `json:"familyName"`
	} `json:"name"`
	Emails []struct {
		Value   string   `json:"value"`
		Primary flexBool `json:"primary"`
	} `json:"emails"`
	Active *flexBool `json:"active"`
}

func (s *Server) userJSON(ws int64, u *store.SCIMUser) map[string]any {
	return map[string]any{
		"schemas": []string{schemaUser}, "id": strconv.FormatInt(u.UserID, 10), "externalId": u.ExternalID,
		"userName": u.UserName, "name": map[string]string{"givenName": u.GivenName, "familyName": u.FamilyName},
		"emails": []map[string]any{{"value": u.UserName, "primary": true, "type": "work"}}, "active": u.Active,
		"meta": map[string]string{"resourceType": "User", "created": u.Created.UTC().Format(time.RFC3339),
			"lastModified": u.Updated.UTC().Format(time.RFC3339), "location": s.location(ws, "Users", u.UserID)},
	}
}

func (s *Server) users(q *request) {
	if len(q.parts) == 1 {
		switch q.r.Method {
		case http.MethodGet:
			s.listUsers(q)
		case http.MethodPost:
			s.createUser(q)
		default:
			fail(q.w, http.StatusMethodNotAllowed, "", "Users takes GET and POST")
		}
		return
	}
	u, ok := resource(s, q, "User", s.Store.SCIMUserOf)
	if !ok {
		return
	}
	switch q.r.Method {
	case http.MethodGet:
		write(q.w, http.StatusOK, s.userJSON(q.ws, u))
	case http.MethodPut:
		s.replaceUser(q, u)
	case http.MethodPatch:
		s.patchUser(q, u)
	case http.MethodDelete:
		s.deleteUser(q, u)
	default:
		fail(q.w, http.StatusMethodNotAllowed, "", "A User takes GET, PUT, PATCH and DELETE")
	}
}

func (s *Server) listUsers(q *request) {
	attr, value, ok := filter(q, "userName", "externalId")
	if !ok {
		return
	}
	offset, limit := page(q)
	list, total, err := s.Store.SCIMUsers(q.r.Context(), q.ws, attr, value, offset, limit)
	if err != nil {
		s.internal(q, "listing users", err)
		return
	}
	items := make([]map[string]any, 0, len(list))
	for _, u := range list {
		items = append(items, s.userJSON(q.ws, u))
	}
	write(q.w, http.StatusOK, map[string]any{"schemas": []string{schemaList}, "totalResults": total, "startIndex": offset + 1,
		"itemsPerPage": len(items), "Resources": items})
}

// email is the User's address: userName when it is one, else its primary e-mail.
func (in *userIn) email() string {
	if strings.Contains(in.UserName, "@") {
		return strings.ToLower(strings.TrimSpace(in.UserName))
	}
	for _, e := range in.Emails {
		if e.Primary || len(in.Emails) == 1 {
			return strings.ToLower(strings.TrimSpace(e.Value))
		}
	}
	return ""
}

// validName reports whether s can be a name: one line of at most 100
// characters, counted as the app counts names (not bytes, so a name in
// another script has the same room; externalId's 256 likewise).
func validName(s string) bool {
	return utf8.RuneCountInString(s) <= 100 && !strings.ContainsAny(s, "\x00\r\n")
}

func (in *userIn) valid(q *request) bool {
	email := in.email()
	_, domain, _ := strings.Cut(email, "@")
	switch {
	case email == "" || len(email) > 254 || domain == "" || strings.ContainsAny(email, " ,;<>\"\x00") || strings.Count(email, "@") != 1 ||
		!mail.ValidAddress(email): // no control characters, as everywhere else in the app
		fail(q.w, http.StatusBadRequest, "invalidValue", "userName must be an e-mail address (or the User must have one primary e-mail)")
	case !validName(in.Name.GivenName) || !validName(in.Name.FamilyName):
		fail(q.w, http.StatusBadRequest, "invalidValue", "name.givenName and name.familyName must be single lines of at most 100 characters")
	case utf8.RuneCountInString(in.ExternalID) > 256:
		fail(q.w, http.StatusBadRequest, "invalidValue", "externalId must have at most 256 characters")
	default:
		return true
	}
	return false
}

// createUser (POST Users) provisions a User: the account at its address
// when there is one (it joins the workspace), else a new one, which the
// workspace manages, under the instance's sign-up policy.
func (s *Server) createUser(q *request) {
	var in userIn
	if !decode(q, &in) || !in.valid(q) {
		return
	}
	ctx := q.r.Context()
	email := in.email()
	account, err := s.Store.UserByUsername(ctx, email)
	switch {
	case errors.Is(err, store.ErrNotFound):
		_, domain, _ := strings.Cut(email, "@")
		proven, err := s.Store.DomainProven(ctx, q.ws, domain)
		if err != nil {
			s.internal(q, "reading proven domains", err)
			return
		}
		account = &store.User{Username: email, Email: email, FirstName: in.Name.GivenName, LastName: in.Name.FamilyName,
			EmailVerified: proven, ManagedBy: q.ws}
		err = s.Accounts.CreateAccount(ctx, account, func(ctx context.Context, u *store.User) error { return s.Store.CreateUser(ctx, u) })
		var refused *auth.SignupRefused
		if errors.As(err, &refused) {
			fail(q.w, http.StatusForbidden, "", refused.Message)
			return
		}
		if errors.Is(err, store.ErrConflict) {
			fail(q.w, http.StatusConflict, "uniqueness", "An account with this userName was just created; try again")
			return
		}
		if err != nil {
			s.internal(q, "creating an account", err)
			return
		}
	case err != nil:
		s.internal(q, "looking up an account", err)
		return
	case account.IsDeleted:
		fail(q.w, http.StatusConflict, "uniqueness", "The account of this userName is deleted")
		return
	}
	role, err := s.roleOf(ctx, q.ws, account.ID)
	if err != nil {
		s.internal(q, "mapping a role", err)
		return
	}
	u := &store.SCIMUser{UserID: account.ID, UserName: account.Username, GivenName: in.Name.GivenName, FamilyName: in.Name.FamilyName,
		ExternalID: in.ExternalID, Active: in.Active == nil || bool(*in.Active)}
	err = s.Store.ProvisionSCIMUser(ctx, q.ws, u, role, s.Now())
	if errors.Is(err, store.ErrSCIMTaken) {
		fail(q.w, http.StatusConflict, "uniqueness", "A User with this userName already exists in this workspace")
		return
	}
	if err == nil && !u.Active {
		// ProvisionSCIMUser only joins an active User: an account that is a
		// member already leaves, as deactivating it does (it stayed one).
		err = s.Store.SetSCIMUserActive(ctx, q.ws, account.ID, false, role, s.Now())
		if errors.Is(err, store.ErrLastOwner) {
			// The last owner stays, and so the User is active, as they are.
			if err = s.Store.SetSCIMUserActive(ctx, q.ws, account.ID, true, role, s.Now()); err == nil {
				fail(q.w, http.StatusConflict, "mutability", "The workspace's last owner cannot be deactivated")
				return
			}
		}
	}
	if err != nil {
		s.internal(q, "provisioning a user", err)
		return
	}
	s.answerUser(q, http.StatusCreated, account.ID)
}

func (s *Server) answerUser(q *request, status int, id int64) {
	u, err := s.Store.SCIMUserOf(q.r.Context(), q.ws, id)
	if err != nil {
		s.internal(q, "reading a user", err)
		return
	}
	write(q.w, status, s.userJSON(q.ws, u))
}

// msgUserNameFixed refuses a change of a User's userName: it is the
// account's e-mail address, which may be the account's beyond this
// workspace, so SCIM does not change it (an IdP's PUT replaces the whole
// User: a new userName was ignored and the request answered 200).
const msgUserNameFixed = "userName (the account's e-mail address) cannot be changed: deprovision this User and provision the new address as a new one"

// sameUserName reports whether email, a userName (or primary e-mail) an
// IdP sent, is the User's address, without regard to case.
func sameUserName(u *store.SCIMUser, email string) bool {
	return strings.EqualFold(strings.TrimSpace(email), u.UserName)
}

// replaceUser (PUT Users/{id}) sets the User's names, externalId and
// active; a different userName is refused (400 mutability).
func (s *Server) replaceUser(q *request, u *store.SCIMUser) {
	var in userIn
	if !decode(q, &in) || !in.valid(q) {
		return
	}
	if !sameUserName(u, in.email()) {
		fail(q.w, http.StatusBadRequest, "mutability", msgUserNameFixed)
		return
	}
	next := *u
	next.GivenName, next.FamilyName, next.ExternalID = in.Name.GivenName, in.Name.FamilyName, in.ExternalID
	if in.Active != nil {
		next.Active = bool(*in.Active)
	}
	s.save(q, &next)
}

// save stores next, its attributes and active, in one transaction: a
// change of active refused (the last owner), or any other failure, keeps
// none of the request. (Active was saved on its own first, and stayed
// changed when saving the rest then failed.)
func (s *Server) save(q *request, next *store.SCIMUser) {
	ctx := q.r.Context()
	var role string
	if next.Active {
		// The role it joins as if it is off: read even when it was on, as
		// another request may have turned it off since (the transaction
		// reads active again).
		var err error
		if role, err = s.roleOf(ctx, q.ws, next.UserID); err != nil {
			s.internal(q, "mapping a role", err)
			return
		}
	}
	err := s.Store.UpdateSCIMUser(ctx, q.ws, next, role, s.Now())
	switch {
	case errors.Is(err, store.ErrLastOwner):
		fail(q.w, http.StatusConflict, "mutability", "The workspace's last owner cannot be deactivated")
	case errors.Is(err, store.ErrNotFound): // deleted meanwhile
		fail(q.w, http.StatusNotFound, "", "No such User")
	case err != nil:
		s.internal(q, "updating a user", err)
	default:
		s.answerUser(q, http.StatusOK, next.UserID)
	}
}

// patchUser (PATCH Users/{id}) applies replace and add operations on
// active, externalId and the names, in Okta's form ({"value": {"active":
// false}}) and Entra ID's ({"path": "active", "value": "False"}). A
// userName that is another address is refused (400 mutability), as in a
// PUT; other attributes are accepted and not kept.
func (s *Server) patchUser(q *request, u *store.SCIMUser) {
	var in patchRequest
	if !decode(q, &in) {
		return
	}
	if len(in.Operations) == 0 || len(in.Operations) > 100 {
		fail(q.w, http.StatusBadRequest, "invalidValue", "A PatchOp needs 1 to 100 Operations")
		return
	}
	next := *u
	userNameChanged := false
	set := func(path string, raw json.RawMessage) error {
		switch strings.ToLower(path) {
		case "active":
			var b flexBool
			if err := json.Unmarshal(raw, &b); err != nil {
				return err
			}
			next.Active = bool(b)
		case "externalid":
			return json.Unmarshal(raw, &next.ExternalID)
		case "name.givenname":
			return json.Unmarshal(raw, &next.GivenName)
		case "name.familyname":
			return json.Unmarshal(raw, &next.FamilyName)
		case "username":
			var name string
			if err := json.Unmarshal(raw, &name); err != nil {
				return err
			}
			// A userName that is no address is not kept, as on creation.
			if strings.Contains(name, "@") && !sameUserName(u, name) {
				userNameChanged = true
			}
		}
		return nil
	}
	for _, op := range in.Operations {
		switch strings.ToLower(op.Op) {
		case "replace", "add":
		case "remove":
			continue // nothing Squarely keeps can be removed from a User
		default:
			fail(q.w, http.StatusBadRequest, "invalidSyntax", "op must be add, replace or remove")
			return
		}
		var err error
		if op.Path != "" {
			err = set(op.Path, op.Value)
		} else {
			var values map[string]json.RawMessage
			if err = json.Unmarshal(op.Value, &values); err == nil {
				for k, v := range values {
					if k == "name" {
						var n map[string]json.RawMessage
						if err = json.Unmarshal(v, &n); err == nil {
							for nk, nv := range n {
								if err = set("name."+nk, nv); err != nil {
									break
								}
							}
						}
					} else {
						err = set(k, v)
					}
					if err != nil {
						break
					}
				}
			}
		}
		if err != nil {
			fail(q.w, http.StatusBadRequest, "invalidValue", "An operation's value does not fit its attribute")
			return
		}
	}
	if userNameChanged {
		fail(q.w, http.StatusBadRequest, "mutability", msgUserNameFixed)
		return
	}
	if !validName(next.GivenName) || !validName(next.FamilyName) || utf8.RuneCountInString(next.ExternalID) > 256 {
		fail(q.w, http.StatusBadRequest, "invalidValue", "The names must be single lines of at most 100 characters, externalId at most 256")
		return
	}
	s.save(q, &next)
}

// deleteUser (DELETE Users/{id}) deprovisions the User and forgets it.
func (s *Server) deleteUser(q *request, u *store.SCIMUser) {
	err := s.Store.DeleteSCIMUser(q.r.Context(), q.ws, u.UserID, s.Now())
	switch {
	case errors.Is(err, store.ErrLastOwner):
		fail(q.w, http.StatusConflict, "mutability", "The workspace's last owner cannot be deprovisioned")
	case err != nil:
		s.internal(q, "deleting a user", err)
	default:
		q.w.WriteHeader(http.StatusNoContent)
	}
}
