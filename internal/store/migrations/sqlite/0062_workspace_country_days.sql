-- A workspace's scans by country (package store, countrydays.go): what a
-- country's view of the workspace reads for its closed days instead of
-- their scan events. Keep in step with the other dialect's
-- 0062_workspace_country_days.sql; its Go step (startCountryDays) starts
-- the rows at the first open day.

-- One row per workspace, country ('' when none was found), closed UTC day
-- and bot flag: its scans and, in tally, their breakdowns and visitors
-- (store.dayTally).
CREATE TABLE scan_workspace_country_days (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    country      TEXT NOT NULL,
    day          TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    scans        INTEGER NOT NULL,
    tally        TEXT NOT NULL,
    PRIMARY KEY (workspace_id, country, day, is_bot)
) WITHOUT ROWID;

-- The first UTC day the rows hold: the days before it are counted back
-- one at a time (BackfillCountryDays), down to the oldest kept scan.
CREATE TABLE scan_country_days_from (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    day TEXT NOT NULL
);
