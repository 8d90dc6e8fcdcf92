-- Root paths on custom domains (issue 34 item 2): a verified domain
-- answers https://{domain}/{shortCode} as /d/{shortCode}. One set "links
-- only" redirects / to root_url (none: a 404 page) and answers every
-- other unknown path with a 404 page, instead of sending it to the app.
ALTER TABLE workspace_domains ADD COLUMN links_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspace_domains ADD COLUMN root_url TEXT NOT NULL DEFAULT '';
