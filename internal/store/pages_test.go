package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func newPage(slug string) *store.Page {
	return &store.Page{Type: "links", Slug: slug, Title: "Links " + slug, Language: "en", Theme: `{}`,
		Content: `{"links":[{"label":"A","url":"https://a.test"}]}`}
}

func TestPagesCRUD(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		u := storetest.CreateUser(t, s, "pages@example.com")
		ws := storetest.Personal(t, s, u.ID)
		other := storetest.Personal(t, s, storetest.CreateUser(t, s, "other@example.com").ID)

		p := newPage("ada-links")
		if err := s.CreatePage(ctx, ws, p, 200, now); err != nil {
			t.Fatal(err)
		}
		if p.ID == 0 || p.Version != 1 {
			t.Fatalf("created %+v", p)
		}
		if err := s.CreatePage(ctx, other, newPage("ada-links"), 200, now); !errors.Is(err, store.ErrConflict) {
			t.Errorf("taken slug: %v, want ErrConflict", err)
		}
		if _, err := s.Page(ctx, other, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's page: %v", err)
		}
		got, err := s.Page(ctx, ws, p.ID)
		if err != nil || got.Slug != p.Slug || got.Content != p.Content || !got.CreatedAt.Equal(now) {
			t.Fatalf("Page = %+v, %v", got, err)
		}
		bySlug, err := s.LivePage(ctx, 0, "ada-links")
		if err != nil || bySlug.ID != p.ID || bySlug.WorkspaceID != ws {
			t.Fatalf("LivePage by slug = %+v, %v", bySlug, err)
		}

		// Edits bump the version; another workspace cannot edit it.
		p.Title = "New title"
		if err := s.UpdatePage(ctx, ws, p, now.Add(time.Minute)); err != nil || p.Version != 2 {
			t.Fatalf("update: %v, version %d", err, p.Version)
		}
		q := *p
		if err := s.UpdatePage(ctx, other, &q, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("update from another workspace: %v", err)
		}

		// A code opening the page; the redirect knows it.
		d := storetest.NewDynamic(u.ID, "pagecode1")
		d.Name = "Shop window"
		d.PageID = &p.ID
		if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
			t.Fatal(err)
		}
		r, err := oneRedirect(ctx, s, "pagecode1")
		if err != nil || r.PageID != p.ID {
			t.Fatalf("redirect = %+v, %v", r, err)
		}
		// Another workspace's page cannot be given to a code.
		d2 := storetest.NewDynamic(u.ID, "pagecode2")
		otherPage := newPage("other-page")
		if err := s.CreatePage(ctx, other, otherPage, 200, now); err != nil {
			t.Fatal(err)
		}
		d2.PageID = &otherPage.ID
		if err := s.CreateDynamicCode(ctx, d2, 0); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("code with another workspace's page: %v", err)
		}
		d2.PageID = nil
		if err := s.CreateDynamicCode(ctx, d2, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetDynamicPage(ctx, ws, d2.ID, &otherPage.ID, "", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SetDynamicPage with another workspace's page: %v", err)
		}
		if got, err := s.SetDynamicPage(ctx, ws, d2.ID, &p.ID, "https://sq.test/p/ada-links", now); err != nil || got.PageID == nil || *got.PageID != p.ID {
			t.Fatalf("SetDynamicPage = %+v, %v", got, err)
		}

		// Deleting a page that live codes open: 409 material.
		var inUse *store.PageInUseError
		if err := s.DeletePage(ctx, ws, p.ID); !errors.As(err, &inUse) || len(inUse.Codes) != 2 || inUse.Codes[0] != "Menu" || inUse.Codes[1] != "Shop window" {
			t.Fatalf("delete used page: %v", err)
		}
		if err := s.DeletePage(ctx, other, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete from another workspace: %v", err)
		}
		for _, id := range []int64{d.ID, d2.ID} {
			if _, err := s.DeleteDynamicCode(ctx, ws, id, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RecordPageEvents(ctx, []store.PageEvent{{PageID: p.ID, Kind: store.PageView, Visitor: "v", At: now}}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeletePage(ctx, ws, p.ID); err != nil {
			t.Fatalf("delete once its codes are deleted: %v", err)
		}
		if _, err := s.LivePage(ctx, p.ID, ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted page: %v", err)
		}
		if n := storetest.Count(t, s, "page_events"); n != 0 {
			t.Errorf("%d events outlive their page", n)
		}
	})
}

func TestPageLimitUnderConcurrency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws := storetest.Personal(t, s, storetest.CreateUser(t, s, "limit@example.com").ID)
		const limit = 5
		var wg sync.WaitGroup
		errs := make([]error, 20)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.CreatePage(ctx, ws, newPage(fmt.Sprintf("page-%02d", i)), limit, time.Now())
			}()
		}
		wg.Wait()
		ok, limited := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrPageLimit):
				limited++
			default:
				t.Errorf("create: %v", err)
			}
		}
		if ok != limit || limited != len(errs)-limit {
			t.Errorf("%d created, %d refused; want %d and %d", ok, limited, limit, len(errs)-limit)
		}
		// No limit (a subscription or a trial: the server's call) is none.
		if err := s.CreatePage(ctx, ws, newPage("paid-page"), 0, time.Now()); err != nil {
			t.Errorf("without a limit: %v", err)
		}
	})
}

func TestPageAnalytics(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws := storetest.Personal(t, s, storetest.CreateUser(t, s, "stats@example.com").ID)
		other := storetest.Personal(t, s, storetest.CreateUser(t, s, "nosy@example.com").ID)
		p := newPage("stats-page")
		day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		if err := s.CreatePage(ctx, ws, p, 200, day); err != nil {
			t.Fatal(err)
		}
		ev := func(kind string, button int, visitor string, at time.Time) store.PageEvent {
			return store.PageEvent{PageID: p.ID, Kind: kind, Button: button, Visitor: visitor, At: at}
		}
		err := s.RecordPageEvents(ctx, []store.PageEvent{
			ev(store.PageView, 0, "a", day.Add(time.Hour)), ev(store.PageView, 0, "a", day.Add(2*time.Hour)),
			ev(store.PageView, 0, "b", day.Add(3*time.Hour)), ev(store.PageClick, 1, "a", day.Add(time.Hour)),
			ev(store.PageClick, 1, "b", day.Add(time.Hour)), ev(store.PageClick, 0, "b", day.Add(time.Hour)),
			ev(store.PageSave, 0, "a", day.Add(time.Hour)), ev(store.PageReveal, 0, "a", day.Add(time.Hour)),
			ev(store.PageCalendar, 0, "a", day.Add(time.Hour)),
			ev(store.PageView, 0, "c", day.Add(48*time.Hour)),            // outside the period
			{PageID: 99999, Kind: store.PageView, Visitor: "x", At: day}, // an unknown page: dropped
		})
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.PageAnalytics(ctx, ws, p.ID, day, day.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if st.Views != 3 || st.Visitors != 2 || st.Clicks[1] != 2 || st.Clicks[0] != 1 || st.ClicksTotal != 3 ||
			st.ContactSaves != 1 || st.Reveals != 1 || st.CalendarAdds != 1 {
			t.Errorf("stats = %+v", st)
		}
		if _, err := s.PageAnalytics(ctx, other, p.ID, day, day.Add(24*time.Hour)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's analytics: %v", err)
		}
	})
}
