package server

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/bulk"
	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// Spreadsheet updates (docs/API.md "Bulk edits"): a CSV or XLSX keyed by
// short code or id, each row its own changes, run as a bulk edit whose
// items carry them (the same dry run, job, progress and undo).

// sheetKeys are the columns a row names its code by; sheetColumns the
// columns it may change, each a bulk edit change kind.
var (
	sheetKeys    = []string{"shortCode", "id"}
	sheetColumns = []string{"destination", "tags", "folder", "paused", "domain"}
)

// sheetHeader maps a spreadsheet update's header to column names ("" for
// an unnamed column, ignored), or says what is wrong with it.
func sheetHeader(header []string) ([]string, string) {
	known := map[string]string{}
	for _, n := range append(slices.Clone(sheetKeys), sheetColumns...) {
		known[strings.ToLower(n)] = n
	}
	cols := make([]string, len(header))
	var unknown []string
	for i, h := range header {
		if h == "" {
			continue
		}
		name, ok := known[strings.ToLower(h)]
		switch {
		case !ok:
			unknown = append(unknown, fmt.Sprintf("%q", truncate(h, 40)))
			continue
		case slices.Contains(cols, name):
			return nil, fmt.Sprintf("The column %q appears twice in the header row", name)
		}
		cols[i] = name
	}
	switch {
	case len(unknown) > 0:
		return nil, fmt.Sprintf("Unknown columns in the header row: %s. A spreadsheet update takes shortCode or id, and %s",
			strings.Join(unknown, ", "), strings.Join(sheetColumns, ", "))
	case slices.Contains(cols, "shortCode") == slices.Contains(cols, "id"):
		return nil, "The header row must have a shortCode or an id column (one of them) naming each row's code"
	case !slices.ContainsFunc(cols, func(c string) bool { return slices.Contains(sheetColumns, c) }):
		return nil, "The header row must name a column to change: " + strings.Join(sheetColumns, ", ")
	}
	return cols, ""
}

// sheetNames are the workspace's tags and folders by the database's key
// of their names (store.NameKeys: what its unique indexes compare), the
// keys of the names the sheet's cells give, and its domains by name, read
// for the columns the header has.
type sheetNames struct {
	tags, folders map[string]int64
	keys          map[string]string
	domains       map[string]*store.Domain
}

func (s *server) readSheetNames(r *http.Request, cols []string, table *bulk.Table) (*sheetNames, error) {
	ctx, ws := r.Context(), wsID(r)
	n := &sheetNames{tags: map[string]int64{}, folders: map[string]int64{}, keys: map[string]string{}, domains: map[string]*store.Domain{}}
	var names []string // the cells' names, then the workspace's
	for _, tr := range table.Rows {
		for i, c := range tr.Cells {
			switch {
			case i >= len(cols):
			case cols[i] == "tags":
				for name := range strings.SplitSeq(c, ";") {
					if name = strings.TrimSpace(name); name != "" {
						names = append(names, name)
					}
				}
			case cols[i] == "folder" && c != "":
				names = append(names, c)
			}
		}
	}
	var tags []*store.Tag
	var folders []*store.Folder
	var err error
	if slices.Contains(cols, "tags") {
		if tags, err = s.store.Tags(ctx, ws); err != nil {
			return nil, err
		}
		for _, t := range tags {
			names = append(names, t.Name)
		}
	}
	if slices.Contains(cols, "folder") {
		if folders, err = s.store.Folders(ctx, ws); err != nil {
			return nil, err
		}
		for _, f := range folders {
			names = append(names, f.Name)
		}
	}
	if n.keys, err = s.store.NameKeys(ctx, names); err != nil {
		return nil, err
	}
	for _, t := range tags {
		n.tags[n.keys[t.Name]] = t.ID
	}
	for _, f := range folders {
		n.folders[n.keys[f.Name]] = f.ID
	}
	if slices.Contains(cols, "domain") {
		domains, err := s.store.Domains(ctx, ws)
		if err != nil {
			return nil, err
		}
		for _, d := range domains {
			n.domains[d.Domain] = d
		}
	}
	return n, nil
}

