package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/store"
)

// Organisation (issue 22 item 3): a workspace's tags and folders, each
// code's tags and folder, and the one server-side list of both kinds of
// code (GET /api/codes, and /api/v1/codes with the same parameters).

const (
	maxTagName    = 50
	maxFolderName = 100
	defaultColor  = "#6B7280"
	maxSearch     = 200
	codePageMax   = 100
	codePageSize  = 50
	msgTagMissing = "Tag not found"
	msgTagTaken   = "A tag with this name already exists"
	msgFolderGone = "Folder not found"
	msgFolderUsed = "A folder with this name already exists"
)

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

type tagJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

type folderJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func tagsJSON(tags []store.Tag) []tagJSON {
	out := make([]tagJSON, len(tags))
	for i, t := range tags {
		out[i] = tagJSON{t.ID, t.Name, t.Color}
	}
	return out
}

// checkName adds to v the problem of a trimmed name, if any: required, at
// most max characters, no control or invisible formatting characters.
func checkName(v *validation, field, name string, max int) {
	switch {
	case name == "":
		v.add(field, "Name is required")
	case !utf8.ValidString(name):
		v.add(field, "Name must be UTF-8 text")
	case utf8.RuneCountInString(name) > max:
		v.add(field, "Name must be at most "+strconv.Itoa(max)+" characters")
	case strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }):
		v.add(field, "Name must not contain control or formatting characters")
	}
}

// organised answers a change to a tag or folder.
func (s *server) organised(w http.ResponseWriter, err error, missing, taken string, ok func()) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, missing)
	case errors.Is(err, store.ErrConflict):
		writeJSON(w, http.StatusConflict, apiError{Message: taken, Errors: map[string]string{"name": taken}})
	case err != nil:
		s.internalError(w, "organising codes", err)
	default:
		ok()
	}
}

// listTags (GET /api/tags).
func (s *server) listTags(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Tags(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing tags", err)
		return
	}
	out := make([]tagJSON, len(list))
	for i, t := range list {
		out[i] = tagJSON{t.ID, t.Name, t.Color}
	}
	writeJSON(w, http.StatusOK, out)
}

// readTag reads {"name", "color"} into t (absent keys keep t's values when
// partial); on failure it has answered 400.
func readTag(w http.ResponseWriter, r *http.Request, t *store.Tag) bool {
	var in struct {
		Name  *string `json:"name"`
		Color *string `json:"color"`
	}
	if !decodeJSON(w, r, &in) {
		return false
	}
	if in.Name != nil {
		t.Name = strings.TrimSpace(*in.Name)
	}
	if in.Color != nil {
		t.Color = strings.TrimSpace(*in.Color)
	}
	if t.Color == "" {
		t.Color = defaultColor
	}
	v := &validation{}
	checkName(v, "name", t.Name, maxTagName)
	if !hexColor.MatchString(t.Color) {
		v.add("color", "Color must be a hex color such as #3B82F6")
	}
	return !v.failed(w)
}

// createTag (POST /api/tags {name, color}) — 201; a taken name 409.
func (s *server) createTag(w http.ResponseWriter, r *http.Request) {
	t := &store.Tag{}
	if !readTag(w, r, t) {
		return
	}
	err := s.store.CreateTag(r.Context(), wsID(r), t, s.now())
	s.organised(w, err, msgTagMissing, msgTagTaken, func() { writeJSON(w, http.StatusCreated, tagJSON{t.ID, t.Name, t.Color}) })
}

// updateTag (PATCH /api/tags/{id} {name?, color?}).
func (s *server) updateTag(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgTagMissing)
	if !ok {
		return
	}
	list, err := s.store.Tags(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing tags", err)
		return
	}
	i := slices.IndexFunc(list, func(t *store.Tag) bool { return t.ID == id })
	if i < 0 {
		writeError(w, http.StatusNotFound, msgTagMissing)
		return
	}
	t := list[i]
	if !readTag(w, r, t) {
		return
	}
	err = s.store.UpdateTag(r.Context(), wsID(r), t)
	s.organised(w, err, msgTagMissing, msgTagTaken, func() { writeJSON(w, http.StatusOK, tagJSON{t.ID, t.Name, t.Color}) })
}

