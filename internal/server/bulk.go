package server

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/bulk"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// Bulk generation (issue 12, docs/API.md "Bulk generation"): the spec
// page's one-code-per-request call, and spreadsheet jobs: a file checked
// row by row, saved to the account by internal/bulk's runner, then
// downloaded as one ZIP.

// maxBulkText bounds a text item, in bytes: more than the largest code
// holds, so the encoder's own refusal names anything in between.
const maxBulkText = 4096

// bulkItemRequest is the body of POST /api/bulk-generate-qrcode (spec 02
// §7): the item's type and content, and the page's two colours.
type bulkItemRequest struct {
	QRType  string            `json:"qrType"`
	QRData  map[string]string `json:"qrData"`
	FgColor string            `json:"fgColor"`
	BgColor string            `json:"bgColor"`
	Data    string            `json:"data"`
}

// bulkGenerateQRCode (POST /api/bulk-generate-qrcode, signed in) renders
// one item of the bulk page as SVG: a url item must be an http(s) URL, a
// text item non-empty text of at most maxBulkText bytes. It saves nothing.
func (s *server) bulkGenerateQRCode(w http.ResponseWriter, r *http.Request) {
	var in bulkItemRequest
	if !decodeJSON(w, r, &in) {
		return
	}
	var data string
	switch in.QRType {
	case "url":
		dest, problem := codes.CheckDestination(orDefault(in.QRData["url"], in.Data))
		if problem != "" {
			fieldError(w, "data", problem)
			return
		}
		data = dest
	case "text":
		data = strings.TrimSpace(orDefault(in.QRData["data"], in.Data))
		switch {
		case data == "":
			fieldError(w, "data", "Text is required")
			return
		case len(data) > maxBulkText || !utf8.ValidString(data):
			fieldError(w, "data", "Text must be at most 4096 bytes of UTF-8")
			return
		}
	default:
		fieldError(w, "qrType", "qrType must be url or text")
		return
	}
	style, err := codes.Style{FgColor: in.FgColor, BgColor: in.BgColor}.Normalize()
	if err != nil {
		renderRefused(w, err)
		return
	}
	svg := s.renderCode(w, r, data, style, codes.Options{Format: codes.SVG, Level: codes.StaticLevel, Pixels: codes.PreviewPixels})
	if svg == nil {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"qrCode": string(svg), "data": data})
}

const (
	maxBulkFile     = 10 << 20
	msgBulkTooBig   = "The file must be at most 10 MB"
	msgJobMissing   = "Bulk job not found"
	msgBulkBusy     = "The server is busy with other bulk work; please try again in a moment"
	maxIdempotency  = 100
	maxBulkFileName = 100
	// bulkWorkSlots bounds the spreadsheet checks and ZIP renderings that
	// run at once on an instance: each may use every core.
	bulkWorkSlots = 2
	// bulkSlotsPerAccount is how many of them one account may hold.
	bulkSlotsPerAccount = 1
	msgBulkOwnBusy      = "Your other bulk upload or download is still running; please wait for it to finish"
	// bulkPNGPixels is the size of a job's PNG and SVG images.
	bulkPNGPixels = 512
	// zipPage rows are rendered in parallel, then written in order.
	zipPage = 256
)

