package store

import (
	"context"
	"time"
)

// Scan retention (issue 25, SQUARELY_SCAN_RETENTION_DAYS). Raw scan events
// older than the retention are deleted; the daily rollups (rollups.go)
// stay, so totals, daily series, visitors and breakdowns of whole UTC days
// are unchanged. scan_retention.events_from is the UTC day before which
// events are gone: it is moved before any is deleted, so a view reads
// those days from the rollups alone. A range in another time zone starts
// and ends inside UTC days, which the views read from events (ScanReport):
// for a day before events_from they count its scans from the rollup's
// quarter hours instead, exact for scans and the time series; that part
// day's visitors and breakdowns are not known any more and are left out.
// Deletion never reaches the first open day, whose code rows are still to
// be counted from its events (opendays.go).

// EventsFrom is the time before which scan events have been deleted.
func (s *Store) EventsFrom(ctx context.Context) (time.Time, error) {
	var t time.Time
	if err := s.read.QueryRowContext(ctx, `SELECT events_from FROM scan_retention`).Scan(scanTime(&t)); err != nil {
		return time.Time{}, fail("read the scan retention", err)
	}
	return t.UTC(), nil
}

// DeleteScanEventsBefore deletes at most batch scan events scanned before
// the UTC day of before (or before the first open day, if that is
// earlier), the oldest first, and reports how many it deleted: call it
// again until it deletes fewer than batch. Each call is one short
// statement, so the recorder's writes go on between calls.
func (s *Store) DeleteScanEventsBefore(ctx context.Context, before time.Time, batch int) (int64, error) {
	cutoff := utcDay(before)
	open, err := s.openDay(ctx, sqlTx{s.read})
	if err != nil {
		return 0, fail("read the open day", err)
	}
	if open.Before(cutoff) {
		cutoff = open
	}
	if _, err := s.write.ExecContext(ctx, `UPDATE scan_retention SET events_from = $1 WHERE events_from < $1`, dbTime(cutoff)); err != nil {
		return 0, fail("move the scan retention", err)
	}
	// By id, which follows the scan time but for late scans: the primary
	// key finds the oldest events without an index on scanned_at, which
	// the recorder would have to keep up to date.
	res, err := s.write.ExecContext(ctx, `DELETE FROM scan_events WHERE id IN (
		SELECT id FROM scan_events WHERE scanned_at < $1 ORDER BY id LIMIT $2)`, dbTime(cutoff), batch)
	if err != nil {
		return 0, fail("delete old scan events", err)
	}
	return res.RowsAffected()
}

// addRolledUpSlots adds the scans of edge e, a part of days whose events
// are deleted, from the rollups' quarter hours: scans and slots only.
func (s *Store) addRolledUpSlots(ctx context.Context, e ScanQuery, sum *reportSum) error {
	days := e
	days.From, days.To = utcDay(e.From), utcDay(e.To.Add(-time.Nanosecond)).AddDate(0, 0, 1)
	t, where, args := days.rollupWhere()
	err := s.eachDay(ctx, sqlTx{s.read}, daySelect(t)+where, args, func(k rollupKey, d *dayTally) {
		part := &dayTally{}
		for q, n := range d.Slots {
			if at := k.day.Add(time.Duration(q) * 15 * time.Minute); !at.Before(e.From) && at.Before(e.To) {
				bump(&part.Slots, q, n)
				part.Scans += n
			}
		}
		sum.addDay(k, part, e.Bots)
	})
	if err != nil {
		return fail("read scan rollups", err)
	}
	return nil
}

// addEdges adds a range's edges to sum: from the workspace's quarter rows
// where they answer it, else from their events, or from the rollups where
// the events are deleted.
func (s *Store) addEdges(ctx context.Context, edges []ScanQuery, sum *reportSum) error {
	if len(edges) == 0 {
		return nil
	}
	kept, err := s.EventsFrom(ctx)
	if err != nil {
		return err
	}
	for _, e := range edges {
		switch {
		case !e.To.After(kept):
			err = s.addRolledUpSlots(ctx, e, sum)
		case !e.From.Before(kept):
			var done bool
			if done, err = s.addQuarterEdge(ctx, e, sum); err == nil && !done {
				err = s.addEvents(ctx, e, sum)
			}
		default:
			err = s.addEvents(ctx, e, sum)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
