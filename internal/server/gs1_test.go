package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

const (
	testGTIN  = "09506000134352"
	brandHost = "qr.brand.example"
)

// gs1Product is a product with a link of each type the resolver tests ask
// for, pip in three languages, and a lot of its own.
const gs1Product = `{"gtin":"9506000134352","name":"Oat cereal","links":[
	{"linkType":"gs1:defaultLink","href":"https://brand.example/p","title":"Product"},
	{"linkType":"gs1:pip","href":"https://brand.example/en","title":"Info","language":"en"},
	{"linkType":"gs1:pip","href":"https://brand.example/fr","title":"Infos","language":"fr"},
	{"linkType":"https://gs1.org/voc/pip","href":"https://brand.example/es-mx","title":"Info MX","language":"es-MX"},
	{"linkType":"gs1:recallStatus","href":"https://brand.example/no-recall","title":"No recall"},
	{"linkType":"gs1:instructions","href":"https://brand.example/manual","title":"Manual"},
	{"linkType":"gs1:certificationInfo","href":"https://brand.example/cert","title":"Certificates"},
	{"linkType":"gs1:review","href":"https://brand.example/review","title":"Review","forward":true}],
	"lots":[{"lot":"L7","links":[{"linkType":"gs1:instructions","href":"https://brand.example/manual-l7","title":"Manual (L7)"}]}]}`

