package server

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// routeAccess is what each route under /api and /api/v1 needs: a
// permission in a workspace (read, edit, manage, own), a v1 key, or no
// workspace at all (public, user: any signed-in account, admin). A route
// added to routes.go without an entry here fails TestRoleRouteMatrix.
var routeAccess = map[string]string{
	"POST /api/register": "public", "POST /api/login": "public", "POST /api/logout": "public",
	"GET /api/user":             "read",
	"POST /api/generate-qrcode": "public", "POST /api/download-qrcode": "public", "POST /api/track-generation": "public",
	"GET /api/subdomain-info": "public", "POST /api/preflight": "public",
	"POST /api/qrcodes": "edit", "GET /api/qrcodes": "read", "GET /api/qrcodes/{id}/image": "read", "GET /api/qrcodes/{id}/preflight": "read",
	"POST /api/upload-pdf": "edit", "POST /api/upload-image": "public", "POST /api/upload-logo": "edit",
	"POST /api/dynamic-qrcodes": "edit", "GET /api/dynamic-qrcodes": "read", "GET /api/dynamic-qrcodes/paused": "read",
	"PUT /api/dynamic-qrcodes/{id}": "edit", "PATCH /api/dynamic-qrcodes/{id}": "edit", "DELETE /api/dynamic-qrcodes/{id}": "edit",
	"POST /api/dynamic-qrcodes/{id}/pause": "edit", "POST /api/dynamic-qrcodes/{id}/resume": "edit",
	"GET /api/dynamic-qrcodes/{id}/image": "read", "GET /api/dynamic-qrcodes/{id}/preflight": "read", "GET /api/dynamic-qrcodes/{id}/analytics": "read",
	"GET /api/dynamic-qrcodes/{id}/scans.csv": "read",
	"PATCH /api/qrcodes/{id}":                 "edit", "DELETE /api/qrcodes/{id}": "edit",
	"GET /api/user-analytics": "read", "GET /api/trial-status": "read",
	"POST /api/activate-trial": "public", "POST /api/set-password": "public",
	"PUT /api/update-name": "user", "POST /api/delete-account": "user", "POST /api/change-password": "user",
	"POST /api/forgot-password": "public", "POST /api/verify-email": "public", "POST /api/resend-verification": "user",
	"GET /api/newsletter/stats": "admin", "POST /api/send-newsletter": "admin", "POST /api/send-welcome-to-all": "admin",
	"POST /api/send-scan-notifications": "admin", "POST /api/send-pause-notifications": "admin",
	"GET /api/mailings": "admin", "GET /api/mailings/{id}": "admin", "POST /api/send-test-email": "admin",
	"GET /api/billing/config": "public", "POST /api/billing/pricing-table": "own", "POST /api/billing/checkout-session": "own", "POST /api/billing-portal": "own",
	"POST /api/stripe/webhook": "public", "GET /api/payment-product/{id}": "public",
	"POST /api/create-payment-intent": "public", "GET /api/payment-intent/{id}": "public",
	"POST /api/bulk-generate-qrcode": "edit", "POST /api/bulk-jobs": "edit", "GET /api/bulk-jobs/{id}": "read",
	"GET /api/bulk-jobs/{id}/download": "read",
	"GET /api/api-keys":                "manage", "POST /api/api-keys": "manage", "DELETE /api/api-keys/{id}": "manage",
	"GET /api/white-label/clients": "admin", "POST /api/white-label/clients": "admin",
	"PUT /api/white-label/clients/{id}": "admin", "DELETE /api/white-label/clients/{id}": "admin",
	"POST /api/white-label/clients/{id}/rotate-key": "admin", "GET /api/white-label/config": "public",
	"GET /api/v1/openapi.json": "public",
	"POST /api/v1/codes":       "key", "GET /api/v1/codes": "key", "POST /api/v1/codes/batch": "key", "PATCH /api/v1/codes/batch": "key",
	"GET /api/v1/codes/{id}": "key", "PATCH /api/v1/codes/{id}": "key", "DELETE /api/v1/codes/{id}": "key",
	"POST /api/v1/codes/{id}/pause": "key", "POST /api/v1/codes/{id}/resume": "key",
	"GET /api/v1/codes/{id}/image": "key", "GET /api/v1/codes/{id}/analytics": "key", "GET /api/v1/codes/{id}/scans.csv": "key",
	"GET /api/v1/brand-kits": "key", "GET /api/brand-kits": "read", "POST /api/brand-kits": "edit",
	"PUT /api/brand-kits/{id}": "edit", "DELETE /api/brand-kits/{id}": "edit",
	"GET /api/workspaces": "user", "POST /api/workspaces": "user",
	"PATCH /api/workspaces/{id}": "manage", "DELETE /api/workspaces/{id}": "own",
	"PUT /api/workspaces/{id}/auto-join": "own", "DELETE /api/workspaces/{id}/auto-join": "own",
	"GET /api/workspaces/{id}/sso": "own", "PUT /api/workspaces/{id}/sso": "own", "DELETE /api/workspaces/{id}/sso": "own",
	"POST /api/workspaces/{id}/scim-token": "own", "POST /api/auth/sso": "public",
	"GET /api/pages": "read", "POST /api/pages": "edit", "GET /api/pages/{id}": "read", "PUT /api/pages/{id}": "edit",
	"DELETE /api/pages/{id}": "edit", "GET /api/pages/{id}/analytics": "read",
	"GET /api/v1/pages": "key", "POST /api/v1/pages": "key", "GET /api/v1/pages/{id}": "key", "PUT /api/v1/pages/{id}": "key",
	"DELETE /api/v1/pages/{id}": "key", "GET /api/v1/pages/{id}/analytics": "key",
	"POST /api/workspaces/{id}/activate": "read", "GET /api/workspaces/{id}/members": "read",
	"PATCH /api/workspaces/{id}/members/{userId}": "manage", "DELETE /api/workspaces/{id}/members/{userId}": "manage",
	"GET /api/workspaces/{id}/invitations": "manage", "POST /api/workspaces/{id}/invitations": "manage",
	"DELETE /api/workspaces/{id}/invitations/{invitationId}": "manage",
	"POST /api/invitations/accept":                           "user", "GET /api/invitations/preview": "public",
	"GET /api/workspaces/{id}/audit-log": "manage", "GET /api/workspaces/{id}/audit-log.csv": "manage",
	"GET /api/tags": "read", "POST /api/tags": "edit", "PATCH /api/tags/{id}": "edit", "DELETE /api/tags/{id}": "edit",
	"GET /api/folders": "read", "POST /api/folders": "edit", "PATCH /api/folders/{id}": "edit", "DELETE /api/folders/{id}": "edit",
	"PUT /api/qrcodes/{id}/tags": "edit", "PUT /api/dynamic-qrcodes/{id}/tags": "edit",
	"PUT /api/qrcodes/{id}/folder": "edit", "PUT /api/dynamic-qrcodes/{id}/folder": "edit",
	"GET /api/codes":            "read",
	"POST /api/codes/bulk-edit": "edit", "POST /api/codes/bulk-edit/sheet": "edit", "GET /api/codes/bulk-edit": "read", "GET /api/codes/bulk-edit/{id}": "read",
	"POST /api/codes/bulk-edit/{id}/undo": "edit",
	"POST /api/codes/move":                "manage", "GET /api/codes/move/{id}": "manage",
	"POST /api/v1/codes/bulk-edit": "key", "GET /api/v1/bulk-edits/{id}": "key",
	"POST /api/contact": "public", "POST /api/newsletter-signup": "public",
	"GET /api/analytics": "read", "GET /api/analytics/breakdown.csv": "read", "GET /api/dynamic-qrcodes/{id}/breakdown.csv": "read",
	"PUT /api/dynamic-qrcodes/{id}/password": "edit",
	"PUT /api/qrcodes/{id}":                  "edit", "PUT /api/qrcodes/{id}/style": "edit", "PUT /api/dynamic-qrcodes/{id}/style": "edit",
	"POST /api/qrcodes/{id}/style/preview": "edit", "POST /api/dynamic-qrcodes/{id}/style/preview": "edit",
	"POST /api/qrcodes/{id}/duplicate": "edit", "POST /api/dynamic-qrcodes/{id}/duplicate": "edit",
	"GET /api/analytics/report.pdf": "read", "GET /api/dynamic-qrcodes/{id}/report.pdf": "read",
	"GET /api/account/export": "manage", "GET /api/workspaces/{id}/export": "manage",
	"GET /api/domains": "read", "POST /api/domains": "manage", "DELETE /api/domains/{id}": "manage", "PATCH /api/domains/{id}": "manage",
	"GET /api/short-codes/availability": "read", "POST /api/imports": "edit", "GET /api/imports/{id}": "read", "POST /api/imports/{id}/verify": "edit",
	"POST /api/domains/{id}/verify":   "manage",
	"POST /api/domains/{id}/pointing": "manage",
	// Account security (issue 27): the account's own, whatever the workspace.
	"GET /api/login/2fa": "public", "POST /api/login/2fa": "public", "GET /api/auth/providers": "public",
	"POST /api/webauthn/login/begin": "public", "POST /api/webauthn/login/finish": "public",
	"GET /api/2fa": "user", "POST /api/2fa/totp/setup": "user", "POST /api/2fa/totp/enable": "user",
	"POST /api/2fa/disable": "user", "POST /api/2fa/recovery-codes": "user",
	"GET /api/sessions": "user", "DELETE /api/sessions/{id}": "user", "POST /api/sessions/revoke-others": "user",
	"POST /api/webauthn/register/begin": "user", "POST /api/webauthn/register/finish": "user",
	"GET /api/webauthn/credentials": "user", "DELETE /api/webauthn/credentials/{id}": "user",
	"PUT /api/dynamic-qrcodes/{id}/routing": "edit", "PUT /api/v1/codes/{id}/routing": "key",
	"GET /api/utm-presets": "read", "POST /api/utm-presets": "edit", "DELETE /api/utm-presets/{id}": "edit",
	"GET /api/share-links": "read", "POST /api/share-links": "edit", "DELETE /api/share-links/{id}": "edit",
	"GET /api/report-schedules": "read", "POST /api/report-schedules": "read", "PUT /api/report-schedules/{id}": "read",
	"DELETE /api/report-schedules/{id}": "read", "POST /api/report-schedules/{id}/send-now": "read",
	"PUT /api/dynamic-qrcodes/{id}/alerts": "edit", "PUT /api/workspaces/{id}/alert-emails": "read",
	"GET /api/webhooks": "manage", "POST /api/webhooks": "manage", "PATCH /api/webhooks/{id}": "manage",
	"DELETE /api/webhooks/{id}": "manage", "POST /api/webhooks/{id}/rotate-secret": "manage",
	"POST /api/webhooks/{id}/test": "manage", "GET /api/webhooks/{id}/deliveries": "manage",
	"POST /api/webhooks/{id}/deliveries/{deliveryId}/retry": "manage", "GET /api/webhooks/{id}/deliveries/{deliveryId}": "manage",
	"GET /api/v1/webhooks": "key", "POST /api/v1/webhooks": "key", "PATCH /api/v1/webhooks/{id}": "key",
	"DELETE /api/v1/webhooks/{id}": "key", "POST /api/v1/webhooks/{id}/rotate-secret": "key",
	"POST /api/v1/webhooks/{id}/test": "key", "GET /api/v1/webhooks/{id}/deliveries": "key",
	"GET /api/v1/webhooks/{id}/deliveries/{deliveryId}": "key", "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": "key",
	// GS1 Digital Link (issue 38).
	"GET /api/gs1/products": "read", "POST /api/gs1/products": "edit", "POST /api/gs1/products/import": "edit",
	"GET /api/gs1/products/{gtin}": "read", "PUT /api/gs1/products/{gtin}": "edit", "DELETE /api/gs1/products/{gtin}": "edit",
	"POST /api/gs1/products/{gtin}/lots/{lot}/recall": "edit", "GET /api/gs1/analytics": "read",
	"GET /api/v1/gs1/products": "key", "POST /api/v1/gs1/products": "key", "POST /api/v1/gs1/products/import": "key",
	"GET /api/v1/gs1/products/{gtin}": "key", "PUT /api/v1/gs1/products/{gtin}": "key", "DELETE /api/v1/gs1/products/{gtin}": "key",
	"POST /api/v1/gs1/products/{gtin}/lots/{lot}/recall": "key",
}

