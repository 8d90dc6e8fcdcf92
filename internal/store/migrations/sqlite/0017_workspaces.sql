-- Workspaces own the work (issue 22): codes, uploads, bulk jobs, API keys,
-- payment products, the subscription, the trial and the scan rollups belong
-- to a workspace; people are its members with a role. Every existing user
-- gets a personal workspace holding everything they own (a deleted user's
-- is deleted too, so their codes keep not redirecting). The user_id columns
-- stay as "made by". Keep in step with the other dialect's 0017_workspaces.sql.
CREATE TABLE workspaces (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id              INTEGER NOT NULL DEFAULT 1 REFERENCES clients (id),
    name                   TEXT NOT NULL,
    personal_user_id       INTEGER UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    stripe_customer_id     TEXT,
    stripe_subscription_id TEXT,
    subscription_status    TEXT NOT NULL DEFAULT 'free',
    trial_activated        INTEGER NOT NULL DEFAULT 0,
    trial_start_date       TEXT,
    trial_end_date         TEXT,
    is_deleted             INTEGER NOT NULL DEFAULT 0,
    deleted_at             TEXT,
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))
);

CREATE INDEX workspaces_stripe_customer_id_idx ON workspaces (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

INSERT INTO workspaces (client_id, name, personal_user_id, stripe_customer_id, stripe_subscription_id,
    subscription_status, trial_activated, trial_start_date, trial_end_date, is_deleted, deleted_at, created_at)
SELECT client_id, 'Personal', id, stripe_customer_id, stripe_subscription_id,
    subscription_status, trial_activated, trial_start_date, trial_end_date, is_deleted, deleted_at, created_at
FROM users ORDER BY id;

CREATE TABLE workspace_members (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
    joined_at    TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);

CREATE INDEX workspace_members_user_id_idx ON workspace_members (user_id);

INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
SELECT id, personal_user_id, 'owner', created_at FROM workspaces;

CREATE TABLE workspace_invitations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
    token_hash   TEXT NOT NULL UNIQUE,
    invited_by   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    expires_at   TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

CREATE INDEX workspace_invitations_workspace_idx ON workspace_invitations (workspace_id, id);

-- The active workspace of a signed-in browser; NULL = the personal one.
ALTER TABLE sessions ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE SET NULL;

CREATE TABLE folders (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX folders_name_key ON folders (workspace_id, lower(name));

CREATE TABLE tags (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    color        TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX tags_name_key ON tags (workspace_id, lower(name));

ALTER TABLE qr_codes ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE qr_codes ADD COLUMN folder_id INTEGER REFERENCES folders (id) ON DELETE SET NULL;
ALTER TABLE dynamic_qr_codes ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE dynamic_qr_codes ADD COLUMN folder_id INTEGER REFERENCES folders (id) ON DELETE SET NULL;
ALTER TABLE blobs ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE SET NULL;
ALTER TABLE bulk_jobs ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE payment_products ADD COLUMN workspace_id INTEGER REFERENCES workspaces (id) ON DELETE CASCADE;

UPDATE qr_codes SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = qr_codes.user_id);
UPDATE dynamic_qr_codes SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = dynamic_qr_codes.user_id);
UPDATE blobs SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = blobs.owner_id);
UPDATE bulk_jobs SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = bulk_jobs.user_id);
UPDATE api_keys SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = api_keys.user_id);
UPDATE payment_products SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.personal_user_id = payment_products.user_id);

DROP INDEX qr_codes_user_live_idx;
DROP INDEX dynamic_qr_codes_user_live_idx;
CREATE INDEX qr_codes_workspace_created_idx ON qr_codes (workspace_id, created_at, id) WHERE NOT is_deleted;
CREATE INDEX dynamic_qr_codes_workspace_created_idx ON dynamic_qr_codes (workspace_id, created_at, id) WHERE NOT is_deleted;
CREATE INDEX qr_codes_workspace_name_idx ON qr_codes (workspace_id, lower(name), id) WHERE NOT is_deleted;
CREATE INDEX dynamic_qr_codes_workspace_name_idx ON dynamic_qr_codes (workspace_id, lower(name), id) WHERE NOT is_deleted;
CREATE INDEX blobs_workspace_id_idx ON blobs (workspace_id);
CREATE INDEX api_keys_workspace_id_idx ON api_keys (workspace_id);
CREATE INDEX payment_products_workspace_id_idx ON payment_products (workspace_id);

