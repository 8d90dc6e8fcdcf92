package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// UpdateCodes changes many codes in one transaction: each code's changes
// land together with one audit entry, a code that is not the workspace's
// or a pending domain fails alone, and the changed redirects are
// announced.
func TestUpdateCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		now := time.Now()
		u := storetest.CreateUser(t, s, "owner@example.com")
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: u.ID, Email: u.Username})
		other := storetest.CreateUser(t, s, "other@example.com")
		ws, otherWS := storetest.Personal(t, s, u.ID), storetest.Personal(t, s, other.ID)
		a := storetest.CreateDynamic(t, s, u.ID, "UpdA1")
		b := storetest.CreateDynamic(t, s, u.ID, "UpdB2")
		theirs := storetest.CreateDynamic(t, s, other.ID, "UpdC3")
		var static int64
		if err := store.WriteDB(s).QueryRow(`INSERT INTO qr_codes (workspace_id, user_id, name) VALUES ($1, $2, 'Flyer') RETURNING id`, ws, u.ID).Scan(&static); err != nil {
			t.Fatal(err)
		}
		pending := &store.Domain{Domain: "qr.pending.example", Token: "t"}
		if err := s.CreateDomain(ctx, ws, pending, 10, now); err != nil {
			t.Fatal(err)
		}
		var announced []string
		s.OnRedirectsChanged(func(codes []string, _ error) { announced = append(announced, codes...) })
		entries := func() int {
			log, err := s.AuditLog(ctx, ws, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			return len(log)
		}
		before := entries()

		style := storetest.DefaultStyle()
		style.FgColor = "#112233"
		out, err := s.UpdateCodes(ctx, ws, []store.CodeChanges{
			{Dynamic: true, ID: a.ID, Name: "Spring menu", Destination: "https://new.example/menu", Style: &style},
			{Dynamic: true, ID: theirs.ID, Name: "Not mine"},
			{Dynamic: true, ID: b.ID, SetDomain: true, DomainID: &pending.ID},
			{ID: static, Name: "Poster"},
			{Dynamic: true, ID: b.ID, Destination: "https://new.example/b"},
		}, now)
		if err != nil {
			t.Fatal(err)
		}
		if d := out[0].Dynamic; out[0].Err != nil || d.Name != "Spring menu" || d.Destination != "https://new.example/menu" || d.FgColor != "#112233" {
			t.Errorf("first code: %+v, %v", d, out[0].Err)
		}
		if !errors.Is(out[1].Err, store.ErrNotFound) || out[1].Dynamic != nil {
			t.Errorf("another workspace's code: %+v", out[1])
		}
		if !errors.Is(out[2].Err, store.ErrDomainUnverified) {
			t.Errorf("pending domain: %v", out[2].Err)
		}
		if q := out[3].Static; out[3].Err != nil || q.Name != "Poster" {
			t.Errorf("static code: %+v, %v", q, out[3].Err)
		}
		if d := out[4].Dynamic; out[4].Err != nil || d.Destination != "https://new.example/b" || d.DomainID != nil {
			t.Errorf("second code: %+v, %v", d, out[4].Err)
		}
		// Renamed, moved and restyled; renamed; moved: what changed, once.
		if got := entries() - before; got != 5 {
			t.Errorf("%d audit entries, want 5", got)
		}
		slices.Sort(announced)
		if !slices.Equal(announced, []string{"UpdA1", "UpdB2"}) {
			t.Errorf("announced %v", announced)
		}
		if d, err := s.DynamicCode(ctx, otherWS, theirs.ID); err != nil || d.Name != "Menu" {
			t.Errorf("another workspace's code changed: %+v, %v", d, err)
		}
		if d, err := s.DynamicCode(ctx, ws, a.ID); err != nil || d.Destination != "https://new.example/menu" {
			t.Errorf("stored: %+v, %v", d, err)
		}
	})
}
