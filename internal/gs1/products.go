package gs1

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// Products keeps workspaces' product entries in the store: checked by
// GS1's rules, links kept as JSON, every change audited and announced by
// the store (so every instance's Cache drops the GTIN).
type Products struct {
	Store *store.Store
	Now   func() time.Time
	// CheckHref returns the problem of a link's target, or "".
	CheckHref func(string) string
	// Limit is the products a workspace may keep.
	Limit int
}

// Refusals of product requests, besides Invalid.
var (
	ErrExists  = errors.New("This workspace already has a product with this GTIN")
	ErrLimit   = errors.New("This workspace has reached its limit of products")
	ErrMissing = errors.New("Product not found")
)

// Invalid is a product that breaks GS1's rules: its problems by JSON path.
type Invalid struct{ Fields FieldErrors }

func (e *Invalid) Error() string {
	for _, k := range []string{"gtin", "name", "links", "lots", "href"} {
		if m, ok := e.Fields[k]; ok {
			return m
		}
	}
	for _, m := range e.Fields {
		return m
	}
	return "Invalid product"
}

// decode reads a stored product.
func decode(sp *store.GS1Product) (*Product, error) {
	p := &Product{GTIN: sp.GTIN, Name: sp.Name, Lots: []LotLinks{}, CreatedAt: sp.CreatedAt, UpdatedAt: sp.UpdatedAt}
	if err := json.Unmarshal([]byte(sp.Links), &p.Links); err != nil {
		return nil, fmt.Errorf("gs1: product %d's links: %w", sp.ID, err)
	}
	for _, l := range sp.Lots {
		ll := LotLinks{Lot: l.Lot}
		if err := json.Unmarshal([]byte(l.Links), &ll.Links); err != nil {
			return nil, fmt.Errorf("gs1: product %d's lot links: %w", sp.ID, err)
		}
		p.Lots = append(p.Lots, ll)
	}
	return p, nil
}

// encode writes p's name, links and lots into sp.
func encode(p *Product, sp *store.GS1Product) error {
	links, err := json.Marshal(p.Links)
	if err != nil {
		return err
	}
	sp.GTIN, sp.Name, sp.Links, sp.Lots = p.GTIN, p.Name, string(links), []store.GS1Lot{}
	for _, l := range p.Lots {
		b, err := json.Marshal(l.Links)
		if err != nil {
			return err
		}
		sp.Lots = append(sp.Lots, store.GS1Lot{Lot: l.Lot, Links: string(b)})
	}
	return nil
}

// GS1Entries reads a GTIN's entries for the Cache.
func (ps *Products) GS1Entries(ctx context.Context, gtin string) ([]*Entry, error) {
	list, err := ps.Store.GS1Entries(ctx, gtin)
	if err != nil {
		return nil, err
	}
	out := make([]*Entry, 0, len(list))
	for _, sp := range list {
		p, err := decode(sp)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Entry(sp.WorkspaceID))
	}
	return out, nil
}

