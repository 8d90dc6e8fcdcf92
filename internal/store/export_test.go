package store

import "database/sql"

// ReadDB exposes the read pool to the external tests, for checks on the
// schema itself.
func ReadDB(s *Store) *sql.DB { return s.read }
