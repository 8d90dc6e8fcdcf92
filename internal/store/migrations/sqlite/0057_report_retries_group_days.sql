-- A digest the mail server refused is tried again (package digests):
-- attempts counts the tries so far; retry_at, set on a 'failed' row, is
-- when the next one is due (NULL once the last has failed). The index
-- finds due retries, and created_at's the rows old enough to delete.
-- Keep in step with the other dialect's 0057_report_retries_group_days.sql.
ALTER TABLE report_deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE report_deliveries ADD COLUMN retry_at TEXT;

CREATE INDEX report_deliveries_retry_idx ON report_deliveries (retry_at) WHERE retry_at IS NOT NULL;
CREATE INDEX report_deliveries_created_idx ON report_deliveries (created_at);

-- A tag's and a folder's day rows (package store, groupdays.go): the sums
-- of the closed-day rows (scan_code_days) of their live codes, so their
-- views read a row per day rather than one per code and day. They are
-- built when a view first reads them and checked at every view against
-- scan_*_rollups: the live codes they were summed over (members, their
-- ids), the version of those codes' rows (code_rollup_versions) and the
-- first day they do not cover (through). A code that joins or leaves has
-- its rows added or taken out, days closed since are added, and a new
-- version rebuilds them.
CREATE TABLE scan_tag_days (
    tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    day    TEXT NOT NULL,
    is_bot INTEGER NOT NULL,
    scans  INTEGER NOT NULL,
    tally  TEXT NOT NULL,
    PRIMARY KEY (tag_id, day, is_bot)
) WITHOUT ROWID;

CREATE TABLE scan_folder_days (
    folder_id INTEGER NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    day       TEXT NOT NULL,
    is_bot    INTEGER NOT NULL,
    scans     INTEGER NOT NULL,
    tally     TEXT NOT NULL,
    PRIMARY KEY (folder_id, day, is_bot)
) WITHOUT ROWID;

CREATE TABLE scan_tag_rollups (
    tag_id       INTEGER PRIMARY KEY REFERENCES tags (id) ON DELETE CASCADE,
    members      TEXT NOT NULL,
    code_version INTEGER NOT NULL,
    through      TEXT NOT NULL
);

CREATE TABLE scan_folder_rollups (
    folder_id    INTEGER PRIMARY KEY REFERENCES folders (id) ON DELETE CASCADE,
    members      TEXT NOT NULL,
    code_version INTEGER NOT NULL,
    through      TEXT NOT NULL
);

-- Bumped whenever a workspace's codes' closed-day rows change other than
-- by a day closing: scans of a closed day recorded late, a code deleted.
CREATE TABLE code_rollup_versions (
    workspace_id INTEGER PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL
);
