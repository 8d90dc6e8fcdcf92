package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// A team workspace takes in a domain only once it has proven it, only one
// workspace takes in a domain, and a verified address there joins once,
// with the chosen role; other domains and personal workspaces do not.
func TestAutoJoin(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		ws, owner, _ := team(t, s)
		other, err := s.CreateWorkspace(ctx, owner.ID, 1, "Other team", now)
		if err != nil {
			t.Fatal(err)
		}
		verified := func(workspace int64, host string) {
			d := &store.Domain{Domain: host, Token: "tok-" + host}
			if err := s.CreateDomain(ctx, workspace, d, 10, now); err != nil {
				t.Fatal(err)
			}
			if _, err := s.RecordDomainCheck(ctx, workspace, d.ID, "dns", "", now); err != nil {
				t.Fatal(err)
			}
		}
		pending := &store.Domain{Domain: "qr.pending.test", Token: "tok-pending"}
		if err := s.CreateDomain(ctx, ws, pending, 10, now); err != nil {
			t.Fatal(err)
		}
		if err := s.SetAutoJoin(ctx, ws, "pending.test", store.RoleEditor); !errors.Is(err, store.ErrDomainUnverified) {
			t.Errorf("a pending domain: %v", err)
		}
		verified(ws, "qr.acme.test")
		if err := s.SetAutoJoin(ctx, ws, "other.test", store.RoleEditor); !errors.Is(err, store.ErrDomainUnverified) {
			t.Errorf("an unproven domain: %v", err)
		}
		if err := s.SetAutoJoin(ctx, storetest.Personal(t, s, owner.ID), "acme.test", store.RoleEditor); !errors.Is(err, store.ErrAutoJoinPersonal) {
			t.Errorf("a personal workspace: %v", err)
		}
		if err := s.SetAutoJoin(ctx, ws, "ACME.test", store.RoleViewer); err != nil {
			t.Fatal(err)
		}
		verified(other.ID, "acme.test")
		if err := s.SetAutoJoin(ctx, other.ID, "acme.test", store.RoleEditor); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a second workspace for one domain: %v", err)
		}

		staff := storetest.CreateUser(t, s, "Staff@acme.test")
		for range 2 {
			if _, err := s.JoinByDomain(ctx, staff.ID, "staff@acme.test", now); err != nil {
				t.Fatal(err)
			}
		}
		w, err := s.MemberWorkspace(ctx, staff.ID, ws)
		if err != nil || w.Role != store.RoleViewer || w.AutoJoinDomain != "acme.test" {
			t.Fatalf("joined as %+v, %v", w, err)
		}
		if n := storetest.Count(t, s, fmt.Sprint("workspace_members WHERE user_id = ", staff.ID)); n != 2 {
			t.Errorf("%d memberships, want personal and team", n)
		}
		outsider := storetest.CreateUser(t, s, "someone@elsewhere.test")
		if joined, err := s.JoinByDomain(ctx, outsider.ID, "someone@elsewhere.test", now); err != nil || joined != 0 {
			t.Errorf("another domain joined %d, %v", joined, err)
		}
		// Turned off, nobody new joins.
		if err := s.SetAutoJoin(ctx, ws, "", ""); err != nil {
			t.Fatal(err)
		}
		late := storetest.CreateUser(t, s, "late@acme.test")
		if joined, err := s.JoinByDomain(ctx, late.ID, "late@acme.test", now); err != nil || joined != 0 {
			t.Errorf("joined %d after turning off, %v", joined, err)
		}
	})
}
