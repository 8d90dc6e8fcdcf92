-- A dynamic code imported from another shortener keeps the link's old
-- total click count there: a baseline shown apart from Squarely's own
-- scans, never added to them.
ALTER TABLE dynamic_qr_codes ADD COLUMN imported_clicks INTEGER NOT NULL DEFAULT 0;
