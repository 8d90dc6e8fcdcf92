package web

import (
	_ "embed"
	"encoding/json"
)

// routesJSON is the list of the app's pages, the paths of
// web/src/app/routes.tsx (routes.test.tsx fails when they differ). A
// segment ":name" stands for any one segment.
//
//go:embed src/app/routes.json
var routesJSON []byte

// Routes returns the path patterns of the app's pages: the server answers
// any other path with the app's not-found page and status 404.
func Routes() []string {
	var paths []string
	if err := json.Unmarshal(routesJSON, &paths); err != nil {
		panic("web/src/app/routes.json: " + err.Error()) // embedded at build time; a test reads it
	}
	return paths
}
