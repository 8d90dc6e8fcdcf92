package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/billing/billingtest"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

const testWebhookSecret = "whsec_squarely_test"

// withStripe turns payments on, calling the Stripe API at apiURL.
func withStripe(apiURL string) option {
	return withConfig(func(c *config.Config) {
		c.StripeSecretKey, c.StripePublishableKey = "sk_test_123", "pk_test_123"
		c.StripePricingTableID, c.StripeWebhookSecret, c.StripeAPIURL = "prctbl_123", testWebhookSecret, apiURL
	})
}

// stripeCalls is a proxy in front of stripe-mock that keeps the form of
// every request, so tests see what the server asked Stripe for.
type stripeCalls struct {
	mu    sync.Mutex
	calls []stripeCall
}

type stripeCall struct {
	path string
	form url.Values
}

func recordStripe(t *testing.T) (string, *stripeCalls) {
	target, _ := url.Parse(testenv.StripeMock(t))
	rec := &stripeCalls{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		rec.mu.Lock()
		rec.calls = append(rec.calls, stripeCall{r.URL.Path, form})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, rec
}

func (s *stripeCalls) to(path string) []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []url.Values
	for _, c := range s.calls {
		if c.path == path {
			out = append(out, c.form)
		}
	}
	return out
}

// webhook delivers a Stripe event signed at time at.
func (e *env) webhook(body []byte, at time.Time) *response {
	e.t.Helper()
	return e.do(e.browser(), "POST", "/api/stripe/webhook", string(body), "Stripe-Signature", billingtest.Sign(body, testWebhookSecret, at))
}

func TestPaymentsOff(t *testing.T) {
	e := start(t, storetest.Open(t))
	cfg := expect(t, e.do(e.browser(), "GET", "/api/billing/config", ""), http.StatusOK, "")
	if cfg["enabled"] != false || cfg["message"] != msgPaymentsOff || cfg["publishableKey"] != nil || cfg["dynamicLimit"] != float64(12) {
		t.Errorf("config without keys: %v", cfg)
	}
	c, _ := e.signedIn("off@example.com")
	expect(t, e.do(c, "POST", "/api/create-payment-intent", `{"amount":100,"productId":1}`), http.StatusServiceUnavailable, msgPaymentsOff)
	expect(t, e.do(c, "POST", "/api/billing-portal", ""), http.StatusServiceUnavailable, msgPaymentsOff)
	expect(t, e.do(c, "POST", "/api/billing/pricing-table", ""), http.StatusServiceUnavailable, msgPaymentsOff)
	expect(t, e.do(c, "POST", "/api/billing/checkout-session", ""), http.StatusServiceUnavailable, msgPaymentsOff)
	expect(t, e.do(c, "GET", "/api/payment-intent/pi_123", ""), http.StatusServiceUnavailable, msgPaymentsOff)
	body := billingtest.Event("evt_off", "customer.subscription.updated", time.Now(), billingtest.Subscription("sub_1", "cus_1", "active", time.Now()))
	expect(t, e.webhook(body, time.Now()), http.StatusServiceUnavailable, msgWebhooksOff)
	// The checkout pages keep the app's policy: no Stripe origin is allowed.
	for _, path := range []string{"/subscribe", "/payment"} {
		if csp := e.do(c, "GET", path, "").Header.Get("Content-Security-Policy"); csp != appCSP {
			t.Errorf("%s without payments: CSP %q", path, csp)
		}
	}
}

