package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/store"
)

// Password-protected dynamic codes (issue 10, a premium feature of spec 02
// §1). The owner sets a password; a scan of the code then opens a page
// asking for it (redirect.go), whose form posts here, and only the right
// password is redirected. The scan is counted once, when that page is
// shown: a wrong guess and the unlocking POST are not scans.

// Wrong guesses are limited per client address and per code (only failures
// count, as for logins), so a code's password cannot be guessed from one
// address nor from many.
const (
	codePasswordTriesPerAddress = 10
	codePasswordTriesPerCode    = 100
	codePasswordWindow          = 10 * time.Minute
)

// maxUnlockBody bounds the unlock form: a password is at most 72 bytes.
const maxUnlockBody = 1 << 10

const (
	msgCodePasswordTries = "Too many wrong passwords. Please try again in a few minutes."
	msgCodePasswordWrong = "Wrong password. Please try again."
)

// passwordPageCSS adds the form to the scan pages' look.
const passwordPageCSS = `form{display:flex;flex-direction:column;gap:12px;text-align:left}
label{font-weight:600}
input{font:inherit;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px}
button{font:inherit;font-weight:600;padding:10px 12px;border:0;border-radius:8px;background:#3b82f6;color:#fff;cursor:pointer}
.error{color:#b91c1c;margin:0}`

// protectedPage is the page a scan of a protected code opens, with
// message (constant text, not escaped) above the form.
func protectedPage(message string) string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Password required</title>
<style>` + scanPageCSS + "\n" + passwordPageCSS + `</style>
</head><body>` + scanPageBrand + `<main class="notice"><h1>Password required</h1>
<p>This QR code is protected. Enter its password to continue.</p>
<form method="post">` + message + `
<label for="password">Password</label>
<input id="password" name="password" type="password" required autofocus autocomplete="off">
<button type="submit">Continue</button>
</form></main></body></html>
`
}

var (
	passwordPage      = protectedPage("")
	wrongPasswordPage = protectedPage(`<p class="error" role="alert">` + msgCodePasswordWrong + `</p>`)
)

// unlockCode (POST /d/{shortCode}, the form of the password page) checks
// the password and redirects (303) to the destination, or shows the page
// again (401) with the error. A code whose password was removed meanwhile
// redirects; a paused, unknown or deleted one answers as its scan would.
func (s *server) unlockCode(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxUnlockBody)
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	t, ok := s.lookupScan(w, r)
	if !ok {
		return
	}
	if t.Protected {
		codeKey := strconv.FormatInt(t.ID, 10)
		if !s.codePasswordsFrom.take(w, clientKey(r), msgCodePasswordTries) ||
			!s.codePasswords.take(w, codeKey, msgCodePasswordTries) {
			return
		}
		hash, err := s.store.DynamicPasswordHash(r.Context(), t.ID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			page(w, http.StatusNotFound, codeNotFoundPage)
			return
		case err != nil:
			s.internalError(w, "reading a code's password", err)
			return
		}
		if hash != "" {
			// CheckPassword compares against a user's hash; the code's
			// stands in for it, under the same per-address cap.
			match, ok := s.checkPassword(w, r, &store.User{PasswordHash: hash}, r.PostForm.Get("password"))
			if !ok {
				return
			}
			if !match {
				page(w, http.StatusUnauthorized, wrongPasswordPage)
				return
			}
		}
		s.codePasswordsFrom.refund(clientKey(r))
		s.codePasswords.refund(codeKey)
	}
	w.Header()["Location"] = t.Location
	w.WriteHeader(http.StatusSeeOther)
}

// setCodePassword (PUT /api/dynamic-qrcodes/{id}/password, owner only)
// sets the password a scan of the code asks for, or removes it when
// password is empty. It answers the code (isProtected tells which).
func (s *server) setCodePassword(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var in struct {
		Password *string `json:"password"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	var v validation
	if in.Password == nil {
		v.add("password", "Password is required (empty removes it)")
	} else if *in.Password != "" {
		checkNewPassword(&v, "password", *in.Password)
	}
	if v.failed(w) {
		return
	}
	u := auth.UserFrom(r.Context())
	// Refuse another user's code before spending a hash on it.
	if _, err := s.store.DynamicCode(r.Context(), u.ID, id); err != nil {
		s.answerDynamic(w, nil, err)
		return
	}
	hash := ""
	if *in.Password != "" {
		if hash, ok = s.hashPassword(w, r, *in.Password); !ok {
			return
		}
	}
	d, err := s.store.SetDynamicPassword(r.Context(), u.ID, id, hash, s.now())
	s.answerDynamic(w, d, err)
}
