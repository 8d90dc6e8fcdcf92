package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// Bulk edits (docs/API.md "Bulk edits"): the request is read and checked
// here; selecting, the dry run, the job and its undo are internal/bulkedit's.

const msgBulkEditMissing = "Bulk edit not found"

// bulkEditFilters are the code list's filters a bulk edit may select by
// (its paging parameters are not).
var bulkEditFilters = []string{"q", "kind", "type", "status", "tag", "folder", "domain"}

// bulkEditChanges are the keys of a bulk edit's "changes".
var bulkEditChanges = []string{"destination", "routing", "addTags", "removeTags", "folderId", "brandKitId", "domainId", "paused", "delete"}

// createBulkEdit (POST /api/codes/bulk-edit, POST /api/v1/codes/bulk-edit)
// {"ids" or "filter", "changes", "dryRun"}: 200 with the dry run, or 202
// {"id"} for the job.
func (s *server) createBulkEdit(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IDs     []string                   `json:"ids"`
		Filter  map[string]json.RawMessage `json:"filter"`
		Changes map[string]json.RawMessage `json:"changes"`
		DryRun  bool                       `json:"dryRun"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	ws := wsID(r)
	folderLimit := publicapi.FolderLimit(r.Context())
	changes, ok := s.readBulkChanges(w, r, in.Changes, folderLimit != nil)
	if !ok {
		return
	}
	refs, ok := s.bulkSelection(w, r, in.IDs, in.Filter, folderLimit)
	if !ok {
		return
	}
	if in.DryRun {
		p, err := bulkedit.DryRun(r.Context(), s.store, ws, refs, changes)
		if err != nil {
			s.internalError(w, "working out a bulk edit", err)
			return
		}
		writeJSON(w, http.StatusOK, p)
		return
	}
	j, err := s.bulkEditRunner.Start(r.Context(), ws, auth.UserFrom(r.Context()).ID, refs, changes)
	if err != nil {
		s.internalError(w, "starting a bulk edit", err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "total": j.Total})
}

// bulkSelection reads a selection of the workspace's codes, "ids" or
// "filter" (in the folder of a key limited to one), frozen now. On failure
// it has answered (400, or 404 for ids not the workspace's codes).
func (s *server) bulkSelection(w http.ResponseWriter, r *http.Request, ids []string, filter map[string]json.RawMessage, folderLimit *int64) ([]store.CodeRef, bool) {
	var refs []store.CodeRef
	switch {
	case (ids == nil) == (filter == nil):
		fieldError(w, "ids", "Give either ids or filter")
		return nil, false
	case ids != nil:
		var ok bool
		if refs, ok = s.bulkEditIDs(w, r, ids, folderLimit); !ok {
			return nil, false
		}
	default:
		p := url.Values{}
		for k, raw := range filter {
			v, isText := filterValue(raw)
			if !slices.Contains(bulkEditFilters, k) || !isText {
				fieldError(w, "filter."+k, fmt.Sprintf("filter takes %s, each a string or a number", strings.Join(bulkEditFilters, ", ")))
				return nil, false
			}
			p.Set(k, v)
		}
		if folderLimit != nil {
			// A key limited to a folder selects in it alone.
			if f := p.Get("folder"); f != "" && f != strconv.FormatInt(*folderLimit, 10) {
				writeError(w, http.StatusForbidden, "This API key is limited to one folder")
				return nil, false
			}
			p.Set("folder", strconv.FormatInt(*folderLimit, 10))
		}
		q, ok := codeQueryOf(w, wsID(r), p)
		if !ok {
			return nil, false
		}
		var err error
		refs, err = bulkedit.Select(r.Context(), s.store, q)
		if errors.Is(err, bulkedit.ErrTooMany) {
			fieldError(w, "filter", err.Error())
			return nil, false
		} else if err != nil {
			s.internalError(w, "selecting codes", err)
			return nil, false
		}
	}
	if len(refs) == 0 {
		fieldError(w, "filter", "The selection holds no codes")
		return nil, false
	}
	return refs, true
}

// filterValue is a filter's value as the list's query string has it.
func filterValue(raw json.RawMessage) (string, bool) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text, true
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	return "", false
}

// bulkEditIDs reads a selection of /api/v1 ids, each a live code of the
// workspace (in the key's folder, for a key limited to one). On failure it
// has answered: 400 for a malformed id or too many, 404 naming the ids
// that are not the workspace's codes.
func (s *server) bulkEditIDs(w http.ResponseWriter, r *http.Request, ids []string, folder *int64) ([]store.CodeRef, bool) {
	if len(ids) > bulkedit.MaxIDs {
		fieldError(w, "ids", fmt.Sprintf("A bulk edit lists at most %d ids; select more with a filter", bulkedit.MaxIDs))
		return nil, false
	}
	refs := make([]store.CodeRef, 0, len(ids))
	// Keyed by the code, not the spelling: "d_5" and "d_05" are one code,
	// changed once.
	seen := map[store.CodeRef]bool{}
	for _, raw := range ids {
		id, err := strconv.ParseInt(raw[min(2, len(raw)):], 10, 64)
		kind := raw[:min(2, len(raw))]
		if err != nil || id <= 0 || (kind != "d_" && kind != "s_") {
			fieldError(w, "ids", fmt.Sprintf("%q is not a code id (d_N or s_N)", truncate(raw, 40)))
			return nil, false
		}
		if ref := (store.CodeRef{Dynamic: kind == "d_", ID: id}); !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	var found []store.BulkEditCode
	for start := 0; start < len(refs); start += 1000 {
		part, err := s.store.BulkEditCodes(r.Context(), wsID(r), refs[start:min(start+1000, len(refs))])
		if err != nil {
			s.internalError(w, "reading codes", err)
			return nil, false
		}
		found = append(found, part...)
	}
	live := map[string]bool{}
	for _, c := range found {
		if folder == nil || (c.Fields.FolderID != nil && *c.Fields.FolderID == *folder) {
			live[bulkedit.ID(c.Dynamic, c.ID)] = true
		}
	}
	var missing []string
	for _, ref := range refs {
		if id := bulkedit.ID(ref.Dynamic, ref.ID); !live[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		writeJSON(w, http.StatusNotFound, apiError{Message: msgCodeMissing,
			Errors: map[string]string{"ids": "Not codes of this workspace: " + strings.Join(missing[:min(20, len(missing))], ", ")}})
		return nil, false
	}
	return refs, true
}

// readBulkChanges reads and checks a bulk edit's "changes": every id the
// workspace's, a routing as PUT …/routing takes it, a brand kit resolved
// to its style now. On failure it has answered 400 (404 for a domain,
// folder, tag or kit not the workspace's).
func (s *server) readBulkChanges(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage, folderLimited bool) (bulkedit.Changes, bool) {
	var c bulkedit.Changes
	ctx, ws := r.Context(), wsID(r)
	var v validation
	for k := range in {
		if !slices.Contains(bulkEditChanges, k) {
			v.add("changes."+k, "changes takes "+strings.Join(bulkEditChanges, ", "))
		}
	}
	if v.failed(w) {
		return c, false
	}
	if len(in) == 0 {
		fieldError(w, "changes", "changes must name at least one change")
		return c, false
	}
	ids := func(field string, raw json.RawMessage) []int64 {
		var list []int64
		// null would read as no tags: a change that changes nothing.
		if string(raw) == "null" || json.Unmarshal(raw, &list) != nil || slices.ContainsFunc(list, func(n int64) bool { return n <= 0 }) || len(list) > 100 {
			v.add("changes."+field, field+" must be a list of at most 100 tag ids")
		}
		return list
	}
	optionalID := func(field string, raw json.RawMessage) *int64 {
		if string(raw) == "null" {
			return nil
		}
		var n int64
		if json.Unmarshal(raw, &n) != nil || n <= 0 {
			v.add("changes."+field, field+" must be an id or null")
			return nil
		}
		return &n
	}
	if raw, ok := in["destination"]; ok {
		c.Destination = readDestinationChange(&v, raw)
	}
	if raw, ok := in["routing"]; ok {
		// As PUT …/routing takes it; null clears it.
		var body any
		if json.Unmarshal(raw, &body) != nil {
			v.add("changes.routing", "routing must be an object or null")
		}
		c.SetRouting, c.Routing = true, checkRouting(&v, body)
		if err := s.checkRoutingPages(ctx, &v, ws, c.Routing); err != nil {
			s.internalError(w, "checking a routing's pages", err)
			return c, false
		}
	}
	if raw, ok := in["addTags"]; ok {
		c.AddTags = ids("addTags", raw)
	}
	if raw, ok := in["removeTags"]; ok {
		c.RemoveTags = ids("removeTags", raw)
	}
	if raw, ok := in["folderId"]; ok {
		if folderLimited {
			writeError(w, http.StatusForbidden, "This API key is limited to one folder: it cannot move codes between folders")
			return c, false
		}
		c.SetFolder, c.FolderID = true, optionalID("folderId", raw)
	}
	if raw, ok := in["brandKitId"]; ok {
		if c.BrandKitID = optionalID("brandKitId", raw); c.BrandKitID == nil {
			v.add("changes.brandKitId", "brandKitId must be an id")
		}
	}
	if raw, ok := in["domainId"]; ok {
		c.SetDomain, c.DomainID = true, optionalID("domainId", raw)
	}
	if raw, ok := in["paused"]; ok {
		var p bool
		// null would read as false: resuming every code.
		if string(raw) == "null" || json.Unmarshal(raw, &p) != nil {
			v.add("changes.paused", "paused must be true or false")
		}
		c.Paused = &p
	}
	if raw, ok := in["delete"]; ok {
		if string(raw) != "true" {
			v.add("changes.delete", "delete must be true")
		} else if len(in) > 1 {
			v.add("changes.delete", "delete cannot be combined with other changes")
		}
		c.Delete = true
	}
	if v.failed(w) {
		return c, false
	}
	// Everything named must be the workspace's.
	if len(c.AddTags)+len(c.RemoveTags) > 0 {
		tags, err := s.store.Tags(ctx, ws)
		if err != nil {
			s.internalError(w, "reading tags", err)
			return c, false
		}
		for _, named := range []struct {
			field string
			ids   []int64
		}{{"changes.addTags", c.AddTags}, {"changes.removeTags", c.RemoveTags}} {
			for _, id := range named.ids {
				if !slices.ContainsFunc(tags, func(t *store.Tag) bool { return t.ID == id }) {
					writeJSON(w, http.StatusNotFound, apiError{Message: "Tag not found", Errors: map[string]string{named.field: fmt.Sprintf("No tag %d in this workspace", id)}})
					return c, false
				}
			}
		}
	}
	if c.FolderID != nil {
		folders, err := s.store.Folders(ctx, ws)
		if err != nil {
			s.internalError(w, "reading folders", err)
			return c, false
		}
		if !slices.ContainsFunc(folders, func(f *store.Folder) bool { return f.ID == *c.FolderID }) {
			writeJSON(w, http.StatusNotFound, apiError{Message: "Folder not found", Errors: map[string]string{"changes.folderId": "No such folder in this workspace"}})
			return c, false
		}
	}
	if c.DomainID != nil {
		if _, err := s.codeDomain(ctx, ws, *c.DomainID); answerDomainRefused(w, err) {
			return c, false
		} else if err != nil {
			s.internalError(w, "reading a domain", err)
			return c, false
		}
	}
	if c.BrandKitID != nil {
		k, st, ok := s.workspaceKit(w, r, strconv.FormatInt(*c.BrandKitID, 10))
		if !ok {
			return c, false
		}
		st, err := st.Normalize()
		if err != nil {
			renderRefused(w, err)
			return c, false
		}
		saved := codes.SavedStyle(st, codes.DynamicLevel)
		if k.LogoID != nil {
			logo, err := s.store.BlobInfo(ctx, *k.LogoID)
			if err != nil {
				s.internalError(w, "reading a brand kit's logo", err)
				return c, false
			}
			saved.LogoFilePath, saved.LogoFileName = logoPath(logo.ID), logo.FileName
		}
		c.Style = &saved
	}
	return c, true
}

// Length limits of a bulk edit's destination change: in bytes, as a
// destination's own (codes.MaxDestination, docs/API.md "at most 2048
// bytes"), and said so.
var (
	msgBulkDestinationLength  = fmt.Sprintf("destination must be a URL template of at most %d bytes", codes.MaxDestination)
	msgBulkReplaceLength      = fmt.Sprintf("replace.from and replace.to must each be at most %d bytes", codes.MaxDestination)
	msgSheetDestinationLength = fmt.Sprintf("destination must be a URL (or a template) of at most %d bytes", codes.MaxDestination)
)

// readDestinationChange reads a destination change: a template string, or
// {"replace":{"from","to"}}.
func readDestinationChange(v *validation, raw json.RawMessage) *bulkedit.Destination {
	var template string
	if json.Unmarshal(raw, &template) == nil {
		template = strings.TrimSpace(template)
		// Bytes, as a destination's limit is (codes.MaxDestination): counted
		// in characters, a template past it was taken and failed every code.
		if template == "" || len(template) > codes.MaxDestination {
			v.add("changes.destination", msgBulkDestinationLength)
		}
		return &bulkedit.Destination{Template: template}
	}
	var rep struct {
		Replace *struct {
			From *string `json:"from"`
			To   *string `json:"to"`
		} `json:"replace"`
	}
	if json.Unmarshal(raw, &rep) != nil || rep.Replace == nil || rep.Replace.From == nil || rep.Replace.To == nil || *rep.Replace.From == "" {
		v.add("changes.destination", `destination must be a template or {"replace":{"from","to"}} with a non-empty from`)
		return nil
	}
	if len(*rep.Replace.From) > codes.MaxDestination || len(*rep.Replace.To) > codes.MaxDestination {
		v.add("changes.destination", msgBulkReplaceLength)
		return nil
	}
	if *rep.Replace.From == *rep.Replace.To {
		// Every destination would stay as it is: a job that changes nothing.
		v.add("changes.destination", "replace.to must differ from replace.from: replacing a text with itself changes nothing")
		return nil
	}
	return &bulkedit.Destination{From: *rep.Replace.From, To: *rep.Replace.To}
}

// bulkEditJSON is a job as GET /api/codes/bulk-edit/{id} shows it.
type bulkEditJSON struct {
	ID         int64           `json:"id"`
	Status     string          `json:"status"`
	Total      int             `json:"total"`
	Processed  int             `json:"processed"`
	Failed     int             `json:"failed"`
	Error      string          `json:"error,omitempty"`
	Changes    json.RawMessage `json:"changes"`
	CreatedAt  time.Time       `json:"createdAt"`
	FinishedAt *time.Time      `json:"finishedAt"`
	UndoUntil  *time.Time      `json:"undoUntil"` // while the undo window lasts
}

func (s *server) bulkEditView(j *store.BulkEditJob) bulkEditJSON {
	out := bulkEditJSON{ID: j.ID, Status: j.Status, Total: j.Total, Processed: j.Processed, Failed: j.Failed,
		Error: j.Error, Changes: json.RawMessage(j.Changes), CreatedAt: j.CreatedAt, FinishedAt: j.FinishedAt}
	if j.FinishedAt != nil && j.Status != store.BulkEditUndone {
		if until := j.FinishedAt.Add(bulkedit.UndoWindow); until.After(s.now()) {
			out.UndoUntil = &until
		}
	}
	return out
}

// bulkEdit (GET /api/codes/bulk-edit/{id}) is a job's progress.
func (s *server) bulkEdit(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgBulkEditMissing)
	if !ok {
		return
	}
	j, err := s.store.BulkEditJob(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && j.MoveTo != nil):
		writeError(w, http.StatusNotFound, msgBulkEditMissing)
	case err != nil:
		s.internalError(w, "reading a bulk edit", err)
	default:
		writeJSON(w, http.StatusOK, s.bulkEditView(j))
	}
}

// bulkEdits (GET /api/codes/bulk-edit) lists the workspace's latest 50 jobs.
func (s *server) bulkEdits(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.BulkEditJobs(r.Context(), wsID(r), 50)
	if err != nil {
		s.internalError(w, "listing bulk edits", err)
		return
	}
	out := make([]bulkEditJSON, len(list))
	for i, j := range list {
		out[i] = s.bulkEditView(j)
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out})
}

// undoBulkEdit (POST /api/codes/bulk-edit/{id}/undo) restores what a job
// changed, within a day of its end: {"id","status","restored","skipped":
// [{"id","reason"}]}, the codes changed again since left as they are. 409
// once the window has ended or while the job runs.
func (s *server) undoBulkEdit(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgBulkEditMissing)
	if !ok {
		return
	}
	restored, skipped, err := s.bulkEditRunner.Undo(r.Context(), wsID(r), id, s.dynamicLimit(workspaceFrom(r.Context())))
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgBulkEditMissing)
		return
	case errors.Is(err, store.ErrUndoClosed):
		writeError(w, http.StatusConflict, "This bulk edit cannot be undone: it is still running, or its 24-hour undo window has ended")
		return
	case err != nil:
		s.internalError(w, "undoing a bulk edit", err)
		return
	}
	list := make([]bulkedit.Failure, len(skipped))
	for i, k := range skipped {
		list[i] = bulkedit.Failure{ID: bulkedit.ID(k.Dynamic, k.ID), Reason: k.Reason}
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": store.BulkEditUndone, "restored": restored, "skipped": list})
}
