package server

import (
	"net/http"
)

// Path parameters. Every route that takes an id, a session or a short code
// from its path reads it here (a short code through store.ValidShortCode,
// in lookupScan), and a value that cannot name anything (not a positive
// decimal number, or with a NUL, invalid UTF-8, a character outside its
// alphabet, too long) is answered 404 before any store call, as an id of
// someone else's would be. PostgreSQL refuses NUL and invalid UTF-8 in
// text: such a value reaching it answered 500, or 503 on /d/, and failed
// the batched lookup of every short code loaded with it.

// pathID reads the {id} path value of a code; a malformed id is answered
// as not found, like another user's.
func pathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	return idParam(w, r, "id", msgCodeMissing)
}

// idParam reads the path value name as an id; a malformed one is answered
// 404 with missing, like an id of someone else's.
func idParam(w http.ResponseWriter, r *http.Request, name, missing string) (int64, bool) {
	id, ok := parseID(r.PathValue(name))
	if !ok {
		writeError(w, http.StatusNotFound, missing)
	}
	return id, ok
}

// msgSessionMissing answers a session that is not the caller's.
const msgSessionMissing = "Session not found"

// sessionParam reads the {id} path value of a session: the 64 hex digits
// of its token's SHA-256 (auth.SessionID).
func sessionParam(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	ok := len(id) == 64
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
	}
	if !ok {
		writeError(w, http.StatusNotFound, msgSessionMissing)
	}
	return id, ok
}