func TestPaymentCheckout(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		apiURL, calls := recordStripe(t)
		e := start(t, st, withStripe(apiURL))
		visitor := e.browser()

		cfg := expect(t, e.do(visitor, "GET", "/api/billing/config", ""), http.StatusOK, "")
		if cfg["enabled"] != true || cfg["publishableKey"] != "pk_test_123" || cfg["pricingTableId"] != "prctbl_123" {
			t.Errorf("config: %v", cfg)
		}
		for path, want := range map[string]string{"/subscribe": stripeCSP, "/payment": stripeCSP, "/": appCSP, "/payment-success": appCSP} {
			if csp := e.do(visitor, "GET", path, "").Header.Get("Content-Security-Policy"); csp != want {
				t.Errorf("%s: CSP %q, want %q", path, csp, want)
			}
		}

		// A seller saves a payment code; a visitor opens its product.
		seller, _ := e.signedIn("seller@example.com")
		code := expect(t, e.postForm(seller, "/api/qrcodes", part{"qrType", "payment", ""}, part{"productName", "Tea", ""},
			part{"productPrice", "12.50", ""}, part{"productDescription", "Green tea", ""}), http.StatusCreated, "")
		productID := strings.TrimPrefix(code["data"].(string), testConfig(t).BaseURL+"/payment?id=")
		got := expect(t, e.do(visitor, "GET", "/api/payment-product/"+productID, ""), http.StatusOK, "")
		if got["productName"] != "Tea" || got["productDescription"] != "Green tea" || got["productPrice"] != 1250.0 || fmt.Sprint(got["id"]) != productID {
			t.Errorf("product: %v", got)
		}
		for _, id := range []string{"999999", "abc", "-1", "0", "1e3"} {
			expect(t, e.do(visitor, "GET", "/api/payment-product/"+id, ""), http.StatusNotFound, msgProductMissing)
		}

		// The charge is the stored price, with the product and code as metadata.
		m := expect(t, e.do(visitor, "POST", "/api/create-payment-intent",
			`{"amount":1250,"productId":`+productID+`,"productName":"Tea"}`), http.StatusOK, "")
		if s, _ := m["clientSecret"].(string); !strings.Contains(s, "_secret_") {
			t.Errorf("clientSecret %v", m["clientSecret"])
		}
		intents := calls.to("/v1/payment_intents")
		if len(intents) != 1 {
			t.Fatalf("%d payment intents created, want 1", len(intents))
		}
		f := intents[0]
		if f.Get("amount") != "1250" || f.Get("currency") != "usd" || f.Get("metadata[productId]") != productID ||
			f.Get("metadata[codeId]") != idOf(code) {
			t.Errorf("payment intent request %v", f)
		}

		// Wrong amounts, unknown products and bad bodies create no intent.
		for _, tc := range []struct{ body, msg string }{
			{`{"amount":1,"productId":` + productID + `}`, msgAmountMismatch},
			{`{"amount":1250.5,"productId":` + productID + `}`, "amount must be a number"},
			{`{"productId":` + productID + `}`, msgAmountMismatch},
			{`{"amount":"1250","productId":` + productID + `}`, "amount must be a number"},
			{`{"amount":1250}`, msgProductIDRequired},
			{`{"amount":1250,"productId":0}`, msgProductIDRequired},
			{`{"amount":1250,"productId":"` + productID + `"}`, "productId must be a number"},
			{`{"amount":1250,"productId":999999}`, msgProductMissing},
			{`{"amount":`, "Malformed JSON body"},
			{`[]`, "Request body must be a JSON object"},
		} {
			r := e.do(visitor, "POST", "/api/create-payment-intent", tc.body)
			if r.StatusCode != http.StatusBadRequest && r.StatusCode != http.StatusNotFound {
				t.Errorf("%s: status %d", tc.body, r.StatusCode)
			}
			if msg := r.json(t)["message"]; msg != tc.msg {
				t.Errorf("%s: message %q, want %q", tc.body, msg, tc.msg)
			}
		}
		if n := len(calls.to("/v1/payment_intents")); n != 1 {
			t.Errorf("refused requests created %d more intents", n-1)
		}

		// The success page's status comes from Stripe, not from the query.
		pi := expect(t, e.do(visitor, "GET", "/api/payment-intent/pi_123", ""), http.StatusOK, "")
		if pi["status"] == nil || pi["status"] == "" || pi["id"] == nil {
			t.Errorf("payment intent %v", pi)
		}
		for _, id := range []string{"pi_", "abc", "pi_1%2F..", "pi_" + strings.Repeat("a", 200)} {
			expect(t, e.do(visitor, "GET", "/api/payment-intent/"+id, ""), http.StatusNotFound, msgPaymentMissing)
		}

		// Stripe's events record the payments; the seller's card shows them.
		now := time.Now()
		pay := func(evID, intent, typ string, amount int64) {
			t.Helper()
			body := billingtest.Event(evID, typ, now, billingtest.PaymentIntent(intent, amount, productID, ""))
			expect(t, e.webhook(body, now), http.StatusOK, "")
		}
		pay("evt_p1", "pi_a", "payment_intent.succeeded", 1250)
		pay("evt_p1", "pi_a", "payment_intent.succeeded", 1250) // redelivered
		pay("evt_p2", "pi_b", "payment_intent.payment_failed", 1250)
		pay("evt_p3", "pi_c", "payment_intent.succeeded", 1250)
		var list []map[string]any
		decodeList(t, e.do(seller, "GET", "/api/qrcodes", ""), &list)
		if len(list) != 1 || fmt.Sprint(list[0]["payments"]) != "map[count:2 total:2500]" {
			t.Errorf("seller's list: %v", list)
		}
		// The dashboard's list (GET /api/codes) shows the same totals on the card.
		var page struct{ Items []map[string]any }
		if r := e.do(seller, "GET", "/api/codes", ""); r.StatusCode != http.StatusOK || json.Unmarshal(r.body, &page) != nil {
			t.Fatalf("GET /api/codes: %d %s", r.StatusCode, r.body)
		}
		if len(page.Items) != 1 || fmt.Sprint(page.Items[0]["payments"]) != "map[count:2 total:2500]" {
			t.Errorf("seller's code list: %v", page.Items)
		}
		if n := storetest.Count(t, st, "payments"); n != 3 {
			t.Errorf("%d payments stored, want 3", n)
		}
	})
}

