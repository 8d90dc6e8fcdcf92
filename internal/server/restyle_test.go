package server

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// A dynamic code restyled: the image changes, the short code, destination
// and what the image decodes to do not; a preview changes nothing.
func TestRestyleDynamicCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("restyle@example.com")
		base := testConfig(t).BaseURL
		d := e.createDynamic(c, "https://example.com/menu", part{"name", "Menu", ""})
		id, code := idOf(d), d["shortCode"].(string)
		if d["errorCorrectionLevel"] != "M" {
			t.Errorf("created at %v, want M", d["errorCorrectionLevel"])
		}
		image := func() []byte {
			t.Helper()
			r := e.do(c, "GET", "/api/dynamic-qrcodes/"+id+"/image?format=png", "")
			if r.StatusCode != http.StatusOK {
				t.Fatalf("image: %d %s", r.StatusCode, r.body)
			}
			return r.body
		}
		before := image()

		style := []part{{"fgColor", "#1a237e", ""}, {"dotShape", "circle", ""}, {"cornerShape", "circle", ""},
			{"innerCornerShape", "curve-square", ""}, {"errorCorrectionLevel", "Q", ""}}
		p := expect(t, e.sendForm(c, "POST", "/api/dynamic-qrcodes/"+id+"/style/preview", style...), http.StatusOK, "")
		if p["data"] != base+"/d/"+code || !strings.HasPrefix(p["qrCode"].(string), "<svg") || !strings.Contains(p["qrCode"].(string), "#1A237E") {
			t.Fatalf("preview = %.200v", p)
		}
		if !bytes.Equal(image(), before) {
			t.Fatal("a preview changed the saved image")
		}

		m := expect(t, e.sendForm(c, "PUT", "/api/dynamic-qrcodes/"+id+"/style", style...), http.StatusOK, "")
		if m["shortCode"] != code || m["destination"] != "https://example.com/menu" || m["name"] != "Menu" ||
			m["fgColor"] != "#1A237E" || m["dotShape"] != "circle" || m["cornerShape"] != "circle" ||
			m["innerCornerShape"] != "curve-square" || m["errorCorrectionLevel"] != "Q" {
			t.Fatalf("after restyle: %v", m)
		}
		after := image()
		if bytes.Equal(after, before) {
			t.Fatal("the image did not change")
		}
		for _, img := range [][]byte{before, after} {
			if got := dec.read(img, "png"); got != base+"/d/"+code {
				t.Errorf("image decodes to %q", got)
			}
		}
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/menu")

		// A logo by id: kept and drawn, still scans; a form without one removes it.
		up := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 16, 16)), "brand.png"}), http.StatusCreated, "")
		m = expect(t, e.sendForm(c, "PUT", "/api/dynamic-qrcodes/"+id+"/style", part{"logoId", idOf(up), ""}), http.StatusOK, "")
		if m["logoFilePath"] != "/logo/"+idOf(up) || m["fgColor"] != "#000000" || m["errorCorrectionLevel"] != "Q" {
			t.Errorf("with a logo: %v", m)
		}
		if got := dec.read(image(), "png"); got != base+"/d/"+code {
			t.Errorf("with a logo the image decodes to %q", got)
		}
		m = expect(t, e.sendForm(c, "PUT", "/api/dynamic-qrcodes/"+id+"/style", part{"fgColor", "#000000", ""}), http.StatusOK, "")
		if m["logoFilePath"] != "" || m["shortCode"] != code {
			t.Errorf("without a logo: %v", m)
		}
	})
}

