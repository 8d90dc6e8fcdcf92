package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/webhooks"
)

// allowLocal lets endpoints be test servers on 127.0.0.1.
func allowLocal(c *config.Config) { c.WebhookAllowHTTP, c.WebhookAllowPrivate = true, true }

// hookReceiver records the requests an endpoint gets.
type hookReceiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
	body [][]byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.reqs, h.body = append(h.reqs, r), append(h.body, b)
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.reqs)
}

// withWebhookRunner runs a delivery runner on the server's store, woken by
// its routes, until the test ends.
func withWebhookRunner(t *testing.T, st *store.Store) option {
	return func(d *Deps) {
		r := webhooks.NewRunner(webhooks.Options{Store: st, Mailer: d.Mailer,
			Policy: WebhookPolicy(d.Config), Leased: jobs.Leased{Logger: d.Logger, Poll: time.Hour}})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { r.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
		d.Webhooks = r
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// An owner adds an endpoint (its secret shown once), changes it, sends it
// a test that arrives signed with the secret, pages through its
// deliveries, retries one with the same webhook-id, rotates the secret and
// deletes it; each change is in the audit log. An API key does the same
// under /api/v1.
func TestWebhookEndpointsAPI(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(allowLocal), withWebhookRunner(t, st))
		owner, _ := e.signedIn("owner@example.com")
		rc := newHookReceiver(t)

		created := expect(t, e.do(owner, "POST", "/api/webhooks",
			`{"url":" `+rc.srv.URL+`/in ","events":["code.deleted","code.created","code.created"],"description":" CRM "}`), http.StatusCreated, "")
		secret, _ := created["secret"].(string)
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		if !strings.HasPrefix(secret, "whsec_") || err != nil || len(key) < 24 {
			t.Fatalf("secret %q", secret)
		}
		id := fmt.Sprint(created["id"])
		if created["url"] != rc.srv.URL+"/in" || fmt.Sprint(created["events"]) != "[code.created code.deleted]" ||
			created["description"] != "CRM" || created["enabled"] != true {
			t.Errorf("created %v", created)
		}
		var list []map[string]any
		e.getJSON(owner, "/api/webhooks", &list)
		if len(list) != 1 || list[0]["secret"] != nil {
			t.Fatalf("list %v", list)
		}

		updated := expect(t, e.do(owner, "PATCH", "/api/webhooks/"+id, `{"events":["webhook.test","scan.created"],"enabled":false}`), http.StatusOK, "")
		if fmt.Sprint(updated["events"]) != "[scan.created webhook.test]" || updated["enabled"] != false || updated["description"] != "CRM" {
			t.Errorf("updated %v", updated)
		}
		expect(t, e.do(owner, "PATCH", "/api/webhooks/"+id, `{"enabled":true}`), http.StatusOK, "")

		for range 3 {
			expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/test", ""), http.StatusAccepted, "")
		}
		waitUntil(t, "three deliveries", func() bool { return rc.count() == 3 })
		wh, _ := standardwebhooks.NewWebhook(secret)
		rc.mu.Lock()
		for i, r := range rc.reqs {
			if err := wh.Verify(rc.body[i], r.Header); err != nil || !strings.Contains(string(rc.body[i]), `"type":"webhook.test"`) {
				t.Errorf("request %d: %v %s", i, err, rc.body[i])
			}
		}
		rc.mu.Unlock()

		var page map[string]any
		waitUntil(t, "succeeded", func() bool {
			e.getJSON(owner, "/api/webhooks/"+id+"/deliveries", &page)
			for _, it := range page["items"].([]any) {
				if it.(map[string]any)["status"] != "succeeded" {
					return false
				}
			}
			return len(page["items"].([]any)) == 3
		})
		e.getJSON(owner, "/api/webhooks/"+id+"/deliveries?limit=2", &page)
		first := page["items"].([]any)[0].(map[string]any)
		if first["attempts"] != 1.0 || first["lastStatusCode"] != 200.0 || first["type"] != "webhook.test" || page["nextCursor"] == nil {
			t.Errorf("page %v", page)
		}
		var rest map[string]any
		e.getJSON(owner, "/api/webhooks/"+id+"/deliveries?limit=2&cursor="+page["nextCursor"].(string), &rest)
		last := rest["items"].([]any)
		if len(last) != 1 || rest["nextCursor"] != nil {
			t.Fatalf("second page %v", rest)
		}
		oldest := last[0].(map[string]any)
		if oldest["eventId"] == first["eventId"] {
			t.Errorf("two deliveries of one test event: %v", oldest["eventId"])
		}

		expect(t, e.do(owner, "POST", fmt.Sprintf("/api/webhooks/%s/deliveries/%v/retry", id, oldest["id"]), ""), http.StatusAccepted, "")
		waitUntil(t, "the retry", func() bool { return rc.count() == 4 })
		rc.mu.Lock()
		if got := rc.reqs[3].Header.Get("webhook-id"); got != oldest["eventId"] {
			t.Errorf("retry sent as %s, the delivery's event is %s", got, oldest["eventId"])
		}
		rc.mu.Unlock()

		rotated := expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/rotate-secret", ""), http.StatusOK, "")
		if s, _ := rotated["secret"].(string); s == secret || !strings.HasPrefix(s, "whsec_") {
			t.Errorf("rotated secret %q", s)
		}
		expect(t, e.do(owner, "DELETE", "/api/webhooks/"+id, ""), http.StatusNoContent, "")
		expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries", ""), http.StatusNotFound, msgWebhookMissing)

		var audit map[string]any
		ws := e.activeWorkspace(owner)
		e.getJSON(owner, fmt.Sprintf("/api/workspaces/%d/audit-log", ws), &audit)
		var actions []string
		for _, it := range audit["items"].([]any) {
			actions = append(actions, it.(map[string]any)["action"].(string))
		}
		want := "webhook.deleted webhook.secret_rotated webhook.delivery_retried webhook.tested webhook.tested webhook.tested webhook.updated webhook.updated webhook.created"
		if strings.Join(actions, " ") != want {
			t.Errorf("audit log %v", actions)
		}

		// The same through the public API.
		apiKey, _ := e.newKey(owner, "hooks")
		v1 := expect(t, e.api(apiKey, "POST", "/api/v1/webhooks", `{"url":"`+rc.srv.URL+`","events":["code.created"]}`), http.StatusCreated, "")
		if v1["secret"] == nil {
			t.Errorf("v1 created %v", v1)
		}
		expect(t, e.api(apiKey, "POST", fmt.Sprintf("/api/v1/webhooks/%v/test", v1["id"]), ""), http.StatusAccepted, "")
		waitUntil(t, "the v1 test", func() bool { return rc.count() == 5 })
		expect(t, e.api(apiKey, "DELETE", fmt.Sprintf("/api/v1/webhooks/%v", v1["id"]), ""), http.StatusNoContent, "")
	})
}

