package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// The public REST API under /api/v1 (docs/API.md "Public API", the OpenAPI
// document in openapi.json). Callers authenticate with an API key as a
// Bearer token, never a cookie, so these routes sit outside the site's
// session and CSRF middleware. A key acts in its workspace (a client's key
// in its account's personal workspace) with the role its maker has there at
// each call, at most an editor's (store.APIKeyAccess); a maker no longer a
// member makes it invalid. Every code goes through the same checks as in
// the app.

const (
	// maxBatchCodes is the most codes one batch call creates.
	maxBatchCodes = 1000
	// idempotencyTTL is how long a first answer is replayed.
	idempotencyTTL = 24 * time.Hour
	// maxIdempotencyKey characters of an Idempotency-Key.
	maxIdempotencyKey = 255
)

// publicAPI wraps the /api/v1 routes: the client address behind a proxy,
// logging with panic recovery, the Host's white-label client, JSON answers
// for unknown routes.
func (s *server) publicAPI(v1 *http.ServeMux) http.Handler {
	h := frameDenied(apiCSP, gzipJSON(jsonFallback(v1)))
	h = s.withClient(h)
	h = s.logRequests(h)
	if s.cfg.TrustProxy {
		h = forwardedFor(h)
	}
	return h
}

// apiKeyAuth lets a request through with the workspace of its Bearer key,
// counted against the key's rate limit (RateLimit-* headers on every
// answer, 429 past it). POSTs then go through idempotent.
func (s *server) apiKeyAuth(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="squarely"`)
			writeError(w, http.StatusUnauthorized, "Missing API key: send Authorization: Bearer sq_…")
			return
		}
		// The key is looked up before any limiter: a valid key works
		// whatever else comes from its address (failed logins, bad keys).
		// Keys are 238 random bits, so the lookup cannot be guessed into;
		// invalid keys are counted per address on their own, to bound the
		// lookups of a key-guessing client.
		hash := hashAPIKey(key)
		access, err := (*store.APIKeyAccess)(nil), store.ErrNotFound
		if strings.HasPrefix(key, apiKeyPrefix) {
			access, err = s.store.APIKeyAccess(r.Context(), hash)
		}
		if errors.Is(err, store.ErrNotFound) {
			if !s.badKeys.take(w, clientKey(r), "Too many invalid API keys. Please try again later.") {
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="squarely", error="invalid_token"`)
			writeError(w, http.StatusUnauthorized, "Invalid API key")
			return
		}
		if err != nil {
			s.internalError(w, "checking an API key", err)
			return
		}
		allowed, remaining, reset, err := s.apiCalls.takeQuota(hash)
		if err != nil {
			s.internalError(w, "counting an API call", err)
			return
		}
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(s.cfg.APIRateLimit))
		h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("RateLimit-Reset", strconv.Itoa(int((reset+time.Second-1)/time.Second)))
		if !allowed {
			tooMany(w, reset, fmt.Sprintf("Rate limit of %d requests per minute exceeded", s.cfg.APIRateLimit))
			return
		}
		// The key acts in its workspace; the audit log names the key.
		r = r.WithContext(auth.WithUser(r.Context(), access.User))
		r = withWorkspace(r, access.Workspace, store.Actor{Type: "api_key", ID: access.KeyID, Email: access.User.Username})
		if r.Method == http.MethodPost {
			s.idempotent(w, r, hash, next)
			return
		}
		next(w, r)
	})
}

// takeQuota counts a call by key, as take does, and reports whether it is
// within the limit, the calls left in the window, and how long until the
// window ends: what the RateLimit headers tell a client.
func (l *limiter) takeQuota(key string) (allowed bool, remaining int, reset time.Duration, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), limiterTimeout)
	defer cancel()
	now := l.now()
	start := now.Truncate(l.window)
	l.sweep(ctx, start)
	n, err := l.store.CountAttempt(ctx, l.name, key, start)
	if err != nil {
		return false, 0, 0, err
	}
	return n <= l.limit, max(l.limit-n, 0), start.Add(l.window).Sub(now), nil
}

