package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// Dynamic codes (docs/API.md "Dynamic codes"): management of the caller's
// codes, their images, and the static codes' rename and delete.

// shortCodeTries bounds the redraws after a short code collision, which
// at 62^8 codes is all but impossible anyway.
const shortCodeTries = 5

const msgCodeMissing = codes.MsgMissing

// dynamicCodeResponse is a dynamic code as the API shows it: the static
// record's fields plus the dynamic ones (docs/API.md "Records").
type dynamicCodeResponse struct {
	qrCodeResponse
	Destination   string     `json:"destination"`
	ShortCode     string     `json:"shortCode"`
	ShortURL      string     `json:"shortUrl"`
	LastScannedAt *time.Time `json:"lastScannedAt"`
	PausedAt      *time.Time `json:"pausedAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	IsProtected   bool       `json:"isProtected"` // a password guards its scans (protect.go)
	// Routing is the code's smart routing (routing.go), null when unset;
	// LimitScans counts the redirects taken against its scanLimit.
	Routing    *store.Routing `json:"routing"`
	LimitScans int64          `json:"limitScans"`
	// ErrorCorrectionLevel is what the code is drawn at (a logo raises it to H).
	ErrorCorrectionLevel string `json:"errorCorrectionLevel"`
	// Health is what the link checker last found of its destinations;
	// AlertsMuted stops its alerts (alerts.go).
	Health      healthJSON `json:"health"`
	AlertsMuted bool       `json:"alertsMuted"`
	// DomainID is the workspace's verified domain the code prints (null:
	// the base URL), Domain its name ("" for the base URL).
	DomainID *int64 `json:"domainId"`
	Domain   string `json:"domain"`
	// PageID is the workspace's hosted page the code opens (issue 35), null
	// for a redirect.
	PageID *int64 `json:"pageId"`
	// ImportedClicks is the old total click count of a code imported from
	// another shortener (imports.go): shown apart, never in scanCount.
	ImportedClicks int64 `json:"importedClicks"`
}

func (s *server) dynamicJSON(d *store.DynamicCode) dynamicCodeResponse {
	qrData := json.RawMessage(d.QRData)
	if d.QRData == "" {
		qrData = json.RawMessage("{}")
	}
	short := s.codeURL(d)
	return dynamicCodeResponse{
		qrCodeResponse: qrCodeResponse{
			ID: d.ID, Name: d.Name, QRType: d.QRType, QRMode: "dynamic", URL: d.Destination, Data: short,
			QRData: qrData, Style: codeStyle(d.Style),
			LogoFilePath: d.LogoFilePath, LogoFileName: d.LogoFileName,
			ScanCount: d.ScanCount, IsPaused: d.IsPaused, CreatedAt: d.CreatedAt,
			Tags: tagsJSON(d.Tags), FolderID: d.FolderID,
		},
		Destination: d.Destination, ShortCode: d.ShortCode, ShortURL: short,
		LastScannedAt: d.LastScannedAt, PausedAt: d.PausedAt, UpdatedAt: d.UpdatedAt,
		IsProtected: d.Protected, ErrorCorrectionLevel: d.ErrorCorrectionLevel,
		Routing: routingJSON(d.Routing), LimitScans: d.LimitScans,
		Health: toHealthJSON(d.Health), AlertsMuted: d.AlertsMuted,
		DomainID: d.DomainID, Domain: d.Domain, PageID: d.PageID, ImportedClicks: d.ImportedClicks,
	}
}

// dynamicLimit is the workspace's limit on live dynamic codes: none (0)
// with premium rights (premium), else SQUARELY_DYNAMIC_LIMIT, counted
// across the free workspaces of its owner (store.CountDynamicCodes).
func (s *server) dynamicLimit(ws *store.Workspace) int {
	if s.premium(ws) {
		return 0
	}
	return s.cfg.DynamicLimit
}

// premium reports whether the workspace has what a subscription adds to a
// free one (today: no limit on live dynamic codes, dynamicLimit): it has
// an active subscription, or its free trial is running. The storage quota
// stays the subscription's alone (quotaBytes): a trial is for trying the
// codes, not for keeping files.
func (s *server) premium(ws *store.Workspace) bool {
	return ws.Subscribed() || s.trialRunning(ws)
}

func (s *server) limitReached(w http.ResponseWriter) {
	writeError(w, http.StatusForbidden, s.limitMessage())
}

// msgFreeShared ends the refusals of the free plan's limits, which are an
// owner's across their workspaces without a subscription.
const msgFreeShared = " Workspaces without a subscription share their owner's free plan, counted across every such workspace they own."

// limitMessage refuses a dynamic code past the free plan's limit.
func (s *server) limitMessage() string {
	return fmt.Sprintf("You have reached your limit of %d dynamic QR codes. Please upgrade to create more.", s.cfg.DynamicLimit) + msgFreeShared
}

// createDynamicCode (POST /api/dynamic-qrcodes, signed in) creates a
// dynamic code from a multipart form: destination, qrType, qrData (JSON),
// name, the style fields, qrStyle, errorCorrectionLevel and an optional
// logoFile (or logoId).
func (s *server) createDynamicCode(w http.ResponseWriter, r *http.Request) {
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil || (form.file != nil && !s.admitUpload(w, r)) {
		return
	}
	if d, ok := s.saveDynamicCode(w, r, form.values, form.file); ok {
		writeJSON(w, http.StatusCreated, s.dynamicJSON(d))
	}
}

// saveDynamicCode saves the caller's dynamic code described by a form's
// values and logo file, checked by internal/codes under the same rules
// wherever it comes from (the app's form, the public API). On failure it
// has answered.
func (s *server) saveDynamicCode(w http.ResponseWriter, r *http.Request, values map[string]string, file *upload) (*store.DynamicCode, bool) {
	if !s.applyBrandKit(w, r, values, file) {
		return nil, false
	}
	pageID, ok := s.formPage(w, r, values)
	if !ok {
		return nil, false
	}
	req, err := codes.DynamicForm(values, file)
	who := s.caller(r)
	var p *codes.Prepared
	if err == nil {
		p, err = s.creator.Prepare(r.Context(), req, who)
	}
	if err != nil {
		s.answerRefused(w, r, "preparing a dynamic code", err)
		return nil, false
	}
	u := auth.UserFrom(r.Context())
	logo, ok := p.Logo, true
	if file != nil {
		if logo, ok = s.saveLogo(w, r, u, file); !ok {
			return nil, false
		}
	}
	d := p.DynamicCode()
	d.ClientID, d.WorkspaceID, d.UserID, d.CreatedAt = who.ClientID, wsID(r), u.ID, s.now()
	d.PageID = pageID
	if logo != nil {
		d.LogoFilePath, d.LogoFileName = logoPath(logo.ID), logo.FileName
	}
	if !s.insertDynamic(w, r, d, who.DynamicLimit) {
		// A logo stored for this code alone (parallel creates passed the
		// early count, and the store refused this one) would be an orphan.
		if file != nil {
			if err := s.store.DeleteBlob(context.WithoutCancel(r.Context()), logo.ID); err != nil {
				s.log.ErrorContext(r.Context(), "removing the logo of a refused dynamic code", "blob", logo.ID, "err", err)
			}
		}
		return nil, false
	}
	return d, true
}

// insertDynamic saves d under a new short code, or under its chosen one
// (d.ShortCodeChosen), with the owner's limit (0: none) enforced by the
// store, atomically. On failure it has answered (403 past the limit, 409
// for a chosen short code that is taken).
func (s *server) insertDynamic(w http.ResponseWriter, r *http.Request, d *store.DynamicCode, limit int) bool {
	var err error
	for try := 1; ; try++ {
		if !d.ShortCodeChosen {
			d.ShortCode = store.NewShortCode()
		}
		err = s.store.CreateDynamicCode(r.Context(), d, limit)
		if d.ShortCodeChosen || !errors.Is(err, store.ErrConflict) || try == shortCodeTries {
			break
		}
	}
	switch {
	case errors.Is(err, store.ErrLimit):
		s.limitReached(w)
		return false
	case d.ShortCodeChosen && errors.Is(err, store.ErrConflict):
		shortCodeTaken(w)
		return false
	case errors.Is(err, store.ErrNotFound):
		// The code's domain was deleted meanwhile.
		answerDomainRefused(w, errDomainMissing)
		return false
	case answerDomainRefused(w, err):
		return false
	case err != nil:
		s.internalError(w, "creating a dynamic code", err)
		return false
	}
	return true
}

// shortCodeTaken answers 409 for a chosen short code another code has on
// its host (store.ShortCodeTaken).
func shortCodeTaken(w http.ResponseWriter) {
	writeJSON(w, http.StatusConflict, apiError{Message: codes.MsgShortCodeTaken,
		Errors: map[string]string{"shortCode": codes.MsgShortCodeTaken}, Code: codes.ShortCodeTaken})
}

// answerShortCodeChange answers a refused change of short code (409 when
// taken or scanned) and reports whether it did.
func answerShortCodeChange(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, store.ErrConflict):
		shortCodeTaken(w)
	case errors.Is(err, store.ErrScanned):
		writeJSON(w, http.StatusConflict, apiError{Message: codes.MsgShortCodeScanned,
			Errors: map[string]string{"shortCode": codes.MsgShortCodeScanned}, Code: "scanned"})
	default:
		return false
	}
	return true
}

// shortCodeAvailability (GET /api/short-codes/availability?shortCode=…
// &domainId=…) tells the app, as the user types, whether a short code may
// be chosen on a host: {"shortCode","available","code","message"}, code
// "invalid" or "taken" when it may not. The store decides again at
// creation.
func (s *server) shortCodeAvailability(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	code := strings.TrimSpace(q.Get("shortCode"))
	domainID, _, ok := readDomainID(w, json.RawMessage(cmpOr(q.Get("domainId"), "null")))
	if !ok {
		return
	}
	if domainID != nil {
		if _, err := s.codeDomain(r.Context(), wsID(r), *domainID); answerDomainRefused(w, err) {
			return
		} else if err != nil {
			s.internalError(w, "reading a domain", err)
			return
		}
	}
	out := struct {
		ShortCode string `json:"shortCode"`
		Available bool   `json:"available"`
		Code      string `json:"code,omitempty"`
		Message   string `json:"message,omitempty"`
	}{ShortCode: code}
	if problem := codes.CheckShortCode(code); problem != "" {
		out.Code, out.Message = codes.ShortCodeInvalid, problem
		writeJSON(w, http.StatusOK, out)
		return
	}
	taken, err := s.store.ShortCodeTaken(r.Context(), code, domainID)
	if err != nil {
		s.internalError(w, "checking a short code", err)
		return
	}
	if taken {
		out.Code, out.Message = codes.ShortCodeTaken, codes.MsgShortCodeTaken
	} else {
		out.Available = true
	}
	writeJSON(w, http.StatusOK, out)
}

func cmpOr(v, fallback string) string {
	if v == "" {
		return fallback
	}
	return v
}

// listDynamicCodes answers the caller's live dynamic codes that are paused
// (GET /api/dynamic-qrcodes/paused) or not (GET /api/dynamic-qrcodes),
// newest first.
func (s *server) listDynamicCodes(paused bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		list, err := s.store.DynamicCodes(r.Context(), wsID(r), paused)
		if err != nil {
			s.internalError(w, "listing dynamic codes", err)
			return
		}
		out := make([]dynamicCodeResponse, len(list))
		for i, d := range list {
			out[i] = s.dynamicJSON(d)
		}
		writeJSON(w, http.StatusOK, out)
	}
}

// fetchCode is a store lookup of one of a workspace's codes by id.
type fetchCode[T any] func(ctx context.Context, workspaceID, id int64) (T, error)

// ownCode fetches the caller's code named by the {id} path value. On
// failure it has answered: 404 when the code is not the caller's (or the
// id is malformed), 500 when the store fails.
func ownCode[T any](s *server, w http.ResponseWriter, r *http.Request, fetch fetchCode[T]) (T, bool) {
	var zero T
	id, ok := pathID(w, r)
	if !ok {
		return zero, false
	}
	c, err := fetch(r.Context(), wsID(r), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgCodeMissing)
		return zero, false
	}
	if err != nil {
		s.internalError(w, "fetching a code", err)
		return zero, false
	}
	return c, true
}

// answerCode answers the outcome of a change to one of the caller's codes:
// 404 when it is not theirs, 500 when the store failed, else 200 with view
// of the code as it is now.
func answerCode[T any](s *server, w http.ResponseWriter, doing string, c T, err error, view func(T) any) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgCodeMissing)
	case err != nil:
		s.internalError(w, doing, err)
	default:
		writeJSON(w, http.StatusOK, view(c))
	}
}

// answerDynamic answers the outcome of a change to a dynamic code (the
// store has announced it to the redirect caches).
func (s *server) answerDynamic(w http.ResponseWriter, d *store.DynamicCode, err error) {
	answerCode(s, w, "changing a dynamic code", d, err, func(d *store.DynamicCode) any { return s.dynamicJSON(d) })
}

// answerDeleted answers a soft delete: 204, or 404 when the code was not
// the caller's.
func (s *server) answerDeleted(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgCodeMissing)
	case err != nil:
		s.internalError(w, "deleting a code", err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// setDestination (PUT /api/dynamic-qrcodes/{id}) changes where a code
// redirects and, when given, the type and type fields it was made from
// (the create view's regenerate); the short code and image stay the same.
func (s *server) setDestination(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var in struct {
		Destination string          `json:"destination"`
		QRType      *string         `json:"qrType"`
		QRData      json.RawMessage `json:"qrData"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	dest, problem := codes.CheckDestination(in.Destination)
	if problem != "" {
		fieldError(w, "destination", problem)
		return
	}
	var qrType, qrData string
	if in.QRType != nil {
		qrType = strings.TrimSpace(*in.QRType)
		if err := codes.CheckType(qrType); err != nil {
			s.answerRefused(w, r, "checking a type", err)
			return
		}
	}
	if len(in.QRData) > 0 {
		qrData = string(in.QRData)
	}
	var v validation
	codes.CheckQRData(&v.Problems, qrType, qrData)
	if v.failed(w) {
		return
	}
	d, err := s.store.SetDynamicContent(r.Context(), wsID(r), id, dest, qrType, qrData, s.now())
	s.answerDynamic(w, d, err)
}

