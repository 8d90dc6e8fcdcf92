package publicapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
)

// The codes resource: both kinds of code under one id space ("s_12" static,
// "d_34" dynamic), made and changed by the app's rules (App).

const (
	// Static and Dynamic are a code's kind, the prefix of its id.
	Static  = "static"
	Dynamic = "dynamic"
	// MaxBatchCodes is the most codes one batch call creates or changes.
	MaxBatchCodes = 1000
	// updateChunk codes change in one transaction of a batch PATCH.
	updateChunk = 100
)

// App is what the codes resource takes from the app: its rules for making
// and changing codes, its views of them, and the handlers both APIs share.
// The handlers read the code's number as the {id} path value, which the
// resource has rewritten from the API's id.
type App interface {
	// SaveStatic and SaveDynamic make a code from the app's form fields;
	// on refusal they have answered.
	SaveStatic(w http.ResponseWriter, r *http.Request, fields map[string]string) (*store.QRCode, bool)
	SaveDynamic(w http.ResponseWriter, r *http.Request, fields map[string]string) (*store.DynamicCode, bool)
	// StaticCode and DynamicCode show a code as this API does.
	StaticCode(*store.QRCode) Code
	DynamicCode(*store.DynamicCode) Code
	// ListCodes is a page of the workspace's codes for GET /api/codes's
	// parameters and the next page's cursor; on failure it has answered.
	ListCodes(w http.ResponseWriter, r *http.Request) ([]Code, *string, bool)
	// Changes are a PATCH's checked changes of the code of kind and id as
	// the store's, after what needs the app: the domain is the
	// workspace's and verified, the brand kit's style scans on this code.
	// When it refuses them it has answered and ok is false.
	Changes(w http.ResponseWriter, r *http.Request, kind string, id int64, c Changes) (sc store.CodeChanges, ok bool)
	// SaveRouting reads and saves a dynamic code's routing object; when
	// it refuses it it has answered and ok is false.
	SaveRouting(w http.ResponseWriter, r *http.Request) (d *store.DynamicCode, ok bool, err error)
	DeleteStatic(w http.ResponseWriter, r *http.Request)
	DeleteDynamic(w http.ResponseWriter, r *http.Request)
	StaticImage(w http.ResponseWriter, r *http.Request)
	DynamicImage(w http.ResponseWriter, r *http.Request)
	Analytics(w http.ResponseWriter, r *http.Request)
	ScansCSV(w http.ResponseWriter, r *http.Request)
}

