package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// qrCodeResponse is a saved static code as the API shows it (docs/API.md
// "Records"); the style fields are codes.Style's, flat.
type qrCodeResponse struct {
	ID     int64           `json:"id"`
	Name   string          `json:"name"`
	QRType string          `json:"qrType"`
	QRMode string          `json:"qrMode"`
	URL    string          `json:"url"`
	Data   string          `json:"data"`
	QRData json.RawMessage `json:"qrData"`
	codes.Style
	LogoFilePath string    `json:"logoFilePath"`
	LogoFileName string    `json:"logoFileName"`
	ScanCount    int64     `json:"scanCount"` // static codes are not tracked
	IsPaused     bool      `json:"isPaused"`
	CreatedAt    time.Time `json:"createdAt"`
	Tags         []tagJSON `json:"tags"`
	FolderID     *int64    `json:"folderId"`
	// Payments are what a payment code took (payments.go); nil for other types.
	Payments *paymentStats `json:"payments,omitempty"`
}

func qrCodeJSON(q *store.QRCode) qrCodeResponse {
	return qrCodeResponse{
		ID: q.ID, Name: q.Name, QRType: q.QRType, QRMode: q.QRMode, URL: q.URL, Data: q.Content,
		QRData: json.RawMessage(q.QRData), Style: codeStyle(q.Style),
		LogoFilePath: q.LogoFilePath, LogoFileName: q.LogoFileName,
		IsPaused: q.IsPaused, CreatedAt: q.CreatedAt, Tags: tagsJSON(q.Tags), FolderID: q.FolderID,
	}
}

// codeStyle is a saved code's style, static or dynamic, as the renderer's fields.
func codeStyle(q store.Style) codes.Style {
	return codes.Style{
		FgColor: q.FgColor, BgColor: q.BgColor, GradientColor: q.GradientColor,
		GradientType: q.Gradient.Type, GradientAngle: &q.Gradient.Angle, GradientOnEyes: q.Gradient.OnEyes,
		DotShape: q.DotShape, CornerShape: q.CornerShape, InnerCornerShape: q.InnerCornerShape,
		OuterCornerColor: q.OuterCornerColor, InnerCornerColor: q.InnerCornerColor, LogoSize: q.LogoSize,
		EnableFrame: q.EnableFrame, FrameText: q.FrameText, FrameColor: q.FrameColor,
		FrameTextColor: q.FrameTextColor, FrameStyle: q.FrameStyle,
	}
}

// createQRCode (POST /api/qrcodes, signed in) saves a static code from a
// multipart form: the generator's fields, name, qrMode and an optional
// logoFile (or logoId).
func (s *server) createQRCode(w http.ResponseWriter, r *http.Request) {
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil || (form.file != nil && !s.admitUpload(w, r)) {
		return
	}
	if q, ok := s.saveStaticCode(w, r, form.values, form.file, nil); ok {
		writeJSON(w, http.StatusCreated, qrCodeJSON(q))
	}
}

// updateQRCode (PUT /api/qrcodes/{id}, signed in, owner only) replaces
// what a static code encodes and how it looks with the creation's form; a
// blank name keeps the code's. What the create view's regenerate sends.
func (s *server) updateQRCode(w http.ResponseWriter, r *http.Request) {
	old, ok := ownCode(s, w, r, s.store.QRCode)
	if !ok {
		return
	}
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil || (form.file != nil && !s.admitUpload(w, r)) {
		return
	}
	if q, ok := s.saveStaticCode(w, r, form.values, form.file, old); ok {
		writeJSON(w, http.StatusOK, qrCodeJSON(q))
	}
}

