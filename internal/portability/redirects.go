// Package portability is the exit guarantee (issue 25): a customer's data
// as a ZIP (WriteAccount), and every forwarding dynamic code as a
// configuration that answers it without Squarely, on each host and at
// each path Squarely does (/d/{code}, and /{code} on custom domains):
// nginx, Caddy, CSV or a folder of static HTML pages.
package portability

import (
	"archive/zip"
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
)

// Formats are the names export-redirects accepts.
var Formats = []string{"nginx", "caddy", "csv", "html"}

// Site is where the exported redirects are served: the host printed in the
// codes (SQUARELY_BASE_URL's), the address to listen on, and the verified
// custom domains, each serving its workspace's codes as Squarely does.
type Site struct {
	BaseURL string // scheme://host[:port], as in the codes
	// Listen is the address nginx or Caddy listens on (ParseListen): a
	// port ("80") or host:port ("127.0.0.1:8081", "[::1]:8081"); "" is 80.
	Listen  string
	Domains []store.ExportedDomain
	// Pages are the hosted pages the site serves at /p/{slug} (and page
	// codes at /d/{code}) from their exported files under PagesDir
	// (PageFiles: PagesDir/p/{slug}/…), an absolute path.
	Pages    []*store.Page
	PagesDir string
}

// hostSite is one server of an export: the host names it answers (the
// base URL's server answers any host no other names, as Squarely does),
// the workspace whose pages it serves (0 for every workspace's) and what
// it answers at each path, Squarely's answer on that host.
type hostSite struct {
	names       []string
	workspaceID int64
	answers     []answer
}

// answer is a path a host answers with an exported code.
type answer struct {
	path string
	r    store.ExportedRedirect
}

// listLoader serves an export's codes to scans' cache, whose Lookup is
// Squarely's own choice of the code a host answers for a short code.
type listLoader map[string][]store.Redirect

func (l listLoader) RedirectsByShortCode(_ context.Context, code string) ([]store.Redirect, error) {
	if rs := l[code]; len(rs) > 0 {
		return rs, nil
	}
	return nil, store.ErrNotFound
}

func (l listLoader) Redirects(_ context.Context, codes []string) (map[string][]store.Redirect, error) {
	out := map[string][]store.Redirect{}
	for _, code := range codes {
		if rs := l[code]; len(rs) > 0 {
			out[code] = rs
		}
	}
	return out, nil
}

// sites is what each host of the export answers, as Squarely answers it:
// first the base URL's server, with /d/{code} for each short code the
// code the base URL answers (its own, else the oldest); then a server per
// verified custom domain, with /d/{code} and (a short code that is not
// one of the app's words, codes.RootShortCode) /{code} for the code the domain
// answers (its own, else its workspace's on the base URL, else its
// workspace's oldest on another of its domains; another workspace's
// never). The choice is scans' (Cache.Lookup, which the server's scans
// use), so the export cannot drift from it. Where the chosen code is
// Withheld (paused, protected, not the exported workspace's) the host
// answers 404, as no other code takes its place in Squarely either.
func (s Site) sites(list []store.ExportedRedirect) ([]hostSite, error) {
	byID := make(map[int64]store.ExportedRedirect, len(list))
	loader := listLoader{}
	var shortCodes []string
	for _, r := range list {
		byID[r.ID] = r
		if _, seen := loader[r.ShortCode]; !seen {
			shortCodes = append(shortCodes, r.ShortCode)
		}
		// A withheld code still answers on its hosts: as paused, which
		// Squarely answers with its own page, here with 404.
		loader[r.ShortCode] = append(loader[r.ShortCode], store.Redirect{ID: r.ID, Destination: r.Destination, Paused: r.Withheld,
			ClientID: r.ClientID, WorkspaceID: r.WorkspaceID, DomainID: r.DomainID})
	}
	for _, rs := range loader {
		slices.SortFunc(rs, func(a, b store.Redirect) int { return cmp.Compare(a.ID, b.ID) }) // oldest first
	}
	slices.Sort(shortCodes)
	now := time.Now()
	cache := scans.NewCache(loader, func() time.Time { return now }) // a still clock: no entry expires or reloads
	ctx := context.Background()
	resolve := func(h scans.Host, domain bool) ([]answer, error) {
		var out []answer
		for _, code := range shortCodes {
			t, ok, err := cache.Lookup(ctx, code, h)
			if err != nil {
				return nil, err
			}
			if !ok || t.Paused {
				continue
			}
			r := byID[t.ID]
			out = append(out, answer{"/d/" + code, r})
			if domain && codes.RootShortCode(code) {
				out = append(out, answer{"/" + code, r})
			}
		}
		return out, nil
	}
	base, err := resolve(scans.Host{}, false)
	if err != nil {
		return nil, err
	}
	out := []hostSite{{names: []string{s.host()}, answers: base}}
	for _, d := range s.Domains {
		answers, err := resolve(scans.Host{DomainID: d.ID, WorkspaceID: d.WorkspaceID}, true)
		if err != nil {
			return nil, err
		}
		out = append(out, hostSite{names: []string{d.Domain}, workspaceID: d.WorkspaceID, answers: answers})
	}
	return out, nil
}

