package codes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// Creating and changing a code: the one place its rules live. The app's
// routes, the public API and bulk rows read their requests into a Request
// and call Prepare, which checks and draws the code and answers it ready to
// save, or a *Refused saying why not. Nothing here writes HTTP answers.

// Messages refusing a request; the tests of every route compare them.
const (
	// MsgPremium refuses premium options to visitors (403).
	MsgPremium = "This feature requires an account. Please sign in or create a free account."
	// MsgBlocked refuses the 'Future Feature' types to everyone.
	MsgBlocked     = "This QR code type is not available yet"
	MsgURLRequired = "URL is required"
	MsgURLInvalid  = "Please enter a valid URL"
	MsgDomainID    = "domainId must be a domain's id, or null for the base URL"
	// MsgDomainMissing, MsgDomainUnproved and MsgDomainNotPointing refuse
	// a code's domain that is not the workspace's (404), not verified yet
	// (400), or not seen to reach this instance yet (400).
	MsgDomainMissing     = "Domain not found"
	MsgDomainUnproved    = "This domain is not verified yet: verify it before codes can use it"
	MsgDomainNotPointing = "This domain does not point here yet: add its DNS record, then check it again on the Domains page"
	msgLogoMissing       = "Logo not found"
)

const (
	// StaticLevel is the error correction of static codes: high, as spec
	// 01 §9 asks for previews and custom renderings (a logo needs it anyway).
	StaticLevel = qr.H
	// DynamicLevel is the error correction dynamic codes are created with
	// (spec 01 §9); a logo raises it to H when rendering.
	DynamicLevel = qr.M
	// MaxDestination is the longest destination URL accepted, in bytes.
	MaxDestination = 2048
	// MaxName is the longest name a saved code may have, in characters.
	MaxName = 100
)

// Refused is a request the caller can fix: the status to answer, the
// message, the field it concerns and every refused field (nil when the
// refusal names none).
type Refused struct {
	Status  int
	Field   string
	Message string
	Fields  map[string]string
	Code    string // for the app to act on ("invalid", "taken"); "" for none
}

func (e *Refused) Error() string { return e.Message }

// refuse is a 400 about one field.
func refuse(field, msg string) *Refused {
	return &Refused{Status: http.StatusBadRequest, Field: field, Message: msg, Fields: map[string]string{field: msg}}
}

// AsRefused reports whether err is the user's to fix: a *Refused, or a
// renderer's refusal (Refusal) as a 400 about its field.
func AsRefused(err error) (*Refused, bool) {
	if rf, ok := errors.AsType[*Refused](err); ok {
		return rf, true
	}
	if field, msg, ok := Refusal(err); ok {
		return refuse(field, msg), true
	}
	return nil, false
}

// Problems collects field refusals in the order found; the first becomes
// the message.
type Problems struct {
	first  string
	fields map[string]string
}

// Add records msg for field unless the field already has one.
func (p *Problems) Add(field, msg string) {
	if _, dup := p.fields[field]; dup {
		return
	}
	if p.fields == nil {
		p.fields = map[string]string{}
		p.first = field
	}
	p.fields[field] = msg
}

// Err is the collected refusals as one 400, nil when there are none.
func (p *Problems) Err() error {
	if p.fields == nil {
		return nil
	}
	return &Refused{Status: http.StatusBadRequest, Field: p.first, Message: p.fields[p.first], Fields: p.fields}
}

// CheckType refuses missing, unknown and blocked types.
func CheckType(t string) error {
	switch {
	case t == "":
		return refuse("qrType", "QR code type is required")
	case !payload.Known(t):
		return refuse("qrType", payload.UnknownType)
	case payload.Blocked(t):
		return refuse("qrType", MsgBlocked)
	}
	return nil
}

// NameProblem checks a code's name (already trimmed) and returns what is
// wrong with it, or "". Control characters and bidi controls are refused:
// an override (U+202E) shows a name reversed, so a name could pass for
// another in the dashboard, in exports and in mails.
func NameProblem(name string) string {
	if !utf8.ValidString(name) {
		return "Name must be UTF-8 text"
	}
	if utf8.RuneCountInString(name) > MaxName {
		return "Name must be at most 100 characters"
	}
	if HasControl(name) {
		return "Name must not contain control or text direction characters"
	}
	return ""
}

// HasControl reports whether s holds a control or text direction
// character (see NameProblem).
func HasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) >= 0
}

