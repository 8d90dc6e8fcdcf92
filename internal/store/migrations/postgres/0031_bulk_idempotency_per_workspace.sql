-- A bulk upload's Idempotency-Key is the workspace's (issue 32): a repeat
-- in the workspace answers its job, and a key used in one workspace means
-- nothing in another (it was the user's, so a repeat in another workspace
-- answered the first workspace's job). Of the jobs of a workspace that
-- share a key, made by different members before, the first keeps it.
-- Keep in step with the other dialect's 0031_bulk_idempotency_per_workspace.sql.
UPDATE bulk_jobs SET idempotency_key = NULL
WHERE idempotency_key IS NOT NULL AND id <> (
    SELECT min(b.id) FROM bulk_jobs b
    WHERE b.workspace_id = bulk_jobs.workspace_id AND b.idempotency_key = bulk_jobs.idempotency_key
);

DROP INDEX bulk_jobs_idempotency_idx;
CREATE UNIQUE INDEX bulk_jobs_idempotency_idx ON bulk_jobs (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