// Code is the one resource for both kinds of code.
type Code struct {
	ID     string          `json:"id"` // "s_{n}" static, "d_{n}" dynamic
	Kind   string          `json:"kind"`
	Name   string          `json:"name"`
	QRType string          `json:"qrType"`
	Data   string          `json:"data"` // the text the code encodes
	QRData json.RawMessage `json:"qrData"`
	codes.Style
	LogoFilePath  string     `json:"logoFilePath"`
	Destination   string     `json:"destination,omitempty"`
	ShortCode     string     `json:"shortCode,omitempty"`
	URL           string     `json:"url,omitempty"`
	ScanCount     int64      `json:"scanCount"`
	IsPaused      bool       `json:"isPaused"`
	LastScannedAt *time.Time `json:"lastScannedAt,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	// Tags are the app's tags of the code.
	Tags     any    `json:"tags"`
	FolderID *int64 `json:"folderId"`
	// DomainID is a dynamic code's custom domain, null for the base URL;
	// static codes leave it out.
	DomainID any `json:"domainId,omitempty"`
	// PageID is the hosted page a dynamic code opens, null for a redirect;
	// static codes leave it out.
	PageID any `json:"pageId,omitempty"`
	// Routing is a dynamic code's smart routing, null when unset; static
	// codes leave it out.
	Routing any `json:"routing,omitempty"`
	// Health and AlertsMuted are a dynamic code's link checks and whether
	// its alerts are muted; static codes leave them out.
	Health      any   `json:"health,omitempty"`
	AlertsMuted *bool `json:"alertsMuted,omitempty"`
}

// Changes are a PATCH's checked fields; an empty Name or Destination
// keeps it.
type Changes struct {
	Name, Destination string
	BrandKit          *int64
	// DomainID is the raw "domainId": absent, null or an id.
	DomainID json.RawMessage
	// PageID is the raw "pageId" (issue 35): absent, null or a page's id.
	PageID json.RawMessage
	// ShortCode is a dynamic code's new chosen short code, checked
	// (codes.CheckShortCode); "" keeps it.
	ShortCode string
}

// IDOrNull shows an unset id as null rather than leaving it out.
func IDOrNull(id *int64) any {
	if id == nil {
		return json.RawMessage("null")
	}
	return *id
}

// RoutingOrNull shows an unset routing as null rather than leaving it out.
func RoutingOrNull(rt *store.Routing) any {
	if rt == nil {
		return json.RawMessage("null")
	}
	return rt
}

// codeFields turns a JSON code description into the app's form values:
// strings as they are, numbers as written, booleans as true/false, and
// qrData (an object) as its JSON text. It returns the kind, or why the
// description is refused (400).
func codeFields(raw map[string]json.RawMessage) (string, map[string]string, *respond.Problem) {
	values := map[string]string{}
	kind := Static
	for k, v := range raw {
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			return "", nil, &respond.Problem{Message: "Malformed JSON body"}
		}
		var text string
		switch x := val.(type) {
		case nil:
			continue
		case string:
			text = x
		case bool:
			text = strconv.FormatBool(x)
		case float64:
			text = strings.TrimSpace(string(v))
		case map[string]any:
			if k != "qrData" {
				return "", nil, fieldProblem(k, k+" must be a string, number or boolean")
			}
			var buf bytes.Buffer
			json.Compact(&buf, v)
			text = buf.String()
		default:
			return "", nil, fieldProblem(k, k+" must be a string, number or boolean")
		}
		if len(text) > codes.MaxFieldValue {
			return "", nil, fieldProblem(k, k+" is too long")
		}
		if k == "kind" {
			kind = text
			continue
		}
		values[k] = text
	}
	if kind != Static && kind != Dynamic {
		return "", nil, fieldProblem("kind", "kind must be static or dynamic")
	}
	return kind, values, nil
}

func fieldProblem(field, msg string) *respond.Problem {
	return &respond.Problem{Message: msg, Errors: map[string]string{field: msg}}
}

// createCode makes one code from its JSON description and answers it (201)
// or the reason it was refused; a key limited to a folder makes it there.
func (a *API) createCode(w http.ResponseWriter, r *http.Request, raw map[string]json.RawMessage) {
	kind, values, problem := codeFields(raw)
	if problem != nil {
		respond.JSON(w, http.StatusBadRequest, problem)
		return
	}
	folder := limitsFrom(r.Context()).FolderID
	if kind == Dynamic {
		if d, ok := a.App.SaveDynamic(w, r, values); ok && a.intoFolder(w, r, true, d.ID, folder) {
			d.FolderID = folder
			respond.JSON(w, http.StatusCreated, a.App.DynamicCode(d))
		}
		return
	}
	if q, ok := a.App.SaveStatic(w, r, values); ok && a.intoFolder(w, r, false, q.ID, folder) {
		q.FolderID = folder
		respond.JSON(w, http.StatusCreated, a.App.StaticCode(q))
	}
}

// intoFolder puts a code a key limited to a folder has just made in that
// folder (nil: none, nothing to do); on failure it has answered.
func (a *API) intoFolder(w http.ResponseWriter, r *http.Request, dynamic bool, id int64, folder *int64) bool {
	if folder == nil {
		return true
	}
	if err := a.Store.SetCodeFolder(r.Context(), a.WorkspaceID(r), dynamic, id, folder); err != nil {
		a.Fail(w, "filing a new code", err)
		return false
	}
	return true
}

// CreateCode (POST /api/v1/codes): one code, static or dynamic, from the
// app's form fields as a JSON object.
func (a *API) CreateCode(w http.ResponseWriter, r *http.Request) {
	var raw map[string]json.RawMessage
	if !respond.Decode(w, r, &raw) {
		return
	}
	if raw == nil {
		respond.Error(w, http.StatusBadRequest, "Request body must be a JSON object")
		return
	}
	a.createCode(w, r, raw)
}

// batchResult is one code's outcome in a batch: the code or the error, as
// POST /api/v1/codes would have answered them.
type batchResult struct {
	Index  int             `json:"index"`
	Status int             `json:"status"`
	Code   json.RawMessage `json:"code,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// BatchCodes (POST /api/v1/codes/batch {codes: [...]}) creates up to 1,000
// codes, each as POST /api/v1/codes would, and answers each one's outcome:
// one refused code does not stop the others.
func (a *API) BatchCodes(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Codes []map[string]json.RawMessage `json:"codes"`
	}
	if !respond.Decode(w, r, &in) {
		return
	}
	switch {
	case len(in.Codes) == 0:
		respond.FieldError(w, "codes", "codes must hold at least one code")
		return
	case len(in.Codes) > MaxBatchCodes:
		respond.FieldError(w, "codes", "A batch holds at most 1,000 codes")
		return
	}
	out := make([]batchResult, len(in.Codes))
	created := 0
	for i, raw := range in.Codes {
		if r.Context().Err() != nil {
			return // the caller has gone: stop creating
		}
		rec := &captureWriter{header: http.Header{}}
		if raw == nil {
			respond.Error(rec, http.StatusBadRequest, "Each code must be a JSON object")
		} else {
			a.createCode(rec, r, raw)
		}
		out[i] = batchResult{Index: i, Status: rec.status}
		body := json.RawMessage(bytes.TrimSpace(rec.body.Bytes()))
		if rec.status == http.StatusCreated {
			created++
			out[i].Code = body
		} else {
			out[i].Error = body
		}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"created": created, "failed": len(out) - created, "results": out})
}