// CheckDestination returns the trimmed destination, or the message
// refusing it: only absolute http and https URLs with a host redirect, so
// a code can never send a phone to javascript:, data: or a relative path.
// Spaces, controls and invisible formatting (a right-to-left override
// shows a link reversed) are refused anywhere in it.
func CheckDestination(raw string) (string, string) {
	dest := strings.TrimSpace(raw)
	if dest == "" {
		return "", MsgURLRequired
	}
	if len(dest) > MaxDestination || !utf8.ValidString(dest) || strings.ContainsRune(dest, '\\') || strings.ContainsFunc(dest, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
	}) {
		return "", MsgURLInvalid
	}
	u, err := url.Parse(dest)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return "", MsgURLInvalid
	}
	return dest, ""
}

// CheckLink adds path's refusal to p unless in is a destination
// CheckDestination accepts, and returns it trimmed.
func CheckLink(p *Problems, path string, in any) string {
	s, ok := in.(string)
	// JSON decoding turns invalid UTF-8 into U+FFFD, which no typed URL holds.
	if !ok || strings.ContainsRune(s, utf8.RuneError) {
		p.Add(path, MsgURLInvalid)
		return ""
	}
	dest, problem := CheckDestination(s)
	if problem != "" {
		p.Add(path, problem)
	}
	return dest
}

// CheckQRData adds the refusals of a dynamic code's type fields (qrData,
// "" for none) to p: they must be a JSON object, and an apps code's store
// links (appStoreUrl, playStoreUrl) follow the destination rules.
func CheckQRData(p *Problems, qrType, qrData string) {
	if qrData == "" {
		return
	}
	var fields map[string]any
	if json.Unmarshal([]byte(qrData), &fields) != nil || fields == nil {
		p.Add("qrData", "qrData must be a JSON object")
		return
	}
	if qrType != "apps" {
		return
	}
	for _, k := range []string{"appStoreUrl", "playStoreUrl"} {
		if val, ok := fields[k]; ok && val != "" {
			CheckLink(p, "qrData."+k, val)
		}
	}
}

// FieldsRefused is a type's field errors as one 400; the message is the
// first in form order.
func FieldsRefused(qrType string, fe payload.FieldErrors) *Refused {
	for _, k := range append(payload.FieldNames(qrType), "qrType") {
		if m, ok := fe[k]; ok {
			return &Refused{Status: http.StatusBadRequest, Field: k, Message: m, Fields: fe}
		}
	}
	return &Refused{Status: http.StatusBadRequest, Message: fe.Error(), Fields: fe}
}

// FormKey is the form (and spreadsheet column) name of type t's field f:
// location's name and description would clash with the saved code's own
// name (docs/API.md "Type fields").
func FormKey(t, f string) string {
	if t == "location" {
		switch f {
		case "name":
			return "locationName"
		case "description":
			return "locationDescription"
		}
	}
	return f
}

// Kind is what a request makes.
type Kind int

const (
	// Generated is the generator's preview or download: nothing is saved,
	// and the caller draws the code itself.
	Generated Kind = iota
	Static
	Dynamic
)

// Upload is a file sent with a request, not stored yet.
type Upload struct {
	Name       string // the client's file name, made safe
	Data       []byte
	Normalized bool // a logo, decoded and stored small (Creator.NormalizeLogo)
}

// Request is a code as a caller describes it.
type Request struct {
	Kind   Kind
	QRType string
	// Fields are the type's fields: a static code's, or a dynamic code's
	// when it is made from them (a spreadsheet row), which checks them as
	// a static code's.
	Fields payload.Fields
	// QRData is a dynamic code's type fields as sent, a JSON object or "".
	QRData string
	Style  Style
	Level  qr.Level // a dynamic code's error correction
	Name   string   // trimmed; "" for the default
	// LogoID is an uploaded logo of the workspace; LogoFile one sent with
	// the request instead (checked, not stored).
	LogoID       *int64
	LogoFile     *Upload
	ScanTracking bool
	// Temporary is a live preview: a pdf or images code may point at a
	// placeholder, and a payment code gets no product.
	Temporary   bool
	Destination string // a dynamic code's
	// DomainID names the workspace's verified domain a dynamic code
	// prints; Domain is one already read (a bulk job's). Neither: the base
	// URL.
	DomainID *int64
	Domain   *store.Domain
	// ShortCode is a dynamic code's chosen short code (CheckShortCode),
	// "" for a random one.
	ShortCode string
	// Row is a spreadsheet row, checked by the thousand on every core: laid
	// out without a render slot (it has no logo or file), and not counted
	// against the limit (the job counts its rows).
	Row bool
}

