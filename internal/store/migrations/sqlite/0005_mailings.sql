-- Admin mailings and unsubscribes (issue 9). Keep in step with
-- ../postgres/0005_mailings.sql.

-- One admin send (a newsletter, the welcome mailing, scan or pause
-- notifications). Whichever instance holds the lease sends it; a lease
-- that runs out (its instance died) lets another instance resume.
CREATE TABLE mailings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT NOT NULL CHECK (kind IN ('newsletter', 'welcome', 'scans', 'paused')),
    subject       TEXT NOT NULL DEFAULT '',
    content       TEXT NOT NULL DEFAULT '',
    include_stats INTEGER NOT NULL DEFAULT 0,
    created_by    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    status        TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'done')),
    lease_owner   TEXT,
    lease_until   TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')),
    finished_at   TEXT
);

-- One unfinished mailing of each kind at a time: a second click, or a
-- burst of requests, cannot queue the same mailing twice.
CREATE UNIQUE INDEX mailings_one_unfinished_per_kind ON mailings (kind) WHERE status <> 'done';

-- One row per recipient of a mailing: the row, not the SMTP server, says
-- whether the address was mailed. 'sending' is written (and committed)
-- before the message goes out, so a row found 'sending' after a crash may
-- have been delivered and is never sent again (it becomes 'interrupted').
CREATE TABLE mailing_recipients (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    mailing_id INTEGER NOT NULL REFERENCES mailings (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    fields     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(fields)),
    status     TEXT NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'skipped', 'interrupted')),
    error      TEXT NOT NULL DEFAULT '',
    updated_at TEXT,
    UNIQUE (mailing_id, email)
);

CREATE INDEX mailing_recipients_pending_idx ON mailing_recipients (mailing_id, id) WHERE status IN ('pending', 'sending');

-- Addresses that asked for no more bulk mail (lower-cased). Every mailing
-- checks it just before each send, so an unsubscribe applies at once.
CREATE TABLE mail_unsubscribes (
    email           TEXT PRIMARY KEY,
    unsubscribed_at TEXT NOT NULL
);
