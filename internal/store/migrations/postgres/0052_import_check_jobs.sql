-- An import's switch check is a job of its own, held under a lease like
-- the import, so it resumes on another instance after a restart: queued
-- by POST /api/imports/{id}/verify, running while an instance holds it,
-- done once every imported link was compared (its items' check_result).
ALTER TABLE import_jobs ADD COLUMN check_status text NOT NULL DEFAULT ''
    CHECK (check_status IN ('', 'queued', 'running', 'done'));
ALTER TABLE import_jobs ADD COLUMN check_lease_until timestamptz;
ALTER TABLE import_jobs ADD COLUMN check_attempts integer NOT NULL DEFAULT 0;
CREATE INDEX import_jobs_checking_idx ON import_jobs (id) WHERE check_status IN ('queued', 'running');