// registeredRoutes reads the patterns routes.go gives the api and v1 muxes.
func registeredRoutes(t *testing.T) []string {
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:api|v1)\.Handle(?:Func)?\("([A-Z]+ /api/[^"]*)"`).FindAllStringSubmatch(string(src), -1) {
		list = append(list, m[1])
	}
	if len(list) < 80 {
		t.Fatalf("read only %d routes from routes.go", len(list))
	}
	return list
}

// teamFixture is a team workspace with a member of each role, an outsider,
// and a code of each kind, an API key and an invitation in it.
type teamFixture struct {
	ws                  int64
	members             map[string]*http.Client // by role
	memberIDs           map[string]int64
	outsider            *http.Client
	static, dynamic     int64
	key, outsiderKey    string
	keyID, invitationID int64
	webhook, delivery   int64
	page, shareLink     int64
	bulkEdit            int64 // a bulk edit that changed nothing
}

func newTeam(t *testing.T, e *env) *teamFixture {
	ctx := context.Background()
	f := &teamFixture{members: map[string]*http.Client{}, memberIDs: map[string]int64{}}
	owner, ownerID := e.signedIn("owner@example.com")
	ws := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Agency"}`), http.StatusCreated, "")
	f.ws = int64(ws["id"].(float64))
	if ws["role"] != "owner" || ws["personal"] != false || ws["name"] != "Agency" {
		t.Fatalf("created workspace = %v", ws)
	}
	f.members["owner"], f.memberIDs["owner"] = owner, ownerID
	// Each member proves their address, then accepts the mailed invitation.
	for _, role := range []string{"admin", "editor", "viewer"} {
		email := role + "@example.com"
		c, id := e.signedIn(email)
		e.verifyEmail(c, email)
		expect(t, e.do(owner, "POST", fmt.Sprintf("/api/workspaces/%d/invitations", f.ws), `{"email":"`+email+`","role":"`+role+`"}`), http.StatusCreated, "")
		token := e.mail.link(t, email, `/invitations/accept\?token=([A-Za-z0-9_-]+)`)
		expect(t, e.do(c, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`), http.StatusOK, "")
		f.members[role], f.memberIDs[role] = c, id
	}
	for role, c := range f.members {
		got := expect(t, e.do(c, "POST", fmt.Sprintf("/api/workspaces/%d/activate", f.ws), ""), http.StatusOK, "")
		if got["role"] != role {
			t.Fatalf("%s activated as %v", role, got["role"])
		}
		u := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")
		if w := u["workspace"].(map[string]any); int64(w["id"].(float64)) != f.ws || w["role"] != role || w["name"] != "Agency" {
			t.Fatalf("GET /api/user workspace = %v", w)
		}
	}
	f.outsider, _ = e.signedIn("outsider@example.com")
	if err := e.store.CreateGS1Product(ctx, f.ws, &store.GS1Product{GTIN: testGTIN, Name: "Team product",
		Links: `[{"linkType":"gs1:defaultLink","href":"https://example.com/p","title":"P"}]`}, 10, time.Now()); err != nil {
		t.Fatal(err)
	}
	q := &store.QRCode{WorkspaceID: f.ws, UserID: ownerID, Name: "Flyer", QRType: "url", URL: "https://example.com/f",
		QRData: `{"url":"https://example.com/f"}`, Content: "https://example.com/f", Style: storetest.DefaultStyle()}
	if err := e.store.CreateQRCode(ctx, q); err != nil {
		t.Fatal(err)
	}
	d := storetest.NewDynamic(ownerID, "teamcode")
	d.WorkspaceID = f.ws
	if err := e.store.CreateDynamicCode(ctx, d, 0); err != nil {
		t.Fatal(err)
	}
	f.static, f.dynamic = q.ID, d.ID
	page := &store.Page{Type: "links", Slug: "team-links", Title: "Team links", Language: "en", Theme: "{}",
		Content: `{"title":"Team","links":[{"label":"Site","url":"https://example.com"}]}`}
	if err := e.store.CreatePage(ctx, f.ws, page, 10, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.page = page.ID
	job := &store.BulkEditJob{WorkspaceID: f.ws, UserID: ownerID, Changes: "{}"}
	if err := e.store.CreateBulkEditJob(ctx, job, []store.CodeRef{{Dynamic: true, ID: d.ID}}, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.bulkEdit = job.ID
	var id float64
	f.key, id = e.newKey(owner, "team")
	f.keyID = int64(id)
	f.outsiderKey, _ = e.newKey(f.outsider, "mine")
	inv := expect(t, e.do(owner, "POST", fmt.Sprintf("/api/workspaces/%d/invitations", f.ws), `{"email":"later@example.com","role":"editor"}`), http.StatusCreated, "")
	f.invitationID = int64(inv["id"].(float64))
	hook := &store.WebhookEndpoint{WorkspaceID: f.ws, URL: "https://hooks.example.com/in", Events: []string{store.EventCodeCreated}, Secret: "whsec_dGVzdA=="}
	if err := e.store.CreateWebhookEndpoint(ctx, hook, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := e.store.SendWebhookTest(ctx, f.ws, hook.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	deliveries, _, err := e.store.WebhookDeliveries(ctx, f.ws, hook.ID, 0, 1)
	if err != nil || len(deliveries) != 1 {
		t.Fatalf("fixture delivery: %v", err)
	}
	f.webhook, f.delivery = hook.ID, deliveries[0].ID
	link := &store.ShareLink{WorkspaceID: f.ws, CodeID: d.ID, TokenHash: "fixture", TokenHint: "fixtur"}
	if err := e.store.CreateShareLink(ctx, link, 10, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.shareLink = link.ID
	return f
}

// path fills a pattern's wildcards with the fixture's ids; missing uses an
// id nothing has.
func (f *teamFixture) path(pattern string, missing bool) string {
	_, p, _ := strings.Cut(pattern, " ")
	id := func(real int64) string {
		if missing {
			return "999999"
		}
		return strconv.FormatInt(real, 10)
	}
	switch {
	case strings.HasPrefix(p, "/api/workspaces/"):
		p = strings.Replace(p, "{id}", strconv.FormatInt(f.ws, 10), 1)
	case strings.HasPrefix(p, "/api/qrcodes/"):
		p = strings.Replace(p, "{id}", id(f.static), 1)
	case strings.HasPrefix(p, "/api/dynamic-qrcodes/"):
		p = strings.Replace(p, "{id}", id(f.dynamic), 1)
	case strings.HasPrefix(p, "/api/api-keys/"):
		p = strings.Replace(p, "{id}", id(f.keyID), 1)
	case strings.HasPrefix(p, "/api/share-links/"):
		p = strings.Replace(p, "{id}", id(f.shareLink), 1)
	case strings.HasPrefix(p, "/api/pages/"), strings.HasPrefix(p, "/api/v1/pages/"):
		p = strings.Replace(p, "{id}", id(f.page), 1)
	case strings.HasPrefix(p, "/api/codes/bulk-edit/"), strings.HasPrefix(p, "/api/v1/bulk-edits/"):
		p = strings.Replace(p, "{id}", id(f.bulkEdit), 1)
	case strings.HasPrefix(p, "/api/v1/codes/"):
		p = strings.Replace(p, "{id}", "d_"+id(f.dynamic), 1)
	case strings.HasPrefix(p, "/api/webhooks/"), strings.HasPrefix(p, "/api/v1/webhooks/"):
		p = strings.Replace(p, "{id}", id(f.webhook), 1)
		p = strings.Replace(p, "{deliveryId}", id(f.delivery), 1)
	case strings.HasPrefix(p, "/api/gs1/products/"), strings.HasPrefix(p, "/api/v1/gs1/products/"):
		gtin := testGTIN // the team's product (newTeam)
		if missing {
			gtin = "96385074"
		}
		p = strings.Replace(strings.Replace(p, "{gtin}", gtin, 1), "{lot}", "L1", 1)
	default:
		p = strings.Replace(p, "{id}", "999999", 1)
	}
	p = strings.Replace(p, "{userId}", id(f.memberIDs["owner"]), 1)
	return strings.Replace(p, "{invitationId}", id(f.invitationID), 1)
}

// fingerprint is everything a refused request could have changed in the
// team workspace.
func fingerprint(t *testing.T, st *store.Store, ws int64) string {
	var out string
	storetest.QueryRow(t, st, `SELECT
		(SELECT COALESCE(string_agg(name || '|' || destination || '|' || is_paused || '|' || alerts_muted || '|' || is_deleted || '|' || COALESCE(password_hash, ''), ',' ORDER BY id), '') FROM dynamic_qr_codes WHERE workspace_id = $1) || ';' ||
		(SELECT COALESCE(string_agg(name || '|' || is_deleted || '|' || fg_color, ',' ORDER BY id), '') FROM qr_codes WHERE workspace_id = $1) || ';' ||
		(SELECT COALESCE(string_agg(user_id || '=' || role || '|' || alert_emails, ',' ORDER BY user_id), '') FROM workspace_members WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM api_keys WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM workspace_invitations WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM blobs WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM bulk_jobs WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM bulk_edit_jobs WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM workspace_domains WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM audit_log WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM utm_presets WHERE workspace_id = $1) || ';' ||
		(SELECT count(*) FROM share_links WHERE workspace_id = $1 AND revoked_at IS NULL) || ';' ||
		(SELECT COALESCE(string_agg(url || '|' || enabled || '|' || secret, ',' ORDER BY id), '') FROM webhook_endpoints WHERE workspace_id = $1) || ';' ||
		(SELECT COALESCE(string_agg(status || '|' || next_attempt_at, ',' ORDER BY id), '') FROM webhook_deliveries WHERE workspace_id = $1) || ';' ||
		(SELECT name || is_deleted FROM workspaces WHERE id = $1)`, []any{ws}, &out)
	return out
}

// Every route under /api and /api/v1, for each role of a team workspace and
// for someone outside it: a role too weak gets 403 with the one message and
// changes nothing; a strong enough one passes the check; an outsider sees
// none of the team's codes or settings (404).
func TestRoleRouteMatrix(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		routes := registeredRoutes(t)
		for _, r := range routes {
			if _, ok := routeAccess[r]; !ok {
				t.Errorf("route %q has no entry in routeAccess", r)
			}
		}
		if t.Failed() {
			return
		}
		f := newTeam(t, e)
		rank := map[string]int{"viewer": 1, "editor": 2, "admin": 3, "owner": 4}
		need := map[string]int{"read": 1, "edit": 2, "manage": 3, "own": 4}
		permissions := map[string]auth.Permission{"read": auth.PermRead, "edit": auth.PermEdit, "manage": auth.PermManage, "own": auth.PermOwn}
		before := fingerprint(t, st, f.ws)

		// Refused: every role below each route's permission.
		for _, r := range routes {
			method, _, _ := strings.Cut(r, " ")
			n, ok := need[routeAccess[r]]
			if !ok {
				continue
			}
			for role, c := range f.members {
				if rank[role] >= n {
					continue
				}
				// The refusal names the member's role and the workspace.
				expect(t, e.do(c, method, f.path(r, false), `{"role":"owner","name":"x","email":"x@example.com"}`), http.StatusForbidden,
					auth.Refusal(role, "Agency", permissions[routeAccess[r]]))
			}
		}
		if after := fingerprint(t, st, f.ws); after != before {
			t.Fatalf("refused requests changed the workspace:\n%s\n%s", before, after)
		}

		// Outsiders: the team's codes and settings do not exist for them.
		for _, r := range routes {
			method, p, _ := strings.Cut(r, " ")
			if _, ok := need[routeAccess[r]]; !ok || !strings.Contains(p, "{") {
				continue
			}
			if got := e.do(f.outsider, method, f.path(r, false), `{}`); got.StatusCode != http.StatusNotFound && got.StatusCode != http.StatusBadRequest {
				t.Errorf("outsider %s: %d %s", r, got.StatusCode, got.body)
			}
		}
		for _, r := range routes {
			method, p, _ := strings.Cut(r, " ")
			if routeAccess[r] != "key" || !strings.Contains(p, "{") {
				continue
			}
			if got := e.api(f.outsiderKey, method, f.path(r, false), `{}`); got.StatusCode != http.StatusNotFound {
				t.Errorf("outsider's key %s: %d %s", r, got.StatusCode, got.body)
			}
			if method == "DELETE" {
				continue // the matrix below needs the code
			}
			if got := e.api(f.key, method, f.path(r, false), `{}`); got.StatusCode == http.StatusForbidden || got.StatusCode == http.StatusNotFound || got.StatusCode == http.StatusUnauthorized {
				t.Errorf("team key %s: %d %s", r, got.StatusCode, got.body)
			}
		}

		// Allowed: every role at or above the permission passes the check.
		// Deletions aim at ids nothing has, so the fixture stays: past the
		// check they are 404, never 403.
		for _, r := range routes {
			method, _, _ := strings.Cut(r, " ")
			n, ok := need[routeAccess[r]]
			if !ok || r == "DELETE /api/workspaces/{id}" {
				continue
			}
			for role, c := range f.members {
				if rank[role] < n {
					continue
				}
				got := e.do(c, method, f.path(r, method == "DELETE"), `{}`)
				if got.StatusCode == http.StatusForbidden || got.StatusCode == http.StatusUnauthorized {
					t.Errorf("%s as %s: %d %s", r, role, got.StatusCode, got.body)
				}
			}
		}
		// Last, the owner deletes the workspace: its code stops redirecting.
		expect(t, e.do(f.members["owner"], "DELETE", fmt.Sprintf("/api/workspaces/%d", f.ws), ""), http.StatusNoContent, "")
		if got := e.do(e.browser(), "GET", "/d/teamcode", ""); got.StatusCode != http.StatusNotFound {
			t.Errorf("a deleted workspace's code answers %d", got.StatusCode)
		}
		if got := e.api(f.key, "GET", "/api/v1/codes", ""); got.StatusCode != http.StatusUnauthorized {
			t.Errorf("a deleted workspace's key answers %d", got.StatusCode)
		}
		u := expect(t, e.do(f.members["viewer"], "GET", "/api/user", ""), http.StatusOK, "")
		if w := u["workspace"].(map[string]any); w["name"] != "Personal" || w["role"] != "owner" {
			t.Errorf("after the deletion the viewer acts on %v; want their personal workspace", w)
		}
	})
}

// Each kind of change in a workspace leaves one audit entry naming who
// made it (the signed-in member, or the API key), with a before and after;
// owners and admins read them as JSON pages or CSV, others may not.
func TestAuditLogEntries(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner, editor := f.members["owner"], f.members["editor"]
		ws := fmt.Sprintf("/api/workspaces/%d", f.ws)
		d := strconv.FormatInt(f.dynamic, 10)
		expect(t, e.do(editor, "PATCH", "/api/dynamic-qrcodes/"+d, `{"name":"Dinner"}`), http.StatusOK, "")
		expect(t, e.do(editor, "PUT", "/api/dynamic-qrcodes/"+d, `{"destination":"https://example.com/dinner"}`), http.StatusOK, "")
		expect(t, e.do(editor, "POST", "/api/dynamic-qrcodes/"+d+"/pause", ""), http.StatusOK, "")
		expect(t, e.do(editor, "POST", "/api/dynamic-qrcodes/"+d+"/resume", ""), http.StatusOK, "")
		expect(t, e.sendForm(editor, "PUT", "/api/dynamic-qrcodes/"+d+"/style", part{"fgColor", "#112233", ""}), http.StatusOK, "")
		expect(t, e.do(editor, "PATCH", fmt.Sprintf("/api/qrcodes/%d", f.static), `{"name":"Poster"}`), http.StatusOK, "")
		expect(t, e.do(editor, "DELETE", fmt.Sprintf("/api/qrcodes/%d", f.static), ""), http.StatusNoContent, "")
		created := expect(t, e.api(f.key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/k"}`), http.StatusCreated, "")
		expect(t, e.do(owner, "PATCH", ws, `{"name":"Agency Two"}`), http.StatusOK, "")
		expect(t, e.do(owner, "PATCH", fmt.Sprintf("%s/members/%d", ws, f.memberIDs["viewer"]), `{"role":"editor"}`), http.StatusNoContent, "")
		expect(t, e.do(owner, "DELETE", fmt.Sprintf("%s/members/%d", ws, f.memberIDs["viewer"]), ""), http.StatusNoContent, "")
		expect(t, e.do(owner, "DELETE", fmt.Sprintf("/api/api-keys/%d", f.keyID), ""), http.StatusNoContent, "")

		expect(t, e.do(editor, "GET", ws+"/audit-log", ""), http.StatusForbidden, "You are an editor in Agency Two; only an admin or above can do this")
		var all []map[string]any
		cursor := ""
		for page := 0; ; page++ {
			got := expect(t, e.do(owner, "GET", ws+"/audit-log?limit=4"+cursor, ""), http.StatusOK, "")
			for _, it := range got["items"].([]any) {
				all = append(all, it.(map[string]any))
			}
			next, _ := got["nextCursor"].(string)
			if next == "" {
				break
			}
			cursor = "&cursor=" + next
			if page > 20 {
				t.Fatal("the cursor does not end")
			}
		}
		type want struct{ action, actorType, actorEmail, targetName, details string }
		wants := []want{
			{"api_key.revoked", "user", "owner@example.com", "team", ""},
			{"member.removed", "user", "owner@example.com", "viewer@example.com", `{"role":"editor"}`},
			{"member.role_changed", "user", "owner@example.com", "viewer@example.com", `{"role":{"after":"editor","before":"viewer"}}`},
			{"workspace.renamed", "user", "owner@example.com", "Agency Two", `{"name":{"after":"Agency Two","before":"Agency"}}`},
			{"code.created", "api_key", "owner@example.com", "", ""},
			{"code.deleted", "user", "editor@example.com", "Poster", ""},
			{"code.renamed", "user", "editor@example.com", "Poster", `{"name":{"after":"Poster","before":"Flyer"}}`},
			{"code.restyled", "user", "editor@example.com", "Dinner", ""},
			{"code.resumed", "user", "editor@example.com", "Dinner", ""},
			{"code.paused", "user", "editor@example.com", "Dinner", ""},
			{"code.destination_changed", "user", "editor@example.com", "Dinner", `{"destination":{"after":"https://example.com/dinner","before":"https://example.com/menu"}}`},
			{"code.renamed", "user", "editor@example.com", "Dinner", `{"name":{"after":"Dinner","before":"Menu"}}`},
		}
		if len(all) < len(wants) {
			t.Fatalf("%d entries: %v", len(all), all)
		}
		for i, w := range wants {
			it := all[i]
			actor, target := it["actor"].(map[string]any), it["target"].(map[string]any)
			details, _ := json.Marshal(it["details"])
			if it["action"] != w.action || actor["type"] != w.actorType || actor["email"] != w.actorEmail ||
				(w.targetName != "" && target["name"] != w.targetName) || (w.details != "" && string(details) != w.details) {
				t.Errorf("entry %d = %v; want %+v", i, it, w)
			}
		}
		if id := all[4]["actor"].(map[string]any)["id"].(float64); int64(id) != f.keyID {
			t.Errorf("the key's entry names key %v, want %d", id, f.keyID)
		}
		if created["id"] == nil {
			t.Error("the key's code has no id")
		}
		// Joining and inviting were logged when the team was made.
		seen := map[string]int{}
		for _, it := range all {
			seen[it["action"].(string)]++
		}
		if seen["member.invited"] != 4 || seen["member.joined"] != 3 || seen["workspace.created"] != 1 {
			t.Errorf("actions seen: %v", seen)
		}
		csv := e.do(owner, "GET", ws+"/audit-log.csv", "")
		if csv.StatusCode != http.StatusOK || strings.Count(string(csv.body), "\n") != len(all)+1 ||
			!strings.HasPrefix(string(csv.body), "at,actor_type,actor_id,actor_email,action,target_type,target_id,target_name,details\n") {
			t.Errorf("CSV %d:\n%s", csv.StatusCode, csv.body)
		}
	})
}