// saveStaticCode saves the caller's static code described by a form's
// values and logo file, checked by internal/codes under the same rules
// wherever it comes from (the app's form, the public API): as a new code,
// or over old when it is not nil. On failure it has answered.
func (s *server) saveStaticCode(w http.ResponseWriter, r *http.Request, values map[string]string, file *upload, old *store.QRCode) (*store.QRCode, bool) {
	if !s.applyBrandKit(w, r, values, file) {
		return nil, false
	}
	req, err := codes.StaticForm(values, file)
	if err != nil {
		s.answerRefused(w, r, "reading a QR code", err)
		return nil, false
	}
	p, ok := s.prepare(w, r, req)
	if !ok {
		return nil, false
	}
	u := auth.UserFrom(r.Context())
	if file != nil {
		if p.Logo, ok = s.saveLogo(w, r, u, file); !ok {
			return nil, false
		}
	}
	q, err := p.QRCode()
	if err != nil {
		s.internalError(w, "encoding type fields", err)
		return nil, false
	}
	q.ClientID, q.WorkspaceID, q.UserID, q.CreatedAt = codeClientID(r, u), wsID(r), u.ID, s.now()
	if req.Name == "" && old != nil {
		q.Name = old.Name
	}
	if p.Logo != nil {
		q.LogoFilePath, q.LogoFileName = logoPath(p.Logo.ID), p.Logo.FileName
	}
	if old != nil {
		q.ID = old.ID
		q, err = s.store.UpdateQRCode(r.Context(), q)
		if errors.Is(err, store.ErrNotFound) { // deleted meanwhile
			writeError(w, http.StatusNotFound, msgCodeMissing)
			return nil, false
		}
	} else {
		err = s.store.CreateQRCode(r.Context(), q)
	}
	if err != nil {
		s.internalError(w, "saving a QR code", err)
		return nil, false
	}
	return q, true
}

// listQRCodes (GET /api/qrcodes, signed in) lists the caller's live static
// codes, newest first, in one query.
func (s *server) listQRCodes(w http.ResponseWriter, r *http.Request) {
	userID := wsID(r)
	list, err := s.store.QRCodes(r.Context(), userID)
	if err != nil {
		s.internalError(w, "listing QR codes", err)
		return
	}
	out := make([]qrCodeResponse, len(list))
	for i, q := range list {
		out[i] = qrCodeJSON(q)
	}
	if err := s.addPaymentStats(r, userID, list, out); err != nil {
		s.internalError(w, "totalling payments", err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// qrCodeImage (GET /api/qrcodes/{id}/image?format=svg|png|pdf&size=&download=1,
// signed in, owner only) renders a saved static code.
func (s *server) qrCodeImage(w http.ResponseWriter, r *http.Request) {
	if c, ok := s.savedQRCode(w, r); ok {
		s.serveCodeImage(w, r, c)
	}
}

// qrCodePreflight (GET /api/qrcodes/{id}/preflight?sizeMm=&distanceCm=,
// owner only) measures a saved static code at a print size.
func (s *server) qrCodePreflight(w http.ResponseWriter, r *http.Request) {
	if c, ok := s.savedQRCode(w, r); ok {
		s.savedPreflight(w, r, c)
	}
}

// savedQRCode is what the caller's static code {id} is drawn from. On
// failure it has answered.
func (s *server) savedQRCode(w http.ResponseWriter, r *http.Request) (savedImage, bool) {
	q, ok := ownCode(s, w, r, s.store.QRCode)
	if !ok {
		return savedImage{}, false
	}
	return savedImage{
		data: q.Content, style: codeStyle(q.Style), level: codes.StaticLevel, logoPath: q.LogoFilePath,
		qrType: q.QRType, qrCodeID: &q.ID, details: map[string]any{"name": q.Name},
	}, true
}

// savedLogo is the image of a saved code's logoFilePath ("/logo/{id}"), or
// nil when the code has none.
func (s *server) savedLogo(r *http.Request, logoFilePath string) ([]byte, error) {
	id, ok := logoIDFromPath(logoFilePath)
	if !ok {
		return nil, nil
	}
	b, err := s.store.Blob(r.Context(), id)
	if err != nil {
		return nil, err
	}
	return s.renderLogo(r.Context(), b)
}
