package store

import "database/sql"

// ReadDB and WriteDB expose the pools to the external tests, for checks
// on the schema itself.
func ReadDB(s *Store) *sql.DB  { return s.read }
func WriteDB(s *Store) *sql.DB { return s.write }
