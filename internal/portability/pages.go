package portability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/store"
)

// Hosted pages leave with their owner (issue 35): each page as static files
// under p/{slug}/ — index.html (the page as Squarely serves it, its links
// direct, a coupon's code behind <details>), images/ and files/ (its
// uploads), contact.vcf and event.ics — with every link absolute from the
// site's root, so the same HTML also answers a page code's /d/{code}.

// PageFiles writes every file of the hosted pages list through put (name
// relative to the export's root, "p/{slug}/…"). It returns each page's
// HTML by slug, for the page codes' /d/{code}.
func PageFiles(ctx context.Context, st *store.Store, list []*store.Page, site Site, put func(name string, data []byte) error) (map[string][]byte, error) {
	out := map[string][]byte{}
	opt := pages.Options{BaseURL: site.BaseURL}
	for _, sp := range list {
		p, err := decodeStored(sp, site)
		if err != nil {
			return nil, fmt.Errorf("portability: page %s: %w", sp.Slug, err)
		}
		base := "/p/" + sp.Slug
		files := map[pages.Upload]string{}
		blobs := map[int64]*store.Blob{}
		for _, u := range pages.Uploads(p, opt) {
			b, err := st.Blob(ctx, u.ID)
			if err != nil || b.WorkspaceID == nil || *b.WorkspaceID != sp.WorkspaceID {
				continue // gone, or not the page's: left out, as Squarely would not show it
			}
			dir := "images"
			if u.Kind == "pdf" {
				dir = "files"
			}
			name := dir + "/" + strconv.FormatInt(u.ID, 10) + extension(b.ContentType)
			if err := put(base[1:]+"/"+name, b.Data); err != nil {
				return nil, err
			}
			files[u], blobs[u.ID] = base+"/"+name, b
		}
		html, err := pages.Render(p, pages.View{Base: base, Static: true, Now: time.Now(), Opt: opt,
			Image: func(u pages.Upload) string { return files[u] }})
		if err != nil {
			return nil, err
		}
		if err := put(base[1:]+"/index.html", html); err != nil {
			return nil, err
		}
		out[sp.Slug] = html
		switch v := p.Content.(type) {
		case *pages.VCardContent:
			var photo *pages.Photo
			if u, ok := opt.ImageRef(v.PhotoURL); ok && blobs[u.ID] != nil {
				photo = &pages.Photo{Data: blobs[u.ID].Data, ContentType: blobs[u.ID].ContentType}
			}
			if err := put(base[1:]+"/contact.vcf", pages.VCard(v, "4.0", photo)); err != nil {
				return nil, err
			}
		case *pages.EventContent:
			host := site.host()
			ics, err := pages.ICS(v, "page-"+strconv.FormatInt(sp.ID, 10)+"@"+host, site.BaseURL+base, time.Now())
			if err != nil {
				return nil, err
			}
			if err := put(base[1:]+"/event.ics", ics); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// decodeStored reads a stored page into its typed form.
func decodeStored(sp *store.Page, site Site) (*pages.Page, error) {
	content, err := pages.DecodeContent(sp.Type, []byte(sp.Content))
	if err != nil {
		return nil, err
	}
	p := &pages.Page{ID: sp.ID, Type: sp.Type, Title: sp.Title, Slug: sp.Slug, URL: site.BaseURL + "/p/" + sp.Slug,
		Language: sp.Language, Content: content, Version: sp.Version, CreatedAt: sp.CreatedAt, UpdatedAt: sp.UpdatedAt}
	if err := json.Unmarshal([]byte(sp.Theme), &p.Theme); err != nil {
		return nil, err
	}
	return p, nil
}

func extension(contentType string) string {
	switch contentType {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/webp":
		return ".webp"
	case "image/gif":
		return ".gif"
	case "application/pdf":
		return ".pdf"
	}
	return ""
}

// WritePagesDir writes the pages' files under dir (dir/p/{slug}/…) and
// returns their HTML by slug.
func WritePagesDir(ctx context.Context, st *store.Store, dir string, list []*store.Page, site Site) (map[string][]byte, error) {
	return PageFiles(ctx, st, list, site, func(name string, data []byte) error {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	})
}

// pageTypes are the types nginx and Caddy send the exported files with.
var pageTypes = [][2]string{{"text/html", "html"}, {"text/vcard", "vcf"}, {"text/calendar", "ics"}, {"image/png", "png"},
	{"image/jpeg", "jpg"}, {"image/webp", "webp"}, {"image/gif", "gif"}, {"application/pdf", "pdf"}}

// slugPattern is the map key matching a page's paths.
func slugPattern(slug string) string {
	return "~^/p/" + strings.ReplaceAll(url.PathEscape(slug), ".", `\.`) + "(/.*)?$"
}
