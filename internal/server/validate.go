package server

import (
	"net/http"

	"github.com/squarely/squarely/internal/mail"

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

// validEmail is mail.ValidAddress: what every form and command accepts as
// an e-mail address.
var validEmail = mail.ValidAddress
