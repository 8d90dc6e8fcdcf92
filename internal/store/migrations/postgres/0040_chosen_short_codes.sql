-- Chosen short codes (issue 34 item 1): a short code may be 3 to 64
-- characters (widening a varchar rewrites nothing).
ALTER TABLE dynamic_qr_codes ALTER COLUMN short_code TYPE varchar(64);
-- Set when the workspace chose the short code (not drawn at random).
ALTER TABLE dynamic_qr_codes ADD COLUMN short_code_chosen boolean NOT NULL DEFAULT false;

-- Short codes are looked up without case on a host (a chosen code must
-- not differ from another of its host by case alone), and chosen ones
-- are unique per host without case: the base URL's (domain_id NULL, 0
-- here) or one custom domain's. short_code stays UNIQUE as it is, since
-- scans find a code by it on every host.
CREATE INDEX dynamic_qr_codes_short_code_lower_idx ON dynamic_qr_codes (lower(short_code));
CREATE UNIQUE INDEX dynamic_qr_codes_chosen_host_idx ON dynamic_qr_codes (COALESCE(domain_id, 0), lower(short_code)) WHERE short_code_chosen;