// deleteTag (DELETE /api/tags/{id}) — 204; its codes lose it.
func (s *server) deleteTag(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgTagMissing)
	if !ok {
		return
	}
	err := s.store.DeleteTag(r.Context(), wsID(r), id, s.now())
	s.organised(w, err, msgTagMissing, msgTagTaken, func() { w.WriteHeader(http.StatusNoContent) })
}

// listFolders (GET /api/folders).
func (s *server) listFolders(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Folders(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing folders", err)
		return
	}
	out := make([]folderJSON, len(list))
	for i, f := range list {
		out[i] = folderJSON{f.ID, f.Name}
	}
	writeJSON(w, http.StatusOK, out)
}

// readFolderName reads {"name"}; on failure it has answered 400.
func readFolderName(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Name string `json:"name"`
	}
	if !decodeJSON(w, r, &in) {
		return "", false
	}
	name := strings.TrimSpace(in.Name)
	v := &validation{}
	checkName(v, "name", name, maxFolderName)
	return name, !v.failed(w)
}

// createFolder (POST /api/folders {name}) — 201; a taken name 409.
func (s *server) createFolder(w http.ResponseWriter, r *http.Request) {
	name, ok := readFolderName(w, r)
	if !ok {
		return
	}
	f := &store.Folder{Name: name}
	err := s.store.CreateFolder(r.Context(), wsID(r), f, s.now())
	s.organised(w, err, msgFolderGone, msgFolderUsed, func() { writeJSON(w, http.StatusCreated, folderJSON{f.ID, f.Name}) })
}

// renameFolder (PATCH /api/folders/{id} {name}).
func (s *server) renameFolder(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgFolderGone)
	if !ok {
		return
	}
	name, ok := readFolderName(w, r)
	if !ok {
		return
	}
	f := &store.Folder{ID: id, Name: name}
	err := s.store.RenameFolder(r.Context(), wsID(r), f)
	s.organised(w, err, msgFolderGone, msgFolderUsed, func() { writeJSON(w, http.StatusOK, folderJSON{f.ID, f.Name}) })
}

// deleteFolder (DELETE /api/folders/{id}) — 204; its codes stay, in no folder.
func (s *server) deleteFolder(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgFolderGone)
	if !ok {
		return
	}
	err := s.store.DeleteFolder(r.Context(), wsID(r), id, s.now())
	s.organised(w, err, msgFolderGone, msgFolderUsed, func() { w.WriteHeader(http.StatusNoContent) })
}

// answerOrganised answers the code as it is after its tags or folder
// changed: 404 for a code, tag or folder that is not the workspace's.
func (s *server) answerOrganised(w http.ResponseWriter, r *http.Request, dynamic bool, id int64, err error, missing string) {
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, missing)
		return
	}
	if err != nil {
		s.internalError(w, "organising a code", err)
		return
	}
	if dynamic {
		d, err := s.store.DynamicCode(r.Context(), wsID(r), id)
		answerCode(s, w, "reading a code", d, err, func(d *store.DynamicCode) any { return s.dynamicJSON(d) })
		return
	}
	q, err := s.store.QRCode(r.Context(), wsID(r), id)
	answerCode(s, w, "reading a code", q, err, func(q *store.QRCode) any { return qrCodeJSON(q) })
}

// setCodeTags (PUT /api/qrcodes/{id}/tags and /api/dynamic-qrcodes/{id}/tags
// {tagIds}) gives the code exactly these tags of the workspace.
func (s *server) setCodeTags(dynamic bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(w, r)
		if !ok {
			return
		}
		var in struct {
			TagIDs []int64 `json:"tagIds"`
		}
		if !decodeJSON(w, r, &in) {
			return
		}
		if in.TagIDs == nil {
			fieldError(w, "tagIds", "tagIds must be a list of tag ids")
			return
		}
		slices.Sort(in.TagIDs)
		ids := slices.Compact(in.TagIDs)
		// The code first, so another workspace's code is a 404 whatever the tags.
		if !s.codeExists(w, r, dynamic, id) {
			return
		}
		err := s.store.SetCodeTags(r.Context(), wsID(r), dynamic, id, ids)
		s.answerOrganised(w, r, dynamic, id, err, msgTagMissing)
	}
}

