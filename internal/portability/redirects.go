// Package portability is the exit guarantee (issue 25): a customer's data
// as a ZIP (WriteAccount), and every forwarding dynamic code as a
// configuration that serves /d/{code} without Squarely: nginx, Caddy, CSV
// or a folder of static HTML pages.
package portability

import (
	"archive/zip"
	"bufio"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/store"
)

// Formats are the names export-redirects accepts.
var Formats = []string{"nginx", "caddy", "csv", "html"}

// Site is where the exported redirects are served: the host printed in the
// codes (SQUARELY_BASE_URL's), the address to listen on, and the verified
// custom domains, each serving its workspace's codes as Squarely does.
type Site struct {
	BaseURL string // scheme://host[:port], as in the codes
	Listen  string // nginx's listen value: "80", "127.0.0.1:8081", …
	Domains []store.ExportedDomain
	// Pages are the hosted pages the site serves at /p/{slug} (and page
	// codes at /d/{code}) from their exported files under PagesDir
	// (PageFiles: PagesDir/p/{slug}/…), an absolute path.
	Pages    []*store.Page
	PagesDir string
}

// domainGroup is the verified domains of one workspace.
type domainGroup struct {
	workspaceID int64
	hosts       []string
}

// domainGroups groups the site's domains by workspace, in the order their
// workspaces first appear.
func (s Site) domainGroups() []domainGroup {
	var groups []domainGroup
	at := map[int64]int{}
	for _, d := range s.Domains {
		i, ok := at[d.WorkspaceID]
		if !ok {
			i = len(groups)
			at[d.WorkspaceID] = i
			groups = append(groups, domainGroup{workspaceID: d.WorkspaceID})
		}
		groups[i].hosts = append(groups[i].hosts, d.Domain)
	}
	return groups
}

func (s Site) host() string {
	u, err := url.Parse(s.BaseURL)
	if err != nil {
		return "_"
	}
	return u.Hostname()
}

