package store

import (
	"context"
	"database/sql"
	"sync"
)

// writerCache keeps, on SQLite, what the recorder's batches would
// otherwise read back from the rollups every time: each live code's owner,
// the day rows the batches wrote and the visits scan_visitors holds. SQLite
// has a single writer, so the rows are exactly what the file holds as long
// as nothing else writes them: the cache is emptied when a code is deleted
// (the only other change to the rollups in this process), when another
// connection has committed (PRAGMA data_version) and when a batch fails.
// In the redirect benchmark's pattern it takes reading and decoding a row
// per code out of every batch (BENCHMARKS.md, "Scan counts in a narrow
// table"). PostgreSQL, where several instances write, has none.
type writerCache struct {
	// mu is held from the start of a batch's transaction until its writes
	// are in the cache, after the commit: the next batch, which can begin
	// once the commit frees the writer, must not read the cache before.
	mu      sync.Mutex
	version int64 // data_version when the cache was last known to be in step
	owners  map[int64]int64
	days    map[rollupTable]map[rollupKey]*dayTally
	visits  map[visit]bool
	// What the batch in progress writes, moved into the cache on commit.
	newOwners map[int64]int64
	newDays   map[rollupTable]map[rollupKey]*dayTally
	newVisits []visit
}

// Bounds on the cache: beyond them it is emptied and fills again from the
// rows the next batches meet (a code's day takes about a kilobyte).
const (
	maxCachedDays   = 20000
	maxCachedVisits = 200000
)

func newWriterCache() *writerCache {
	c := &writerCache{}
	c.clear()
	return c
}

func (c *writerCache) clear() {
	c.owners = map[int64]int64{}
	c.days = map[rollupTable]map[rollupKey]*dayTally{codeDays: {}, userDays: {}}
	c.visits = map[visit]bool{}
	c.startBatch()
}

func (c *writerCache) startBatch() {
	c.newOwners = map[int64]int64{}
	c.newDays = map[rollupTable]map[rollupKey]*dayTally{codeDays: {}, userDays: {}}
	c.newVisits = nil
}

// begin starts a batch in tx, which holds the writer; unless it fails,
// end must follow once tx is over.
func (c *writerCache) begin(ctx context.Context, tx *sql.Tx) error {
	c.mu.Lock()
	var version int64
	if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		c.clear()
		c.mu.Unlock()
		return err
	}
	if version != c.version {
		c.clear()
		c.version = version
	}
	c.startBatch()
	return nil
}

// end moves a committed batch's writes into the cache, or empties it when
// the batch failed.
func (c *writerCache) end(committed bool) {
	defer c.mu.Unlock()
	if !committed {
		c.clear()
		return
	}
	for code, owner := range c.newOwners {
		c.owners[code] = owner
	}
	for t, rows := range c.newDays {
		for k, d := range rows {
			if d == nil {
				delete(c.days[t], k)
			} else {
				c.days[t][k] = d
			}
		}
	}
	for _, v := range c.newVisits {
		c.visits[v] = true
	}
	if len(c.days[codeDays])+len(c.days[userDays]) > maxCachedDays || len(c.visits) > maxCachedVisits {
		c.clear()
	}
	c.startBatch()
}

// reset empties the cache: the rollups changed outside a batch.
func (c *writerCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
}
