-- Dynamic codes, scans and the trial (issue 5). Keep in step with
-- ../sqlite/0003_dynamic.sql.

-- Server-wide secrets, created once at first use and shared by every
-- instance (e.g. the key the daily visitor-hash salt is derived from).
CREATE TABLE secrets (
    name       text PRIMARY KEY,
    value      bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One-time links that let a password-less account (made by a visitor's
-- trial activation) choose a password. Only the token's SHA-256 is kept.
CREATE TABLE password_tokens (
    token_hash text PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX password_tokens_user_id_idx ON password_tokens (user_id);

-- The limit check counts a user's live dynamic codes on every creation.
CREATE INDEX dynamic_qr_codes_user_live_idx ON dynamic_qr_codes (user_id, created_at) WHERE NOT is_deleted;

-- The generator's logo size (small, medium, large), so the server renders
-- a saved dynamic code as it was designed.
ALTER TABLE dynamic_qr_codes ADD COLUMN logo_size text NOT NULL DEFAULT 'medium';
