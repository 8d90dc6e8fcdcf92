-- SCIM 2.0 provisioning per workspace (issue 33 item 4). Keep in step with
-- the other dialect's 0043_scim.sql.
CREATE TABLE scim_tokens (
    workspace_id INTEGER PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL
);

-- The accounts a workspace's IdP provisions, as SCIM Users.
CREATE TABLE scim_users (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    external_id  TEXT NOT NULL DEFAULT '',
    active       INTEGER NOT NULL DEFAULT 1,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);

CREATE TABLE scim_groups (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    display_name TEXT NOT NULL,
    external_id  TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX scim_groups_display_name_key ON scim_groups (workspace_id, display_name);

CREATE TABLE scim_group_members (
    group_id INTEGER NOT NULL REFERENCES scim_groups (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX scim_group_members_user_id_idx ON scim_group_members (user_id);

-- The workspace that manages an account (made by its SCIM or SAML), which
-- may end its sessions and suspend it; suspended_at blocks every sign-in.
ALTER TABLE users ADD COLUMN managed_by_workspace_id INTEGER REFERENCES workspaces (id) ON DELETE SET NULL;
ALTER TABLE users ADD COLUMN suspended_at TEXT;
