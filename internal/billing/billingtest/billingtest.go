// Package billingtest builds Stripe webhook deliveries for tests: event
// bodies as Stripe sends them, signed by stripe-go's own webhook helpers.
package billingtest

import (
	"encoding/json"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// Event returns the JSON body of a Stripe event of type typ about object,
// created at the given time, at the API version stripe-go reads.
func Event(id, typ string, created time.Time, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": created.Unix(),
		"type": typ, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": object},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// Sign returns the Stripe-Signature header of payload signed with secret
// at time at.
func Sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// Subscription is a subscription object in the given status.
func Subscription(id, customer, status string, created time.Time) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "customer": customer, "status": status, "created": created.Unix()}
}

// Checkout is a completed subscription checkout session.
func Checkout(id, clientReferenceID, email, customer, subscription string) map[string]any {
	return map[string]any{
		"id": id, "object": "checkout.session", "mode": "subscription", "status": "complete",
		"client_reference_id": clientReferenceID, "customer": customer, "subscription": subscription,
		"customer_details": map[string]any{"email": email},
	}
}

// PaymentIntent is a payment intent for productID's checkout.
func PaymentIntent(id string, amount int64, productID string, failure string) map[string]any {
	pi := map[string]any{
		"id": id, "object": "payment_intent", "amount": amount, "currency": "usd",
		"metadata": map[string]any{"productId": productID},
	}
	if failure != "" {
		pi["last_payment_error"] = map[string]any{"message": failure, "type": "card_error"}
	}
	return pi
}
