-- Root paths on custom domains (issue 34 item 2): a verified domain
-- answers https://{domain}/{shortCode} as /d/{shortCode}. One set "links
-- only" redirects / to root_url (none: a 404 page) and answers every
-- other unknown path with a 404 page, instead of sending it to the app.
ALTER TABLE workspace_domains ADD COLUMN links_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspace_domains ADD COLUMN root_url TEXT NOT NULL DEFAULT '';

-- Imports (issue 34 item 3): links read from another shortener (a CSV
-- file, or its API, read when the import is made: its API key is never
-- stored) become dynamic codes, one item a link, by a leased runner that
-- resumes after a restart.
CREATE TABLE import_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source       TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    domain_id    INTEGER REFERENCES workspace_domains (id),
    old_base_url TEXT NOT NULL DEFAULT '',
    dynamic_limit INTEGER NOT NULL DEFAULT 0,
    total        INTEGER NOT NULL DEFAULT 0,
    error        TEXT NOT NULL DEFAULT '',
    attempts     INTEGER NOT NULL DEFAULT 0,
    lease_until  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX import_jobs_workspace_idx ON import_jobs (workspace_id, id);
CREATE INDEX import_jobs_open_idx ON import_jobs (id) WHERE status IN ('queued', 'running');

CREATE TABLE import_items (
    job_id            INTEGER NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number        INTEGER NOT NULL,
    short_code        TEXT NOT NULL DEFAULT '',
    destination       TEXT NOT NULL DEFAULT '',
    title             TEXT NOT NULL DEFAULT '',
    tags              TEXT NOT NULL DEFAULT '[]',
    source_created_at TEXT,
    clicks            INTEGER NOT NULL DEFAULT 0, -- the old total: a baseline kept apart from Squarely's scans
    status            TEXT NOT NULL CHECK (status IN ('pending', 'created', 'exists', 'conflict', 'failed')),
    error             TEXT NOT NULL DEFAULT '',
    dynamic_code_id   INTEGER REFERENCES dynamic_qr_codes (id) ON DELETE SET NULL,
    -- The switch check: the old short URL and Squarely's, compared.
    check_result      TEXT NOT NULL DEFAULT '' CHECK (check_result IN ('', 'same', 'different')),
    check_old         TEXT NOT NULL DEFAULT '',
    check_new         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (job_id, row_number)
);
