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

// gs1CountChunk is how many counts one statement adds (6 parameters
// each): a flush of a thousand GTINs is a few statements, not a thousand.
const gs1CountChunk = 500

// AddGS1Scans adds counts to the daily totals, in one transaction. The
// counts name each (workspace, day, GTIN, lot, link type) once, as a
// Tally's flush does: one statement may not update a row twice.
func (s *Store) AddGS1Scans(ctx context.Context, counts []GS1ScanCount) error {
	if len(counts) == 0 {
		return nil
	}
	return s.inTx(ctx, "count GS1 scans", func(tx *sql.Tx) error {
		for start := 0; start < len(counts); start += gs1CountChunk {
			chunk := counts[start:min(start+gs1CountChunk, len(counts))]
			var q strings.Builder
			q.WriteString(`INSERT INTO gs1_scan_days (workspace_id, day, gtin, lot, link_type, scans) VALUES `)
			args := make([]any, 0, 6*len(chunk))
			for i, c := range chunk {
				if i > 0 {
					q.WriteByte(',')
				}
				n := 6 * i
				fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6)
				args = append(args, c.WorkspaceID, dbTime(c.Day), c.GTIN, c.Lot, c.LinkType, c.Scans)
			}
			q.WriteString(` ON CONFLICT (workspace_id, day, gtin, lot, link_type) DO UPDATE SET scans = gs1_scan_days.scans + excluded.scans`)
			if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
				return fail("count GS1 scans", err)
			}
		}
		return nil
	})
}

// GS1ScanCounts returns the workspace's counts of the days from from to
// to (UTC midnights, both included), totalled over the days, most scanned
// first, each with its product's name.
func (s *Store) GS1ScanCounts(ctx context.Context, workspaceID int64, from, to time.Time) ([]GS1ScanCount, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT d.gtin, d.lot, d.link_type, SUM(d.scans), COALESCE(MAX(p.name), '') FROM gs1_scan_days d
		LEFT JOIN gs1_products p ON p.workspace_id = d.workspace_id AND p.gtin = d.gtin
		WHERE d.workspace_id = $1 AND d.day >= $2 AND d.day <= $3
		GROUP BY d.gtin, d.lot, d.link_type ORDER BY SUM(d.scans) DESC, d.gtin, d.lot, d.link_type`,
		workspaceID, dbTime(from), dbTime(to))
	if err != nil {
		return nil, fail("read GS1 scans", err)
	}
	defer rows.Close()
	list := []GS1ScanCount{}
	for rows.Next() {
		c := GS1ScanCount{WorkspaceID: workspaceID}
		if err := rows.Scan(&c.GTIN, &c.Lot, &c.LinkType, &c.Scans, &c.Name); err != nil {
			return nil, fail("read GS1 scans", err)
		}
		list = append(list, c)
	}
	return list, failOrNil("read GS1 scans", rows.Err())
}