// Restyle refusals answer like creation's and change nothing.
func TestRestyleRefusals(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("refuse@example.com")
		other, _ := e.signedIn("refuse-other@example.com")
		d := e.createDynamic(c, "https://example.com/r", part{"fgColor", "#123456", ""})
		q := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/s", ""}, part{"fgColor", "#123456", ""}), http.StatusCreated, "")
		othersLogo := expect(t, e.postForm(other, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 16, 16)), "x.png"}), http.StatusCreated, "")

		for _, path := range []string{"/api/dynamic-qrcodes/" + idOf(d) + "/style", "/api/qrcodes/" + idOf(q) + "/style"} {
			for _, tc := range []struct {
				parts   []part
				status  int
				message string
			}{
				{[]part{{"fgColor", "blue-ish", ""}}, 400, "Please enter a colour like #1A2B3C"},
				{[]part{{"fgColor", "#FFFFFF", ""}}, 400, ""}, // no contrast
				{[]part{{"dotShape", "star", ""}}, 400, "dotShape must be one of square, circle, rounded, dots, classy, classy-rounded, extra-rounded"},
				{[]part{{"gradientAngle", "ninety", ""}}, 400, "gradientAngle must be a whole number of degrees from 0 to 359"},
				{[]part{{"gradientAngle", "360", ""}}, 400, "gradientAngle must be a whole number of degrees from 0 to 359"},
				{[]part{{"gradientAngle", "-1", ""}}, 400, "gradientAngle must be a whole number of degrees from 0 to 359"},
				{[]part{{"gradientType", "conic", ""}}, 400, "gradientType must be one of linear, radial"},
				{[]part{{"gradientOnEyes", "maybe", ""}}, 400, "gradientOnEyes must be true or false"},
				{[]part{{"enableFrame", "maybe", ""}}, 400, "enableFrame must be true or false"},
				{[]part{{"errorCorrectionLevel", "Z", ""}}, 400, "errorCorrectionLevel must be L, M, Q or H"},
				{[]part{{"logoId", "x", ""}}, 400, "logoId must be a number"},
				{[]part{{"logoId", idOf(othersLogo), ""}}, 404, "Logo not found"},
				{[]part{{"logoFile", "not an image", "logo.png"}}, 415, ""},
			} {
				r := e.sendForm(c, "PUT", path, tc.parts...)
				m := expect(t, r, tc.status, tc.message)
				if tc.status == 400 && m["errors"] == nil {
					t.Errorf("PUT %s %v: no field errors in %v", path, tc.parts, m)
				}
			}
			expect(t, e.do(c, "PUT", path, `{"fgColor":"#000000"}`), http.StatusUnsupportedMediaType, "Content-Type must be multipart/form-data")
		}
		expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+idOf(q)+"/style", part{"errorCorrectionLevel", "L", ""}), http.StatusBadRequest,
			"Static codes are always encoded at error correction H")

		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 1 || list[0]["fgColor"] != "#123456" || list[0]["errorCorrectionLevel"] != "M" {
			t.Errorf("a refused restyle changed the dynamic code: %v", list)
		}
		decodeList(t, e.do(c, "GET", "/api/qrcodes", ""), &list)
		if len(list) != 1 || list[0]["fgColor"] != "#123456" {
			t.Errorf("a refused restyle changed the static code: %v", list)
		}
	})
}

