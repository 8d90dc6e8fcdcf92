package codes

import (
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/store"
)

// Chosen short codes (issue 34 item 1): a dynamic code may be given its
// own short code instead of a random one. It is 3 to 64 characters of
// A-Z a-z 0-9 - _, unique per host (the base URL's, or one custom
// domain's) compared without case (the store enforces that), and never a
// word the app answers at the root of a host: on a custom domain,
// https://{domain}/{shortCode} answers as /d/{shortCode}.

const (
	MinShortCode = 3
	MaxShortCode = 64

	// ShortCodeInvalid and ShortCodeTaken are the refusals' codes (the
	// API's "code" member) for the app and clients to act on.
	ShortCodeInvalid = "invalid"
	ShortCodeTaken   = "taken"

	MsgShortCodeInvalid  = "The short code must be 3 to 64 letters, digits, - or _"
	MsgShortCodeReserved = "This short code is a word Squarely uses for its own pages; choose another"
	MsgShortCodeTaken    = "This short code is already taken on this domain"
	MsgShortCodeScanned  = "The short code of a code that has been scanned cannot change: its printed copies point at it"
)

// ReservedShortCodes are the first path segments the app answers at the
// root of a host, lower-case: the server's routes (internal/server/
// routes.go), the React app's pages (web/src/app/routes.json), the
// build's file directories, and the paths of the compatible APIs.
// TestReservedShortCodes (internal/server) checks this list against the
// real router; a word is reserved whatever its case.
var ReservedShortCodes = []string{
	// Server routes and file routes.
	"api", "d", "p", "s", "01", "auth", "logo", "pdf", "images", "unsubscribe", "subscribe", "payment",
	"healthz", "readyz", "tls", "metrics", "rest", "yourls-api", "assets", "codes", "logos", "favicon",
	"robots", "sitemap", "index", "spa", "scim", "saml", "sso",
	// The React app's pages.
	"login", "logout", "register", "signup", "dashboard", "payment-success", "test", "faq", "templates",
	"features", "use-cases", "about", "contact", "blog", "privacy", "terms", "docs", "newsletter",
	"set-password", "verify-email", "invitations", "account-settings", "white-label-admin",
	"bulk-generation", "workspace", "webhooks", "imports", "admin", "settings", "pages",
}

// ShortCodeReserved reports whether code is one of ReservedShortCodes,
// compared without case.
func ShortCodeReserved(code string) bool {
	return slices.Contains(ReservedShortCodes, strings.ToLower(code))
}

// ShortCodeAlphabet reports whether code has only the characters a chosen
// short code may have, and a length it may have.
func ShortCodeAlphabet(code string) bool {
	if len(code) < MinShortCode || len(code) > MaxShortCode {
		return false
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// CheckShortCode returns why code cannot be chosen as a short code, or ""
// when it can (whether it is free is the store's to tell).
func CheckShortCode(code string) string {
	switch {
	case !ShortCodeAlphabet(code):
		return MsgShortCodeInvalid
	case ShortCodeReserved(code):
		return MsgShortCodeReserved
	}
	return ""
}

// RefuseShortCode is the 400 refusing a chosen short code, or nil when it
// may be chosen.
func RefuseShortCode(code string) *Refused {
	if problem := CheckShortCode(code); problem != "" {
		rf := refuse("shortCode", problem)
		rf.Code = ShortCodeInvalid
		return rf
	}
	return nil
}

// RootShortCode reports whether a custom domain answers short code code
// at its root path, /{code}, as at /d/{code} (issue 34): a short code,
// and not one of the words the app uses at the root
// (ShortCodeReserved).
func RootShortCode(code string) bool {
	return store.ValidShortCode(code) && !ShortCodeReserved(code)
}

// PrintedURL is the URL a dynamic code encodes, base the URL of its
// client's host (SQUARELY_BASE_URL's, or a white-label client's): on its
// custom domain domain ("" for none) always over https, a chosen short
// code there at the root path (RootShortCode), else under /d/.
func PrintedURL(base, domain, shortCode string, chosen bool) string {
	switch {
	case domain != "" && chosen && RootShortCode(shortCode):
		return "https://" + domain + "/" + shortCode
	case domain != "":
		return "https://" + domain + "/d/" + shortCode
	}
	return base + "/d/" + shortCode
}