// renameCode serves PATCH /api/qrcodes/{id} (the dynamic one adds the
// domain: renameDynamicCode, under the same name rules): the name is
// trimmed and at most 100 characters; a blank name changes nothing (spec
// 01 §5) and answers the code as it is.
func renameCode[T any](w http.ResponseWriter, r *http.Request, read fetchCode[T],
	rename func(ctx context.Context, userID, id int64, name string) (T, error), answer func(http.ResponseWriter, T, error)) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var in struct {
		Name string `json:"name"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	name := strings.TrimSpace(in.Name)
	if problem := codes.NameProblem(name); problem != "" {
		fieldError(w, "name", problem)
		return
	}
	ctx, uid := r.Context(), wsID(r)
	var c T
	var err error
	if name == "" {
		c, err = read(ctx, uid, id)
	} else {
		c, err = rename(ctx, uid, id, name)
	}
	answer(w, c, err)
}

// renameDynamicCode (PATCH /api/dynamic-qrcodes/{id} {"name", "domainId",
// "shortCode"}) renames a dynamic code and, with domainId, moves it to
// another of the workspace's verified domains (null: the base URL). A moved
// code prints its new URL from then on; the old one keeps redirecting while
// its domain stays verified in the workspace (docs/API.md "Custom
// domains"). With shortCode it gives the code that chosen short code,
// only while the code has no scans (409 after, or when it is taken).
func (s *server) renameDynamicCode(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var in struct {
		Name      string          `json:"name"`
		DomainID  json.RawMessage `json:"domainId"`
		PageID    json.RawMessage `json:"pageId"`
		ShortCode *string         `json:"shortCode"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	name := strings.TrimSpace(in.Name)
	if problem := codes.NameProblem(name); problem != "" {
		fieldError(w, "name", problem)
		return
	}
	domainID, setDomain, ok := readDomainID(w, in.DomainID)
	if !ok {
		return
	}
	var shortCode string
	if in.ShortCode != nil {
		shortCode = strings.TrimSpace(*in.ShortCode)
		if rf := codes.RefuseShortCode(shortCode); rf != nil {
			writeRefused(w, rf)
			return
		}
	}
	ctx, ws := r.Context(), wsID(r)
	d, err := s.store.DynamicCode(ctx, ws, id)
	if err == nil && setDomain {
		if d, err = s.setCodeDomain(ctx, ws, id, domainID); answerDomainRefused(w, err) || answerShortCodeChange(w, err) {
			return
		}
	}
	if err == nil && shortCode != "" {
		if d, err = s.store.SetDynamicShortCode(ctx, ws, id, shortCode, s.now()); answerShortCodeChange(w, err) {
			return
		}
	}
	if err == nil && name != "" {
		d, err = s.store.RenameDynamicCode(ctx, ws, id, name, s.now())
	}
	if err == nil && len(in.PageID) > 0 {
		var ok bool
		if d, ok = s.setCodePage(w, r, id, in.PageID); !ok {
			return
		}
	}
	s.answerDynamic(w, d, err)
}

