-- Squarely schema, SQLite dialect. Keep in step with ../postgres/0001_init.sql.
--
-- Conventions: INTEGER PRIMARY KEY AUTOINCREMENT so ids are never reused
-- (a stale /logo/{id} link must not serve a newer upload); booleans are
-- INTEGER 0/1; timestamps are TEXT in one fixed UTC format with six
-- fractional digits (2006-01-02T15:04:05.000000Z) so text order is time
-- order; the DEFAULT below produces the same shape.

CREATE TABLE clients (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT NOT NULL,
    custom_domain   TEXT UNIQUE,
    subdomain       TEXT UNIQUE,
    logo_url        TEXT NOT NULL DEFAULT '',
    primary_color   TEXT NOT NULL DEFAULT '#3B82F6',
    secondary_color TEXT NOT NULL DEFAULT '#1E40AF',
    custom_favicon  TEXT NOT NULL DEFAULT '',
    remove_branding INTEGER NOT NULL DEFAULT 0,
    custom_css      TEXT NOT NULL DEFAULT '',
    api_key         TEXT NOT NULL UNIQUE,
    is_active       INTEGER NOT NULL DEFAULT 1,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

INSERT INTO clients (id, name, primary_color, secondary_color, api_key)
VALUES (1, 'Squarely', '#3B82F6', '#1E40AF', lower(hex(randomblob(16))));

CREATE TABLE users (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id              INTEGER NOT NULL DEFAULT 1 REFERENCES clients (id),
    username               TEXT NOT NULL,
    password               TEXT,
    first_name             TEXT NOT NULL DEFAULT '',
    last_name              TEXT NOT NULL DEFAULT '',
    email                  TEXT NOT NULL DEFAULT '',
    google_id              TEXT,
    stripe_customer_id     TEXT,
    stripe_subscription_id TEXT,
    subscription_status    TEXT NOT NULL DEFAULT 'free',
    trial_activated        INTEGER NOT NULL DEFAULT 0,
    trial_start_date       TEXT,
    trial_end_date         TEXT,
    is_admin               INTEGER NOT NULL DEFAULT 0,
    is_deleted             INTEGER NOT NULL DEFAULT 0,
    deleted_at             TEXT,
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

-- A soft-deleted account frees its e-mail and Google account for a new sign-up.
CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE is_deleted = 0;
CREATE UNIQUE INDEX users_google_id_key ON users (google_id) WHERE google_id IS NOT NULL AND is_deleted = 0;
CREATE INDEX users_stripe_customer_id_idx ON users (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);

CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE blobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('logo', 'pdf', 'image')),
    file_name    TEXT NOT NULL DEFAULT '',
    content_type TEXT NOT NULL,
    size         INTEGER NOT NULL,
    sha256       TEXT NOT NULL,
    data         BLOB NOT NULL,
    title        TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX blobs_owner_id_idx ON blobs (owner_id);

CREATE TABLE qr_codes (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id              INTEGER NOT NULL DEFAULT 1 REFERENCES clients (id),
    user_id                INTEGER REFERENCES users (id) ON DELETE CASCADE,
    name                   TEXT NOT NULL DEFAULT '',
    first_name             TEXT,
    last_name              TEXT,
    email                  TEXT,
    phone_number           TEXT,
    notes                  TEXT,
    image_url              TEXT,
    url                    TEXT,
    qr_type                TEXT NOT NULL DEFAULT 'url',
    qr_mode                TEXT NOT NULL DEFAULT 'static',
    platform               TEXT,
    product_name           TEXT CHECK (length(product_name) <= 100),
    product_price          INTEGER,
    product_description    TEXT,
    pdf_title              TEXT,
    pdf_url                TEXT,
    pdf_file_path          TEXT,
    pdf_file_name          TEXT,
    pdf_description        TEXT,
    image_title            TEXT,
    image_description      TEXT,
    image_file_path        TEXT,
    image_file_name        TEXT,
    business_name          TEXT,
    review_url             TEXT,
    app_name               TEXT,
    app_description        TEXT,
    app_store_url          TEXT,
    play_store_url         TEXT,
    app_category           TEXT,
    app_developer          TEXT,
    email_recipient        TEXT,
    email_subject          TEXT,
    email_body             TEXT,
    location_address       TEXT,
    -- PostgreSQL keeps numeric(10,7); a REAL round-trips those ten digits exactly.
    location_latitude      REAL,
    location_longitude     REAL,
    location_name          TEXT,
    location_description   TEXT,
    fg_color               TEXT NOT NULL DEFAULT '#000000',
    bg_color               TEXT NOT NULL DEFAULT '#FFFFFF',
    gradient_color         TEXT,
    qr_style               TEXT NOT NULL DEFAULT 'squares',
    dot_shape              TEXT NOT NULL DEFAULT 'square',
    corner_shape           TEXT NOT NULL DEFAULT 'square',
    inner_corner_shape     TEXT NOT NULL DEFAULT 'square',
    outer_corner_color     TEXT,
    inner_corner_color     TEXT,
    error_correction_level TEXT NOT NULL DEFAULT 'M',
    logo_file_path         TEXT,
    logo_file_name         TEXT,
    enable_frame           INTEGER NOT NULL DEFAULT 0,
    frame_text             TEXT NOT NULL DEFAULT 'SCAN ME',
    frame_color            TEXT NOT NULL DEFAULT '#000000',
    frame_text_color       TEXT NOT NULL DEFAULT '#FFFFFF',
    frame_style            TEXT NOT NULL DEFAULT 'rounded',
    is_paused              INTEGER NOT NULL DEFAULT 0,
    paused_at              TEXT,
    is_deleted             INTEGER NOT NULL DEFAULT 0,
    deleted_at             TEXT,
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX qr_codes_user_id_idx ON qr_codes (user_id);

CREATE TABLE dynamic_qr_codes (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id              INTEGER NOT NULL DEFAULT 1 REFERENCES clients (id),
    user_id                INTEGER REFERENCES users (id) ON DELETE CASCADE,
    name                   TEXT NOT NULL DEFAULT '',
    short_code             TEXT NOT NULL UNIQUE CHECK (length(short_code) <= 20),
    destination            TEXT NOT NULL,
    qr_type                TEXT NOT NULL,
    qr_data                TEXT,
    platform               TEXT,
    scan_count             INTEGER NOT NULL DEFAULT 0,
    last_scanned_at        TEXT,
    fg_color               TEXT NOT NULL DEFAULT '#000000',
    bg_color               TEXT NOT NULL DEFAULT '#FFFFFF',
    gradient_color         TEXT,
    qr_style               TEXT NOT NULL DEFAULT 'squares',
    dot_shape              TEXT NOT NULL DEFAULT 'square',
    corner_shape           TEXT NOT NULL DEFAULT 'square',
    inner_corner_shape     TEXT NOT NULL DEFAULT 'square',
    outer_corner_color     TEXT,
    inner_corner_color     TEXT,
    error_correction_level TEXT NOT NULL DEFAULT 'M',
    logo_file_path         TEXT,
    logo_file_name         TEXT,
    enable_frame           INTEGER NOT NULL DEFAULT 0,
    frame_text             TEXT NOT NULL DEFAULT 'SCAN ME',
    frame_color            TEXT NOT NULL DEFAULT '#000000',
    frame_text_color       TEXT NOT NULL DEFAULT '#FFFFFF',
    frame_style            TEXT NOT NULL DEFAULT 'rounded',
    is_paused              INTEGER NOT NULL DEFAULT 0,
    paused_at              TEXT,
    is_deleted             INTEGER NOT NULL DEFAULT 0,
    deleted_at             TEXT,
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')),
    updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX dynamic_qr_codes_user_id_idx ON dynamic_qr_codes (user_id);

CREATE TABLE scan_events (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    dynamic_qr_code_id INTEGER NOT NULL REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    scanned_at         TEXT NOT NULL,
    device_type        TEXT NOT NULL DEFAULT '',
    os                 TEXT NOT NULL DEFAULT '',
    browser            TEXT NOT NULL DEFAULT '',
    referrer           TEXT NOT NULL DEFAULT '',
    visitor_hash       TEXT NOT NULL DEFAULT '',
    is_bot             INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX scan_events_code_scanned_at_idx ON scan_events (dynamic_qr_code_id, scanned_at);

-- The spec's per-type logging tables (website, contact, payment, pdf, …) are
-- folded into the `details` JSON column of qr_generations and qr_downloads:
-- one table per event instead of twenty near-identical ones, new QR types need
-- no migration, and the common columns stay queryable for analytics.
CREATE TABLE qr_generations (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    qr_code_id       INTEGER REFERENCES qr_codes (id) ON DELETE SET NULL,
    user_id          INTEGER REFERENCES users (id) ON DELETE SET NULL,
    session_id       TEXT,
    ip_address       TEXT,
    user_agent       TEXT,
    qr_content       TEXT,
    qr_type          TEXT NOT NULL,
    captured_email   TEXT,
    captured_name    TEXT,
    referrer         TEXT,
    foreground_color TEXT,
    background_color TEXT,
    has_logo         INTEGER NOT NULL DEFAULT 0,
    details          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
    generated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX qr_generations_user_id_idx ON qr_generations (user_id);

CREATE TABLE qr_downloads (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    qr_code_id     INTEGER REFERENCES qr_codes (id) ON DELETE SET NULL,
    user_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,
    session_id     TEXT,
    ip_address     TEXT,
    user_agent     TEXT,
    download_type  TEXT NOT NULL DEFAULT 'png',
    qr_content     TEXT,
    qr_type        TEXT,
    captured_email TEXT,
    captured_name  TEXT,
    referrer       TEXT,
    has_logo       INTEGER NOT NULL DEFAULT 0,
    details        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
    downloaded_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX qr_downloads_user_id_idx ON qr_downloads (user_id);

CREATE TABLE newsletter_subscriptions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT NOT NULL UNIQUE,
    subscribed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')),
    is_deleted    INTEGER NOT NULL DEFAULT 0,
    deleted_at    TEXT
);

CREATE TABLE payment_products (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER REFERENCES users (id) ON DELETE CASCADE,
    product_name        TEXT NOT NULL CHECK (length(product_name) <= 100),
    product_description TEXT NOT NULL DEFAULT '',
    product_price       INTEGER NOT NULL CHECK (product_price >= 0),
    created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX payment_products_user_id_idx ON payment_products (user_id);

CREATE TABLE contact_messages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    subject      TEXT NOT NULL,
    message      TEXT NOT NULL,
    inquiry_type TEXT NOT NULL CHECK (inquiry_type IN ('general', 'support', 'business', 'feedback')),
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);
