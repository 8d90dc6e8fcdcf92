-- The first UTC day whose per-code rollups (scan_code_days) are not
-- written yet: the recorder adds a batch to a code's day only once that
-- day is closed, and the per-code views read the scan events of the open
-- days instead. A batch of scans spread over many codes then writes one
-- row per user instead of one per code (see BENCHMARKS.md, "Per-code days
-- written when the day closes"). One row; the migration's Go step starts
-- it at the current UTC day, whose rows stop being kept up to date.
-- Keep in step with the other dialect's 0016_open_code_days.sql.
CREATE TABLE code_days_open (
    id  integer PRIMARY KEY CHECK (id = 1),
    day timestamptz NOT NULL
);
