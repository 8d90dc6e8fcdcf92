-- Saved UTM presets of a workspace (issue 23 item 3): the Destination
-- tab's builder fills its fields from one. Keep in step with the other
-- dialect's 0028_utm_presets.sql.
CREATE TABLE utm_presets (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    source       TEXT NOT NULL DEFAULT '',
    medium       TEXT NOT NULL DEFAULT '',
    campaign     TEXT NOT NULL DEFAULT '',
    term         TEXT NOT NULL DEFAULT '',
    content      TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX utm_presets_name_key ON utm_presets (workspace_id, lower(name));
