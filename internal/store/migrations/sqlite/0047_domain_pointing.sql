-- Whether a custom domain points here: a verified domain proves who
-- controls it, not that its requests reach this instance. The pointing
-- check fetches a token URL over the domain; pointed_at is when it last
-- answered as this instance does (NULL: never, or not since it failed),
-- and a code may print the domain only while it is set.
ALTER TABLE workspace_domains ADD COLUMN pointed_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN point_checked_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN point_error TEXT NOT NULL DEFAULT '';
