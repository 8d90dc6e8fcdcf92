package server

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
)

// Bulk generation (issue 12): the spec page's one-code-per-request call
// (bulk.go) and the server-side spreadsheet jobs (bulkjobs.go).

// maxBulkText bounds a text item, in bytes: more than the largest code
// holds, so the encoder's own refusal names anything in between.
const maxBulkText = 4096

// bulkItemRequest is the body of POST /api/bulk-generate-qrcode (spec 02
// §7): the item's type and content, and the page's two colours.
type bulkItemRequest struct {
	QRType  string            `json:"qrType"`
	QRData  map[string]string `json:"qrData"`
	FgColor string            `json:"fgColor"`
	BgColor string            `json:"bgColor"`
	Data    string            `json:"data"`
}

// bulkGenerateQRCode (POST /api/bulk-generate-qrcode, signed in) renders
// one item of the bulk page as SVG: a url item must be an http(s) URL, a
// text item non-empty text of at most maxBulkText bytes. It saves nothing.
func (s *server) bulkGenerateQRCode(w http.ResponseWriter, r *http.Request) {
	var in bulkItemRequest
	if !decodeJSON(w, r, &in) {
		return
	}
	var data string
	switch in.QRType {
	case "url":
		dest, problem := checkDestination(orDefault(in.QRData["url"], in.Data))
		if problem != "" {
			fieldError(w, "data", problem)
			return
		}
		data = dest
	case "text":
		data = strings.TrimSpace(orDefault(in.QRData["data"], in.Data))
		switch {
		case data == "":
			fieldError(w, "data", "Text is required")
			return
		case len(data) > maxBulkText || !utf8.ValidString(data):
			fieldError(w, "data", "Text must be at most 4096 bytes of UTF-8")
			return
		}
	default:
		fieldError(w, "qrType", "qrType must be url or text")
		return
	}
	style, err := codes.Style{FgColor: in.FgColor, BgColor: in.BgColor}.Normalize()
	if err != nil {
		renderRefused(w, err)
		return
	}
	svg := s.renderCode(w, data, style, nil, codes.SVG, codes.PreviewPixels, codeLevel)
	if svg == nil {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"qrCode": string(svg), "data": data})
}