// Tags and folders: names unique per workspace (409), codes carry them,
// another workspace's tag or folder is 404 and changes nothing.
func TestTagsAndFolders(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		ed := f.members["editor"]
		tag := expect(t, e.do(ed, "POST", "/api/tags", `{"name":"Menu","color":"#112233"}`), http.StatusCreated, "")
		expect(t, e.do(ed, "POST", "/api/tags", `{"name":"menu"}`), http.StatusConflict, "A tag with this name already exists")
		expect(t, e.do(ed, "POST", "/api/tags", `{"name":"x","color":"red"}`), http.StatusBadRequest, "Color must be a hex color such as #3B82F6")
		expect(t, e.do(ed, "POST", "/api/tags", `{"name":"   "}`), http.StatusBadRequest, "Name is required")
		other := expect(t, e.do(ed, "POST", "/api/tags", `{"name":"Print"}`), http.StatusCreated, "")
		if other["color"] != defaultColor {
			t.Errorf("default color %v", other["color"])
		}
		expect(t, e.do(ed, "PATCH", fmt.Sprintf("/api/tags/%v", other["id"]), `{"name":"MENU"}`), http.StatusConflict, "A tag with this name already exists")
		folder := expect(t, e.do(ed, "POST", "/api/folders", `{"name":"Spring"}`), http.StatusCreated, "")
		expect(t, e.do(ed, "POST", "/api/folders", `{"name":"SPRING"}`), http.StatusConflict, "A folder with this name already exists")
		// The outsider's own tag and folder, with the same names: fine.
		theirs := expect(t, e.do(f.outsider, "POST", "/api/tags", `{"name":"Menu"}`), http.StatusCreated, "")
		theirFolder := expect(t, e.do(f.outsider, "POST", "/api/folders", `{"name":"Spring"}`), http.StatusCreated, "")

		d := fmt.Sprintf("/api/dynamic-qrcodes/%d", f.dynamic)
		got := expect(t, e.do(ed, "PUT", d+"/tags", fmt.Sprintf(`{"tagIds":[%v,%v,%v]}`, tag["id"], other["id"], tag["id"])), http.StatusOK, "")
		if tags := got["tags"].([]any); len(tags) != 2 || tags[0].(map[string]any)["name"] != "Menu" || tags[1].(map[string]any)["name"] != "Print" {
			t.Errorf("tags = %v", got["tags"])
		}
		got = expect(t, e.do(ed, "PUT", d+"/folder", fmt.Sprintf(`{"folderId":%v}`, folder["id"])), http.StatusOK, "")
		if got["folderId"] != folder["id"] {
			t.Errorf("folderId = %v", got["folderId"])
		}
		before := fingerprint(t, st, f.ws)
		expect(t, e.do(ed, "PUT", d+"/tags", fmt.Sprintf(`{"tagIds":[%v]}`, theirs["id"])), http.StatusNotFound, msgTagMissing)
		expect(t, e.do(ed, "PUT", d+"/folder", fmt.Sprintf(`{"folderId":%v}`, theirFolder["id"])), http.StatusNotFound, msgFolderGone)
		expect(t, e.do(f.outsider, "PUT", d+"/tags", fmt.Sprintf(`{"tagIds":[%v]}`, theirs["id"])), http.StatusNotFound, msgCodeMissing)
		expect(t, e.do(ed, "PUT", d+"/tags", `{"tagIds":"x"}`), http.StatusBadRequest, "")
		if after := fingerprint(t, st, f.ws); after != before {
			t.Errorf("refused changes changed the workspace:\n%s\n%s", before, after)
		}
		// Nor can they delete the outsider's tag or folder, or untag its code.
		theirCode := e.createDynamic(f.outsider, "https://example.com/theirs")
		expect(t, e.do(f.outsider, "PUT", "/api/dynamic-qrcodes/"+idOf(theirCode)+"/tags", fmt.Sprintf(`{"tagIds":[%v]}`, theirs["id"])), http.StatusOK, "")
		expect(t, e.do(ed, "DELETE", fmt.Sprintf("/api/tags/%v", theirs["id"]), ""), http.StatusNotFound, msgTagMissing)
		expect(t, e.do(ed, "DELETE", fmt.Sprintf("/api/folders/%v", theirFolder["id"]), ""), http.StatusNotFound, msgFolderGone)
		if r := e.do(f.outsider, "GET", "/api/codes?kind=dynamic", ""); !strings.Contains(string(r.body), `"name":"Menu"`) {
			t.Errorf("the outsider's code after another's delete: %s", r.body)
		}
		if r := e.do(f.outsider, "GET", "/api/folders", ""); !strings.Contains(string(r.body), `"name":"Spring"`) {
			t.Errorf("the outsider's folders after another's delete: %s", r.body)
		}
		s := fmt.Sprintf("/api/qrcodes/%d", f.static)
		got = expect(t, e.do(ed, "PUT", s+"/tags", fmt.Sprintf(`{"tagIds":[%v]}`, other["id"])), http.StatusOK, "")
		if tags := got["tags"].([]any); len(tags) != 1 || got["folderId"] != nil {
			t.Errorf("static code = %v", got)
		}
		// The lists show them; deleting the folder leaves the code in none.
		expect(t, e.do(ed, "DELETE", fmt.Sprintf("/api/folders/%v", folder["id"]), ""), http.StatusNoContent, "")
		got = expect(t, e.do(ed, "GET", "/api/codes?kind=dynamic", ""), http.StatusOK, "")
		items := got["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["folderId"] != nil || items[0].(map[string]any)["kind"] != "dynamic" {
			t.Errorf("after the folder went: %v", items)
		}
		if r := e.do(f.members["viewer"], "GET", "/api/tags", ""); r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), `"name":"Print"`) {
			t.Errorf("viewer's tags: %d %s", r.StatusCode, r.body)
		}
	})
}

