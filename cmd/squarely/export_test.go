package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// exportFixture makes two users' codes: forwarding ones with awkward
// destinations, and a paused, a protected and a deleted one that must not
// be exported. It returns the forwarding codes' destinations by short code.
func exportFixture(t *testing.T, st *store.Store) (*store.User, map[string]string) {
	ctx := context.Background()
	now := time.Now()
	want := map[string]string{}
	var first *store.User
	for i, email := range []string{"ann@example.com", "bob@example.com"} {
		u := storetest.CreateUser(t, st, email)
		if first == nil {
			first = u
			ws := storetest.Personal(t, st, u.ID)
			logo := &store.Blob{OwnerID: &u.ID, WorkspaceID: &ws, Kind: "logo", FileName: "../brand logo.png", ContentType: "image/png", Data: []byte("\x89PNG logo bytes")}
			if err := st.CreateBlob(ctx, logo); err != nil {
				t.Fatal(err)
			}
		}
		for j, dest := range []string{
			"https://example.com/",
			"https://example.com/a path/?q=1&r=$x;y#frag",
			`https://example.com/"quoted"\{brace}`,
			"https://例え.jp/ページ?ü=1",
		} {
			code := fmt.Sprintf("u%dc%d", i, j)
			d := storetest.CreateDynamic(t, st, u.ID, code)
			if _, err := st.SetDynamicDestination(ctx, d.WorkspaceID, d.ID, dest, now); err != nil {
				t.Fatal(err)
			}
			want[code] = dest
		}
		paused := storetest.CreateDynamic(t, st, u.ID, fmt.Sprintf("u%dpaused", i))
		if _, err := st.SetDynamicPaused(ctx, paused.WorkspaceID, paused.ID, true, now); err != nil {
			t.Fatal(err)
		}
		locked := storetest.CreateDynamic(t, st, u.ID, fmt.Sprintf("u%dlocked", i))
		if _, err := st.SetDynamicPassword(ctx, locked.WorkspaceID, locked.ID, "hash", now); err != nil {
			t.Fatal(err)
		}
		gone := storetest.CreateDynamic(t, st, u.ID, fmt.Sprintf("u%dgone", i))
		if _, err := st.DeleteDynamicCode(ctx, gone.WorkspaceID, gone.ID, now); err != nil {
			t.Fatal(err)
		}
	}
	return first, want
}

