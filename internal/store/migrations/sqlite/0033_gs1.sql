-- GS1 Digital Link (issue 38): a workspace's product entries by GTIN (14
-- digits), each with its links (a JSON array of {linkType, href, title,
-- language, context, forward}) and the more specific links of some lots;
-- and resolved scans counted per UTC day, GTIN, lot and link type (no
-- address or device is kept). Keep in step with the other dialect's
-- 0033_gs1.sql.
CREATE TABLE gs1_products (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    gtin         TEXT NOT NULL,
    name         TEXT NOT NULL,
    links        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE UNIQUE INDEX gs1_products_gtin_key ON gs1_products (workspace_id, gtin);
CREATE INDEX gs1_products_gtin ON gs1_products (gtin);

CREATE TABLE gs1_lots (
    product_id INTEGER NOT NULL REFERENCES gs1_products (id) ON DELETE CASCADE,
    lot        TEXT NOT NULL,
    links      TEXT NOT NULL,
    PRIMARY KEY (product_id, lot)
);

CREATE TABLE gs1_scan_days (
    workspace_id INTEGER NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    gtin         TEXT NOT NULL,
    lot          TEXT NOT NULL,
    link_type    TEXT NOT NULL,
    scans        INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, day, gtin, lot, link_type)
);
