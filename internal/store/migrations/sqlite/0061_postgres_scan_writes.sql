-- Nothing on SQLite: PostgreSQL's 0061_postgres_scan_writes.sql drops
-- scan_events' foreign key to dynamic_qr_codes, whose check a row took a
-- third of the machine's CPU a scan there, and leaves room on
-- scan_counts' pages for its updates. Here the key's check is one lookup
-- by rowid, dropping the key would copy the whole table, and its ON
-- DELETE CASCADE does what PostgreSQL's trigger does; SQLite has no
-- fill factor.
SELECT 1;
