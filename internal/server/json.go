package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxJSONBody limits JSON request bodies; upload routes set their own limit.
const maxJSONBody = 1 << 20

// apiError is the body of every API error.
type apiError struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors,omitempty"` // field → message
	Code    string            `json:"code,omitempty"`   // for the app to act on, e.g. two_factor_required
}

// writeJSON answers v as JSON with status: gzipped from compressedJSONMin
// bytes when the client accepts it (gzipJSON), with Vary: Accept-Encoding
// on every answer that size either way.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(v)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if buf.Len() >= compressedJSONMin {
		h.Add("Vary", "Accept-Encoding")
		if _, ok := w.(acceptsGzip); ok {
			h.Set("Content-Encoding", "gzip")
			w.WriteHeader(status)
			zw := gzipWriters.Get().(*gzip.Writer)
			zw.Reset(w)
			zw.Write(buf.Bytes())
			zw.Close()
			gzipWriters.Put(zw)
			return
		}
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// compressedJSONMin is the size from which a JSON answer is gzipped: below
// it, the gzip frame and the header cost about what they save.
const compressedJSONMin = 1024

// gzipWriters keeps gzip writers (each holds its compression state)
// between answers.
var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// acceptsGzip is the ResponseWriter of a request whose client accepts
// gzip: writeJSON compresses through it. Streamed answers (ZIPs, CSVs,
// images) never see it, as they do not go through writeJSON.
type acceptsGzip struct{ http.ResponseWriter }

// Unwrap lets http.ResponseController reach the writer underneath.
func (a acceptsGzip) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// gzipJSON marks the requests to next whose client accepts gzip, for
// writeJSON.
func gzipJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
			w = acceptsGzip{w}
		}
		next.ServeHTTP(w, r)
	})
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, apiError{Message: message})
}

// decodeJSON reads the request body, one JSON value, into dst. On failure
// it has answered (400, 413 or 415) and returns false.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
			return false
		}
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err == nil {
		err = decodeValue(b, dst)
	}
	if err == nil {
		return true
	}

	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "Request body too large")
	case errors.Is(err, io.EOF):
		writeError(w, http.StatusBadRequest, "Request body is empty")
	case errors.Is(err, errTrailingData):
		writeError(w, http.StatusBadRequest, "Request body must hold a single JSON value")
	case errors.Is(err, errNUL):
		writeError(w, http.StatusBadRequest, msgNUL)
	case errors.Is(err, errNotUTF8):
		writeError(w, http.StatusBadRequest, "Request body must be UTF-8 text")
	case errors.As(err, &typeErr) && typeErr.Field != "":
		want := jsonKind(typeErr.Type)
		writeJSON(w, http.StatusBadRequest, apiError{
			Message: fmt.Sprintf("%s must be %s", typeErr.Field, want),
			Errors:  map[string]string{typeErr.Field: "Must be " + want},
		})
	case errors.As(err, &typeErr):
		writeError(w, http.StatusBadRequest, "Request body must be a JSON object")
	default:
		writeError(w, http.StatusBadRequest, "Malformed JSON body")
	}
	return false
}

var (
	errTrailingData = errors.New("trailing data after the JSON value")
	errNUL          = errors.New("a JSON string holds a NUL character")
	errNotUTF8      = errors.New("the JSON body is not UTF-8")
)

// msgNUL refuses text holding NUL characters, which PostgreSQL cannot store.
const msgNUL = "Text must not contain NUL characters"

// decodeValue decodes b, one JSON value, into dst. No string of it, keys
// included, may hold a NUL: it would fail in PostgreSQL (a 500) and means
// nothing in any field.
func decodeValue(b []byte, dst any) error {
	// encoding/json would read invalid bytes as U+FFFD and keep the damage.
	if !utf8.Valid(b) {
		return errNotUTF8
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(dst); err != nil {
		return err
	}
	// Anything but whitespace after the value is an error.
	if _, err := dec.Token(); err != io.EOF {
		return errTrailingData
	}
	// JSON spells a NUL only as \u0000, so most bodies skip the scan.
	if bytes.Contains(b, []byte(`\u0000`)) && holdsNUL(b) {
		return errNUL
	}
	return nil
}

// holdsNUL reports whether a string of the JSON value b holds a NUL.
func holdsNUL(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && strings.IndexByte(s, 0) >= 0 {
			return true
		}
	}
}

// jsonKind names the JSON type a Go type decodes from, for error messages.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}
