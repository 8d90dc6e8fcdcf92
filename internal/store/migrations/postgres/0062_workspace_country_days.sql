-- A workspace's scans by country (package store, countrydays.go): what a
-- country's view of the workspace reads for its closed days instead of
-- their scan events. Keep in step with the other dialect's
-- 0062_workspace_country_days.sql; its Go step (startCountryDays) starts
-- the rows at the first open day.

-- One row per workspace, country ('' when none was found), closed UTC day
-- and bot flag: its scans and, in tally, their breakdowns and visitors
-- (store.dayTally).
CREATE TABLE scan_workspace_country_days (
    workspace_id bigint NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    country      text NOT NULL,
    day          timestamptz NOT NULL,
    is_bot       boolean NOT NULL,
    scans        bigint NOT NULL,
    tally        text NOT NULL,
    PRIMARY KEY (workspace_id, country, day, is_bot)
);

-- The first UTC day the rows hold: the days before it are counted back
-- one at a time (BackfillCountryDays), down to the oldest kept scan.
CREATE TABLE scan_country_days_from (
    id  integer PRIMARY KEY CHECK (id = 1),
    day timestamptz NOT NULL
);
