package server

import (
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/billing"
	"github.com/squarely/squarely/internal/store"
)

// Payments (issue 11, docs/API.md "Payments"): subscriptions through
// Stripe's pricing table and customer portal, the checkout of payment
// codes, and Stripe's webhook. Without Stripe keys s.billing is nil and
// every route here but the config answers 503.

const (
	msgPaymentsOff        = "Payments are not available yet."
	msgWebhooksOff        = "Stripe webhooks are not configured"
	msgBadSignature       = "Invalid Stripe signature"
	msgBadEvent           = "Unreadable Stripe event"
	msgProductIDRequired  = "Product ID is required"
	msgProductMissing     = "Product not found"
	msgAmountMismatch     = "The amount does not match the product's price"
	msgPaymentSetupFailed = "Could not process payment setup"
	msgPaymentMissing     = "Payment not found"
	msgStripeFailed       = "Stripe could not be reached. Please try again."
	msgAlreadySubscribed  = "You already have a subscription. Use Manage subscription to change or cancel it."
	msgNoSubscription     = "You have no subscription to manage yet."
	msgTooManyCheckouts   = "Too many payment attempts from this address. Please try again later."
	msgSubscriptionsOff   = "Subscriptions are not configured yet."
)

// checkoutsPerHour bounds, per client address, the public calls that cost a
// Stripe request (payment intents and their status): far above what a
// buyer needs, far below flooding Stripe with intents.
const checkoutsPerHour = 60

// minChargeCents is Stripe's smallest card charge in dollars, $0.50.
const minChargeCents = 50

// paymentIntentID is the shape of Stripe's payment intent ids; anything
// else is not looked up.
var paymentIntentID = regexp.MustCompile(`^pi_[A-Za-z0-9]{1,100}$`)

// paymentsOn reports whether Stripe is configured; otherwise it has answered 503.
func (s *server) paymentsOn(w http.ResponseWriter) bool {
	if s.billing == nil {
		writeError(w, http.StatusServiceUnavailable, msgPaymentsOff)
		return false
	}
	return true
}

// billingConfig (GET /api/billing/config) tells the web app whether
// payments are on and what Stripe.js needs: the publishable key and the
// pricing table's id, or else the price Checkout sells (priceId).
func (s *server) billingConfig(w http.ResponseWriter, r *http.Request) {
	// dynamicLimit: what /subscribe says Premium lifts.
	out := map[string]any{"enabled": s.billing != nil, "dynamicLimit": s.cfg.DynamicLimit}
	if s.billing != nil {
		out["publishableKey"] = s.cfg.StripePublishableKey
		out["pricingTableId"] = s.cfg.StripePricingTableID
		out["priceId"] = s.cfg.StripePriceID
	} else {
		out["message"] = msgPaymentsOff
	}
	writeJSON(w, http.StatusOK, out)
}

// liveSubscription reports whether a subscription status still holds the
// customer to a plan, so a second checkout would charge them twice.
func liveSubscription(status string) bool {
	switch status {
	case "active", "trialing", "past_due", "unpaid", "incomplete", "paused":
		return true
	}
	return false
}

// pricingTable (POST /api/billing/pricing-table, owners of the active
// workspace) answers the attributes of the /subscribe page's
// <stripe-pricing-table>: the workspace's id as client-reference-id (the
// subscription is the workspace's), and either the user's e-mail (first
// checkout, when Stripe creates the customer) or a customer session of the
// customer the workspace already has, so a returning subscriber is never
// given a second customer. A workspace with a live subscription is refused
// (409).
func (s *server) pricingTable(w http.ResponseWriter, r *http.Request) {
	if !s.paymentsOn(w) {
		return
	}
	u, ws := auth.UserFrom(r.Context()), workspaceFrom(r.Context())
	if liveSubscription(ws.SubscriptionStatus) {
		writeError(w, http.StatusConflict, msgAlreadySubscribed)
		return
	}
	out := map[string]any{"clientReferenceId": strconv.FormatInt(ws.ID, 10)}
	if ws.StripeCustomerID == "" {
		out["customerEmail"] = u.Username
		writeJSON(w, http.StatusOK, out)
		return
	}
	secret, err := s.billing.PricingTableSession(r.Context(), ws.StripeCustomerID)
	if err != nil {
		s.stripeError(w, "creating a customer session", err)
		return
	}
	out["customerSessionClientSecret"] = secret
	writeJSON(w, http.StatusOK, out)
}

