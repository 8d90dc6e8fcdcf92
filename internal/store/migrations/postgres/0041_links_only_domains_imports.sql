-- Root paths on custom domains (issue 34 item 2): a verified domain
-- answers https://{domain}/{shortCode} as /d/{shortCode}. One set "links
-- only" redirects / to root_url (none: a 404 page) and answers every
-- other unknown path with a 404 page, instead of sending it to the app.
ALTER TABLE workspace_domains ADD COLUMN links_only boolean NOT NULL DEFAULT false;
ALTER TABLE workspace_domains ADD COLUMN root_url text NOT NULL DEFAULT '';

-- Imports (issue 34 item 3): links read from another shortener (a CSV
-- file, or its API, read when the import is made: its API key is never
-- stored) become dynamic codes, one item a link, by a leased runner that
-- resumes after a restart.
CREATE TABLE import_jobs (
    id           bigserial PRIMARY KEY,
    workspace_id bigint NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source       text NOT NULL,
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    domain_id    bigint REFERENCES workspace_domains (id),
    old_base_url text NOT NULL DEFAULT '',
    dynamic_limit integer NOT NULL DEFAULT 0,
    total        integer NOT NULL DEFAULT 0,
    error        text NOT NULL DEFAULT '',
    attempts     integer NOT NULL DEFAULT 0,
    lease_until  timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX import_jobs_workspace_idx ON import_jobs (workspace_id, id);
CREATE INDEX import_jobs_open_idx ON import_jobs (id) WHERE status IN ('queued', 'running');

CREATE TABLE import_items (
    job_id            bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number        integer NOT NULL,
    short_code        text NOT NULL DEFAULT '',
    destination       text NOT NULL DEFAULT '',
    title             text NOT NULL DEFAULT '',
    tags              text NOT NULL DEFAULT '[]',
    source_created_at timestamptz,
    clicks            bigint NOT NULL DEFAULT 0, -- the old total: a baseline kept apart from Squarely's scans
    status            text NOT NULL CHECK (status IN ('pending', 'created', 'exists', 'conflict', 'failed')),
    error             text NOT NULL DEFAULT '',
    dynamic_code_id   bigint REFERENCES dynamic_qr_codes (id) ON DELETE SET NULL,
    -- The switch check: the old short URL and Squarely's, compared.
    check_result      text NOT NULL DEFAULT '' CHECK (check_result IN ('', 'same', 'different')),
    check_old         text NOT NULL DEFAULT '',
    check_new         text NOT NULL DEFAULT '',
    PRIMARY KEY (job_id, row_number)
);
