package gs1_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// An import that would take the workspace past its limit saves none of
// its products, not those before the one over it; one that only updates
// products it has, or stays within the limit, saves them all.
func TestImportWithinTheLimitOrNothing(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "gs1@example.com")
		ws := storetest.Personal(t, st, u.ID)
		ps := &gs1.Products{Store: st, Now: time.Now, Limit: 2, CheckHref: func(string) string { return "" }}
		gtins := func() []string {
			list, err := st.GS1Products(ctx, ws)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range list {
				out = append(out, p.GTIN)
			}
			return out
		}
		file := func(gtins ...string) *strings.Reader {
			csv := "gtin,name,linkType,href\n"
			for _, g := range gtins {
				csv += g + ",Oats,gs1:defaultLink,https://example.com/" + g + "\n"
			}
			return strings.NewReader(csv)
		}
		if res, err := ps.Import(ctx, ws, file("09506000134352")); err != nil || res.Created != 1 {
			t.Fatalf("first import: %+v, %v", res, err)
		}
		// One known and two new: three, over the limit of two.
		if res, err := ps.Import(ctx, ws, file("09506000134352", "4006381333931", "9520123456788")); !errors.Is(err, gs1.ErrLimit) || res != (gs1.ImportResult{}) {
			t.Fatalf("over the limit: %+v, %v", res, err)
		}
		if got := gtins(); len(got) != 1 {
			t.Fatalf("after the refused import: %v", got)
		}
		if res, err := ps.Import(ctx, ws, file("09506000134352", "4006381333931")); err != nil || res.Created != 1 || res.Updated != 1 {
			t.Fatalf("up to the limit: %+v, %v", res, err)
		}
		if got := gtins(); len(got) != 2 {
			t.Fatalf("after the second import: %v", got)
		}
	})
}