// idempotent runs a POST once per Idempotency-Key (per API key): a repeat
// with the same method, path and body gets the first answer back and
// changes nothing; the same key with another request is 422, and a repeat
// while the first still runs is 409. Answers of 500 and up are not kept,
// so a retry runs again. Without the header the request just runs.
func (s *server) idempotent(w http.ResponseWriter, r *http.Request, keyHash string, next http.HandlerFunc) {
	idem := r.Header.Get("Idempotency-Key")
	if idem == "" {
		next(w, r)
		return
	}
	if len(idem) > maxIdempotencyKey || strings.ContainsFunc(idem, func(c rune) bool { return c < 0x21 || c > 0x7e }) {
		writeError(w, http.StatusBadRequest, "Idempotency-Key must be 1 to 255 printable ASCII characters")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "Request body too large")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
	requestHash := hex.EncodeToString(sum[:])

	prev, err := s.store.BeginIdempotent(r.Context(), keyHash, idem, requestHash, s.now(), idempotencyTTL)
	if err != nil {
		s.internalError(w, "claiming an idempotency key", err)
		return
	}
	switch {
	case prev == nil:
	case prev.RequestHash != requestHash:
		writeError(w, http.StatusUnprocessableEntity, "This Idempotency-Key was already used with a different request")
		return
	case prev.Status == 0:
		writeError(w, http.StatusConflict, "A request with this Idempotency-Key is still in progress")
		return
	default:
		w.Header().Set("Idempotent-Replayed", "true")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(prev.Status)
		io.WriteString(w, prev.Body)
		return
	}

	rec := &teeWriter{ResponseWriter: w}
	next(rec, r)
	// The answer is out; record it even if the client has gone.
	ctx := context.WithoutCancel(r.Context())
	if rec.status == 0 || rec.status >= 500 {
		err = s.store.AbandonIdempotent(ctx, keyHash, idem)
	} else {
		err = s.store.FinishIdempotent(ctx, keyHash, idem, rec.status, rec.body.String())
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "recording an idempotent answer", "err", err)
	}
}

// teeWriter passes an answer on and keeps a copy of its status and body.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *teeWriter) WriteHeader(status int) {
	if t.status == 0 {
		t.status = status
	}
	t.ResponseWriter.WriteHeader(status)
}

func (t *teeWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.body.Write(b)
	return t.ResponseWriter.Write(b)
}

// apiCode is the one resource for both kinds of code.
type apiCode struct {
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
	Tags          []tagJSON  `json:"tags"`
	FolderID      *int64     `json:"folderId"`
	// DomainID is a dynamic code's custom domain (domains.go), null for
	// the base URL; static codes leave it out.
	DomainID any `json:"domainId,omitempty"`
	// Routing is a dynamic code's smart routing, null when unset; static
	// codes leave it out.
	Routing any `json:"routing,omitempty"`
	// Health and AlertsMuted are a dynamic code's link checks and whether
	// its alerts are muted (alerts.go); static codes leave them out.
	Health      *healthJSON `json:"health,omitempty"`
	AlertsMuted *bool       `json:"alertsMuted,omitempty"`
}

const (
	kindStatic  = "static"
	kindDynamic = "dynamic"
)

func staticAPICode(q *store.QRCode) apiCode {
	v := qrCodeJSON(q)
	return apiCode{
		ID: "s_" + strconv.FormatInt(q.ID, 10), Kind: kindStatic, Name: v.Name, QRType: v.QRType, Data: v.Data,
		QRData: v.QRData, Style: v.Style, LogoFilePath: v.LogoFilePath, CreatedAt: v.CreatedAt,
		Tags: v.Tags, FolderID: v.FolderID,
	}
}

