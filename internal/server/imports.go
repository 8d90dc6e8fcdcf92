package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/imports"
	"github.com/squarely/squarely/internal/store"
)

// Imports (issue 34 item 3, package imports): another shortener's links
// become the workspace's dynamic codes with their short codes, after a
// dry run that says what will be created, what conflicts and what is
// already there.

const (
	msgImportMissing = "Import not found"
	// importItemsShown bounds the items an answer lists.
	importItemsShown = 1000
)

// importItemJSON is one link of a dry run or a job.
type importItemJSON struct {
	Row         int        `json:"row"`
	ShortCode   string     `json:"shortCode"`
	Destination string     `json:"destination"`
	Title       string     `json:"title"`
	Tags        []string   `json:"tags"`
	Clicks      int64      `json:"clicks"` // at the source: a baseline, not Squarely's scans
	CreatedAt   *time.Time `json:"createdAt"`
	Status      string     `json:"status"` // pending (dry run: create), created, exists, conflict, failed
	Reason      string     `json:"reason,omitempty"`
	CodeID      *int64     `json:"codeId,omitempty"`
}

func importItemView(it store.ImportItem) importItemJSON {
	tags := it.Tags
	if tags == nil {
		tags = []string{}
	}
	return importItemJSON{Row: it.Row, ShortCode: it.ShortCode, Destination: it.Destination, Title: it.Title, Tags: tags,
		Clicks: it.Clicks, CreatedAt: it.CreatedAt, Status: it.Status, Reason: it.Error, CodeID: it.CodeID}
}

