package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// kitCount is how many brand kits the workspace has, and how many are its default.
func kitCount(t *testing.T, st *store.Store, ws int64) (kits, defaults int) {
	t.Helper()
	storetest.QueryRow(t, st, `SELECT count(*), COALESCE(sum(CASE WHEN is_default THEN 1 ELSE 0 END), 0) FROM brand_kits WHERE workspace_id = $1`,
		[]any{ws}, &kits, &defaults)
	return kits, defaults
}

// Brand kits are the workspace's: names unique per workspace ignoring
// case, checked as a code's style is, partial updates, one default, and
// nothing of another workspace's reachable.
func TestBrandKits(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed, viewer := f.members["editor"], f.members["viewer"]
		kit := expect(t, e.do(ed, "POST", "/api/brand-kits",
			`{"name":" Spring ","fgColor":"#1a2b3c","bgColor":"#fff8e7","dotShape":"rounded","cornerShape":"curve-square","enableFrame":true,"frameText":"Scan the menu"}`),
			http.StatusCreated, "")
		if kit["name"] != "Spring" || kit["fgColor"] != "#1A2B3C" || kit["bgColor"] != "#FFF8E7" || kit["dotShape"] != "rounded" ||
			kit["innerCornerShape"] != "square" || kit["enableFrame"] != true || kit["frameText"] != "Scan the menu" ||
			kit["isDefault"] != false || kit["logoId"] != nil {
			t.Errorf("created kit = %v", kit)
		}
		path := "/api/brand-kits/" + idOf(kit)
		expect(t, e.do(ed, "POST", "/api/brand-kits", `{"name":"SPRING"}`), http.StatusConflict, msgKitTaken)

		// Viewers read kits; the matrix checks that they cannot change them.
		var list []map[string]any
		decodeList(t, e.do(viewer, "GET", "/api/brand-kits", ""), &list)
		if len(list) != 1 || list[0]["name"] != "Spring" || list[0]["fgColor"] != "#1A2B3C" {
			t.Errorf("viewer's list = %v", list)
		}

		// Bad input of every kind: a clear 400 (413, 415), nothing changes.
		before := fingerprint(t, st, f.ws)
		for _, c := range []struct {
			body   string
			status int
			field  string
		}{
			{`{"name":""}`, http.StatusBadRequest, "name"},
			{`{"name":"` + strings.Repeat("k", maxBrandKitName+1) + `"}`, http.StatusBadRequest, "name"},
			{`{"name":"a\u202eb"}`, http.StatusBadRequest, "name"},
			{`{"name":"Red","fgColor":"red"}`, http.StatusBadRequest, "fgColor"},
			{`{"name":"Red","fgColor":5}`, http.StatusBadRequest, "fgColor"},
			{`{"name":"Red","dotShape":"star"}`, http.StatusBadRequest, "dotShape"},
			{`{"name":"Red","enableFrame":"yes"}`, http.StatusBadRequest, "enableFrame"},
			{`{"name":"Red","frameText":"` + strings.Repeat("x", 41) + `"}`, http.StatusBadRequest, "frameText"},
			{`{"name":"Grey","fgColor":"#777777","bgColor":"#808080"}`, http.StatusBadRequest, "fgColor"}, // would not scan
			{`{"name":"Red","logoId":"x"}`, http.StatusBadRequest, "logoId"},
			{`{"name":"Red","logoId":999999}`, http.StatusNotFound, "logoId"},
			{`{"name":"Red","isDefault":"yes"}`, http.StatusBadRequest, "isDefault"},
			{`{"name":`, http.StatusBadRequest, ""},
			{`[1]`, http.StatusBadRequest, ""},
			{`{"name":"` + strings.Repeat("x", 2<<20) + `"}`, http.StatusRequestEntityTooLarge, ""},
		} {
			r := e.do(ed, "POST", "/api/brand-kits", c.body)
			if r.StatusCode != c.status {
				t.Errorf("%.60s: %d %s, want %d", c.body, r.StatusCode, r.body, c.status)
				continue
			}
			if c.field != "" {
				if errs, _ := r.json(t)["errors"].(map[string]any); errs[c.field] == nil {
					t.Errorf("%.60s: errors %s, want one on %s", c.body, r.body, c.field)
				}
			}
		}
		if r := e.do(ed, "POST", "/api/brand-kits", "name=x", "Content-Type", "text/plain"); r.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("text body: %d", r.StatusCode)
		}
		if r := e.do(ed, "POST", "/api/brand-kits", "{\"name\":\"\xff\"}"); r.StatusCode != http.StatusBadRequest {
			t.Errorf("invalid UTF-8: %d %s", r.StatusCode, r.body)
		}
		// Another workspace's logo and kit: 404, as if they did not exist.
		theirLogo := expect(t, e.postForm(f.outsider, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 16, 16)), "theirs.png"}), http.StatusCreated, "")
		expect(t, e.do(ed, "POST", "/api/brand-kits", `{"name":"Theirs","logoId":`+idOf(theirLogo)+`}`), http.StatusNotFound, "Logo not found")
		theirs := expect(t, e.do(f.outsider, "POST", "/api/brand-kits", `{"name":"Spring","fgColor":"#003300"}`), http.StatusCreated, "")
		expect(t, e.do(ed, "PUT", "/api/brand-kits/"+idOf(theirs), `{"name":"Mine now"}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(ed, "DELETE", "/api/brand-kits/"+idOf(theirs), ""), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(f.outsider, "PUT", path, `{"name":"Mine now"}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(f.outsider, "DELETE", path, ""), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(ed, "PUT", "/api/brand-kits/abc", `{}`), http.StatusNotFound, msgKitMissing)
		if after := fingerprint(t, st, f.ws); after != before {
			t.Errorf("refused requests changed the workspace:\n%s\n%s", before, after)
		}
		if n, _ := kitCount(t, st, f.ws); n != 1 {
			t.Errorf("%d kits after refusals, want 1", n)
		}

		// A partial update keeps what it does not name; a logo of the
		// workspace is kept by id, and null removes it.
		logo := expect(t, e.postForm(ed, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 24, 24)), "brand.png"}), http.StatusCreated, "")
		got := expect(t, e.do(ed, "PUT", path, `{"name":"Spring menu","logoId":`+idOf(logo)+`,"isDefault":true}`), http.StatusOK, "")
		if got["name"] != "Spring menu" || got["fgColor"] != "#1A2B3C" || got["frameText"] != "Scan the menu" ||
			got["logoId"] != logo["id"] || got["logoFileName"] != "brand.png" || got["isDefault"] != true {
			t.Errorf("updated kit = %v", got)
		}
		got = expect(t, e.do(ed, "PUT", path, `{"bgColor":"","logoId":null}`), http.StatusOK, "")
		if got["bgColor"] != "#FFFFFF" || got["logoId"] != nil || got["name"] != "Spring menu" || got["isDefault"] != true {
			t.Errorf("kit after clearing = %v", got)
		}
		expect(t, e.do(ed, "PUT", path, `{"fgColor":"blue"}`), http.StatusBadRequest, "")

		// Every change is in the audit log.
		var audited int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action LIKE 'brand_kit.%'`, []any{f.ws}, &audited)
		if audited != 3 {
			t.Errorf("%d brand kit audit entries, want 3 (created, updated twice)", audited)
		}
		expect(t, e.do(ed, "DELETE", path, ""), http.StatusNoContent, "")
		expect(t, e.do(ed, "DELETE", path, ""), http.StatusNotFound, msgKitMissing)
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE workspace_id = $1 AND action = 'brand_kit.deleted'`, []any{f.ws}, &audited)
		if audited != 1 {
			t.Errorf("%d deletions audited", audited)
		}
	})
}