func (s *server) dynamicAPICode(d *store.DynamicCode) apiCode {
	v := s.dynamicJSON(d)
	return apiCode{
		ID: "d_" + strconv.FormatInt(d.ID, 10), Kind: kindDynamic, Name: v.Name, QRType: v.QRType, Data: v.ShortURL,
		QRData: v.QRData, Style: v.Style, LogoFilePath: v.LogoFilePath,
		Destination: v.Destination, ShortCode: v.ShortCode, URL: v.ShortURL,
		ScanCount: v.ScanCount, IsPaused: v.IsPaused, LastScannedAt: v.LastScannedAt, CreatedAt: v.CreatedAt,
		Tags: v.Tags, FolderID: v.FolderID, DomainID: idOrNull(d.DomainID),
		Routing: routingOrNull(v.Routing), Health: &v.Health, AlertsMuted: &v.AlertsMuted,
	}
}

// idOrNull shows an unset id as null rather than leaving it out.
func idOrNull(id *int64) any {
	if id == nil {
		return json.RawMessage("null")
	}
	return *id
}

// routingOrNull shows an unset routing as null rather than leaving it out.
func routingOrNull(rt *store.Routing) any {
	if rt == nil {
		return json.RawMessage("null")
	}
	return rt
}

// codeFields turns a JSON code description into the app's form values:
// strings as they are, numbers as written, booleans as true/false, and
// qrData (an object) as its JSON text. It returns the kind, or why the
// description is refused (400).
func codeFields(raw map[string]json.RawMessage) (string, map[string]string, *apiError) {
	values := map[string]string{}
	kind := kindStatic
	for k, v := range raw {
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			return "", nil, &apiError{Message: "Malformed JSON body"}
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
		if len(text) > maxFormValue {
			return "", nil, fieldProblem(k, k+" is too long")
		}
		if k == "kind" {
			kind = text
			continue
		}
		values[k] = text
	}
	if kind != kindStatic && kind != kindDynamic {
		return "", nil, fieldProblem("kind", "kind must be static or dynamic")
	}
	return kind, values, nil
}

func fieldProblem(field, msg string) *apiError {
	return &apiError{Message: msg, Errors: map[string]string{field: msg}}
}

// createCode makes one code from its JSON description and answers it (201)
// or the reason it was refused.
func (s *server) createCode(w http.ResponseWriter, r *http.Request, raw map[string]json.RawMessage) {
	kind, values, problem := codeFields(raw)
	if problem != nil {
		writeJSON(w, http.StatusBadRequest, problem)
		return
	}
	if kind == kindDynamic {
		if d, ok := s.saveDynamicCode(w, r, values, nil); ok {
			writeJSON(w, http.StatusCreated, s.dynamicAPICode(d))
		}
		return
	}
	if q, ok := s.saveStaticCode(w, r, values, nil, nil); ok {
		writeJSON(w, http.StatusCreated, staticAPICode(q))
	}
}

// v1CreateCode (POST /api/v1/codes): one code, static or dynamic, from the
// app's form fields as a JSON object.
func (s *server) v1CreateCode(w http.ResponseWriter, r *http.Request) {
	var raw map[string]json.RawMessage
	if !decodeJSON(w, r, &raw) {
		return
	}
	if raw == nil {
		writeError(w, http.StatusBadRequest, "Request body must be a JSON object")
		return
	}
	s.createCode(w, r, raw)
}

// batchResult is one code's outcome in a batch.
type batchResult struct {
	Index  int       `json:"index"`
	Status int       `json:"status"`
	Code   *apiCode  `json:"code,omitempty"`
	Error  *apiError `json:"error,omitempty"`
}