// rowChanges reads a row's cells into its changes (an empty cell changes
// nothing), or says what is wrong with the first bad one.
func (n *sheetNames) rowChanges(v map[string]string) (bulkedit.Changes, string) {
	var c bulkedit.Changes
	if d := v["destination"]; d != "" {
		if len(d) > codes.MaxDestination {
			return c, msgSheetDestinationLength
		}
		c.Destination = &bulkedit.Destination{Template: d}
	}
	if t := v["tags"]; t != "" {
		c.SetTags, c.Tags = true, []int64{}
		for name := range strings.SplitSeq(t, ";") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			key, ok := n.keys[name]
			id, found := n.tags[key]
			if !ok || !found {
				return c, fmt.Sprintf("No tag %q in this workspace", truncate(name, 40))
			}
			c.Tags = append(c.Tags, id)
		}
	}
	if f := v["folder"]; f != "" {
		key, ok := n.keys[f]
		id, found := n.folders[key]
		if !ok || !found {
			return c, fmt.Sprintf("No folder %q in this workspace", truncate(f, 40))
		}
		c.SetFolder, c.FolderID = true, &id
	}
	if p := v["paused"]; p != "" {
		paused, err := codes.FormBool(p)
		if err != nil {
			return c, "paused must be true or false"
		}
		c.Paused = &paused
	}
	if name := v["domain"]; name != "" {
		d, ok := n.domains[strings.ToLower(name)]
		switch {
		case !ok:
			return c, fmt.Sprintf("No domain %q in this workspace", truncate(name, 60))
		case d.VerifiedAt == nil:
			return c, msgDomainUnproved
		case d.PointedAt == nil:
			return c, codes.MsgDomainNotPointing
		}
		c.SetDomain, c.DomainID = true, &d.ID
	}
	return c, ""
}

// createBulkEditSheet (POST /api/codes/bulk-edit/sheet) reads a
// spreadsheet update (multipart `file`, `dryRun`): 200 with the dry run,
// or 202 {"id","total","failures"} for the job of the rows that name a
// code, the others listed as failures.
func (s *server) createBulkEditSheet(w http.ResponseWriter, r *http.Request) {
	form, dryRun, release, ok := s.readSpreadsheet(w, r)
	if !ok {
		return
	}
	defer release()
	table, err := bulk.ReadTable(form.file.Data)
	if err != nil {
		fieldError(w, "file", err.Error())
		return
	}
	cols, problem := sheetHeader(table.Header)
	if problem != "" {
		fieldError(w, "file", problem)
		return
	}
	names, err := s.readSheetNames(r, cols, table)
	if err != nil {
		s.internalError(w, "reading tags, folders and domains", err)
		return
	}
	items, failures, err := s.sheetItems(r, table, cols, names)
	if err != nil {
		s.internalError(w, "reading codes", err)
		return
	}
	ctx, ws := r.Context(), wsID(r)
	if dryRun {
		p, err := bulkedit.DryRunItems(ctx, s.store, ws, items)
		if err != nil {
			s.internalError(w, "working out a bulk edit", err)
			return
		}
		p.Selected = len(table.Rows)
		p.Failures = append(failures, p.Failures...)
		slices.SortStableFunc(p.Failures, func(a, b bulkedit.Failure) int { return a.Row - b.Row })
		writeJSON(w, http.StatusOK, p)
		return
	}
	if len(items) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"message":  "No row of the file names a code of this workspace",
			"errors":   map[string]string{"file": "No row of the file names a code of this workspace"},
			"failures": orEmpty(failures),
		})
		return
	}
	j, err := s.bulkEditRunner.StartItems(ctx, ws, auth.UserFrom(ctx).ID, form.file.Name, items)
	if err != nil {
		s.internalError(w, "starting a bulk edit", err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "total": j.Total, "failures": orEmpty(failures)})
}

