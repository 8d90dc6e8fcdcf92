package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store/storetest"
)

// openAPI is the document as the tests read it: its operations, and a
// JSON Schema compiler (santhosh-tekuri/jsonschema, draft 2020-12 as
// OpenAPI 3.1 uses) holding it, which asserts formats, lengths and ranges
// too.
type openAPI struct {
	OpenAPI  string                                `json:"openapi"`
	Paths    map[string]map[string]json.RawMessage `json:"paths"`
	raw      map[string]any
	compiler *jsonschema.Compiler
}

// openAPIURL names the document for the compiler; its schemas' $refs
// (#/components/…) resolve within it.
const openAPIURL = "https://squarely.test/api/v1/openapi.json"

func loadOpenAPI(t *testing.T) *openAPI {
	t.Helper()
	doc := new(openAPI)
	if err := json.Unmarshal(publicapi.Document, doc); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(publicapi.Document, &doc.raw)
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(publicapi.Document))
	if err != nil {
		t.Fatal(err)
	}
	doc.compiler = jsonschema.NewCompiler()
	doc.compiler.DefaultDraft(jsonschema.Draft2020)
	doc.compiler.AssertFormat()
	if err := doc.compiler.AddResource(openAPIURL, parsed); err != nil {
		t.Fatal(err)
	}
	return doc
}

// pointer is the JSON pointer of the path's parts.
func pointer(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// response is the response object the operation documents for status, a
// $ref to a shared one followed, and its JSON pointer.
func (d *openAPI) response(method, path string, status int) (map[string]any, string) {
	ptr := pointer("paths", path, strings.ToLower(method), "responses", strconv.Itoa(status))
	var op map[string]any
	json.Unmarshal(d.Paths[path][strings.ToLower(method)], &op)
	resp, _ := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)
	for resp != nil {
		ref, ok := resp["$ref"].(string)
		if !ok {
			break
		}
		ptr = strings.TrimPrefix(ref, "#")
		var cur any = d.raw
		for _, p := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			cur, _ = cur.(map[string]any)[strings.NewReplacer("~1", "/", "~0", "~").Replace(p)]
		}
		resp, _ = cur.(map[string]any)
	}
	return resp, ptr
}

// check validates an answer against the document: its status must be
// documented for the operation, and a JSON body must match the schema.
func (d *openAPI) check(t *testing.T, method, path string, r *response) {
	t.Helper()
	if d.Paths[path][strings.ToLower(method)] == nil {
		t.Fatalf("%s %s is not documented", method, path)
	}
	resp, ptr := d.response(method, path, r.StatusCode)
	if resp == nil {
		t.Errorf("%s %s answered %d, which is not documented (body %s)", method, path, r.StatusCode, r.body)
		return
	}
	content, _ := resp["content"].(map[string]any)
	if content == nil {
		return
	}
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	if _, ok := content[ct]; !ok {
		t.Errorf("%s %s %d: Content-Type %q not documented", method, path, r.StatusCode, ct)
		return
	}
	if ct != "application/json" {
		return
	}
	schema, err := d.compiler.Compile(openAPIURL + "#" + ptr + pointer("content", ct, "schema"))
	if err != nil {
		t.Fatalf("%s %s %d: the schema does not compile: %v", method, path, r.StatusCode, err)
	}
	body, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.body))
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return
	}
	if err := schema.Validate(body); err != nil {
		t.Errorf("%s %s %d: %v\nbody %s", method, path, r.StatusCode, err, r.body)
	}
}