// setCodeDomain moves the workspace's code id to domain domainID (nil:
// the base URL), checked as codeDomain does.
func (s *server) setCodeDomain(ctx context.Context, ws, id int64, domainID *int64) (*store.DynamicCode, error) {
	if domainID != nil {
		if _, err := s.codeDomain(ctx, ws, *domainID); err != nil {
			return nil, err
		}
	}
	return s.store.SetDynamicDomain(ctx, ws, id, domainID, s.now())
}

// renameQRCode (PATCH /api/qrcodes/{id}) renames a static code.
func (s *server) renameQRCode(w http.ResponseWriter, r *http.Request) {
	renameCode(w, r, s.store.QRCode, s.store.RenameQRCode, func(w http.ResponseWriter, q *store.QRCode, err error) {
		answerCode(s, w, "renaming a QR code", q, err, func(q *store.QRCode) any { return qrCodeJSON(q) })
	})
}

// pauseDynamicCode (POST …/pause and …/resume) stops or restarts a code's
// redirect. Only dynamic codes have these routes: a static code's id is
// simply not among the caller's dynamic codes (404).
func (s *server) pauseDynamicCode(paused bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(w, r)
		if !ok {
			return
		}
		d, err := s.store.SetDynamicPaused(r.Context(), wsID(r), id, paused, s.now())
		s.answerDynamic(w, d, err)
	}
}