// verifiedDomain gives the workspace a verified domain pointing here and
// returns its id.
func verifiedDomain(t *testing.T, st *store.Store, ws int64, host string) int64 {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	d := &store.Domain{Domain: host, Token: "tok-" + host}
	if err := st.CreateDomain(ctx, ws, d, 10, now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordDomainCheck(ctx, ws, d.ID, "dns", "", now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordDomainPointing(ctx, ws, d.ID, "", now); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

// validDigitalLinks checks every URI with GS1's digital-link.js
// (e2e/tools/validate-digital-link.cjs); without node or the package the
// test skips, or fails under CI=true.
func validDigitalLinks(t *testing.T, uris ...string) {
	t.Helper()
	node := testenv.Command(t, "node")
	cmd := exec.Command(node, filepath.Join("..", "..", "e2e", "tools", "validate-digital-link.cjs"))
	cmd.Stdin = strings.NewReader(strings.Join(uris, "\n"))
	out, err := cmd.CombinedOutput()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.ExitCode() == 3 {
		testenv.Need(t, false, "digital-link.js is not installed (cd e2e && npm ci)")
	}
	if err != nil {
		t.Errorf("digital-link.js refuses a URI: %v\n%s", err, out)
	}
}

// Products: editors keep them, viewers read them, GS1's rules refuse bad
// input by field and store nothing, a recall is audited.
func TestGS1ProductsAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed, viewer := f.members["editor"], f.members["viewer"]
		// newTeam lists testGTIN; this test's own products are the others.
		expect(t, e.do(ed, "DELETE", "/api/gs1/products/"+testGTIN, ""), http.StatusNoContent, "")
		expect(t, e.do(e.browser(), "GET", "/api/gs1/products", ""), http.StatusUnauthorized, "")
		expect(t, e.do(viewer, "POST", "/api/gs1/products", gs1Product), http.StatusForbidden, "")

		bad := expect(t, e.do(ed, "POST", "/api/gs1/products",
			`{"gtin":"9506000134353","name":"","links":[{"linkType":"gs1:pip","href":"javascript:alert(1)","language":"en_GB"}],"lots":[{"lot":"L#1","links":[]}]}`),
			http.StatusBadRequest, gs1.MsgGTINCheckDigit)
		errs, _ := bad["errors"].(map[string]any)
		for k, want := range map[string]string{
			"gtin": gs1.MsgGTINCheckDigit, "name": "Product name is required", "links[0].href": "Please enter a valid URL",
			"links[0].language": "Language must be a language tag such as en or fr-CA",
			"lots[0].lot":       "AI (10): A non-CSET 82 character was found where a CSET 82 character is expected.",
		} {
			if errs[k] != want {
				t.Errorf("errors[%s] = %v, want %q", k, errs[k], want)
			}
		}
		if storetest.Count(t, st, "gs1_products") != 0 {
			t.Fatal("a refused product was stored")
		}
		p := expect(t, e.do(ed, "POST", "/api/gs1/products", gs1Product), http.StatusCreated, "")
		if p["gtin"] != testGTIN || p["name"] != "Oat cereal" || len(p["links"].([]any)) != 8 {
			t.Errorf("created %v", p)
		}
		if l := p["links"].([]any)[3].(map[string]any); l["linkType"] != "gs1:pip" {
			t.Errorf("a vocabulary URI link type is kept as %v", l["linkType"])
		}
		expect(t, e.do(ed, "POST", "/api/gs1/products", gs1Product), http.StatusConflict, "This workspace already has a product with this GTIN")
		// The outsider's workspace does not see it, and may list the GTIN itself.
		expect(t, e.do(f.outsider, "GET", "/api/gs1/products/"+testGTIN, ""), http.StatusNotFound, "Product not found")
		var list []map[string]any
		if r := e.do(viewer, "GET", "/api/gs1/products", ""); json.Unmarshal(r.body, &list) != nil || len(list) != 1 {
			t.Fatalf("the viewer lists %s", r.body)
		}
		// A 13-digit GTIN in the path names the same product.
		expect(t, e.do(viewer, "GET", "/api/gs1/products/9506000134352", ""), http.StatusOK, "")
		expect(t, e.do(viewer, "GET", "/api/gs1/products/123", ""), http.StatusNotFound, "Product not found")

		put := expect(t, e.do(ed, "PUT", "/api/gs1/products/"+testGTIN,
			`{"name":"Oat cereal 500 g","links":[{"linkType":"gs1:defaultLink","href":"https://brand.example/p2","title":"Product"}],"lots":[]}`),
			http.StatusOK, "")
		if put["name"] != "Oat cereal 500 g" || len(put["lots"].([]any)) != 0 {
			t.Errorf("updated %v", put)
		}
		expect(t, e.do(ed, "PUT", "/api/gs1/products/"+testGTIN, `{"gtin":"96385074","name":"X","links":[{"linkType":"gs1:defaultLink","href":"https://brand.example"}]}`),
			http.StatusBadRequest, "The GTIN of a product cannot change: create a new product")
		expect(t, e.do(viewer, "POST", "/api/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"https://brand.example/recall"}`), http.StatusForbidden, "")
		expect(t, e.do(ed, "POST", "/api/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"ftp://x"}`), http.StatusBadRequest, "Please enter a valid URL")
		expect(t, e.do(ed, "POST", "/api/gs1/products/"+testGTIN+"/lots/L%231/recall", `{"href":"https://brand.example/recall"}`),
			http.StatusBadRequest, "AI (10): A non-CSET 82 character was found where a CSET 82 character is expected.")
		rec := expect(t, e.do(ed, "POST", "/api/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"https://brand.example/recall"}`), http.StatusOK, "")
		if lots := rec["lots"].([]any); len(lots) != 1 || lots[0].(map[string]any)["lot"] != "L1" {
			t.Errorf("recalled %v", rec)
		}
		log := expect(t, e.do(f.members["owner"], "GET", fmt.Sprintf("/api/workspaces/%d/audit-log", f.ws), ""), http.StatusOK, "")
		if !strings.Contains(fmt.Sprint(log), "gs1_lot.recalled") || !strings.Contains(fmt.Sprint(log), "https://brand.example/recall") {
			t.Errorf("the recall is not in the audit log: %v", log)
		}
		expect(t, e.do(ed, "POST", "/api/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"https://brand.example/recall"}`), http.StatusOK, "")

		// CSV import: problems by row and nothing saved; then created and replaced.
		csvReq := func(body string) *response {
			return e.do(ed, "POST", "/api/gs1/products/import", body, "Content-Type", "text/csv")
		}
		expect(t, csvReq("gtin,linkType,href\n96385074,gs1:defaultLink,https://a.example\n96385075,gs1:defaultLink,https://a.example\n"),
			http.StatusBadRequest, "Row 3: "+gs1.MsgGTINCheckDigit)
		expect(t, csvReq("gtin,name,linkType,href\n96385074,Tea,gs1:pip,https://a.example\n"),
			http.StatusBadRequest, "Row 2: A product needs a gs1:defaultLink: the link a scan opens when no other fits")
		expect(t, csvReq("gtin,name,linkType,href\n96385074,Tea,gs1:defaultLink,https://a.example\n96385074,,gs1:pip,notaurl\n"),
			http.StatusBadRequest, "Row 3: Please enter a valid URL")
		expect(t, csvReq("gtin,colour\n"), http.StatusBadRequest, `Unknown column "colour": the columns are gtin, name, lot, linkType, href, title, language, context`)
		// Text PostgreSQL cannot store (it answered 500) or that is no text.
		expect(t, csvReq("gtin,name,linkType,href\n09506000134352,Pro\xffduct,gs1:defaultLink,https://a.example\n"),
			http.StatusBadRequest, "Row 2, column 2 is not UTF-8 text, or holds a NUL character: save the file as UTF-8 CSV")
		expect(t, csvReq("gtin,name,linkType,href,title\n09506000134352,Oats,gs1:defaultLink,https://a.example,ti\x00tle\n"),
			http.StatusBadRequest, "Row 2, column 5 is not UTF-8 text, or holds a NUL character: save the file as UTF-8 CSV")
		expect(t, csvReq("gtin,name,linkType,href,title\n09506000134352,Oats,gs1:defaultLink,https://a.example,ti\x01tle\n"),
			http.StatusBadRequest, "Row 2: Title must not contain control characters")
		expect(t, csvReq("gtin,name,linkType,href\n09506000134352,Oa\x1bts,gs1:defaultLink,https://a.example\n"),
			http.StatusBadRequest, "Row 2: Product name must not contain control characters")
		if storetest.Count(t, st, "gs1_products") != 1 {
			t.Fatal("a refused import saved products")
		}
		got := expect(t, csvReq("gtin,name,lot,linkType,href,title,language\n"+
			"96385074,Tea,,gs1:defaultLink,https://a.example/tea,Tea,\n"+
			"96385074,,B2,gs1:recallStatus,https://a.example/tea-recall,Recall,en\n"+
			"9506000134352,Oat cereal,,gs1:defaultLink,https://brand.example/p3,Product,\n"), http.StatusOK, "")
		if got["created"] != 1.0 || got["updated"] != 1.0 {
			t.Errorf("import: %v", got)
		}
		tea := expect(t, e.do(viewer, "GET", "/api/gs1/products/96385074", ""), http.StatusOK, "")
		if tea["gtin"] != "00000096385074" || len(tea["lots"].([]any)) != 1 {
			t.Errorf("imported %v", tea)
		}
		expect(t, e.do(ed, "DELETE", "/api/gs1/products/96385074", ""), http.StatusNoContent, "")
		expect(t, e.do(ed, "DELETE", "/api/gs1/products/96385074", ""), http.StatusNotFound, "Product not found")
	})
}

// resolve asks the resolver on host ("" for the base URL).
func (e *env) resolve(host, path string, header ...string) *response {
	e.t.Helper()
	if host == "" {
		return e.do(e.browser(), "GET", path, "", header...)
	}
	req, err := http.NewRequest("GET", e.srv.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.browser().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return &response{Response: resp, body: []byte(b.String())}
}

// The resolver: 307 to the link of each type, language by
// Accept-Language, a lot's own link first, the linkset by ?linkType=all
// and by Accept, GS1's error shape, and on a workspace's domain that
// workspace's products; scans counted per GTIN, lot and link type.
func TestGS1Resolver(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		expect(t, e.do(alice, "POST", "/api/gs1/products", gs1Product), http.StatusCreated, "")
		// Bob lists the same GTIN later, and answers it on his own domain.
		bob, bobID := e.signedIn("bob@example.com")
		expect(t, e.do(bob, "POST", "/api/gs1/products",
			`{"gtin":"09506000134352","name":"Bob's","links":[{"linkType":"gs1:defaultLink","href":"https://bob.example/p"}]}`), http.StatusCreated, "")
		verifiedDomain(t, st, storetest.Personal(t, st, bobID), brandHost)

		for _, c := range []struct {
			path, lang, want string
		}{
			{"/01/09506000134352", "", "https://brand.example/p"},
			{"/01/9506000134352", "", "https://brand.example/p"},
			{"/01/09506000134352?linkType=gs1:pip", "fr-CA, en;q=0.5", "https://brand.example/fr"},
			{"/01/09506000134352?linkType=gs1:pip", "de, es;q=0.9, en;q=0.8", "https://brand.example/es-mx"},
			{"/01/09506000134352?linkType=gs1:pip", "en-GB", "https://brand.example/en"},
			{"/01/09506000134352?linkType=https://gs1.org/voc/pip", "ja", "https://brand.example/en"},
			{"/01/09506000134352?linkType=gs1:recallStatus", "", "https://brand.example/no-recall"},
			{"/01/09506000134352?linkType=gs1:instructions", "", "https://brand.example/manual"},
			{"/01/09506000134352?linkType=gs1:certificationInfo", "", "https://brand.example/cert"},
			{"/01/09506000134352/10/L7?linkType=gs1:instructions", "", "https://brand.example/manual-l7"},
			{"/01/09506000134352/10/L8?linkType=gs1:instructions", "", "https://brand.example/manual"},
			{"/01/09506000134352/10/L7/21/S1?linkType=gs1:review&17=261231", "", "https://brand.example/review?10=L7&17=261231&21=S1"},
			// A forwarding link passes on the campaign's parameters too; another keeps its href.
			{"/01/09506000134352?linkType=gs1:review&utm_source=pack&utm_source=shelf", "", "https://brand.example/review?utm_source=pack&utm_source=shelf"},
			{"/01/09506000134352/10/L7?utm_campaign=spring&linkType=gs1:review", "", "https://brand.example/review?10=L7&utm_campaign=spring"},
			{"/01/09506000134352?linkType=gs1:instructions&utm_source=pack", "", "https://brand.example/manual"},
			{"/01/09506000134352?linkType=gs1:smpc", "", "https://brand.example/p"},
		} {
			r := e.resolve("", c.path, "Accept-Language", c.lang)
			if r.StatusCode != http.StatusTemporaryRedirect || r.Header.Get("Location") != c.want {
				t.Errorf("%s (%s): %d %q, want 307 %q", c.path, c.lang, r.StatusCode, r.Header.Get("Location"), c.want)
			}
		}
		// Bob's domain answers Bob's product; an unknown GTIN there is 404.
		r := e.resolve(brandHost, "/01/09506000134352")
		if r.StatusCode != http.StatusTemporaryRedirect || r.Header.Get("Location") != "https://bob.example/p" {
			t.Errorf("on Bob's domain: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		if r.Header.Get("Link") != `</01/09506000134352?linkType=all>; rel="linkset"; type="application/linkset+json"` {
			t.Errorf("Link header %q", r.Header.Get("Link"))
		}

		// The linkset (RFC 9264 §4.2), by linkType=all and by Accept.
		for _, r := range []*response{
			e.resolve("", "/01/09506000134352/10/L7?linkType=all"),
			e.resolve("", "/01/09506000134352/10/L7", "Accept", "application/linkset+json"),
		} {
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/linkset+json" {
				t.Fatalf("linkset: %d %q %s", r.StatusCode, r.Header.Get("Content-Type"), r.body)
			}
			var doc struct {
				Linkset []map[string]json.RawMessage `json:"linkset"`
			}
			if err := json.Unmarshal(r.body, &doc); err != nil || len(doc.Linkset) != 1 {
				t.Fatalf("linkset %s: %v", r.body, err)
			}
			ctx := doc.Linkset[0]
			if string(ctx["anchor"]) != `"`+testConfig(t).BaseURL+`/01/09506000134352/10/L7"` {
				t.Errorf("anchor %s", ctx["anchor"])
			}
			var instructions []map[string]any
			json.Unmarshal(ctx["https://gs1.org/voc/instructions"], &instructions)
			if len(instructions) != 2 || instructions[0]["href"] != "https://brand.example/manual-l7" {
				t.Errorf("instructions %v", instructions)
			}
			var pip []map[string]any
			json.Unmarshal(ctx["https://gs1.org/voc/pip"], &pip)
			if len(pip) != 3 || fmt.Sprint(pip[1]["hreflang"]) != "[fr]" {
				t.Errorf("pip %v", pip)
			}
			for k := range ctx {
				if k != "anchor" && !strings.HasPrefix(k, "https://gs1.org/voc/") {
					t.Errorf("member %q is neither the anchor nor a GS1 link type", k)
				}
			}
		}

		// Errors in the problem-details shape.
		for path, want := range map[string]int{
			"/01/09520123456788":            http.StatusNotFound,
			"/01/09506000134353":            http.StatusBadRequest,
			"/01/09506000134352/21/1/10/L7": http.StatusBadRequest,
		} {
			r := e.resolve("", path)
			var p map[string]any
			if r.StatusCode != want || r.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(r.body, &p) != nil || p["status"] != float64(want) || p["detail"] == "" {
				t.Errorf("%s: %d %q %s", path, r.StatusCode, r.Header.Get("Content-Type"), r.body)
			}
		}
		if r := e.resolve(brandHost, "/01/09520123456788"); r.StatusCode != http.StatusNotFound {
			t.Errorf("an unknown GTIN on a domain: %d", r.StatusCode)
		}

		// Scans are counted per GTIN, lot and link type.
		deadline := time.Now().Add(5 * time.Second)
		for {
			m := expect(t, e.do(alice, "GET", "/api/gs1/analytics?from=2026-03-01&to=2026-03-01", ""), http.StatusOK, "")
			s := fmt.Sprint(m["scans"])
			if strings.Contains(s, "gtin:09506000134352 linkType:gs1:pip lot: name:Oat cereal scans:4") &&
				strings.Contains(s, "gtin:09506000134352 linkType:gs1:instructions lot:L7 name:Oat cereal scans:1") &&
				strings.Contains(s, "gtin:09506000134352 linkType:gs1:defaultLink lot: name:Oat cereal scans:3") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("scan counts: %v", m)
			}
			time.Sleep(100 * time.Millisecond)
		}
		b := expect(t, e.do(bob, "GET", "/api/gs1/analytics?from=2026-03-01&to=2026-03-01", ""), http.StatusOK, "")
		if len(b["scans"].([]any)) == 0 {
			deadline := time.Now().Add(5 * time.Second)
			for len(b["scans"].([]any)) == 0 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				b = expect(t, e.do(bob, "GET", "/api/gs1/analytics?from=2026-03-01&to=2026-03-01", ""), http.StatusOK, "")
			}
		}
		if fmt.Sprint(b["scans"]) != "[map[gtin:09506000134352 linkType:gs1:defaultLink lot: name:Bob's scans:1]]" {
			t.Errorf("Bob's counts: %v", b["scans"])
		}
		expect(t, e.do(alice, "GET", "/api/gs1/analytics?from=March", ""), http.StatusBadRequest, "from must be a date, YYYY-MM-DD")
		expect(t, e.do(alice, "GET", "/api/gs1/analytics?from=0000-01-01", ""), http.StatusBadRequest, "Dates run from 2000-01-01 to 9999-12-30")
		expect(t, e.do(alice, "GET", "/api/gs1/analytics?to=9999-12-31", ""), http.StatusBadRequest, "Dates run from 2000-01-01 to 9999-12-30")
	})
}

// A gs1 code: generated on the base URL or a verified domain, the exact
// URI decoded by zbar, ZXing and OpenCV, every URI valid for GS1's digital-link.js,
// GS1's wording for bad fields, and the preflight's GS1 verdict.
func TestGS1Code(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t).withOpenCV()
		c, uid := e.signedIn("brand@example.com")
		domainID := verifiedDomain(t, st, storetest.Personal(t, st, uid), brandHost)
		base := testConfig(t).BaseURL
		var uris []string
		for _, tc := range []struct {
			fields map[string]any
			want   string
		}{
			{map[string]any{"gtin": "9520123456788", "lot": "ABC/123", "serial": "12345", "expiry": "180426"},
				base + "/01/09520123456788/10/ABC%2F123/21/12345?17=180426"},
			{map[string]any{"gtin": "96385074", "bestBefore": "261200", "domainId": domainID},
				"https://" + brandHost + "/01/00000096385074?15=261200"},
			{map[string]any{"gtin": "036000291452", "cpv": "2A", "lot": "A+B(1)", "netWeightKg": "001250", "domainId": fmt.Sprint(domainID)},
				"https://" + brandHost + "/01/00036000291452/22/2A/10/A%2BB%281%29?3103=001250"},
		} {
			tc.fields["qrType"] = "gs1"
			m := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, tc.fields)), http.StatusOK, "")
			if m["data"] != tc.want {
				t.Errorf("%v: %q, want %q", tc.fields, m["data"], tc.want)
				continue
			}
			if got := dec.read([]byte(m["qrCode"].(string)), "svg"); got != tc.want {
				t.Errorf("the code decodes to %q, want %q", got, tc.want)
			}
			uris = append(uris, tc.want)
		}
		validDigitalLinks(t, uris...)

		for _, tc := range []struct {
			fields      map[string]any
			status      int
			field, want string
		}{
			{map[string]any{"gtin": "9520123456789"}, 400, "gtin", gs1.MsgGTINCheckDigit},
			{map[string]any{"gtin": "9520123456788", "lot": "ä"}, 400, "lot", "AI (10): A non-CSET 82 character was found where a CSET 82 character is expected."},
			{map[string]any{"gtin": "9520123456788", "expiry": "261301"}, 400, "expiry", "AI (17): The date contains an illegal month of the year."},
			{map[string]any{"gtin": "9520123456788", "domainId": domainID + 100}, 404, "", msgDomainMissing},
		} {
			tc.fields["qrType"] = "gs1"
			m := expect(t, e.do(c, "POST", "/api/generate-qrcode", body(t, tc.fields)), tc.status, tc.want)
			if tc.field != "" && m["errors"].(map[string]any)[tc.field] != tc.want {
				t.Errorf("%v: errors %v", tc.fields, m["errors"])
			}
		}

		// The preflight's GS1 verdict: fine at 25 mm, too small at 10 mm, and
		// none for other types.
		pre := func(size float64, extra map[string]any) map[string]any {
			m := map[string]any{"qrType": "gs1", "gtin": "9520123456788", "lot": "ABC123", "sizeMm": size}
			for k, v := range extra {
				m[k] = v
			}
			return expect(t, e.do(c, "POST", "/api/preflight", body(t, m)), http.StatusOK, "")
		}
		ok := pre(25, nil)["gs1"].(map[string]any)
		if ok["ok"] != true || ok["xDimensionMm"].(float64) < 0.375 || ok["xDimensionMm"].(float64) > 0.99 || len(ok["problems"].([]any)) != 0 {
			t.Errorf("25 mm: %v", ok)
		}
		small := pre(10, nil)["gs1"].(map[string]any)
		if small["ok"] != false || !strings.Contains(fmt.Sprint(small["problems"]), "under the 0.375 mm minimum") {
			t.Errorf("10 mm: %v", small)
		}
		if _, has := pre(25, map[string]any{"qrType": "url", "url": "https://example.com"})["gs1"]; has {
			t.Error("a url code got a GS1 verdict")
		}
	})
}

