-- Hosted pages (issue 35): the pages a dynamic code can open instead of
-- redirecting. Keep in step with the other dialect's 0038_pages.sql.

-- theme and content are JSON as the API names them (internal/pages);
-- version goes up with every edit: rendered pages are cached per version.
CREATE TABLE pages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    title        TEXT NOT NULL,
    language     TEXT NOT NULL,
    theme        TEXT NOT NULL,
    content      TEXT NOT NULL,
    version      INTEGER NOT NULL DEFAULT 1,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX pages_slug_key ON pages (slug);
CREATE INDEX pages_workspace_idx ON pages (workspace_id, id);

-- A dynamic code whose destination is a page answers its scans with it.
-- A page used by a live code cannot be deleted (the store checks); a
-- deleted code lets go of it.
ALTER TABLE dynamic_qr_codes ADD COLUMN page_id INTEGER REFERENCES pages (id) ON DELETE SET NULL;
CREATE INDEX dynamic_qr_codes_page_idx ON dynamic_qr_codes (page_id);

-- What visitors did on a page: kind is view, click (button: its index in
-- pages.Buttons), save (contact.vcf), reveal (Show code), calendar (event.ics
-- or the Google Calendar link). visitor is a salted hash of the client that
-- changes daily: unique visitors without storing an address.
CREATE TABLE page_events (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id   INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    button    INTEGER,
    visitor   TEXT NOT NULL,
    at        TEXT NOT NULL
);

CREATE INDEX page_events_page_idx ON page_events (page_id, at);
