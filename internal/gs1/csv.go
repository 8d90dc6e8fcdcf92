package gs1

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxImportRows bounds a CSV import.
const MaxImportRows = 10000

// ImportColumns are the columns of a products CSV, one link a row: the
// product's GTIN and name (the first non-blank name of its rows), the
// lot the link belongs to (blank: the product's own), and the link.
var ImportColumns = []string{"gtin", "name", "lot", "linkType", "href", "title", "language", "context"}

// ImportResult is what an import did.
type ImportResult struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// Import reads a products CSV (a header row naming ImportColumns in any
// order; gtin, linkType and href required) and saves each product it
// lists: a new one is created, an existing one has its name, links and
// lots replaced by the file's. Every product is checked before any is
// saved; problems are reported by row ("row 3: …").
func (ps *Products) Import(ctx context.Context, workspaceID int64, r io.Reader) (ImportResult, error) {
	products, err := readCSV(r)
	if err != nil {
		return ImportResult{}, err
	}
	for _, ip := range products {
		if e := ip.p.Check(ps.CheckHref); len(e) > 0 {
			return ImportResult{}, ip.refusal(e)
		}
	}
	// So is the workspace's limit: a file that would pass it saves nothing.
	have, err := ps.Store.GS1Products(ctx, workspaceID)
	if err != nil {
		return ImportResult{}, err
	}
	known := make(map[string]bool, len(have))
	for _, p := range have {
		known[p.GTIN] = true
	}
	total := len(have)
	for _, ip := range products {
		if !known[ip.p.GTIN] {
			total++
		}
	}
	if total > ps.Limit {
		return ImportResult{}, ErrLimit
	}
	var res ImportResult
	for _, ip := range products {
		_, err := ps.Update(ctx, workspaceID, ip.p.GTIN, ip.p)
		if errors.Is(err, ErrMissing) {
			_, err = ps.Create(ctx, workspaceID, ip.p)
			if err == nil {
				res.Created++
			}
		} else if err == nil {
			res.Updated++
		}
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// imported is a product read from a CSV, with the row of each link.
type imported struct {
	p    *Product
	rows map[string]int // "links[0]", "lots[1].links[0]" → row; "" → its first row
}

// refusal turns the product's problems into one row's.
func (ip *imported) refusal(e FieldErrors) *Invalid {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	k := keys[0]
	row, best := ip.rows[""], 0
	for prefix, r := range ip.rows {
		if len(prefix) > best && strings.HasPrefix(k, prefix+".") {
			row, best = r, len(prefix)
		}
	}
	return &Invalid{FieldErrors{"file": fmt.Sprintf("Row %d: %s", row, e[k])}}
}

func readCSV(r io.Reader) ([]*imported, error) {
	refuse := func(msg string) error { return &Invalid{FieldErrors{"file": msg}} }
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, refuse("The file is empty or not CSV: its first row must name the columns " + strings.Join(ImportColumns, ", "))
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !slices.Contains(ImportColumns, h) {
			return nil, refuse(fmt.Sprintf("Unknown column %q: the columns are %s", h, strings.Join(ImportColumns, ", ")))
		}
		col[h] = i
	}
	for _, need := range []string{"gtin", "linkType", "href"} {
		if _, ok := col[need]; !ok {
			return nil, refuse("The file needs a " + need + " column")
		}
	}
	var list []*imported
	byGTIN := map[string]*imported{}
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, refuse(fmt.Sprintf("Row %d: not valid CSV", row))
		}
		if row-1 > MaxImportRows {
			return nil, refuse(fmt.Sprintf("A file may have at most %d rows", MaxImportRows))
		}
		// Text that is not UTF-8, or holds a NUL, cannot be stored
		// (PostgreSQL refuses it; SQLite would keep it damaged).
		for i, cell := range rec {
			if !utf8.ValidString(cell) || strings.IndexByte(cell, 0) >= 0 {
				return nil, refuse(fmt.Sprintf("Row %d, column %d is not UTF-8 text, or holds a NUL character: save the file as UTF-8 CSV", row, i+1))
			}
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		gtin := get("gtin")
		if msg := GTINProblem(gtin); msg != "" {
			return nil, refuse(fmt.Sprintf("Row %d: %s", row, msg))
		}
		gtin = GTIN14(gtin)
		ip := byGTIN[gtin]
		if ip == nil {
			ip = &imported{p: &Product{GTIN: gtin, Links: []Target{}, Lots: []LotLinks{}}, rows: map[string]int{"": row}}
			byGTIN[gtin] = ip
			list = append(list, ip)
		}
		if ip.p.Name == "" {
			ip.p.Name = get("name")
		}
		t := Target{LinkType: get("linkType"), Href: get("href"), Title: get("title"), Language: get("language"), Context: get("context")}
		lot := get("lot")
		if lot == "" {
			ip.rows[fmt.Sprintf("links[%d]", len(ip.p.Links))] = row
			ip.p.Links = append(ip.p.Links, t)
			continue
		}
		i := slices.IndexFunc(ip.p.Lots, func(l LotLinks) bool { return l.Lot == lot })
		if i < 0 {
			i = len(ip.p.Lots)
			ip.p.Lots = append(ip.p.Lots, LotLinks{Lot: lot})
			ip.rows[fmt.Sprintf("lots[%d]", i)] = row
		}
		ip.rows[fmt.Sprintf("lots[%d].links[%d]", i, len(ip.p.Lots[i].Links))] = row
		ip.p.Lots[i].Links = append(ip.p.Lots[i].Links, t)
	}
	if len(list) == 0 {
		return nil, refuse("The file lists no products")
	}
	return list, nil
}