// setCodeFolder (PUT /api/qrcodes/{id}/folder and
// /api/dynamic-qrcodes/{id}/folder {folderId: id|null}).
func (s *server) setCodeFolder(dynamic bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(w, r)
		if !ok {
			return
		}
		var in struct {
			FolderID *int64 `json:"folderId"`
		}
		if !decodeJSON(w, r, &in) {
			return
		}
		if !s.codeExists(w, r, dynamic, id) {
			return
		}
		err := s.store.SetCodeFolder(r.Context(), wsID(r), dynamic, id, in.FolderID)
		s.answerOrganised(w, r, dynamic, id, err, msgFolderGone)
	}
}

// codeExists answers 404 unless the code is a live one of the workspace.
func (s *server) codeExists(w http.ResponseWriter, r *http.Request, dynamic bool, id int64) bool {
	var err error
	if dynamic {
		_, err = s.store.DynamicCode(r.Context(), wsID(r), id)
	} else {
		_, err = s.store.QRCode(r.Context(), wsID(r), id)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgCodeMissing)
	case err != nil:
		s.internalError(w, "reading a code", err)
	default:
		return true
	}
	return false
}

// codeCursor is the opaque cursor of GET /api/codes: where the page ended,
// and for which sort, so a cursor is not reused for another order.
type codeCursor struct {
	Sort string           `json:"s"`
	Desc bool             `json:"d"`
	At   store.CodeCursor `json:"c"`
}

func encodeCursor(c codeCursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// codeQuery reads the list parameters of GET /api/codes and /api/v1/codes;
// on failure it has answered 400 on the parameter.
func codeQuery(w http.ResponseWriter, r *http.Request) (store.CodeQuery, bool) {
	return codeQueryOf(w, wsID(r), r.URL.Query())
}

// codeQueryOf reads the workspace's list parameters p (a bulk edit's
// filter too); on failure it has answered 400 on the parameter.
func codeQueryOf(w http.ResponseWriter, workspaceID int64, p url.Values) (store.CodeQuery, bool) {
	q := store.CodeQuery{WorkspaceID: workspaceID, Search: strings.TrimSpace(p.Get("q")), Kind: p.Get("kind"), Type: p.Get("type"),
		Status: p.Get("status"), Sort: p.Get("sort"), Limit: codePageSize}
	v := &validation{}
	if utf8.RuneCountInString(q.Search) > maxSearch || !utf8.ValidString(q.Search) || strings.ContainsRune(q.Search, 0) {
		v.add("q", "q must be at most 200 characters of text")
	}
	if q.Kind != "" && q.Kind != kindStatic && q.Kind != kindDynamic {
		v.add("kind", "kind must be static or dynamic")
	}
	if len(q.Type) > 50 || !utf8.ValidString(q.Type) || strings.ContainsRune(q.Type, 0) {
		v.add("type", "type is not a QR code type")
	}
	if q.Status != "" && q.Status != "active" && q.Status != "paused" {
		v.add("status", "status must be active or paused")
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"tag", &q.TagID}, {"folder", &q.FolderID}, {"domain", &q.DomainID}} {
		if s := p.Get(f.name); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n <= 0 {
				v.add(f.name, f.name+" must be an id")
			}
			*f.dst = n
		}
	}
	if q.Sort == "" {
		q.Sort = "created"
	}
	if q.Sort != "created" && q.Sort != "name" && q.Sort != "scans" {
		v.add("sort", "sort must be created, name or scans")
	}
	switch p.Get("order") {
	case "", "desc":
		q.Desc = true
	case "asc":
	default:
		v.add("order", "order must be asc or desc")
	}
	if s := p.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > codePageMax {
			v.add("limit", "limit must be a number from 1 to 100")
		}
		q.Limit = n
	}
	if s := p.Get("cursor"); s != "" {
		c, ok := decodeCursor(s)
		if !ok || c.Sort != q.Sort || c.Desc != q.Desc {
			v.add("cursor", "cursor is not one this list gave")
		} else {
			q.After = &c.At
		}
	}
	return q, !v.failed(w)
}