// rowError pins a refused row to its line and column.
type rowError struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// bulkJobResponse is a job as the API shows it.
type bulkJobResponse struct {
	ID        int64      `json:"id"`
	Status    string     `json:"status"`
	FileName  string     `json:"fileName"`
	Total     int        `json:"total"`
	Processed int        `json:"processed"`
	Failed    int        `json:"failed"`
	DomainID  *int64     `json:"domainId"` // the custom domain its dynamic codes print; null = the base URL
	Domain    string     `json:"domain,omitempty"`
	Error     string     `json:"error,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
	Errors    []rowError `json:"errors,omitempty"`
}

func bulkJobJSON(j *store.BulkJob) bulkJobResponse {
	return bulkJobResponse{
		ID: j.ID, Status: j.Status, FileName: j.FileName, Total: j.Total, Processed: j.Processed,
		Failed: j.Failed, DomainID: j.DomainID, Domain: j.Domain, Error: j.Error, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt,
	}
}

// readSpreadsheet takes the account's bulk upload slot and reads a
// spreadsheet upload: its multipart `file` (required) and `dryRun`. On
// failure it has answered and holds no slot; else release frees it.
func (s *server) readSpreadsheet(w http.ResponseWriter, r *http.Request) (form *multipartForm, dryRun bool, release func(), ok bool) {
	if release, ok = s.takeBulkSlot(w, r); !ok {
		return nil, false, nil, false
	}
	form = readMultipart(w, r, "file", maxBulkFile, msgBulkTooBig)
	if form == nil {
		release()
		return nil, false, nil, false
	}
	dryRun, err := codes.FormBool(form.get("dryRun"))
	if err != nil {
		fieldError(w, "dryRun", "dryRun must be true or false")
		release()
		return nil, false, nil, false
	}
	if form.file == nil {
		fieldError(w, "file", "Please choose a CSV or XLSX file with a header row")
		release()
		return nil, false, nil, false
	}
	return form, dryRun, release, true
}

// takeBulkSlot reserves one of the instance's bulk work slots for the
// signed-in account, at most bulkSlotsPerAccount of them, or answers 429.
// The caller calls release when done.
func (s *server) takeBulkSlot(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	account := strconv.FormatInt(auth.UserFrom(r.Context()).ID, 10)
	w.Header().Set("Retry-After", "5")
	if !s.bulkByAccount.enter(account) {
		writeError(w, http.StatusTooManyRequests, msgBulkOwnBusy)
		return nil, false
	}
	select {
	case s.bulkWork <- struct{}{}:
		w.Header().Del("Retry-After")
		return func() { <-s.bulkWork; s.bulkByAccount.leave(account) }, true
	default:
		s.bulkByAccount.leave(account)
		writeError(w, http.StatusTooManyRequests, msgBulkBusy)
		return nil, false
	}
}

// createBulkJob (POST /api/bulk-jobs, signed in) checks an uploaded
// spreadsheet (multipart `file`). With dryRun=true it only answers the
// row errors; otherwise it queues a job for the rows that passed and
// answers 202 with the job. An optional domainId, a verified domain of the
// workspace, is the domain the job's dynamic codes print (as a single
// code's domainId); the rows are checked with its longer short URL. An
// Idempotency-Key header makes a repeat of the same upload in the
// workspace answer the first job instead of making another.
func (s *server) createBulkJob(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if len(key) > maxIdempotency || strings.ContainsFunc(key, func(c rune) bool { return c > unicode.MaxASCII || !unicode.IsPrint(c) }) {
		writeError(w, http.StatusBadRequest, "Idempotency-Key must be at most 100 printable ASCII characters")
		return
	}
	form, dryRun, release, ok := s.readSpreadsheet(w, r)
	if !ok {
		return
	}
	defer release()
	u := auth.UserFrom(r.Context())
	ctx := r.Context()
	var domain *store.Domain
	if raw := form.get("domainId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			fieldError(w, "domainId", "domainId must be a domain's id, or left out for the base URL")
			return
		}
		domain, err = s.codeDomain(ctx, wsID(r), id)
		if answerDomainRefused(w, err) {
			return
		}
		if err != nil {
			s.internalError(w, "fetching a domain", err)
			return
		}
	}
	sum := sha256.Sum256(form.file.Data)
	digest := hex.EncodeToString(sum[:])
	if key != "" && !dryRun && s.answerRepeat(w, r, key, digest) {
		return
	}

	table, err := bulk.ReadTable(form.file.Data)
	if err != nil {
		fieldError(w, "file", err.Error())
		return
	}
	columns, problem := bulk.Columns(table.Header)
	if problem != "" {
		fieldError(w, "file", problem)
		return
	}
	kits, ok := s.bulkKits(w, r, table, columns)
	if !ok {
		return
	}
	check := bulk.Checker{Creator: s.creator, User: u, Kits: kits, Domain: domain, EntryName: bulkEntryName}
	items := check.Rows(ctx, table, columns)
	if err := s.applyDynamicLimit(r, u, items); err != nil {
		s.internalError(w, "counting dynamic codes", err)
		return
	}
	var rowErrors []rowError
	for _, it := range items {
		if it.Status == store.ItemFailed {
			rowErrors = append(rowErrors, rowError{Row: it.Row, Column: it.Column, Message: it.Error})
		}
	}
	valid := len(items) - len(rowErrors)
	if dryRun {
		writeJSON(w, http.StatusOK, map[string]any{
			"dryRun": true, "status": "checked", "total": len(items), "valid": valid, "failed": len(rowErrors),
			"errors": orEmpty(rowErrors),
		})
		return
	}
	if valid == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"message": "No row of the file can be made into a QR code",
			"errors":  map[string]string{"file": "No row of the file can be made into a QR code"},
			"rows":    orEmpty(rowErrors),
		})
		return
	}

	j := &store.BulkJob{
		WorkspaceID: wsID(r), UserID: u.ID, FileName: form.file.Name, FileSHA256: digest, IdempotencyKey: key,
		Total: len(items), Processed: len(rowErrors), Failed: len(rowErrors),
		DynamicLimit: s.dynamicLimit(workspaceFrom(r.Context())), CreatedAt: s.now(),
	}
	if domain != nil {
		j.DomainID, j.Domain = &domain.ID, domain.Domain
	}
	err = s.store.CreateBulkJob(ctx, j, items)
	if errors.Is(err, store.ErrNotFound) {
		err = errDomainMissing // the domain was deleted since it was read
	}
	if answerDomainRefused(w, err) {
		return
	}
	if errors.Is(err, store.ErrConflict) && key != "" && s.answerRepeat(w, r, key, digest) {
		return // a parallel repeat won the race
	}
	if err != nil {
		s.internalError(w, "creating a bulk job", err)
		return
	}
	s.bulk.Wake()
	out := bulkJobJSON(j)
	out.Errors = orEmpty(rowErrors)
	writeJSON(w, http.StatusAccepted, out)
}

// answerRepeat answers the job an earlier upload in the workspace made
// with key: 200 with it when the file is the same, 409 when the key came
// with another file. It reports whether there was such a job.
func (s *server) answerRepeat(w http.ResponseWriter, r *http.Request, key, digest string) bool {
	j, err := s.store.BulkJobByKey(r.Context(), wsID(r), key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false
	case err != nil:
		s.internalError(w, "fetching a bulk job", err)
	case j.FileSHA256 != digest:
		writeError(w, http.StatusConflict, "This Idempotency-Key was used for another file")
	default:
		writeJSON(w, http.StatusOK, bulkJobJSON(j))
	}
	return true
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// bulkKits are the workspace's brand kits the table's brandKit cells name,
// by the cell's text, matched as the database's unique index compares names
// (store.NameKeys: Go's folding agrees with neither database's lower()); nil
// when the header has no brandKit column. On failure it has answered.
func (s *server) bulkKits(w http.ResponseWriter, r *http.Request, table *bulk.Table, cols []string) (map[string]codes.Style, bool) {
	col := slices.Index(cols, "brandKit")
	if col < 0 {
		return nil, true
	}
	list, err := s.store.BrandKits(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing brand kits", err)
		return nil, false
	}
	var cells []string
	for _, row := range table.Rows {
		if col < len(row.Cells) && row.Cells[col] != "" {
			cells = append(cells, row.Cells[col])
		}
	}
	names := slices.Clone(cells)
	for _, k := range list {
		names = append(names, k.Name)
	}
	keys, err := s.store.NameKeys(r.Context(), names)
	if err != nil {
		s.internalError(w, "matching brand kit names", err)
		return nil, false
	}
	byKey := make(map[string]*store.BrandKit, len(list))
	for _, k := range list {
		byKey[keys[k.Name]] = k
	}
	kits := map[string]codes.Style{}
	for _, cell := range cells {
		key, ok := keys[cell]
		k := byKey[key]
		if _, done := kits[cell]; done || !ok || k == nil {
			continue
		}
		if kits[cell], err = kitStyle(k); err != nil {
			s.internalError(w, "reading a brand kit", err)
			return nil, false
		}
	}
	return kits, true
}

// bulkEntryName is a row's fileName made safe for a ZIP entry, without
// an image extension (the download's format adds its own).
func bulkEntryName(raw string) string {
	name := safeFileName(raw)
	for _, ext := range []string{".png", ".svg", ".pdf", ".eps"} {
		if len(name) > len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext) {
			name = name[:len(name)-len(ext)]
		}
	}
	name = strings.TrimSpace(strings.TrimLeft(name, "."))
	return truncate(name, maxBulkFileName)
}

// applyDynamicLimit refuses, in row order, the dynamic rows past what the
// user's dynamic limit leaves (the same limit and count as one code's
// creation); the runner's save enforces it again, atomically.
func (s *server) applyDynamicLimit(r *http.Request, u *store.User, items []store.BulkItem) error {
	limit := s.dynamicLimit(workspaceFrom(r.Context()))
	if limit == 0 {
		return nil
	}
	n, err := s.store.CountDynamicCodes(r.Context(), wsID(r), s.now())
	if err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		if it.Status != store.ItemPending || !it.Code.Dynamic {
			continue
		}
		if n >= limit {
			*it = store.BulkItem{Row: it.Row, Status: store.ItemFailed, Column: "dynamic", Error: s.limitMessage()}
			continue
		}
		n++
	}
	return nil
}

// ownJob fetches the caller's job named by the {id} path value. On
// failure it has answered: 404 when it is not the caller's.
func (s *server) ownJob(w http.ResponseWriter, r *http.Request) (*store.BulkJob, bool) {
	id, ok := idParam(w, r, "id", msgJobMissing)
	if !ok {
		return nil, false
	}
	j, err := s.store.BulkJob(r.Context(), wsID(r), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgJobMissing)
		return nil, false
	}
	if err != nil {
		s.internalError(w, "fetching a bulk job", err)
		return nil, false
	}
	return j, true
}

// bulkJob (GET /api/bulk-jobs/{id}, signed in, owner only) answers a job's
// progress.
func (s *server) bulkJob(w http.ResponseWriter, r *http.Request) {
	j, ok := s.ownJob(w, r)
	if !ok {
		return
	}
	out := bulkJobJSON(j)
	// A finished job lists its failed rows and why, for the page to show.
	if (j.Status == store.BulkDone || j.Status == store.BulkFailed) && j.Failed > 0 {
		for after := 0; ; {
			page, err := s.store.BulkItems(r.Context(), j.ID, after, zipPage, store.ItemFailed)
			if err != nil {
				s.internalError(w, "listing a bulk job's failed rows", err)
				return
			}
			for _, it := range page {
				out.Errors = append(out.Errors, rowError{Row: it.Row, Column: it.Column, Message: it.Error})
			}
			if len(page) < zipPage {
				break
			}
			after = page[len(page)-1].Row
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// bulkJobDownload (GET /api/bulk-jobs/{id}/download?format=png|svg|pdf|eps,
// signed in, owner only) streams a finished job's ZIP: one image per saved
// row, named by its fileName (else qr-code-{n}) and made unique, then
// manifest.csv (row, name, data, short code, file) and errors.csv (row,
// column, message). Images are rendered a page at a time on every core and
// written in row order, so memory stays flat however long the job.
func (s *server) bulkJobDownload(w http.ResponseWriter, r *http.Request) {
	j, ok := s.ownJob(w, r)
	if !ok {
		return
	}
	format := codes.PNG
	if raw := r.URL.Query().Get("format"); raw != "" {
		if format, ok = codes.ParseFormat(raw); !ok {
			fieldError(w, "format", codes.FormatMessage)
			return
		}
	}
	printOpt, err := codes.FormPrint(r.URL.Query().Get, format)
	if err != nil {
		renderRefused(w, err)
		return
	}
	if j.Status != store.BulkDone && j.Status != store.BulkFailed {
		writeError(w, http.StatusConflict, "The job is still running; download it when it is done")
		return
	}
	release, ok := s.takeBulkSlot(w, r)
	if !ok {
		return
	}
	defer release()

	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="bulk-job-%d-%s.zip"`, j.ID, format))
	w.Header().Set("Cache-Control", "no-store")
	if err := s.writeBulkZIP(r.Context(), w, j, format, printOpt); err != nil {
		// The header is sent: all that can be done is to log and stop,
		// which leaves the client a truncated archive it will reject.
		s.log.ErrorContext(r.Context(), "writing a bulk ZIP", "job", j.ID, "err", err)
	}
}

