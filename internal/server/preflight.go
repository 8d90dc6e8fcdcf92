package server

import (
	"net/http"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/qr"
)

// preflight (POST /api/preflight) measures the generator's code at a
// print size: module size, the farthest it scans from, the smallest print
// for a reader's distance, and warnings. It records nothing; with
// strict=true a size that will not scan is a 400 on sizeMm.
func (s *server) preflight(w http.ResponseWriter, r *http.Request) {
	in, req, _, ok := s.readGenerateRequest(w, r)
	if !ok {
		return
	}
	if in.SizeMm == 0 {
		fieldError(w, "sizeMm", "sizeMm is required")
		return
	}
	u := auth.UserFrom(r.Context())
	if !s.admitPreview(w, r, u) {
		return
	}
	req.Temporary = true // a check, like a live preview: no product, no record
	p, ok := s.prepare(w, r, req)
	if !ok {
		return
	}
	level := codes.StaticLevel
	if p.Logo != nil {
		level = qr.H
	}
	pf, err := codes.CheckPreflight(p.Data, p.Style, codes.Options{Level: level, Logo: p.LogoData()}, in.SizeMm, in.DistanceCm)
	if err != nil {
		if !renderRefused(w, err) {
			s.internalError(w, "preflight", err)
		}
		return
	}
	if p.QRType == "gs1" {
		v := codes.GS1Verdict(pf, in.SizeMm, p.Logo != nil, level)
		pf.GS1 = &v
	}
	if in.Strict && !pf.OK {
		fieldError(w, "sizeMm", pf.Warnings[0])
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, pf)
}