// createImport (POST /api/imports, editors): JSON {"source": "kutt" |
// "shlink" | "yourls" | "dub" | "bitly",
// "baseUrl", "apiKey", "domainId"?, "dryRun"?, "oldBaseUrl"?} reads the
// links from the service's API; multipart with file, source
// (csv|bitly-csv|dub-csv), oldBaseUrl, dryRun and domainId reads a CSV
// file. A dry run answers 200 with every link's fate; otherwise 202 with
// the job, which a runner carries out.
func (s *server) createImport(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var source, oldBase, rawDomain string
	var dryRun bool
	var links []imports.Link
	var err error
	var fetch func() ([]imports.Link, error) // a service's links
	var baseURL string
	ctx := r.Context()
	if mt == "multipart/form-data" {
		form := readMultipart(w, r, "file", imports.MaxFile, "The CSV file is over 32 MB")
		if form == nil {
			return
		}
		source, oldBase, rawDomain = strings.TrimSpace(form.get("source")), strings.TrimSpace(form.get("oldBaseUrl")), strings.TrimSpace(form.get("domainId"))
		if dryRun, err = codes.FormBool(form.get("dryRun")); err != nil {
			fieldError(w, "dryRun", "dryRun must be true or false")
			return
		}
		if !slices.Contains(imports.CSVSources, source) {
			fieldError(w, "source", "A file's source must be csv, bitly-csv or dub-csv")
			return
		}
		if form.file == nil {
			fieldError(w, "file", "Please choose the CSV file of links")
			return
		}
		links, err = imports.ReadCSV(bytes.NewReader(form.file.Data), source)
	} else {
		var in struct {
			Source     string          `json:"source"`
			BaseURL    string          `json:"baseUrl"`
			APIKey     string          `json:"apiKey"`
			DomainID   json.RawMessage `json:"domainId"`
			DryRun     bool            `json:"dryRun"`
			OldBaseURL string          `json:"oldBaseUrl"`
		}
		if !decodeJSON(w, r, &in) {
			return
		}
		source, oldBase, dryRun = strings.TrimSpace(in.Source), strings.TrimSpace(in.OldBaseURL), in.DryRun
		if len(in.DomainID) > 0 && string(in.DomainID) != "null" {
			rawDomain = strings.Trim(string(in.DomainID), `"`)
		}
		switch {
		case slices.Contains(imports.CSVSources, source):
			fieldError(w, "source", "A CSV import is a multipart upload with the file")
			return
		case !slices.Contains(imports.APISources, source):
			fieldError(w, "source", "source must be one of "+strings.Join(append(append([]string{}, imports.APISources...), imports.CSVSources...), ", "))
			return
		case strings.TrimSpace(in.APIKey) == "":
			fieldError(w, "apiKey", "apiKey is required")
			return
		}
		fetch = func() ([]imports.Link, error) {
			// The key is used for this request only and never stored.
			return s.importClient().Fetch(ctx, source, in.BaseURL, strings.TrimSpace(in.APIKey))
		}
		baseURL = strings.TrimSpace(in.BaseURL)
	}
	refused := func(err error) bool {
		var rf *imports.Refused
		switch {
		case errors.As(err, &rf):
			field := "file"
			if mt != "multipart/form-data" {
				field = "baseUrl"
			}
			fieldError(w, field, rf.Message)
			return true
		case err != nil:
			s.internalError(w, "reading links to import", err)
			return true
		}
		return false
	}
	oldBaseOK := func(u string) bool {
		if _, problem := codes.CheckDestination(u); problem != "" {
			fieldError(w, "oldBaseUrl", "oldBaseUrl must be the old short host's URL, such as https://bit.ly")
			return false
		}
		return true
	}
	if refused(err) {
		return
	}
	// What the request names is checked before a service is asked anything.
	if oldBase != "" && !oldBaseOK(oldBase) {
		return
	}
	var domain *store.Domain
	if rawDomain != "" {
		id, err := strconv.ParseInt(rawDomain, 10, 64)
		if err != nil || id <= 0 {
			fieldError(w, "domainId", codes.MsgDomainID)
			return
		}
		if domain, err = s.codeDomain(ctx, wsID(r), id); answerDomainRefused(w, err) {
			return
		} else if err != nil {
			s.internalError(w, "reading a domain", err)
			return
		}
	}
	if fetch != nil {
		if links, err = fetch(); refused(err) {
			return
		}
		if oldBase == "" {
			if oldBase = shortHost(links, baseURL); oldBase != "" && !oldBaseOK(oldBase) {
				return
			}
		}
	}
	items, err := s.planImport(ctx, wsID(r), domain, links)
	if err != nil {
		s.internalError(w, "checking links to import", err)
		return
	}
	if dryRun {
		counts := map[string]int{}
		shown := make([]importItemJSON, 0, min(len(items), importItemsShown))
		for _, it := range items {
			counts[it.Status]++
			if len(shown) < importItemsShown {
				shown = append(shown, importItemView(it))
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"dryRun": true, "source": source, "total": len(items),
			"create": counts[store.ImportPending], "conflicts": counts[store.ImportConflict], "skip": counts[store.ImportExists], "items": shown})
		return
	}
	ws := workspaceFrom(ctx)
	j := &store.ImportJob{WorkspaceID: ws.ID, UserID: auth.UserFrom(ctx).ID, Source: source, OldBaseURL: oldBase, DynamicLimit: s.dynamicLimit(ws)}
	if domain != nil {
		j.DomainID = &domain.ID
	}
	if err := s.store.CreateImportJob(ctx, j, items, s.now()); err != nil {
		s.internalError(w, "saving an import", err)
		return
	}
	s.imports.Wake()
	s.answerImport(w, r, j.ID, http.StatusAccepted)
}

// shortHost is where the links' short URLs live at their source, the
// first short URL without its short code (an API's host is often not its
// links': api-ssl.bitly.com, bit.ly), or baseURL when they say none.
func shortHost(links []imports.Link, baseURL string) string {
	for _, l := range links {
		u, err := url.Parse(l.ShortURL)
		if err == nil && u.Host != "" && (u.Scheme == "https" || u.Scheme == "http") && l.ShortCode != "" &&
			strings.HasSuffix(u.Path, "/"+l.ShortCode) && u.RawQuery == "" {
			return strings.TrimSuffix(l.ShortURL, "/"+l.ShortCode)
		}
	}
	return baseURL
}

// importClient reads other services' APIs under the webhook address rules.
func (s *server) importClient() *imports.Client {
	return &imports.Client{Policy: WebhookPolicy(s.cfg), Timeout: 20 * time.Second, Tries: 3}
}