// List returns the workspace's products by GTIN.
func (ps *Products) List(ctx context.Context, workspaceID int64) ([]*Product, error) {
	list, err := ps.Store.GS1Products(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	out := make([]*Product, 0, len(list))
	for _, sp := range list {
		p, err := decode(sp)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// PathGTIN reads a GTIN named in a URL path: 8 to 14 digits with a
// right check digit, padded to 14; ErrMissing otherwise (no product can
// have it).
func PathGTIN(s string) (string, error) {
	if GTINProblem(s) != "" {
		return "", ErrMissing
	}
	return GTIN14(s), nil
}

// Get returns the workspace's product of gtin, ErrMissing if none.
func (ps *Products) Get(ctx context.Context, workspaceID int64, gtin string) (*Product, error) {
	sp, err := ps.Store.GS1Product(ctx, workspaceID, gtin)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrMissing
	}
	if err != nil {
		return nil, err
	}
	return decode(sp)
}

// Create checks and saves a new product.
func (ps *Products) Create(ctx context.Context, workspaceID int64, p *Product) (*Product, error) {
	if e := p.Check(ps.CheckHref); len(e) > 0 {
		return nil, &Invalid{e}
	}
	sp := &store.GS1Product{}
	if err := encode(p, sp); err != nil {
		return nil, err
	}
	switch err := ps.Store.CreateGS1Product(ctx, workspaceID, sp, ps.Limit, ps.Now()); {
	case errors.Is(err, store.ErrConflict):
		return nil, ErrExists
	case errors.Is(err, store.ErrLimit):
		return nil, ErrLimit
	case err != nil:
		return nil, err
	}
	p.CreatedAt, p.UpdatedAt = sp.CreatedAt, sp.UpdatedAt
	return p, nil
}

// Update replaces the name, links and lots of the workspace's product of
// gtin with p's (whose GTIN, if given, must be the same). A product not
// found is ErrMissing before p is checked.
func (ps *Products) Update(ctx context.Context, workspaceID int64, gtin string, p *Product) (*Product, error) {
	if p.GTIN == "" {
		p.GTIN = gtin
	}
	return ps.change(ctx, workspaceID, gtin, "gs1_product.updated", func(cur *Product) (map[string]any, error) {
		e := p.Check(ps.CheckHref)
		if _, bad := e["gtin"]; !bad && p.GTIN != gtin {
			e["gtin"] = "The GTIN of a product cannot change: create a new product"
		}
		if len(e) > 0 {
			return nil, &Invalid{e}
		}
		*cur = Product{GTIN: gtin, Name: p.Name, Links: p.Links, Lots: p.Lots, CreatedAt: cur.CreatedAt}
		return map[string]any{"name": p.Name, "links": len(p.Links), "lots": len(p.Lots)}, nil
	})
}

// Recall makes href the recall notice and default link of one lot of the
// workspace's product of gtin (Product.Recall), audited as
// gs1_lot.recalled. A product not found is ErrMissing before the lot and
// href are checked.
func (ps *Products) Recall(ctx context.Context, workspaceID int64, gtin, lot, href string) (*Product, error) {
	return ps.change(ctx, workspaceID, gtin, "gs1_lot.recalled", func(cur *Product) (map[string]any, error) {
		e := FieldErrors{}
		if a, _ := ByCode("10"); a.Problem(lot) != "" {
			e["lot"] = a.Problem(lot)
		}
		if msg := ps.CheckHref(href); msg != "" {
			e["href"] = msg
		}
		if len(e) > 0 {
			return nil, &Invalid{e}
		}
		if len(cur.Lots) >= MaxLots && !cur.hasLot(lot) {
			return nil, &Invalid{FieldErrors{"lot": fmt.Sprintf("A product may have at most %d lots", MaxLots)}}
		}
		cur.Recall(lot, href)
		return map[string]any{"lot": lot, "href": href}, nil
	})
}

func (p *Product) hasLot(lot string) bool {
	for _, l := range p.Lots {
		if l.Lot == lot {
			return true
		}
	}
	return false
}

// change edits the stored product of gtin with edit, in one transaction.
func (ps *Products) change(ctx context.Context, workspaceID int64, gtin, action string, edit func(*Product) (map[string]any, error)) (*Product, error) {
	var out *Product
	sp, err := ps.Store.ChangeGS1Product(ctx, workspaceID, gtin, action, func(sp *store.GS1Product) (map[string]any, error) {
		cur, err := decode(sp)
		if err != nil {
			return nil, err
		}
		details, err := edit(cur)
		if err != nil {
			return nil, err
		}
		out = cur
		return details, encode(cur, sp)
	}, ps.Now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrMissing
	}
	if err != nil {
		return nil, err
	}
	out.UpdatedAt = sp.UpdatedAt
	return out, nil
}

// Delete deletes the workspace's product of gtin.
func (ps *Products) Delete(ctx context.Context, workspaceID int64, gtin string) error {
	err := ps.Store.DeleteGS1Product(ctx, workspaceID, gtin)
	if errors.Is(err, store.ErrNotFound) {
		return ErrMissing
	}
	return err
}
