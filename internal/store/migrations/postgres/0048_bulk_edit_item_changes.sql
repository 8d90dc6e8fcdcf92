-- A spreadsheet update is a bulk edit whose items each carry their own
-- changes (internal/bulkedit's JSON); NULL: the job's changes.
ALTER TABLE bulk_edit_items ADD COLUMN changes text;