// Caller is who asks: the facts of their workspace and plan.
type Caller struct {
	User        *store.User // nil: a visitor
	WorkspaceID int64       // the workspace acted in, 0 for none; the files a code names must be its
	// Keeps reports whether the caller may keep things in the workspace
	// (a payment code's product).
	Keeps    bool
	ClientID int64 // the client a new dynamic code belongs to
	// DynamicLimit is the live dynamic codes the workspace may have, 0 for
	// no limit.
	DynamicLimit int
}

// Prepared is a checked request, ready to save or draw.
type Prepared struct {
	Kind    Kind
	QRType  string
	Fields  payload.Fields
	QRData  string // a dynamic code's, as sent
	Style   Style  // normalized
	Level   qr.Level
	Name    string                // the request's, else the type's label and the date
	Logo    *store.Blob           // with data; nil = none
	File    *store.Blob           // the pdf or image a pdf/images code points at (no data)
	Product *store.PaymentProduct // a saved payment code's, created by Prepare
	// Data is the exact text a static code encodes; for a dynamic code, a
	// short URL of the length its own will have.
	Data        string
	Destination string
	Domain      *store.Domain
	ShortCode   string // a dynamic code's chosen one, "" for random
}

// LogoData is the logo image to render, or nil.
func (p *Prepared) LogoData() []byte {
	if p.Logo == nil {
		return nil
	}
	return p.Logo.Data
}

// Creator prepares codes with what it needs of the rest of the server.
type Creator struct {
	Store   *store.Store
	BaseURL string
	Now     func() time.Time
	// LimitMessage refuses a dynamic code past the workspace's limit.
	LimitMessage string
	// Slot takes one of the instance's render slots and returns the
	// function that gives it back, or why none was free.
	Slot func(ctx context.Context) (done func(), err error)
	// StoredLogo is a stored logo's image for the renderer.
	StoredLogo func(ctx context.Context, b *store.Blob) ([]byte, error)
	// NormalizeLogo checks a logo file sent with a request and replaces
	// its data with the PNG the renderer keeps.
	NormalizeLogo func(ctx context.Context, f *Upload) error
	// Domain is the workspace's verified domain id, or why not.
	Domain func(ctx context.Context, workspaceID, id int64) (*store.Domain, error)
	// ShortURL is the URL a dynamic code encodes.
	ShortURL func(d *store.DynamicCode) string
}

