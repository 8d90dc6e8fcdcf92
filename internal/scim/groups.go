package scim

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/squarely/squarely/internal/store"
)

// maxMembers is the most members a Group has.
const maxMembers = 10000

type memberRef struct {
	Value string `json:"value"`
}

type groupIn struct {
	DisplayName string      `json:"displayName"`
	ExternalID  string      `json:"externalId"`
	Members     []memberRef `json:"members"`
}

func (s *Server) groupJSON(ws int64, g *store.SCIMGroup) map[string]any {
	members := make([]map[string]string, 0, len(g.Members))
	for _, id := range g.Members {
		members = append(members, map[string]string{"value": strconv.FormatInt(id, 10), "$ref": s.location(ws, "Users", id)})
	}
	return map[string]any{
		"schemas": []string{schemaGroup}, "id": strconv.FormatInt(g.ID, 10), "displayName": g.DisplayName,
		"externalId": g.ExternalID, "members": members,
		"meta": map[string]string{"resourceType": "Group", "created": g.Created.UTC().Format(time.RFC3339),
			"lastModified": g.Updated.UTC().Format(time.RFC3339), "location": s.location(ws, "Groups", g.ID)},
	}
}

func (s *Server) groups(q *request) {
	if len(q.parts) == 1 {
		switch q.r.Method {
		case http.MethodGet:
			s.listGroups(q)
		case http.MethodPost:
			var in groupIn
			if !decode(q, &in) {
				return
			}
			s.saveGroup(q, &store.SCIMGroup{}, in.DisplayName, in.ExternalID, in.Members, true, http.StatusCreated)
		default:
			fail(q.w, http.StatusMethodNotAllowed, "", "Groups takes GET and POST")
		}
		return
	}
	g, ok := resource(s, q, "Group", s.Store.SCIMGroupByID)
	if !ok {
		return
	}
	switch q.r.Method {
	case http.MethodGet:
		write(q.w, http.StatusOK, s.groupJSON(q.ws, g))
	case http.MethodPut:
		var in groupIn
		if !decode(q, &in) {
			return
		}
		s.saveGroup(q, g, in.DisplayName, in.ExternalID, in.Members, true, http.StatusOK)
	case http.MethodPatch:
		s.patchGroup(q, g)
	case http.MethodDelete:
		members, err := s.Store.DeleteSCIMGroup(q.r.Context(), q.ws, g.ID)
		if err != nil {
			s.internal(q, "deleting a group", err)
			return
		}
		if s.remap(q, members) {
			q.w.WriteHeader(http.StatusNoContent)
		}
	default:
		fail(q.w, http.StatusMethodNotAllowed, "", "A Group takes GET, PUT, PATCH and DELETE")
	}
}

func (s *Server) listGroups(q *request) {
	_, value, ok := filter(q, "displayName")
	if !ok {
		return
	}
	offset, limit := page(q)
	list, total, err := s.Store.SCIMGroups(q.r.Context(), q.ws, value, offset, limit)
	if err != nil {
		s.internal(q, "listing groups", err)
		return
	}
	items := make([]map[string]any, 0, len(list))
	for _, g := range list {
		items = append(items, s.groupJSON(q.ws, g))
	}
	write(q.w, http.StatusOK, map[string]any{"schemas": []string{schemaList}, "totalResults": total, "startIndex": offset + 1,
		"itemsPerPage": len(items), "Resources": items})
}

