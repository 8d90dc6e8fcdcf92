package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"
)

// Stripe webhook events are applied here, each once: the event's id is
// recorded in the same transaction as its effect, so a redelivery (or two
// deliveries racing) applies nothing the second time. Events may also come
// late or out of order; every state they set carries the Stripe time of the
// event, and an older event never replaces a newer state.

// StripeEvent identifies a webhook event: its id, type, the id of the
// object it is about, and when Stripe created it.
type StripeEvent struct {
	ID       string
	Type     string
	ObjectID string
	At       time.Time
}

// CheckoutLink is what a completed subscription checkout tells: the user
// (by id, else by e-mail) who now has CustomerID and SubscriptionID.
type CheckoutLink struct {
	WorkspaceID    int64 // 0 = unknown; then Email names the user whose personal workspace pays
	Email          string
	CustomerID     string
	SubscriptionID string
}

// Subscription is the state of a Stripe subscription as an event saw it.
type Subscription struct {
	ID         string
	CustomerID string
	Status     string    // Stripe's: trialing, active, past_due, canceled, …
	StartedAt  time.Time // when the subscription was created
}

// Payment is a payment code's checkout as a payment intent event saw it.
type Payment struct {
	PaymentIntentID string
	ProductID       *int64 // nil when the product is unknown or was deleted
	Amount          int64  // cents
	Currency        string
	Status          string // "succeeded" or "failed"
	FailureMessage  string
}

// PaymentTotal is what a payment product has taken: successful payments
// and their sum in cents.
type PaymentTotal struct {
	Count int64
	Total int64
}

// statusRank orders subscription statuses along a subscription's life, to
// choose between two events Stripe created in the same second: the later
// stage wins, and a canceled subscription never comes back.
func statusRank(status string) int {
	switch status {
	case "incomplete":
		return 0
	case "trialing":
		return 1
	case "active":
		return 2
	case "past_due":
		return 3
	case "unpaid", "paused":
		return 4
	case "incomplete_expired", "canceled":
		return 5
	}
	return 0
}

// RecordStripeEvent records an event that has no effect beyond being kept
// (an invoice whose payment failed, for instance). It reports false when
// the event was already recorded.
func (s *Store) RecordStripeEvent(ctx context.Context, ev StripeEvent) (bool, error) {
	return s.applyStripeEvent(ctx, ev, func(*sql.Tx) error { return nil })
}

// ApplyCheckout links the checkout's customer and subscription to its
// workspace, then sets the workspace's subscription from what events have
// said of it. A workspace keeps its first customer: a checkout naming another
// one is recorded but does not relink it. Unknown workspaces are recorded and
// skipped.
func (s *Store) ApplyCheckout(ctx context.Context, ev StripeEvent, c CheckoutLink) (bool, error) {
	return s.applyStripeEvent(ctx, ev, func(tx *sql.Tx) error {
		var workspaceID int64
		var customer sql.NullString
		var err error
		if c.WorkspaceID != 0 {
			err = tx.QueryRowContext(ctx,
				`SELECT id, stripe_customer_id FROM workspaces WHERE id = $1 AND NOT is_deleted`, c.WorkspaceID).Scan(&workspaceID, &customer)
		} else {
			err = tx.QueryRowContext(ctx, `
				SELECT w.id, w.stripe_customer_id FROM workspaces w JOIN users u ON u.id = w.personal_user_id
				WHERE lower(u.username) = lower($1) AND NOT u.is_deleted`, c.Email).Scan(&workspaceID, &customer)
		}
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return fail("find the workspace of a checkout", err)
		}
		if customer.Valid && customer.String != c.CustomerID {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE workspaces SET stripe_customer_id = $2, stripe_subscription_id = $3 WHERE id = $1`,
			workspaceID, c.CustomerID, nullIfEmpty(c.SubscriptionID)); err != nil {
			return fail("link a Stripe customer", err)
		}
		return syncCustomer(ctx, tx, c.CustomerID)
	})
}

// ApplySubscription keeps the subscription's state, unless the store holds
// a newer one, and updates the workspace of its customer.
func (s *Store) ApplySubscription(ctx context.Context, ev StripeEvent, sub Subscription) (bool, error) {
	return s.applyStripeEvent(ctx, ev, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO stripe_subscriptions (id, customer_id, status, started_at, event_at, status_rank)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (id) DO UPDATE SET status = excluded.status, event_at = excluded.event_at, status_rank = excluded.status_rank
			WHERE excluded.event_at > stripe_subscriptions.event_at
			   OR (excluded.event_at = stripe_subscriptions.event_at AND excluded.status_rank > stripe_subscriptions.status_rank)`,
			sub.ID, sub.CustomerID, sub.Status, dbTime(sub.StartedAt), dbTime(ev.At), statusRank(sub.Status)); err != nil {
			return fail("save a subscription", err)
		}
		return syncCustomer(ctx, tx, sub.CustomerID)
	})
}