// Prepare checks req for who in the order a user can act on: the type,
// premium options (403), the style, the type's fields, then the files
// they name (404 when missing or another workspace's), the logo and a
// dynamic code's domain; then draws the code once, so a style that would
// not scan is refused, and counts a dynamic code against the limit. A
// saved payment code gets its product here, after every check has
// passed. Refusals are *Refused or the renderer's (AsRefused); other
// errors are the server's.
func (c *Creator) Prepare(ctx context.Context, req Request, who Caller) (*Prepared, error) {
	if err := CheckType(req.QRType); err != nil {
		return nil, err
	}
	if who.User == nil && (payload.NeedsAccount(req.QRType) || strings.TrimSpace(req.Style.GradientColor) != "" ||
		req.LogoID != nil || req.LogoFile != nil || req.ScanTracking) {
		return nil, &Refused{Status: http.StatusForbidden, Message: MsgPremium}
	}
	style, err := req.Style.Normalize()
	if err != nil {
		return nil, err
	}
	p := &Prepared{Kind: req.Kind, QRType: req.QRType, Fields: req.Fields, QRData: req.QRData, Style: style, Level: StaticLevel, Name: req.Name}
	if p.Name == "" && req.Kind != Generated {
		p.Name = payload.Label(req.QRType) + " " + c.Now().UTC().Format(time.DateOnly)
	}
	if req.Kind == Dynamic {
		return c.prepareDynamic(ctx, p, req, who)
	}

	// A preview may come before the upload: it points at a placeholder.
	fileField := map[string]string{"pdf": "pdfFile", "images": "imageFile"}[req.QRType]
	placeholder := req.Temporary && fileField != "" && strings.TrimSpace(req.Fields[fileField]) == ""
	if placeholder {
		p.Fields = maps.Clone(req.Fields)
		p.Fields[fileField] = "preview"
	}
	if fe := payload.Validate(req.QRType, p.Fields); len(fe) > 0 {
		return nil, FieldsRefused(req.QRType, fe)
	}
	if fileField != "" && !placeholder {
		if p.File, err = c.typeFile(ctx, req.QRType, fileField, p.Fields, who); err != nil {
			return nil, err
		}
	}
	if p.Logo, err = c.Logo(ctx, req.LogoID, req.LogoFile, who); err != nil {
		return nil, err
	}
	opt := payload.Options{BaseURL: c.BaseURL}
	if req.QRType == "gs1" {
		if opt.GS1Origin, err = c.gs1Origin(ctx, p, req, who); err != nil {
			return nil, err
		}
	}

	switch {
	case req.QRType == "payment" && req.Temporary:
		price := payload.PriceCents(p.Fields["productPrice"])
		p.Data = c.BaseURL + "/payment?temp=true&name=" + url.QueryEscape(strings.TrimSpace(p.Fields["productName"])) +
			"&price=" + fmt.Sprintf("%d.%02d", price/100, price%100)
	case req.QRType == "payment":
		// Check the style before the product exists, with an id longer
		// than any real one, so a refusal leaves nothing behind.
		if err := c.draw(ctx, c.BaseURL+"/payment?id=99999999999", p, false); err != nil {
			return nil, err
		}
		p.Product = &store.PaymentProduct{
			WorkspaceID:        who.keptIn(),
			ProductName:        strings.TrimSpace(p.Fields["productName"]),
			ProductDescription: strings.TrimSpace(p.Fields["productDescription"]),
			ProductPrice:       payload.PriceCents(p.Fields["productPrice"]),
			CreatedAt:          c.Now(),
		}
		if who.User != nil {
			p.Product.UserID = &who.User.ID
		}
		if err := c.Store.CreatePaymentProduct(ctx, p.Product); err != nil {
			return nil, fmt.Errorf("creating a payment product: %w", err)
		}
		p.Data, err = payload.Build("payment", p.Fields, payload.Options{BaseURL: c.BaseURL, ProductID: strconv.FormatInt(p.Product.ID, 10)})
	case placeholder:
		p.Data = c.BaseURL + map[string]string{"pdf": "/pdf/preview", "images": "/image-placeholder"}[req.QRType]
	default:
		p.Data, err = payload.Build(req.QRType, p.Fields, opt)
	}
	if err != nil {
		return nil, fmt.Errorf("building a payload: %w", err)
	}
	if req.Kind == Static {
		if err := c.draw(ctx, p.Data, p, req.Row); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// gs1Origin is the origin a gs1 code's Digital Link URI is on: the
// workspace's verified domain its domainId names (p.Domain), "" for the
// base URL. A bulk row's domain (req.Domain) is already read.
func (c *Creator) gs1Origin(ctx context.Context, p *Prepared, req Request, who Caller) (string, error) {
	p.Domain = req.Domain
	if raw := strings.TrimSpace(p.Fields["domainId"]); p.Domain == nil && raw != "" {
		id, _ := strconv.ParseInt(raw, 10, 64) // validated
		var err error
		if p.Domain, err = c.Domain(ctx, who.WorkspaceID, id); err != nil {
			return "", err
		}
	}
	if p.Domain == nil {
		return "", nil
	}
	return "https://" + p.Domain.Domain, nil
}

// keptIn is the workspace new things of the caller are kept in, nil when
// they may keep none there.
func (who Caller) keptIn() *int64 {
	if !who.Keeps || who.WorkspaceID == 0 {
		return nil
	}
	return &who.WorkspaceID
}

// owns reports whether b is a file of the caller's workspace.
func (who Caller) owns(b *store.Blob) bool {
	return who.WorkspaceID != 0 && b.WorkspaceID != nil && *b.WorkspaceID == who.WorkspaceID
}

// typeFile is the upload a pdf or images code's fileField names.
func (c *Creator) typeFile(ctx context.Context, qrType, fileField string, fields payload.Fields, who Caller) (*store.Blob, error) {
	id, _ := strconv.ParseInt(strings.TrimSpace(fields[fileField]), 10, 64)
	kind, msg := "image", "Image file not found"
	if qrType == "pdf" {
		kind, msg = "pdf", "PDF file not found"
	}
	b, err := c.Store.BlobInfo(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("fetching an upload: %w", err)
	}
	// PDFs need an account, so they have an owner; images may be a
	// visitor's, and their pages are public anyway.
	if b == nil || b.Kind != kind || (kind == "pdf" && !who.owns(b)) {
		rf := refuse(fileField, msg)
		rf.Status = http.StatusNotFound
		return nil, rf
	}
	return b, nil
}

// Logo checks the logo a request names: the workspace's uploaded logo
// logoID, or a file sent with the request (checked, not stored). It
// returns the logo with its data, nil for none; 404 `Logo not found` when
// it is missing, not a logo, or another workspace's.
func (c *Creator) Logo(ctx context.Context, logoID *int64, file *Upload, who Caller) (*store.Blob, error) {
	switch {
	case file != nil:
		if err := c.NormalizeLogo(ctx, file); err != nil {
			return nil, err
		}
		name := file.Name
		if name == "" {
			name = "logo"
		}
		return &store.Blob{Kind: "logo", FileName: name, Data: file.Data}, nil
	case logoID != nil:
		b, err := c.Store.Blob(ctx, *logoID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("fetching a logo: %w", err)
		}
		if b == nil || b.Kind != "logo" || !who.owns(b) {
			rf := refuse("logoId", msgLogoMissing)
			rf.Status = http.StatusNotFound
			return nil, rf
		}
		if _, err := c.StoredLogo(ctx, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return nil, nil
}

// prepareDynamic goes on with a dynamic code after its style.
func (c *Creator) prepareDynamic(ctx context.Context, p *Prepared, req Request, who Caller) (*Prepared, error) {
	p.Level = req.Level
	if req.Fields != nil {
		if fe := payload.Validate(req.QRType, req.Fields); len(fe) > 0 {
			return nil, FieldsRefused(req.QRType, fe)
		}
	}
	var problems Problems
	CheckQRData(&problems, req.QRType, req.QRData)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	dest, problem := CheckDestination(req.Destination)
	if problem != "" {
		return nil, refuse("destination", problem)
	}
	p.Destination = dest
	var err error
	if p.Logo, err = c.Logo(ctx, req.LogoID, req.LogoFile, who); err != nil {
		return nil, err
	}
	p.Domain = req.Domain
	if p.Domain == nil && req.DomainID != nil {
		if p.Domain, err = c.Domain(ctx, who.WorkspaceID, *req.DomainID); err != nil {
			return nil, err
		}
	}
	// Every short URL of a client (or domain) has the same length, so one
	// stands for all.
	// A chosen short code is drawn as it is.
	probe := &store.DynamicCode{ClientID: who.ClientID, ShortCode: store.NewShortCode()}
	if req.ShortCode != "" {
		if rf := RefuseShortCode(req.ShortCode); rf != nil {
			return nil, rf
		}
		probe.ShortCode, probe.ShortCodeChosen, p.ShortCode = req.ShortCode, true, req.ShortCode
	}
	if p.Domain != nil {
		probe.DomainID, probe.Domain = &p.Domain.ID, p.Domain.Domain
	}
	p.Data = c.ShortURL(probe)
	if err := c.draw(ctx, p.Data, p, req.Row); err != nil {
		return nil, err
	}
	// An early count spares saving a logo for a refused code; the store
	// enforces the limit again, atomically.
	if who.DynamicLimit > 0 && !req.Row {
		n, err := c.Store.CountDynamicCodes(ctx, who.WorkspaceID, c.Now())
		if err != nil {
			return nil, fmt.Errorf("counting dynamic codes: %w", err)
		}
		if n >= who.DynamicLimit {
			return nil, &Refused{Status: http.StatusForbidden, Message: c.LimitMessage}
		}
	}
	return p, nil
}

// draw lays out data in p's style and logo without keeping the image, in
// a render slot unless inline (a row: no logo, laid out on its own core).
func (c *Creator) draw(ctx context.Context, data string, p *Prepared, inline bool) error {
	if inline {
		return Check(data, p.Style, p.Level)
	}
	done, err := c.Slot(ctx)
	if err != nil {
		return err
	}
	defer done()
	return Write(io.Discard, data, p.Style, Options{Format: SVG, Level: p.Level, Pixels: PreviewPixels, Logo: p.LogoData()})
}
