-- Smart dynamic codes (issue 23). routing is the code's routing object as
-- JSON (rules, split, schedule, limit), NULL when unset; scan_limit copies
-- its scanLimit so the conditional UPDATE that counts a limited code's
-- redirected scans (limit_scans) reads the limit in the same statement.
-- scan_events.route names what served each scan: rule:N, split:N, default
-- or ended. Keep in step with the other dialect's 0019_smart_codes.sql.
ALTER TABLE dynamic_qr_codes ADD COLUMN routing TEXT;
ALTER TABLE dynamic_qr_codes ADD COLUMN scan_limit INTEGER;
ALTER TABLE dynamic_qr_codes ADD COLUMN limit_scans INTEGER NOT NULL DEFAULT 0;
ALTER TABLE scan_events ADD COLUMN route TEXT NOT NULL DEFAULT 'default';