// configSafe makes a destination safe to quote in nginx's and Caddy's
// configuration: bytes those would read as syntax or variables ($, {, },
// quotes, backslash, ;, space, controls) and non-ASCII are
// percent-encoded, which a browser reads as the same URL.
func configSafe(dest string) string {
	var b strings.Builder
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"'\\${};`", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// WriteNginx writes a file to include inside nginx's http block: a map
// from each /d/{code} to its destination and a server answering it with a
// 302 (404 for any other code); with custom domains, a map from each code
// to its workspace and a server per workspace's domains answering that
// workspace's codes only.
func WriteNginx(out io.Writer, site Site, list []store.ExportedRedirect) error {
	w := bufio.NewWriter(out) // keeps the first error, for Flush to return
	listen := site.Listen
	if listen == "" {
		listen = "80"
	}
	fmt.Fprintf(w, "# Squarely's dynamic codes, exported %s: %d redirects.\n", time.Now().UTC().Format(time.RFC3339), len(list))
	fmt.Fprintf(w, "# Include this file inside nginx's http block (include /etc/nginx/conf.d/squarely.conf;).\n")
	fmt.Fprintf(w, "# Long short codes need a larger bucket than nginx's default.\nmap_hash_bucket_size 128;\n\n")
	fmt.Fprintf(w, "map $uri $squarely_destination {\n\tdefault \"\";\n")
	for _, r := range list {
		fmt.Fprintf(w, "\t\"/d/%s\" \"%s\";\n", configSafe(r.ShortCode), configSafe(r.Destination))
	}
	fmt.Fprintf(w, "}\n")
	pagesOn := len(site.Pages) > 0
	if pagesOn {
		fmt.Fprintf(w, "\n# Hosted pages: a page code answers /d/{code} with its page's files.\nmap $uri $squarely_page {\n\tdefault \"\";\n")
		for _, r := range list {
			if r.PageSlug != "" {
				fmt.Fprintf(w, "\t\"/d/%s\" \"/p/%s/index.html\";\n", configSafe(r.ShortCode), configSafe(r.PageSlug))
			}
		}
		fmt.Fprintf(w, "}\n")
	}
	groups := site.domainGroups()
	if pagesOn && len(groups) > 0 {
		fmt.Fprintf(w, "\n# The workspace of each page.\nmap $uri $squarely_page_workspace {\n\tdefault \"\";\n")
		for _, p := range site.Pages {
			fmt.Fprintf(w, "\t\"%s\" \"%d\";\n", slugPattern(p.Slug), p.WorkspaceID)
		}
		fmt.Fprintf(w, "}\n")
	}
	if len(groups) > 0 {
		fmt.Fprintf(w, "\n# The workspace of each code: a custom domain serves its workspace's codes.\nmap $uri $squarely_workspace {\n\tdefault \"\";\n")
		for _, r := range list {
			fmt.Fprintf(w, "\t\"/d/%s\" \"%d\";\n", configSafe(r.ShortCode), r.WorkspaceID)
		}
		fmt.Fprintf(w, "}\n")
	}
	writeServer := func(names, only string) {
		fmt.Fprintf(w, "\nserver {\n\tlisten %s;\n\tserver_name %s;\n\n\tlocation /d/ {\n", listen, names)
		if only != "" {
			fmt.Fprintf(w, "\t\tif ($squarely_workspace != \"%s\") {\n\t\t\treturn 404;\n\t\t}\n", only)
		}
		if pagesOn {
			fmt.Fprintf(w, "\t\tif ($squarely_page != \"\") {\n\t\t\trewrite ^ $squarely_page last;\n\t\t}\n")
		}
		fmt.Fprintf(w, "\t\tif ($squarely_destination = \"\") {\n\t\t\treturn 404;\n\t\t}\n\t\treturn 302 $squarely_destination;\n\t}\n")
		if pagesOn {
			fmt.Fprintf(w, "\n\tlocation /p/ {\n")
			if only != "" {
				fmt.Fprintf(w, "\t\tif ($squarely_page_workspace != \"%s\") {\n\t\t\treturn 404;\n\t\t}\n", only)
			}
			fmt.Fprintf(w, "\t\troot \"%s\";\n\t\ttypes {\n", configSafe(site.PagesDir))
			for _, t := range pageTypes {
				fmt.Fprintf(w, "\t\t\t%s %s;\n", t[0], t[1])
			}
			fmt.Fprintf(w, "\t\t}\n\t\tcharset utf-8;\n\t\tadd_header Content-Security-Policy \"%s\" always;\n\t\tadd_header X-Content-Type-Options nosniff always;\n", pages.CSP)
			fmt.Fprintf(w, "\t\ttry_files $uri $uri/index.html =404;\n\t}\n")
		}
		fmt.Fprintf(w, "}\n")
	}
	writeServer(site.host(), "")
	for _, g := range groups {
		writeServer(strings.Join(g.hosts, " "), strconv.FormatInt(g.workspaceID, 10))
	}
	return w.Flush()
}

// WriteCaddy writes a Caddyfile whose site answers each /d/{code} with a
// 302 to its destination and any other path under /d/ with 404, and a
// site per workspace's custom domains answering that workspace's codes.
func WriteCaddy(out io.Writer, site Site, list []store.ExportedRedirect) error {
	w := bufio.NewWriter(out) // keeps the first error, for Flush to return
	port, bind := "80", ""
	if site.Listen != "" {
		if h, p, err := net.SplitHostPort(site.Listen); err == nil {
			port, bind = p, h
		} else {
			port = site.Listen
		}
	}
	fmt.Fprintf(w, "# Squarely's dynamic codes, exported %s: %d redirects.\n", time.Now().UTC().Format(time.RFC3339), len(list))
	writeSite := func(hosts []string, workspaceID int64) {
		addrs := make([]string, len(hosts))
		for i, h := range hosts {
			addrs[i] = "http://" + h + ":" + port
		}
		fmt.Fprintf(w, "%s {\n", strings.Join(addrs, ", "))
		if bind != "" {
			fmt.Fprintf(w, "\tbind %s\n", bind)
		}
		var paths []string
		for _, p := range site.Pages {
			if workspaceID == 0 || p.WorkspaceID == workspaceID {
				paths = append(paths, "/p/"+configSafe(p.Slug), "/p/"+configSafe(p.Slug)+"/*")
			}
		}
		for _, r := range list {
			switch {
			case workspaceID != 0 && r.WorkspaceID != workspaceID:
			case r.PageSlug != "" && len(paths) > 0: // a page code answers with its page's files
				fmt.Fprintf(w, "\trewrite /d/%s /p/%s/index.html\n", configSafe(r.ShortCode), configSafe(r.PageSlug))
			default:
				fmt.Fprintf(w, "\tredir /d/%s \"%s\" 302\n", configSafe(r.ShortCode), configSafe(r.Destination))
			}
		}
		if len(paths) > 0 {
			fmt.Fprintf(w, "\t@pages path %s\n\thandle @pages {\n\t\troot * \"%s\"\n", strings.Join(paths, " "), configSafe(site.PagesDir))
			fmt.Fprintf(w, "\t\theader Content-Security-Policy \"%s\"\n\t\ttry_files {path} {path}/index.html\n\t\tfile_server\n\t}\n\trespond /p/* 404\n", pages.CSP)
		}
		fmt.Fprintf(w, "\trespond /d/* 404\n}\n")
	}
	writeSite([]string{site.host()}, 0)
	for _, g := range site.domainGroups() {
		writeSite(g.hosts, g.workspaceID)
	}
	return w.Flush()
}

// WriteCSV writes code, destination and the URL printed in the code.
func WriteCSV(w io.Writer, site Site, list []store.ExportedRedirect) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"short_code", "destination", "short_url"})
	for _, r := range list {
		cw.Write([]string{r.ShortCode, CSVCell(r.Destination), site.BaseURL + "/d/" + r.ShortCode})
	}
	cw.Flush()
	return cw.Error()
}

