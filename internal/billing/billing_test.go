package billing_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/billing"
	"github.com/squarely/squarely/internal/billing/billingtest"
	"github.com/squarely/squarely/internal/testenv"
)

const secret = "whsec_test_secret"

func TestStripeCallsAgainstStripeMock(t *testing.T) {
	c := billing.New(billing.Config{SecretKey: "sk_test_123", WebhookSecret: secret, APIURL: testenv.StripeMock(t)})
	ctx := context.Background()

	pi, err := c.CreatePaymentIntent(ctx, billing.PaymentIntentRequest{Amount: 1299, ProductID: 7, CodeID: 3, ProductName: "Coffee"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pi.ID, "pi_") || pi.ClientSecret == "" {
		t.Errorf("payment intent %+v", pi)
	}
	got, err := c.RetrievePaymentIntent(ctx, "pi_123")
	if err != nil || got.Status == "" {
		t.Errorf("RetrievePaymentIntent = %+v, %v", got, err)
	}

	cus, err := c.CreateCustomer(ctx, 42, "buyer@example.com")
	if err != nil || !strings.HasPrefix(cus, "cus_") {
		t.Errorf("CreateCustomer = %q, %v", cus, err)
	}
	if s, err := c.PricingTableSession(ctx, cus); err != nil || s == "" {
		t.Errorf("PricingTableSession = %q, %v", s, err)
	}
	if u, err := c.PortalURL(ctx, cus, "https://qr.example.com/subscribe"); err != nil || !strings.HasPrefix(u, "https://") {
		t.Errorf("PortalURL = %q, %v", u, err)
	}

	for _, req := range []billing.SubscriptionCheckout{
		{PriceID: "price_123", ReferenceID: 42, Email: "buyer@example.com", SuccessURL: "https://qr.example.com/subscribe?checkout=success", CancelURL: "https://qr.example.com/subscribe"},
		{PriceID: "price_123", ReferenceID: 42, CustomerID: cus, SuccessURL: "https://qr.example.com/subscribe?checkout=success", CancelURL: "https://qr.example.com/subscribe"},
	} {
		if u, err := c.SubscriptionCheckoutURL(ctx, req); err != nil || !strings.HasPrefix(u, "https://") {
			t.Errorf("SubscriptionCheckoutURL(%+v) = %q, %v", req, u, err)
		}
	}

	// An unreachable Stripe comes back as an error, not a zero value.
	down := billing.New(billing.Config{SecretKey: "sk_test_123", APIURL: "http://127.0.0.1:1"})
	if _, err := down.CreatePaymentIntent(ctx, billing.PaymentIntentRequest{Amount: 100, ProductID: 1}); err == nil {
		t.Error("CreatePaymentIntent succeeded without Stripe")
	}
}

func TestParseEvent(t *testing.T) {
	c := billing.New(billing.Config{SecretKey: "sk_test_123", WebhookSecret: secret})
	now := time.Now()
	created := time.Unix(1_780_000_000, 0).UTC()

	body := billingtest.Event("evt_1", "customer.subscription.updated", created,
		billingtest.Subscription("sub_1", "cus_1", "active", created.Add(-time.Hour)))
	ev, err := c.ParseEvent(body, billingtest.Sign(body, secret, now))
	if err != nil {
		t.Fatal(err)
	}
	want := billing.Subscription{ID: "sub_1", CustomerID: "cus_1", Status: "active", Created: created.Add(-time.Hour)}
	if ev.ID != "evt_1" || !ev.Created.Equal(created) || ev.Subscription == nil || *ev.Subscription != want {
		t.Errorf("event %+v, subscription %+v", ev, ev.Subscription)
	}

	body = billingtest.Event("evt_2", "checkout.session.completed", created,
		billingtest.Checkout("cs_1", "17", "buyer@example.com", "cus_1", "sub_1"))
	ev, err = c.ParseEvent(body, billingtest.Sign(body, secret, now))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Checkout == nil || *ev.Checkout != (billing.Checkout{ClientReferenceID: "17", Email: "buyer@example.com", CustomerID: "cus_1", SubscriptionID: "sub_1"}) {
		t.Errorf("checkout %+v", ev.Checkout)
	}

	body = billingtest.Event("evt_3", "payment_intent.payment_failed", created,
		billingtest.PaymentIntent("pi_1", 500, "9", "Your card was declined."))
	ev, err = c.ParseEvent(body, billingtest.Sign(body, secret, now))
	if err != nil {
		t.Fatal(err)
	}
	if p := ev.Payment; p == nil || p.Succeeded || p.ProductID != 9 || p.Amount != 500 || p.FailureMessage != "Your card was declined." {
		t.Errorf("payment %+v", ev.Payment)
	}

	for name, header := range map[string]string{
		"missing":      "",
		"wrong secret": billingtest.Sign(body, "whsec_other", now),
		"expired":      billingtest.Sign(body, secret, now.Add(-billing.SignatureTolerance-time.Second)),
		"garbage":      "t=abc,v1=zz",
	} {
		if _, err := c.ParseEvent(body, header); !errors.Is(err, billing.ErrSignature) {
			t.Errorf("%s signature: err = %v, want ErrSignature", name, err)
		}
	}
	// A body changed after signing no longer matches its signature.
	sig := billingtest.Sign(body, secret, now)
	tampered := []byte(strings.Replace(string(body), `"amount":500`, `"amount":5`, 1))
	if _, err := c.ParseEvent(tampered, sig); !errors.Is(err, billing.ErrSignature) {
		t.Errorf("tampered body: err = %v", err)
	}
	// Signed, but not an event Stripe would send.
	for _, bad := range []string{`[]`, `{"object":"event","id":"evt_x","api_version":"2020-08-27","type":"x","data":{"object":{}}}`,
		`{"id":"evt_4","object":"event","type":"customer.subscription.updated","data":{"object":{"id":"sub_1"}}}`} {
		if _, err := c.ParseEvent([]byte(bad), billingtest.Sign([]byte(bad), secret, now)); err == nil || errors.Is(err, billing.ErrSignature) {
			t.Errorf("%s: err = %v, want an unreadable event", bad, err)
		}
	}
}