func (s *server) writeBulkZIP(ctx context.Context, w io.Writer, j *store.BulkJob, format codes.Format, printOpt codes.Print) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, fastDeflate)
	method := zip.Store // PNG is compressed already
	if format != codes.PNG {
		method = zip.Deflate
	}
	var manifest, failures bytes.Buffer
	mw, ew := csv.NewWriter(&manifest), csv.NewWriter(&failures)
	mw.Write([]string{"row", "name", "data", "short code", "file"})
	ew.Write([]string{"row", "column", "message"})
	taken := map[string]bool{}
	images := make([][]byte, zipPage)
	refused := make([]string, zipPage) // a row's print size refused, as field: message
	for after := 0; ; {
		page, err := s.store.BulkItems(ctx, j.ID, after, zipPage, "")
		if err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		after = page[len(page)-1].Row
		if err := s.renderPage(j, page, images, refused, format, printOpt); err != nil {
			return err
		}
		for i, it := range page {
			row := strconv.Itoa(it.Row)
			if it.Status != store.ItemDone {
				ew.Write([]string{row, csvCell(it.Column), csvCell(it.Error)})
				continue
			}
			if images[i] == nil {
				field, msg, _ := strings.Cut(refused[i], ": ")
				ew.Write([]string{row, field, csvCell(msg)})
				continue
			}
			name := uniqueEntry(taken, it.Code.FileName, string(format))
			f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: j.CreatedAt})
			if err != nil {
				return err
			}
			if _, err := f.Write(images[i]); err != nil {
				return err
			}
			mw.Write([]string{row, csvCell(it.Code.Name), csvCell(s.bulkData(j, it)), it.ShortCode, csvCell(name)})
		}
	}
	for _, c := range []struct {
		name string
		w    *csv.Writer
		buf  *bytes.Buffer
	}{{"manifest.csv", mw, &manifest}, {"errors.csv", ew, &failures}} {
		c.w.Flush()
		f, err := zw.CreateHeader(&zip.FileHeader{Name: c.name, Method: zip.Deflate, Modified: j.CreatedAt})
		if err != nil {
			return err
		}
		if _, err := f.Write(c.buf.Bytes()); err != nil {
			return err
		}
	}
	return zw.Close()
}

