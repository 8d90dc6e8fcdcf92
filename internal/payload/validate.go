package payload

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/squarely/squarely/internal/gs1"
)

// Messages that are not in the spec's catalogue (text and wifi, option
// lists, coordinates, dates, amounts) follow its wording style.

// get returns a field without surrounding white space: a field of only
// spaces counts as empty.
func get(f Fields, k string) string { return strings.TrimSpace(f[k]) }

// require records msg on k when k is blank and reports whether it is set.
func require(f Fields, e FieldErrors, k, msg string) bool {
	if get(f, k) == "" {
		e[k] = msg
		return false
	}
	return true
}

// checkWebURL applies the url rules in the spec's order: required, then a
// valid absolute URL, then the http or https protocol.
func checkWebURL(f Fields, e FieldErrors, k string) {
	if !require(f, e, k, "URL is required") {
		return
	}
	if msg := webURLProblem(get(f, k)); msg != "" {
		e[k] = msg
	}
}

// webURLProblem returns the message for s, or "" for a usable web URL.
// Like the browser's URL parser, any scheme makes a valid URL, so
// "ftp://x" gets the protocol message and "example.com" the validity one.
func webURLProblem(s string) string {
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return "Please enter a valid URL"
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
		return "Please enter a valid URL"
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "URL must use http or https protocol"
	}
	if u.Host == "" { // "http:example.com"
		return "Please enter a valid URL"
	}
	return ""
}

// checkOption records msg on k unless k is one of opts; blank is left to
// the caller's required rule.
func checkOption(f Fields, e FieldErrors, k string, opts []string, msg string) {
	if v := get(f, k); v != "" && !slices.Contains(opts, v) {
		e[k] = msg
	}
}