// syncCustomer gives the workspaces of a Stripe customer the status of that
// customer's newest subscription, which is what they pay for now.
func syncCustomer(ctx context.Context, tx *sql.Tx, customerID string) error {
	var subID, status string
	err := tx.QueryRowContext(ctx, `
		SELECT id, status FROM stripe_subscriptions WHERE customer_id = $1
		ORDER BY started_at DESC, id DESC LIMIT 1`, customerID).Scan(&subID, &status)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return fail("find a customer's subscription", err)
	}
	if _, err := tx.ExecContext(ctx, `
		UPDATE workspaces SET stripe_subscription_id = $2, subscription_status = $3 WHERE stripe_customer_id = $1`,
		customerID, subID, status); err != nil {
		return fail("update a subscriber", err)
	}
	return nil
}

// ApplyPayment keeps a payment intent's outcome. A newer event replaces an
// older one, except that a success stays a success.
func (s *Store) ApplyPayment(ctx context.Context, ev StripeEvent, p Payment) (bool, error) {
	return s.applyStripeEvent(ctx, ev, func(tx *sql.Tx) error {
		if p.ProductID != nil {
			// A product deleted since the checkout leaves the payment without one.
			var id int64
			err := tx.QueryRowContext(ctx, `SELECT id FROM payment_products WHERE id = $1`, *p.ProductID).Scan(&id)
			if err == sql.ErrNoRows {
				p.ProductID = nil
			} else if err != nil {
				return fail("find a payment's product", err)
			}
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO payments (payment_intent_id, product_id, amount, currency, status, failure_message, event_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (payment_intent_id) DO UPDATE SET
				amount = excluded.amount, currency = excluded.currency, status = excluded.status,
				failure_message = excluded.failure_message, event_at = excluded.event_at
			WHERE payments.status <> 'succeeded' AND excluded.event_at >= payments.event_at`,
			p.PaymentIntentID, p.ProductID, p.Amount, p.Currency, p.Status, p.FailureMessage, dbTime(ev.At))
		if err != nil {
			return fail("save a payment", err)
		}
		// A success is told once: a repeat of it changes no row.
		if n, _ := res.RowsAffected(); n == 0 || p.Status != "succeeded" || p.ProductID == nil {
			return nil
		}
		return s.paymentEvent(ctx, tx, ev, p)
	})
}

// PaymentTotals returns, per payment product of the workspace, the
// successful payments it took. Products without any are absent.
func (s *Store) PaymentTotals(ctx context.Context, workspaceID int64) (map[int64]PaymentTotal, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT p.product_id, COUNT(*), COALESCE(SUM(p.amount), 0)
		FROM payments p JOIN payment_products pp ON pp.id = p.product_id
		WHERE pp.workspace_id = $1 AND p.status = 'succeeded'
		GROUP BY p.product_id`, workspaceID)
	if err != nil {
		return nil, fail("total payments", err)
	}
	defer rows.Close()
	totals := make(map[int64]PaymentTotal)
	for rows.Next() {
		var id int64
		var t PaymentTotal
		if err := rows.Scan(&id, &t.Count, &t.Total); err != nil {
			return nil, fail("total payments", err)
		}
		totals[id] = t
	}
	if err := rows.Err(); err != nil {
		return nil, fail("total payments", err)
	}
	return totals, nil
}

// PaymentCodeID returns the id of the live saved code that sells the
// product, or 0 when none does (a visitor's code is never saved).
func (s *Store) PaymentCodeID(ctx context.Context, productID int64) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `
		SELECT id FROM qr_codes WHERE payment_product_id = $1 AND NOT is_deleted
		ORDER BY id LIMIT 1`, productID).Scan(&id)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, fail("find a payment product's code", err)
	}
	return id, nil
}