// captureWriter keeps an answer instead of sending it: a batch's items.
type captureWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *captureWriter) Header() http.Header { return c.header }
func (c *captureWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}
func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(b)
}

// ListCodes (GET /api/v1/codes, the parameters of GET /api/codes): a page
// of the workspace's live codes, newest first unless sorted otherwise; a
// key limited to a folder lists that folder's.
func (a *API) ListCodes(w http.ResponseWriter, r *http.Request) {
	if folder := limitsFrom(r.Context()).FolderID; folder != nil {
		q := r.URL.Query()
		q.Set("folder", strconv.FormatInt(*folder, 10))
		r.URL.RawQuery = q.Encode()
	}
	data, next, ok := a.App.ListCodes(w, r)
	if ok {
		respond.JSON(w, http.StatusOK, map[string]any{"data": data, "nextCursor": next})
	}
}

// codePath reads the {id} path value ("s_12", "d_34") and leaves the
// number in its place for the app's handlers. On failure it has answered
// 404, as for another user's code; a key limited to a folder finds only
// the codes in it.
func (a *API) codePath(w http.ResponseWriter, r *http.Request) (string, int64, bool) {
	raw := r.PathValue("id")
	kind := map[string]string{"s_": Static, "d_": Dynamic}[raw[:min(2, len(raw))]]
	id, ok := respond.ParseID(raw[min(2, len(raw)):])
	if kind == "" || !ok {
		respond.Error(w, http.StatusNotFound, codes.MsgMissing)
		return "", 0, false
	}
	r.SetPathValue("id", strconv.FormatInt(id, 10))
	if folder := limitsFrom(r.Context()).FolderID; folder != nil {
		var in *int64
		var err error
		if kind == Dynamic {
			var d *store.DynamicCode
			if d, err = a.Store.DynamicCode(r.Context(), a.WorkspaceID(r), id); err == nil {
				in = d.FolderID
			}
		} else {
			var q *store.QRCode
			if q, err = a.Store.QRCode(r.Context(), a.WorkspaceID(r), id); err == nil {
				in = q.FolderID
			}
		}
		switch {
		case err != nil && !errors.Is(err, store.ErrNotFound):
			a.Fail(w, "reading a code", err)
			return "", 0, false
		case in == nil || *in != *folder:
			respond.Error(w, http.StatusNotFound, codes.MsgMissing)
			return "", 0, false
		}
	}
	return kind, id, true
}

