-- A tag's or a folder's own count of changes to the code rows its day rows
-- were summed from (package store, groupdays.go): a code's deletion bumps
-- the groups that hold it, not every group of the workspace, so the
-- others keep their rows. A group's version is this plus its workspace's
-- code_rollup_versions (late scans). Keep in step with the other
-- dialect's 0059_group_rollup_versions.sql.
ALTER TABLE tags ADD COLUMN rollup_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE folders ADD COLUMN rollup_version INTEGER NOT NULL DEFAULT 0;
