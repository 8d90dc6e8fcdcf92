package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// GS1 Digital Link products (issue 38): a workspace's entries by GTIN,
// with their links and the more specific links of some lots, which the
// resolver answers scans of /01/{gtin}/… from. Links are kept as the JSON
// the gs1 package reads; the store does not look inside. Every committed
// change announces the GTIN (GS1Key) like a short code, so the resolver
// caches of every instance drop it.

// GS1Product is a product entry.
type GS1Product struct {
	ID          int64
	WorkspaceID int64
	GTIN        string // 14 digits
	Name        string
	Links       string // JSON array
	Lots        []GS1Lot
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// GS1Lot is one lot's own links.
type GS1Lot struct {
	Lot   string
	Links string // JSON array
}

// gs1Prefix marks an announced key as a GTIN rather than a short code,
// which never holds a ':'.
const gs1Prefix = "gs1:"

// GS1Key is the key a change to gtin's entries is announced with.
func GS1Key(gtin string) string { return gs1Prefix + gtin }

// AnnouncedGTIN returns the GTIN an announced key names, or false for a
// short code.
func AnnouncedGTIN(key string) (string, bool) { return strings.CutPrefix(key, gs1Prefix) }

// gs1Changed announces committed changes to the entries of gtins.
func (s *Store) gs1Changed(ctx context.Context, gtins ...string) {
	keys := make([]string, len(gtins))
	for i, g := range gtins {
		keys[i] = GS1Key(g)
	}
	s.redirectsChanged(ctx, keys...)
}

const gs1ProductColumns = `p.id, p.workspace_id, p.gtin, p.name, p.links, p.created_at, p.updated_at`

// GS1Products returns the workspace's products by GTIN, with their lots.
func (s *Store) GS1Products(ctx context.Context, workspaceID int64) ([]*GS1Product, error) {
	return s.gs1Products(ctx, s.read, `p.workspace_id = $1`, `p.gtin`, workspaceID)
}

// GS1Product returns the workspace's product of gtin, ErrNotFound if none.
func (s *Store) GS1Product(ctx context.Context, workspaceID int64, gtin string) (*GS1Product, error) {
	list, err := s.gs1Products(ctx, s.read, `p.workspace_id = $1 AND p.gtin = $2`, `p.id`, workspaceID, gtin)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fail("fetch GS1 product", ErrNotFound)
	}
	return list[0], nil
}

// GS1Entries returns the products of gtin in every live workspace, oldest
// first: what the resolver caches.
func (s *Store) GS1Entries(ctx context.Context, gtin string) ([]*GS1Product, error) {
	return s.gs1Products(ctx, s.read, `p.gtin = $1 AND p.workspace_id IN (SELECT id FROM workspaces WHERE NOT is_deleted)`, `p.id`, gtin)
}

