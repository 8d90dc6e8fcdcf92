package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestExportRedirectsEveryHost: the export lists every live code, one per
// host of a short code, not one per short code: a chosen short code on a
// workspace's custom domain is kept beside another workspace's on the base
// URL. Paused and protected codes are there, Withheld, as they still
// decide what their host answers; so is, in one workspace's export, the
// other workspace's code with its short code.
func TestExportRedirectsEveryHost(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx, now := context.Background(), time.Now()
		ann, bob := storetest.CreateUser(t, s, "ann@example.com"), storetest.CreateUser(t, s, "bob@example.com")
		annWS, bobWS := storetest.Personal(t, s, ann.ID), storetest.Personal(t, s, bob.ID)
		dom := &store.Domain{Domain: "qr1.test", Token: "token"}
		if err := s.CreateDomain(ctx, annWS, dom, 10, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordDomainCheck(ctx, annWS, dom.ID, "dns", "", now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordDomainPointing(ctx, annWS, dom.ID, "", now); err != nil {
			t.Fatal(err)
		}
		create := func(user int64, code string, domainID *int64) *store.DynamicCode {
			t.Helper()
			d := storetest.NewDynamic(user, code)
			d.DomainID, d.ShortCodeChosen = domainID, true
			if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
				t.Fatal(err)
			}
			return d
		}
		annSpring := create(ann.ID, "spring", &dom.ID)
		bobSpring := create(bob.ID, "spring", nil)
		autumn := create(ann.ID, "autumn", &dom.ID)
		paused := create(bob.ID, "paused", nil)
		if _, err := s.SetDynamicPaused(ctx, bobWS, paused.ID, true, now); err != nil {
			t.Fatal(err)
		}

		type row struct {
			id, workspace, domainID int64
			code, domain            string
			chosen, withheld        bool
		}
		got := func(list []store.ExportedRedirect) []row {
			var out []row
			for _, r := range list {
				out = append(out, row{r.ID, r.WorkspaceID, r.DomainID, r.ShortCode, r.Domain, r.ShortCodeChosen, r.Withheld})
			}
			return out
		}
		all, err := s.ExportRedirects(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []row{
			{autumn.ID, annWS, dom.ID, "autumn", "qr1.test", true, false},
			{paused.ID, bobWS, 0, "paused", "", true, true},
			{annSpring.ID, annWS, dom.ID, "spring", "qr1.test", true, false}, // oldest first
			{bobSpring.ID, bobWS, 0, "spring", "", true, false},
		}
		if g := got(all); len(g) != len(want) || g[0] != want[0] || g[1] != want[1] || g[2] != want[2] || g[3] != want[3] {
			t.Errorf("every workspace's:\n got %+v\nwant %+v", g, want)
		}

		// Ann's export: her codes, and bob's spring withheld, which the
		// base URL answers in place of hers.
		mine, err := s.ExportRedirects(ctx, annWS)
		if err != nil {
			t.Fatal(err)
		}
		want = []row{
			{autumn.ID, annWS, dom.ID, "autumn", "qr1.test", true, false},
			{annSpring.ID, annWS, dom.ID, "spring", "qr1.test", true, false},
			{bobSpring.ID, bobWS, 0, "spring", "", true, true},
		}
		if g := got(mine); len(g) != len(want) || g[0] != want[0] || g[1] != want[1] || g[2] != want[2] {
			t.Errorf("ann's:\n got %+v\nwant %+v", g, want)
		}

		domains, err := s.ExportDomains(ctx, 0)
		if err != nil || len(domains) != 1 || domains[0] != (store.ExportedDomain{ID: dom.ID, Domain: "qr1.test", WorkspaceID: annWS}) {
			t.Errorf("domains %+v, %v", domains, err)
		}
	})
}
