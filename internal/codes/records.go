package codes

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
)

// A prepared code as the store keeps it.

// QRCode is p, a static code, as a record to save; the caller adds who
// made it, when, and its logo's path.
func (p *Prepared) QRCode() (*store.QRCode, error) {
	fieldsJSON, err := json.Marshal(p.Fields)
	if err != nil {
		return nil, err
	}
	q := &store.QRCode{
		Name: p.Name, QRType: p.QRType, QRMode: "static", URL: strings.TrimSpace(p.Fields["url"]), QRData: string(fieldsJSON),
		Content: p.Data, TypeColumns: TypeColumns(p), Style: SavedStyle(p.Style, p.Level),
	}
	if p.Product != nil {
		q.PaymentProductID = &p.Product.ID
	}
	return q, nil
}

// DynamicCode is p, a dynamic code, as a record to save; the caller adds
// who made it, when, its short code and its logo's path.
func (p *Prepared) DynamicCode() *store.DynamicCode {
	d := &store.DynamicCode{Name: p.Name, Destination: p.Destination, QRType: p.QRType, QRData: p.QRData, Style: SavedStyle(p.Style, p.Level),
		ShortCode: p.ShortCode, ShortCodeChosen: p.ShortCode != ""}
	if p.Domain != nil {
		d.DomainID, d.Domain = &p.Domain.ID, p.Domain.Domain
	}
	return d
}

// BulkCode is p, a spreadsheet row's code, as a bulk job keeps it until
// its runner saves it under fileName.
func (p *Prepared) BulkCode(fileName string) (store.BulkCode, error) {
	fieldsJSON, err := json.Marshal(p.Fields)
	if err != nil {
		return store.BulkCode{}, err
	}
	code := store.BulkCode{
		Name: p.Name, FileName: fileName, QRType: p.QRType, URL: strings.TrimSpace(p.Fields["url"]), QRData: string(fieldsJSON),
		TypeColumns: TypeColumns(p), Dynamic: p.Kind == Dynamic, Destination: p.Destination, Style: SavedStyle(p.Style, p.Level),
		ShortCode: p.ShortCode,
	}
	if !code.Dynamic {
		code.Content = p.Data
	}
	return code, nil
}

// SavedStyle is a normalized style and error correction level as a saved
// code keeps them (the server's codeStyle reads it back); the logo columns are left empty.
func SavedStyle(style Style, level qr.Level) store.Style {
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

// TypeColumns fills the spec's per-type qr_codes columns from the fields.
func TypeColumns(p *Prepared) map[string]any {
	c := map[string]any{}
	set := func(col, field string) {
		if v := strings.TrimSpace(p.Fields[field]); v != "" {
			c[col] = v
		}
	}
	switch p.QRType {
	case "contact":
		for col, k := range map[string]string{"first_name": "firstName", "last_name": "lastName", "email": "email",
			"phone_number": "phoneNumber", "notes": "notes", "image_url": "imageUrl"} {
			set(col, k)
		}
	case "payment":
		set("product_name", "productName")
		set("product_description", "productDescription")
		c["product_price"] = payload.PriceCents(p.Fields["productPrice"])
	case "pdf", "images":
		prefix := map[string]string{"pdf": "pdf_", "images": "image_"}[p.QRType]
		set(prefix+"title", "title")
		set(prefix+"description", "description")
		if p.QRType == "pdf" {
			c["pdf_url"] = p.Data
		}
		if p.File != nil {
			c[prefix+"file_path"] = p.Data + "/file"
			c[prefix+"file_name"] = p.File.FileName
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
		switch p.Fields["platform"] {
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
			if v, err := strconv.ParseFloat(strings.TrimSpace(p.Fields[k]), 64); err == nil {
				c[col] = v
			}
		}
	}
	return c
}