// getJSON GETs path as c into v; the status must be 200.
func (e *env) getJSON(c *http.Client, path string, v any) {
	e.t.Helper()
	resp := e.do(c, "GET", path, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.body)
	}
	if err := respond.DecodeValue(resp.body, v); err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
}

// activeWorkspace is the id of c's active workspace.
func (e *env) activeWorkspace(c *http.Client) int64 {
	u := expect(e.t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
	return int64(u["workspace"].(map[string]any)["id"].(float64))
}

// Without SQUARELY_WEBHOOK_ALLOW_*, a URL that is not https, or whose host
// is or resolves to a loopback, private, link-local, multicast or
// unspecified address, is refused with the reason on url, at creation and
// on change, and nothing is saved.
func TestWebhookURLsRefused(t *testing.T) {
	e := start(t, storetest.Open(t))
	owner, _ := e.signedIn("owner@example.com")
	refused := map[string]string{
		"http://hooks.example.com/in":    "URL must use https",
		"ftp://hooks.example.com/in":     "URL must start with https://",
		"https://user:pw@hooks.example/": "URL must not contain a user name or password",
		"https:///in":                    "URL must name a host",
		"https://127.0.0.1/in":           "(loopback)",
		"https://127.1.2.3:8443/in":      "(loopback)",
		"https://[::1]/in":               "(loopback)",
		"https://10.1.2.3/in":            "(private)",
		"https://192.168.0.10/in":        "(private)",
		"https://[fd00::1]/in":           "(private)",
		"https://169.254.169.254/latest": "(link-local)",
		"https://[fe80::1]/in":           "(link-local)",
		"https://localhost/in":           "host localhost resolves to a forbidden address",
		"https://[::ffff:127.0.0.1]/in":  "(loopback)",
		"https://[::ffff:10.0.0.1]/in":   "(private)",
		"https://0.0.0.0/in":             "(unspecified)",
		"https://224.0.0.1/in":           "(multicast)",
	}
	for u, reason := range refused {
		got := expect(t, e.do(owner, "POST", "/api/webhooks", `{"url":"`+u+`","events":["code.created"]}`), http.StatusBadRequest, "")
		if msg, _ := got["errors"].(map[string]any)["url"].(string); !strings.Contains(msg, reason) {
			t.Errorf("%s: %q, want it to say %q", u, msg, reason)
		}
	}
	if n := storetest.Count(t, e.store, "webhook_endpoints"); n != 0 {
		t.Fatalf("%d endpoints saved", n)
	}
	// A saved endpoint cannot be moved to such an address either.
	ws := e.activeWorkspace(owner)
	hook := &store.WebhookEndpoint{WorkspaceID: ws, URL: "https://hooks.example.com/in", Events: []string{"code.created"}, Secret: webhooks.NewSecret()}
	if err := e.store.CreateWebhookEndpoint(context.Background(), hook, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	got := expect(t, e.do(owner, "PATCH", fmt.Sprintf("/api/webhooks/%d", hook.ID), `{"url":"https://[::ffff:169.254.169.254]/"}`), http.StatusBadRequest, "")
	if !strings.Contains(got["errors"].(map[string]any)["url"].(string), "link-local") {
		t.Errorf("patch: %v", got)
	}
	if e, _ := e.store.WebhookEndpoint(context.Background(), ws, hook.ID); e.URL != "https://hooks.example.com/in" {
		t.Errorf("url changed to %s", e.URL)
	}
}

// Bad input of every kind is refused with a clear message and changes
// nothing; another workspace's endpoints and deliveries are 404; a burst
// of parallel creations stops at the limit of 20.
func TestWebhookBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(allowLocal))
		owner, _ := e.signedIn("owner@example.com")
		other, _ := e.signedIn("other@example.com")
		otherKey, _ := e.newKey(other, "theirs")
		good := `"url":"http://127.0.0.1:9/in","events":["code.created"]`
		for _, c := range []struct {
			body   string
			status int
			field  string
			msg    string
		}{
			{`{`, 400, "", "Malformed JSON body"},
			{`[]`, 400, "", "Request body must be a JSON object"},
			{`{"url":5,"events":["code.created"]}`, 400, "url", "url must be a string"},
			{`{"url":"http://127.0.0.1/","events":"code.created"}`, 400, "events", "events must be an array"},
			{`{"url":"http://127.0.0.1/"}`, 400, "events", "Choose at least one event"},
			{`{"url":"http://127.0.0.1/","events":[]}`, 400, "events", "Choose at least one event"},
			{`{"url":"http://127.0.0.1/","events":["code.exploded"]}`, 400, "events", `Unknown event type "code.exploded"; see docs/API.md for the list`},
			{`{"events":["code.created"]}`, 400, "url", "URL is required"},
			{`{"url":"http://127.0.0.1/` + strings.Repeat("a", 2050) + `","events":["code.created"]}`, 400, "url", "URL must be at most 2048 bytes"},
			{`{` + good + `,"description":"` + strings.Repeat("é", 201) + `"}`, 400, "description", "Description must be at most 200 characters"},
			{`{` + good + `,"description":"a\u0007b"}`, 400, "description", "Description must not contain control or text direction characters"},
			{`{` + good + `,"description":"a\u202eb"}`, 400, "description", "Description must not contain control or text direction characters"},
			{`{` + good + `,"description":"a` + "\xff" + `b"}`, 400, "", "Request body must be UTF-8 text"},
			{`{` + good + `,"description":"a\ufffdb"}`, 400, "description", "Description must be valid UTF-8 text"},
			{`{` + good + `,"description":"a\u0000b"}`, 400, "", msgNUL},
			{`{` + good + `,"description":"` + strings.Repeat("x", 2<<20) + `"}`, 413, "", "Request body too large"},
			{`{` + good + `} {}`, 400, "", "Request body must hold a single JSON value"},
		} {
			got := expect(t, e.do(owner, "POST", "/api/webhooks", c.body), c.status, "")
			if c.field == "" && got["message"] != c.msg {
				t.Errorf("%.60s: %v", c.body, got)
			}
			if c.field != "" {
				if msg, _ := got["errors"].(map[string]any)[c.field].(string); msg != c.msg && got["message"] != c.msg {
					t.Errorf("%.60s: %v", c.body, got)
				}
			}
		}
		expect(t, e.do(owner, "POST", "/api/webhooks", "url=", "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, "")
		expect(t, e.do(e.browser(), "GET", "/api/webhooks", ""), http.StatusUnauthorized, "")
		expect(t, e.api("", "GET", "/api/v1/webhooks", ""), http.StatusUnauthorized, "")
		if n := storetest.Count(t, st, "webhook_endpoints"); n != 0 {
			t.Fatalf("%d endpoints saved by bad requests", n)
		}

		// Another workspace's endpoint and delivery: 404 on every route, unchanged.
		mine := expect(t, e.do(owner, "POST", "/api/webhooks", `{`+good+`}`), http.StatusCreated, "")
		id := fmt.Sprint(mine["id"])
		expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/test", ""), http.StatusAccepted, "")
		var page map[string]any
		e.getJSON(owner, "/api/webhooks/"+id+"/deliveries", &page)
		delivery := fmt.Sprint(page["items"].([]any)[0].(map[string]any)["id"])
		before := fingerprintHooks(t, st)
		for _, r := range []struct{ method, path, body string }{
			{"PATCH", "/api/webhooks/" + id, `{"enabled":false}`},
			{"DELETE", "/api/webhooks/" + id, ""},
			{"POST", "/api/webhooks/" + id + "/rotate-secret", ""},
			{"POST", "/api/webhooks/" + id + "/test", ""},
			{"GET", "/api/webhooks/" + id + "/deliveries", ""},
			{"POST", "/api/webhooks/" + id + "/deliveries/" + delivery + "/retry", ""},
			{"PATCH", "/api/webhooks/abc", `{}`},
			{"POST", "/api/webhooks/-1/test", ""},
		} {
			if got := e.do(other, r.method, r.path, r.body); got.StatusCode != http.StatusNotFound {
				t.Errorf("other's %s %s: %d %s", r.method, r.path, got.StatusCode, got.body)
			}
			v1 := strings.Replace(r.path, "/api/", "/api/v1/", 1)
			if got := e.api(otherKey, r.method, v1, r.body); got.StatusCode != http.StatusNotFound {
				t.Errorf("other's key %s %s: %d %s", r.method, v1, got.StatusCode, got.body)
			}
		}
		// My own endpoint with another's delivery id, and my delivery under a missing endpoint.
		expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/deliveries/999999/retry", ""), http.StatusNotFound, msgDeliveryMissing)
		expect(t, e.do(owner, "POST", "/api/webhooks/999999/deliveries/"+delivery+"/retry", ""), http.StatusNotFound, msgDeliveryMissing)
		expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries?limit=0", ""), http.StatusBadRequest, "limit must be a number from 1 to 100")
		expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries?cursor=x", ""), http.StatusBadRequest, "cursor is not one this list gave")
		if after := fingerprintHooks(t, st); after != before {
			t.Fatalf("refused requests changed endpoints:\n%s\n%s", before, after)
		}

		// 40 creations at once: exactly 20 endpoints in all.
		var wg sync.WaitGroup
		codes := make(chan int, 40)
		for range 40 {
			wg.Go(func() {
				req, _ := http.NewRequest("POST", e.srv.URL+"/api/webhooks", strings.NewReader(`{`+good+`}`))
				req.Header.Set("Content-Type", "application/json")
				resp, err := owner.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			})
		}
		wg.Wait()
		close(codes)
		count := map[int]int{}
		for c := range codes {
			count[c]++
		}
		if count[201] != 19 || count[409] != 21 || storetest.Count(t, st, "webhook_endpoints") != 20 {
			t.Errorf("burst: %v, %d saved", count, storetest.Count(t, st, "webhook_endpoints"))
		}
	})
}