// dynamicOnly answers 400 for a static code on a dynamic code's route.
func dynamicOnly(w http.ResponseWriter, kind, what string) bool {
	if kind != Dynamic {
		respond.Error(w, http.StatusBadRequest, "Only dynamic codes "+what)
		return false
	}
	return true
}

// answer answers a code (200) after a read or change, or 404/500.
func (a *API) answer(w http.ResponseWriter, q *store.QRCode, d *store.DynamicCode, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		respond.Error(w, http.StatusNotFound, codes.MsgMissing)
	case errors.Is(err, store.ErrDomainUnverified):
		respond.FieldError(w, "domainId", codes.MsgDomainUnproved)
	case errors.Is(err, store.ErrDomainNotPointing):
		respond.FieldError(w, "domainId", codes.MsgDomainNotPointing)
	case errors.Is(err, store.ErrConflict):
		respond.JSON(w, http.StatusConflict, respond.Problem{Message: codes.MsgShortCodeTaken,
			Errors: map[string]string{"shortCode": codes.MsgShortCodeTaken}, Code: codes.ShortCodeTaken})
	case errors.Is(err, store.ErrScanned):
		respond.JSON(w, http.StatusConflict, respond.Problem{Message: codes.MsgShortCodeScanned,
			Errors: map[string]string{"shortCode": codes.MsgShortCodeScanned}, Code: "scanned"})
	case err != nil:
		a.Fail(w, "reading a code", err)
	case d != nil:
		respond.JSON(w, http.StatusOK, a.App.DynamicCode(d))
	default:
		respond.JSON(w, http.StatusOK, a.App.StaticCode(q))
	}
}

// GetCode (GET /api/v1/codes/{id}).
func (a *API) GetCode(w http.ResponseWriter, r *http.Request) {
	kind, id, ok := a.codePath(w, r)
	if !ok {
		return
	}
	ctx, ws := r.Context(), a.WorkspaceID(r)
	if kind == Dynamic {
		d, err := a.Store.DynamicCode(ctx, ws, id)
		a.answer(w, nil, d, err)
		return
	}
	q, err := a.Store.QRCode(ctx, ws, id)
	a.answer(w, q, nil, err)
}

// patch is the body of PATCH /api/v1/codes/{id}, and an item of the
// batch PATCH with the code's id.
type patch struct {
	ID          string          `json:"id"`
	Name        *string         `json:"name"`
	Destination *string         `json:"destination"`
	BrandKit    *int64          `json:"brandKit"`
	DomainID    json.RawMessage `json:"domainId"`
	PageID      json.RawMessage `json:"pageId"`
	ShortCode   *string         `json:"shortCode"`
}

