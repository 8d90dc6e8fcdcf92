-- Bulk edits: one change applied to a frozen selection of a workspace's
-- codes by a leased runner. Each item records its code's changed fields
-- before and after, so the job can be undone within its window, and its
-- status moves from pending in the transaction that changes the code, so
-- a resumed job changes every code once.
CREATE TABLE bulk_edit_jobs (
    id           bigserial PRIMARY KEY,
    workspace_id bigint NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'undone')),
    changes      text NOT NULL,
    total        integer NOT NULL DEFAULT 0,
    error        text NOT NULL DEFAULT '',
    attempts     integer NOT NULL DEFAULT 0,
    lease_until  timestamptz,
    -- Set once the codes it deleted are settled for good (the undo window
    -- ended): their analytics rollups are dropped then.
    settled      boolean NOT NULL DEFAULT FALSE,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    finished_at  timestamptz
);
CREATE INDEX bulk_edit_jobs_workspace_idx ON bulk_edit_jobs (workspace_id, id);
CREATE INDEX bulk_edit_jobs_open_idx ON bulk_edit_jobs (id) WHERE status IN ('queued', 'running');
CREATE INDEX bulk_edit_jobs_unsettled_idx ON bulk_edit_jobs (finished_at) WHERE NOT settled;

CREATE TABLE bulk_edit_items (
    job_id  bigint NOT NULL REFERENCES bulk_edit_jobs (id) ON DELETE CASCADE,
    seq     integer NOT NULL,
    dynamic boolean NOT NULL,
    code_id bigint NOT NULL,
    -- pending, then changed, unchanged (the change left it as it was) or
    -- failed; undone once the undo restored it.
    status  text NOT NULL CHECK (status IN ('pending', 'changed', 'unchanged', 'failed', 'undone')),
    error   text NOT NULL DEFAULT '',
    before_values text NOT NULL DEFAULT '{}',
    after_values  text NOT NULL DEFAULT '{}',
    PRIMARY KEY (job_id, seq)
);
CREATE INDEX bulk_edit_items_pending_idx ON bulk_edit_items (job_id, seq) WHERE status = 'pending';
