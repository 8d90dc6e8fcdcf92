-- Bulk generation jobs (issue 12). Keep in step with ../sqlite/0009_bulk.sql.

-- A job: one uploaded spreadsheet turned into saved codes. Any instance
-- may run it: the runner holding it renews lease_until, and a job whose
-- lease ran out (its instance stopped) is taken up by another.
CREATE TABLE bulk_jobs (
    id              bigserial PRIMARY KEY,
    user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'queued', -- queued, running, done, failed
    file_name       text NOT NULL DEFAULT '',
    file_sha256     text NOT NULL,
    idempotency_key text,
    total           integer NOT NULL,
    processed       integer NOT NULL DEFAULT 0,
    failed          integer NOT NULL DEFAULT 0,
    dynamic_limit   integer NOT NULL DEFAULT 0, -- 0 = none
    attempts        integer NOT NULL DEFAULT 0,
    lease_until     timestamptz,
    error           text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE UNIQUE INDEX bulk_jobs_idempotency_idx ON bulk_jobs (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX bulk_jobs_open_idx ON bulk_jobs (id) WHERE status IN ('queued', 'running');

-- One row of a job: the code to save (a JSON spec checked at upload), or
-- why the row was refused. An item turns done in the same transaction that
-- saves its code, so a resumed job never saves a row twice.
CREATE TABLE bulk_job_items (
    job_id          bigint NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
    row_number      integer NOT NULL,
    status          text NOT NULL, -- pending, done, failed
    spec            text NOT NULL DEFAULT '{}',
    column_name     text NOT NULL DEFAULT '',
    error           text NOT NULL DEFAULT '',
    qr_code_id      bigint REFERENCES qr_codes (id) ON DELETE SET NULL,
    dynamic_code_id bigint REFERENCES dynamic_qr_codes (id) ON DELETE SET NULL,
    short_code      text NOT NULL DEFAULT '',
    PRIMARY KEY (job_id, row_number)
);
