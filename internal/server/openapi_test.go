package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store/storetest"
)

// openAPI is the parts of the document the test reads.
type openAPI struct {
	OpenAPI string                                `json:"openapi"`
	Paths   map[string]map[string]json.RawMessage `json:"paths"`
	raw     map[string]any
}

func loadOpenAPI(t *testing.T) *openAPI {
	t.Helper()
	doc := new(openAPI)
	if err := json.Unmarshal(openAPIDocument, doc); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(openAPIDocument, &doc.raw)
	return doc
}

// resolve follows a local $ref.
func (d *openAPI) resolve(node map[string]any) map[string]any {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		var cur any = d.raw
		for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			cur = cur.(map[string]any)[p]
		}
		node = cur.(map[string]any)
	}
}

// validate reports where v does not match schema (types, required,
// properties, items, additionalProperties, enum, pattern).
func (d *openAPI) validate(schema map[string]any, v any, at string) []string {
	schema = d.resolve(schema)
	var problems []string
	if types := schemaTypes(schema["type"]); len(types) > 0 && !slices.Contains(types, jsonType(v)) &&
		!(jsonType(v) == "integer" && slices.Contains(types, "number")) {
		return []string{fmt.Sprintf("%s: %s, want %v", at, jsonType(v), types)}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		problems = append(problems, fmt.Sprintf("%s: %v not in %v", at, v, enum))
	}
	if p, ok := schema["pattern"].(string); ok {
		if s, _ := v.(string); !regexp.MustCompile(p).MatchString(s) {
			problems = append(problems, fmt.Sprintf("%s: %q does not match %s", at, s, p))
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range asList(schema["required"]) {
			if _, ok := x[r.(string)]; !ok {
				problems = append(problems, fmt.Sprintf("%s: missing %s", at, r))
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, val := range x {
			if ps, ok := props[k].(map[string]any); ok {
				problems = append(problems, d.validate(ps, val, at+"."+k)...)
			} else if ap, ok := schema["additionalProperties"].(map[string]any); ok {
				problems = append(problems, d.validate(ap, val, at+"."+k)...)
			} else if props != nil {
				problems = append(problems, fmt.Sprintf("%s: undocumented property %s", at, k))
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, val := range x {
				problems = append(problems, d.validate(items, val, at+"["+strconv.Itoa(i)+"]")...)
			}
		}
	}
	return problems
}

func asList(v any) []any { l, _ := v.([]any); return l }

func schemaTypes(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, s := range t {
			out = append(out, s.(string))
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// check validates an answer against the document: its status must be
// documented for the operation, and a JSON body must match the schema.
func (d *openAPI) check(t *testing.T, method, path string, r *response) {
	t.Helper()
	var op map[string]any
	json.Unmarshal(d.Paths[path][strings.ToLower(method)], &op)
	if op == nil {
		t.Fatalf("%s %s is not documented", method, path)
	}
	resp, ok := op["responses"].(map[string]any)[strconv.Itoa(r.StatusCode)].(map[string]any)
	if !ok {
		t.Errorf("%s %s answered %d, which is not documented (body %s)", method, path, r.StatusCode, r.body)
		return
	}
	resp = d.resolve(resp)
	content, _ := resp["content"].(map[string]any)
	if content == nil {
		return
	}
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	media, ok := content[ct].(map[string]any)
	if !ok {
		t.Errorf("%s %s %d: Content-Type %q not documented", method, path, r.StatusCode, ct)
		return
	}
	if ct != "application/json" {
		return
	}
	var body any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return
	}
	for _, p := range d.validate(media["schema"].(map[string]any), body, "body") {
		t.Errorf("%s %s %d: %s", method, path, r.StatusCode, p)
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
	if served.StatusCode != http.StatusOK || string(served.body) != string(openAPIDocument) {
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
	for _, id := range []string{s["id"].(string), d["id"].(string)} {
		p := "/api/v1/codes/" + id
		check("GET", item, p, "")
		check("PATCH", item, p, `{"name":"New name"}`)
		check("PATCH", item, p, `{"destination":"https://example.com/next"}`)
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
