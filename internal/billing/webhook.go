package billing

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// SignatureTolerance is how old a webhook's signature may be: older
// deliveries are refused, so a captured request cannot be replayed later.
const SignatureTolerance = 300 * time.Second

// ErrSignature is a webhook whose Stripe-Signature header is missing, wrong
// or too old.
var ErrSignature = errors.New("billing: invalid webhook signature")

// The event types Squarely acts on.
const (
	EventCheckoutCompleted      = "checkout.session.completed"
	EventSubscriptionCreated    = "customer.subscription.created"
	EventSubscriptionUpdated    = "customer.subscription.updated"
	EventSubscriptionDeleted    = "customer.subscription.deleted"
	EventInvoicePaymentFailed   = "invoice.payment_failed"
	EventPaymentIntentSucceeded = "payment_intent.succeeded"
	EventPaymentIntentFailed    = "payment_intent.payment_failed"
)

// Event is a verified webhook event. Exactly one of the pointers is set for
// the types above; none for others.
type Event struct {
	ID       string
	Type     string
	ObjectID string
	Created  time.Time

	Checkout     *Checkout
	Subscription *Subscription
	Payment      *Payment
}

// Checkout is a completed subscription checkout.
type Checkout struct {
	ClientReferenceID string // the subscribing workspace's id, as the pricing table was given it
	Email             string
	CustomerID        string
	SubscriptionID    string
}

// Subscription is a subscription's state in an event.
type Subscription struct {
	ID         string
	CustomerID string
	Status     string
	Created    time.Time
}

// Payment is a payment intent's outcome in an event.
type Payment struct {
	PaymentIntentID string
	ProductID       int64 // 0 = not one of ours
	Amount          int64
	Currency        string
	Succeeded       bool
	FailureMessage  string
}

// ParseEvent checks the Stripe-Signature header of a webhook delivery
// against the webhook secret and returns its event. A bad signature or one
// older than SignatureTolerance is ErrSignature; a body Stripe would not
// send is another error.
func (c *Client) ParseEvent(payload []byte, signature string) (*Event, error) {
	ev, err := webhook.ConstructEventWithTolerance(payload, signature, c.webhookSecret, SignatureTolerance)
	if err != nil {
		if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) ||
			errors.Is(err, webhook.ErrNoValidSignature) || errors.Is(err, webhook.ErrTooOld) {
			return nil, fmt.Errorf("%w: %v", ErrSignature, err)
		}
		return nil, fmt.Errorf("billing: unreadable webhook event: %w", err)
	}
	if ev.ID == "" || ev.Data == nil {
		return nil, errors.New("billing: unreadable webhook event: no id or data")
	}
	out := &Event{ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC()}
	switch out.Type {
	case EventCheckoutCompleted:
		var s stripe.CheckoutSession
		if err := decode(ev, &s); err != nil {
			return nil, err
		}
		if s.Mode != stripe.CheckoutSessionModeSubscription {
			return out, nil // not a subscription: nothing of ours
		}
		out.ObjectID = s.ID
		out.Checkout = &Checkout{ClientReferenceID: s.ClientReferenceID, CustomerID: customerID(s.Customer), SubscriptionID: subscriptionID(s.Subscription)}
		if s.CustomerDetails != nil {
			out.Checkout.Email = s.CustomerDetails.Email
		}
		if out.Checkout.Email == "" {
			out.Checkout.Email = s.CustomerEmail
		}
	case EventSubscriptionCreated, EventSubscriptionUpdated, EventSubscriptionDeleted:
		var s stripe.Subscription
		if err := decode(ev, &s); err != nil {
			return nil, err
		}
		out.ObjectID = s.ID
		out.Subscription = &Subscription{ID: s.ID, CustomerID: customerID(s.Customer), Status: string(s.Status), Created: time.Unix(s.Created, 0).UTC()}
		if out.Subscription.ID == "" || out.Subscription.CustomerID == "" || out.Subscription.Status == "" {
			return nil, errors.New("billing: unreadable webhook event: subscription without id, customer or status")
		}
	case EventInvoicePaymentFailed:
		var inv stripe.Invoice
		if err := decode(ev, &inv); err != nil {
			return nil, err
		}
		out.ObjectID = inv.ID
	case EventPaymentIntentSucceeded, EventPaymentIntentFailed:
		var pi stripe.PaymentIntent
		if err := decode(ev, &pi); err != nil {
			return nil, err
		}
		if pi.ID == "" {
			return nil, errors.New("billing: unreadable webhook event: payment intent without id")
		}
		out.ObjectID = pi.ID
		p := &Payment{PaymentIntentID: pi.ID, Amount: pi.Amount, Currency: string(pi.Currency), Succeeded: out.Type == EventPaymentIntentSucceeded}
		p.ProductID, _ = strconv.ParseInt(pi.Metadata[metaProductID], 10, 64)
		if !p.Succeeded && pi.LastPaymentError != nil {
			p.FailureMessage = pi.LastPaymentError.Msg
		}
		out.Payment = p
	}
	return out, nil
}

func decode(ev stripe.Event, into any) error {
	if err := json.Unmarshal(ev.Data.Raw, into); err != nil {
		return fmt.Errorf("billing: unreadable %s event: %w", ev.Type, err)
	}
	return nil
}

// customerID and subscriptionID are the ids of expandable objects, which
// stripe-go reads from either a bare id or the whole object.
func customerID(c *stripe.Customer) string {
	if c == nil {
		return ""
	}
	return c.ID
}

func subscriptionID(s *stripe.Subscription) string {
	if s == nil {
		return ""
	}
	return s.ID
}
