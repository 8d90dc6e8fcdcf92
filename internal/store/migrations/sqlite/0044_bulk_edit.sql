-- Bulk edits: one change applied to a frozen selection of a workspace's
-- codes by a leased runner. Each item records its code's changed fields
-- before and after, so the job can be undone within its window, and its
-- status moves from pending in the transaction that changes the code, so
-- a resumed job changes every code once.
CREATE TABLE bulk_edit_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'undone')),
    changes      TEXT NOT NULL,
    total        INTEGER NOT NULL DEFAULT 0,
    error        TEXT NOT NULL DEFAULT '',
    attempts     INTEGER NOT NULL DEFAULT 0,
    lease_until  TEXT,
    -- Set once the codes it deleted are settled for good (the undo window
    -- ended): their analytics rollups are dropped then.
    settled      INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    finished_at  TEXT
);
CREATE INDEX bulk_edit_jobs_workspace_idx ON bulk_edit_jobs (workspace_id, id);
CREATE INDEX bulk_edit_jobs_open_idx ON bulk_edit_jobs (id) WHERE status IN ('queued', 'running');
CREATE INDEX bulk_edit_jobs_unsettled_idx ON bulk_edit_jobs (finished_at) WHERE settled = 0;

CREATE TABLE bulk_edit_items (
    job_id  INTEGER NOT NULL REFERENCES bulk_edit_jobs (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    dynamic INTEGER NOT NULL,
    code_id INTEGER NOT NULL,
    -- pending, then changed, unchanged (the change left it as it was) or
    -- failed; undone once the undo restored it.
    status  TEXT NOT NULL CHECK (status IN ('pending', 'changed', 'unchanged', 'failed', 'undone')),
    error   TEXT NOT NULL DEFAULT '',
    before_values TEXT NOT NULL DEFAULT '{}',
    after_values  TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (job_id, seq)
);
CREATE INDEX bulk_edit_items_pending_idx ON bulk_edit_items (job_id, seq) WHERE status = 'pending';