// subscriptionCheckout (POST /api/billing/checkout-session, the active
// workspace's owners) starts Stripe Checkout for Premium's monthly price
// (SQUARELY_STRIPE_PRICE_ID) and answers its url: /subscribe's Subscribe
// button when there is no pricing table. Like the table it names the
// workspace as client_reference_id, so the webhook's
// checkout.session.completed links the subscription; a returning customer
// keeps their Stripe customer, and a live subscription is refused (409) so
// no one pays twice.
func (s *server) subscriptionCheckout(w http.ResponseWriter, r *http.Request) {
	if !s.paymentsOn(w) {
		return
	}
	if s.cfg.StripePriceID == "" {
		writeError(w, http.StatusServiceUnavailable, msgSubscriptionsOff)
		return
	}
	u, ws := auth.UserFrom(r.Context()), workspaceFrom(r.Context())
	if liveSubscription(ws.SubscriptionStatus) {
		writeError(w, http.StatusConflict, msgAlreadySubscribed)
		return
	}
	if !s.checkouts.take(w, clientKey(r), msgTooManyCheckouts) {
		return
	}
	url, err := s.billing.SubscriptionCheckoutURL(r.Context(), billing.SubscriptionCheckout{
		PriceID: s.cfg.StripePriceID, ReferenceID: ws.ID, CustomerID: ws.StripeCustomerID, Email: u.Username,
		SuccessURL: s.cfg.BaseURL + "/subscribe?checkout=success", CancelURL: s.cfg.BaseURL + "/subscribe",
	})
	if err != nil {
		s.stripeError(w, "creating a checkout session", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}

// billingPortal (POST /api/billing-portal, signed in) answers the url of
// Stripe's customer portal, where a subscriber manages their plan.
func (s *server) billingPortal(w http.ResponseWriter, r *http.Request) {
	if !s.paymentsOn(w) {
		return
	}
	ws := workspaceFrom(r.Context())
	if ws.StripeCustomerID == "" {
		writeError(w, http.StatusConflict, msgNoSubscription)
		return
	}
	url, err := s.billing.PortalURL(r.Context(), ws.StripeCustomerID, s.cfg.BaseURL+"/subscribe")
	if err != nil {
		s.stripeError(w, "creating a portal session", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}

// stripeError logs a failed Stripe call and answers 502.
func (s *server) stripeError(w http.ResponseWriter, doing string, err error) {
	s.log.ErrorContext(logContext(w), "stripe error", "doing", doing, "err", err)
	writeError(w, http.StatusBadGateway, msgStripeFailed)
}

// paymentProduct (GET /api/payment-product/{id}, public) answers what a
// payment code sells, for its checkout page.
func (s *server) paymentProduct(w http.ResponseWriter, r *http.Request) {
	p, ok := s.product(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": p.ID, "productName": p.ProductName, "productDescription": p.ProductDescription, "productPrice": p.ProductPrice,
	})
}

// product loads the payment product of a request's id; on failure it has
// answered 404.
func (s *server) product(w http.ResponseWriter, r *http.Request, rawID string) (*store.PaymentProduct, bool) {
	id, ok := parseID(rawID)
	if !ok {
		writeError(w, http.StatusNotFound, msgProductMissing)
		return nil, false
	}
	p, err := s.store.PaymentProduct(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgProductMissing)
		return nil, false
	}
	if err != nil {
		s.internalError(w, "reading a payment product", err)
		return nil, false
	}
	return p, true
}

// createPaymentIntent (POST /api/create-payment-intent {amount, productId,
// productName}, public) starts the card payment of a payment product. The
// charge is always the stored price: an amount that differs is refused,
// so a buyer cannot pay less than the seller asked.
func (s *server) createPaymentIntent(w http.ResponseWriter, r *http.Request) {
	if !s.paymentsOn(w) {
		return
	}
	var in struct {
		Amount      *int64 `json:"amount"`
		ProductID   *int64 `json:"productId"`
		ProductName string `json:"productName"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	if in.ProductID == nil || *in.ProductID <= 0 {
		fieldError(w, "productId", msgProductIDRequired)
		return
	}
	if !s.checkouts.take(w, clientKey(r), msgTooManyCheckouts) {
		return
	}
	p, ok := s.product(w, r, strconv.FormatInt(*in.ProductID, 10))
	if !ok {
		return
	}
	if in.Amount == nil || *in.Amount != p.ProductPrice {
		fieldError(w, "amount", msgAmountMismatch)
		return
	}
	if p.ProductPrice < minChargeCents {
		fieldError(w, "amount", "Card payments start at $0.50")
		return
	}
	codeID, err := s.store.PaymentCodeID(r.Context(), p.ID)
	if err != nil {
		s.internalError(w, "finding a payment code", err)
		return
	}
	pi, err := s.billing.CreatePaymentIntent(r.Context(), billing.PaymentIntentRequest{
		Amount: p.ProductPrice, ProductID: p.ID, CodeID: codeID, ProductName: p.ProductName,
	})
	if err != nil {
		s.log.ErrorContext(r.Context(), "stripe error", "doing", "creating a payment intent", "err", err)
		writeError(w, http.StatusBadGateway, msgPaymentSetupFailed)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"clientSecret": pi.ClientSecret})
}

// paymentStatus (GET /api/payment-intent/{id}, public) answers the status
// Stripe gives a payment intent, for the /payment-success page, which must
// not trust the status in its own query.
func (s *server) paymentStatus(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !paymentIntentID.MatchString(id) {
		writeError(w, http.StatusNotFound, msgPaymentMissing)
		return
	}
	if !s.paymentsOn(w) {
		return
	}
	if !s.checkouts.take(w, clientKey(r), msgTooManyCheckouts) {
		return
	}
	pi, err := s.billing.RetrievePaymentIntent(r.Context(), id)
	if billing.IsNotFound(err) {
		writeError(w, http.StatusNotFound, msgPaymentMissing)
		return
	}
	if err != nil {
		s.stripeError(w, "reading a payment intent", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": pi.ID, "status": pi.Status, "amount": pi.Amount, "currency": pi.Currency})
}

// stripeWebhook (POST /api/stripe/webhook) applies a signed Stripe event.
// A bad or stale signature is 400 and changes nothing; an event seen before
// is answered 200 again without applying it twice; a store failure is 500
// so that Stripe delivers the event again.
func (s *server) stripeWebhook(w http.ResponseWriter, r *http.Request) {
	if s.billing == nil || s.cfg.StripeWebhookSecret == "" {
		writeError(w, http.StatusServiceUnavailable, msgWebhooksOff)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "Request body too large")
		return
	}
	ev, err := s.billing.ParseEvent(body, r.Header.Get("Stripe-Signature"))
	if errors.Is(err, billing.ErrSignature) {
		s.log.WarnContext(r.Context(), "stripe webhook refused", "err", err)
		writeError(w, http.StatusBadRequest, msgBadSignature)
		return
	}
	if err != nil {
		s.log.WarnContext(r.Context(), "stripe webhook unreadable", "err", err)
		writeError(w, http.StatusBadRequest, msgBadEvent)
		return
	}
	applied, err := s.applyEvent(r, ev)
	if err != nil {
		s.internalError(w, "applying a Stripe event", err)
		return
	}
	s.log.InfoContext(r.Context(), "stripe event", "id", ev.ID, "type", ev.Type, "applied", applied)
	writeJSON(w, http.StatusOK, map[string]any{"received": true, "duplicate": !applied})
}

// applyEvent stores the effect of ev, once. It reports false for an event
// applied before.
func (s *server) applyEvent(r *http.Request, ev *billing.Event) (bool, error) {
	ctx := r.Context()
	rec := store.StripeEvent{ID: ev.ID, Type: ev.Type, ObjectID: ev.ObjectID, At: ev.Created}
	switch {
	case ev.Checkout != nil:
		c := ev.Checkout
		link := store.CheckoutLink{Email: strings.TrimSpace(c.Email), CustomerID: c.CustomerID, SubscriptionID: c.SubscriptionID}
		link.WorkspaceID, _ = strconv.ParseInt(c.ClientReferenceID, 10, 64)
		if c.CustomerID == "" {
			return s.store.RecordStripeEvent(ctx, rec)
		}
		return s.store.ApplyCheckout(ctx, rec, link)
	case ev.Subscription != nil:
		sub := ev.Subscription
		return s.store.ApplySubscription(ctx, rec, store.Subscription{
			ID: sub.ID, CustomerID: sub.CustomerID, Status: sub.Status, StartedAt: sub.Created,
		})
	case ev.Payment != nil && ev.Payment.ProductID != 0:
		p := ev.Payment
		status := "failed"
		if p.Succeeded {
			status = "succeeded"
		}
		return s.store.ApplyPayment(ctx, rec, store.Payment{
			PaymentIntentID: p.PaymentIntentID, ProductID: &p.ProductID, Amount: p.Amount,
			Currency: p.Currency, Status: status, FailureMessage: p.FailureMessage,
		})
	}
	// Failed invoices and events of no interest are kept as seen.
	if ev.Type == billing.EventInvoicePaymentFailed {
		s.log.WarnContext(r.Context(), "stripe invoice payment failed", "invoice", ev.ObjectID, "event", ev.ID)
	}
	return s.store.RecordStripeEvent(ctx, rec)
}

// paymentStats is what a payment code took, on its dashboard card.
type paymentStats struct {
	Count int64 `json:"count"`
	Total int64 `json:"total"` // cents
}

// addPaymentStats fills in the payments of the user's payment codes.
func (s *server) addPaymentStats(r *http.Request, userID int64, list []*store.QRCode, out []qrCodeResponse) error {
	totals, err := s.store.PaymentTotals(r.Context(), userID)
	if err != nil {
		return err
	}
	for i, q := range list {
		if q.PaymentProductID != nil {
			t := totals[*q.PaymentProductID]
			out[i].Payments = &paymentStats{Count: t.Count, Total: t.Total}
		}
	}
	return nil
}
