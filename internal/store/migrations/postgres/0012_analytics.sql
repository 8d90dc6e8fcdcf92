-- Analytics (issue 15): the country a scan came from, ISO 3166-1 alpha-2
-- from the recorder's bundled IP data, '' when unknown. The address itself
-- is never stored. Keep in step with the other dialect's 0012_analytics.sql.
ALTER TABLE scan_events ADD COLUMN country TEXT NOT NULL DEFAULT '';
