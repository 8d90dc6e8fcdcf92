package publicapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
)

// Scopes narrow what an API key may do below its maker's role (docs/API.md
// "Scopes"). Every /api/v1 route names the one scope it needs in routes.go;
// openapi.json lists it as the operation's security requirement.
const (
	ScopeCodesRead      = "codes:read"
	ScopeCodesWrite     = "codes:write"
	ScopeAnalyticsRead  = "analytics:read"
	ScopePagesRead      = "pages:read"
	ScopePagesWrite     = "pages:write"
	ScopeWebhooksRead   = "webhooks:read"
	ScopeWebhooksWrite  = "webhooks:write"
	ScopeDomainsRead    = "domains:read"
	ScopeWorkspaceRead  = "workspace:read"
	ScopeProductsRead   = "products:read"
	ScopeProductsWrite  = "products:write"
	msgInsufficient     = "This API key does not have the scope "
	codeInsufficient    = "insufficient_scope"
	msgFolderNotAllowed = "A key limited to a folder can only have the scopes codes:read, codes:write and analytics:read"
)

// Scopes are every scope a key may be given, in the order the app lists them.
var Scopes = []string{
	ScopeCodesRead, ScopeCodesWrite, ScopeAnalyticsRead, ScopePagesRead, ScopePagesWrite,
	ScopeWebhooksRead, ScopeWebhooksWrite, ScopeDomainsRead, ScopeWorkspaceRead, ScopeProductsRead, ScopeProductsWrite,
}

// folderScopes are the scopes of a key limited to a folder: its codes and
// their scans, nothing of the workspace at large.
var folderScopes = []string{ScopeCodesRead, ScopeCodesWrite, ScopeAnalyticsRead}

// CheckLimits checks a new key's limits and fills in the scopes of a
// folder key made without any. It answers why they are refused, "" when
// they are not.
func CheckLimits(l *store.KeyLimits) (field, problem string) {
	if l.Scopes != nil {
		if len(l.Scopes) == 0 {
			return "scopes", "scopes must name at least one scope, or be left out for all of them"
		}
		for i, s := range l.Scopes {
			if !slices.Contains(Scopes, s) {
				return "scopes", "Unknown scope " + s + ": use " + strings.Join(Scopes, ", ")
			}
			if slices.Contains(l.Scopes[:i], s) {
				return "scopes", "Scope " + s + " is named twice"
			}
		}
	}
	if l.FolderID != nil {
		if l.Scopes == nil {
			l.Scopes = slices.Clone(folderScopes)
		}
		for _, s := range l.Scopes {
			if !slices.Contains(folderScopes, s) {
				return "scopes", msgFolderNotAllowed
			}
		}
	}
	return "", ""
}

type limitsKey struct{}

// limitsFrom are the limits of the request's key (zero: none).
func limitsFrom(ctx context.Context) store.KeyLimits {
	l, _ := ctx.Value(limitsKey{}).(store.KeyLimits)
	return l
}

// Require lets a request through when its key has scope; otherwise 403
// with code insufficient_scope, naming the scope. Behind Authenticate.
func (a *API) Require(scope string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l := limitsFrom(r.Context()); l.Scopes != nil && !slices.Contains(l.Scopes, scope) {
			respond.JSON(w, http.StatusForbidden, respond.Problem{Message: msgInsufficient + scope, Code: codeInsufficient})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// KeyFolder is the one folder the request's key is limited to, nil for
// none: the compatible APIs (internal/compat) keep to it as /api/v1 does.
func KeyFolder(ctx context.Context) *int64 { return limitsFrom(ctx).FolderID }

// FolderLimit is the folder the request's key is limited to, nil for none
// (or a request without a key).
func FolderLimit(ctx context.Context) *int64 { return limitsFrom(ctx).FolderID }