func TestWebhookRefusals(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st, withStripe("http://127.0.0.1:1"))
	u := storetest.CreateUser(t, st, "sub@example.com")
	now := time.Now()
	body := billingtest.Event("evt_1", "checkout.session.completed", now,
		billingtest.Checkout("cs_1", strconv.FormatInt(u.ID, 10), u.Username, "cus_1", "sub_1"))
	do := func(sig string, payload []byte) *response {
		return e.do(e.browser(), "POST", "/api/stripe/webhook", string(payload), "Stripe-Signature", sig)
	}
	expect(t, do("", body), http.StatusBadRequest, msgBadSignature)
	expect(t, do(billingtest.Sign(body, "whsec_wrong", now), body), http.StatusBadRequest, msgBadSignature)
	expect(t, do(billingtest.Sign(body, testWebhookSecret, now.Add(-301*time.Second)), body), http.StatusBadRequest, msgBadSignature)
	tampered := bytes.Replace(body, []byte("cus_1"), []byte("cus_9"), 1)
	expect(t, do(billingtest.Sign(body, testWebhookSecret, now), tampered), http.StatusBadRequest, msgBadSignature)
	junk := []byte(`{"id":"evt_x","object":"event"`)
	expect(t, do(billingtest.Sign(junk, testWebhookSecret, now), junk), http.StatusBadRequest, msgBadEvent)
	huge := bytes.Repeat([]byte("a"), maxJSONBody+1)
	if r := do(billingtest.Sign(huge, testWebhookSecret, now), huge); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("huge body: %d", r.StatusCode)
	}
	if n := storetest.Count(t, st, "stripe_events"); n != 0 {
		t.Fatalf("refused deliveries recorded %d events", n)
	}

	// Signed within 300 s it is applied, once; a replay is answered, not applied.
	m := expect(t, do(billingtest.Sign(body, testWebhookSecret, now.Add(-290*time.Second)), body), http.StatusOK, "")
	if m["duplicate"] != false {
		t.Errorf("first delivery: %v", m)
	}
	if _, err := st.SetStripeCustomer(t.Context(), u.ID, "cus_other"); err != nil {
		t.Fatal(err)
	}
	m = expect(t, do(billingtest.Sign(body, testWebhookSecret, now), body), http.StatusOK, "")
	if m["duplicate"] != true {
		t.Errorf("replay: %v", m)
	}
	if got, _ := st.PersonalWorkspace(t.Context(), u.ID); got.StripeCustomerID != "cus_1" || storetest.Count(t, st, "stripe_events") != 1 {
		t.Errorf("after the replay: %+v", got)
	}
}

