-- Password-protected dynamic codes (issue 10): the bcrypt hash a scan must
-- match before it is redirected; NULL for an open code. Keep in step with
-- the other dialect's 0013_protected_codes.sql.
ALTER TABLE dynamic_qr_codes ADD COLUMN password_hash TEXT;
