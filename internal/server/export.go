package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/portability"
)

// The exit guarantee (issue 25): a customer takes their data and their
// redirects with them (internal/portability).

const (
	// exportsPerHour bounds the account exports per account: each reads
	// every code, upload and scan of the account.
	exportsPerHour = 10
	msgExportLimit = "Too many exports. Please try again later."
)

// accountExport (GET /api/account/export) streams the signed-in user's
// data as a ZIP: codes.json, uploads/, scans.csv and redirects/ for nginx,
// Caddy, CSV and static HTML. Once the ZIP has started, a failure can only
// be logged: the download is then cut short and the archive unreadable.
func (s *server) accountExport(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	if !s.exports.take(w, strconv.FormatInt(u.ID, 10), msgExportLimit) {
		return
	}
	base := strings.TrimSuffix(s.shortURL(u.ClientID, ""), "/d/")
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="squarely-export-`+s.now().UTC().Format(time.DateOnly)+`.zip"`)
	h.Set("Cache-Control", "no-store")
	if err := portability.WriteAccount(r.Context(), w, s.store, u, portability.Site{BaseURL: base}); err != nil {
		s.log.ErrorContext(r.Context(), "writing an account export", "user", u.ID, "err", err)
	}
}
