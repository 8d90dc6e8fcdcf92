package bulk

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/store"
)

// unsupported types need an upload or a product per code, which a
// spreadsheet row cannot carry.
var unsupported = []string{"pdf", "images", "payment"}

// Checker checks a spreadsheet's rows as codes a job will save.
type Checker struct {
	Creator *codes.Creator
	User    *store.User // who uploads the file
	// Kits are the brand kits the brandKit cells name, by the cell's text
	// (names matched as the database compares them: store.NameKeys);
	// Domain the job's (nil = the base URL).
	Kits   map[string]codes.Style
	Domain *store.Domain
	// EntryName makes a row's fileName safe for a ZIP entry, "" when
	// nothing is left of it.
	EntryName func(raw string) string
}

// Rows checks every row on every core and returns one item per row:
// pending with the code to save, or failed with its first error. cols are
// the header's Columns.
func (c *Checker) Rows(ctx context.Context, t *Table, cols []string) []store.BulkItem {
	items := make([]store.BulkItem, len(t.Rows))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			for i := wk; i < len(t.Rows); i += workers {
				items[i] = c.row(ctx, t.Rows[i], i+1, cols)
			}
		})
	}
	wg.Wait()
	return items
}

// row checks one row, the ordinal-th of the file.
func (c *Checker) row(ctx context.Context, row Row, ordinal int, cols []string) store.BulkItem {
	values := values(row, cols)
	refuse := func(column, message string) store.BulkItem {
		return store.BulkItem{Row: row.Line, Status: store.ItemFailed, Column: column, Error: message}
	}
	for _, v := range values {
		if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
			return refuse("", "The row must be UTF-8 text without NUL characters")
		}
	}

	t := values["type"]
	if t == "" {
		switch {
		case values["url"] != "":
			t = "url"
		case values["text"] != "":
			t = "text"
		default:
			return refuse("type", "QR code type is required (or a url or text)")
		}
	}
	if err := codes.CheckType(t); err != nil {
		return refuse("type", err.Error())
	}
	if slices.Contains(unsupported, t) {
		return refuse("type", "This QR code type needs an upload and cannot be made in bulk")
	}
	if problem := codes.NameProblem(values["name"]); problem != "" {
		return refuse("name", problem)
	}
	req := codes.Request{Kind: codes.Static, QRType: t, Fields: payload.Fields{}, Name: values["name"], Row: true}
	for _, f := range payload.FieldNames(t) {
		if v, ok := values[codes.FormKey(t, f)]; ok {
			req.Fields[f] = v
		}
	}
	// A brand kit styles the row; the row's own style cells win. Its logo
	// is not applied: bulk codes have none.
	if kit := values["brandKit"]; kit != "" {
		st, ok := c.Kits[kit]
		if !ok {
			return refuse("brandKit", fmt.Sprintf("No brand kit of this workspace is named %q", truncate(kit, 60)))
		}
		codes.UnderKit(values, st)
	}
	if t == "gs1" {
		req.Domain = c.Domain // a GS1 Digital Link is on the job's domain, like its dynamic codes
	}
	dynamic, err := codes.FormBool(values["dynamic"])
	if err != nil {
		return refuse("dynamic", "dynamic must be true or false")
	}
	if dynamic {
		if !slices.Contains(payload.FieldNames(t), "url") {
			return refuse("dynamic", "Only QR codes with a url can be dynamic")
		}
		req.Kind, req.Level, req.Destination, req.Domain = codes.Dynamic, codes.DynamicLevel, req.Fields["url"], c.Domain
		req.ShortCode = strings.TrimSpace(values["shortCode"]) // chosen; "" for random (issue 34)
	} else if strings.TrimSpace(values["shortCode"]) != "" {
		return refuse("shortCode", "Only dynamic QR codes have a short code: set dynamic to true")
	}
	req.Style, err = codes.FormStyle(func(k string) string { return values[k] })
	var p *codes.Prepared
	if err == nil {
		p, err = c.Creator.Prepare(ctx, req, codes.Caller{User: c.User, ClientID: store.DefaultClientID})
	}
	if rf, ok := codes.AsRefused(err); ok {
		return refuse(column(t, rf.Field), rf.Message)
	} else if err != nil {
		return refuse(column(t, ""), "This row cannot be rendered")
	}

	fileName := c.EntryName(values["fileName"])
	if fileName == "" {
		fileName = "qr-code-" + strconv.Itoa(ordinal)
	}
	code, err := p.BulkCode(fileName)
	if err != nil {
		return refuse("", "The row cannot be saved")
	}
	return store.BulkItem{Row: row.Line, Status: store.ItemPending, Code: code}
}
