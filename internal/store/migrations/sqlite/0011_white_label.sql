-- White-label clients and the public API's keys (issue 14). Keep in step
-- with ../postgres/0011_white_label.sql.

-- clients.api_key now holds the SHA-256 (hex) of the client's key, never the
-- key itself; the keys made by 0001 were never shown to anyone, so they are
-- replaced by markers no hash can equal: a client has no key until an admin
-- rotates one. The prefix and last 4 characters are what the admin page shows.
UPDATE clients SET api_key = 'none:' || id;
ALTER TABLE clients ADD COLUMN api_key_prefix TEXT NOT NULL DEFAULT '';
ALTER TABLE clients ADD COLUMN api_key_last4 TEXT NOT NULL DEFAULT '';
-- The account a client's key acts as: the client's codes are its codes.
ALTER TABLE clients ADD COLUMN api_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL;

-- Users' personal keys. Only the SHA-256 of a key is kept.
CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    key_hash   TEXT NOT NULL UNIQUE,
    prefix     TEXT NOT NULL,
    last4      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);

-- First answers to POSTs with an Idempotency-Key, per API key (by its hash).
-- status 0 marks a request still running.
CREATE TABLE api_idempotency (
    key_hash     TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    body         TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    PRIMARY KEY (key_hash, idem_key)
);

CREATE INDEX api_idempotency_created_at_idx ON api_idempotency (created_at);