// GET /api/codes: search over name, destination and tag names, filters,
// sorts, and a cursor that returns each of 250 codes exactly once while
// codes are being created.
func TestCodeListPaging(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, ownerID := e.signedIn("lister@example.com")
		ws := storetest.Personal(t, st, ownerID)
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		want := map[string]bool{}
		for i := range 250 {
			// Groups of codes share a creation time, so ties are paged too.
			at := base.Add(time.Duration(i/10) * time.Minute)
			if i%2 == 0 {
				d := storetest.NewDynamic(ownerID, fmt.Sprintf("pg%04d", i))
				d.WorkspaceID, d.Name, d.CreatedAt = ws, fmt.Sprintf("Code %03d", i), at
				if i%5 == 0 {
					d.Destination = "https://example.com/Special"
				}
				if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
					t.Fatal(err)
				}
				want[fmt.Sprintf("dynamic %d", d.ID)] = true
			} else {
				q := &store.QRCode{WorkspaceID: ws, UserID: ownerID, Name: fmt.Sprintf("Code %03d", i), QRType: "text",
					QRData: `{}`, Content: "hello", Style: storetest.DefaultStyle(), CreatedAt: at}
				if err := st.CreateQRCode(ctx, q); err != nil {
					t.Fatal(err)
				}
				want[fmt.Sprintf("static %d", q.ID)] = true
			}
		}
		// A newer code arrives while each page is read: one a page, so that
		// paging in creation order ends (a free-running writer can outpace
		// the pages on a loaded machine, and then the newest end never comes).
		arrived := 0
		arrive := func() (wait func()) {
			d := storetest.NewDynamic(ownerID, fmt.Sprintf("new%05d", arrived))
			d.WorkspaceID, d.CreatedAt = ws, time.Now()
			arrived++
			done := make(chan struct{})
			go func() {
				defer close(done)
				if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
					t.Error(err)
				}
			}()
			return func() { <-done }
		}
		for _, sort := range []string{"created&order=desc", "created&order=asc", "name&order=asc", "name&order=desc"} {
			seen := map[string]int{}
			cursor := ""
			for pages := 0; ; pages++ {
				wait := arrive()
				got := expect(t, e.do(owner, "GET", "/api/codes?limit=17&sort="+sort+cursor, ""), http.StatusOK, "")
				wait()
				if _, has := got["total"]; has != (cursor == "") {
					t.Errorf("sort %s page %d: total given %v", sort, pages, has)
				}
				for _, it := range got["items"].([]any) {
					m := it.(map[string]any)
					seen[fmt.Sprintf("%v %v", m["kind"], m["id"])]++
				}
				next, _ := got["nextCursor"].(string)
				if next == "" {
					break
				}
				cursor = "&cursor=" + next
				if pages > 200 {
					t.Fatal("paging does not end")
				}
			}
			for k := range want {
				if seen[k] != 1 {
					t.Errorf("sort %s: %s seen %d times", sort, k, seen[k])
				}
			}
			for k, n := range seen {
				if n != 1 {
					t.Errorf("sort %s: %s seen %d times", sort, k, n)
				}
			}
		}

		// count is how many codes a query lists; the first page's total
		// agrees with it (the query's codes all fit on one page).
		count := func(query string) int {
			got := expect(t, e.do(owner, "GET", "/api/codes?limit=100&"+query, ""), http.StatusOK, "")
			n := len(got["items"].([]any))
			if n < 100 && got["total"] != float64(n) {
				t.Errorf("%s: total %v, listed %d", query, got["total"], n)
			}
			return n
		}
		if n := count("q=SPECIAL&kind=dynamic"); n != 25 {
			t.Errorf("destination search found %d, want 25", n)
		}
		if n := count("q=code%20007"); n != 1 {
			t.Errorf("name search found %d, want 1", n)
		}
		if n := count("q=%25"); n != 0 {
			t.Errorf("a literal %% matched %d codes", n)
		}
		tag := expect(t, e.do(owner, "POST", "/api/tags", `{"name":"Window"}`), http.StatusCreated, "")
		got := expect(t, e.do(owner, "GET", "/api/codes?kind=static&limit=3&sort=name&order=asc", ""), http.StatusOK, "")
		for _, it := range got["items"].([]any) {
			expect(t, e.do(owner, "PUT", fmt.Sprintf("/api/qrcodes/%v/tags", it.(map[string]any)["id"]), fmt.Sprintf(`{"tagIds":[%v]}`, tag["id"])), http.StatusOK, "")
		}
		if n := count(fmt.Sprintf("tag=%v", tag["id"])); n != 3 {
			t.Errorf("tag filter found %d, want 3", n)
		}
		if n := count("q=window"); n != 3 {
			t.Errorf("tag-name search found %d, want 3", n)
		}
		if n := count("status=paused"); n != 0 {
			t.Errorf("%d paused", n)
		}
		if n := count("type=text"); n != 100 {
			t.Errorf("type filter found %d, want a full page", n)
		}
		if got := expect(t, e.do(owner, "GET", "/api/codes?limit=100&type=text", ""), http.StatusOK, ""); got["total"] != float64(125) {
			t.Errorf("type filter's total: %v, want the 125 static codes", got["total"])
		}
		top := expect(t, e.do(owner, "GET", "/api/codes?sort=name&order=asc&limit=2&kind=static", ""), http.StatusOK, "")["items"].([]any)
		if top[0].(map[string]any)["name"] != "Code 001" || top[1].(map[string]any)["name"] != "Code 003" {
			t.Errorf("by name: %v, %v", top[0].(map[string]any)["name"], top[1].(map[string]any)["name"])
		}
		for _, bad := range []string{"limit=0", "limit=101", "limit=x", "sort=size", "order=up", "kind=both", "status=gone",
			"tag=x", "cursor=nope", "q=%00", "q=%ff", "type=%00", "q=" + strings.Repeat("a", 201), "cursor=" + encodeCursor(codeCursor{Sort: "name", Desc: true, At: store.CodeCursor{Value: "a", ID: 1}})} {
			expect(t, e.do(owner, "GET", "/api/codes?"+bad, ""), http.StatusBadRequest, "")
		}
		// FTS5's syntax in a search is only text.
		for _, odd := range []string{`"`, `a"b*c'`, `NEAR(a b)`, `code OR x`, `-`, `\`, `%_`} {
			expect(t, e.do(owner, "GET", "/api/codes?q="+url.QueryEscape(odd), ""), http.StatusOK, "")
		}
		// The public API pages the same way.
		key, _ := e.newKey(owner, "k")
		page := expect(t, e.api(key, "GET", "/api/v1/codes?limit=5&kind=static&sort=name&order=asc", ""), http.StatusOK, "")
		if data := page["data"].([]any); len(data) != 5 || data[0].(map[string]any)["name"] != "Code 001" || page["nextCursor"] == nil {
			t.Errorf("v1 page = %v", page)
		}
	})
}

// Through the API: an invitation accepted by another address, or by its
// own before the address is proven, is 403 and changes nothing; the last
// owner can neither leave nor be demoted; the personal workspace stays.
func TestInvitationsAndOwners(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		owner, ownerID := e.signedIn("boss@example.com")
		ws := expect(t, e.do(owner, "POST", "/api/workspaces", `{"name":"Shop"}`), http.StatusCreated, "")
		path := fmt.Sprintf("/api/workspaces/%v", ws["id"])
		expect(t, e.do(owner, "POST", path+"/invitations", `{"email":"Invitee@Example.com","role":"viewer"}`), http.StatusCreated, "")
		token := e.mail.link(t, "invitee@example.com", `/invitations/accept\?token=([A-Za-z0-9_-]+)&email=invitee%40example\.com`)
		// The link carries the address, for the sign-up and sign-in forms.
		if !strings.Contains(e.mail.sent[len(e.mail.sent)-1].Text, testConfig(t).BaseURL+"/invitations/accept?token=") {
			t.Errorf("the invitation links elsewhere: %s", e.mail.sent[len(e.mail.sent)-1].Text)
		}
		// The same address again, or a member's, is 409 and mails nothing.
		sent := len(e.mail.sent)
		expect(t, e.do(owner, "POST", path+"/invitations", `{"email":"INVITEE@example.com","role":"editor"}`), http.StatusConflict, "Already invited as Viewer")
		expect(t, e.do(owner, "POST", path+"/invitations", `{"email":"boss@example.com","role":"editor"}`), http.StatusConflict, "Already a member")
		if len(e.mail.sent) != sent {
			t.Errorf("a refused invitation was mailed")
		}
		// The link's page says what it is for before anyone signs in.
		boss := expect(t, e.do(owner, "GET", "/api/user", ""), http.StatusOK, "")
		sender := cmp.Or(strings.TrimSpace(fmt.Sprint(boss["firstName"], " ", boss["lastName"])), "boss@example.com")
		preview := expect(t, e.do(e.browser(), "GET", "/api/invitations/preview?token="+token, ""), http.StatusOK, "")
		if preview["workspaceName"] != "Shop" || preview["role"] != "viewer" || preview["invitedBy"] != sender || preview["expiresAt"] == nil || preview["email"] != nil {
			t.Errorf("preview %v, want Shop, viewer, from %q", preview, sender)
		}
		for _, bad := range []string{"nope", "%00", "%ff", strings.Repeat("a", 5000)} {
			expect(t, e.do(e.browser(), "GET", "/api/invitations/preview?token="+bad, ""), http.StatusNotFound, msgInvitationBad)
		}
		expect(t, e.do(e.browser(), "GET", "/api/invitations/preview", ""), http.StatusBadRequest, "Token is required")
		before := fingerprint(t, st, int64(ws["id"].(float64)))
		stranger, _ := e.signedIn("stranger@example.com")
		e.verifyEmail(stranger, "stranger@example.com")
		expect(t, e.do(stranger, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`), http.StatusForbidden, msgWrongInvitee)
		invitee, _ := e.signedIn("invitee@example.com")
		expect(t, e.do(invitee, "POST", "/api/invitations/accept", `{"token":"nope"}`), http.StatusNotFound, msgInvitationBad)
		if after := fingerprint(t, st, int64(ws["id"].(float64))); after != before {
			t.Fatalf("refused acceptances changed the workspace:\n%s\n%s", before, after)
		}
		// Registered through the invitation, not yet confirmed: the mailed token proves the address.
		if u := expect(t, e.do(invitee, "GET", "/api/user", ""), http.StatusOK, ""); u["emailVerified"] != false {
			t.Fatalf("the invitee starts confirmed: %v", u)
		}
		joined := expect(t, e.do(invitee, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`), http.StatusOK, "")
		if u := expect(t, e.do(invitee, "GET", "/api/user", ""), http.StatusOK, ""); u["emailVerified"] != true {
			t.Errorf("accepting did not confirm the address: %v", u)
		}
		if joined["role"] != "viewer" || joined["name"] != "Shop" {
			t.Errorf("joined %v", joined)
		}
		if u := expect(t, e.do(invitee, "GET", "/api/user", ""), http.StatusOK, ""); u["workspace"].(map[string]any)["name"] != "Shop" {
			t.Errorf("the accepted workspace is not active: %v", u["workspace"])
		}
		expect(t, e.do(invitee, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`), http.StatusNotFound, msgInvitationBad)
		expect(t, e.do(e.browser(), "GET", "/api/invitations/preview?token="+token, ""), http.StatusNotFound, msgInvitationBad)

		me := fmt.Sprintf("%s/members/%d", path, ownerID)
		expect(t, e.do(owner, "PATCH", me, `{"role":"admin"}`), http.StatusConflict, msgLastOwner)
		expect(t, e.do(owner, "DELETE", me, ""), http.StatusConflict, msgLastOwner)
		list := e.do(owner, "GET", "/api/workspaces", "")
		var all []map[string]any
		if err := json.Unmarshal(list.body, &all); err != nil || len(all) != 2 || all[0]["personal"] != true || all[1]["name"] != "Shop" {
			t.Fatalf("workspaces = %s", list.body)
		}
		expect(t, e.do(owner, "DELETE", fmt.Sprintf("/api/workspaces/%v", all[0]["id"]), ""), http.StatusConflict, msgPersonal)
		// A viewer leaves by themselves.
		inviteeID := int64(expect(t, e.do(invitee, "GET", "/api/user", ""), http.StatusOK, "")["id"].(float64))
		expect(t, e.do(invitee, "DELETE", fmt.Sprintf("%s/members/%d", path, inviteeID), ""), http.StatusNoContent, "")
		expect(t, e.do(invitee, "GET", path+"/members", ""), http.StatusNotFound, msgWorkspaceMissing)
	})
}