// planImport checks each link against the workspace and the host its
// codes will print: pending (to create), exists (the workspace has this
// short code to this destination: skipped, so a re-run creates nothing)
// or conflict, with why.
func (s *server) planImport(ctx context.Context, ws int64, domain *store.Domain, links []imports.Link) ([]store.ImportItem, error) {
	var domainID *int64
	if domain != nil {
		domainID = &domain.ID
	}
	// A link without a short code is already there when the workspace has
	// a code to its destination under its title.
	existing := map[string]int64{}
	for _, paused := range []bool{false, true} {
		list, err := s.store.DynamicCodes(ctx, ws, paused)
		if err != nil {
			return nil, err
		}
		for _, d := range list {
			existing[d.Destination+"\x00"+d.Name] = d.ID
		}
	}
	seen := map[string]bool{}
	items := make([]store.ImportItem, len(links))
	for i, l := range links {
		notText := l.Clean()
		it := store.ImportItem{Row: i + 1, ShortCode: l.ShortCode, Destination: l.Destination, Title: l.Title, Tags: l.Tags,
			CreatedAt: l.CreatedAt, Clicks: l.Clicks, Status: store.ImportPending}
		items[i] = it
		conflict := func(why string) { items[i].Status, items[i].Error = store.ImportConflict, why }
		if notText != "" {
			conflict(notText)
			continue
		}
		dest, problem := codes.CheckDestination(l.Destination)
		if problem != "" {
			conflict("Destination: " + problem)
			continue
		}
		items[i].Destination = dest
		if problem := codes.NameProblem(l.Title); problem != "" {
			conflict("Title: " + problem)
			continue
		}
		if l.ShortCode == "" {
			if id, ok := existing[dest+"\x00"+l.Title]; ok && l.Title != "" {
				items[i].Status, items[i].Error, items[i].CodeID = store.ImportExists, "Already in this workspace", &id
			}
			continue // a random one
		}
		if problem := codes.CheckShortCode(l.ShortCode); problem != "" {
			conflict(problem)
			continue
		}
		key := strings.ToLower(l.ShortCode)
		if seen[key] {
			conflict("This short code appears twice in the import")
			continue
		}
		seen[key] = true
		// The workspace's code with this short code on the import's host
		// (other hosts' do not count: each answers its own).
		list, err := s.store.DynamicCodesByShortCode(ctx, ws, l.ShortCode)
		if err != nil {
			return nil, err
		}
		switch d := store.CodeOnHost(list, domainID); {
		case d != nil && d.Destination == dest:
			items[i].Status, items[i].Error, items[i].CodeID = store.ImportExists, "Already in this workspace", &d.ID
			continue
		case d != nil:
			conflict("This workspace already has this short code, to " + d.Destination)
			continue
		}
		taken, err := s.store.ShortCodeTaken(ctx, l.ShortCode, domainID)
		if err != nil {
			return nil, err
		}
		if taken {
			conflict(codes.MsgShortCodeTaken)
		}
	}
	return items, nil
}

