package publicapi

import (
	_ "embed"
	"net/http"
)

// Document describes /api/v1 in OpenAPI 3.1. The server's
// TestOpenAPIDocument checks it against the routes in its routes.go and
// the answers they give.
//
//go:embed openapi.json
var Document []byte

// ServeOpenAPI (GET /api/v1/openapi.json, public) serves the document.
func ServeOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(Document)
}
