// Package buildinfo holds what `make build` stamps into the binary with
// -ldflags -X: the version (git describe), the commit and the build time.
// A plain `go build` leaves the defaults.
package buildinfo

import (
	"fmt"
	"runtime"
)

// Set by the Makefile's LDFLAGS.
var (
	Version   = "dev"
	Commit    = "unknown"
	BuildTime = "unknown" // RFC 3339, UTC
)

// GoVersion is the Go release the binary was built with.
func GoVersion() string { return runtime.Version() }

// String is what `squarely version` prints.
func String() string {
	return fmt.Sprintf("squarely %s (commit %s, built %s, %s)", Version, Commit, BuildTime, GoVersion())
}