// sheetItems reads the table's rows into items, each naming a live code
// of the workspace once, and failures for the rows that cannot be one.
func (s *server) sheetItems(r *http.Request, table *bulk.Table, cols []string, names *sheetNames) ([]bulkedit.Item, []bulkedit.Failure, error) {
	ctx, ws := r.Context(), wsID(r)
	byShortCode := slices.Contains(cols, "shortCode")
	keyColumn, keyWhat := "id", "id"
	if byShortCode {
		keyColumn, keyWhat = "shortCode", "short code"
	}
	type row struct {
		line    int
		key     string
		ref     store.CodeRef
		changes bulkedit.Changes
	}
	var rows []row
	var failures []bulkedit.Failure
	var shortCodes []string
	var refs []store.CodeRef
	seen := map[string]int{} // key: the row that named it first
	for _, tr := range table.Rows {
		v := map[string]string{}
		for i, c := range tr.Cells {
			if i < len(cols) && cols[i] != "" {
				v[cols[i]] = c
			}
		}
		key := v[keyColumn]
		fail := func(reason string) {
			failures = append(failures, bulkedit.Failure{Row: tr.Line, ID: truncate(key, 40), Reason: reason})
		}
		if key == "" {
			fail("The row names no code: its " + keyColumn + " cell is empty")
			continue
		}
		it := row{line: tr.Line, key: key}
		code := key // what the row names: d_5 and d_05 are one code
		if !byShortCode {
			id, err := strconv.ParseInt(key[min(2, len(key)):], 10, 64)
			kind := key[:min(2, len(key))]
			if err != nil || id <= 0 || (kind != "d_" && kind != "s_") {
				fail("Not a code id (d_N or s_N)")
				continue
			}
			it.ref = store.CodeRef{Dynamic: kind == "d_", ID: id}
			code = kind + strconv.FormatInt(id, 10)
		}
		if first, ok := seen[code]; ok {
			fail(fmt.Sprintf("Row %d already names this code", first))
			continue
		}
		seen[code] = tr.Line
		if byShortCode {
			shortCodes = append(shortCodes, key)
		} else {
			refs = append(refs, it.ref)
		}
		c, problem := names.rowChanges(v)
		if problem != "" {
			fail(problem)
			continue
		}
		it.changes = c
		rows = append(rows, it)
	}
	// Which keys name live codes of the workspace.
	live := map[store.CodeRef]bool{}
	var ids map[string][]int64
	if byShortCode {
		var err error
		if ids, err = s.store.ShortCodeIDs(ctx, ws, shortCodes); err != nil {
			return nil, nil, err
		}
	}
	for start := 0; start < len(refs); start += 1000 {
		part, err := s.store.BulkEditCodes(ctx, ws, refs[start:min(start+1000, len(refs))])
		if err != nil {
			return nil, nil, err
		}
		for _, c := range part {
			live[store.CodeRef{Dynamic: c.Dynamic, ID: c.ID}] = true
		}
	}
	items := make([]bulkedit.Item, 0, len(rows))
	for _, it := range rows {
		switch list := ids[it.key]; {
		case byShortCode && len(list) > 1: // the same chosen short code on several hosts
			failures = append(failures, bulkedit.Failure{Row: it.line, ID: truncate(it.key, 40),
				Reason: "Several codes of this workspace have this short code, on different domains: name the code by its id"})
			continue
		case byShortCode && len(list) == 1:
			it.ref = store.CodeRef{Dynamic: true, ID: list[0]}
			live[it.ref] = true
		}
		if !live[it.ref] {
			failures = append(failures, bulkedit.Failure{Row: it.line, ID: truncate(it.key, 40), Reason: "No code of this workspace has this " + keyWhat})
			continue
		}
		items = append(items, bulkedit.Item{Row: it.line, Ref: it.ref, Changes: it.changes})
	}
	slices.SortStableFunc(failures, func(a, b bulkedit.Failure) int { return a.Row - b.Row })
	return items, failures, nil
}