// deleteDynamicCode (DELETE /api/dynamic-qrcodes/{id}) soft-deletes a code:
// its short URL answers 404 from then on. 204.
func (s *server) deleteDynamicCode(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	_, err := s.store.DeleteDynamicCode(r.Context(), wsID(r), id, s.now())
	s.answerDeleted(w, err)
}

// deleteQRCode (DELETE /api/qrcodes/{id}) soft-deletes a static code. 204.
func (s *server) deleteQRCode(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	s.answerDeleted(w, s.store.DeleteQRCode(r.Context(), wsID(r), id, s.now()))
}

// dynamicCodeImage (GET /api/dynamic-qrcodes/{id}/image?format=svg|png|pdf
// &size=&download=1, owner only) renders a dynamic code: its short URL in
// its style.
func (s *server) dynamicCodeImage(w http.ResponseWriter, r *http.Request) {
	if c, ok := s.savedDynamicCode(w, r); ok {
		s.serveCodeImage(w, r, c)
	}
}

// dynamicCodePreflight (GET /api/dynamic-qrcodes/{id}/preflight?sizeMm=
// &distanceCm=, owner only) measures a dynamic code at a print size.
func (s *server) dynamicCodePreflight(w http.ResponseWriter, r *http.Request) {
	if c, ok := s.savedDynamicCode(w, r); ok {
		s.savedPreflight(w, r, c)
	}
}

