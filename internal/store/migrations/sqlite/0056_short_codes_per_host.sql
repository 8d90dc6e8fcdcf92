-- squarely:foreign-keys-off
-- Short codes unique per host: the same chosen short code may be one
-- code's on the base URL and another's on each custom domain, so the
-- UNIQUE of short_code (0001) goes. SQLite cannot drop a column's
-- UNIQUE, so the table is rebuilt as 0040 did (and as
-- sqlite.org/lang_altertable.html describes): with foreign keys off (the
-- marker above; foreign_key_check runs before commit), a new table takes
-- every row with its id, the old one is dropped, the new one renamed, and
-- the indexes and triggers are made again. The full-text index keeps its
-- entries: its rowids are the ids, copied as they were.
CREATE TABLE dynamic_qr_codes_new (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id              INTEGER NOT NULL DEFAULT 1 REFERENCES clients (id),
    user_id                INTEGER REFERENCES users (id) ON DELETE CASCADE,
    name                   TEXT NOT NULL DEFAULT '',
    short_code             TEXT NOT NULL CHECK (length(short_code) <= 64),
    destination            TEXT NOT NULL,
    qr_type                TEXT NOT NULL,
    qr_data                TEXT,
    platform               TEXT,
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
    updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')),
    logo_size              TEXT NOT NULL DEFAULT 'medium',
    password_hash          TEXT,
    workspace_id           INTEGER REFERENCES workspaces (id) ON DELETE CASCADE,
    folder_id              INTEGER REFERENCES folders (id) ON DELETE SET NULL,
    search_text            TEXT NOT NULL DEFAULT '',
    routing                TEXT,
    scan_limit             INTEGER,
    limit_scans            INTEGER NOT NULL DEFAULT 0,
    alerts_muted           INTEGER NOT NULL DEFAULT 0,
    health_status          TEXT NOT NULL DEFAULT 'unknown',
    health_reason          TEXT NOT NULL DEFAULT '',
    health_url             TEXT NOT NULL DEFAULT '',
    health_failures        INTEGER NOT NULL DEFAULT 0,
    health_since           TEXT,
    health_checked_at      TEXT,
    drop_alerted_at        TEXT,
    domain_id              INTEGER REFERENCES workspace_domains (id),
    page_id                INTEGER REFERENCES pages (id) ON DELETE SET NULL,
    -- Set when the workspace chose the short code (not drawn at random).
    short_code_chosen      INTEGER NOT NULL DEFAULT 0,
    imported_clicks        INTEGER NOT NULL DEFAULT 0
);

INSERT INTO dynamic_qr_codes_new (
    id, client_id, user_id, name, short_code, destination, qr_type, qr_data, platform,
    fg_color, bg_color, gradient_color, qr_style, dot_shape, corner_shape, inner_corner_shape,
    outer_corner_color, inner_corner_color, error_correction_level, logo_file_path, logo_file_name,
    enable_frame, frame_text, frame_color, frame_text_color, frame_style, is_paused, paused_at,
    is_deleted, deleted_at, created_at, updated_at, logo_size, password_hash, workspace_id, folder_id,
    search_text, routing, scan_limit, limit_scans, alerts_muted, health_status, health_reason,
    health_url, health_failures, health_since, health_checked_at, drop_alerted_at, domain_id, page_id, short_code_chosen, imported_clicks)
SELECT
    id, client_id, user_id, name, short_code, destination, qr_type, qr_data, platform,
    fg_color, bg_color, gradient_color, qr_style, dot_shape, corner_shape, inner_corner_shape,
    outer_corner_color, inner_corner_color, error_correction_level, logo_file_path, logo_file_name,
    enable_frame, frame_text, frame_color, frame_text_color, frame_style, is_paused, paused_at,
    is_deleted, deleted_at, created_at, updated_at, logo_size, password_hash, workspace_id, folder_id,
    search_text, routing, scan_limit, limit_scans, alerts_muted, health_status, health_reason,
    health_url, health_failures, health_since, health_checked_at, drop_alerted_at, domain_id, page_id, short_code_chosen, imported_clicks
FROM dynamic_qr_codes;

-- AUTOINCREMENT's high-water mark carries over: ids are never reused.
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'dynamic_qr_codes'), 0))
WHERE name = 'dynamic_qr_codes_new';

DROP TABLE dynamic_qr_codes;
ALTER TABLE dynamic_qr_codes_new RENAME TO dynamic_qr_codes;

CREATE INDEX dynamic_qr_codes_user_id_idx ON dynamic_qr_codes (user_id);
CREATE INDEX dynamic_qr_codes_workspace_created_idx ON dynamic_qr_codes (workspace_id, created_at, id) WHERE NOT is_deleted;
CREATE INDEX dynamic_qr_codes_workspace_name_idx ON dynamic_qr_codes (workspace_id, lower(name), id) WHERE NOT is_deleted;
CREATE INDEX dynamic_qr_codes_health_due_idx ON dynamic_qr_codes (health_checked_at) WHERE NOT is_deleted;
CREATE INDEX dynamic_qr_codes_domain_id_idx ON dynamic_qr_codes (domain_id) WHERE domain_id IS NOT NULL;
CREATE INDEX dynamic_qr_codes_page_idx ON dynamic_qr_codes (page_id);

CREATE TRIGGER dynamic_qr_codes_search_insert AFTER INSERT ON dynamic_qr_codes BEGIN
    INSERT INTO dynamic_qr_codes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER dynamic_qr_codes_search_update AFTER UPDATE OF search_text ON dynamic_qr_codes BEGIN
    INSERT INTO dynamic_qr_codes_search (dynamic_qr_codes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO dynamic_qr_codes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER dynamic_qr_codes_search_delete AFTER DELETE ON dynamic_qr_codes BEGIN
    INSERT INTO dynamic_qr_codes_search (dynamic_qr_codes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;

-- As 0040 made them.
CREATE INDEX dynamic_qr_codes_short_code_lower_idx ON dynamic_qr_codes (lower(short_code));
CREATE UNIQUE INDEX dynamic_qr_codes_chosen_host_idx ON dynamic_qr_codes (COALESCE(domain_id, 0), lower(short_code)) WHERE short_code_chosen;

-- A scan finds the codes of its short code by the first index (one per
-- host at most) and answers its host's. A host (the base URL's,
-- domain_id NULL: 0 here, or one custom domain's) never has a short code
-- twice; a chosen one is unique there without case (0040). A random
-- short code stays unique on every host, as every short code was before:
-- the base URL answers a code whatever its domain, and a random one is
-- never ambiguous there.
CREATE INDEX dynamic_qr_codes_short_code_idx ON dynamic_qr_codes (short_code);
CREATE UNIQUE INDEX dynamic_qr_codes_host_code_idx ON dynamic_qr_codes (COALESCE(domain_id, 0), short_code);
CREATE UNIQUE INDEX dynamic_qr_codes_random_code_idx ON dynamic_qr_codes (short_code) WHERE NOT short_code_chosen;
