package server

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// NUL characters would make PostgreSQL fail (a 500); every way in refuses
// them with a 400 and stores nothing.
func TestNULCharactersRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("nul@example.com")
		code := e.createDynamic(c, "https://example.com/")
		for _, r := range []*response{
			e.do(c, "POST", "/api/generate-qrcode", `{"qrType":"url","url":"https://example.com/","sessionId":"s\u0000"}`),
			e.do(c, "POST", "/api/track-generation", `{"qrType":"url","qrData":{"k\u0000":"v"}}`),
			e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(code), `{"name":"a\u0000b"}`),
			e.do(e.browser(), "POST", "/api/register", `{"email":"n2@example.com","password":"secret1","firstName":"a\u0000"}`),
		} {
			expect(t, r, http.StatusBadRequest, msgNUL)
		}
		for _, r := range []*response{
			e.postForm(c, "/api/qrcodes", part{"qrType", "email", ""}, part{"email", "a@example.com", ""}, part{"subject", "a\x00b", ""}),
			e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/", ""}, part{"name", "a\x00b", ""}),
		} {
			if m := expect(t, r, http.StatusBadRequest, msgNUL); m["errors"] == nil {
				t.Errorf("%s: no field named in %v", r.Request.URL.Path, m)
			}
		}

		ctx := context.Background()
		a, err := st.UserAnalytics(ctx, uid, e.clock.Now().Add(-analyticsWindow))
		if err != nil {
			t.Fatal(err)
		}
		if a.TotalGenerations != 0 || a.StaticQRCodes != 0 || a.DynamicQRCodes != 1 {
			t.Errorf("refused requests stored something: %+v", a)
		}
		if d, err := st.DynamicCode(ctx, uid, int64(code["id"].(float64))); err != nil || d.Name != code["name"] {
			t.Errorf("refused rename changed the code: %v %v", d, err)
		}
		if _, err := st.UserByUsername(ctx, "n2@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("refused registration created a user (err %v)", err)
		}
		// A backslash before u0000 is not a NUL.
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(code), `{"name":"a\\u0000b"}`), http.StatusOK, "")
	})
}
