-- Scoped API keys (issue 33 item 5): scopes is the space-separated list of
-- what a key may do (NULL: all its maker's role allows, as keys made
-- before), folder_id the one folder whose codes it sees and changes (NULL:
-- the whole workspace; deleting the folder revokes the key), expires_at
-- when it stops working (NULL: never). Keep in step with the other
-- dialect's 0036_key_scopes.sql.
ALTER TABLE api_keys ADD COLUMN scopes TEXT;
ALTER TABLE api_keys ADD COLUMN folder_id INTEGER REFERENCES folders (id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
CREATE INDEX api_keys_folder_id_idx ON api_keys (folder_id);