// decodeCursor reads a cursor encodeCursor made, with its sort value of
// the right kind: a stored time, a name, or a count of scans.
func decodeCursor(s string) (codeCursor, bool) {
	var c codeCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return c, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if d.Decode(&c) != nil || (c.At.Kind != 0 && c.At.Kind != 1) || c.At.ID <= 0 {
		return c, false
	}
	switch v := c.At.Value.(type) {
	case json.Number:
		n, err := v.Int64()
		if err != nil || c.Sort != "scans" {
			return c, false
		}
		c.At.Value = n
	case string:
		if c.Sort == "scans" {
			return c, false
		}
		if _, err := time.Parse(time.RFC3339Nano, v); c.Sort == "created" && err != nil {
			return c, false
		}
	default:
		return c, false
	}
	return c, true
}

// listPage reads the list parameters, runs the query and shows its codes
// with static or dynamic: the page in order and the cursor of the next
// (nil at the end). On failure it has answered (400, 500).
func listPage[T any](s *server, w http.ResponseWriter, r *http.Request,
	static func(*store.QRCode) T, dynamic func(*store.DynamicCode) T) ([]T, *string, bool) {
	q, ok := codeQuery(w, r)
	if !ok {
		return nil, nil, false
	}
	limit := q.Limit
	q.Limit++
	refs, err := s.store.ListCodes(r.Context(), q)
	if err != nil {
		s.internalError(w, "listing codes", err)
		return nil, nil, false
	}
	var next *string
	if len(refs) > limit {
		refs = refs[:limit]
		c := encodeCursor(codeCursor{Sort: q.Sort, Desc: q.Desc, At: refs[limit-1].Cursor})
		next = &c
	}
	statics, dynamics, err := s.store.CodesByRef(r.Context(), q.WorkspaceID, refs)
	if err != nil {
		s.internalError(w, "reading codes", err)
		return nil, nil, false
	}
	// Both lists are in the page's order: merge them back into it.
	out := make([]T, 0, len(refs))
	si, di := 0, 0
	for _, ref := range refs {
		switch {
		case ref.Dynamic && di < len(dynamics) && dynamics[di].ID == ref.ID:
			out = append(out, dynamic(dynamics[di]))
			di++
		case !ref.Dynamic && si < len(statics) && statics[si].ID == ref.ID:
			out = append(out, static(statics[si]))
			si++
		}
	}
	return out, next, true
}

type listedStatic struct {
	Kind string `json:"kind"`
	qrCodeResponse
}

type listedDynamic struct {
	Kind string `json:"kind"`
	dynamicCodeResponse
}

// listCodes (GET /api/codes?q=&kind=&type=&status=&tag=&folder=&domain=&sort=&order=&limit=&cursor=):
// a page, and on the first one the number of codes the filters match.
func (s *server) listCodes(w http.ResponseWriter, r *http.Request) {
	// A payment code's card shows what it took: the workspace's totals are
	// read once, and only when the page holds a payment code.
	var totals map[int64]store.PaymentTotal
	var totalsErr error
	static := func(q *store.QRCode) any {
		out := qrCodeJSON(q)
		if q.PaymentProductID != nil {
			if totals == nil && totalsErr == nil {
				totals, totalsErr = s.store.PaymentTotals(r.Context(), wsID(r))
			}
			t := totals[*q.PaymentProductID]
			out.Payments = &paymentStats{Count: t.Count, Total: t.Total}
		}
		return listedStatic{kindStatic, out}
	}
	items, next, ok := listPage(s, w, r, static,
		func(d *store.DynamicCode) any { return listedDynamic{kindDynamic, s.dynamicJSON(d)} })
	switch {
	case !ok:
	case totalsErr != nil:
		s.internalError(w, "totalling payments", totalsErr)
	case r.URL.Query().Get("cursor") != "":
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": next})
	default:
		// The first page says how many codes match in all, for "3 of 120
		// match"; later pages would only repeat it.
		q, _ := codeQuery(w, r) // read without fault by listPage already
		total, err := s.store.CountCodes(r.Context(), q)
		if err != nil {
			s.internalError(w, "counting codes", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": next, "total": total})
	}
}