// memberIDs reads member references as account ids.
func memberIDs(refs []memberRef) ([]int64, bool) {
	ids := make([]int64, 0, len(refs))
	for _, m := range refs {
		id, err := strconv.ParseInt(m.Value, 10, 64)
		if err != nil || id <= 0 {
			return nil, false
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, true
}

// saveGroup creates or replaces g (members too when setMembers) and gives
// everyone whose groups changed their mapped role.
func (s *Server) saveGroup(q *request, g *store.SCIMGroup, name, externalID string, refs []memberRef, setMembers bool, status int) {
	name = strings.TrimSpace(name)
	// The name is shown in the app and mapped to roles: one line, no control characters.
	if name == "" || len(name) > 256 || strings.IndexFunc(name, unicode.IsControl) >= 0 || len(externalID) > 256 || len(refs) > maxMembers {
		fail(q.w, http.StatusBadRequest, "invalidValue", "displayName must have 1 to 256 characters, without control characters (externalId at most 256; at most 10,000 members)")
		return
	}
	var members []int64
	if setMembers {
		var ok bool
		if members, ok = memberIDs(refs); !ok {
			fail(q.w, http.StatusBadRequest, "invalidValue", "A member's value must be the id of a User")
			return
		}
	}
	next := *g
	next.DisplayName, next.ExternalID = name, externalID
	changed, err := s.Store.SaveSCIMGroup(q.r.Context(), q.ws, &next, members, s.Now())
	switch {
	case errors.Is(err, store.ErrSCIMTaken):
		fail(q.w, http.StatusConflict, "uniqueness", "A Group with this displayName already exists in this workspace")
		return
	case errors.Is(err, store.ErrNotFound):
		fail(q.w, http.StatusBadRequest, "invalidValue", "A member is not a User of this workspace")
		return
	case err != nil:
		s.internal(q, "saving a group", err)
		return
	}
	if !s.remap(q, changed) {
		return
	}
	saved, err := s.Store.SCIMGroupByID(q.r.Context(), q.ws, next.ID)
	if err != nil {
		s.internal(q, "reading a group", err)
		return
	}
	write(q.w, status, s.groupJSON(q.ws, saved))
}

// remap gives each account its role by its groups; on failure it has answered.
func (s *Server) remap(q *request, users []int64) bool {
	slices.Sort(users)
	for _, id := range slices.Compact(users) {
		role, err := s.roleOf(q.r.Context(), q.ws, id)
		if err == nil {
			err = s.Store.SetSCIMRole(q.r.Context(), q.ws, id, role, s.Now())
		}
		if err != nil {
			s.internal(q, "mapping a role", err)
			return false
		}
	}
	return true
}

// memberPathRE is Okta's and Entra ID's path for one member: members[value eq "12"].
var memberPathRE = regexp.MustCompile(`(?i)^members\[value eq "([0-9]+)"\]$`)

// patchGroup (PATCH Groups/{id}): add and remove members (by value list,
// or by members[value eq "…"]), replace members, displayName, externalId.
func (s *Server) patchGroup(q *request, g *store.SCIMGroup) {
	var in patchRequest
	if !decode(q, &in) {
		return
	}
	if len(in.Operations) == 0 || len(in.Operations) > 100 {
		fail(q.w, http.StatusBadRequest, "invalidValue", "A PatchOp needs 1 to 100 Operations")
		return
	}
	name, externalID := g.DisplayName, g.ExternalID
	members := slices.Clone(g.Members)
	bad := func() {
		fail(q.w, http.StatusBadRequest, "invalidValue", "An operation's value does not fit its attribute")
	}
	for _, op := range in.Operations {
		path := strings.ToLower(op.Path)
		var refs []memberRef
		switch {
		case path == "members" || (path == "" && strings.ToLower(op.Op) != "replace"):
			if len(op.Value) > 0 {
				if err := json.Unmarshal(op.Value, &refs); err != nil {
					// Okta's "add" without a path sends {"members": [...]}.
					var wrapped struct{ Members []memberRef }
					if json.Unmarshal(op.Value, &wrapped) != nil {
						bad()
						return
					}
					refs = wrapped.Members
				}
			}
		case memberPathRE.MatchString(op.Path):
			refs = []memberRef{{Value: memberPathRE.FindStringSubmatch(op.Path)[1]}}
		case path == "displayname":
			if json.Unmarshal(op.Value, &name) != nil {
				bad()
				return
			}
			continue
		case path == "externalid":
			if json.Unmarshal(op.Value, &externalID) != nil {
				bad()
				return
			}
			continue
		case path == "":
			var v struct {
				DisplayName *string `json:"displayName"`
				ExternalID  *string `json:"externalId"`
			}
			if json.Unmarshal(op.Value, &v) != nil {
				bad()
				return
			}
			if v.DisplayName != nil {
				name = *v.DisplayName
			}
			if v.ExternalID != nil {
				externalID = *v.ExternalID
			}
			continue
		default:
			fail(q.w, http.StatusBadRequest, "invalidPath", "A Group's PATCH path must be members, displayName or externalId")
			return
		}
		// Refused before memberIDs and the loops below, whose work grows
		// with the square of the list.
		if len(refs) > maxMembers {
			fail(q.w, http.StatusBadRequest, "invalidValue", "A Group has at most 10,000 members")
			return
		}
		ids, ok := memberIDs(refs)
		if !ok {
			bad()
			return
		}
		switch strings.ToLower(op.Op) {
		case "add":
			for _, id := range ids {
				if !slices.Contains(members, id) {
					members = append(members, id)
				}
			}
		case "remove":
			if path == "members" && len(refs) == 0 {
				members = nil // remove every member
			}
			members = slices.DeleteFunc(members, func(id int64) bool { return slices.Contains(ids, id) })
		case "replace":
			members = ids
		default:
			fail(q.w, http.StatusBadRequest, "invalidSyntax", "op must be add, replace or remove")
			return
		}
		if len(members) > maxMembers {
			fail(q.w, http.StatusBadRequest, "invalidValue", "A Group has at most 10,000 members")
			return
		}
	}
	refs := make([]memberRef, 0, len(members))
	for _, id := range members {
		refs = append(refs, memberRef{Value: strconv.FormatInt(id, 10)})
	}
	s.saveGroup(q, g, name, externalID, refs, true, http.StatusOK)
}