// savedDynamicCode is what the caller's dynamic code {id} is drawn from:
// its short URL in its style. On failure it has answered.
func (s *server) savedDynamicCode(w http.ResponseWriter, r *http.Request) (savedImage, bool) {
	d, ok := ownCode(s, w, r, s.store.DynamicCode)
	if !ok {
		return savedImage{}, false
	}
	level, ok := qr.ParseLevel(d.ErrorCorrectionLevel)
	if !ok {
		level = codes.DynamicLevel
	}
	return savedImage{
		data: s.codeURL(d), style: codeStyle(d.Style), level: level, logoPath: d.LogoFilePath,
		qrType: d.QRType, details: map[string]any{"name": d.Name, "dynamicQrCodeId": d.ID},
	}, true
}

// savedImage is what a saved code's image is drawn from.
type savedImage struct {
	data     string
	style    codes.Style
	level    qr.Level
	logoPath string // the code's logoFilePath, "" for none
	qrType   string
	qrCodeID *int64         // static codes: the download's qr_code_id
	details  map[string]any // the download record's details
}

// serveCodeImage answers a saved code's image as ?format=, ?size=,
// ?pixels=, ?transparent=, the print options, ?download= (imageQuery) and ?brandKit= ask. download=1 makes it an attachment named by
// the type and records the download.
func (s *server) serveCodeImage(w http.ResponseWriter, r *http.Request, c savedImage) {
	img, ok := imageQuery(w, r)
	if !ok {
		return
	}
	// ?brandKit= draws the code as the kit would style it, saving nothing.
	if raw := r.URL.Query().Get("brandKit"); raw != "" {
		k, st, ok := s.workspaceKit(w, r, raw)
		if !ok {
			return
		}
		c.style, c.logoPath = st, ""
		if k.LogoID != nil {
			c.logoPath = logoPath(*k.LogoID)
		}
	}
	logo, err := s.savedLogo(r, c.logoPath)
	if err != nil {
		if errors.Is(err, errBusy) {
			busy(w)
		} else if r.Context().Err() == nil && !renderRefused(w, err) {
			s.internalError(w, "fetching a logo", err)
		}
		return
	}
	opt := codes.Options{Format: img.format, Level: c.level, Pixels: img.pixels, Logo: logo, Transparent: img.transparent, Print: img.print}
	file := s.renderCode(w, r, c.data, c.style, opt)
	if file == nil {
		return
	}
	if img.download {
		u := auth.UserFrom(r.Context())
		d := &store.Download{
			CodeEvent: store.CodeEvent{
				QRCodeID: c.qrCodeID, UserID: &u.ID, IPAddress: clientIP(r),
				UserAgent: truncate(r.UserAgent(), maxUserAgent), Referrer: truncate(r.Referer(), maxReferrer),
				QRType: c.qrType, Content: c.data, HasLogo: logo != nil, Details: c.details,
			},
			DownloadType: string(img.format),
			DownloadedAt: s.now(),
		}
		if err := s.store.CreateDownload(r.Context(), d); err != nil {
			s.internalError(w, "recording a download", err)
			return
		}
	}
	serveCodeFile(w, file, img.format, c.qrType+"."+string(img.format), img.download)
}

