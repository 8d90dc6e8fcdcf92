-- The generator: saved static codes (issue 4). Keep in step with
-- ../postgres/0002_generator.sql.

-- qr_data holds the type fields under their form names (JSON), so a saved
-- code comes back exactly as it was filled in; qr_content is the exact text
-- the code encodes, so the server renders it again without rebuilding it
-- (a payment code's product id, a file's address); logo_size is the
-- generator's logo size; payment_product_id is the product a payment code
-- opens.
ALTER TABLE qr_codes ADD COLUMN qr_data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(qr_data));
ALTER TABLE qr_codes ADD COLUMN qr_content TEXT NOT NULL DEFAULT '';
ALTER TABLE qr_codes ADD COLUMN logo_size TEXT NOT NULL DEFAULT 'medium';
ALTER TABLE qr_codes ADD COLUMN payment_product_id INTEGER REFERENCES payment_products (id) ON DELETE SET NULL;

-- The dashboard lists a user's live codes, newest first.
CREATE INDEX qr_codes_user_live_idx ON qr_codes (user_id, created_at) WHERE is_deleted = 0;