// check checks p for the code of kind and id (r's {id} path value, as a
// number) and answers its changes as the store's. Everything is checked
// before anything changes; on refusal it has answered.
func (a *API) check(w http.ResponseWriter, r *http.Request, kind string, id int64, p patch) (store.CodeChanges, bool) {
	c := Changes{BrandKit: p.BrandKit, DomainID: p.DomainID, PageID: p.PageID}
	if len(p.DomainID) > 0 && !dynamicOnly(w, kind, "have a domain") {
		return store.CodeChanges{}, false
	}
	if len(p.PageID) > 0 && !dynamicOnly(w, kind, "open a page") {
		return store.CodeChanges{}, false
	}
	if p.Name != nil {
		c.Name = strings.TrimSpace(*p.Name)
		if problem := codes.NameProblem(c.Name); problem != "" {
			respond.FieldError(w, "name", problem)
			return store.CodeChanges{}, false
		}
	}
	if p.ShortCode != nil {
		if !dynamicOnly(w, kind, "have a short code") {
			return store.CodeChanges{}, false
		}
		c.ShortCode = strings.TrimSpace(*p.ShortCode)
		if rf := codes.RefuseShortCode(c.ShortCode); rf != nil {
			respond.JSON(w, rf.Status, respond.Problem{Message: rf.Message, Errors: rf.Fields, Code: rf.Code})
			return store.CodeChanges{}, false
		}
	}
	if p.Destination != nil {
		if !dynamicOnly(w, kind, "have a destination") {
			return store.CodeChanges{}, false
		}
		var problem string
		if c.Destination, problem = codes.CheckDestination(*p.Destination); problem != "" {
			respond.FieldError(w, "destination", problem)
			return store.CodeChanges{}, false
		}
	}
	return a.App.Changes(w, r, kind, id, c)
}

// UpdateCode (PATCH /api/v1/codes/{id} {name?, destination?, brandKit?,
// domainId?}): renames a code, sets a dynamic code's destination and
// domain, and restyles it with a brand kit (its style and logo), with the
// app's rules; all of it in one transaction, or nothing.
func (a *API) UpdateCode(w http.ResponseWriter, r *http.Request) {
	kind, id, ok := a.codePath(w, r)
	if !ok {
		return
	}
	var p patch
	if !respond.Decode(w, r, &p) {
		return
	}
	sc, ok := a.check(w, r, kind, id, p)
	if !ok {
		return
	}
	out, err := a.Store.UpdateCodes(r.Context(), a.WorkspaceID(r), []store.CodeChanges{sc}, a.Now())
	if errors.Is(err, store.ErrConflict) {
		a.answer(w, nil, nil, err) // a short code taken meanwhile
		return
	}
	if err != nil {
		a.Fail(w, "changing a code", err)
		return
	}
	a.answer(w, out[0].Static, out[0].Dynamic, out[0].Err)
}

// BatchUpdate (PATCH /api/v1/codes/batch {items: [{id, …the fields of
// PATCH /api/v1/codes/{id}}]}) changes up to 1,000 codes, each checked as
// the single PATCH does, a hundred to a transaction, and answers each
// one's outcome in order: one refused code does not stop the others.
func (a *API) BatchUpdate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Items []*patch `json:"items"`
	}
	if !respond.Decode(w, r, &in) {
		return
	}
	switch {
	case len(in.Items) == 0:
		respond.FieldError(w, "items", "items must hold at least one change")
		return
	case len(in.Items) > MaxBatchCodes:
		respond.FieldError(w, "items", "A batch holds at most 1,000 changes")
		return
	}
	out := make([]batchResult, len(in.Items))
	ws := a.WorkspaceID(r)
	for start := 0; start < len(in.Items); start += updateChunk {
		if r.Context().Err() != nil {
			return // the caller has gone: stop changing
		}
		var changes []store.CodeChanges
		var index []int // changes[k] is item index[k]
		for i := start; i < min(start+updateChunk, len(in.Items)); i++ {
			rec := &captureWriter{header: http.Header{}}
			if sc, ok := a.checkItem(rec, r, in.Items[i]); ok {
				changes, index = append(changes, sc), append(index, i)
				continue
			}
			out[i] = batchResult{Index: i, Status: rec.status, Error: json.RawMessage(bytes.TrimSpace(rec.body.Bytes()))}
		}
		if len(changes) == 0 {
			continue
		}
		done, err := a.Store.UpdateCodes(r.Context(), ws, changes, a.Now())
		if err != nil {
			a.Fail(w, "changing codes", err)
			return
		}
		for k, u := range done {
			rec := &captureWriter{header: http.Header{}}
			a.answer(rec, u.Static, u.Dynamic, u.Err)
			res := batchResult{Index: index[k], Status: rec.status}
			if body := json.RawMessage(bytes.TrimSpace(rec.body.Bytes())); rec.status == http.StatusOK {
				res.Code = body
			} else {
				res.Error = body
			}
			out[index[k]] = res
		}
	}
	updated := 0
	for _, res := range out {
		if res.Status == http.StatusOK {
			updated++
		}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"updated": updated, "failed": len(out) - updated, "results": out})
}