// verifyDomain gives workspaceID the verified custom domain host.
func verifyDomain(t *testing.T, st *store.Store, workspaceID int64, host string) {
	t.Helper()
	ctx := context.Background()
	d := &store.Domain{Domain: host, Token: "token"}
	if err := st.CreateDomain(ctx, workspaceID, d, 10, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordDomainCheck(ctx, workspaceID, d.ID, "dns", "", time.Now()); err != nil {
		t.Fatal(err)
	}
}

// exportDomains gives ann's workspace two verified domains, bob's one, and
// ann's a pending one, which serves nothing.
func exportDomains(t *testing.T, st *store.Store) {
	t.Helper()
	ann, bob := storetest.Personal(t, st, userID(t, st, "ann@example.com")), storetest.Personal(t, st, userID(t, st, "bob@example.com"))
	verifyDomain(t, st, ann, "go.ann.example")
	verifyDomain(t, st, ann, "qr.ann.example")
	verifyDomain(t, st, bob, "qr.bob.example")
	if err := st.CreateDomain(context.Background(), ann, &store.Domain{Domain: "pending.ann.example", Token: "t"}, 10, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// exportPages gives ann a contact card with a photo, opened by the page
// code u0page, and bob a link list (issue 35).
func exportPages(t *testing.T, st *store.Store) (photoID int64) {
	t.Helper()
	ctx := context.Background()
	annID := userID(t, st, "ann@example.com")
	ann, bob := storetest.Personal(t, st, annID), storetest.Personal(t, st, userID(t, st, "bob@example.com"))
	photo := &store.Blob{OwnerID: &annID, WorkspaceID: &ann, Kind: "image", FileName: "ann.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nann photo")}
	if err := st.CreateBlob(ctx, photo); err != nil {
		t.Fatal(err)
	}
	card := &store.Page{Type: "vcard", Slug: "ann-card", Title: "Ann", Language: "en", Theme: `{"fgColor":"#0f172a","bgColor":"#ffffff","accentColor":"#2563eb"}`,
		Content: fmt.Sprintf(`{"firstName":"Ann","lastName":"Example <b>","photoUrl":"/images/%d","phones":[{"type":"cell","number":"+1 555 0100"}]}`, photo.ID)}
	links := &store.Page{Type: "links", Slug: "bob-links", Title: "Bob", Language: "en", Theme: `{}`, Content: `{"links":[{"label":"Bob's blog","url":"https://bob.example/blog"}]}`}
	for ws, p := range map[int64]*store.Page{ann: card, bob: links} {
		if err := st.CreatePage(ctx, ws, p, 200, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	d := storetest.NewDynamic(annID, "u0page")
	d.PageID, d.Destination = &card.ID, "https://qr.example.com/p/ann-card"
	if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
		t.Fatal(err)
	}
	return photo.ID
}

func userID(t *testing.T, st *store.Store, email string) int64 {
	t.Helper()
	u, err := st.UserByUsername(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// sameURL compares URLs as a browser would read them: percent-encoded
// bytes equal to the bytes themselves.
func sameURL(a, b string) bool {
	ua, erra := url.PathUnescape(a)
	ub, errb := url.PathUnescape(b)
	return erra == nil && errb == nil && ua == ub
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestExportRedirectsToNginx loads export-redirects' nginx file into a
// real nginx and checks that every forwarding code answers a 302 to its
// destination, and the others 404.
func TestExportRedirectsToNginx(t *testing.T) {
	nginx := testenv.Command(t, "nginx")
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		_, want := exportFixture(t, st)
		exportDomains(t, st)
		photoID := exportPages(t, st)
		env, dir := storeEnv(t, st), t.TempDir()
		env["SQUARELY_BASE_URL"] = "https://qr.example.com"
		addr := freePort(t)
		conf := filepath.Join(dir, "squarely.conf")
		code, _, errOut := runCmd(t, env, "export-redirects", "--format", "nginx", "--listen", addr, "--output", conf)
		if code != 0 {
			t.Fatalf("export-redirects: exit %d, %s", code, errOut)
		}
		main := fmt.Sprintf(`daemon off; worker_processes 1; pid %[1]s/nginx.pid; error_log %[1]s/error.log;
events {}
http {
	access_log off;
	client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy; fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi; scgi_temp_path %[1]s/scgi;
	include %[2]s;
}
`, dir, conf)
		if os.Geteuid() == 0 {
			main = "user root;\n" + main
		}
		mainConf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(mainConf, []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(nginx, "-t", "-p", dir, "-c", mainConf).CombinedOutput(); err != nil {
			b, _ := os.ReadFile(conf)
			t.Fatalf("nginx -t: %v\n%s\n%s", err, out, b)
		}
		var logs bytes.Buffer
		cmd := exec.Command(nginx, "-p", dir, "-c", mainConf)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // nginx and its worker
			cmd.Wait()
		})
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		get := func(path string, host ...string) *http.Response {
			t.Helper()
			req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
			req.Host = "qr.example.com"
			if len(host) > 0 {
				req.Host = host[0]
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				resp, err := client.Do(req)
				if err == nil {
					resp.Body.Close()
					return resp
				}
				if time.Now().After(deadline) {
					t.Fatalf("nginx does not answer: %v\n%s", err, logs.String())
				}
			}
		}
		for code, dest := range want {
			resp := get("/d/" + code)
			if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || !sameURL(loc, dest) {
				t.Errorf("/d/%s: %d to %q, want 302 to %q", code, resp.StatusCode, loc, dest)
			}
		}
		for _, code := range []string{"u0paused", "u1locked", "u0gone", "nothing"} {
			if resp := get("/d/" + code); resp.StatusCode != http.StatusNotFound {
				t.Errorf("/d/%s: %d, want 404", code, resp.StatusCode)
			}
		}
		// Each verified custom domain answers its workspace's codes (ann's
		// codes are u0…, bob's u1…), and no other's.
		for code, dest := range want {
			for _, host := range []string{"go.ann.example", "qr.ann.example", "qr.bob.example"} {
				resp := get("/d/"+code, host)
				ours := strings.HasPrefix(code, "u0") == strings.Contains(host, ".ann.")
				if loc := resp.Header.Get("Location"); ours && (resp.StatusCode != http.StatusFound || !sameURL(loc, dest)) {
					t.Errorf("%s/d/%s: %d to %q, want 302 to %q", host, code, resp.StatusCode, loc, dest)
				} else if !ours && resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s/d/%s: %d, want 404 (another workspace's code)", host, code, resp.StatusCode)
				}
			}
		}
		if b, _ := os.ReadFile(conf); strings.Contains(string(b), "pending.ann.example") {
			t.Error("a pending domain is served")
		}

		// Hosted pages (issue 35): served from their exported files at
		// /p/{slug}, and at their code's /d/{code}; a custom domain serves
		// its workspace's pages only.
		fetch := func(path, host string) (*http.Response, string) {
			t.Helper()
			req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
			req.Host = host
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp, string(b)
		}
		for _, c := range []struct {
			path, host, ctype, contains string
			status                      int
		}{
			{"/p/ann-card", "qr.example.com", "text/html", "Ann Example &lt;b&gt;", 200},
			{"/p/ann-card/", "qr.example.com", "text/html", `href="/p/ann-card/contact.vcf"`, 200},
			{"/d/u0page", "qr.example.com", "text/html", "Ann Example &lt;b&gt;", 200},
			{"/d/u0page", "go.ann.example", "text/html", "Ann Example &lt;b&gt;", 200},
			{"/d/u0page", "qr.bob.example", "", "", 404},
			{"/p/ann-card/contact.vcf", "qr.example.com", "text/vcard", "PHOTO:data:image/png;base64,", 200},
			{fmt.Sprintf("/p/ann-card/images/%d.png", photoID), "qr.example.com", "image/png", "ann photo", 200},
			{"/p/bob-links", "qr.example.com", "text/html", `href="https://bob.example/blog"`, 200},
			{"/p/bob-links", "qr.bob.example", "text/html", "Bob&#39;s blog", 200},
			{"/p/bob-links", "go.ann.example", "", "", 404},
			{"/p/ann-card", "qr.bob.example", "", "", 404},
			{"/p/nobody", "qr.example.com", "", "", 404},
		} {
			resp, body := fetch(c.path, c.host)
			if resp.StatusCode != c.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) || !strings.Contains(body, c.contains) {
				t.Errorf("%s%s: %d %q, want %d %q holding %q\n%s", c.host, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.status, c.ctype, c.contains, body)
			}
			if c.status == 200 && c.ctype == "text/html" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("%s%s: CSP %q", c.host, c.path, resp.Header.Get("Content-Security-Policy"))
			}
		}
	})
}

// storeEnv is the settings that reach st's database.
func storeEnv(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	dbURL, dir := storetest.Settings(t, st)
	return map[string]string{"DATABASE_URL": dbURL, "SQUARELY_DATA_DIR": dir}
}

func TestExportRedirectsFormats(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		_, want := exportFixture(t, st)
		exportDomains(t, st)
		exportPages(t, st)
		env := storeEnv(t, st)
		env["SQUARELY_BASE_URL"] = "https://qr.example.com"

		code, out, errOut := runCmd(t, env, "export-redirects", "--format", "csv")
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if code != 0 || err != nil || len(rows) != len(want)+2 { // the header, the page code
			t.Fatalf("csv: exit %d, %v, %s %s", code, err, out, errOut)
		}
		for _, row := range rows[1:] {
			if row[0] == "u0page" {
				continue
			}
			if want[row[0]] != row[1] || row[2] != "https://qr.example.com/d/"+row[0] {
				t.Errorf("csv row %v", row)
			}
		}

		dir := t.TempDir()
		if code, _, errOut := runCmd(t, env, "export-redirects", "--format", "html", "--output", dir); code != 0 {
			t.Fatalf("html: exit %d, %s", code, errOut)
		}
		for code, dest := range want {
			page, err := os.ReadFile(filepath.Join(dir, "d", code, "index.html"))
			if err != nil || !strings.Contains(string(page), `http-equiv="refresh" content="0; url=`) ||
				!strings.Contains(string(page), strings.ReplaceAll(strings.ReplaceAll(dest, "&", "&amp;"), `"`, "&#34;")) {
				t.Errorf("page of %s: %v\n%s", code, err, page)
			}
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "d")); len(entries) != len(want)+1 {
			t.Errorf("%d pages, want %d", len(entries), len(want)+1)
		}
		// The page code's is its page, whose files are beside it.
		if page, err := os.ReadFile(filepath.Join(dir, "d", "u0page", "index.html")); err != nil || !strings.Contains(string(page), "Ann Example &lt;b&gt;") {
			t.Errorf("u0page: %v\n%s", err, page)
		}
		for _, f := range []string{"p/ann-card/index.html", "p/ann-card/contact.vcf", "p/bob-links/index.html"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("html export: %v", err)
			}
		}

		code, out, errOut = runCmd(t, env, "export-redirects", "--format", "caddy", "--listen", "127.0.0.1:8089", "--pages", t.TempDir())
		if !strings.Contains(out, "rewrite /d/u0page /p/ann-card/index.html") || !strings.Contains(out, "@pages path /p/ann-card /p/ann-card/*") {
			t.Errorf("caddy: the page code or pages are not served:\n%s", out)
		}
		// Every code on the base host, and each again on its workspace's domains.
		if code != 0 || strings.Count(out, "redir /d/") != 2*len(want) {
			t.Fatalf("caddy: exit %d, %s %s", code, out, errOut)
		}
		// The verified domains: a site per workspace, with its codes only.
		for _, site := range []struct{ addrs, own, other string }{
			{"http://go.ann.example:8089, http://qr.ann.example:8089 {", "u0", "u1"},
			{"http://qr.bob.example:8089 {", "u1", "u0"},
		} {
			_, block, _ := strings.Cut(out, "\n"+site.addrs+"\n")
			block, _, _ = strings.Cut(block, "\n}\n")
			if strings.Count(block, "redir /d/"+site.own) != len(want)/2 || strings.Contains(block, "/d/"+site.other) ||
				!strings.Contains(block, "bind 127.0.0.1") {
				t.Errorf("caddy site %q:\n%s", site.addrs, out)
			}
		}
		if strings.Contains(out, "pending.ann.example") {
			t.Error("caddy: a pending domain is served")
		}
		caddyfile := filepath.Join(t.TempDir(), "Caddyfile")
		os.WriteFile(caddyfile, []byte(out), 0o644)
		check := exec.Command(testenv.Command(t, "caddy"), "validate", "--adapter", "caddyfile", "--config", caddyfile)
		check.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
		if b, err := check.CombinedOutput(); err != nil {
			t.Errorf("caddy validate: %v\n%s\n%s", err, b, out)
		}

		for _, args := range [][]string{{"--format", "xml"}, {"--format", "html"}, {}} {
			if code, _, _ := runCmd(t, env, append([]string{"export-redirects"}, args...)...); code != 2 {
				t.Errorf("%v: exit %d", args, code)
			}
		}
	})
}

