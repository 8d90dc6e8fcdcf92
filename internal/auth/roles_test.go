package auth

import (
	"testing"

	"github.com/squarely/squarely/internal/store"
)

func TestRoleRules(t *testing.T) {
	roles := []string{store.RoleViewer, store.RoleEditor, store.RoleAdmin, store.RoleOwner}
	// What each role may do, in the order of roles.
	for p, want := range map[Permission][4]bool{
		PermRead:   {true, true, true, true},
		PermEdit:   {false, true, true, true},
		PermManage: {false, false, true, true},
		PermOwn:    {false, false, false, true},
	} {
		for i, role := range roles {
			if got := Allowed(role, p); got != want[i] {
				t.Errorf("Allowed(%s, %d) = %t, want %t", role, p, got, want[i])
			}
		}
		for _, role := range []string{"", "superuser", "Owner"} {
			if Allowed(role, p) {
				t.Errorf("Allowed(%q, %d): a role that does not exist may do something", role, p)
			}
		}
	}
	for _, role := range roles {
		if !ValidRole(role) {
			t.Errorf("ValidRole(%s) = false", role)
		}
	}
	if ValidRole("") || ValidRole("root") {
		t.Error("ValidRole accepts a role that does not exist")
	}

	// Who may change whom: actor, the member's role now, the role asked
	// for ("" removes them).
	for _, tc := range []struct {
		actor, current, next string
		want                 bool
	}{
		{store.RoleOwner, store.RoleOwner, store.RoleViewer, true},
		{store.RoleOwner, store.RoleEditor, store.RoleOwner, true},
		{store.RoleOwner, store.RoleOwner, "", true},
		{store.RoleAdmin, store.RoleEditor, store.RoleAdmin, true},
		{store.RoleAdmin, store.RoleViewer, "", true},
		{store.RoleAdmin, store.RoleAdmin, store.RoleViewer, true},
		{store.RoleAdmin, store.RoleOwner, store.RoleAdmin, false},
		{store.RoleAdmin, store.RoleOwner, "", false},
		{store.RoleAdmin, store.RoleEditor, store.RoleOwner, false},
		{store.RoleEditor, store.RoleViewer, store.RoleEditor, false},
		{store.RoleEditor, store.RoleViewer, "", false},
		{store.RoleViewer, store.RoleViewer, "", false},
		{"", store.RoleViewer, "", false},
	} {
		if got := MayChangeMember(tc.actor, tc.current, tc.next); got != tc.want {
			t.Errorf("MayChangeMember(%q, %q, %q) = %t, want %t", tc.actor, tc.current, tc.next, got, tc.want)
		}
	}
}

func TestRefusalNamesRoleAndWorkspace(t *testing.T) {
	for _, tc := range []struct {
		role string
		p    Permission
		want string
	}{
		{store.RoleViewer, PermEdit, "You are a viewer in Acme Marketing; only an editor or above can do this"},
		{store.RoleEditor, PermManage, "You are an editor in Acme Marketing; only an admin or above can do this"},
		{store.RoleAdmin, PermOwn, "You are an admin in Acme Marketing; only an owner can do this"},
	} {
		if got := Refusal(tc.role, "Acme Marketing", tc.p); got != tc.want {
			t.Errorf("Refusal(%s, %d) = %q, want %q", tc.role, tc.p, got, tc.want)
		}
	}
}