// checkItem checks one item of a batch PATCH, its id included.
func (a *API) checkItem(w http.ResponseWriter, r *http.Request, p *patch) (store.CodeChanges, bool) {
	if p == nil {
		respond.Error(w, http.StatusBadRequest, "Each change must be a JSON object")
		return store.CodeChanges{}, false
	}
	r.SetPathValue("id", p.ID)
	kind, id, ok := a.codePath(w, r)
	if !ok {
		return store.CodeChanges{}, false
	}
	return a.check(w, r, kind, id, *p)
}

// DeleteCode (DELETE /api/v1/codes/{id}): the app's delete. 204.
func (a *API) DeleteCode(w http.ResponseWriter, r *http.Request) {
	a.byKind(w, r, a.App.DeleteStatic, a.App.DeleteDynamic)
}

// CodeImage (GET /api/v1/codes/{id}/image?format=png|svg|pdf|eps): the
// app's image of either kind.
func (a *API) CodeImage(w http.ResponseWriter, r *http.Request) {
	a.byKind(w, r, a.App.StaticImage, a.App.DynamicImage)
}

// byKind serves the code of the {id} path value with the app's handler of
// its kind.
func (a *API) byKind(w http.ResponseWriter, r *http.Request, static, dynamic http.HandlerFunc) {
	kind, _, ok := a.codePath(w, r)
	switch {
	case !ok:
	case kind == Dynamic:
		dynamic(w, r)
	default:
		static(w, r)
	}
}

// PauseCode (POST /api/v1/codes/{id}/pause and /resume).
func (a *API) PauseCode(paused bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		kind, id, ok := a.codePath(w, r)
		if !ok || !dynamicOnly(w, kind, "can be paused") {
			return
		}
		d, err := a.Store.SetDynamicPaused(r.Context(), a.WorkspaceID(r), id, paused, a.Now())
		a.answer(w, nil, d, err)
	}
}

// CodeAnalytics (GET /api/v1/codes/{id}/analytics) and ScansCSV (GET
// …/scans.csv): the app's, for dynamic codes (static ones are not
// tracked).
func (a *API) CodeAnalytics(w http.ResponseWriter, r *http.Request) {
	if kind, _, ok := a.codePath(w, r); ok && dynamicOnly(w, kind, "have analytics") {
		a.App.Analytics(w, r)
	}
}

func (a *API) ScansCSV(w http.ResponseWriter, r *http.Request) {
	if kind, _, ok := a.codePath(w, r); ok && dynamicOnly(w, kind, "have analytics") {
		a.App.ScansCSV(w, r)
	}
}

// SetRouting (PUT /api/v1/codes/{id}/routing): the app's routing object
// for a dynamic code, answered as the code.
func (a *API) SetRouting(w http.ResponseWriter, r *http.Request) {
	kind, _, ok := a.codePath(w, r)
	if !ok || !dynamicOnly(w, kind, "have routing") {
		return
	}
	if d, ok, err := a.App.SaveRouting(w, r); ok {
		a.answer(w, nil, d, err)
	}
}
