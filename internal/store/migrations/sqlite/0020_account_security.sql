-- Account security (issue 27): TOTP second factor and its recovery codes,
-- sign-ins waiting for their second factor, the devices a user has signed
-- in from, what each session shows in the sessions list, OpenID Connect
-- identities and passkeys. Keep in step with ../postgres/0020_account_security.sql.

-- One TOTP secret per user: set up (enabled_at NULL) until a code proves
-- the authenticator app has it. The secret stays readable: computing codes
-- needs it. last_step is the newest 30-second step accepted, so a code is
-- taken once.
CREATE TABLE user_totp (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret     TEXT NOT NULL,
    enabled_at TEXT,
    last_step  INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

-- Single-use recovery codes, kept as SHA-256 hex (they are random, so a
-- fast hash is enough).
CREATE TABLE recovery_codes (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   TEXT,
    PRIMARY KEY (user_id, code_hash)
);

-- A right password (or Google, OIDC, a mailed link) of an account with a
-- second factor: no session yet. id is the SHA-256 of the cookie token.
CREATE TABLE pending_logins (
    id         TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

CREATE INDEX pending_logins_expires_at_idx ON pending_logins (expires_at);

-- Browsers a user has signed in from, by the SHA-256 of a long-lived
-- random cookie: a sign-in from any other is mailed to the user.
CREATE TABLE known_devices (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_hash TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);

-- What the sessions list shows: where and with what the session started.
ALTER TABLE sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN country TEXT NOT NULL DEFAULT '';

-- Accounts signed in through an OpenID Connect provider, by its issuer
-- URL and the provider's subject; one identity per issuer per account.
CREATE TABLE user_identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject),
    UNIQUE (user_id, issuer)
);

-- Passkeys (WebAuthn credentials), each bound to the relying party id it
-- was registered for (the base URL's host, or a white-label client's own
-- domain). credential_id is base64url; data is go-webauthn's credential
-- record as JSON (public key, sign count, flags).
CREATE TABLE webauthn_credentials (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rp_id         TEXT NOT NULL,
    credential_id TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    data          TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT
);

CREATE INDEX webauthn_credentials_user_id_idx ON webauthn_credentials (user_id);

-- A WebAuthn ceremony between its begin and finish calls: the challenge
-- and what go-webauthn needs to check the answer, single-use, keyed by the
-- SHA-256 of a cookie token. user_id is NULL for a sign-in by passkey
-- alone, whose user is known only from the answer.
CREATE TABLE webauthn_ceremonies (
    id         TEXT PRIMARY KEY,
    user_id    INTEGER REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('register', 'login')),
    name       TEXT NOT NULL DEFAULT '',
    data       TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

CREATE INDEX webauthn_ceremonies_expires_at_idx ON webauthn_ceremonies (expires_at);