// Another user's, a deleted or an unknown code is not found on every new
// route; no session is 401.
func TestRestyleAndDuplicateOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, _ := e.signedIn("own@example.com")
		other, _ := e.signedIn("thief@example.com")
		d := e.createDynamic(owner, "https://example.com/mine")
		q := expect(t, e.postForm(owner, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/s", ""}), http.StatusCreated, "")
		gone := e.createDynamic(owner, "https://example.com/gone")
		goneStatic := expect(t, e.postForm(owner, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/g", ""}), http.StatusCreated, "")
		e.do(owner, "DELETE", "/api/dynamic-qrcodes/"+idOf(gone), "")
		e.do(owner, "DELETE", "/api/qrcodes/"+idOf(goneStatic), "")

		style := []part{{"fgColor", "#AA0000", ""}}
		content := []part{{"qrType", "url", ""}, {"url", "https://evil.example", ""}}
		for _, tc := range []struct {
			method, kind, suffix string
			parts                []part
		}{
			{"PUT", "dynamic-qrcodes", "/style", style},
			{"POST", "dynamic-qrcodes", "/style/preview", style},
			{"POST", "dynamic-qrcodes", "/duplicate", nil},
			{"PUT", "qrcodes", "/style", style},
			{"POST", "qrcodes", "/style/preview", style},
			{"POST", "qrcodes", "/duplicate", nil},
			{"PUT", "qrcodes", "", content},
		} {
			mine, deleted := idOf(d), idOf(gone)
			if tc.kind == "qrcodes" {
				mine, deleted = idOf(q), idOf(goneStatic)
			}
			for _, id := range []string{mine, deleted, "999999", "abc"} {
				c := other
				if id != mine {
					c = owner
				}
				expect(t, e.sendForm(c, tc.method, "/api/"+tc.kind+"/"+id+tc.suffix, tc.parts...), http.StatusNotFound, msgCodeMissing)
			}
			expect(t, e.sendForm(e.browser(), tc.method, "/api/"+tc.kind+"/"+mine+tc.suffix, tc.parts...), http.StatusUnauthorized, "Not authenticated")
		}
		var list []map[string]any
		decodeList(t, e.do(owner, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 1 || list[0]["fgColor"] != "#000000" {
			t.Errorf("owner's dynamic codes: %v", list)
		}
		decodeList(t, e.do(owner, "GET", "/api/qrcodes", ""), &list)
		if len(list) != 1 || list[0]["url"] != "https://example.com/s" {
			t.Errorf("owner's static codes: %v", list)
		}
		decodeList(t, e.do(other, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 0 {
			t.Errorf("the other user got %v", list)
		}
	})
}

// A dynamic duplicate has a new short code and counts against the limit
// like a creation, also when requests race.
func TestDuplicateDynamicCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 3 }))
		c, _ := e.signedIn("dup@example.com")
		base := testConfig(t).BaseURL
		long := strings.Repeat("é", 98)
		d := e.createDynamic(c, "https://example.com/menu", part{"name", long, ""}, part{"fgColor", "#1A237E", ""}, part{"dotShape", "rounded", ""})
		expect(t, e.do(c, "PUT", "/api/dynamic-qrcodes/"+idOf(d)+"/password", `{"password":"secret1"}`), http.StatusOK, "")

		m := expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(d)+"/duplicate", ""), http.StatusCreated, "")
		if m["shortCode"] == d["shortCode"] || m["id"] == d["id"] || m["shortUrl"] != base+"/d/"+m["shortCode"].(string) ||
			m["destination"] != "https://example.com/menu" || m["qrType"] != "url" || m["fgColor"] != "#1A237E" ||
			m["dotShape"] != "rounded" || m["scanCount"] != 0.0 || m["isProtected"] != false {
			t.Fatalf("duplicate = %v", m)
		}
		if name := m["name"].(string); utf8.RuneCountInString(name) != 100 || !strings.HasSuffix(name, " (copy)") {
			t.Errorf("duplicate's name %q (%d characters)", name, utf8.RuneCountInString(name))
		}
		expectRedirect(t, e.scan(m["shortCode"].(string), iPhoneUA), "https://example.com/menu")

		// One slot left: of racing duplicates exactly one passes.
		var wg sync.WaitGroup
		statuses := make([]int, 5)
		for i := range statuses {
			wg.Go(func() { statuses[i] = e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(d)+"/duplicate", "").StatusCode })
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusForbidden:
			default:
				t.Errorf("status %d", s)
			}
		}
		if created != 1 {
			t.Fatalf("%d duplicates at the limit, want 1 (%v)", created, statuses)
		}
		expect(t, e.do(c, "POST", "/api/dynamic-qrcodes/"+idOf(d)+"/duplicate", ""), http.StatusForbidden,
			"You have reached your limit of 3 dynamic QR codes. Please upgrade to create more."+msgFreeShared)
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/dynamic-qrcodes", ""), &list)
		if len(list) != 3 {
			t.Errorf("%d codes, want 3", len(list))
		}
	})
}

