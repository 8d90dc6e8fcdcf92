package server

import (
	"net/http"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// validation collects field errors in the order found; the first becomes
// the response's message.
type validation struct {
	first  string
	fields map[string]string
}

// add records msg for field unless the field already has an error.
func (v *validation) add(field, msg string) {
	if _, dup := v.fields[field]; dup {
		return
	}
	if v.fields == nil {
		v.fields = map[string]string{}
		v.first = msg
	}
	v.fields[field] = msg
}

// failed answers 400 with the collected errors, if any, and reports whether it did.
func (v *validation) failed(w http.ResponseWriter) bool {
	if v.fields == nil {
		return false
	}
	writeJSON(w, http.StatusBadRequest, apiError{Message: v.first, Errors: v.fields})
	return true
}

// nameProblem checks a code's name (already trimmed) and returns what is
// wrong with it, or "". Control characters and bidi controls are refused:
// an override (U+202E) shows a name reversed, so a name could pass for
// another in the dashboard, in exports and in mails.
func nameProblem(name string) string {
	if utf8.RuneCountInString(name) > maxCodeName {
		return "Name must be at most 100 characters"
	}
	if hasControl(name) {
		return "Name must not contain control or text direction characters"
	}
	return ""
}

// hasControl reports whether s holds a control or text direction
// character (see nameProblem).
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) >= 0
}

// validEmail accepts a plain address (no display name) whose domain has a
// dot, as browsers' and zod's e-mail checks do, and is not under the
// reserved .invalid domain (RFC 2606): no mail reaches it, and the hidden
// users of client API keys live there.
func validEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	domain := s[strings.LastIndexByte(s, '@')+1:]
	if strings.HasSuffix(strings.ToLower(domain), ".invalid") {
		return false
	}
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") && !strings.Contains(domain, "..")
}
