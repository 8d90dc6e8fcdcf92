package auth

import "github.com/squarely/squarely/internal/store"

// The role rules of workspaces: what each of the four roles may do, and who
// may change whom. The server checks every workspace route against them
// (one permission per route, routes.go); nothing else decides.

// Permission is what a route does to a workspace.
type Permission int

const (
	PermRead   Permission = iota // read codes, images, analytics
	PermEdit                     // create, edit, pause, restyle, delete codes; uploads; bulk
	PermManage                   // members, invitations, settings, API keys, audit log
	PermOwn                      // billing, deleting the workspace, roles of owners
)

// minimumRole is the one table that decides what each role may do.
var minimumRole = map[Permission]string{
	PermRead:   store.RoleViewer,
	PermEdit:   store.RoleEditor,
	PermManage: store.RoleAdmin,
	PermOwn:    store.RoleOwner,
}

// roleRank orders the roles, weakest first; 0 is no role.
func roleRank(role string) int {
	switch role {
	case store.RoleViewer:
		return 1
	case store.RoleEditor:
		return 2
	case store.RoleAdmin:
		return 3
	case store.RoleOwner:
		return 4
	}
	return 0
}

// ValidRole reports whether role is one of the four.
func ValidRole(role string) bool { return roleRank(role) > 0 }

// Allowed reports whether role may do what p names.
func Allowed(role string, p Permission) bool {
	return ValidRole(role) && roleRank(role) >= roleRank(minimumRole[p])
}

// MayChangeMember reports whether a member of role actor may change a
// member whose role is current into next ("" = remove them): owners may do
// anything, admins anything that neither touches an owner nor makes one.
func MayChangeMember(actor, current, next string) bool {
	if Allowed(actor, PermOwn) {
		return true
	}
	return Allowed(actor, PermManage) && current != store.RoleOwner && next != store.RoleOwner
}

// Refusal is the answer to a member whose role is too weak for p in the
// workspace named workspace, in words they can act on: "You are a viewer
// in Acme Marketing; only an editor or above can do this".
func Refusal(role, workspace string, p Permission) string {
	need := withArticle(minimumRole[p])
	if p != PermOwn {
		need += " or above"
	}
	return "You are " + withArticle(role) + " in " + workspace + "; only " + need + " can do this"
}

func withArticle(role string) string {
	switch role {
	case store.RoleAdmin, store.RoleOwner, store.RoleEditor:
		return "an " + role
	}
	return "a " + role
}