// deflaters keeps flate writers between ZIP entries: each holds about a
// megabyte of state, too much to allocate for every one of 10,000 files.
var deflaters sync.Pool

// fastDeflate compresses a ZIP entry at flate's fastest level: SVG and PDF
// shrink nearly as well as at the default, in a fraction of the time.
func fastDeflate(out io.Writer) (io.WriteCloser, error) {
	if fw, ok := deflaters.Get().(*flate.Writer); ok {
		fw.Reset(out)
		return pooledDeflater{fw}, nil
	}
	fw, err := flate.NewWriter(out, flate.BestSpeed)
	return pooledDeflater{fw}, err
}

type pooledDeflater struct{ *flate.Writer }

func (p pooledDeflater) Close() error {
	err := p.Writer.Close()
	deflaters.Put(p.Writer)
	return err
}

// bulkData is what a saved row of job j encodes: a dynamic code's short
// URL on the job's domain, or a static code's content.
func (s *server) bulkData(j *store.BulkJob, it store.BulkItem) string {
	if it.Code.Dynamic {
		return s.codeURL(&store.DynamicCode{ClientID: store.DefaultClientID, ShortCode: it.ShortCode, Domain: j.Domain, ShortCodeChosen: it.Code.ShortCode != ""})
	}
	return it.Code.Content
}