// TestSubscriptionLifecycle follows a subscriber through Stripe's webhooks:
// the subscription lifts the dynamic limit and hides the trial, the portal
// opens, a second checkout is refused, and the cancellation restores the limit.
// Issue 21: without a pricing table, /subscribe's Subscribe button starts
// Stripe Checkout for SQUARELY_STRIPE_PRICE_ID (against stripe-mock).
func TestSubscriptionCheckoutSession(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		apiURL, calls := recordStripe(t)
		// Stripe on, no price: the page is told, and the button's call says why it cannot.
		noPrice := start(t, st, withStripe(apiURL))
		if cfg := expect(t, noPrice.do(noPrice.browser(), "GET", "/api/billing/config", ""), http.StatusOK, ""); cfg["priceId"] != "" {
			t.Errorf("config without a price: %v", cfg)
		}
		c0, _ := noPrice.signedIn("noprice@example.com")
		expect(t, noPrice.do(c0, "POST", "/api/billing/checkout-session", ""), http.StatusServiceUnavailable, msgSubscriptionsOff)

		e := start(t, st, withStripe(apiURL), withConfig(func(c *config.Config) { c.StripePricingTableID, c.StripePriceID = "", "price_premium" }))
		if cfg := expect(t, e.do(e.browser(), "GET", "/api/billing/config", ""), http.StatusOK, ""); cfg["priceId"] != "price_premium" || cfg["pricingTableId"] != "" {
			t.Errorf("config with a price: %v", cfg)
		}
		expect(t, e.do(e.browser(), "POST", "/api/billing/checkout-session", ""), http.StatusUnauthorized, "")
		if n := len(calls.to("/v1/checkout/sessions")); n != 0 {
			t.Fatalf("%d checkout sessions before any was asked for", n)
		}

		c, uid := e.signedIn("premium@example.com")
		ref := strconv.FormatInt(storetest.Personal(t, st, uid), 10) // the subscriber is the workspace
		out := expect(t, e.do(c, "POST", "/api/billing/checkout-session", ""), http.StatusOK, "")
		if u, _ := out["url"].(string); !strings.HasPrefix(u, "https://") {
			t.Errorf("checkout answer %v", out)
		}
		base := testConfig(t).BaseURL
		sessions := calls.to("/v1/checkout/sessions")
		if len(sessions) != 1 {
			t.Fatalf("checkout sessions: %v", sessions)
		}
		f := sessions[0]
		if f.Get("mode") != "subscription" || f.Get("line_items[0][price]") != "price_premium" || f.Get("line_items[0][quantity]") != "1" ||
			f.Get("client_reference_id") != ref || f.Get("customer_email") != "premium@example.com" || f.Get("customer") != "" ||
			f.Get("success_url") != base+"/subscribe?checkout=success" || f.Get("cancel_url") != base+"/subscribe" {
			t.Errorf("checkout session request %v", f)
		}

		// The session completes and the subscription is live: a second checkout is refused, and Stripe is not asked.
		now := time.Now()
		expect(t, e.webhook(billingtest.Event("evt_cs", "checkout.session.completed", now.Add(-time.Minute),
			billingtest.Checkout("cs_1", ref, "premium@example.com", "cus_9", "sub_9")), now), http.StatusOK, "")
		expect(t, e.webhook(billingtest.Event("evt_sub", "customer.subscription.updated", now.Add(-30*time.Second),
			billingtest.Subscription("sub_9", "cus_9", "active", now.Add(-time.Minute))), now), http.StatusOK, "")
		expect(t, e.do(c, "POST", "/api/billing/checkout-session", ""), http.StatusConflict, msgAlreadySubscribed)

		// Canceled: a new checkout goes to the same Stripe customer.
		expect(t, e.webhook(billingtest.Event("evt_del", "customer.subscription.deleted", now.Add(-10*time.Second),
			billingtest.Subscription("sub_9", "cus_9", "canceled", now.Add(-time.Minute))), now), http.StatusOK, "")
		expect(t, e.do(c, "POST", "/api/billing/checkout-session", ""), http.StatusOK, "")
		if s := calls.to("/v1/checkout/sessions"); len(s) != 2 || s[1].Get("customer") != "cus_9" || s[1].Get("customer_email") != "" {
			t.Errorf("returning customer's checkout: %v", s)
		}
	})
}

