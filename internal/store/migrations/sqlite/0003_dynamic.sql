-- Dynamic codes, scans and the trial (issue 5). Keep in step with
-- ../postgres/0003_dynamic.sql.

-- Server-wide secrets, created once at first use and shared by every
-- instance (e.g. the key the daily visitor-hash salt is derived from).
CREATE TABLE secrets (
    name       TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

-- One-time links that let a password-less account (made by a visitor's
-- trial activation) choose a password. Only the token's SHA-256 is kept.
CREATE TABLE password_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX password_tokens_user_id_idx ON password_tokens (user_id);

-- The limit check counts a user's live dynamic codes on every creation.
CREATE INDEX dynamic_qr_codes_user_live_idx ON dynamic_qr_codes (user_id, created_at) WHERE is_deleted = 0;

-- The generator's logo size (small, medium, large), so the server renders
-- a saved dynamic code as it was designed.
ALTER TABLE dynamic_qr_codes ADD COLUMN logo_size TEXT NOT NULL DEFAULT 'medium';