// v1BatchCodes (POST /api/v1/codes/batch {codes: [...]}) creates up to
// 1,000 codes, each as POST /api/v1/codes would, and answers each one's
// outcome: one refused code does not stop the others.
func (s *server) v1BatchCodes(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Codes []map[string]json.RawMessage `json:"codes"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	switch {
	case len(in.Codes) == 0:
		fieldError(w, "codes", "codes must hold at least one code")
		return
	case len(in.Codes) > maxBatchCodes:
		fieldError(w, "codes", "A batch holds at most 1,000 codes")
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
			writeError(rec, http.StatusBadRequest, "Each code must be a JSON object")
		} else {
			s.createCode(rec, r, raw)
		}
		out[i] = batchResult{Index: i, Status: rec.status}
		if rec.status == http.StatusCreated {
			created++
			out[i].Code = new(apiCode)
			json.Unmarshal(rec.body.Bytes(), out[i].Code)
		} else {
			out[i].Error = new(apiError)
			json.Unmarshal(rec.body.Bytes(), out[i].Error)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"created": created, "failed": len(out) - created, "results": out})
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

// v1ListCodes (GET /api/v1/codes, the parameters of GET /api/codes): a
// page of the workspace's live codes, newest first unless sorted otherwise.
func (s *server) v1ListCodes(w http.ResponseWriter, r *http.Request) {
	data, next, ok := listPage(s, w, r, staticAPICode, s.dynamicAPICode)
	if ok {
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "nextCursor": next})
	}
}

// codePath reads the {id} path value ("s_12", "d_34"). On failure it has
// answered 404, as for another user's code.
func codePath(w http.ResponseWriter, r *http.Request) (string, int64, bool) {
	raw := r.PathValue("id")
	kind := map[string]string{"s_": kindStatic, "d_": kindDynamic}[raw[:min(2, len(raw))]]
	id, ok := parseID(raw[min(2, len(raw)):])
	if kind == "" || !ok {
		writeError(w, http.StatusNotFound, msgCodeMissing)
		return "", 0, false
	}
	// The app's handlers, reused below, read the number.
	r.SetPathValue("id", strconv.FormatInt(id, 10))
	return kind, id, true
}

// dynamicOnly answers 400 for a static code on a dynamic code's route.
func dynamicOnly(w http.ResponseWriter, kind, what string) bool {
	if kind != kindDynamic {
		writeError(w, http.StatusBadRequest, "Only dynamic codes "+what)
		return false
	}
	return true
}

// answerAPICode answers a code (200) after a read or change, or 404/500.
func (s *server) answerAPICode(w http.ResponseWriter, q *store.QRCode, d *store.DynamicCode, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgCodeMissing)
	case err != nil:
		s.internalError(w, "reading a code", err)
	case d != nil:
		writeJSON(w, http.StatusOK, s.dynamicAPICode(d))
	default:
		writeJSON(w, http.StatusOK, staticAPICode(q))
	}
}

// v1GetCode (GET /api/v1/codes/{id}).
func (s *server) v1GetCode(w http.ResponseWriter, r *http.Request) {
	kind, id, ok := codePath(w, r)
	if !ok {
		return
	}
	ctx, uid := r.Context(), wsID(r)
	if kind == kindDynamic {
		d, err := s.store.DynamicCode(ctx, uid, id)
		s.answerAPICode(w, nil, d, err)
		return
	}
	q, err := s.store.QRCode(ctx, uid, id)
	s.answerAPICode(w, q, nil, err)
}

// v1UpdateCode (PATCH /api/v1/codes/{id} {name?, destination?,
// brandKit?, domainId?}): renames a code, sets a dynamic code's destination
// and domain, and restyles it with a brand kit (its style and logo), with
// the app's rules.
// Everything is checked before anything changes.
func (s *server) v1UpdateCode(w http.ResponseWriter, r *http.Request) {
	kind, id, ok := codePath(w, r)
	if !ok {
		return
	}
	var in struct {
		Name        *string         `json:"name"`
		Destination *string         `json:"destination"`
		BrandKit    *int64          `json:"brandKit"`
		DomainID    json.RawMessage `json:"domainId"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	domainID, setDomain, ok := readDomainID(w, in.DomainID)
	if !ok || (setDomain && !dynamicOnly(w, kind, "have a domain")) {
		return
	}
	var restyle *newStyle
	if in.BrandKit != nil {
		if restyle, ok = s.kitRestyle(w, r, kind, *in.BrandKit); !ok {
			return
		}
	}
	var name, dest string
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
		if problem := codes.NameProblem(name); problem != "" {
			fieldError(w, "name", problem)
			return
		}
	}
	if in.Destination != nil {
		if !dynamicOnly(w, kind, "have a destination") {
			return
		}
		var problem string
		if dest, problem = codes.CheckDestination(*in.Destination); problem != "" {
			fieldError(w, "destination", problem)
			return
		}
	}
	ctx, uid, now := r.Context(), wsID(r), s.now()
	if kind == kindStatic {
		var q *store.QRCode
		var err error
		if name != "" {
			q, err = s.store.RenameQRCode(ctx, uid, id, name)
		} else {
			q, err = s.store.QRCode(ctx, uid, id)
		}
		if err == nil && restyle != nil {
			st, ok := s.columns(w, r, restyle)
			if !ok {
				return
			}
			q, err = s.store.SetQRCodeStyle(ctx, uid, id, st)
		}
		s.answerAPICode(w, q, nil, err)
		return
	}
	d, err := s.store.DynamicCode(ctx, uid, id)
	if err == nil && setDomain {
		if d, err = s.setCodeDomain(ctx, uid, id, domainID); answerDomainRefused(w, err) {
			return
		}
	}
	if err == nil && name != "" {
		d, err = s.store.RenameDynamicCode(ctx, uid, id, name, now)
	}
	if err == nil && restyle != nil {
		st, ok := s.columns(w, r, restyle)
		if !ok {
			return
		}
		d, err = s.store.SetDynamicStyle(ctx, uid, id, st, now)
	}
	if err == nil && dest != "" {
		d, err = s.store.SetDynamicDestination(ctx, uid, id, dest, now)
	}
	s.answerAPICode(w, nil, d, err)
}

