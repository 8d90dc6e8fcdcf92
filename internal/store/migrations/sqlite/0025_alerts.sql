-- Alerts (issue 24 item 5). A dynamic code keeps the health of its
-- destinations as the link checker last saw it: health_status is unknown
-- (never checked), ok or down; health_failures counts the checks in a row
-- that found health_url failing, since health_since; health_checked_at is
-- when a checker last claimed the code (the claim is the conditional
-- UPDATE that keeps two instances from checking one code in one round).
-- drop_alerted_at is the last scans-dropped alert (at most one a week).
-- alerts_muted stops a code's alerts (mail and webhook events); a member's
-- alert_emails whether alerts of the workspace are mailed to them.
-- alerts is one row per raised alert: its webhook data and the state of
-- its mail (pending, sending, sent or failed; a row left 'sending' by a
-- killed sender is not mailed again). Keep in step with the other
-- dialect's 0025_alerts.sql.
ALTER TABLE dynamic_qr_codes ADD COLUMN alerts_muted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dynamic_qr_codes ADD COLUMN health_status TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE dynamic_qr_codes ADD COLUMN health_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE dynamic_qr_codes ADD COLUMN health_url TEXT NOT NULL DEFAULT '';
ALTER TABLE dynamic_qr_codes ADD COLUMN health_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dynamic_qr_codes ADD COLUMN health_since TEXT;
ALTER TABLE dynamic_qr_codes ADD COLUMN health_checked_at TEXT;
ALTER TABLE dynamic_qr_codes ADD COLUMN drop_alerted_at TEXT;
ALTER TABLE workspace_members ADD COLUMN alert_emails INTEGER NOT NULL DEFAULT 1;

CREATE INDEX dynamic_qr_codes_health_due_idx ON dynamic_qr_codes (health_checked_at) WHERE NOT is_deleted;

CREATE TABLE alerts (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id       INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    dynamic_qr_code_id INTEGER NOT NULL REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    type               TEXT NOT NULL,
    data               TEXT NOT NULL,
    mail_status        TEXT NOT NULL DEFAULT 'pending',
    created_at         TEXT NOT NULL
);

CREATE INDEX alerts_workspace_idx ON alerts (workspace_id, id);
CREATE INDEX alerts_mail_pending_idx ON alerts (id) WHERE mail_status = 'pending';
