-- Operations (issue 25). Keep in step with the other dialect's
-- 0021_operations.sql.

-- Scan retention: scan events before events_from are deleted (or being
-- deleted) by SQUARELY_SCAN_RETENTION_DAYS; the views then read those
-- days from the rollups alone. It only moves forward, and stays at a UTC
-- day's start before the first open day. The epoch: nothing deleted.
CREATE TABLE scan_retention (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    events_from TEXT NOT NULL
);
INSERT INTO scan_retention (id, events_from) VALUES (1, '1970-01-01T00:00:00.000000Z');

-- Certificates and the ACME account key of SQUARELY_TLS=acme, shared by
-- every instance: autocert's cache, keyed as autocert names its entries.
CREATE TABLE acme_cache (
    key        TEXT PRIMARY KEY,
    data       BLOB NOT NULL,
    updated_at TEXT NOT NULL
);
