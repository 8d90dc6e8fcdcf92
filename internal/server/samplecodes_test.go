package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

var updateSamples = flag.Bool("update-samples", false, "rewrite web/public/codes from the renderer")

// The sample codes the public pages show as pictures: the landing page's
// hero and one preview per template on /templates. They are static files,
// so the pages draw them without a request to the generator; this test is
// what draws them, through POST /api/generate-qrcode as a visitor's
// preview would be, and it fails when a file is not what the renderer
// draws today (`go test ./internal/server -run TestSampleCodes
// -update-samples` rewrites them). Each is read back with zbarimg and ZXing.
const sampleDir = "../../web/public/codes"

// heroCode is the landing page's hero: a URL in the product's own styles
// (gradient, rounded dots, curved and round eyes), which need an account.
var heroCode = map[string]any{
	"qrType": "url", "url": "https://squarely.io",
	"fgColor": "#1E3A8A", "gradientColor": "#2563EB", "bgColor": "#FFFFFF",
	"dotShape": "rounded", "cornerShape": "curve-square", "innerCornerShape": "circle",
	"outerCornerColor": "#1E40AF", "innerCornerColor": "#2563EB",
	"temporary": true, "size": 320,
}

func TestSampleCodes(t *testing.T) {
	raw, err := os.ReadFile("../../web/src/features/marketing/content/templates.json")
	if err != nil {
		t.Fatal(err)
	}
	var templates []struct {
		ID          string         `json:"id"`
		QRType      string         `json:"qrType"`
		PreviewData map[string]any `json:"previewData"`
	}
	if err := json.Unmarshal(raw, &templates); err != nil {
		t.Fatal(err)
	}
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("samples@example.com")

		// draw renders fields as the generator's preview does, checks or
		// rewrites the file, and reads the code back.
		draw := func(file string, fields map[string]any) string {
			t.Helper()
			r := e.do(c, "POST", "/api/generate-qrcode", body(t, fields))
			m := expect(t, r, http.StatusOK, "")
			svg := []byte(m["qrCode"].(string))
			path := filepath.Join(sampleDir, file)
			if *updateSamples {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, svg, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if kept, err := os.ReadFile(path); err != nil || !bytes.Equal(kept, svg) {
				t.Errorf("%s is not what the renderer draws now (%v): run go test ./internal/server -run TestSampleCodes -update-samples", path, err)
			}
			got := dec.read(svg, "svg")
			if got != m["data"] {
				t.Errorf("%s reads %q, want %q", file, got, m["data"])
			}
			return got
		}

		if got := draw("hero.svg", heroCode); got != "https://squarely.io" {
			t.Errorf("hero.svg reads %q", got)
		}
		for _, tpl := range templates {
			fields := maps.Clone(tpl.PreviewData)
			fields["qrType"], fields["temporary"], fields["size"] = tpl.QRType, true, 160
			file := filepath.Join("templates", tpl.ID+".svg")
			if payload.Blocked(tpl.QRType) {
				// A type the generator cannot make yet has no preview: the page says so instead.
				r := e.do(c, "POST", "/api/generate-qrcode", body(t, fields))
				expect(t, r, http.StatusBadRequest, "")
				if _, err := os.Stat(filepath.Join(sampleDir, file)); err == nil {
					t.Errorf("%s draws a type the generator refuses", file)
				}
				continue
			}
			draw(file, fields)
		}
	})
}