// One default kit per workspace and at most maxBrandKits, however many
// requests race for them.
func TestBrandKitLimitsUnderConcurrency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("kits@example.com")
		ws := storetest.Personal(t, st, uid)
		var wg sync.WaitGroup
		statuses := make([]int, maxBrandKits+10)
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = e.do(c, "POST", "/api/brand-kits", fmt.Sprintf(`{"name":"Kit %d","isDefault":true}`, i)).StatusCode
			})
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
			default:
				t.Errorf("parallel create answered %d", s)
			}
		}
		kits, defaults := kitCount(t, st, ws)
		if created != maxBrandKits || kits != maxBrandKits || defaults != 1 {
			t.Errorf("%d created, %d kits, %d defaults; want %d, %d, 1", created, kits, defaults, maxBrandKits, maxBrandKits)
		}
		expect(t, e.do(c, "POST", "/api/brand-kits", `{"name":"One more"}`), http.StatusConflict, msgKitLimit)

		var list []map[string]any
		decodeList(t, e.do(c, "GET", "/api/brand-kits", ""), &list)
		for _, k := range list[:20] {
			wg.Go(func() {
				if r := e.do(c, "PUT", "/api/brand-kits/"+idOf(k), `{"isDefault":true}`); r.StatusCode != http.StatusOK {
					t.Errorf("set default: %d %s", r.StatusCode, r.body)
				}
			})
		}
		wg.Wait()
		if _, defaults := kitCount(t, st, ws); defaults != 1 {
			t.Errorf("%d defaults after parallel changes, want 1", defaults)
		}
	})
}

