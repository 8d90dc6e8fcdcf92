-- Root paths on custom domains (issue 34 item 2): a verified domain
-- answers https://{domain}/{shortCode} as /d/{shortCode}. One set "links
-- only" redirects / to root_url (none: a 404 page) and answers every
-- other unknown path with a 404 page, instead of sending it to the app.
ALTER TABLE workspace_domains ADD COLUMN links_only boolean NOT NULL DEFAULT false;
ALTER TABLE workspace_domains ADD COLUMN root_url text NOT NULL DEFAULT '';
