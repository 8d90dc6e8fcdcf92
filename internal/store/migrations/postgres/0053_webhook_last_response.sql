-- The start of the last answer's body (at most 2 KB of the 64 KB the
-- runner reads), shown with the delivery's payload; '' before any answer.
ALTER TABLE webhook_deliveries ADD COLUMN last_response TEXT NOT NULL DEFAULT '';
