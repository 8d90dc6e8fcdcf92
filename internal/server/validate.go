package server

import (
	"net/http"
	"net/mail"
	"strings"

	"github.com/squarely/squarely/internal/codes"
)

// validation collects field errors in the order found (codes.Problems);
// the first becomes the response's message.
type validation struct{ codes.Problems }

// add records msg for field unless the field already has an error.
func (v *validation) add(field, msg string) { v.Add(field, msg) }

// failed answers 400 with the collected errors, if any, and reports whether it did.
func (v *validation) failed(w http.ResponseWriter) bool {
	rf, ok := codes.AsRefused(v.Err())
	if ok {
		writeRefused(w, rf)
	}
	return ok
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
