-- Brand kits (issue 26 item 3): a workspace's saved designs. Keep in step
-- with the other dialect's 0026_brand_kits.sql.

-- style is the style fields as the API names them (codes.Style as JSON),
-- so a field the renderer gains is kept without a new column. The logo is
-- one of the workspace's uploaded logos; deleting it leaves the kit without.
CREATE TABLE brand_kits (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    style        TEXT NOT NULL,
    logo_id      INTEGER REFERENCES blobs (id) ON DELETE SET NULL,
    is_default   INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX brand_kits_name_key ON brand_kits (workspace_id, lower(name));
-- At most one default kit per workspace, whatever the requests' order.
CREATE UNIQUE INDEX brand_kits_default_key ON brand_kits (workspace_id) WHERE is_default;
CREATE INDEX brand_kits_logo_idx ON brand_kits (logo_id);
