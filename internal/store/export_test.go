package store

import (
	"context"
	"database/sql"
)

// ReadDB and WriteDB expose the pools to the external tests, for checks
// on the schema itself.
func ReadDB(s *Store) *sql.DB  { return s.read }
func WriteDB(s *Store) *sql.DB { return s.write }

// RecountReport is the report of q counted from the scan events alone,
// what the rollups must always equal.
func RecountReport(ctx context.Context, s *Store, q ScanQuery) (*ScanReport, error) {
	sum := newReportSum()
	if err := s.rawReport(ctx, q, sum); err != nil {
		return nil, err
	}
	return sum.report(), nil
}

// RebuildRollups empties the rollups and rolls the scan events up again,
// as migration 0014 does for scans saved before it.
func RebuildRollups(ctx context.Context, s *Store) error {
	return s.inTx(ctx, "rebuild rollups", func(tx *sql.Tx) error {
		for _, table := range []string{"scan_code_days", "scan_user_days", "scan_visitors"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
				return err
			}
		}
		return s.backfillRollups(ctx, tx)
	})
}
