package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/portability"
	"github.com/squarely/squarely/internal/store"
)

// The exit guarantee (issue 25): a customer's data and every redirect, out
// of the database the server uses (the same settings).

// export writes a workspace's data ZIP, as GET /api/account/export does:
// the workspace with an id, or a user's personal one.
func export(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("export", flag.ContinueOnError)
	flags.SetOutput(stderr)
	email := flags.String("user", "", "export this user's personal workspace (their e-mail address)")
	id := flags.Int64("workspace", 0, "export the workspace with this id")
	output := flags.String("output", "", "the ZIP file to write (default: standard output)")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 || (*email == "") == (*id == 0) {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cfg, st, ok := openExisting(ctx, getenv, stderr)
	if !ok {
		return 1
	}
	defer st.Close()
	var ws *store.Workspace
	u, err := st.UserByUsername(ctx, strings.ToLower(strings.TrimSpace(*email)))
	if err == nil {
		ws, err = st.PersonalWorkspace(ctx, u.ID)
	}
	if *id != 0 {
		ws, err = st.ExportedWorkspace(ctx, *id)
	}
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintln(stderr, "squarely: no such user or workspace")
		return 1
	} else if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	base, err := workspaceBaseURL(ctx, st, ws, cfg.BaseURL)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	return writeOutput(*output, stdout, stderr, func(w io.Writer) error {
		return portability.WriteWorkspace(ctx, w, st, ws, portability.Site{BaseURL: base})
	})
}

// workspaceBaseURL is where the workspace's codes point, as the server's
// export has them: a white-label client's site, else the base URL.
func workspaceBaseURL(ctx context.Context, st *store.Store, ws *store.Workspace, baseURL string) (string, error) {
	if ws.ClientID == store.DefaultClientID {
		return baseURL, nil
	}
	c, err := st.Client(ctx, ws.ClientID)
	if errors.Is(err, store.ErrNotFound) {
		return baseURL, nil
	} else if err != nil {
		return "", err
	}
	base, err := url.Parse(baseURL)
	if err != nil {
		return "", err
	}
	if site := c.SiteURL(base); site != "" {
		return site, nil
	}
	return baseURL, nil
}

// exportRedirects writes every forwarding dynamic code's redirect, as each
// host Squarely serves answers it.
func exportRedirects(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("export-redirects", flag.ContinueOnError)
	flags.SetOutput(stderr)
	format := flags.String("format", "", "nginx, caddy, csv or html")
	listen := flags.String("listen", "80", "the address nginx or Caddy listens on (port or host:port)")
	output := flags.String("output", "", "the file to write (default: standard output); for html, the directory")
	pagesDir := flags.String("pages", "", "nginx, caddy: the directory to write the hosted pages' files to, which the configuration serves (default: squarely-pages beside --output, or in the working directory)")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 || !slices.Contains(portability.Formats, *format) {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if _, _, err := portability.ParseListen(*listen); err != nil {
		fmt.Fprintf(stderr, "squarely: export-redirects --listen: %v\n", err)
		return 2
	}
	if *format == "html" && *output == "" {
		fmt.Fprintln(stderr, "squarely: export-redirects --format html needs --output DIR: it writes a page per code")
		return 2
	}
	cfg, st, ok := openExisting(ctx, getenv, stderr)
	if !ok {
		return 1
	}
	defer st.Close()
	list, err := st.ExportRedirects(ctx, 0)
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	site := portability.Site{BaseURL: cfg.BaseURL, Listen: *listen}
	if site.Domains, err = st.ExportDomains(ctx, 0); err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	// Hosted pages (issue 35): their files, which the configuration serves
	// at /p/{slug} and at their codes' /d/{code}.
	if site.Pages, err = st.ExportPages(ctx, 0); err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	var pageHTML map[string][]byte
	if len(site.Pages) > 0 && *format != "csv" {
		dir := *pagesDir
		switch {
		case *format == "html":
			dir = *output
		case dir == "" && *output != "":
			dir = filepath.Join(filepath.Dir(*output), "squarely-pages")
		case dir == "":
			dir = "squarely-pages"
		}
		if site.PagesDir, err = filepath.Abs(dir); err == nil {
			pageHTML, err = portability.WritePagesDir(ctx, st, site.PagesDir, site.Pages, site)
		}
		if err != nil {
			fmt.Fprintf(stderr, "squarely: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %d hosted pages under %s/p/\n", len(site.Pages), site.PagesDir)
	}
	if *format == "html" {
		n, err := portability.WriteHTMLDir(*output, list, pageHTML)
		if err != nil {
			fmt.Fprintf(stderr, "squarely: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %d pages under %s/d/\n", n, *output)
		return 0
	}
	write := map[string]func(io.Writer, portability.Site, []store.ExportedRedirect) error{
		"nginx": portability.WriteNginx, "caddy": portability.WriteCaddy, "csv": portability.WriteCSV,
	}[*format]
	return writeOutput(*output, stdout, stderr, func(w io.Writer) error { return write(w, site, list) })
}

// writeOutput runs write on the file output (created new) or stdout.
func writeOutput(output string, stdout, stderr io.Writer, write func(io.Writer) error) int {
	w, closeFile := stdout, func() error { return nil }
	if output != "" {
		f, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "squarely: %v\n", err)
			return 1
		}
		w, closeFile = f, f.Close
	}
	err := write(w)
	if cerr := closeFile(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "squarely: %v\n", err)
		return 1
	}
	return 0
}

// openExisting reads the settings and opens the database without
// migrating it.
func openExisting(ctx context.Context, getenv func(string) string, stderr io.Writer) (config.Config, *store.Store, bool) {
	return openWith(ctx, getenv, stderr, store.OpenExisting)
}
