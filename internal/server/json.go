package server

import "github.com/squarely/squarely/internal/server/respond"

// The app's handlers answer and read JSON through package respond, which
// the public API shares; these are its names in this package.
var (
	writeJSON       = respond.JSON
	writeError      = respond.Error
	fieldError      = respond.FieldError
	tooMany         = respond.TooMany
	decodeJSON      = respond.Decode
	gzipJSON        = respond.Gzip
	acceptsEncoding = respond.AcceptsEncoding
	parseID         = respond.ParseID
)

type apiError = respond.Problem

const (
	maxJSONBody = respond.MaxBody
	msgNUL      = respond.MsgNUL
)