// SetStripeCustomer gives a live workspace a Stripe customer unless it has
// one, and returns the one it has now: a workspace never gets two.
func (s *Store) SetStripeCustomer(ctx context.Context, workspaceID int64, customerID string) (string, error) {
	var current string
	err := s.inTx(ctx, "set a Stripe customer", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			UPDATE workspaces SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL AND NOT is_deleted`,
			workspaceID, customerID); err != nil {
			return fail("set a Stripe customer", err)
		}
		err := tx.QueryRowContext(ctx, `SELECT COALESCE(stripe_customer_id, '') FROM workspaces WHERE id = $1 AND NOT is_deleted`,
			workspaceID).Scan(&current)
		if err != nil {
			return fail("set a Stripe customer", err)
		}
		return nil
	})
	return current, err
}

// applyStripeEvent runs effect in the transaction that records ev, unless
// ev was recorded before (false). On PostgreSQL the events are applied one
// at a time (an advisory lock for the transaction), so two events about one
// customer never read each other's half-written state; SQLite's single
// writer already does that.
func (s *Store) applyStripeEvent(ctx context.Context, ev StripeEvent, effect func(*sql.Tx) error) (bool, error) {
	applied := false
	err := s.inTx(ctx, "apply a Stripe event", func(tx *sql.Tx) error {
		if err := s.xactLock(ctx, tx, `hashtext('squarely.stripe_events')`); err != nil {
			return fail("lock Stripe events", err)
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO stripe_events (id, type, object_id, created_at, received_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (id) DO NOTHING`, ev.ID, ev.Type, ev.ObjectID, dbTime(ev.At), dbTime(time.Now()))
		if err != nil {
			return fail("record a Stripe event", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fail("record a Stripe event", err)
		}
		if n == 0 {
			return nil // applied before
		}
		applied = true
		return effect(tx)
	})
	if err != nil {
		return false, err
	}
	return applied, nil
}

// paymentEvent queues payment.succeeded for the workspace of the paid
// product's code.
func (s *Store) paymentEvent(ctx context.Context, tx *sql.Tx, ev StripeEvent, p Payment) error {
	var workspaceID, codeID int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(pp.workspace_id, 0), COALESCE((SELECT q.id FROM qr_codes q WHERE q.payment_product_id = pp.id ORDER BY q.id LIMIT 1), 0)
		FROM payment_products pp WHERE pp.id = $1`, *p.ProductID).Scan(&workspaceID, &codeID)
	if err != nil {
		return fail("find a payment's workspace", err)
	}
	data := map[string]any{
		"paymentIntentId": p.PaymentIntentID, "productId": *p.ProductID, "amount": p.Amount, "currency": p.Currency,
		"status": p.Status, "paidAt": normTime(ev.At),
	}
	if codeID != 0 {
		data["codeId"] = "s_" + strconv.FormatInt(codeID, 10)
	}
	return s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventPaymentSucceeded, data)
}