// renderPage renders the saved items of page into images, in parallel.
// A row whose code the print size cannot hold (a larger version needs
// more pixels) gets its reason in refused and no image, so one row does
// not cut the archive short.
func (s *server) renderPage(j *store.BulkJob, page []store.BulkItem, images [][]byte, refused []string, format codes.Format, printOpt codes.Print) error {
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			for i := wk; i < len(page); i += workers {
				it := page[i]
				if it.Status != store.ItemDone {
					continue
				}
				level, _ := qr.ParseLevel(it.Code.Style.ErrorCorrectionLevel)
				var buf bytes.Buffer
				err := codes.Write(&buf, s.bulkData(j, it), codeStyle(it.Code.Style), codes.Options{Format: format, Level: level, Pixels: bulkPNGPixels, Print: printOpt})
				images[i], refused[i] = nil, ""
				if field, msg, ok := codes.Refusal(err); ok && printOpt != (codes.Print{}) {
					refused[i] = field + ": " + msg
					continue
				}
				if err != nil {
					errs[wk] = fmt.Errorf("row %d: %w", it.Row, err)
					return
				}
				images[i] = buf.Bytes()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// uniqueEntry is base.ext, or base-2.ext, base-3.ext … when an earlier
// entry took the name (compared without case, as most file systems do).
func uniqueEntry(taken map[string]bool, base, ext string) string {
	name := base + "." + ext
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s-%d.%s", base, n, ext)
	}
	taken[strings.ToLower(name)] = true
	return name
}
