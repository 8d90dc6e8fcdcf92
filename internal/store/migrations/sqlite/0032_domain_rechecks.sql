-- Verified domains are re-checked daily (issue 32 item 5): rechecked_at is
-- when a re-check last claimed the domain (its lease: one instance checks
-- it), missed_at the first re-check of the current run that found the
-- proof gone (NULL once it is found), lost_at when a second re-check in a
-- row did not find it either: the domain is lost and its owners were
-- mailed. A lost domain stays verified (its codes keep working). Keep in
-- step with the other dialect's 0032_domain_rechecks.sql.
ALTER TABLE workspace_domains ADD COLUMN rechecked_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN missed_at TEXT;
ALTER TABLE workspace_domains ADD COLUMN lost_at TEXT;
