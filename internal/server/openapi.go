package server

import (
	_ "embed"
	"net/http"
)

// openAPIDocument describes /api/v1 in OpenAPI 3.1. TestOpenAPIDocument
// checks it against the routes in routes.go and the answers they give.
//
//go:embed openapi.json
var openAPIDocument []byte

// serveOpenAPI (GET /api/v1/openapi.json, public) serves the document.
func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(openAPIDocument)
}
