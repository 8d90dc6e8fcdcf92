package server

import (
	"encoding/csv"
	"net/http"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/portability"
	"github.com/squarely/squarely/internal/store"
)

// analyticsWindow is the period of recent activity and per-code charts
// (spec 01 §9: 30 days).
const analyticsWindow = 30 * 24 * time.Hour

type userAnalyticsResponse struct {
	Overview struct {
		TotalQRCodes     int64 `json:"totalQrCodes"`
		TotalScans       int64 `json:"totalScans"`
		TotalDownloads   int64 `json:"totalDownloads"`
		TotalGenerations int64 `json:"totalGenerations"`
		StaticQRCodes    int64 `json:"staticQrCodes"`
		DynamicQRCodes   int64 `json:"dynamicQrCodes"`
	} `json:"overview"`
	QRTypeDistribution map[string]int64 `json:"qrTypeDistribution"`
	RecentActivity     struct {
		Generations int64 `json:"generations"`
		Downloads   int64 `json:"downloads"`
	} `json:"recentActivity"`
	TopPerformingQRCodes []topStaticCode  `json:"topPerformingQrCodes"`
	DynamicQRPerformance []topDynamicCode `json:"dynamicQrPerformance"`
}

type topStaticCode struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Downloads   int64  `json:"downloads"`
	Generations int64  `json:"generations"`
}

type topDynamicCode struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Scans int64  `json:"scans"`
}

// userAnalytics (GET /api/user-analytics, signed in) is spec 01 §3's
// summary: scans are human scans of live dynamic codes; recent activity
// is the last 30 days.
func (s *server) userAnalytics(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	a, err := s.store.UserAnalytics(r.Context(), wsID(r), u.ID, s.now().Add(-analyticsWindow))
	if err != nil {
		s.internalError(w, "reading analytics", err)
		return
	}
	var out userAnalyticsResponse
	o := &out.Overview
	o.TotalQRCodes, o.TotalScans, o.TotalDownloads, o.TotalGenerations = a.TotalQRCodes, a.TotalScans, a.TotalDownloads, a.TotalGenerations
	o.StaticQRCodes, o.DynamicQRCodes = a.StaticQRCodes, a.DynamicQRCodes
	out.QRTypeDistribution = a.TypeDistribution
	out.RecentActivity.Generations, out.RecentActivity.Downloads = a.RecentGenerations, a.RecentDownloads
	out.TopPerformingQRCodes = make([]topStaticCode, len(a.TopStatic))
	for i, c := range a.TopStatic {
		out.TopPerformingQRCodes[i] = topStaticCode{ID: c.ID, Name: c.Name, Type: c.QRType, Downloads: c.Downloads, Generations: c.Generations}
	}
	out.DynamicQRPerformance = make([]topDynamicCode, len(a.TopDynamic))
	for i, c := range a.TopDynamic {
		out.DynamicQRPerformance[i] = topDynamicCode{ID: c.ID, Name: c.Name, Scans: c.Scans}
	}
	writeJSON(w, http.StatusOK, out)
}

// scansCSV (GET /api/dynamic-qrcodes/{id}/scans.csv, owner only) streams a
// code's scan events, oldest first, as CSV for a spreadsheet.
func (s *server) scansCSV(w http.ResponseWriter, r *http.Request) {
	d, ok := ownCode(s, w, r, s.store.DynamicCode)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="scans-`+d.ShortCode+`.csv"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	cw := csv.NewWriter(w)
	cw.Write(portability.ScanHeader)
	err := s.store.ScanEvents(r.Context(), d.WorkspaceID, d.ID, func(e *store.ScanEvent) error {
		return cw.Write(portability.ScanRecord(e))
	})
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	if err != nil {
		// The header is sent: all that can be done is to log and stop.
		s.log.ErrorContext(r.Context(), "writing scans CSV", "code", d.ID, "err", err)
	}
}

// csvCell guards a CSV cell against formula injection.
var csvCell = portability.CSVCell
