-- Share links: read-only analytics pages people open without signing in
-- (/s/{token}). Only the token's SHA-256 is kept; token_hint is its first
-- characters, so the list can tell links apart. One of code_id, tag_id and
-- folder_id names the scope, none for the whole workspace. A revoked link
-- keeps its row so its page can answer 410. Keep in step with the other
-- dialect's 0045_share_links.sql.
CREATE TABLE share_links (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id  INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    token_hash    TEXT NOT NULL,
    token_hint    TEXT NOT NULL,
    code_id       INTEGER REFERENCES dynamic_qr_codes (id) ON DELETE CASCADE,
    tag_id        INTEGER REFERENCES tags (id) ON DELETE CASCADE,
    folder_id     INTEGER REFERENCES folders (id) ON DELETE CASCADE,
    password_hash TEXT NOT NULL DEFAULT '',
    expires_at    TEXT,
    created_by    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at    TEXT NOT NULL,
    revoked_at    TEXT
);

CREATE UNIQUE INDEX share_links_token_key ON share_links (token_hash);
CREATE INDEX share_links_workspace_idx ON share_links (workspace_id, id);