// TestExportUser: `squarely export --user` writes the ZIP of the user's
// personal workspace, `--workspace` of the workspace with that id.
func TestExportUser(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ann, want := exportFixture(t, st)
		photoID := exportPages(t, st)
		env := storeEnv(t, st)
		file := filepath.Join(t.TempDir(), "ann.zip")
		if code, _, errOut := runCmd(t, env, "export", "--user", "Ann@Example.com", "--output", file); code != 0 {
			t.Fatalf("export: exit %d, %s", code, errOut)
		}
		zr, err := zip.OpenReader(file)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		files := map[string]string{}
		for _, f := range zr.File {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			files[f.Name] = string(b)
		}
		for code := range want {
			mine := strings.HasPrefix(code, "u0")
			if strings.Contains(files["codes.json"], `"ShortCode": "`+code+`"`) != mine || strings.Contains(files["redirects/redirects.csv"], code+",") != mine {
				t.Errorf("code %s in ann's export: %v", code, !mine)
			}
		}
		var upload string
		for name, data := range files {
			if strings.HasPrefix(name, "uploads/") && strings.HasSuffix(name, "-brand logo.png") && data == "\x89PNG logo bytes" {
				upload = name
			}
		}
		if upload == "" {
			t.Errorf("the upload is missing: %v", files)
		}
		// Ann's hosted page as static files, its code's page among the
		// redirects; not bob's page.
		if !strings.Contains(files["pages/p/ann-card/index.html"], "Ann Example &lt;b&gt;") ||
			!strings.Contains(files["pages/p/ann-card/contact.vcf"], "PHOTO:data:image/png;base64,") ||
			files[fmt.Sprintf("pages/p/ann-card/images/%d.png", photoID)] == "" ||
			!strings.Contains(files["redirects/html/d/u0page/index.html"], "Ann Example") ||
			!strings.Contains(files["redirects/nginx.conf"], `"/d/u0page" "/p/ann-card/index.html"`) {
			t.Errorf("ann's pages are not exported: %v", slices.Collect(maps.Keys(files)))
		}
		if _, ok := files["pages/p/bob-links/index.html"]; ok {
			t.Error("bob's page is in ann's export")
		}
		if !strings.Contains(files["codes.json"], fmt.Sprintf(`"WorkspaceID": %d,`, storetest.Personal(t, st, ann.ID))) || !strings.Contains(files["codes.json"], `"u0paused"`) ||
			!strings.HasPrefix(files["scans.csv"], "short_code,scanned_at,") || files["redirects/nginx.conf"] == "" {
			t.Errorf("export files: %v", files)
		}
		byID := filepath.Join(t.TempDir(), "ws.zip")
		if code, _, errOut := runCmd(t, env, "export", "--workspace", fmt.Sprint(storetest.Personal(t, st, ann.ID)), "--output", byID); code != 0 {
			t.Errorf("--workspace: exit %d %s", code, errOut)
		} else if b, _ := os.ReadFile(byID); len(b) < 100 {
			t.Errorf("--workspace wrote %d bytes", len(b))
		}
		for _, args := range [][]string{{"--user", "nobody@example.com"}, {"--workspace", "999999"}} {
			if code, _, errOut := runCmd(t, env, append([]string{"export", "--output", file + "2"}, args...)...); code != 1 || !strings.Contains(errOut, "no such user or workspace") {
				t.Errorf("%v: exit %d %s", args, code, errOut)
			}
		}
		if code, _, _ := runCmd(t, env, "export", "--user", ann.Email, "--workspace", "1"); code != 2 {
			t.Errorf("both --user and --workspace: exit %d", code)
		}
		if code, _, _ := runCmd(t, env, "export", "--user", ann.Email, "--output", file); code != 1 {
			t.Errorf("over an existing file: exit %d", code)
		}
	})
}