// gs1Products reads the products matched by where (on "p"), in order,
// with their lots.
func (s *Store) gs1Products(ctx context.Context, q querier, where, order string, args ...any) ([]*GS1Product, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+gs1ProductColumns+` FROM gs1_products p WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, fail("list GS1 products", err)
	}
	list := []*GS1Product{}
	byID := map[int64]*GS1Product{}
	for rows.Next() {
		p := new(GS1Product)
		if err := rows.Scan(&p.ID, &p.WorkspaceID, &p.GTIN, &p.Name, &p.Links, scanTime(&p.CreatedAt), scanTime(&p.UpdatedAt)); err != nil {
			rows.Close()
			return nil, fail("list GS1 products", err)
		}
		p.Lots = []GS1Lot{}
		list = append(list, p)
		byID[p.ID] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fail("list GS1 products", err)
	}
	if len(list) == 0 {
		return list, nil
	}
	lots, err := q.QueryContext(ctx, `
		SELECT l.product_id, l.lot, l.links FROM gs1_lots l JOIN gs1_products p ON p.id = l.product_id
		WHERE `+where+` ORDER BY l.product_id, l.lot`, args...)
	if err != nil {
		return nil, fail("list GS1 lots", err)
	}
	defer lots.Close()
	for lots.Next() {
		var id int64
		var l GS1Lot
		if err := lots.Scan(&id, &l.Lot, &l.Links); err != nil {
			return nil, fail("list GS1 lots", err)
		}
		if p := byID[id]; p != nil {
			p.Lots = append(p.Lots, l)
		}
	}
	if err := lots.Err(); err != nil {
		return nil, fail("list GS1 lots", err)
	}
	return list, nil
}

// CreateGS1Product saves a new product of the workspace and fills in ID
// and the times: ErrConflict when the workspace has one of that GTIN,
// ErrLimit when it has limit products already.
func (s *Store) CreateGS1Product(ctx context.Context, workspaceID int64, p *GS1Product, limit int, now time.Time) error {
	p.WorkspaceID, p.CreatedAt, p.UpdatedAt = workspaceID, normTime(now), normTime(now)
	err := s.inTx(ctx, "create GS1 product", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM gs1_products WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
			return fail("count GS1 products", err)
		}
		if n >= limit {
			return ErrLimit
		}
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO gs1_products (workspace_id, gtin, name, links, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
			workspaceID, p.GTIN, p.Name, p.Links, dbTime(now)).Scan(&p.ID); err != nil {
			return fail("create GS1 product", err)
		}
		if err := insertGS1Lots(ctx, tx, p); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, "gs1_product.created", Target{"gs1_product", p.ID, p.GTIN}, map[string]any{"name": p.Name})
	})
	if err == nil {
		s.gs1Changed(ctx, p.GTIN)
	}
	return err
}

func insertGS1Lots(ctx context.Context, tx *sql.Tx, p *GS1Product) error {
	for _, l := range p.Lots {
		if _, err := tx.ExecContext(ctx, `INSERT INTO gs1_lots (product_id, lot, links) VALUES ($1, $2, $3)`, p.ID, l.Lot, l.Links); err != nil {
			return fail("save GS1 lot", err)
		}
	}
	return nil
}

// ChangeGS1Product reads the workspace's product of gtin, lets change
// edit its name, links and lots, and saves them, in one transaction with
// the product's row locked, recording action with the details change
// returns. An error from change is returned as it is, and saves nothing.
func (s *Store) ChangeGS1Product(ctx context.Context, workspaceID int64, gtin, action string, change func(p *GS1Product) (map[string]any, error), now time.Time) (*GS1Product, error) {
	var p *GS1Product
	err := s.inTx(ctx, "change GS1 product", func(tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM gs1_products WHERE workspace_id = $1 AND gtin = $2`+s.forUpdate(""),
			workspaceID, gtin).Scan(&id); err != nil {
			return fail("change GS1 product", err)
		}
		list, err := s.gs1Products(ctx, tx, `p.id = $1`, `p.id`, id)
		if err != nil {
			return err
		}
		p = list[0]
		details, err := change(p)
		if err != nil {
			return err
		}
		p.UpdatedAt = normTime(now)
		if _, err := tx.ExecContext(ctx, `UPDATE gs1_products SET name = $2, links = $3, updated_at = $4 WHERE id = $1`,
			id, p.Name, p.Links, dbTime(now)); err != nil {
			return fail("change GS1 product", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM gs1_lots WHERE product_id = $1`, id); err != nil {
			return fail("change GS1 product", err)
		}
		if err := insertGS1Lots(ctx, tx, p); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, action, Target{"gs1_product", p.ID, p.GTIN}, details)
	})
	if err != nil {
		return nil, err
	}
	s.gs1Changed(ctx, gtin)
	return p, nil
}

// DeleteGS1Product deletes the workspace's product of gtin and its lots.
func (s *Store) DeleteGS1Product(ctx context.Context, workspaceID int64, gtin string) error {
	err := s.inTx(ctx, "delete GS1 product", func(tx *sql.Tx) error {
		var id int64
		var name string
		if err := tx.QueryRowContext(ctx, `DELETE FROM gs1_products WHERE workspace_id = $1 AND gtin = $2 RETURNING id, name`,
			workspaceID, gtin).Scan(&id, &name); err != nil {
			return fail("delete GS1 product", err)
		}
		return s.audit(ctx, tx, workspaceID, "gs1_product.deleted", Target{"gs1_product", id, gtin}, map[string]any{"name": name})
	})
	if err == nil {
		s.gs1Changed(ctx, gtin)
	}
	return err
}

// deleteGS1Products deletes the products of the workspaces matched by
// where (on "d.workspace_id", as shortCodes' conditions) and returns
// their GTINs, for the caller to announce once committed.
func deleteGS1Products(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM gs1_products WHERE id IN (SELECT d.id FROM gs1_products d WHERE `+where+`) RETURNING gtin`, args...)
	if err != nil {
		return nil, fail("delete GS1 products", err)
	}
	defer rows.Close()
	var gtins []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			return nil, fail("delete GS1 products", err)
		}
		gtins = append(gtins, g)
	}
	return gtins, failOrNil("delete GS1 products", rows.Err())
}

