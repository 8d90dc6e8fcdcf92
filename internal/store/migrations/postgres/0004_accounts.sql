-- Accounts: proven e-mail addresses, mailed links by purpose, and rate-limit
-- counters shared by every instance (issues 8 and 9). Keep in step with
-- ../sqlite/0004_accounts.sql.

-- An address is owned only once a link mailed to it was followed. Accounts
-- made before this migration count as verified only when linked to Google,
-- which links only an address Google has verified; every other account
-- proves its address again by following a link (verification, set-password
-- or forgot-password).
ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
UPDATE users SET email_verified = TRUE WHERE google_id IS NOT NULL;

-- What a mailed link does: 'password' opens /set-password (and proves the
-- address), 'verify' only proves the address.
ALTER TABLE password_tokens ADD COLUMN purpose text NOT NULL DEFAULT 'password'
    CHECK (purpose IN ('password', 'verify'));

-- Attempts per limiter, key and fixed window. Counting in the database
-- makes every instance share one limit.
CREATE TABLE rate_limits (
    name         text NOT NULL,
    key          text NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer NOT NULL,
    PRIMARY KEY (name, key, window_start)
);

CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);
