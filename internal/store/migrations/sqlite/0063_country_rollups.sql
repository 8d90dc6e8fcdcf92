-- A code's, a tag's or a folder's scans in one country (package store,
-- countryrollups.go): what a country's view of them reads for its closed
-- days instead of their scan events. A cache, built by the views that
-- need it and checked by each against what it was summed from. Keep in
-- step with the other dialect's 0063_country_rollups.sql.

-- One row per scope (exactly one of tag_id, folder_id and
-- dynamic_qr_code_id) and country ('' when none was found): the live
-- codes its rows were summed from (ids, comma-separated), their
-- workspace's code_rollup_versions then, and the UTC days the rows cover,
-- [from_day, through).
CREATE TABLE scan_country_rollups (
    id                 INTEGER PRIMARY KEY,
    tag_id             INTEGER REFERENCES tags (id) ON DELETE CASCADE,
    folder_id          INTEGER REFERENCES folders (id) ON DELETE CASCADE,
    dynamic_qr_code_id INTEGER REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    country            TEXT NOT NULL,
    members            TEXT NOT NULL,
    code_version       INTEGER NOT NULL,
    from_day           TEXT NOT NULL,
    through            TEXT NOT NULL,
    CHECK ((tag_id IS NOT NULL) + (folder_id IS NOT NULL) + (dynamic_qr_code_id IS NOT NULL) = 1)
);
CREATE UNIQUE INDEX scan_country_rollups_tag ON scan_country_rollups (tag_id, country) WHERE tag_id IS NOT NULL;
CREATE UNIQUE INDEX scan_country_rollups_folder ON scan_country_rollups (folder_id, country) WHERE folder_id IS NOT NULL;
CREATE UNIQUE INDEX scan_country_rollups_code ON scan_country_rollups (dynamic_qr_code_id, country) WHERE dynamic_qr_code_id IS NOT NULL;

-- One row per scope and country, closed UTC day and bot flag: the
-- scans of that country and, in tally, their breakdowns and visitors,
-- counted once per code (store.dayTally).
CREATE TABLE scan_country_rollup_days (
    rollup_id INTEGER NOT NULL REFERENCES scan_country_rollups (id) ON DELETE CASCADE,
    day       TEXT NOT NULL,
    is_bot    INTEGER NOT NULL,
    scans     INTEGER NOT NULL,
    tally     TEXT NOT NULL,
    PRIMARY KEY (rollup_id, day, is_bot)
) WITHOUT ROWID;
