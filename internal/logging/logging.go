// Package logging builds Squarely's logger (SQUARELY_LOG_FORMAT and
// SQUARELY_LOG_LEVEL) and carries the request id: a log call given a
// request's context adds "request_id" to its line.
package logging

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
)

// New returns a logger writing text (logfmt) or JSON lines to w at level
// and above, adding the request id of the context it is given.
func New(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(requestIDHandler{h})
}

type ctxKey struct{}

// WithRequestID returns ctx carrying id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// RequestID returns the id ctx carries, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// NewRequestID returns a fresh id: 26 base32 characters, 130 random bits.
func NewRequestID() string { return rand.Text() }

// ValidRequestID reports whether an id a proxy sent is one to keep: 1 to
// 128 characters of letters, digits and -_.:/+= (UUIDs, trace ids, ours),
// nothing that could break a log line or a header.
func ValidRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == '+' || c == '=':
		default:
			return false
		}
	}
	return true
}

// requestIDHandler adds the context's request id to each record.
type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
