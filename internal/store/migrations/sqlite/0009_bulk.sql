-- Bulk generation jobs (issue 12). Keep in step with ../postgres/0009_bulk.sql.

-- A job: one uploaded spreadsheet turned into saved codes. Any instance
-- may run it: the runner holding it renews lease_until, and a job whose
-- lease ran out (its instance stopped) is taken up by another.
CREATE TABLE bulk_jobs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status          TEXT NOT NULL DEFAULT 'queued', -- queued, running, done, failed
    file_name       TEXT NOT NULL DEFAULT '',
    file_sha256     TEXT NOT NULL,
    idempotency_key TEXT,
    total           INTEGER NOT NULL,
    processed       INTEGER NOT NULL DEFAULT 0,
    failed          INTEGER NOT NULL DEFAULT 0,
    dynamic_limit   INTEGER NOT NULL DEFAULT 0, -- 0 = none
    attempts        INTEGER NOT NULL DEFAULT 0,
    lease_until     TEXT,
    error           TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);

CREATE UNIQUE INDEX bulk_jobs_idempotency_idx ON bulk_jobs (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX bulk_jobs_open_idx ON bulk_jobs (id) WHERE status IN ('queued', 'running');

-- One row of a job: the code to save (a JSON spec checked at upload), or
-- why the row was refused. An item turns done in the same transaction that
-- saves its code, so a resumed job never saves a row twice.
CREATE TABLE bulk_job_items (
    job_id          INTEGER NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
    row_number      INTEGER NOT NULL,
    status          TEXT NOT NULL, -- pending, done, failed
    spec            TEXT NOT NULL DEFAULT '{}',
    column_name     TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    qr_code_id      INTEGER REFERENCES qr_codes (id) ON DELETE SET NULL,
    dynamic_code_id INTEGER REFERENCES dynamic_qr_codes (id) ON DELETE SET NULL,
    short_code      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (job_id, row_number)
);