// htmlPage is the static page of one code: a meta refresh, and a link for
// the browsers that do not follow it.
func htmlPage(dest string) []byte {
	d := html.EscapeString(dest)
	return []byte(`<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
		`<meta http-equiv="refresh" content="0; url=` + d + `"><title>Redirecting…</title></head>` +
		`<body><p>Redirecting to <a href="` + d + `">` + d + `</a>.</p></body></html>` + "\n")
}

// WriteHTMLDir writes d/{code}/index.html for each code under dir, to
// publish on any static host at the codes' host: a page code's is its
// page's HTML (pageHTML, by slug; PageFiles wrote the page under p/).
func WriteHTMLDir(dir string, list []store.ExportedRedirect, pageHTML map[string][]byte) error {
	for _, r := range list {
		page := filepath.Join(dir, "d", r.ShortCode)
		if err := os.MkdirAll(page, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(page, "index.html"), codeHTML(r, pageHTML), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// codeHTML is the static answer of code r: its page's HTML, or a redirect.
func codeHTML(r store.ExportedRedirect, pageHTML map[string][]byte) []byte {
	if html, ok := pageHTML[r.PageSlug]; ok && r.PageSlug != "" {
		return html
	}
	return htmlPage(r.Destination)
}

// writeHTMLZip writes the same pages into a ZIP under prefix.
func writeHTMLZip(zw *zip.Writer, prefix string, list []store.ExportedRedirect, pageHTML map[string][]byte) error {
	for _, r := range list {
		f, err := zw.Create(prefix + "d/" + r.ShortCode + "/index.html")
		if err != nil {
			return err
		}
		if _, err := f.Write(codeHTML(r, pageHTML)); err != nil {
			return err
		}
	}
	return nil
}

// CSVCell guards against formula injection: a spreadsheet runs a cell that
// starts with = + - @ (or a tab or carriage return before one), and some
// (with East Asian input) their full-width and small forms too, so such a
// cell gets a leading apostrophe. encoding/csv does the quoting.
func CSVCell(v string) string {
	r, _ := utf8.DecodeRuneInString(v)
	if strings.ContainsRune(formulaStarts, r) {
		return "'" + v
	}
	return v
}

// formulaStarts are the first characters CSVCell guards.
const formulaStarts = "=+-@\t\r＝＋－＠﹦﹢﹣﹫−"
