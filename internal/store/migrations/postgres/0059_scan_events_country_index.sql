-- One country's scans (?country=) are read from the scan events: the
-- code's index also holds each scan's country and bot flag, so a view
-- reads only the rows of that country, not every row in its range. It
-- replaces the index on (dynamic_qr_code_id, scanned_at), whose every use
-- this one serves: a scan still adds one index entry. Keep in step with
-- the other dialect's 0059_scan_events_country_index.sql.
DROP INDEX scan_events_code_scanned_at_idx;
CREATE INDEX scan_events_code_scanned_at_idx ON scan_events (dynamic_qr_code_id, scanned_at, country, is_bot);