func TestSubscriptionLifecycle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		apiURL, calls := recordStripe(t)
		e := start(t, st, withStripe(apiURL), withConfig(func(c *config.Config) { c.DynamicLimit = 1 }))
		c, uid := e.signedIn("subscriber@example.com")
		e.createDynamic(c, "https://example.com/1")
		const limitMsg = "You have reached your limit of 1 dynamic QR codes. Please upgrade to create more." + msgFreeShared
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/2", ""}), http.StatusForbidden, limitMsg)
		expect(t, e.do(c, "POST", "/api/billing-portal", ""), http.StatusConflict, msgNoSubscription)
		table := expect(t, e.do(c, "POST", "/api/billing/pricing-table", ""), http.StatusOK, "")
		if table["customerEmail"] != "subscriber@example.com" || table["clientReferenceId"] != strconv.FormatInt(storetest.Personal(t, st, uid), 10) {
			t.Errorf("pricing table for a new customer: %v", table)
		}
		expect(t, e.do(e.browser(), "POST", "/api/billing/pricing-table", ""), http.StatusUnauthorized, "")

		t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
		sub := func(id, status string, at time.Duration) []byte {
			return billingtest.Event(id, "customer.subscription.updated", t0.Add(at), billingtest.Subscription("sub_1", "cus_1", status, t0))
		}
		now := time.Now()
		expect(t, e.webhook(billingtest.Event("evt_co", "checkout.session.completed", t0,
			billingtest.Checkout("cs_1", strconv.FormatInt(uid, 10), "subscriber@example.com", "cus_1", "sub_1")), now), http.StatusOK, "")
		expect(t, e.webhook(sub("evt_active", "active", time.Second), now), http.StatusOK, "")
		status := expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if status["subscriptionStatus"] != "active" || status["canCreateDynamicQR"] != true {
			t.Fatalf("subscriber's trial status: %v", status)
		}
		e.createDynamic(c, "https://example.com/2")
		e.createDynamic(c, "https://example.com/3")

		portal := expect(t, e.do(c, "POST", "/api/billing-portal", ""), http.StatusOK, "")
		if u, _ := portal["url"].(string); !strings.HasPrefix(u, "https://") {
			t.Errorf("portal %v", portal)
		}
		if p := calls.to("/v1/billing_portal/sessions"); len(p) != 1 || p[0].Get("customer") != "cus_1" ||
			p[0].Get("return_url") != testConfig(t).BaseURL+"/subscribe" {
			t.Errorf("portal requests %v", p)
		}
		expect(t, e.do(c, "POST", "/api/billing/pricing-table", ""), http.StatusConflict, msgAlreadySubscribed)

		// A late "incomplete" from before the activation changes nothing.
		expect(t, e.webhook(sub("evt_late", "incomplete", 0), now), http.StatusOK, "")
		expect(t, e.webhook(billingtest.Event("evt_inv", "invoice.payment_failed", t0.Add(2*time.Second),
			map[string]any{"id": "in_1", "object": "invoice", "customer": "cus_1"}), now), http.StatusOK, "")
		if got, _ := st.PersonalWorkspace(t.Context(), uid); got.SubscriptionStatus != "active" {
			t.Fatalf("after a late event: %q", got.SubscriptionStatus)
		}

		// Canceled: the limit is back; a new checkout reuses the customer.
		expect(t, e.webhook(billingtest.Event("evt_del", "customer.subscription.deleted", t0.Add(3*time.Second),
			billingtest.Subscription("sub_1", "cus_1", "canceled", t0)), now), http.StatusOK, "")
		status = expect(t, e.do(c, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if status["subscriptionStatus"] != "canceled" || status["canCreateDynamicQR"] != false {
			t.Errorf("after the cancellation: %v", status)
		}
		expect(t, e.postForm(c, "/api/dynamic-qrcodes", part{"destination", "https://example.com/4", ""}), http.StatusForbidden, limitMsg)
		table = expect(t, e.do(c, "POST", "/api/billing/pricing-table", ""), http.StatusOK, "")
		if table["customerSessionClientSecret"] == nil || table["customerEmail"] != nil {
			t.Errorf("pricing table for a returning customer: %v", table)
		}
		if s := calls.to("/v1/customer_sessions"); len(s) != 1 || s[0].Get("customer") != "cus_1" {
			t.Errorf("customer session requests %v", s)
		}
	})
}

