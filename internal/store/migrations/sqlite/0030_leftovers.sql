-- Issue 32 item 5. Keep in step with ../postgres/0030_leftovers.sql.

-- Mail a request or a background check queues, sent after it by the
-- outbox sender (internal/mail/outbox): the new-device notice leaves the
-- sign-in request at once. status is pending, sending (left so by
-- a sender that died: not sent again) or failed; a sent mail's row goes.
CREATE TABLE mail_outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient  TEXT NOT NULL,
    template   TEXT NOT NULL,
    fields     TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL
);
CREATE INDEX mail_outbox_pending_idx ON mail_outbox (id) WHERE status = 'pending';

-- The verified domain a bulk job's dynamic codes print, NULL for the base URL.
ALTER TABLE bulk_jobs ADD COLUMN domain_id INTEGER REFERENCES workspace_domains (id);