// TestOpenAPIRoutes checks that the document lists exactly the /api/v1
// routes of routes.go.
func TestOpenAPIRoutes(t *testing.T) {
	doc := loadOpenAPI(t)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var routes, documented []string
	for _, m := range regexp.MustCompile(`v1\.Handle(?:Func)?\("([A-Z]+) (/api/v1/[^"]*)"`).FindAllStringSubmatch(string(src), -1) {
		routes = append(routes, m[1]+" "+m[2])
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method != "parameters" {
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(routes)
	slices.Sort(documented)
	if len(routes) < 10 || !slices.Equal(routes, documented) {
		t.Fatalf("routes.go has\n%s\nthe document has\n%s", strings.Join(routes, "\n"), strings.Join(documented, "\n"))
	}
}

// TestOpenAPIAnswers runs every documented operation and checks its
// answers against the document.
func TestOpenAPIAnswers(t *testing.T) {
	doc := loadOpenAPI(t)
	e := start(t, storetest.Open(t))
	c, _ := e.signedIn("doc@example.com")
	key, _ := e.newKey(c, "doc")
	other, _ := e.signedIn("other@example.com")
	otherKey, _ := e.newKey(other, "doc")
	check := func(method, path, concrete, body string, header ...string) *response {
		t.Helper()
		r := e.api(key, method, concrete, body, header...)
		doc.check(t, method, path, r)
		return r
	}

	served := e.api("", "GET", "/api/v1/openapi.json", "")
	if served.StatusCode != http.StatusOK || string(served.body) != string(publicapi.Document) {
		t.Fatalf("GET /api/v1/openapi.json: %d", served.StatusCode)
	}
	doc.check(t, "GET", "/api/v1/codes", e.api("", "GET", "/api/v1/codes", ""))
	const item = "/api/v1/codes/{id}"
	s := check("POST", "/api/v1/codes", "/api/v1/codes", `{"qrType":"url","url":"https://example.com"}`).json(t)
	d := check("POST", "/api/v1/codes", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com","qrData":{"url":"https://example.com"}}`, "Idempotency-Key", "k1").json(t)
	check("POST", "/api/v1/codes", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/x"}`, "Idempotency-Key", "k1")
	check("POST", "/api/v1/codes", "/api/v1/codes", `{"qrType":"url","url":""}`)
	check("POST", "/api/v1/codes", "/api/v1/codes", `{`)
	check("POST", "/api/v1/codes/batch", "/api/v1/codes/batch", `{"codes":[{"qrType":"url","url":"https://example.com/b"},{"qrType":"nope"}]}`)
	check("POST", "/api/v1/codes/batch", "/api/v1/codes/batch", `{"codes":[]}`)
	check("GET", "/api/v1/codes", "/api/v1/codes", "")
	check("GET", "/api/v1/codes", "/api/v1/codes?kind=bad", "")
	kit := idOf(expect(t, e.do(c, "POST", "/api/brand-kits", `{"name":"Doc","fgColor":"#112233","isDefault":true}`), http.StatusCreated, ""))
	check("GET", "/api/v1/brand-kits", "/api/v1/brand-kits", "")
	check("POST", "/api/v1/codes", "/api/v1/codes", `{"qrType":"url","url":"https://example.com/kit","brandKit":`+kit+`}`)
	// GS1 Digital Link products, and a gs1 code.
	const products, product = "/api/v1/gs1/products", "/api/v1/gs1/products/{gtin}"
	check("POST", "/api/v1/codes", "/api/v1/codes", `{"qrType":"gs1","gtin":"9506000134352","lot":"L1","expiry":"271231"}`)
	check("POST", products, products, gs1Product)
	check("POST", products, products, gs1Product)
	check("POST", products, products, `{"gtin":"1","name":""}`)
	check("GET", products, products, "")
	check("GET", product, products+"/9506000134352", "")
	check("GET", product, products+"/96385074", "")
	check("PUT", product, products+"/09506000134352", `{"name":"Oats","links":[{"linkType":"gs1:defaultLink","href":"https://brand.example/p","title":"Oats"}]}`)
	check("POST", product+"/lots/{lot}/recall", products+"/09506000134352/lots/L1/recall", `{"href":"https://brand.example/recall"}`)
	check("POST", product+"/lots/{lot}/recall", products+"/09506000134352/lots/L1/recall", `{"href":"ftp://x"}`)
	check("POST", products+"/import", products+"/import", "gtin,name,linkType,href\n96385074,Tea,gs1:defaultLink,https://a.example/tea\n", "Content-Type", "text/csv")
	check("POST", products+"/import", products+"/import", "gtin,linkType,href\n96385075,gs1:defaultLink,https://a.example\n", "Content-Type", "text/csv")
	check("DELETE", product, products+"/96385074", "")
	check("DELETE", product, products+"/96385074", "")
	// Hosted pages (issue 35).
	const pagesPath, pagePath = "/api/v1/pages", "/api/v1/pages/{id}"
	pg := check("POST", pagesPath, pagesPath, `{"type":"links","title":"Doc","slug":"doc-page","content":{"links":[{"label":"A","url":"https://a.example"}]}}`).json(t)
	check("POST", pagesPath, pagesPath, `{"type":"links","title":"Doc","slug":"doc-page","content":{"links":[{"label":"A","url":"https://a.example"}]}}`)
	check("POST", pagesPath, pagesPath, `{"type":"links","title":"Doc","content":{"links":[{"label":"A","url":"javascript:x"}]}}`)
	check("GET", pagesPath, pagesPath, "")
	pgPath := pagesPath + "/" + idOf(pg)
	check("GET", pagePath, pgPath, "")
	check("PUT", pagePath, pgPath, `{"type":"links","title":"Doc 2","content":{"links":[{"label":"B","url":"https://b.example"}]}}`)
	check("PUT", pagePath, pgPath, `{"type":"links","title":""}`)
	check("GET", pagePath+"/analytics", pgPath+"/analytics?from=2026-01-01", "")
	check("GET", pagePath+"/analytics", pgPath+"/analytics?format=csv", "")
	check("GET", pagePath+"/analytics", pgPath+"/analytics?from=x", "")
	pc := expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"pageId", idOf(pg), ""}, part{"name", "Door", ""}), http.StatusCreated, "")
	// A v1 code opens the page by PATCH, and the code resource shows it.
	pd := check("POST", "/api/v1/codes", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/pd"}`).json(t)
	if got := check("PATCH", item, "/api/v1/codes/"+pd["id"].(string), `{"pageId":`+idOf(pg)+`}`).json(t); got["pageId"] != pg["id"] {
		t.Errorf("PATCH pageId: %v", got)
	}
	check("PATCH", item, "/api/v1/codes/"+pd["id"].(string), `{"pageId":999999}`)
	check("PATCH", item, "/api/v1/codes/"+pd["id"].(string), `{"pageId":"x"}`)
	check("PATCH", item, "/api/v1/codes/"+s["id"].(string), `{"pageId":`+idOf(pg)+`}`)
	if got := check("PATCH", item, "/api/v1/codes/"+pd["id"].(string), `{"pageId":null}`).json(t); got["pageId"] != nil {
		t.Errorf("PATCH pageId null: %v", got)
	}
	check("DELETE", pagePath, pgPath, "")
	expect(t, e.do(c, "DELETE", "/api/dynamic-qrcodes/"+idOf(pc), ""), http.StatusNoContent, "")
	check("DELETE", pagePath, pgPath, "")
	check("GET", pagePath, pgPath, "")
	for _, id := range []string{s["id"].(string), d["id"].(string)} {
		p := "/api/v1/codes/" + id
		check("GET", item, p, "")
		check("PATCH", item, p, `{"name":"New name"}`)
		check("PATCH", item, p, `{"destination":"https://example.com/next"}`)
		check("PATCH", item, p, `{"brandKit":`+kit+`}`)
		check("PATCH", item, p, `{"brandKit":999999}`)
		check("GET", item+"/image", p+"/image?brandKit="+kit, "")
		check("POST", item+"/pause", p+"/pause", "")
		check("POST", item+"/resume", p+"/resume", "")
		check("PUT", item+"/routing", p+"/routing", `{"rules":[{"when":{"os":["ios"]},"destination":"https://example.com/ios"}],"scanLimit":10}`)
		check("PUT", item+"/routing", p+"/routing", `{"scanLimit":0}`)
		check("PUT", item+"/routing", p+"/routing", `null`)
		for _, f := range []string{"png", "svg", "pdf", "bmp"} {
			check("GET", item+"/image", p+"/image?format="+f, "")
		}
		check("GET", item+"/analytics", p+"/analytics", "")
		check("GET", item+"/scans.csv", p+"/scans.csv", "")
		doc.check(t, "GET", item, e.api(otherKey, "GET", p, ""))
		check("DELETE", item, p, "")
		check("GET", item, p, "")
	}
}

// TestOpenAPIValidatorChecks: the validator the answers go through refuses
// what the document rules out, formats, lengths and ranges included, so a
// passing TestOpenAPIAnswers means something.
func TestOpenAPIValidatorChecks(t *testing.T) {
	doc := loadOpenAPI(t)
	e := start(t, storetest.Open(t))
	c, _ := e.signedIn("strict@example.com")
	key, _ := e.newKey(c, "k")
	r := e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com","qrData":{"url":"https://example.com"}}`)
	doc.check(t, "POST", "/api/v1/codes", r) // the real answer passes
	_, ptr := doc.response("POST", "/api/v1/codes", r.StatusCode)
	schema, err := doc.compiler.Compile(openAPIURL + "#" + ptr + pointer("content", "application/json", "schema"))
	if err != nil {
		t.Fatal(err)
	}
	for field, bad := range map[string]any{
		"createdAt":    "yesterday",
		"name":         strings.Repeat("n", 101),
		"fgColor":      "red",
		"scanCount":    -1,
		"destination":  "not a uri",
		"shortCode":    "no spaces allowed",
		"dotShape":     "star",
		"undocumented": true,
	} {
		var body map[string]any
		json.Unmarshal(r.body, &body)
		body[field] = bad
		b, _ := json.Marshal(body)
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err := schema.Validate(v); err == nil {
			t.Errorf("%s = %v passes the schema", field, bad)
		}
	}
}

// Every /api/v1 route's scope in routes.go is its operation's security
// requirement in the document, so a client can tell which scopes a key
// needs.
func TestOpenAPIScopes(t *testing.T) {
	doc := loadOpenAPI(t)
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	consts, err := os.ReadFile("publicapi/scopes.go")
	if err != nil {
		t.Fatal(err)
	}
	scopes := map[string]string{} // constant name → scope
	for _, m := range regexp.MustCompile(`(Scope\w+)\s*=\s*"([^"]+)"`).FindAllStringSubmatch(string(consts), -1) {
		scopes[m[1]] = m[2]
	}
	n := 0
	for _, m := range regexp.MustCompile(`v1\.Handle\("([A-Z]+) (/api/v1/[^"]*)", key\(auth\.Perm\w+, publicapi\.(\w+)`).FindAllStringSubmatch(string(src), -1) {
		n++
		want, ok := scopes[m[3]]
		if !ok {
			t.Errorf("%s %s: %s is not a scope", m[1], m[2], m[3])
			continue
		}
		var op struct {
			Security []map[string][]string `json:"security"`
		}
		json.Unmarshal(doc.Paths[m[2]][strings.ToLower(m[1])], &op)
		if len(op.Security) != 1 || !slices.Equal(op.Security[0]["apiKey"], []string{want}) {
			t.Errorf("%s %s: security %v, want apiKey [%s]", m[1], m[2], op.Security, want)
		}
	}
	if routes := len(regexp.MustCompile(`v1\.Handle(?:Func)?\("[A-Z]+ /api/v1/`).FindAllString(string(src), -1)); n != routes-1 || n < 20 {
		t.Errorf("%d of %d keyed routes name a scope", n, routes-1) // openapi.json itself is public
	}
}