// A kit applies in one step wherever a code is styled: the generator, a
// saved code's restyle, the public API (create, update, image) and bulk.
// Style fields sent with it win; what the kit sets is otherwise drawn
// exactly as if sent field by field.
func TestBrandKitApplied(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("brand@example.com")
		other, _ := e.signedIn("other@example.com")
		logo := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(pngBytes(t, 24, 24)), "brand.png"}), http.StatusCreated, "")
		style := `"fgColor":"#8B0000","bgColor":"#FFFFE0","dotShape":"rounded","cornerShape":"curve-square","innerCornerShape":"circle","enableFrame":true,"frameText":"Taste it"`
		kit := expect(t, e.do(c, "POST", "/api/brand-kits", `{"name":"Bistro",`+style+`,"logoId":`+idOf(logo)+`}`), http.StatusCreated, "")
		kitID := idOf(kit)
		theirKit := idOf(expect(t, e.do(other, "POST", "/api/brand-kits", `{"name":"Bistro"}`), http.StatusCreated, ""))

		// Generator: the kit's download is the one of its fields and logo.
		download := func(extra string) *response {
			return e.do(c, "POST", "/api/download-qrcode", `{"qrType":"url","url":"https://example.com/menu","format":"svg"`+extra+`}`)
		}
		withKit := download(`,"brandKit":` + kitID)
		explicit := download(`,` + style + `,"logoId":` + idOf(logo))
		if withKit.StatusCode != http.StatusOK || !bytes.Equal(withKit.body, explicit.body) {
			t.Errorf("download with the kit (%d) differs from its fields (%d)", withKit.StatusCode, explicit.StatusCode)
		}
		if !bytes.Contains(withKit.body, []byte("#8B0000")) || bytes.Equal(withKit.body, download("").body) {
			t.Error("the kit's colour is not in its download")
		}
		override := download(`,"brandKit":` + kitID + `,"fgColor":"#003366","logoId":null`)
		want := download(strings.Replace(","+style, "#8B0000", "#003366", 1) + `,"logoId":` + idOf(logo))
		if override.StatusCode != http.StatusOK || !bytes.Equal(override.body, want.body) {
			t.Error("a field sent with the kit does not win over the kit's")
		}
		preview := expect(t, e.do(c, "POST", "/api/generate-qrcode", `{"qrType":"text","text":"hi","temporary":true,"brandKit":`+kitID+`}`), http.StatusOK, "")
		if !strings.Contains(preview["qrCode"].(string), "#8B0000") {
			t.Error("the preview does not take the kit's colour")
		}
		expect(t, e.do(c, "POST", "/api/download-qrcode", `{"qrType":"text","text":"hi","brandKit":`+theirKit+`}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(e.browser(), "POST", "/api/generate-qrcode", `{"qrType":"text","text":"hi","brandKit":`+kitID+`}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.do(c, "POST", "/api/download-qrcode", `{"qrType":"text","text":"hi","brandKit":"1"}`), http.StatusBadRequest, "")

		// Restyle: a saved code takes the kit's style and logo.
		saved := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "text", ""}, part{"text", "restyle me", ""}), http.StatusCreated, "")
		restyled := expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+idOf(saved)+"/style", part{"brandKit", kitID, ""}), http.StatusOK, "")
		checkKitStyle(t, "restyled code", restyled, kit, idOf(logo))
		expect(t, e.sendForm(c, "PUT", "/api/qrcodes/"+idOf(saved)+"/style", part{"brandKit", theirKit, ""}), http.StatusNotFound, msgKitMissing)
		dyn := e.createDynamic(c, "https://example.com/d", part{"brandKit", kitID, ""}, part{"bgColor", "#F0F8FF", ""})
		if dyn["fgColor"] != "#8B0000" || dyn["bgColor"] != "#F0F8FF" || dyn["dotShape"] != "rounded" {
			t.Errorf("dynamic code made with the kit and a bgColor = %v", dyn)
		}

		// Public API: create, update (restyle) and the image.
		key, _ := e.newKey(c, "kits")
		made := expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com/api","brandKit":`+kitID+`}`), http.StatusCreated, "")
		checkKitStyle(t, "API code", made, kit, idOf(logo))
		plain := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/p"}`), http.StatusCreated, "")
		p := "/api/v1/codes/" + plain["id"].(string)
		ownImage := e.api(key, "GET", p+"/image?format=png", "")
		kitImage := e.api(key, "GET", p+"/image?format=png&brandKit="+kitID, "")
		if ownImage.StatusCode != http.StatusOK || kitImage.StatusCode != http.StatusOK || bytes.Equal(ownImage.body, kitImage.body) {
			t.Fatalf("image with the kit: %d, own %d", kitImage.StatusCode, ownImage.StatusCode)
		}
		updated := expect(t, e.api(key, "PATCH", p, `{"name":"Styled","brandKit":`+kitID+`}`), http.StatusOK, "")
		checkKitStyle(t, "API update", updated, kit, idOf(logo))
		if updated["name"] != "Styled" {
			t.Errorf("name = %v", updated["name"])
		}
		if after := e.api(key, "GET", p+"/image?format=png", ""); !bytes.Equal(after.body, kitImage.body) {
			t.Error("the restyled code's image differs from its image drawn with the kit")
		}
		batch := expect(t, e.api(key, "POST", "/api/v1/codes/batch", `{"codes":[{"qrType":"text","text":"one","brandKit":`+kitID+`},{"qrType":"text","text":"two","brandKit":`+theirKit+`}]}`), http.StatusOK, "")
		results := batch["results"].([]any)
		if batch["created"] != 1.0 || results[0].(map[string]any)["code"].(map[string]any)["fgColor"] != "#8B0000" || results[1].(map[string]any)["status"] != 404.0 {
			t.Errorf("batch with kits = %v", batch)
		}
		flight := expect(t, e.do(c, "POST", "/api/preflight", `{"qrType":"text","text":"hi","sizeMm":30,"brandKit":`+kitID+`}`), http.StatusOK, "")
		if flight["moduleMm"] == nil {
			t.Errorf("preflight with a kit = %v", flight)
		}
		expect(t, e.do(c, "POST", "/api/preflight", `{"qrType":"text","text":"hi","sizeMm":30,"brandKit":`+theirKit+`}`), http.StatusNotFound, msgKitMissing)
		var kits []map[string]any
		decodeList(t, e.api(key, "GET", "/api/v1/brand-kits", ""), &kits)
		if len(kits) != 1 || idOf(kits[0]) != kitID {
			t.Errorf("API kits = %v", kits)
		}
		n := countCodes(t, st)
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"url","url":"https://example.com/x","brandKit":`+theirKit+`}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.api(key, "PATCH", p, `{"name":"Not this","brandKit":`+theirKit+`}`), http.StatusNotFound, msgKitMissing)
		expect(t, e.api(key, "GET", p+"/image?brandKit="+theirKit, ""), http.StatusNotFound, msgKitMissing)
		expect(t, e.api(key, "GET", p+"/image?brandKit=x", ""), http.StatusNotFound, msgKitMissing)
		if got := expect(t, e.api(key, "GET", p, ""), http.StatusOK, ""); got["name"] != "Styled" || countCodes(t, st) != n {
			t.Errorf("a refused kit changed something: %v", got)
		}

		// Bulk: a brandKit column names a kit (ignoring case); a row's own
		// cells win; an unknown name is that row's error.
		sheet := "url,brandKit,bgColor\nhttps://example.com/1,bistro,\nhttps://example.com/2,Bistro,#F0F8FF\nhttps://example.com/3,Nope,\nhttps://example.com/4,,\n"
		check := expect(t, e.postSheet(c, "kits.csv", sheet, true), http.StatusOK, "")
		rows := check["errors"].([]any)
		if check["valid"] != 3.0 || len(rows) != 1 || rows[0].(map[string]any)["column"] != "brandKit" || rows[0].(map[string]any)["row"] != 4.0 {
			t.Fatalf("bulk check = %v", check)
		}
		job := expect(t, e.postSheet(c, "kits.csv", sheet, false), http.StatusAccepted, "")
		if done := e.waitJob(c, fmt.Sprint(job["id"])); done["status"] != store.BulkDone {
			t.Fatalf("job = %v", done)
		}
		var got []string
		for _, n := range []string{"1", "2", "4"} {
			var row string
			storetest.QueryRow(t, st, `SELECT url || ' ' || fg_color || ' ' || bg_color || ' ' || dot_shape FROM qr_codes WHERE url = $1`,
				[]any{"https://example.com/" + n}, &row)
			got = append(got, row)
		}
		wantRows := []string{
			"https://example.com/1 #8B0000 #FFFFE0 rounded",
			"https://example.com/2 #8B0000 #F0F8FF rounded",
			"https://example.com/4 #000000 #FFFFFF square",
		}
		if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
			t.Errorf("bulk codes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
		}
	})
}

// checkKitStyle checks that code has kit's style fields and logo.
func checkKitStyle(t *testing.T, what string, code, kit map[string]any, logoID string) {
	t.Helper()
	for _, k := range []string{"fgColor", "bgColor", "dotShape", "cornerShape", "innerCornerShape", "enableFrame", "frameText"} {
		if code[k] != kit[k] {
			t.Errorf("%s: %s = %v, the kit's is %v", what, k, code[k], kit[k])
		}
	}
	if code["logoFilePath"] != "/logo/"+logoID {
		t.Errorf("%s: logoFilePath = %v, want the kit's logo %v", what, code["logoFilePath"], logoID)
	}
}

// countCodes counts every saved code, of any kind.
func countCodes(t *testing.T, st *store.Store) int {
	t.Helper()
	var n int
	storetest.QueryRow(t, st, `SELECT (SELECT count(*) FROM qr_codes) + (SELECT count(*) FROM dynamic_qr_codes)`, nil, &n)
	return n
}