// A recall made on one instance reaches the other's resolver cache within
// a second, as redirects do (TestChangesReachEveryInstance): the store
// announces the GTIN and each instance's listener drops it.
func TestGS1RecallReachesEveryInstance(t *testing.T) {
	instance := fleet(t)
	a, b := instance(), instance()
	c, _ := a.signedIn("recall@example.com")
	gtin := "10614141000415"
	expect(t, a.do(c, "POST", "/api/gs1/products",
		`{"gtin":"`+gtin+`","name":"Soup","links":[{"linkType":"gs1:defaultLink","href":"https://soup.example/p"}]}`), http.StatusCreated, "")
	lotPath := "/01/" + gtin + "/10/B42"
	if r := b.resolve("", lotPath); r.Header.Get("Location") != "https://soup.example/p" {
		t.Fatalf("before the recall, b answers %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	expect(t, a.do(c, "POST", "/api/gs1/products/"+gtin+"/lots/B42/recall", `{"href":"https://soup.example/recall"}`), http.StatusOK, "")
	deadline := time.Now().Add(time.Second)
	for {
		r := b.resolve("", lotPath)
		if r.Header.Get("Location") == "https://soup.example/recall" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 1 s instance b still answers %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Other lots, and the recall status asked for, follow.
	if r := b.resolve("", "/01/"+gtin+"/10/B43"); r.Header.Get("Location") != "https://soup.example/p" {
		t.Errorf("another lot: %q", r.Header.Get("Location"))
	}
	if r := b.resolve("", lotPath+"?linkType=gs1:recallStatus"); r.Header.Get("Location") != "https://soup.example/recall" {
		t.Errorf("recallStatus: %q", r.Header.Get("Location"))
	}
	expect(t, a.do(c, "DELETE", "/api/gs1/products/"+gtin, ""), http.StatusNoContent, "")
	deadline = time.Now().Add(time.Second)
	for b.resolve("", lotPath).StatusCode != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatal("after 1 s instance b still answers a deleted product")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The public API serves the products with the products scopes: a key
// without products:write reads them and may not change them; a gs1 code
// made through /api/v1/codes is the same Digital Link as the app's.
func TestGS1PublicAPI(t *testing.T) {
	e := start(t, storetest.Open(t))
	c, _ := e.signedIn("api@example.com")
	key, _ := e.newKey(c, "all")
	reader := expect(t, e.do(c, "POST", "/api/api-keys", `{"name":"reader","scopes":["products:read"]}`), http.StatusCreated, "")["key"].(string)
	p := expect(t, e.api(key, "POST", "/api/v1/gs1/products", gs1Product), http.StatusCreated, "")
	if p["gtin"] != testGTIN {
		t.Errorf("created %v", p)
	}
	expect(t, e.api(reader, "GET", "/api/v1/gs1/products/"+testGTIN, ""), http.StatusOK, "")
	r := expect(t, e.api(reader, "POST", "/api/v1/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"https://brand.example/recall"}`), http.StatusForbidden, "")
	if r["code"] != "insufficient_scope" {
		t.Errorf("a read-only key recalling: %v", r)
	}
	expect(t, e.api(key, "POST", "/api/v1/gs1/products/"+testGTIN+"/lots/L1/recall", `{"href":"https://brand.example/recall"}`), http.StatusOK, "")
	if r := e.resolve("", "/01/"+testGTIN+"/10/L1"); r.Header.Get("Location") != "https://brand.example/recall" {
		t.Errorf("after a recall through the API: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	code := expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"gs1","gtin":"9506000134352","lot":"L1"}`), http.StatusCreated, "")
	if want := testConfig(t).BaseURL + "/01/09506000134352/10/L1"; code["content"] != want && code["data"] != want {
		t.Errorf("a gs1 code through the API: %v", code)
	}
	expect(t, e.api(key, "POST", "/api/v1/codes", `{"qrType":"gs1","gtin":"9506000134353"}`), http.StatusBadRequest, gs1.MsgGTINCheckDigit)
}

// The resolver reads no more of a request than a Digital Link holds: a
// path past the GTIN and its three key qualifiers, and an Accept or
// Accept-Language header over 4096 bytes, are 400 problems. A megabyte's
// Accept-Language took 1.5 s and 73 MB against a product's 50 links.
func TestGS1ResolverRefusesOversizedRequests(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		expect(t, e.do(alice, "POST", "/api/gs1/products", gs1Product), http.StatusCreated, "")
		pip := "/01/09506000134352?linkType=gs1:pip"
		problem := func(r *response, want int, detail string) {
			t.Helper()
			var p map[string]any
			if r.StatusCode != want || r.Header.Get("Content-Type") != "application/problem+json" ||
				json.Unmarshal(r.body, &p) != nil || !strings.Contains(fmt.Sprint(p["detail"]), detail) {
				t.Errorf("%d %q %.300s, want %d %q", r.StatusCode, r.Header.Get("Content-Type"), r.body, want, detail)
			}
		}
		// At the limit the header is read as before.
		lang := strings.Repeat("x,", 2046) + "fr;q=0.9"
		if r := e.resolve("", pip, "Accept-Language", lang[len(lang)-4096:]); r.StatusCode != http.StatusTemporaryRedirect ||
			r.Header.Get("Location") != "https://brand.example/fr" {
			t.Errorf("4096 bytes of Accept-Language: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		start := time.Now()
		problem(e.resolve("", pip, "Accept-Language", "x"+lang[len(lang)-4096:]), http.StatusBadRequest,
			"The Accept-Language header must be at most 4096 bytes")
		problem(e.resolve("", pip, "Accept-Language", strings.Repeat("a,", 400_000)), http.StatusBadRequest,
			"The Accept-Language header must be at most 4096 bytes")
		problem(e.resolve("", "/01/09506000134352", "Accept", strings.Repeat("a/b;q=1,", 100_000)), http.StatusBadRequest,
			"The Accept header must be at most 4096 bytes")
		problem(e.resolve("", "/01/09506000134352"+strings.Repeat("/a", 400_000)), http.StatusBadRequest,
			"at most its key qualifiers (22), (10) and (21)")
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("four oversized requests took %v", d)
		}
		// An unknown GTIN reads neither header.
		problem(e.resolve("", "/01/09520123456788", "Accept-Language", strings.Repeat("a,", 4000)), http.StatusNotFound, "No product")
	})
}

// Scans of made-up lots cannot grow the analytics: past
// store.GS1UnlistedLots unlisted lots of a GTIN a day, the next count
// under the other lots (marked otherLots), a listed lot keeps its row,
// every scan is counted; and the answer holds at most limit rows, the
// most scanned, with otherRows and otherScans saying what it leaves off.
func TestGS1AnalyticsBounded(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		alice, _ := e.signedIn("alice@example.com")
		expect(t, e.do(alice, "POST", "/api/gs1/products", gs1Product), http.StatusCreated, "")
		const madeUp, listed = 150, 3
		for i := range madeUp {
			if r := e.resolve("", fmt.Sprintf("/01/09506000134352/10/M%03d", i)); r.StatusCode != http.StatusTemporaryRedirect {
				t.Fatalf("lot M%03d: %d", i, r.StatusCode)
			}
		}
		for range listed {
			e.resolve("", "/01/09506000134352/10/L7")
		}
		// No scan names the other lots: their space is not a lot's character.
		if r := e.resolve("", "/01/09506000134352/10/(other%20lots)"); r.StatusCode != http.StatusBadRequest {
			t.Errorf("a lot named as the other lots: %d", r.StatusCode)
		}
		type answer struct {
			Scans []struct {
				GTIN, Name, Lot, LinkType string
				Scans                     int64
				OtherLots                 bool
			}
			OtherRows, OtherScans int64
		}
		read := func(query string) answer {
			t.Helper()
			r := e.do(alice, "GET", "/api/gs1/analytics?from=2026-03-01&to=2026-03-01"+query, "")
			expect(t, r, http.StatusOK, "")
			var a answer
			if err := json.Unmarshal(r.body, &a); err != nil {
				t.Fatal(err)
			}
			return a
		}
		total := func(a answer) int64 {
			n := a.OtherScans
			for _, s := range a.Scans {
				n += s.Scans
			}
			return n
		}
		deadline := time.Now().Add(10 * time.Second)
		a := read("&limit=1000")
		for total(a) < madeUp+listed && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			a = read("&limit=1000")
		}
		byName, other := 0, int64(0)
		for _, s := range a.Scans {
			switch {
			case s.OtherLots:
				other += s.Scans
				if s.Lot != store.GS1OtherLots || s.Name != "Oat cereal" {
					t.Errorf("the other lots' row: %+v", s)
				}
			case s.Lot == "L7":
				if s.Scans != listed {
					t.Errorf("the listed lot: %+v", s)
				}
			default:
				byName++
			}
		}
		if total(a) != madeUp+listed || a.OtherRows != 0 || a.OtherScans != 0 || byName != store.GS1UnlistedLots || other != madeUp-store.GS1UnlistedLots {
			t.Fatalf("%d scans (want %d), %d made-up lots by name, %d under the other lots, %d rows, other rows %d",
				total(a), madeUp+listed, byName, other, len(a.Scans), a.OtherRows)
		}
		rows := int64(len(a.Scans))

		// Capped: the most scanned first, the rest summed.
		a = read("&limit=2")
		if len(a.Scans) != 2 || !a.Scans[0].OtherLots || a.Scans[1].Lot != "L7" || a.OtherRows != rows-2 || total(a) != madeUp+listed {
			t.Errorf("limit=2: %d rows, first %+v, other rows %d (want %d), %d scans", len(a.Scans), a.Scans[0], a.OtherRows, rows-2, total(a))
		}
		a = read("")
		if int64(len(a.Scans)) != min(rows, 100) || a.OtherRows != rows-int64(len(a.Scans)) || total(a) != madeUp+listed {
			t.Errorf("by default: %d rows, other rows %d, %d scans", len(a.Scans), a.OtherRows, total(a))
		}
		for _, q := range []string{"0", "1001", "ten"} {
			expect(t, e.do(alice, "GET", "/api/gs1/analytics?limit="+q, ""), http.StatusBadRequest, "limit must be a number from 1 to 1000")
		}
	})
}
