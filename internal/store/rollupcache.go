package store

import (
	"context"
	"sync"
)

// writerCache keeps what the recorder's batches would otherwise read back
// from the database every time: each code's owner, which codes are live,
// the day rows the batches wrote and the visits scan_visitors holds. In
// the redirect benchmark's pattern that is a row read and decoded per code
// in every batch (BENCHMARKS.md, "Scan counts in a narrow table").
//
// Other instances, other processes on a SQLite file, and deletions change
// the rollups too, so every batch bumps its users' rows in
// workspace_rollup_versions, as does every deletion of a code, while holding the
// user's rollup lock on PostgreSQL (SQLite has a single writer). A batch
// that finds a version other than the one its cache last wrote empties
// the cache first. A failed batch empties it too. Owners are kept across,
// except when another writer changed the rollups: a move of a code
// (move.go) changes its owner, and bumps both workspaces' versions.
type writerCache struct {
	// mu is held for a whole batch, from before its transaction until its
	// writes are in the cache, after the commit: the next batch of this
	// store must not read the cache before.
	mu       sync.Mutex
	owner    map[int64]int64 // code → user, deleted codes included
	live     map[int64]bool
	versions map[int64]int64 // user → workspace_rollup_versions.version; no entry: nothing cached of the user
	days     map[rollupTable]map[rollupKey]*dayTally
	visits   map[visit]bool
	// What the batch in progress writes, moved into the cache on commit.
	newLive     []int64
	newVersions map[int64]int64
	newDays     map[rollupTable]map[rollupKey]*dayTally // nil: deleted
	newVisits   []visit
}

// Bounds on the cache: beyond them it is emptied and fills again from the
// rows the next batches meet (a code's day takes about a kilobyte).
const (
	maxCachedDays   = 20000
	maxCachedVisits = 200000
	maxCachedCodes  = 200000
)

func newWriterCache() *writerCache {
	c := &writerCache{owner: map[int64]int64{}}
	c.clear()
	return c
}

// clear forgets all but the owners.
func (c *writerCache) clear() {
	c.live = map[int64]bool{}
	c.versions = map[int64]int64{}
	c.days = map[rollupTable]map[rollupKey]*dayTally{codeDays: {}, userDays: {}, userQuarters: {}}
	c.visits = map[visit]bool{}
	c.startBatch()
}

func (c *writerCache) startBatch() {
	c.newLive = nil
	c.newVersions = map[int64]int64{}
	c.newDays = map[rollupTable]map[rollupKey]*dayTally{codeDays: {}, userDays: {}, userQuarters: {}}
	c.newVisits = nil
}

// begin starts a batch; end must follow once its transaction is over.
func (c *writerCache) begin() {
	c.mu.Lock()
	c.startBatch()
}

// end moves a committed batch's writes into the cache, or empties it when
// the batch failed.
func (c *writerCache) end(committed bool) {
	defer c.mu.Unlock()
	if !committed {
		c.clear()
		return
	}
	for _, code := range c.newLive {
		c.live[code] = true
	}
	for user, v := range c.newVersions {
		c.versions[user] = v
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
	if len(c.days[codeDays])+len(c.days[userDays])+len(c.days[userQuarters]) > maxCachedDays || len(c.visits) > maxCachedVisits {
		c.clear()
	}
	if len(c.owner) > maxCachedCodes {
		clear(c.owner)
	}
	c.startBatch()
}

// bumpVersions counts the batch as a change to the users' rollups, and
// empties the cache when another writer has changed any of them since
// this cache last did (stale reports that, owners included). On
// PostgreSQL the users' rollup locks are held.
// The new versions go into versions (not c.newVersions, which emptying
// the cache resets), for the caller to keep once all are had.
func (s *Store) bumpVersions(ctx context.Context, tx rollupTx, c *writerCache, users []int64, versions map[int64]int64) (stale bool, err error) {
	err = tx.each(ctx, s.rollup.bumpVersions, s.idArgs(users), func(scan func(...any) error) error {
		var user, version int64
		if err := scan(&user, &version); err != nil {
			return err
		}
		if had, ok := c.versions[user]; ok && had != version-1 {
			c.clear()
			clear(c.owner)
			stale = true
		}
		versions[user] = version
		return nil
	})
	return stale, err
}

// outdateWriterCaches tells the writers' caches of the workspaces' rollups
// that a change outside the recorder made them out of date: their next
// batch sees a version it did not write (bumpVersions) and reads again.
func outdateWriterCaches(ctx context.Context, tx rollupTx, workspaces ...int64) error {
	for _, ws := range workspaces {
		err := tx.exec(ctx, `INSERT INTO workspace_rollup_versions (workspace_id, version) VALUES ($1, 1)
			ON CONFLICT (workspace_id) DO UPDATE SET version = workspace_rollup_versions.version + 1`, ws)
		if err != nil {
			return err
		}
	}
	return nil
}
