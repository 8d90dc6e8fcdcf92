-- Scheduled digests: a member's e-mailed report of a scope (one of
-- code_id, tag_id and folder_id, none for the whole workspace) every day,
-- week or month at a local hour. next_send_at is the UTC instant of the
-- next sending (package digests works it out in time_zone); a runner
-- takes a due schedule under lease_owner/lease_until, as mailings are.
-- Keep in step with the other dialect's 0055_report_schedules.sql.
CREATE TABLE report_schedules (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_by   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    code_id      INTEGER REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    tag_id       INTEGER REFERENCES tags (id) ON DELETE CASCADE,
    folder_id    INTEGER REFERENCES folders (id) ON DELETE CASCADE,
    frequency    TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
    weekday      INTEGER NOT NULL DEFAULT 0,
    hour         INTEGER NOT NULL,
    time_zone    TEXT NOT NULL,
    formats      TEXT NOT NULL,
    send_empty   INTEGER NOT NULL DEFAULT 0,
    next_send_at TEXT NOT NULL,
    lease_owner  TEXT NOT NULL DEFAULT '',
    lease_until  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE INDEX report_schedules_workspace_idx ON report_schedules (workspace_id, id);
CREATE INDEX report_schedules_due_idx ON report_schedules (next_send_at);

-- The members a schedule mails; an unsubscribe link deletes its row.
CREATE TABLE report_schedule_recipients (
    schedule_id INTEGER NOT NULL REFERENCES report_schedules (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (schedule_id, user_id)
);

-- One row per schedule, recipient and period, written before the mail
-- goes out: the unique key is what makes a digest go out once however
-- many runners reach it. A row left 'sending' by a crash is not sent again.
CREATE TABLE report_deliveries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id  INTEGER NOT NULL REFERENCES report_schedules (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    period_start TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed', 'skipped')),
    reason       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    finished_at  TEXT
);

CREATE UNIQUE INDEX report_deliveries_key ON report_deliveries (schedule_id, user_id, period_start);