// TestSubscriptionEventsInAnyOrder delivers a subscription's events 1,000
// times, each time shuffled, some two or three times, some signed minutes
// before they arrive: the user always ends in the state of the newest
// event, with one customer and one subscription.
func TestSubscriptionEventsInAnyOrder(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st, withStripe("http://127.0.0.1:1"))
	h := e.srv.Config.Handler // in process: 1,000 runs need no sockets
	rng := rand.New(rand.NewPCG(11, 2026))
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	const runs = 1000
	for run := range runs {
		u := storetest.CreateUser(t, st, fmt.Sprintf("p%d@example.com", run))
		cus, sub := fmt.Sprintf("cus_p%d", run), fmt.Sprintf("sub_p%d", run)
		ev := func(n int, typ string, at time.Duration, obj map[string]any) []byte {
			return billingtest.Event(fmt.Sprintf("evt_%d_%d", run, n), typ, t0.Add(at), obj)
		}
		state := func(status string) map[string]any { return billingtest.Subscription(sub, cus, status, t0) }
		// A subscription's life; statuses[i] is the state after events[:i+1].
		events := [][]byte{
			ev(0, "checkout.session.completed", 0, billingtest.Checkout("cs_"+sub, strconv.FormatInt(u.ID, 10), u.Username, cus, sub)),
			ev(1, "customer.subscription.created", 0, state("incomplete")),
			ev(2, "customer.subscription.updated", 0, state("active")), // same second as created
			ev(3, "invoice.payment_failed", 10*time.Second, map[string]any{"id": "in_" + sub, "object": "invoice", "customer": cus}),
			ev(4, "customer.subscription.updated", 10*time.Second, state("past_due")),
			ev(5, "customer.subscription.updated", 20*time.Second, state("active")),
			ev(6, "customer.subscription.deleted", 30*time.Second, state("canceled")),
		}
		statuses := []string{"", "incomplete", "active", "active", "past_due", "active", "canceled"}
		n := 2 + rng.IntN(len(events)-1) // how far this subscription got
		var deliveries [][]byte
		for _, body := range events[:n] {
			for range 1 + rng.IntN(3) {
				deliveries = append(deliveries, body)
			}
		}
		rng.Shuffle(len(deliveries), func(i, j int) { deliveries[i], deliveries[j] = deliveries[j], deliveries[i] })
		for _, body := range deliveries {
			delay := time.Duration(rng.IntN(290)) * time.Second
			req := httptest.NewRequest("POST", "/api/stripe/webhook", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Stripe-Signature", billingtest.Sign(body, testWebhookSecret, time.Now().Add(-delay)))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				t.Fatalf("run %d: status %d: %s", run, w.Code, w.Body)
			}
		}
		got, err := st.PersonalWorkspace(t.Context(), u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.SubscriptionStatus != statuses[n-1] || got.StripeCustomerID != cus || got.StripeSubscriptionID != sub {
			t.Fatalf("run %d after %d events: status %q, customer %q, subscription %q; want %q",
				run, n, got.SubscriptionStatus, got.StripeCustomerID, got.StripeSubscriptionID, statuses[n-1])
		}
	}
	if n := storetest.Count(t, st, "stripe_subscriptions"); n != runs {
		t.Errorf("%d subscriptions kept, want %d", n, runs)
	}
}

// Concurrent deliveries of one event apply it once, and the checkout limit
// holds under a burst.
func TestPaymentsUnderConcurrency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withStripe("http://127.0.0.1:1"))
		seller := storetest.CreateUser(t, st, "burst@example.com")
		p := &store.PaymentProduct{UserID: &seller.ID, ProductName: "Mug", ProductPrice: 900}
		if err := st.CreatePaymentProduct(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		pid := strconv.FormatInt(p.ID, 10)
		body := billingtest.Event("evt_burst", "payment_intent.succeeded", time.Now(), billingtest.PaymentIntent("pi_burst", 900, pid, ""))
		var wg sync.WaitGroup
		fresh := make([]bool, 12)
		for i := range fresh {
			wg.Go(func() {
				r := e.webhook(body, time.Now())
				fresh[i] = r.StatusCode == http.StatusOK && r.json(t)["duplicate"] == false
			})
		}
		wg.Wait()
		applied := 0
		for _, f := range fresh {
			if f {
				applied++
			}
		}
		totals, err := st.PaymentTotals(t.Context(), seller.ID)
		if applied != 1 || err != nil || totals[p.ID] != (store.PaymentTotal{Count: 1, Total: 900}) {
			t.Errorf("%d deliveries applied, totals %+v (%v); want 1 and one payment", applied, totals, err)
		}

		// Stripe is down here, so admitted requests fail with 502; the
		// limiter still counts each and refuses the ones past the limit.
		statuses := make([]int, checkoutsPerHour+10)
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = e.do(e.browser(), "POST", "/api/create-payment-intent", `{"amount":900,"productId":`+pid+`}`).StatusCode
			})
		}
		wg.Wait()
		limited := 0
		for _, s := range statuses {
			if s == http.StatusTooManyRequests {
				limited++
			}
		}
		if limited != 10 {
			t.Errorf("%d of %d requests limited, want 10", limited, len(statuses))
		}
	})
}