var (
	emailLocal = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
	emailHost  = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$`)
)

// validEmail accepts plain ASCII addresses (local@domain.tld), as the
// form's e-mail rule does; display names and quoted local parts are refused.
func validEmail(s string) bool {
	local, host, ok := strings.Cut(s, "@")
	return ok && len(s) <= 254 && emailLocal.MatchString(local) && emailHost.MatchString(host)
}

// PriceCents converts a productPrice field to cents. Like the form's number
// input, anything that is not a finite number counts as 0.
func PriceCents(s string) int64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e15 {
		return 0
	}
	return int64(math.Round(v * 100))
}

// parseCoordinate reads a latitude or longitude within ±limit.
func parseCoordinate(s string, limit float64) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && v >= -limit && v <= limit
}

// eventTime is a date from an HTML date input (YYYY-MM-DD, allDay) or a
// datetime-local input (YYYY-MM-DDTHH:MM[:SS], floating local time).
type eventTime struct {
	t      time.Time
	allDay bool
}

func parseEventTime(s string) (eventTime, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return eventTime{t, true}, true
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return eventTime{t, false}, true
		}
	}
	return eventTime{}, false
}

var (
	phoneChars = regexp.MustCompile(`^\+?[0-9 ().*#-]*[0-9][0-9 ().*#-]*$`)
	// Base58 and bech32 addresses are alphanumeric; 26 to 90 characters
	// covers legacy, script and segwit addresses.
	bitcoinAddress = regexp.MustCompile(`^[A-Za-z0-9]{26,90}$`)
	// BIP21 amount: decimal bitcoins, no exponent, at most 8 decimals.
	bitcoinAmount = regexp.MustCompile(`^([0-9]+(\.[0-9]{0,8})?|\.[0-9]{1,8})$`)
)

func validateURLType(f Fields, e FieldErrors) { checkWebURL(f, e, "url") }

func validateContact(f Fields, e FieldErrors) {
	require(f, e, "firstName", "First name is required")
	require(f, e, "phoneNumber", "Phone number is required")
	if v := get(f, "email"); v != "" && !validEmail(v) {
		e["email"] = "Please enter a valid email"
	}
	if v := get(f, "imageUrl"); v != "" && webURLProblem(v) != "" {
		e["imageUrl"] = "Please enter a valid image URL"
	}
	if get(f, "url") != "" {
		checkWebURL(f, e, "url")
	}
}

func validatePayment(f Fields, e FieldErrors) {
	if require(f, e, "productName", "Product name is required") && len([]rune(get(f, "productName"))) > 100 {
		e["productName"] = "Product name must be at most 100 characters"
	}
	if PriceCents(f["productPrice"]) < 1 {
		e["productPrice"] = "Price must be greater than 0"
	}
	require(f, e, "productDescription", "Product description is required")
}

func validatePDF(f Fields, e FieldErrors) {
	require(f, e, "pdfFile", "Please select a PDF file")
	require(f, e, "title", "Title is required")
}

func validateImages(f Fields, e FieldErrors) {
	require(f, e, "imageFile", "Please select an image file")
	require(f, e, "title", "Title is required")
}

func validateSocial(f Fields, e FieldErrors) {
	require(f, e, "platform", "Platform is required")
	checkOption(f, e, "platform", socialPlatforms, "Please select a valid platform")
	checkWebURL(f, e, "url")
}

func validateRatings(f Fields, e FieldErrors) {
	require(f, e, "businessName", "Business name is required")
	require(f, e, "platform", "Platform is required")
	checkOption(f, e, "platform", reviewPlatforms, "Please select a valid platform")
	checkWebURL(f, e, "url")
}

func validateEmail(f Fields, e FieldErrors) {
	if require(f, e, "email", "Email is required") && !validEmail(get(f, "email")) {
		e["email"] = "Please enter a valid email"
	}
}

func validateLocation(f Fields, e FieldErrors) {
	require(f, e, "address", "Address is required")
	if v := get(f, "latitude"); v != "" {
		if _, ok := parseCoordinate(v, 90); !ok {
			e["latitude"] = "Latitude must be between -90 and 90"
		}
	}
	if v := get(f, "longitude"); v != "" {
		if _, ok := parseCoordinate(v, 180); !ok {
			e["longitude"] = "Longitude must be between -180 and 180"
		}
	}
}

func validateEvent(f Fields, e FieldErrors) {
	require(f, e, "title", "Event title is required")
	require(f, e, "location", "Location is required")
	if !require(f, e, "startDate", "Start date is required") {
		return
	}
	start, ok := parseEventTime(get(f, "startDate"))
	if !ok {
		e["startDate"] = "Please enter a valid date"
		return
	}
	v := get(f, "endDate")
	if v == "" {
		return
	}
	switch end, ok := parseEventTime(v); {
	case !ok:
		e["endDate"] = "Please enter a valid date"
	case end.allDay != start.allDay:
		e["endDate"] = "End date must have the same format as the start date"
	case end.t.Before(start.t):
		e["endDate"] = "End date cannot be before the start date"
	}
}

func validateApp(f Fields, e FieldErrors) {
	require(f, e, "appName", "App name is required")
	require(f, e, "platform", "Platform is required")
	checkOption(f, e, "platform", appPlatforms, "Please select a valid platform")
	checkWebURL(f, e, "url")
	checkOption(f, e, "appCategory", appCategories, "Please select a valid category")
}

func validateSMS(f Fields, e FieldErrors) {
	// The number is written raw into SMSTO:number:message, so it may hold
	// only dialling characters (a ':' would end it early).
	if require(f, e, "phoneNumber", "Phone number is required") && !phoneChars.MatchString(get(f, "phoneNumber")) {
		e["phoneNumber"] = "Please enter a valid phone number"
	}
}

func validateBitcoin(f Fields, e FieldErrors) {
	if require(f, e, "address", "Bitcoin address is required") && !bitcoinAddress.MatchString(get(f, "address")) {
		e["address"] = "Please enter a valid Bitcoin address"
	}
	if v := get(f, "amount"); v != "" {
		if !bitcoinAmount.MatchString(v) {
			e["amount"] = "Please enter a valid amount"
		} else if strings.Trim(v, "0.") == "" {
			e["amount"] = "Amount must be greater than 0"
		}
	}
}

func validateText(f Fields, e FieldErrors) {
	// Only an entirely empty text is missing: spaces are content here.
	if f["text"] == "" {
		e["text"] = "Text is required"
	}
}

func validateWiFi(f Fields, e FieldErrors) {
	if f["ssid"] == "" {
		e["ssid"] = "Network name is required"
	}
	checkOption(f, e, "encryption", wifiEncryptions, "Encryption must be WPA, WEP or nopass")
	if wifiEncryption(f) != "nopass" && f["password"] == "" {
		e["password"] = "Password is required"
	}
	if v := get(f, "hidden"); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			e["hidden"] = "Hidden must be true or false"
		}
	}
}

// wifiEncryption returns the encryption field, WPA when blank.
func wifiEncryption(f Fields) string {
	if v := get(f, "encryption"); v != "" {
		return v
	}
	return "WPA"
}

// MsgGS1Domain refuses a gs1 code's domainId that is not an id.
const MsgGS1Domain = "Please select one of the workspace's verified domains"

// validateGS1 applies GS1's rules (internal/gs1) to the AIs' fields.
func validateGS1(f Fields, e FieldErrors) {
	_, fe := gs1.FromFields(f)
	for k, msg := range fe {
		e[k] = msg
	}
	if v := get(f, "domainId"); v != "" {
		if id, err := strconv.ParseInt(v, 10, 64); err != nil || id <= 0 {
			e["domainId"] = MsgGS1Domain
		}
	}
}