// imageRequest is how a saved code's image is asked for.
type imageRequest struct {
	format      codes.Format
	pixels      int // of the code part; PNGs at the download scale
	transparent bool
	download    bool
	print       codes.Print // ?sizeMm=, ?dpi=, ?colorSpace= (issue 26)
}

// imageQuery reads ?format=svg|png|pdf|eps (default svg), ?size= (preview
// pixels, default 320), ?pixels= (a PNG's exact width), ?transparent=1,
// the print options and ?download=1. On failure it has answered 400.
func imageQuery(w http.ResponseWriter, r *http.Request) (imageRequest, bool) {
	q := r.URL.Query()
	img := imageRequest{format: codes.SVG, pixels: codes.PreviewPixels}
	if v := q.Get("format"); v != "" {
		f, ok := codes.ParseFormat(v)
		if !ok {
			fieldError(w, "format", codes.FormatMessage)
			return img, false
		}
		img.format = f
	}
	if v := q.Get("size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < minPreviewPixels || n > maxPreviewPixels {
			fieldError(w, "size", "size must be between 64 and 1200 pixels")
			return img, false
		}
		img.pixels = n
	}
	if img.format == codes.PNG {
		// Drawn at 3× in RGBA: bounded like download-qrcode's files.
		if img.pixels > maxDownloadPreview {
			fieldError(w, "size", "size must be between 64 and 640 pixels for a PNG")
			return img, false
		}
		img.pixels *= codes.DownloadScale
	}
	var err error
	if img.print, err = codes.FormPrint(q.Get, img.format); err != nil {
		renderRefused(w, err)
		return img, false
	}
	if v := q.Get("pixels"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fieldError(w, "pixels", "pixels must be a whole number")
			return img, false
		}
		if msg := checkFilePixels(n, img.format, img.print); msg != "" {
			fieldError(w, "pixels", msg)
			return img, false
		}
		img.pixels = n
	}
	if img.transparent, err = codes.FormBool(q.Get("transparent")); err != nil {
		fieldError(w, "transparent", "transparent must be 1 or 0")
		return img, false
	}
	img.download, _ = codes.FormBool(q.Get("download"))
	return img, true
}
