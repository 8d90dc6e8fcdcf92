-- Less of the database's CPU for each scan the recorder writes
-- (BENCHMARKS.md, "The scans' foreign key"). Nothing here changes what
-- is stored.
--
-- The COPY into scan_events checked each scan's code through the foreign
-- key: a trigger a row, which reads and locks the code's row, about a
-- third of the machine's CPU a scan in the recorder's benchmark. The app
-- never deletes a code (deleting one marks it) and records scans only for
-- codes its lookup found, so the check never found anything. A code
-- deleted outside the app still takes its scans with it, as ON DELETE
-- CASCADE did, through a trigger run once per DELETE statement, which
-- costs the inserts nothing.
ALTER TABLE scan_events DROP CONSTRAINT scan_events_dynamic_qr_code_id_fkey;

CREATE FUNCTION delete_scans_of_deleted_codes() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    DELETE FROM scan_events WHERE dynamic_qr_code_id IN (SELECT id FROM deleted_codes);
    RETURN NULL;
END
$$;

CREATE TRIGGER dynamic_qr_codes_delete_scans
    AFTER DELETE ON dynamic_qr_codes
    REFERENCING OLD TABLE AS deleted_codes
    FOR EACH STATEMENT EXECUTE FUNCTION delete_scans_of_deleted_codes();

-- Every batch updates the scan_counts row of each code it holds. With
-- room left on each page the new version of a row goes on the same page
-- (a heap-only update) and its primary key entry is not rewritten; the
-- table holds one small row a code, so the room costs little.
ALTER TABLE scan_counts SET (fillfactor = 50);