// fingerprintHooks is everything a refused request could change of endpoints and deliveries.
func fingerprintHooks(t *testing.T, st *store.Store) string {
	var out string
	storetest.QueryRow(t, st, `SELECT
		(SELECT COALESCE(string_agg(url || '|' || enabled || '|' || secret || '|' || description, ',' ORDER BY id), '') FROM webhook_endpoints) || ';' ||
		(SELECT COALESCE(string_agg(status || '|' || next_attempt_at || '|' || attempts, ',' ORDER BY id), '') FROM webhook_deliveries) || ';' ||
		(SELECT count(*) FROM webhook_events)`, nil, &out)
	return out
}

// The /api/v1 webhook routes answer as the OpenAPI document says.
func TestOpenAPIWebhooks(t *testing.T) {
	doc := loadOpenAPI(t)
	e := start(t, storetest.Open(t), withConfig(allowLocal))
	c, _ := e.signedIn("doc@example.com")
	key, _ := e.newKey(c, "doc")
	check := func(method, path, concrete, body string) *response {
		t.Helper()
		r := e.api(key, method, concrete, body)
		doc.check(t, method, path, r)
		return r
	}
	const item = "/api/v1/webhooks/{id}"
	check("GET", "/api/v1/webhooks", "/api/v1/webhooks", "")
	created := check("POST", "/api/v1/webhooks", "/api/v1/webhooks", `{"url":"http://127.0.0.1:9/in","events":["code.created","scan.created"],"description":"Sheet"}`).json(t)
	check("POST", "/api/v1/webhooks", "/api/v1/webhooks", `{"url":"ftp://x","events":["nope"]}`)
	check("POST", "/api/v1/webhooks", "/api/v1/webhooks", `{`)
	p := fmt.Sprintf("/api/v1/webhooks/%v", created["id"])
	check("GET", "/api/v1/webhooks", "/api/v1/webhooks", "")
	check("PATCH", item, p, `{"enabled":false,"description":"Sheet 2"}`)
	check("PATCH", item, p, `{"events":[]}`)
	check("POST", item+"/rotate-secret", p+"/rotate-secret", "")
	check("POST", item+"/test", p+"/test", "")
	page := check("GET", item+"/deliveries", p+"/deliveries?limit=1", "").json(t)
	check("GET", item+"/deliveries", p+"/deliveries?limit=500", "")
	d := page["items"].([]any)[0].(map[string]any)
	detail := check("GET", item+"/deliveries/{deliveryId}", fmt.Sprintf("%s/deliveries/%v", p, d["id"]), "").json(t)
	if payload, _ := detail["payload"].(string); !strings.Contains(payload, `"type":"webhook.test"`) {
		t.Errorf("the v1 delivery detail's payload is %q, not the test event as sent", payload)
	}
	check("GET", item+"/deliveries/{deliveryId}", p+"/deliveries/999999", "")
	check("POST", item+"/deliveries/{deliveryId}/retry", fmt.Sprintf("%s/deliveries/%v/retry", p, d["id"]), "")
	check("POST", item+"/deliveries/{deliveryId}/retry", p+"/deliveries/999999/retry", "")
	check("DELETE", item, p, "")
	check("PATCH", item, p, `{}`)
}

