//go:build !embedweb

// Package web holds the React app. Without the embedweb build tag (plain
// go build, go vet, go test on a fresh clone, where web/dist does not exist)
// it serves a single page explaining how to build the app.
package web

import (
	"io/fs"
	"testing/fstest"
)

const notBuilt = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Squarely: web app not built</title></head>
<body>
<h1>The web app was not built</h1>
<p>This binary was compiled without the React app. Run <code>make build</code>
(or <code>cd web &amp;&amp; npm run build</code>, then
<code>go build -tags embedweb ./cmd/squarely</code>) and start it again.
The API under <code>/api/</code> works regardless.</p>
</body>
</html>
`

// Dist returns a file system holding only a placeholder index.html.
func Dist() fs.FS {
	return fstest.MapFS{"index.html": {Data: []byte(notBuilt)}}
}