// A static duplicate is a new code with the same content and style; a
// payment code's copy gets its own product.
func TestDuplicateStaticCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("dup-static@example.com")
		q := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "email", ""}, part{"email", "hi@example.com", ""},
			part{"subject", "Hello", ""}, part{"name", "Mail", ""}, part{"bgColor", "#FFF8E1", ""}), http.StatusCreated, "")
		m := expect(t, e.do(c, "POST", "/api/qrcodes/"+idOf(q)+"/duplicate", ""), http.StatusCreated, "")
		if m["id"] == q["id"] || m["name"] != "Mail (copy)" || m["data"] != q["data"] || m["qrType"] != "email" || m["bgColor"] != "#FFF8E1" {
			t.Fatalf("duplicate = %v", m)
		}
		img := e.do(c, "GET", "/api/qrcodes/"+idOf(m)+"/image?format=png", "")
		if got := dec.read(img.body, "png"); got != q["data"] {
			t.Errorf("duplicate decodes to %q, want %q", got, q["data"])
		}

		pay := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "payment", ""}, part{"productName", "Tea", ""},
			part{"productPrice", "3.50", ""}, part{"productDescription", "Green tea", ""}), http.StatusCreated, "")
		cp := expect(t, e.do(c, "POST", "/api/qrcodes/"+idOf(pay)+"/duplicate", ""), http.StatusCreated, "")
		if cp["data"] == pay["data"] || !strings.Contains(cp["data"].(string), "/payment?id=") {
			t.Fatalf("payment copy encodes %v, the original %v", cp["data"], pay["data"])
		}
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/qrcodes", ""), &list)
		if len(list) != 4 {
			t.Errorf("%d static codes, want 4", len(list))
		}
	})
}

// Restyling a static code changes its image, not its content; PUT
// /api/qrcodes/{id} replaces both and keeps the code (the create view's
// regenerate).
func TestRestyleAndUpdateStaticCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("update@example.com")
		q := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", "https://example.com/a", ""}, part{"name", "Shop", ""}), http.StatusCreated, "")
		id := idOf(q)
		image := func() []byte {
			return e.do(c, "GET", "/api/qrcodes/"+id+"/image?format=png", "").body
		}
		before := image()
		m := expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+id+"/style", part{"fgColor", "#004D40", ""}, part{"dotShape", "rounded", ""}), http.StatusOK, "")
		if m["fgColor"] != "#004D40" || m["data"] != "https://example.com/a" || m["name"] != "Shop" {
			t.Fatalf("after restyle: %v", m)
		}
		after := image()
		if bytes.Equal(before, after) {
			t.Fatal("the image did not change")
		}
		if got := dec.read(after, "png"); got != "https://example.com/a" {
			t.Errorf("restyled image decodes to %q", got)
		}

		m = expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+id, part{"qrType", "url", ""}, part{"url", "https://example.com/b", ""},
			part{"fgColor", "#B71C1C", ""}), http.StatusOK, "")
		if idOf(m) != id || m["data"] != "https://example.com/b" || m["url"] != "https://example.com/b" || m["name"] != "Shop" || m["fgColor"] != "#B71C1C" {
			t.Fatalf("after update: %v", m)
		}
		if got := dec.read(image(), "png"); got != "https://example.com/b" {
			t.Errorf("updated image decodes to %q", got)
		}
		expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+id, part{"qrType", "url", ""}, part{"url", "ftp://x", ""}), http.StatusBadRequest, "")
		expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+id, part{"qrType", "url", ""}, part{"url", "https://example.com/c", ""}, part{"qrMode", "dynamic", ""}),
			http.StatusBadRequest, "Dynamic QR codes are created with POST /api/dynamic-qrcodes")
		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/qrcodes", ""), &list)
		if len(list) != 1 || list[0]["data"] != "https://example.com/b" {
			t.Errorf("list after updates: %v", list)
		}
	})
}

func TestCopyName(t *testing.T) {
	for name, want := range map[string]string{
		"Menu":                         "Menu (copy)",
		strings.Repeat("a", 100):       strings.Repeat("a", 93) + " (copy)",
		strings.Repeat("ü", 95):        strings.Repeat("ü", 93) + " (copy)",
		strings.Repeat("b", 92) + " x": strings.Repeat("b", 92) + " (copy)",
	} {
		if got := copyName(name); got != want || utf8.RuneCountInString(got) > codes.MaxName {
			t.Errorf("copyName(%q) = %q, want %q", name, got, want)
		}
	}
}