// A delivery's detail shows the event's JSON exactly as it was sent and
// the start of the last answer (2 KB of a longer body); another
// workspace's delivery or a malformed id is 404.
func TestWebhookDeliveryDetail(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(allowLocal), withWebhookRunner(t, st))
		owner, _ := e.signedIn("owner@example.com")
		other, _ := e.signedIn("other@example.com")
		var sent []byte
		var mu sync.Mutex
		answer := "é" + strings.Repeat("x", 5000) // 2-byte rune first: the cut lands inside no character
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			sent = b
			mu.Unlock()
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, answer)
		}))
		t.Cleanup(srv.Close)
		created := expect(t, e.do(owner, "POST", "/api/webhooks", `{"url":"`+srv.URL+`/in","events":["webhook.test"]}`), http.StatusCreated, "")
		id := fmt.Sprint(created["id"])
		expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/test", ""), http.StatusAccepted, "")
		var page map[string]any
		waitUntil(t, "the first attempt", func() bool {
			e.getJSON(owner, "/api/webhooks/"+id+"/deliveries", &page)
			items := page["items"].([]any)
			return len(items) == 1 && items[0].(map[string]any)["attempts"] == 1.0
		})
		delivery := fmt.Sprint(page["items"].([]any)[0].(map[string]any)["id"])
		d := expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries/"+delivery, ""), http.StatusOK, "")
		mu.Lock()
		body := string(sent)
		mu.Unlock()
		if d["payload"] != body || !strings.Contains(body, `"type":"webhook.test"`) {
			t.Errorf("payload %q, sent %q", d["payload"], body)
		}
		if d["status"] != "pending" || d["lastStatusCode"] != 503.0 || d["lastResponse"] != answer[:2048] {
			t.Errorf("detail: status %v code %v response of %d bytes", d["status"], d["lastStatusCode"], len(fmt.Sprint(d["lastResponse"])))
		}
		// Pending, waiting for its next attempt: a retry makes it due now.
		expect(t, e.do(owner, "POST", "/api/webhooks/"+id+"/deliveries/"+delivery+"/retry", ""), http.StatusAccepted, "")
		waitUntil(t, "the retry", func() bool {
			d := expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries/"+delivery, ""), http.StatusOK, "")
			return d["attempts"] == 2.0
		})
		expect(t, e.do(other, "GET", "/api/webhooks/"+id+"/deliveries/"+delivery, ""), http.StatusNotFound, "")
		expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries/999999", ""), http.StatusNotFound, msgDeliveryMissing)
		expect(t, e.do(owner, "GET", "/api/webhooks/"+id+"/deliveries/x", ""), http.StatusNotFound, msgDeliveryMissing)
	})
}