// A key acts with its maker's role at each call (issue 32): a demoted
// admin's key reads but no longer writes; once its maker is removed, leaves
// or deletes the account it is 401 and gone, and so are the invitations
// they sent. What it made stays the workspace's.
func TestKeyActsWithItsMakersRole(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner, admin := f.members["owner"], f.members["admin"]
		member := func(role string) string {
			return fmt.Sprintf("/api/workspaces/%d/members/%d", f.ws, f.memberIDs[role])
		}
		invitations := fmt.Sprintf("/api/workspaces/%d/invitations", f.ws)
		code := fmt.Sprintf("/api/v1/codes/d_%d", f.dynamic)
		key, _ := e.newKey(admin, "integration")
		var keys []map[string]any
		decodeList(t, e.do(owner, "GET", "/api/api-keys", ""), &keys)
		if len(keys) != 2 || keys[0]["name"] != "integration" {
			t.Fatalf("keys = %v", keys)
		}
		if by := keys[0]["createdBy"].(map[string]any); by["email"] != "admin@example.com" || int64(by["userId"].(float64)) != f.memberIDs["admin"] {
			t.Errorf("the admin's key is listed as made by %v", by)
		}
		if by := keys[1]["createdBy"].(map[string]any); by["email"] != "owner@example.com" {
			t.Errorf("the owner's key is listed as made by %v", by)
		}
		made := expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/before"}`), http.StatusCreated, "")
		expect(t, e.do(admin, "POST", invitations, `{"email":"pending@example.com","role":"editor"}`), http.StatusCreated, "")
		token := e.mail.link(t, "pending@example.com", `/invitations/accept\?token=([A-Za-z0-9_-]+)`)

		// Demoted to viewer: the key reads, and writes nothing.
		expect(t, e.do(owner, "PATCH", member("admin"), `{"role":"viewer"}`), http.StatusNoContent, "")
		before := fingerprint(t, st, f.ws)
		expect(t, e.api(key, "GET", "/api/v1/codes", ""), http.StatusOK, "")
		expect(t, e.api(key, "GET", code, ""), http.StatusOK, "")
		expect(t, e.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","qrType":"url","destination":"https://example.com/x"}`), http.StatusForbidden, msgNoPermission)
		expect(t, e.api(key, "PATCH", code, `{"destination":"https://evil.example/"}`), http.StatusForbidden, msgNoPermission)
		expect(t, e.api(key, "POST", "/api/v1/webhooks", `{"url":"https://evil.example/hook","events":["scan.created"]}`), http.StatusForbidden, msgNoPermission)
		if after := fingerprint(t, st, f.ws); after != before {
			t.Fatalf("a viewer's key changed the workspace:\n%s\n%s", before, after)
		}
		// Made editor again, it writes again: the role is read at each call.
		expect(t, e.do(owner, "PATCH", member("admin"), `{"role":"editor"}`), http.StatusNoContent, "")
		expect(t, e.api(key, "PATCH", code, `{"destination":"https://example.com/again"}`), http.StatusOK, "")

		// Removed: 401, the key deleted, the invitation they sent cancelled,
		// the owner's stays.
		expect(t, e.do(owner, "DELETE", member("admin"), ""), http.StatusNoContent, "")
		before = fingerprint(t, st, f.ws)
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/api/v1/codes", ""},
			{"PATCH", code, `{"destination":"https://evil.example/"}`},
			{"POST", "/api/v1/webhooks", `{"url":"https://evil.example/hook","events":["scan.created"]}`},
		} {
			expect(t, e.api(key, c.method, c.path, c.body), http.StatusUnauthorized, "Invalid API key")
		}
		if after := fingerprint(t, st, f.ws); after != before {
			t.Fatalf("a removed member's key changed the workspace:\n%s\n%s", before, after)
		}
		decodeList(t, e.do(owner, "GET", "/api/api-keys", ""), &keys)
		if len(keys) != 1 || keys[0]["createdBy"].(map[string]any)["email"] != "owner@example.com" {
			t.Errorf("after the removal the keys are %v", keys)
		}
		var pending []map[string]any
		decodeList(t, e.do(owner, "GET", invitations, ""), &pending)
		if len(pending) != 1 || int64(pending[0]["id"].(float64)) != f.invitationID {
			t.Errorf("pending invitations after the removal = %v", pending)
		}
		invitee, _ := e.signedIn("pending@example.com")
		e.verifyEmail(invitee, "pending@example.com")
		expect(t, e.do(invitee, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`), http.StatusNotFound, msgInvitationBad)
		// What the key made is still the workspace's.
		list := expect(t, e.do(f.members["viewer"], "GET", "/api/codes?kind=dynamic&limit=100", ""), http.StatusOK, "")
		found := false
		for _, it := range list["items"].([]any) {
			found = found || "d_"+strconv.FormatFloat(it.(map[string]any)["id"].(float64), 'f', -1, 64) == made["id"]
		}
		if !found {
			t.Errorf("the key's code %v is not in the team's list", made["id"])
		}

		// Leaving and deleting the account end a maker's keys and
		// invitations the same way.
		for _, role := range []string{"editor", "viewer"} {
			expect(t, e.do(owner, "PATCH", member(role), `{"role":"admin"}`), http.StatusNoContent, "")
			k, _ := e.newKey(f.members[role], role)
			expect(t, e.do(f.members[role], "POST", invitations, `{"email":"from-`+role+`@example.com","role":"viewer"}`), http.StatusCreated, "")
			expect(t, e.api(k, "GET", "/api/v1/codes", ""), http.StatusOK, "")
			if role == "editor" {
				expect(t, e.do(f.members[role], "DELETE", member(role), ""), http.StatusNoContent, "")
			} else {
				expect(t, e.do(f.members[role], "POST", "/api/delete-account", ""), http.StatusOK, "Account deleted")
			}
			expect(t, e.api(k, "GET", "/api/v1/codes", ""), http.StatusUnauthorized, "Invalid API key")
			decodeList(t, e.do(owner, "GET", invitations, ""), &pending)
			if len(pending) != 1 {
				t.Errorf("after the %s left, pending invitations = %v", role, pending)
			}
		}
		var left int
		storetest.QueryRow(t, st, `SELECT count(*) FROM api_keys WHERE workspace_id = $1`, []any{f.ws}, &left)
		if left != 1 {
			t.Errorf("the team has %d API keys, want the owner's alone", left)
		}
	})
}
