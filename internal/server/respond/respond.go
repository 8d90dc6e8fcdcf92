// Package respond writes the JSON answers of every API route (the app's
// /api and the public /api/v1) and reads their JSON bodies and path ids,
// with one error shape and one set of rules for bad input.
package respond

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
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxBody limits JSON request bodies; upload routes set their own limit.
const MaxBody = 1 << 20

// Problem is the body of every API error.
type Problem struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors,omitempty"` // field → message
	Code    string            `json:"code,omitempty"`   // for the app to act on, e.g. two_factor_required
}

// JSON answers v as JSON with status: gzipped from compressedMin bytes when
// the client accepts it (Gzip), with Vary: Accept-Encoding on every answer
// that size either way.
func JSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(v)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if buf.Len() >= CompressedMin {
		h.Add("Vary", "Accept-Encoding")
		if _, ok := w.(acceptsGzip); ok {
			h.Set("Content-Encoding", "gzip")
			w.WriteHeader(status)
			WriteGzipped(w, buf.Bytes())
			return
		}
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// CompressedMin is the size from which a JSON answer is gzipped: below it,
// the gzip frame and the header cost about what they save.
const CompressedMin = 1024

// gzipWriters keeps gzip writers (each holds its compression state)
// between answers.
var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// WriteGzipped writes b to w as one gzip stream, through the kept writers.
func WriteGzipped(w io.Writer, b []byte) {
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(w)
	zw.Write(b)
	zw.Close()
	gzipWriters.Put(zw)
}

// acceptsGzip is the ResponseWriter of a request whose client accepts
// gzip: JSON compresses through it. Streamed answers (ZIPs, CSVs, images)
// never see it, as they do not go through JSON.
type acceptsGzip struct{ http.ResponseWriter }

// Unwrap lets http.ResponseController reach the writer underneath.
func (a acceptsGzip) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Gzip marks the requests to next whose client accepts gzip, for JSON.
func Gzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if AcceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
			w = acceptsGzip{w}
		}
		next.ServeHTTP(w, r)
	})
}

// Error answers status with a message.
func Error(w http.ResponseWriter, status int, message string) {
	JSON(w, status, Problem{Message: message})
}

// FieldError answers 400 with one field's message.
func FieldError(w http.ResponseWriter, field, message string) {
	JSON(w, http.StatusBadRequest, Problem{Message: message, Errors: map[string]string{field: message}})
}

// TooMany answers 429 with Retry-After in whole seconds.
func TooMany(w http.ResponseWriter, wait time.Duration, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	Error(w, http.StatusTooManyRequests, message)
}

// Decode reads the request body, one JSON value, into dst. On failure it
// has answered (400, 413 or 415) and returns false.
func Decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			Error(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
			return false
		}
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err == nil {
		err = DecodeValue(b, dst)
	}
	if err == nil {
		return true
	}

	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		Error(w, http.StatusRequestEntityTooLarge, "Request body too large")
	case errors.Is(err, io.EOF):
		Error(w, http.StatusBadRequest, "Request body is empty")
	case errors.Is(err, errTrailingData):
		Error(w, http.StatusBadRequest, "Request body must hold a single JSON value")
	case errors.Is(err, ErrNUL):
		Error(w, http.StatusBadRequest, MsgNUL)
	case errors.Is(err, ErrSurrogate):
		Error(w, http.StatusBadRequest, MsgSurrogate)
	case errors.Is(err, ErrNotUTF8):
		Error(w, http.StatusBadRequest, "Request body must be UTF-8 text")
	case errors.As(err, &typeErr) && typeErr.Field != "":
		want := jsonKind(typeErr.Type)
		JSON(w, http.StatusBadRequest, Problem{
			Message: fmt.Sprintf("%s must be %s", typeErr.Field, want),
			Errors:  map[string]string{typeErr.Field: "Must be " + want},
		})
	case errors.As(err, &typeErr):
		Error(w, http.StatusBadRequest, "Request body must be a JSON object")
	default:
		Error(w, http.StatusBadRequest, "Malformed JSON body")
	}
	return false
}

var errTrailingData = errors.New("trailing data after the JSON value")

// DecodeValue's refusals of text no field can store, which the APIs that
// answer in their own error format (SCIM, Shlink) name as they should.
var (
	ErrNUL     = errors.New("a JSON string holds a NUL character")
	ErrNotUTF8 = errors.New("the JSON body is not UTF-8")
	// ErrSurrogate is also ErrNotUTF8: a lone surrogate has no UTF-8
	// form, so the APIs that name ErrNotUTF8 refuse it the same way.
	ErrSurrogate = fmt.Errorf("a JSON string holds a lone UTF-16 surrogate escape: %w", ErrNotUTF8)
)

// MsgSurrogate refuses a \uD800–\uDFFF escape that is not half of a
// pair: encoding/json would read it as U+FFFD and keep the damage.
const MsgSurrogate = `Request body must be UTF-8 text: a \uD800–\uDFFF escape must be a high surrogate followed by a low one`

// MsgNUL refuses text holding NUL characters, which PostgreSQL cannot store.
const MsgNUL = "Text must not contain NUL characters"

// DecodeValue decodes b, one JSON value, into dst. No string of it, keys
// included, may hold a NUL: it would fail in PostgreSQL (a 500) and means
// nothing in any field.
func DecodeValue(b []byte, dst any) error {
	// encoding/json would read invalid bytes as U+FFFD and keep the damage.
	if !utf8.Valid(b) {
		return ErrNotUTF8
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
		return ErrNUL
	}
	// A surrogate escape starts \ud or \uD, so most bodies skip the walk.
	if (bytes.Contains(b, []byte(`\ud`)) || bytes.Contains(b, []byte(`\uD`))) && holdsLoneSurrogate(b) {
		return ErrSurrogate
	}
	return nil
}

// holdsLoneSurrogate reports whether the JSON value b (well formed: every
// backslash starts an escape in a string) has a \uD800–\uDBFF escape not
// followed by a \uDC00–\uDFFF one, or a \uDC00–\uDFFF escape not preceded
// by one. It only visits the backslashes, so a body without escapes costs
// one IndexByte.
func holdsLoneSurrogate(b []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 || i+j+1 >= len(b) {
			return false
		}
		i += j
		if b[i+1] != 'u' {
			i += 2 // \\, \", \n, …: the next byte is not an escape's start
			continue
		}
		r := hex4(b, i+2)
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return true
		case r >= 0xD800 && r <= 0xDBFF:
			if i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if lo := hex4(b, i+8); lo >= 0xDC00 && lo <= 0xDFFF {
					i += 12
					continue
				}
			}
			return true
		}
		i += 6
	}
}

// hex4 is the value of the four hex digits at b[i:], or -1.
func hex4(b []byte, i int) int {
	if i+4 > len(b) {
		return -1
	}
	n := 0
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return -1
		}
	}
	return n
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

// AcceptsEncoding reports whether an Accept-Encoding header takes coding
// (named, with a q-value above 0).
func AcceptsEncoding(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		for _, param := range strings.Split(params, ";") {
			if q, ok := strings.CutPrefix(strings.TrimSpace(param), "q="); ok {
				f, err := strconv.ParseFloat(q, 64)
				return err == nil && f > 0
			}
		}
		return true
	}
	return false
}

// ParseID reads a positive decimal id: digits only, no sign or spaces.
func ParseID(raw string) (int64, bool) {
	if raw == "" || len(raw) > len("9223372036854775807") {
		return 0, false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	return id, err == nil && id > 0
}
