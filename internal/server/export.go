package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/portability"
)

// The exit guarantee (issue 25): a customer takes their data and their
// redirects with them (internal/portability).

const (
	// exportsPerHour bounds the exports per workspace: each reads every
	// code, upload and scan of the workspace.
	exportsPerHour = 10
	msgExportLimit = "Too many exports. Please try again later."
)

// workspaceExport (GET /api/account/export for the active workspace, GET
// /api/workspaces/{id}/export; admins and owners) streams the workspace's
// data as a ZIP: codes.json, uploads/, scans.csv and redirects/ for nginx,
// Caddy, CSV and static HTML. Once the ZIP has started, a failure can only
// be logged: the download is then cut short and the archive unreadable.
func (s *server) workspaceExport(w http.ResponseWriter, r *http.Request) {
	ws := workspaceFrom(r.Context())
	if !s.exports.take(w, strconv.FormatInt(ws.ID, 10), msgExportLimit) {
		return
	}
	base := strings.TrimSuffix(s.shortURL(ws.ClientID, ""), "/d/")
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="squarely-export-`+s.now().UTC().Format(time.DateOnly)+`.zip"`)
	h.Set("Cache-Control", "no-store")
	if err := portability.WriteWorkspace(r.Context(), w, s.store, ws, portability.Site{BaseURL: base}); err != nil {
		s.log.ErrorContext(r.Context(), "writing a workspace export", "workspace", ws.ID, "err", err)
	}
}
