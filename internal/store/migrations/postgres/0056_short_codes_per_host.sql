-- Short codes unique per host: the same chosen short code may be one
-- code's on the base URL and another's on each custom domain, so the
-- UNIQUE of short_code (0001) goes.
ALTER TABLE dynamic_qr_codes DROP CONSTRAINT dynamic_qr_codes_short_code_key;

-- A scan finds the codes of its short code by the first index (one per
-- host at most) and answers its host's. A host (the base URL's,
-- domain_id NULL: 0 here, or one custom domain's) never has a short code
-- twice; a chosen one is unique there without case (0040). A random
-- short code stays unique on every host, as every short code was before:
-- the base URL answers a code whatever its domain, and a random one is
-- never ambiguous there.
CREATE INDEX dynamic_qr_codes_short_code_idx ON dynamic_qr_codes (short_code);
CREATE UNIQUE INDEX dynamic_qr_codes_host_code_idx ON dynamic_qr_codes (COALESCE(domain_id, 0), short_code);
CREATE UNIQUE INDEX dynamic_qr_codes_random_code_idx ON dynamic_qr_codes (short_code) WHERE NOT short_code_chosen;
