-- A workspace's quarter hours (package store, quarters.go): what a view's
-- part days read, at either end of a range of local days, instead of the
-- scan events of every code. Keep in step with the other dialect's
-- 0058_workspace_quarters.sql; its Go step (startQuarters) dates the
-- workspaces that already exist.

-- One row per workspace, quarter hour (its UTC start) and bot flag: its
-- scans and, in tally, their breakdowns (store.dayTally, no visitors).
CREATE TABLE scan_workspace_quarters (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    quarter      TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    scans        INTEGER NOT NULL,
    tally        TEXT NOT NULL,
    PRIMARY KEY (workspace_id, quarter, is_bot)
) WITHOUT ROWID;

-- The quarters of its UTC day (0-95) in which a visitor first and last
-- scanned the workspace's codes: a part day's visitors are those that
-- scanned after its start (last) or before its end (first). Rows from
-- before this migration span the whole day.
ALTER TABLE scan_workspace_visitors ADD COLUMN first_quarter INTEGER NOT NULL DEFAULT 0;
ALTER TABLE scan_workspace_visitors ADD COLUMN last_quarter INTEGER NOT NULL DEFAULT 95;

-- From when the quarter rows and visitor quarters hold every scan of a
-- workspace: when they started (this migration). No row: from its first
-- scan.
CREATE TABLE workspace_quarters_since (
    workspace_id INTEGER PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    since        TEXT NOT NULL
);

-- The UTC days whose quarters a code's scans left (a deletion, a move in
-- or out): a code cannot be taken out of its visitors' quarters, so these
-- days' parts are read from the events.
CREATE TABLE scan_workspace_stale_days (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    PRIMARY KEY (workspace_id, day)
) WITHOUT ROWID;
