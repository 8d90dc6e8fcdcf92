-- Webhooks (issue 24). Keep in step with the other dialect's 0024_webhooks.sql.

-- An endpoint of a workspace: where its events go. secret is the signing
-- secret as given to the user ("whsec_" + base64): signing needs the key
-- itself, so it cannot be hashed (see store/webhooks.go). The failure
-- columns count consecutive failed attempts since the last success; an
-- endpoint failing too long is disabled with a reason. scan_cursor is the
-- last scan_events id sent in a scan.created batch, scan_batch_after the
-- earliest time of the next batch (one a second).
CREATE TABLE webhook_endpoints (
    id                   INTEGER PRIMARY KEY,
    workspace_id         INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url                  TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    enabled              INTEGER NOT NULL DEFAULT 1,
    secret               TEXT NOT NULL,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    failing_since        TEXT,
    disabled_reason      TEXT NOT NULL DEFAULT '',
    scan_cursor          INTEGER NOT NULL DEFAULT 0,
    scan_batch_after     TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_workspace_idx ON webhook_endpoints (workspace_id, id);

-- The event types an endpoint receives.
CREATE TABLE webhook_subscriptions (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type  TEXT NOT NULL,
    PRIMARY KEY (endpoint_id, event_type)
);
CREATE INDEX webhook_subscriptions_type_idx ON webhook_subscriptions (event_type, endpoint_id);

-- One event as it is sent: uid is its webhook-id, body the exact JSON
-- signed on every attempt.
CREATE TABLE webhook_events (
    id           INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    uid          TEXT NOT NULL UNIQUE,
    type         TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

-- One event for one endpoint: claimed by a runner with a lease, like mailings.
CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    workspace_id     INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    endpoint_id      INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id         INTEGER NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    status           TEXT NOT NULL DEFAULT 'pending',
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER,
    last_error       TEXT NOT NULL DEFAULT '',
    next_attempt_at  TEXT NOT NULL,
    lease_owner      TEXT,
    lease_until      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