CREATE TABLE qr_code_tags (
    qr_code_id INTEGER NOT NULL REFERENCES qr_codes (id) ON DELETE CASCADE,
    tag_id     INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (qr_code_id, tag_id)
);

CREATE INDEX qr_code_tags_tag_idx ON qr_code_tags (tag_id, qr_code_id);

CREATE TABLE dynamic_qr_code_tags (
    dynamic_qr_code_id INTEGER NOT NULL REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    tag_id             INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (dynamic_qr_code_id, tag_id)
);

CREATE INDEX dynamic_qr_code_tags_tag_idx ON dynamic_qr_code_tags (tag_id, dynamic_qr_code_id);

-- What the code list's q searches (issue 22): the name, destination (what a
-- static code encodes) and tag names, lower-cased; the store rewrites it with
-- each of them.
ALTER TABLE qr_codes ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
ALTER TABLE dynamic_qr_codes ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
UPDATE qr_codes SET search_text = lower(name || ' ' || qr_content);
UPDATE dynamic_qr_codes SET search_text = lower(name || ' ' || destination);

-- Substring search through FTS5's trigram index, kept in step with
-- search_text by triggers; the code list matches a phrase of q in it.
CREATE VIRTUAL TABLE qr_codes_search USING fts5(search_text, content='qr_codes', content_rowid='id', tokenize='trigram');
CREATE VIRTUAL TABLE dynamic_qr_codes_search USING fts5(search_text, content='dynamic_qr_codes', content_rowid='id', tokenize='trigram');
INSERT INTO qr_codes_search (qr_codes_search) VALUES ('rebuild');
INSERT INTO dynamic_qr_codes_search (dynamic_qr_codes_search) VALUES ('rebuild');
CREATE TRIGGER qr_codes_search_insert AFTER INSERT ON qr_codes BEGIN
    INSERT INTO qr_codes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER qr_codes_search_update AFTER UPDATE OF search_text ON qr_codes BEGIN
    INSERT INTO qr_codes_search (qr_codes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO qr_codes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER qr_codes_search_delete AFTER DELETE ON qr_codes BEGIN
    INSERT INTO qr_codes_search (qr_codes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
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

-- Who changed what, written in the change's transaction.
CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    at           TEXT NOT NULL,
    actor_type   TEXT NOT NULL CHECK (actor_type IN ('user', 'api_key')),
    actor_id     INTEGER NOT NULL,
    actor_email  TEXT NOT NULL DEFAULT '',
    action       TEXT NOT NULL,
    target_type  TEXT NOT NULL,
    target_id    INTEGER NOT NULL,
    target_name  TEXT NOT NULL DEFAULT '',
    details      TEXT NOT NULL DEFAULT '{}'
);

CREATE INDEX audit_log_workspace_idx ON audit_log (workspace_id, id);

-- The account-wide rollups become the workspace's: same rows, keyed by the
-- personal workspace of the user they belonged to.
CREATE TABLE scan_workspace_days (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    scans        INTEGER NOT NULL,
    tally        TEXT NOT NULL,
    PRIMARY KEY (workspace_id, day, is_bot)
) WITHOUT ROWID;

INSERT INTO scan_workspace_days (workspace_id, day, is_bot, scans, tally)
SELECT w.id, d.day, d.is_bot, d.scans, d.tally FROM scan_user_days d JOIN workspaces w ON w.personal_user_id = d.user_id;
DROP TABLE scan_user_days;

CREATE TABLE scan_workspace_visitors (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    visitor_hash TEXT NOT NULL,
    codes        INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, day, is_bot, visitor_hash)
) WITHOUT ROWID;

INSERT INTO scan_workspace_visitors (workspace_id, day, is_bot, visitor_hash, codes)
SELECT w.id, v.day, v.is_bot, v.visitor_hash, v.codes FROM scan_user_visitors v JOIN workspaces w ON w.personal_user_id = v.user_id;
DROP TABLE scan_user_visitors;

CREATE TABLE workspace_rollup_versions (
    workspace_id INTEGER PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL
);

INSERT INTO workspace_rollup_versions (workspace_id, version)
SELECT w.id, r.version FROM rollup_versions r JOIN workspaces w ON w.personal_user_id = r.user_id;
DROP TABLE rollup_versions;
