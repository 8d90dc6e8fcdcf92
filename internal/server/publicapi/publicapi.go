// Package publicapi is the public REST API under /api/v1 (docs/API.md
// "Public API", the OpenAPI document in openapi.json): API keys as Bearer
// tokens, their rate limit and Idempotency-Key as middleware (keys.go,
// idempotency.go), and the resources the app does not serve in the same
// shape (codes.go). Routes that answer as the app does (webhooks, brand
// kits) are the app's own handlers behind the same middleware; the server's
// routes.go is the one table of both.
//
// Callers authenticate with an API key, never a cookie, so these routes
// sit outside the site's session and CSRF middleware. A key acts in its
// workspace (a client's key in its account's personal workspace) with the
// role its maker has there at each call, at most an editor's
// (store.APIKeyAccess); a maker no longer a member makes it invalid. Every
// code goes through the same rules as in the app (App).
package publicapi

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// Config is what the API takes from the server.
type Config struct {
	Store *store.Store
	// RateLimit is the calls a key may make per minute.
	RateLimit int
	// Quota counts a call by key hash: whether it is within RateLimit, the
	// calls left in the window and the time until it ends.
	Quota func(keyHash string) (allowed bool, remaining int, reset time.Duration, err error)
	// BadKey counts an invalid key from the request's client and reports
	// whether it may go on (false: it has answered 429).
	BadKey func(w http.ResponseWriter, r *http.Request) bool
	// WorkspaceID is the id of the workspace the request acts in.
	WorkspaceID func(r *http.Request) int64
	// Enter is the request acting as the key's maker in the key's workspace.
	Enter func(r *http.Request, access *store.APIKeyAccess) *http.Request
	// Fail logs err and answers a 500 that reveals nothing.
	Fail func(w http.ResponseWriter, doing string, err error)
	Log  *slog.Logger
	Now  func() time.Time
	// App is the app's rules and views of codes.
	App App
}

// API serves /api/v1.
type API struct{ Config }

// New is the API of cfg.
func New(cfg Config) *API { return &API{cfg} }
