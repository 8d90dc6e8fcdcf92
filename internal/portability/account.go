package portability

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// ScanHeader and ScanRecord are a scans CSV's columns: the per-code CSV of
// the analytics and the account export's scans.csv (with the code first).
var ScanHeader = []string{"scanned_at", "device_type", "os", "browser", "referrer", "visitor", "is_bot", "country"}

// ScanRecord is e as a CSV row under ScanHeader.
func ScanRecord(e *store.ScanEvent) []string {
	return []string{
		e.ScannedAt.UTC().Format(time.RFC3339),
		CSVCell(e.DeviceType), CSVCell(e.OS), CSVCell(e.Browser), CSVCell(e.Referrer),
		e.VisitorHash, strconv.FormatBool(e.IsBot), e.Country,
	}
}

// exportedDynamic is a dynamic code in codes.json: the stored code and the
// URL its pattern encodes.
type exportedDynamic struct {
	*store.DynamicCode
	ShortURL string
}

// WriteWorkspace streams workspace ws's data as a ZIP to w: codes.json
// (static and dynamic codes with their styles, and the brand kits), uploads/ (every file
// uploaded in it), scans.csv (every kept scan of every dynamic code) and
// redirects/ (the forwarding codes for nginx, Caddy, as CSV and as static
// pages). site.BaseURL is where its codes point. Files are read one at a
// time, so memory holds one upload, not the workspace.
func WriteWorkspace(ctx context.Context, w io.Writer, st *store.Store, ws *store.Workspace, site Site) error {
	zw := zip.NewWriter(w)
	static, err := st.QRCodes(ctx, ws.ID)
	if err != nil {
		return err
	}
	var dynamic []*store.DynamicCode
	for _, paused := range []bool{false, true} {
		list, err := st.DynamicCodes(ctx, ws.ID, paused)
		if err != nil {
			return err
		}
		dynamic = append(dynamic, list...)
	}
	kits, err := st.BrandKits(ctx, ws.ID)
	if err != nil {
		return err
	}
	doc := struct {
		ExportedAt    time.Time
		WorkspaceID   int64
		WorkspaceName string
		StaticCodes   []*store.QRCode
		DynamicCodes  []exportedDynamic
		BrandKits     []*store.BrandKit
	}{ExportedAt: time.Now().UTC(), WorkspaceID: ws.ID, WorkspaceName: ws.Name, StaticCodes: static, BrandKits: kits}
	for _, d := range dynamic {
		doc.DynamicCodes = append(doc.DynamicCodes, exportedDynamic{d, codes.PrintedURL(site.BaseURL, d.Domain, d.ShortCode, d.ShortCodeChosen)})
	}
	f, err := zw.Create("codes.json")
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}

	ids, err := st.WorkspaceBlobIDs(ctx, ws.ID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		b, err := st.Blob(ctx, id)
		if err != nil {
			return err
		}
		name := path.Base(strings.ReplaceAll(b.FileName, "\\", "/"))
		if name == "." || name == "/" || name == "" {
			name = b.Kind
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("uploads/%d-%s", b.ID, name), Method: zip.Deflate, Modified: b.CreatedAt})
		if err != nil {
			return err
		}
		if _, err := f.Write(b.Data); err != nil {
			return err
		}
	}

	f, err = zw.Create("scans.csv")
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	cw.Write(append([]string{"short_code"}, ScanHeader...))
	for _, d := range dynamic {
		err := st.ScanEvents(ctx, ws.ID, d.ID, func(e *store.ScanEvent) error {
			return cw.Write(append([]string{d.ShortCode}, ScanRecord(e)...))
		})
		if err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}

	redirects, err := st.ExportRedirects(ctx, ws.ID)
	if err != nil {
		return err
	}
	if site.Domains, err = st.ExportDomains(ctx, ws.ID); err != nil {
		return err
	}
	// Hosted pages (issue 35): pages/p/{slug}/… and, in redirects/html/,
	// the same HTML for the page codes; nginx.conf serves pages/ from
	// site.PagesDir, where the reader is told to copy it.
	if site.Pages, err = st.ExportPages(ctx, ws.ID); err != nil {
		return err
	}
	if site.PagesDir == "" {
		site.PagesDir = "/srv/squarely/pages"
	}
	pageHTML, err := PageFiles(ctx, st, site.Pages, site, func(name string, data []byte) error {
		f, err := zw.Create("pages/" + name)
		if err == nil {
			_, err = f.Write(data)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, file := range []struct {
		name  string
		write func(io.Writer, Site, []store.ExportedRedirect) error
	}{{"redirects/nginx.conf", WriteNginx}, {"redirects/Caddyfile", WriteCaddy}, {"redirects/redirects.csv", WriteCSV}} {
		f, err := zw.Create(file.name)
		if err != nil {
			return err
		}
		if err := file.write(f, site, redirects); err != nil {
			return err
		}
	}
	if err := writeHTMLZip(zw, "redirects/html/", redirects, pageHTML); err != nil {
		return err
	}
	return zw.Close()
}
