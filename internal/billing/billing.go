// Package billing is Squarely's side of Stripe: payment intents for the
// checkout of payment codes, customers, the pricing table's customer
// sessions and the customer portal for subscriptions, and the webhook
// events that report what happened. It speaks to Stripe through stripe-go
// at one pinned API version; tests point it at stripe-mock.
package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// APIVersion is the Stripe API version every request and every webhook
// event is read at: stripe-go's own, pinned by the module version in
// go.mod. Stripe's webhook endpoint must be created with this version.
const APIVersion = stripe.APIVersion

// Currency of the payment codes' prices (spec 02 §9: cents shown as dollars).
const Currency = "usd"

// Config is how to reach Stripe.
type Config struct {
	SecretKey     string
	WebhookSecret string
	APIURL        string       // "" = Stripe's; tests give stripe-mock's
	HTTPClient    *http.Client // nil = one with a 30 s timeout
}

// Client calls Stripe. It is safe for concurrent use.
type Client struct {
	sc            *stripe.Client
	webhookSecret string
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	// Failures come back as errors, which the server logs; stripe-go's own
	// logger would write them to stderr a second time.
	backend := &stripe.BackendConfig{
		HTTPClient: hc, MaxNetworkRetries: stripe.Int64(2),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIURL != "" {
		backend.URL = stripe.String(cfg.APIURL)
	}
	return &Client{
		sc:            stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(backend))),
		webhookSecret: cfg.WebhookSecret,
	}
}

// Metadata keys a payment intent carries, so its webhook events name the
// product and the saved code they paid for.
const (
	metaProductID = "productId"
	metaCodeID    = "codeId"
)

// PaymentIntentRequest is a charge for a payment product.
type PaymentIntentRequest struct {
	Amount      int64 // cents, the product's stored price
	ProductID   int64
	CodeID      int64 // 0 = no saved code sells it
	ProductName string
}

// PaymentIntent is what the server needs of a Stripe payment intent.
type PaymentIntent struct {
	ID           string
	ClientSecret string
	Status       string // Stripe's: succeeded, processing, requires_payment_method, …
	Amount       int64
	Currency     string
	ProductID    int64 // 0 = not one of ours
}

// CreatePaymentIntent starts a card payment of req.Amount cents.
func (c *Client) CreatePaymentIntent(ctx context.Context, req PaymentIntentRequest) (*PaymentIntent, error) {
	params := &stripe.PaymentIntentCreateParams{
		Amount:                  stripe.Int64(req.Amount),
		Currency:                stripe.String(Currency),
		Description:             stripe.String(req.ProductName),
		AutomaticPaymentMethods: &stripe.PaymentIntentCreateAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)},
	}
	params.AddMetadata(metaProductID, strconv.FormatInt(req.ProductID, 10))
	if req.CodeID != 0 {
		params.AddMetadata(metaCodeID, strconv.FormatInt(req.CodeID, 10))
	}
	pi, err := c.sc.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("billing: unable to create a payment intent: %w", err)
	}
	return paymentIntent(pi), nil
}

// RetrievePaymentIntent reads a payment intent from Stripe.
func (c *Client) RetrievePaymentIntent(ctx context.Context, id string) (*PaymentIntent, error) {
	pi, err := c.sc.V1PaymentIntents.Retrieve(ctx, id, nil)
	if err != nil {
		return nil, fmt.Errorf("billing: unable to read a payment intent: %w", err)
	}
	return paymentIntent(pi), nil
}

func paymentIntent(pi *stripe.PaymentIntent) *PaymentIntent {
	out := &PaymentIntent{
		ID: pi.ID, ClientSecret: pi.ClientSecret, Status: string(pi.Status),
		Amount: pi.Amount, Currency: string(pi.Currency),
	}
	out.ProductID, _ = strconv.ParseInt(pi.Metadata[metaProductID], 10, 64)
	return out
}

// IsNotFound reports whether err is Stripe saying the object does not exist.
func IsNotFound(err error) bool {
	var se *stripe.Error
	return errors.As(err, &se) && (se.HTTPStatusCode == http.StatusNotFound || se.Code == stripe.ErrorCodeResourceMissing)
}

// CreateCustomer creates the Stripe customer of a user. The idempotency key
// makes two racing calls for one user return the same customer.
func (c *Client) CreateCustomer(ctx context.Context, userID int64, email string) (string, error) {
	params := &stripe.CustomerCreateParams{Email: stripe.String(email)}
	params.AddMetadata("userId", strconv.FormatInt(userID, 10))
	params.SetIdempotencyKey("squarely-customer-" + strconv.FormatInt(userID, 10))
	cu, err := c.sc.V1Customers.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("billing: unable to create a customer: %w", err)
	}
	return cu.ID, nil
}

// PricingTableSession returns the client secret that lets the pricing table
// check out as an existing customer, instead of creating another one.
func (c *Client) PricingTableSession(ctx context.Context, customerID string) (string, error) {
	cs, err := c.sc.V1CustomerSessions.Create(ctx, &stripe.CustomerSessionCreateParams{
		Customer: stripe.String(customerID),
		Components: &stripe.CustomerSessionCreateComponentsParams{
			PricingTable: &stripe.CustomerSessionCreateComponentsPricingTableParams{Enabled: stripe.Bool(true)},
		},
	})
	if err != nil {
		return "", fmt.Errorf("billing: unable to create a customer session: %w", err)
	}
	return cs.ClientSecret, nil
}

// SubscriptionCheckout is a Stripe Checkout of one monthly price.
type SubscriptionCheckout struct {
	PriceID     string
	ReferenceID int64  // the subscriber (a workspace), sent as client_reference_id as the pricing table does, for the webhook
	CustomerID  string // "" = Stripe creates the customer from Email
	Email       string
	SuccessURL  string
	CancelURL   string
}

// SubscriptionCheckoutURL creates a Checkout Session in subscription mode
// and returns the address of its payment page. Its completion comes back
// through the webhook (checkout.session.completed) like the pricing table's.
func (c *Client) SubscriptionCheckoutURL(ctx context.Context, req SubscriptionCheckout) (string, error) {
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(req.PriceID), Quantity: stripe.Int64(1)}},
		ClientReferenceID: stripe.String(strconv.FormatInt(req.ReferenceID, 10)),
		SuccessURL:        stripe.String(req.SuccessURL),
		CancelURL:         stripe.String(req.CancelURL),
	}
	if req.CustomerID != "" {
		params.Customer = stripe.String(req.CustomerID)
	} else {
		params.CustomerEmail = stripe.String(req.Email)
	}
	cs, err := c.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("billing: unable to create a checkout session: %w", err)
	}
	return cs.URL, nil
}

// PortalURL returns the address of a customer portal session, where the
// customer manages their subscription and comes back to returnURL.
func (c *Client) PortalURL(ctx context.Context, customerID, returnURL string) (string, error) {
	ps, err := c.sc.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer:  stripe.String(customerID),
		ReturnURL: stripe.String(returnURL),
	})
	if err != nil {
		return "", fmt.Errorf("billing: unable to create a portal session: %w", err)
	}
	return ps.URL, nil
}