// ParseListen checks an address to listen on (--listen): a port from 1 to
// 65535, or host:port, the host an IPv4 address, an IPv6 address in
// brackets or a host name (letters, digits, '-' and '.'). It returns the
// host ("" for every address) and the port.
func ParseListen(listen string) (host, port string, err error) {
	port = listen
	if strings.Contains(listen, ":") {
		if host, port, err = net.SplitHostPort(listen); err != nil {
			return "", "", fmt.Errorf("%q is not a port or host:port", listen)
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strings.Trim(port, "0123456789") != "" || port[0] == '0' {
		return "", "", fmt.Errorf("%q is not a port or host:port (the port from 1 to 65535)", listen)
	}
	bracketed := strings.HasPrefix(listen, "[")
	if host == "" && !bracketed || net.ParseIP(host) != nil && strings.Contains(host, ":") == bracketed {
		return host, port, nil
	}
	if bracketed || len(host) > 253 || strings.Trim(strings.ToLower(host), "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" ||
		strings.HasPrefix(host, "-") || strings.HasPrefix(host, ".") || strings.Contains(host, "..") || strings.Contains(host, ":") {
		return "", "", fmt.Errorf("%q: the host must be an IP address or a host name", listen)
	}
	return host, port, nil
}

// listenAddress is nginx's listen value of host and port.
func listenAddress(host, port string) string {
	if host == "" {
		return port
	}
	return net.JoinHostPort(host, port)
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

// served counts the codes the export serves (not Withheld).
func served(list []store.ExportedRedirect) int {
	n := 0
	for _, r := range list {
		if !r.Withheld {
			n++
		}
	}
	return n
}

// WriteNginx writes a file to include inside nginx's http block: a server
// for the base URL's host (the first, so nginx's default server on its
// address, answering any host no other server names, as Squarely answers
// an unknown host as its base URL) and one per verified custom domain,
// each answering exactly the paths Squarely answers on that host (sites)
// with a 302 to the code's destination (a page code with its page's
// files), and any other path with 404. A map from each server's number
// and the path ("$squarely_site $uri", compared exactly, as Squarely's
// short codes are) gives the destination.
func WriteNginx(out io.Writer, site Site, list []store.ExportedRedirect) error {
	host, port, err := ParseListen(cmp.Or(site.Listen, "80"))
	if err != nil {
		return fmt.Errorf("portability: listen: %w", err)
	}
	listen := listenAddress(host, port)
	sites, err := site.sites(list)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out) // keeps the first error, for Flush to return
	fmt.Fprintf(w, "# Squarely's dynamic codes, exported %s: %d redirects.\n", time.Now().UTC().Format(time.RFC3339), served(list))
	fmt.Fprintf(w, "# Include this file inside nginx's http block (include /etc/nginx/conf.d/squarely.conf;).\n")
	fmt.Fprintf(w, "# Long short codes need a larger bucket than nginx's default.\nmap_hash_bucket_size 128;\n\n")
	// nginx compares a map's strings ignoring case, Squarely short codes
	// exactly: $squarely_uri is the path a key stands for, which the
	// server checks against $uri, and keys that differ by case alone are
	// written as (case-sensitive) regular expressions instead.
	fmt.Fprintf(w, "# What each server ($squarely_site) answers at each path: the path itself, compared exactly.\n")
	writeNginxMap(w, "$squarely_uri", sites, func(a answer) string { return configSafe(a.path) })
	fmt.Fprintf(w, "\n# The destination.\n")
	writeNginxMap(w, "$squarely_destination", sites, func(a answer) string { return configSafe(a.r.Destination) })
	pagesOn := len(site.Pages) > 0
	if pagesOn {
		fmt.Fprintf(w, "\n# Hosted pages: a page code answers with its page's files.\n")
		writeNginxMap(w, "$squarely_page", sites, func(a answer) string {
			if a.r.PageSlug == "" {
				return ""
			}
			return "/p/" + configSafe(a.r.PageSlug) + "/index.html"
		})
	}
	if pagesOn && len(sites) > 1 {
		fmt.Fprintf(w, "\n# The workspace of each page.\nmap $uri $squarely_page_workspace {\n\tdefault \"\";\n")
		for _, p := range site.Pages {
			fmt.Fprintf(w, "\t\"%s\" \"%d\";\n", slugPattern(p.Slug), p.WorkspaceID)
		}
		fmt.Fprintf(w, "}\n")
	}
	for i, hs := range sites {
		fmt.Fprintf(w, "\nserver {\n\tlisten %s;\n\tserver_name %s;\n\tset $squarely_site %d;\n\n\tlocation / {\n", listen, strings.Join(hs.names, " "), i)
		fmt.Fprintf(w, "\t\tif ($squarely_uri != $uri) {\n\t\t\treturn 404;\n\t\t}\n")
		if pagesOn {
			fmt.Fprintf(w, "\t\tif ($squarely_page != \"\") {\n\t\t\trewrite ^ $squarely_page last;\n\t\t}\n")
		}
		fmt.Fprintf(w, "\t\tif ($squarely_destination = \"\") {\n\t\t\treturn 404;\n\t\t}\n\t\treturn 302 $squarely_destination;\n\t}\n")
		if pagesOn {
			fmt.Fprintf(w, "\n\tlocation /p/ {\n")
			if hs.workspaceID != 0 {
				fmt.Fprintf(w, "\t\tif ($squarely_page_workspace != \"%d\") {\n\t\t\treturn 404;\n\t\t}\n", hs.workspaceID)
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
	return w.Flush()
}

// writeNginxMap writes the map from "$squarely_site $uri" to variable,
// with value's value of each answer of each server (none when ""). A key
// is a string, which nginx compares ignoring case, unless another answer's
// key differs from it by case alone, whether or not that answer has a
// value in this map (a page code's /d/menu beside a redirect's /d/MENU):
// then it is a regular expression, which ~ compares with case.
func writeNginxMap(w io.Writer, variable string, sites []hostSite, value func(answer) string) {
	type entry struct{ key, value string }
	var entries []entry
	folded := map[string]int{}
	for i, hs := range sites {
		for _, a := range hs.answers {
			key := strconv.Itoa(i) + " " + configSafe(a.path)
			folded[strings.ToLower(key)]++
			if v := value(a); v != "" {
				entries = append(entries, entry{key, v})
			}
		}
	}
	fmt.Fprintf(w, "map \"$squarely_site $uri\" %s {\n\tdefault \"\";\n", variable)
	for _, e := range entries {
		if folded[strings.ToLower(e.key)] > 1 {
			fmt.Fprintf(w, "\t\"~^%s$\" \"%s\";\n", regexp.QuoteMeta(e.key), e.value)
		} else {
			fmt.Fprintf(w, "\t\"%s\" \"%s\";\n", e.key, e.value)
		}
	}
	fmt.Fprintf(w, "}\n")
}

// WriteCaddy writes a Caddyfile with a site for any host (http://:port,
// answering as the base URL, as Squarely answers an unknown host) and one
// per verified custom domain, each answering exactly the paths Squarely
// answers on that host (sites) with a 302 to the code's destination (a
// page code with its page's files), and any other path with 404. A map
// of the path (compared exactly, as Squarely's short codes are: Caddy's
// path matcher ignores case) gives the destination.
func WriteCaddy(out io.Writer, site Site, list []store.ExportedRedirect) error {
	bind, port, err := ParseListen(cmp.Or(site.Listen, "80"))
	if err != nil {
		return fmt.Errorf("portability: listen: %w", err)
	}
	sites, err := site.sites(list)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out) // keeps the first error, for Flush to return
	fmt.Fprintf(w, "# Squarely's dynamic codes, exported %s: %d redirects.\n", time.Now().UTC().Format(time.RFC3339), served(list))
	for i, hs := range sites {
		addr := "http://:" + port
		if i > 0 {
			addr = "http://" + hs.names[0] + ":" + port
		}
		fmt.Fprintf(w, "\n%s {\n", addr)
		if bind != "" {
			fmt.Fprintf(w, "\tbind %s\n", bind)
		}
		var paths []string
		for _, p := range site.Pages {
			if hs.workspaceID == 0 || p.WorkspaceID == hs.workspaceID {
				paths = append(paths, "/p/"+configSafe(p.Slug), "/p/"+configSafe(p.Slug)+"/*")
			}
		}
		fmt.Fprintf(w, "\tmap {path} {squarely_destination} {squarely_page} {\n")
		for _, a := range hs.answers {
			if a.r.PageSlug != "" && len(paths) > 0 { // a page code answers with its page's files
				fmt.Fprintf(w, "\t\t%s \"\" \"/p/%s/index.html\"\n", configSafe(a.path), configSafe(a.r.PageSlug))
			} else {
				fmt.Fprintf(w, "\t\t%s \"%s\" \"\"\n", configSafe(a.path), configSafe(a.r.Destination))
			}
		}
		fmt.Fprintf(w, "\t\tdefault \"\" \"\"\n\t}\n")
		fmt.Fprintf(w, "\t@destination not vars {squarely_destination} \"\"\n\tredir @destination {squarely_destination} 302\n")
		if len(paths) > 0 {
			fmt.Fprintf(w, "\t@page not vars {squarely_page} \"\"\n\trewrite @page {squarely_page}\n")
			fmt.Fprintf(w, "\t@pages path %s\n\thandle @pages {\n\t\troot * \"%s\"\n", strings.Join(paths, " "), configSafe(site.PagesDir))
			fmt.Fprintf(w, "\t\theader Content-Security-Policy \"%s\"\n\t\ttry_files {path} {path}/index.html\n\t\tfile_server\n\t}\n", pages.CSP)
		}
		fmt.Fprintf(w, "\trespond 404\n}\n")
	}
	return w.Flush()
}

// WriteCSV writes each exported code's short code, destination and the
// URL printed in it (codes.PrintedURL: its custom domain's, at the root path
// for a chosen short code there).
func WriteCSV(w io.Writer, site Site, list []store.ExportedRedirect) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"short_code", "destination", "short_url"})
	for _, r := range list {
		if !r.Withheld {
			cw.Write([]string{r.ShortCode, CSVCell(r.Destination), codes.PrintedURL(site.BaseURL, r.Domain, r.ShortCode, r.ShortCodeChosen)})
		}
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

// baseAnswers is what the base URL's host answers (sites): one code per
// short code, at /d/{code}.
func baseAnswers(list []store.ExportedRedirect) ([]store.ExportedRedirect, error) {
	sites, err := Site{}.sites(list)
	if err != nil {
		return nil, err
	}
	out := make([]store.ExportedRedirect, len(sites[0].answers))
	for i, a := range sites[0].answers {
		out[i] = a.r
	}
	return out, nil
}

// WriteHTMLDir writes d/{code}/index.html under dir for each code the base
// URL's host answers, to publish on any static host at that host (static
// files cannot tell a custom domain's codes apart: nginx and Caddy
// serve those): a page code's is its page's HTML (pageHTML, by slug;
// PageFiles wrote the page under p/). It returns how many it wrote.
func WriteHTMLDir(dir string, list []store.ExportedRedirect, pageHTML map[string][]byte) (int, error) {
	answers, err := baseAnswers(list)
	if err != nil {
		return 0, err
	}
	for _, r := range answers {
		page := filepath.Join(dir, "d", r.ShortCode)
		if err := os.MkdirAll(page, 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(page, "index.html"), codeHTML(r, pageHTML), 0o644); err != nil {
			return 0, err
		}
	}
	return len(answers), nil
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
	answers, err := baseAnswers(list)
	if err != nil {
		return err
	}
	for _, r := range answers {
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