// GS1ScanCount is the scans of one day, GTIN, lot and link type.
type GS1ScanCount struct {
	WorkspaceID int64
	Day         time.Time // UTC midnight
	GTIN        string
	Lot         string // "" for scans without a lot
	LinkType    string
	Scans       int64
	// Name is the workspace's product of the GTIN, "" when it has none
	// (any more): read by GS1ScanCounts, not written.
	Name string
}

// GS1UnlistedLots bounds the lots a product does not list that are
// counted under their own name, per workspace, UTC day and GTIN. Anyone
// may scan /01/{gtin}/10/{any lot} of a listed GTIN, and each made-up lot
// would otherwise add rows of its own every day, growing gs1_scan_days
// and the analytics without limit. Real lots need not be listed, so the
// first ones of a day keep their own rows: a lot is one production run,
// and even a product made daily with a three-month shelf life has about
// 90 lots in shops at a time, under 100. Past the bound a new unlisted
// lot's scans count under GS1OtherLots (still counted, by GTIN and link
// type); a lot that already has a row that day keeps counting in it, and
// the lots the product lists always have their own. So a GTIN has at most
// (the lots it listed when scanned + GS1UnlistedLots + 2, the other lots
// and no lot) lot values a day, each with at most one row per link type
// (an unlisted lot follows the product's links, of at most the 22 types).
const GS1UnlistedLots = 100

// GS1OtherLots is the lot the scans of unlisted lots past GS1UnlistedLots
// are counted under. Its space is outside GS1's character set 82, which a
// lot (AI 10) is checked against, so no scanned or listed lot is this.
const GS1OtherLots = "(other lots)"

// gs1CountKinds are the columns of the counts AddGS1Scans passes
// (rowsSQL): workspace, day, GTIN, lot, link type, scans.
var gs1CountKinds = []string{"bigint", "timestamptz", "text", "text", "text", "bigint"}

// gs1Listed is the SQL condition that the product of workspace ws and
// GTIN gtin lists lot (columns or expressions).
func gs1Listed(ws, gtin, lot string) string {
	return `EXISTS (SELECT 1 FROM gs1_lots l JOIN gs1_products p ON p.id = l.product_id
		WHERE p.workspace_id = ` + ws + ` AND p.gtin = ` + gtin + ` AND l.lot = ` + lot + `)`
}

// addGS1ScansSQL adds the counts passed as rows (gs1CountKinds) in one
// statement that bounds the lots itself: each (workspace, day, GTIN)'s
// lots that are neither listed nor already stored that day ("fresh"),
// most scanned first, keep their name while the day's unlisted lots
// stored ("used") and the fresh ones before them stay within
// GS1UnlistedLots; the rest are counted under GS1OtherLots. The decision
// reads the table as the statement starts (SQLite reads an INSERT's
// source before writing when the source reads the target), and the
// ranking covers the statement's own new lots, so one batch cannot pass
// the bound either. Counts may name a key more than once: they are
// summed first (one upsert may not touch a row twice).
func (s *Store) addGS1ScansSQL() string {
	named := func(lot string) string { return lot + ` <> '' AND ` + lot + ` <> '` + GS1OtherLots + `'` }
	return `WITH r AS (SELECT c0 AS ws, c1 AS day, c2 AS gtin, c3 AS lot, c4 AS link_type, c5 AS scans FROM ` + s.rowsSQL(1, gs1CountKinds) + ` x),
	fresh AS (
		SELECT ws, day, gtin, lot, ROW_NUMBER() OVER (PARTITION BY ws, day, gtin ORDER BY SUM(scans) DESC, lot) AS n
		FROM r
		WHERE ` + named("lot") + `
			AND NOT EXISTS (SELECT 1 FROM gs1_scan_days d WHERE d.workspace_id = r.ws AND d.day = r.day AND d.gtin = r.gtin AND d.lot = r.lot)
			AND NOT ` + gs1Listed("r.ws", "r.gtin", "r.lot") + `
		GROUP BY ws, day, gtin, lot),
	used AS (
		SELECT g.ws, g.day, g.gtin, COUNT(DISTINCT d.lot) AS n
		FROM (SELECT DISTINCT ws, day, gtin FROM fresh) g
		JOIN gs1_scan_days d ON d.workspace_id = g.ws AND d.day = g.day AND d.gtin = g.gtin
		WHERE ` + named("d.lot") + ` AND NOT ` + gs1Listed("d.workspace_id", "d.gtin", "d.lot") + `
		GROUP BY g.ws, g.day, g.gtin)
	INSERT INTO gs1_scan_days (workspace_id, day, gtin, lot, link_type, scans)
	SELECT r.ws, r.day, r.gtin,
		CASE WHEN f.n + COALESCE(u.n, 0) > ` + fmt.Sprint(GS1UnlistedLots) + ` THEN '` + GS1OtherLots + `' ELSE r.lot END,
		r.link_type, SUM(r.scans)
	FROM r
	LEFT JOIN fresh f ON f.ws = r.ws AND f.day = r.day AND f.gtin = r.gtin AND f.lot = r.lot
	LEFT JOIN used u ON u.ws = r.ws AND u.day = r.day AND u.gtin = r.gtin
	WHERE true
	GROUP BY 1, 2, 3, 4, 5
	ON CONFLICT (workspace_id, day, gtin, lot, link_type) DO UPDATE SET scans = gs1_scan_days.scans + excluded.scans`
}