// The URL limit counts bytes, as a code's destination does, and says so:
// 2048 bytes of a URL with two-byte characters (far fewer than 2048
// characters) are taken, one byte more is refused on create and change.
func TestWebhookURLLimitInBytes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(allowLocal))
		owner, _ := e.signedIn("owner@example.com")
		prefix := "http://127.0.0.1:9/"
		fits := prefix + strings.Repeat("é", (2048-len(prefix))/2) + strings.Repeat("a", (2048-len(prefix))%2)
		over := fits + "a"
		if len(fits) != 2048 || len(over) != 2049 || utf8.RuneCountInString(over) > 1100 {
			t.Fatalf("%d and %d bytes", len(fits), len(over))
		}
		const msg = "URL must be at most 2048 bytes"
		got := expect(t, e.do(owner, "POST", "/api/webhooks", `{"url":"`+over+`","events":["code.created"]}`), http.StatusBadRequest, msg)
		if got["errors"].(map[string]any)["url"] != msg {
			t.Errorf("create over: %v", got)
		}
		if n := storetest.Count(t, st, "webhook_endpoints"); n != 0 {
			t.Fatalf("%d endpoints saved", n)
		}
		made := expect(t, e.do(owner, "POST", "/api/webhooks", `{"url":"`+fits+`","events":["code.created"]}`), http.StatusCreated, "")
		if made["url"] != fits {
			t.Errorf("saved url %.40q…", made["url"])
		}
		id := fmt.Sprint(made["id"])
		expect(t, e.do(owner, "PATCH", "/api/webhooks/"+id, `{"url":"`+over+`"}`), http.StatusBadRequest, msg)
		expect(t, e.do(owner, "PATCH", "/api/webhooks/"+id, `{"url":"`+strings.Replace(fits, "é", "ü", 1)+`"}`), http.StatusOK, "")
	})
}
