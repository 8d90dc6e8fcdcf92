package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

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
			s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
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
				s.scanPage(w, http.StatusUnauthorized, s.clientBrand(r.Context(), t.ClientID), wrongPasswordNotice)
				return
			}
		}
		s.codePasswordsFrom.refund(clientKey(r))
		s.codePasswords.refund(codeKey)
	}
	if t.Router != nil {
		if d, ok := s.routeScan(w, r, t, true); ok {
			s.answerRouted(w, r, t, d, http.StatusSeeOther)
		}
		return
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
	// Refuse another user's code before spending a hash on it.
	if _, err := s.store.DynamicCode(r.Context(), wsID(r), id); err != nil {
		s.answerDynamic(w, nil, err)
		return
	}
	hash := ""
	if *in.Password != "" {
		if hash, ok = s.hashPassword(w, r, *in.Password); !ok {
			return
		}
	}
	d, err := s.store.SetDynamicPassword(r.Context(), wsID(r), id, hash, s.now())
	s.answerDynamic(w, d, err)
}