// importLink creates the code of a pending item of job j (imports.Create):
// through codes.Creator.Prepare and the store's creation, as bulk rows are.
// A chosen short code the store finds taken by this same link (a run that
// stopped between the code and the item) is that link: created once.
func (s *server) importLink(ctx context.Context, j *store.ImportJob, it store.ImportItem) (store.ImportItem, error) {
	u, err := s.store.User(ctx, j.UserID)
	if err != nil {
		return it, err
	}
	ctx = store.WithActor(ctx, store.Actor{Type: "user", ID: u.ID, Email: u.Username})
	var domain *store.Domain
	if j.DomainID != nil {
		if domain, err = s.store.Domain(ctx, j.WorkspaceID, *j.DomainID); err != nil {
			return it, err
		}
	}
	req := codes.Request{Kind: codes.Dynamic, QRType: "url", Destination: it.Destination, Name: it.Title, ShortCode: it.ShortCode,
		Level: codes.DynamicLevel, Row: true, Domain: domain}
	p, err := s.creator.Prepare(ctx, req, codes.Caller{User: u, WorkspaceID: j.WorkspaceID, ClientID: store.DefaultClientID})
	if rf, ok := codes.AsRefused(err); ok {
		it.Status, it.Error = store.ImportFailedIt, rf.Message
		return it, nil
	}
	if err != nil {
		return it, err
	}
	d := p.DynamicCode()
	d.WorkspaceID, d.UserID, d.CreatedAt, d.ImportedClicks = j.WorkspaceID, u.ID, s.now(), it.Clicks
	if it.CreatedAt != nil {
		d.CreatedAt = *it.CreatedAt
	}
	for try := 1; ; try++ {
		if !d.ShortCodeChosen {
			d.ShortCode = store.NewShortCode()
		}
		err = s.store.CreateDynamicCode(ctx, d, j.DynamicLimit)
		if d.ShortCodeChosen || !errors.Is(err, store.ErrConflict) || try == shortCodeTries {
			break
		}
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		list, err := s.store.DynamicCodesByShortCode(ctx, j.WorkspaceID, it.ShortCode)
		if err != nil {
			return it, err
		}
		if same := store.CodeOnHost(list, j.DomainID); same != nil && same.Destination == it.Destination {
			it.Status, it.CodeID = store.ImportCreated, &same.ID
			return it, nil
		}
		it.Status, it.Error = store.ImportConflict, codes.MsgShortCodeTaken
		return it, nil
	case errors.Is(err, store.ErrLimit):
		it.Status, it.Error = store.ImportFailedIt, s.limitMessage()
		return it, nil
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDomainUnverified):
		it.Status, it.Error = store.ImportFailedIt, msgDomainUnproved
		return it, nil
	case errors.Is(err, store.ErrDomainNotPointing):
		it.Status, it.Error = store.ImportFailedIt, codes.MsgDomainNotPointing
		return it, nil
	case err != nil:
		return it, err
	}
	if len(it.Tags) > 0 {
		ids, err := s.tagIDsByName(ctx, j.WorkspaceID, it.Tags)
		var crf *compatRefusal
		switch {
		case errors.As(err, &crf):
			// The link is there; its tags are not: said on the item.
			it.Error = crf.msg
		case err != nil:
			return it, err
		default:
			if err := s.store.SetCodeTags(ctx, j.WorkspaceID, true, d.ID, ids); err != nil {
				return it, err
			}
		}
	}
	it.Status, it.CodeID = store.ImportCreated, &d.ID
	return it, nil
}

// answerImport answers the workspace's import id with status.
func (s *server) answerImport(w http.ResponseWriter, r *http.Request, id int64, status int) {
	j, err := s.store.ImportJob(r.Context(), wsID(r), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgImportMissing)
		return
	}
	if err != nil {
		s.internalError(w, "reading an import", err)
		return
	}
	items, err := s.store.ImportItems(r.Context(), j.ID, 0, importItemsShown, "")
	if err != nil {
		s.internalError(w, "reading an import", err)
		return
	}
	shown := make([]importItemJSON, 0, len(items))
	for _, it := range items {
		shown = append(shown, importItemView(it))
	}
	done := j.Total - j.Counts[store.ImportPending]
	progress := 100
	if j.Total > 0 {
		progress = done * 100 / j.Total
	}
	checked, same, different, err := s.store.ImportChecks(r.Context(), j.ID, importItemsShown)
	if err != nil {
		s.internalError(w, "reading an import", err)
		return
	}
	diffs := make([]map[string]string, 0, len(different))
	for _, c := range different {
		diffs = append(diffs, map[string]string{"shortCode": c.ShortCode, "old": c.Old, "new": c.New})
	}
	running := j.CheckStatus == store.CheckQueued || j.CheckStatus == store.CheckRunning
	check := map[string]any{"checked": checked, "same": same, "different": diffs, "running": running,
		"ready": checked > 0 && checked == same && !running && checked == j.Counts[store.ImportCreated]+j.Counts[store.ImportExists]}
	writeJSON(w, status, map[string]any{
		"check": check, "checked": checked, "same": same, "different": diffs,
		"id": j.ID, "source": j.Source, "status": j.Status, "domainId": j.DomainID, "domain": j.Domain, "oldBaseUrl": j.OldBaseURL,
		"total": j.Total, "progress": progress, "created": j.Counts[store.ImportCreated], "skipped": j.Counts[store.ImportExists],
		"conflicts": j.Counts[store.ImportConflict], "failed": j.Counts[store.ImportFailedIt], "pending": j.Counts[store.ImportPending],
		"error": j.Error, "createdAt": j.CreatedAt, "updatedAt": j.UpdatedAt, "items": shown,
	})
}

