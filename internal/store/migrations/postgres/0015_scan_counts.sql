-- Each dynamic code's human scans and latest human scan, moved out of
-- dynamic_qr_codes into a narrow table of their own: the recorder adds to
-- them in every batch, and a batch of scans spread over many codes then
-- rewrites a few small pages instead of one wide row (the code's style,
-- data and destination) per code. See BENCHMARKS.md, "Scan counts in a
-- narrow table". A code with no row has no scans yet.
-- Keep in step with the other dialect's 0015_scan_counts.sql.
CREATE TABLE scan_counts (
    dynamic_qr_code_id bigint PRIMARY KEY REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    scans              bigint NOT NULL,
    last_scanned_at    timestamptz NOT NULL
);

INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at)
SELECT id, scan_count, last_scanned_at FROM dynamic_qr_codes WHERE last_scanned_at IS NOT NULL;

ALTER TABLE dynamic_qr_codes DROP COLUMN scan_count;
ALTER TABLE dynamic_qr_codes DROP COLUMN last_scanned_at;

-- How many times each user's rollups have changed: every batch of the
-- recorder and every deletion of a code adds one, so a writer that caches
-- the rollups (store/rollupcache.go) can tell when another instance, or
-- process, has changed them since.
CREATE TABLE rollup_versions (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    version bigint NOT NULL
);
