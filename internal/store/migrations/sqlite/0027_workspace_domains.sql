-- Custom domains of workspaces (issue 25 item 7): a workspace claims a
-- domain, proves it controls it (a DNS TXT record or an HTTP token), and
-- its dynamic codes may then print https://{domain}/d/{code}. Keep in step
-- with the other dialect's 0027_workspace_domains.sql.
CREATE TABLE workspace_domains (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id    INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- Lower case, internationalised names in their ASCII (punycode) form.
    domain          TEXT NOT NULL,
    token           TEXT NOT NULL,
    -- How it was proved ('dns' or 'http'), NULL while pending.
    method          TEXT CHECK (method IN ('dns', 'http')),
    verified_at     TEXT,
    last_checked_at TEXT,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL
);

-- A workspace claims a domain once; many workspaces may claim it, but
-- only one can have it verified: the first to prove it. Pending claims
-- block no one.
CREATE UNIQUE INDEX workspace_domains_claim_key ON workspace_domains (workspace_id, domain);
CREATE UNIQUE INDEX workspace_domains_verified_key ON workspace_domains (domain) WHERE verified_at IS NOT NULL;

-- The domain a dynamic code prints, NULL for the base URL.
ALTER TABLE dynamic_qr_codes ADD COLUMN domain_id INTEGER REFERENCES workspace_domains (id);
CREATE INDEX dynamic_qr_codes_domain_id_idx ON dynamic_qr_codes (domain_id) WHERE domain_id IS NOT NULL;