// kitRestyle is the code of the {id} path value (of kind) styled with the
// workspace's brand kit id, drawn once to check that it scans. On failure
// it has answered.
func (s *server) kitRestyle(w http.ResponseWriter, r *http.Request, kind string, id int64) (*newStyle, bool) {
	var t restyleTarget
	var ok bool
	if kind == kindDynamic {
		_, t, ok = s.dynamicTarget(w, r)
	} else {
		_, t, ok = s.staticTarget(w, r)
	}
	if !ok {
		return nil, false
	}
	k, st, ok := s.workspaceKit(w, r, strconv.FormatInt(id, 10))
	if !ok {
		return nil, false
	}
	ns := &newStyle{style: st, level: t.level}
	return ns, s.drawNewStyle(w, r, t, ns, k.LogoID, codes.PreviewPixels)
}

// v1DeleteCode (DELETE /api/v1/codes/{id}): the app's delete. 204.
func (s *server) v1DeleteCode(w http.ResponseWriter, r *http.Request) {
	kind, _, ok := codePath(w, r)
	if !ok {
		return
	}
	if kind == kindDynamic {
		s.deleteDynamicCode(w, r)
		return
	}
	s.deleteQRCode(w, r)
}

// v1PauseCode (POST /api/v1/codes/{id}/pause and /resume).
func (s *server) v1PauseCode(paused bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		kind, id, ok := codePath(w, r)
		if !ok || !dynamicOnly(w, kind, "can be paused") {
			return
		}
		d, err := s.store.SetDynamicPaused(r.Context(), wsID(r), id, paused, s.now())
		s.answerAPICode(w, nil, d, err)
	}
}

// v1CodeImage (GET /api/v1/codes/{id}/image?format=png|svg|pdf|eps): the app's
// image of either kind.
func (s *server) v1CodeImage(w http.ResponseWriter, r *http.Request) {
	kind, _, ok := codePath(w, r)
	if !ok {
		return
	}
	if kind == kindDynamic {
		s.dynamicCodeImage(w, r)
		return
	}
	s.qrCodeImage(w, r)
}

// v1CodeAnalytics (GET /api/v1/codes/{id}/analytics) and v1ScansCSV
// (GET …/scans.csv): the app's, for dynamic codes (static ones are not
// tracked).
func (s *server) v1CodeAnalytics(w http.ResponseWriter, r *http.Request) {
	if kind, _, ok := codePath(w, r); ok && dynamicOnly(w, kind, "have analytics") {
		s.codeAnalytics(w, r)
	}
}

func (s *server) v1ScansCSV(w http.ResponseWriter, r *http.Request) {
	if kind, _, ok := codePath(w, r); ok && dynamicOnly(w, kind, "have analytics") {
		s.scansCSV(w, r)
	}
}