// getImport (GET /api/imports/{id}): the job, its counts and progress.
func (s *server) getImport(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgImportMissing)
	if !ok {
		return
	}
	s.answerImport(w, r, id, http.StatusOK)
}

// verifyImport (POST /api/imports/{id}/verify, editors): the switch
// check. Each imported link's old short URL ({oldBaseUrl}/{shortCode}) is
// requested through netguard, one request at a time, redirects not
// followed, and the same path is asked of Squarely (in-process, HEAD: not
// counted as a scan) on the job's domain, which is to take over the old
// host (without a domain, /d/{shortCode} on the base URL). Two answers are
// the same when both redirect to the same Location, or share their status
// otherwise. 202: the check is queued for the import runner, which holds
// it under a lease (resumed on another instance after a restart), and
// checkLink compares each link; GET /api/imports/{id} reports {"checked",
// "same", "different": [{"shortCode", "old", "new"}]}. 409 while one is
// queued or runs.
func (s *server) verifyImport(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgImportMissing)
	if !ok {
		return
	}
	j, err := s.store.ImportJob(r.Context(), wsID(r), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgImportMissing)
		return
	case err != nil:
		s.internalError(w, "reading an import", err)
		return
	case j.OldBaseURL == "":
		fieldError(w, "oldBaseUrl", "This import has no oldBaseUrl: the old short host to compare with")
		return
	case j.Status != store.ImportDone:
		writeError(w, http.StatusConflict, "The import is still running: check once it is done")
		return
	}
	if err := s.store.StartImportCheck(r.Context(), j.ID); errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, "A switch check of this import is already running")
		return
	} else if err != nil {
		s.internalError(w, "starting a switch check", err)
		return
	}
	s.imports.Wake()
	s.answerImport(w, r, j.ID, http.StatusAccepted)
}

// checkLink compares imported link it of j (imports.Check): its old short
// URL, {oldBaseUrl}/{shortCode}, requested through netguard once, with
// Squarely's answer to the same path. A failed old request is a
// difference, unless the runner is stopping (then it is tried again).
func (s *server) checkLink(ctx context.Context, j *store.ImportJob, it store.ImportItem) (store.ImportCheck, error) {
	client := s.importClient()
	client.Tries = 1
	status, loc, err := client.Probe(ctx, strings.TrimSuffix(j.OldBaseURL, "/")+"/"+it.ShortCode)
	if ctx.Err() != nil {
		return store.ImportCheck{}, ctx.Err()
	}
	old := answerText(status, loc)
	if err != nil {
		old = "error: " + err.Error()
	}
	newStatus, newLoc := s.ownAnswer(ctx, j, it.ShortCode)
	c := store.ImportCheck{Row: it.Row, ShortCode: it.ShortCode, Old: old, New: answerText(newStatus, newLoc)}
	c.Same = err == nil && (isRedirect(status) && isRedirect(newStatus) && loc == newLoc || !isRedirect(status) && status == newStatus)
	return c, nil
}

func isRedirect(status int) bool { return status >= 300 && status < 400 }

func answerText(status int, loc string) string {
	if loc == "" {
		return strconv.Itoa(status)
	}
	return strconv.Itoa(status) + " " + loc
}

// ownAnswer is what Squarely answers HEAD of the short code's path on the
// job's domain (or /d/ on the base URL): the whole site, in-process.
func (s *server) ownAnswer(ctx context.Context, j *store.ImportJob, code string) (int, string) {
	target := s.cfg.BaseURL + "/d/" + code
	host := s.clients.baseHost
	if j.Domain != "" {
		target, host = "https://"+j.Domain+"/"+code, j.Domain
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, target, nil)
	if err != nil {
		return 0, ""
	}
	req.Host, req.RemoteAddr, req.RequestURI = host, "127.0.0.1:1", req.URL.RequestURI()
	rec := &capture{header: http.Header{}}
	s.handler.ServeHTTP(rec, req)
	return cmp.Or(rec.status, http.StatusOK), rec.header.Get("Location")
}