// AddGS1Scans adds counts to the daily totals, in one transaction, with
// the lots the products do not list bounded per workspace, day and GTIN
// (GS1UnlistedLots). On SQLite write transactions already run one at a
// time. On PostgreSQL the transaction first takes one advisory lock that
// every GS1 count writer takes, so that writers side by side (several
// instances flushing at once) cannot both see room for the last lots and
// pass the bound together, nor deadlock on each other's rows. One lock,
// not one per (workspace, day, GTIN): a flush may name thousands of
// GTINs, and so many locks in a transaction could fill PostgreSQL's
// shared lock table (max_locks_per_transaction, 64 by default, times
// the connections); the writers are a flush every 2 seconds per
// instance (gs1.FlushEvery), one statement each, so taking turns costs
// little.
func (s *Store) AddGS1Scans(ctx context.Context, counts []GS1ScanCount) error {
	if len(counts) == 0 {
		return nil
	}
	rows := make([][]any, len(counts))
	for i, c := range counts {
		rows[i] = []any{c.WorkspaceID, dbTime(c.Day), c.GTIN, c.Lot, c.LinkType, c.Scans}
	}
	return s.inTx(ctx, "count GS1 scans", func(tx *sql.Tx) error {
		if err := s.xactLock(ctx, tx, `hashtext('squarely.gs1_scan_days')`); err != nil {
			return fail("count GS1 scans", err)
		}
		if _, err := tx.ExecContext(ctx, s.addGS1ScansSQL(), s.rowsArgs(gs1CountKinds, rows)...); err != nil {
			return fail("count GS1 scans", err)
		}
		return nil
	})
}

// GS1ScanTotals is a range's counts, totalled over its days: the most
// scanned (GTIN, lot, link type) rows, and how many there are in all and
// their scans, so that a reader can say what the rows left off add up to.
type GS1ScanTotals struct {
	Top   []GS1ScanCount // most scanned first
	Rows  int64          // every (GTIN, lot, link type) of the range
	Scans int64          // the scans of them all
}

// GS1ScanCounts returns the workspace's counts of the days from from to
// to (UTC midnights, both included), totalled over the days: the limit
// (at least 1) most scanned first, each with its product's name, and the
// totals of them all, read in one statement so that they agree.
func (s *Store) GS1ScanCounts(ctx context.Context, workspaceID int64, from, to time.Time, limit int) (*GS1ScanTotals, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT g.gtin, g.lot, g.link_type, g.scans, COALESCE(p.name, ''), g.all_rows, g.all_scans FROM (
			SELECT gtin, lot, link_type, CAST(SUM(scans) AS bigint) AS scans,
				COUNT(*) OVER () AS all_rows, CAST(SUM(SUM(scans)) OVER () AS bigint) AS all_scans
			FROM gs1_scan_days
			WHERE workspace_id = $1 AND day >= $2 AND day <= $3
			GROUP BY gtin, lot, link_type
			ORDER BY SUM(scans) DESC, gtin, lot, link_type
			LIMIT $4) g
		LEFT JOIN gs1_products p ON p.workspace_id = $1 AND p.gtin = g.gtin
		ORDER BY g.scans DESC, g.gtin, g.lot, g.link_type`,
		workspaceID, dbTime(from), dbTime(to), limit)
	if err != nil {
		return nil, fail("read GS1 scans", err)
	}
	defer rows.Close()
	out := &GS1ScanTotals{Top: []GS1ScanCount{}}
	for rows.Next() {
		c := GS1ScanCount{WorkspaceID: workspaceID}
		if err := rows.Scan(&c.GTIN, &c.Lot, &c.LinkType, &c.Scans, &c.Name, &out.Rows, &out.Scans); err != nil {
			return nil, fail("read GS1 scans", err)
		}
		out.Top = append(out.Top, c)
	}
	return out, failOrNil("read GS1 scans", rows.Err())
}
