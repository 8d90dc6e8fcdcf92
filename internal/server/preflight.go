package server

import (
	"errors"
	"net/http"
	"strconv"

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
	s.answerPreflight(w, p.Data, p.Style, p.QRType, p.LogoData(), codes.StaticLevel, in.SizeMm, in.DistanceCm, in.Strict)
}

// savedPreflight answers GET /api/{qrcodes|dynamic-qrcodes}/{id}/preflight
// ?sizeMm=&distanceCm=&strict=: the generator's preflight for the saved
// code c as its image routes draw it.
func (s *server) savedPreflight(w http.ResponseWriter, r *http.Request, c savedImage) {
	q := r.URL.Query()
	number := func(field, msg string) (float64, bool) {
		v := q.Get(field)
		if v == "" {
			return 0, true
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			fieldError(w, field, msg)
			return 0, false
		}
		return n, true
	}
	sizeMm, ok := number("sizeMm", "sizeMm must be a number of millimetres")
	if !ok {
		return
	}
	if sizeMm == 0 {
		fieldError(w, "sizeMm", "sizeMm is required")
		return
	}
	distanceCm, ok := number("distanceCm", "distanceCm must be a number of centimetres")
	if !ok {
		return
	}
	strict, err := codes.FormBool(q.Get("strict"))
	if err != nil {
		fieldError(w, "strict", "strict must be true or false")
		return
	}
	logo, err := s.savedLogo(r, c.logoPath)
	if err != nil {
		if errors.Is(err, errBusy) {
			busy(w)
		} else if r.Context().Err() == nil && !renderRefused(w, err) {
			s.internalError(w, "fetching a logo", err)
		}
		return
	}
	s.answerPreflight(w, c.data, c.style, c.qrType, logo, c.level, sizeMm, distanceCm, strict)
}

// answerPreflight measures data drawn in style at level (H with a logo) at
// sizeMm for a reader distanceCm away and answers the verdict, a gs1
// code's with GS1's rules; strict makes a warning a 400 on sizeMm.
func (s *server) answerPreflight(w http.ResponseWriter, data string, style codes.Style, qrType string, logo []byte, level qr.Level, sizeMm, distanceCm float64, strict bool) {
	if logo != nil {
		level = qr.H
	}
	pf, err := codes.CheckPreflight(data, style, codes.Options{Level: level, Logo: logo}, sizeMm, distanceCm)
	if err != nil {
		if !renderRefused(w, err) {
			s.internalError(w, "preflight", err)
		}
		return
	}
	if qrType == "gs1" {
		v := codes.GS1Verdict(pf, sizeMm, logo != nil, level)
		pf.GS1 = &v
	}
	if strict && !pf.OK {
		fieldError(w, "sizeMm", pf.Warnings[0])
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, pf)
}
