-- Scan rollups (issue 15): what the analytics views read instead of every
-- scan event. RecordScans keeps them in step with scan_events in the same
-- transaction; deleting a code takes its share out of its owner's rows.
-- Keep in step with the other dialect's 0014_scan_rollups.sql; the Go step
-- of this migration (rollupBackfill) rolls up the scans recorded before it.

-- One row per code (scan_code_days) or per user (scan_user_days), UTC day
-- and bot flag: the scans and, in tally, the text (store/tally.go) of the day's
-- quarter-hour counts, visitors and breakdowns (store.dayTally).
CREATE TABLE scan_code_days (
    dynamic_qr_code_id INTEGER NOT NULL REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    day                TEXT NOT NULL,
    is_bot             INTEGER NOT NULL,
    scans              INTEGER NOT NULL,
    tally              TEXT NOT NULL,
    PRIMARY KEY (dynamic_qr_code_id, day, is_bot)
) WITHOUT ROWID;

CREATE TABLE scan_user_days (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day     TEXT NOT NULL,
    is_bot  INTEGER NOT NULL,
    scans   INTEGER NOT NULL,
    tally   TEXT NOT NULL,
    PRIMARY KEY (user_id, day, is_bot)
) WITHOUT ROWID;

-- The visitor hashes each live code saw each UTC day (scan_visitors) and
-- each user's codes saw, with how many of the user's codes saw each
-- (scan_user_visitors): how a batch tells a new visitor of a code, and of
-- its owner, from one already counted, and what a code's deletion leaves.
CREATE TABLE scan_visitors (
    dynamic_qr_code_id INTEGER NOT NULL REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    day                TEXT NOT NULL,
    is_bot             INTEGER NOT NULL,
    visitor_hash       TEXT NOT NULL,
    PRIMARY KEY (dynamic_qr_code_id, day, is_bot, visitor_hash)
) WITHOUT ROWID;

CREATE TABLE scan_user_visitors (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    visitor_hash TEXT NOT NULL,
    codes        INTEGER NOT NULL,
    PRIMARY KEY (user_id, day, is_bot, visitor_hash)
) WITHOUT ROWID;
