-- Whether a custom domain points here: a verified domain proves who
-- controls it, not that its requests reach this instance. The pointing
-- check fetches a token URL over the domain; pointed_at is when it last
-- answered as this instance does (NULL: never, or not since it failed),
-- and a code may print the domain only while it is set.
ALTER TABLE workspace_domains ADD COLUMN pointed_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN point_checked_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN point_error TEXT NOT NULL DEFAULT '';

-- Domains verified before this check have none on record, so no new code
-- could print them until their daily re-check: the next re-check (the
-- proof, then the pointing check) of each is due once it is a day past its
-- verification, at once for most. A domain that missed its proof keeps
-- its retry time.
UPDATE workspace_domains SET rechecked_at = NULL WHERE verified_at IS NOT NULL AND missed_at IS NULL;
