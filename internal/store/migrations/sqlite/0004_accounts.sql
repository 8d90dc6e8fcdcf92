-- Accounts: proven e-mail addresses, mailed links by purpose, and rate-limit
-- counters (issues 8 and 9). Keep in step with ../postgres/0004_accounts.sql.

-- An address is owned only once a link mailed to it was followed. Accounts
-- made before this migration count as verified only when linked to Google,
-- which links only an address Google has verified; every other account
-- proves its address again by following a link (verification, set-password
-- or forgot-password).
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
UPDATE users SET email_verified = 1 WHERE google_id IS NOT NULL;

-- What a mailed link does: 'password' opens /set-password (and proves the
-- address), 'verify' only proves the address.
ALTER TABLE password_tokens ADD COLUMN purpose TEXT NOT NULL DEFAULT 'password'
    CHECK (purpose IN ('password', 'verify'));

-- Attempts per limiter, key and fixed window; the same table as on
-- PostgreSQL, so both dialects count alike.
CREATE TABLE rate_limits (
    name         TEXT NOT NULL,
    key          TEXT NOT NULL,
    window_start TEXT NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (name, key, window_start)
);

CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);
