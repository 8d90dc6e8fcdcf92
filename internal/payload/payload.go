// Package payload turns the fields of a QR code type into the exact text
// the code encodes (a URL, a vCard, a mailto link, an iCalendar event, …)
// and validates those fields with the product's messages.
//
// The same rules serve the HTTP handlers and the command line, so every
// type is described once, in the kinds table below. It depends on nothing
// of ours but internal/gs1, whose rules the gs1 type follows.
package payload

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/squarely/squarely/internal/gs1"
)

// Fields maps form field names (spec 01 §3, e.g. "firstName", "url") to
// their values. Uploaded files are named by their id: "pdfFile" holds the id
// of an uploaded PDF and "imageFile" the id of an uploaded image, so a missing
// upload is reported on the form field the user sees.
type Fields map[string]string

// Options carries what the fields alone cannot say.
type Options struct {
	// BaseURL is the product's public origin, without a trailing slash,
	// e.g. "http://localhost:8080". Payment, pdf and images codes point there.
	BaseURL string
	// ProductID is the id of the product created for a payment code.
	ProductID string
	// GS1Origin is the scheme and host a gs1 code's Digital Link URI is
	// on ("https://qr.brand.example", a workspace's verified domain); ""
	// for BaseURL.
	GS1Origin string
}

// FieldErrors maps a field name to its validation message. It is an error so
// that Build can return it; handlers send it as the "errors" object.
type FieldErrors map[string]string

// Error lists the messages in field name order, one per line.
func (e FieldErrors) Error() string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	msgs := make([]string, len(keys))
	for i, k := range keys {
		msgs[i] = e[k]
	}
	return strings.Join(msgs, "\n")
}

// Build errors other than FieldErrors: the caller forgot context.
var (
	ErrNoBaseURL   = errors.New("payload: a base URL is required for this type")
	ErrNoProductID = errors.New("payload: a product id is required for payment codes")
)

// UnknownType is the message Validate gives, on "qrType", for a type it
// does not know.
const UnknownType = "Unknown QR code type"

// kind describes one QR code type.
type kind struct {
	label    string
	fields   []string // form fields, in form order
	validate func(f Fields, e FieldErrors)
	build    func(f Fields, opt Options) (string, error)
}

// types lists the generator's dropdown: the 13 types of spec 01 §3 in spec
// order, then plain text and WiFi, which the marketing pages and the wifi
// template name (issue 10), then GS1 Digital Link (issue 38).
var types = []string{
	"url", "contact", "payment", "pdf", "social", "images", "ratings",
	"email", "location", "events", "apps", "sms", "bitcoin", "text", "wifi", "gs1",
}

var kinds = map[string]kind{
	"url":      {"Website", []string{"url"}, validateURLType, buildURL},
	"contact":  {"Contact", []string{"firstName", "lastName", "email", "phoneNumber", "notes", "imageUrl", "url"}, validateContact, buildContact},
	"payment":  {"Payment", []string{"productName", "productPrice", "productDescription"}, validatePayment, buildPayment},
	"pdf":      {"PDF", []string{"pdfFile", "title", "description"}, validatePDF, buildPDF},
	"social":   {"Social Media", []string{"platform", "url"}, validateSocial, buildURL},
	"images":   {"Images", []string{"imageFile", "title", "description"}, validateImages, buildImages},
	"ratings":  {"Ratings", []string{"businessName", "platform", "url"}, validateRatings, buildURL},
	"email":    {"Email", []string{"email", "subject", "body"}, validateEmail, buildEmail},
	"location": {"Location", []string{"address", "name", "description", "latitude", "longitude"}, validateLocation, buildLocation},
	"events":   {"Events", []string{"title", "startDate", "endDate", "location", "description"}, validateEvent, buildEvent},
	"apps":     {"Apps", []string{"appName", "platform", "url", "appDescription", "appDeveloper", "appCategory"}, validateApp, buildURL},
	"sms":      {"SMS", []string{"phoneNumber", "message"}, validateSMS, buildSMS},
	"bitcoin":  {"Bitcoin", []string{"address", "amount", "label", "message"}, validateBitcoin, buildBitcoin},
	"text":     {"Plain Text", []string{"text"}, validateText, buildText},
	"wifi":     {"WiFi", []string{"ssid", "password", "encryption", "hidden"}, validateWiFi, buildWiFi},
	"gs1":      {"GS1 Digital Link", gs1Fields, validateGS1, buildGS1},
}

// gs1Fields are the gs1 type's fields: the GTIN, the key qualifiers and
// data attributes of internal/gs1's AI table (gs1.AIs), and domainId, the
// workspace's verified domain the URI is on (blank: the base URL).
var gs1Fields = func() []string {
	var f []string
	for _, a := range gs1.AIs {
		f = append(f, a.Field)
	}
	return append(f, "domainId")
}()

// Types returns the types of the generator, in dropdown order.
func Types() []string { return slices.Clone(types) }

// Known reports whether t is a type this package can build.
func Known(t string) bool {
	_, ok := kinds[t]
	return ok
}

// Label returns the display label of t ("Website" for url), or "" if unknown.
func Label(t string) string { return kinds[t].label }

// FieldNames returns the form fields of t in form order, or nil if unknown.
func FieldNames(t string) []string { return slices.Clone(kinds[t].fields) }

// Blocked reports whether the web product refuses t for everyone (the
// 'Future Feature' types). Build still builds them for the command line.
func Blocked(t string) bool { return t == "events" || t == "sms" || t == "bitcoin" }

// NeedsAccount reports whether t is a premium type that needs a signed-in
// user in the web product.
func NeedsAccount(t string) bool { return t == "pdf" }

// Dropdown options (spec 01 §3).
var (
	socialPlatforms = []string{"facebook", "instagram", "twitter", "linkedin", "youtube", "tiktok", "pinterest", "snapchat"}
	reviewPlatforms = []string{"google", "yelp", "tripadvisor", "facebook", "trustpilot"}
	appPlatforms    = []string{"appstore", "googleplay", "microsoft", "amazon"}
	appCategories   = []string{"games", "productivity", "social", "utilities", "entertainment", "lifestyle", "education", "business", "health", "finance", "news", "travel", "shopping", "photo", "music", "weather", "reference", "sports", "food", "medical"}
	wifiEncryptions = []string{"WPA", "WEP", "nopass"}
)

// SocialPlatforms returns the social type's platform options.
func SocialPlatforms() []string { return slices.Clone(socialPlatforms) }

// ReviewPlatforms returns the ratings type's platform options.
func ReviewPlatforms() []string { return slices.Clone(reviewPlatforms) }

// AppPlatforms returns the apps type's platform options.
func AppPlatforms() []string { return slices.Clone(appPlatforms) }

// AppCategories returns the apps type's category options.
func AppCategories() []string { return slices.Clone(appCategories) }

// Validate checks f for type t and returns the errors by field; an empty
// result means f is valid. An unknown type is reported on "qrType".
func Validate(t string, f Fields) FieldErrors {
	e := FieldErrors{}
	k, ok := kinds[t]
	if !ok {
		e["qrType"] = UnknownType
		return e
	}
	k.validate(f, e)
	return e
}

// Build validates f and returns the exact text to encode for type t. Invalid
// fields give a FieldErrors error.
func Build(t string, f Fields, opt Options) (string, error) {
	if e := Validate(t, f); len(e) > 0 {
		return "", e
	}
	return kinds[t].build(f, opt)
}
