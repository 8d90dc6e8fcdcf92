-- Payments (issue 11): Stripe webhook events, subscriptions and the
-- payments taken by payment codes. Keep in step with ../postgres/0008_payments.sql.

-- Every Stripe event applied, by its id: a redelivered event finds its row
-- and changes nothing. The row is written in the same transaction as the
-- event's effect. object_id is the Stripe object the event is about.
CREATE TABLE stripe_events (
    id          TEXT PRIMARY KEY,
    type        TEXT NOT NULL,
    object_id   TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

-- The last known state of each Stripe subscription, kept even before a
-- checkout links its customer to a user (events can arrive in any order).
-- event_at and status_rank are the Stripe time and rank of the event that
-- set status: an event only replaces a state older than its own.
CREATE TABLE stripe_subscriptions (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    event_at    TEXT NOT NULL,
    status_rank INTEGER NOT NULL
);

CREATE INDEX stripe_subscriptions_customer_id_idx ON stripe_subscriptions (customer_id, started_at);

-- One row per payment intent of a payment code's checkout; a later event
-- about the same intent updates it (a success is never undone by a late failure).
CREATE TABLE payments (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_intent_id TEXT NOT NULL UNIQUE,
    product_id        INTEGER REFERENCES payment_products (id) ON DELETE SET NULL,
    amount            INTEGER NOT NULL CHECK (amount >= 0),
    currency          TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
    failure_message   TEXT NOT NULL DEFAULT '',
    event_at          TEXT NOT NULL,
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX payments_product_id_idx ON payments (product_id);
