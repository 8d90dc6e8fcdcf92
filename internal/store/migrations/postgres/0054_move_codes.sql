-- Moving codes to another workspace is a bulk edit job of the source
-- workspace whose items each move one code; move_to names the target
-- (NULL: an ordinary bulk edit). A move has no undo.
ALTER TABLE bulk_edit_jobs ADD COLUMN move_to bigint REFERENCES workspaces (id) ON DELETE CASCADE;
