package codes

import (
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
)

// The form a saved code is described by (the app's multipart form, or the
// public API's JSON members as text), read into a Request. Each reader
// checks what the form alone can tell, in the order its refusals have
// always come.

const (
	// MaxFieldValue is the most bytes of one field of a code's form.
	MaxFieldValue = 4 << 10
	// MsgMissing answers a code that is not the caller's, or no more.
	MsgMissing = "QR code not found"
)

// StaticForm reads a static code's form: qrMode, qrType, name, the style
// fields, scanTracking, logoId (ignored with a logo file) and the type's
// fields under their form names (FormKey).
func StaticForm(values map[string]string, file *Upload) (Request, error) {
	get := func(k string) string { return values[k] }
	switch strings.TrimSpace(get("qrMode")) {
	case "", "static":
	case "dynamic":
		return Request{}, refuse("qrMode", "Dynamic QR codes are created with POST /api/dynamic-qrcodes")
	default:
		return Request{}, refuse("qrMode", "qrMode must be static or dynamic")
	}
	req := Request{Kind: Static, QRType: strings.TrimSpace(get("qrType")), Name: strings.TrimSpace(get("name")), Fields: payload.Fields{}, LogoFile: file}
	if problem := NameProblem(req.Name); problem != "" {
		return Request{}, refuse("name", problem)
	}
	var err error
	if req.Style, err = FormStyle(get); err != nil {
		return Request{}, err
	}
	if req.ScanTracking, err = FormBool(get("scanTracking")); err != nil {
		return Request{}, refuse("scanTracking", "scanTracking must be true or false")
	}
	if req.LogoID, err = FormLogoID(get, file); err != nil {
		return Request{}, err
	}
	for _, k := range payload.FieldNames(req.QRType) {
		if v, ok := values[FormKey(req.QRType, k)]; ok {
			req.Fields[k] = v
		}
	}
	return req, nil
}

// DynamicForm reads a dynamic code's form: destination, qrType (default
// url), name, qrData (its type fields as a JSON object), qrStyle,
// errorCorrectionLevel, the style fields, logoId (ignored with a logo
// file), domainId and shortCode (chosen, "" for random). The first fields' refusals come together.
func DynamicForm(values map[string]string, file *Upload) (Request, error) {
	get := func(k string) string { return values[k] }
	req := Request{Kind: Dynamic, QRType: strings.TrimSpace(get("qrType")), Name: strings.TrimSpace(get("name")),
		QRData: strings.TrimSpace(get("qrData")), Level: DynamicLevel, LogoFile: file}
	var p Problems
	dest, problem := CheckDestination(get("destination"))
	if problem != "" {
		p.Add("destination", problem)
	}
	req.Destination = dest
	if req.QRType == "" {
		req.QRType = "url"
	}
	if problem := NameProblem(req.Name); problem != "" {
		p.Add("name", problem)
	}
	CheckQRData(&p, req.QRType, req.QRData)
	if qs := strings.TrimSpace(get("qrStyle")); qs != "" && qs != "squares" {
		p.Add("qrStyle", "qrStyle must be squares")
	}
	if raw := strings.TrimSpace(get("errorCorrectionLevel")); raw != "" {
		l, ok := qr.ParseLevel(raw)
		if !ok {
			p.Add("errorCorrectionLevel", "errorCorrectionLevel must be L, M, Q or H")
		}
		req.Level = l
	}
	if err := p.Err(); err != nil {
		return Request{}, err
	}
	if err := CheckType(req.QRType); err != nil {
		return Request{}, err
	}
	style, err := FormStyle(get)
	if err == nil {
		req.Style, err = style.Normalize()
	}
	if err != nil {
		return Request{}, err
	}
	if req.LogoID, err = FormLogoID(get, file); err != nil {
		return Request{}, err
	}
	if raw := strings.TrimSpace(get("domainId")); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return Request{}, refuse("domainId", MsgDomainID)
		}
		req.DomainID = &id
	}
	if req.ShortCode = strings.TrimSpace(get("shortCode")); req.ShortCode != "" {
		if rf := RefuseShortCode(req.ShortCode); rf != nil {
			return Request{}, rf
		}
	}
	return req, nil
}

// FormLogoID reads a form's logoId, nil when absent; a form that sends a
// logo file ignores it.
func FormLogoID(get func(string) string, file *Upload) (*int64, error) {
	v := strings.TrimSpace(get("logoId"))
	if v == "" || file != nil {
		return nil, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, refuse("logoId", "logoId must be a number")
	}
	return &id, nil
}
