// Package compat holds what the compatible APIs share (issue 34 item 5):
// a YOURLS-compatible yourls-api.php (package yourls) and a Shlink-
// compatible REST API under /rest/v3 (package shlink), so the clients
// written for those projects keep working against Squarely with only the
// base URL changed. Both speak their project's request and error shapes
// and act through Links, which the server implements with the app's own
// creation path and rules (the ones /api/v1/codes uses), behind the public
// API's keys, scopes, limits and rate limit.
package compat

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Link is a dynamic code as the compatible APIs show it.
type Link struct {
	ID        int64
	ShortCode string
	ShortURL  string
	LongURL   string
	Title     string
	Tags      []string
	Domain    string // the custom domain it prints, "" for the base URL
	Visits    int64  // people's scans (bots are not counted)
	CreatedAt time.Time
}

// Visit is one scan of a link.
type Visit struct {
	At       time.Time
	Referrer string
	Device   string // mobile, tablet, desktop, bot or ""
	OS       string
	Browser  string
	Country  string // ISO 3166-1 alpha-2, "" when unknown
	Bot      bool
}

// NewLink is a link to create: LongURL is required; ShortCode "" draws a
// random one; Domain "" is the base URL.
type NewLink struct {
	LongURL, ShortCode, Title, Domain string
	Tags                              []string
}

// Edit changes a link; nil fields stay.
type Edit struct {
	LongURL *string
	Title   *string
	Tags    *[]string
}

// Refused is a request the app refused, as the app would answer it:
// Status, the message, the field it is about ("" for none) and its code
// ("taken", "invalid", … or "").
type Refused struct {
	Status  int
	Message string
	Field   string
	Code    string
}

func (e *Refused) Error() string { return e.Message }

// ErrNotFound is a short code (or domain) the key's workspace does not have.
var ErrNotFound = errors.New("compat: not found")

// ErrUnknownDomain is a domain named that is none of the workspace's
// verified domains (nor the base URL's host): an ErrNotFound.
var ErrUnknownDomain = fmt.Errorf("%w: no such domain", ErrNotFound)

// Links is the app as the compatible APIs use it. Every method acts in
// the workspace of the request's API key.
type Links interface {
	Create(r *http.Request, in NewLink) (Link, error) // *Refused, ErrNotFound (the domain)
	// Get, Edit, Delete and Visits name a link by its short code on the
	// host domain names ("": none named; ErrUnknownDomain for a host that
	// is not the workspace's).
	Get(r *http.Request, shortCode, domain string) (Link, error)
	List(r *http.Request) ([]Link, error) // newest first
	Edit(r *http.Request, shortCode, domain string, e Edit) (Link, error)
	Delete(r *http.Request, shortCode, domain string) error
	Visits(r *http.Request, shortCode, domain string) ([]Visit, error) // newest first
	Tags(r *http.Request) ([]string, error)
	// TagKeys are the keys by which the app tells tag names apart: two
	// names are one tag exactly when their keys are equal.
	TagKeys(r *http.Request, names []string) (map[string]string, error)
	// Stats are the workspace's live links and their scans.
	Stats(r *http.Request) (links, clicks int64, err error)
}

// Refuse answers a refusal of the key checks (a missing or invalid key,
// a scope the key lacks, the rate limit) in a project's own error shape.
type Refuse func(w http.ResponseWriter, r *http.Request, status int, message string)
