-- A digest the mail server refused is tried again (package digests):
-- attempts counts the tries so far; retry_at, set on a 'failed' row, is
-- when the next one is due (NULL once the last has failed). The index
-- finds due retries, and created_at's the rows old enough to delete.
-- Keep in step with the other dialect's 0057_report_delivery_retries.sql.
ALTER TABLE report_deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE report_deliveries ADD COLUMN retry_at TEXT;

CREATE INDEX report_deliveries_retry_idx ON report_deliveries (retry_at) WHERE retry_at IS NOT NULL;
CREATE INDEX report_deliveries_created_idx ON report_deliveries (created_at);
