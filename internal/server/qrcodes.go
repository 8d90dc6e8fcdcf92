package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// maxCodeName is the longest name a saved code may have, in characters.
const maxCodeName = 100

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

// savedStyle is a normalized style and error correction level as a saved
// code keeps them (codeStyle's inverse); the logo columns are left empty.
func savedStyle(style codes.Style, level qr.Level) store.Style {
	return store.Style{
		FgColor: style.FgColor, BgColor: style.BgColor, GradientColor: style.GradientColor, QRStyle: "squares",
		Gradient: store.GradientSpec{Type: style.GradientType, Angle: *style.GradientAngle, OnEyes: style.GradientOnEyes},
		DotShape: style.DotShape, CornerShape: style.CornerShape, InnerCornerShape: style.InnerCornerShape,
		OuterCornerColor: style.OuterCornerColor, InnerCornerColor: style.InnerCornerColor,
		ErrorCorrectionLevel: level.String(), LogoSize: style.LogoSize,
		EnableFrame: style.EnableFrame, FrameText: style.FrameText, FrameColor: style.FrameColor,
		FrameTextColor: style.FrameTextColor, FrameStyle: style.FrameStyle,
	}
}

// saveFormKeys renames fields whose form name would clash with the saved
// code's own "name" (docs/API.md "Type fields").
var saveFormKeys = map[string]map[string]string{
	"location": {"name": "locationName", "description": "locationDescription"},
}

// createQRCode (POST /api/qrcodes, signed in) saves a static code from a
// multipart form: the generator's fields, name, qrMode and an optional
// logoFile (or logoId).
func (s *server) createQRCode(w http.ResponseWriter, r *http.Request) {
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil || (form.file != nil && !s.admitUpload(w, r)) {
		return
	}
	if q, ok := s.saveStaticCode(w, r, form, nil); ok {
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
	if q, ok := s.saveStaticCode(w, r, form, old); ok {
		writeJSON(w, http.StatusOK, qrCodeJSON(q))
	}
}

// saveStaticCode checks the caller's static code described by form and
// saves it, under the same rules wherever it comes from (the app's form,
// the public API): as a new code, or over old when it is not nil. On
// failure it has answered.
func (s *server) saveStaticCode(w http.ResponseWriter, r *http.Request, form *multipartForm, old *store.QRCode) (*store.QRCode, bool) {
	if !s.applyBrandKit(w, r, form) {
		return nil, false
	}
	switch strings.TrimSpace(form.get("qrMode")) {
	case "", "static":
	case "dynamic":
		fieldError(w, "qrMode", "Dynamic QR codes are created with POST /api/dynamic-qrcodes")
		return nil, false
	default:
		fieldError(w, "qrMode", "qrMode must be static or dynamic")
		return nil, false
	}
	qrType := strings.TrimSpace(form.get("qrType"))
	name := strings.TrimSpace(form.get("name"))
	if problem := nameProblem(name); problem != "" {
		fieldError(w, "name", problem)
		return nil, false
	}
	style, err := codes.FormStyle(form.get)
	if err != nil {
		renderRefused(w, err)
		return nil, false
	}
	scanTracking, err := codes.FormBool(form.get("scanTracking"))
	if err != nil {
		fieldError(w, "scanTracking", "scanTracking must be true or false")
		return nil, false
	}
	logoID, ok := formLogoID(w, form)
	if !ok {
		return nil, false
	}
	req := codeRequest{qrType: qrType, fields: payload.Fields{}, style: style, logoID: logoID, logoFile: form.file, scanTracking: scanTracking}
	for _, k := range payload.FieldNames(qrType) {
		key := k
		if alt, ok := saveFormKeys[qrType][k]; ok {
			key = alt
		}
		if v, ok := form.values[key]; ok {
			req.fields[k] = v
		}
	}

	u := auth.UserFrom(r.Context())
	p, ok := s.prepareCode(w, r, u, req)
	if !ok || !s.checkRender(w, r, p.data, p) {
		return nil, false
	}
	if form.file != nil {
		if p.logo, ok = s.saveLogo(w, r, u, form.file); !ok {
			return nil, false
		}
	}
	fieldsJSON, err := json.Marshal(p.fields)
	if err != nil {
		s.internalError(w, "encoding type fields", err)
		return nil, false
	}
	now := s.now()
	switch {
	case name == "" && old != nil:
		name = old.Name
	case name == "":
		name = payload.Label(qrType) + " " + now.UTC().Format(time.DateOnly)
	}
	q := &store.QRCode{
		ClientID: codeClientID(r, u), WorkspaceID: wsID(r), UserID: u.ID, Name: name, QRType: qrType, QRMode: "static",
		URL: strings.TrimSpace(p.fields["url"]), QRData: string(fieldsJSON), Content: p.data,
		TypeColumns: typeColumns(p),
		Style:       savedStyle(p.style, codeLevel),
		CreatedAt:   now,
	}
	if p.logo != nil {
		q.LogoFilePath, q.LogoFileName = logoPath(p.logo.ID), p.logo.FileName
	}
	if p.product != nil {
		q.PaymentProductID = &p.product.ID
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

// typeColumns fills the spec's per-type qr_codes columns from the fields.
func typeColumns(p *preparedCode) map[string]any {
	c := map[string]any{}
	set := func(col, field string) {
		if v := strings.TrimSpace(p.fields[field]); v != "" {
			c[col] = v
		}
	}
	switch p.qrType {
	case "contact":
		for col, k := range map[string]string{"first_name": "firstName", "last_name": "lastName", "email": "email",
			"phone_number": "phoneNumber", "notes": "notes", "image_url": "imageUrl"} {
			set(col, k)
		}
	case "payment":
		set("product_name", "productName")
		set("product_description", "productDescription")
		c["product_price"] = payload.PriceCents(p.fields["productPrice"])
	case "pdf", "images":
		prefix := map[string]string{"pdf": "pdf_", "images": "image_"}[p.qrType]
		set(prefix+"title", "title")
		set(prefix+"description", "description")
		if p.qrType == "pdf" {
			c["pdf_url"] = p.data
		}
		if p.file != nil {
			c[prefix+"file_path"] = p.data + "/file"
			c[prefix+"file_name"] = p.file.FileName
		}
	case "social":
		set("platform", "platform")
	case "ratings":
		set("business_name", "businessName")
		set("platform", "platform")
		set("review_url", "url")
	case "apps":
		set("app_name", "appName")
		set("platform", "platform")
		set("app_description", "appDescription")
		set("app_category", "appCategory")
		set("app_developer", "appDeveloper")
		switch p.fields["platform"] {
		case "appstore":
			set("app_store_url", "url")
		case "googleplay":
			set("play_store_url", "url")
		}
	case "email":
		set("email_recipient", "email")
		set("email_subject", "subject")
		set("email_body", "body")
	case "location":
		set("location_address", "address")
		set("location_name", "name")
		set("location_description", "description")
		for col, k := range map[string]string{"location_latitude": "latitude", "location_longitude": "longitude"} {
			if v, err := strconv.ParseFloat(strings.TrimSpace(p.fields[k]), 64); err == nil {
				c[col] = v
			}
		}
	}
	return c
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
	q, ok := ownCode(s, w, r, s.store.QRCode)
	if !ok {
		return
	}
	s.serveCodeImage(w, r, savedImage{
		data: q.Content, style: codeStyle(q.Style), level: codeLevel, logoPath: q.LogoFilePath,
		qrType: q.QRType, qrCodeID: &q.ID, details: map[string]any{"name": q.Name},
	})
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
