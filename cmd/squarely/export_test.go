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
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/idna"

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
	// Pointing here too, so codes can print it.
	if _, err := st.RecordDomainPointing(ctx, workspaceID, d.ID, "", time.Now()); err != nil {
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

// exportHostCodes gives the workspaces codes on their verified domains
// (after exportDomains), as issue 34 lets them: chosen short codes a
// domain prints at its root path, the same short code on the base URL
// in bob's workspace and on a domain in ann's (ann's the older), a
// short code that differs by case alone from no other, a paused code on
// a domain whose workspace has the same short code on the base URL, and
// a random code on a domain, and a random code that differs from another
// by case alone. It returns the printed URL of each
// forwarding one, by short code and workspace ("spring" is ann's,
// "spring@bob" bob's).
func exportHostCodes(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	annID, bobID := userID(t, st, "ann@example.com"), userID(t, st, "bob@example.com")
	create := func(user int64, code, domain string, chosen bool) *store.DynamicCode {
		t.Helper()
		d := storetest.NewDynamic(user, code)
		d.Destination, d.ShortCodeChosen = "https://dest.example/"+code+"/"+domain, chosen
		if domain != "" {
			dom, err := st.VerifiedDomain(ctx, domain)
			if err != nil {
				t.Fatal(err)
			}
			d.DomainID = &dom.ID
		}
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			t.Fatalf("%s on %q: %v", code, domain, err)
		}
		return d
	}
	create(annID, "spring", "qr.ann.example", true)
	create(bobID, "spring", "", true)
	create(annID, "autumn", "qr.ann.example", true)
	create(annID, "Winter", "qr.ann.example", true)
	create(annID, "summer", "", true)
	paused := create(annID, "summer", "qr.ann.example", true)
	if _, err := st.SetDynamicPaused(ctx, paused.WorkspaceID, paused.ID, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	create(annID, "u0dom", "go.ann.example", false)
	create(bobID, "bobroot", "qr.bob.example", true)
	create(bobID, "U0C0", "", false) // a random code that differs from ann's u0c0 by case alone
	return map[string]string{
		"spring":     "https://qr.ann.example/spring",
		"spring@bob": "https://qr.example.com/d/spring",
		"autumn":     "https://qr.ann.example/autumn",
		"Winter":     "https://qr.ann.example/Winter",
		"summer":     "https://qr.example.com/d/summer",
		"u0dom":      "https://go.ann.example/d/u0dom",
		"bobroot":    "https://qr.bob.example/bobroot",
		"U0C0":       "https://qr.example.com/d/U0C0",
	}
}

// startSquarely runs Squarely itself over st's database and returns its
// address.
func startSquarely(t *testing.T, st *store.Store, baseURL string) string {
	t.Helper()
	env := storeEnv(t, st)
	env["SQUARELY_ADDR"], env["SQUARELY_BASE_URL"] = "127.0.0.1:0", baseURL
	ctx, stop := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, envOf(env), &logs, &logs) }()
	t.Cleanup(func() {
		stop()
		<-done
	})
	listening := regexp.MustCompile(`msg=listening addr=(\S+)`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(logs.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("squarely did not start:\n%s", logs.String())
		}
	}
}

// sameTarget compares a Location Squarely sent with the export's: as a
// browser reads them, percent-encoded bytes equal to the bytes themselves
// and a host equal to its IDNA (punycode) form.
func sameTarget(a, b string) bool {
	norm := func(s string) string {
		s, err := url.PathUnescape(s)
		if err != nil {
			return "!" + s
		}
		scheme, rest, _ := strings.Cut(s, "://")
		host, path, _ := strings.Cut(rest, "/")
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			host = ascii
		}
		return scheme + "://" + host + "/" + path
	}
	return norm(a) == norm(b)
}

// checkAsSquarely asks Squarely (at squarely) and the exported server (at
// export) the same requests: every host (the base URL's, an unknown one,
// each verified domain) and, for each short code there is and its case
// variants, /d/{code} and on the domains /{code}. Where Squarely
// redirects, the export must redirect to the same destination; where it
// answers a hosted page (u0page), so must the export; anything else
// (unknown, another workspace's, paused, protected) must be 404.
func checkAsSquarely(t *testing.T, st *store.Store, squarely, export string) {
	t.Helper()
	list, err := st.ExportRedirects(context.Background(), 0) // every live short code, paused and protected ones too
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var codes []string
	for _, code := range append([]string{"nothing", "u0gone", "u1gone"}, func() (all []string) {
		for _, r := range list {
			all = append(all, r.ShortCode)
		}
		return all
	}()...) {
		for _, c := range []string{code, strings.ToUpper(code), strings.ToLower(code)} {
			if !seen[c] {
				seen[c] = true
				codes = append(codes, c)
			}
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ask := func(addr, host, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		req.Host = host
		req.Header.Set("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			resp, err := client.Do(req)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return resp.StatusCode, resp.Header.Get("Location")
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s does not answer: %v", addr, err)
			}
		}
	}
	redirects := 0
	for _, host := range []string{"qr.example.com", "unknown.example", "go.ann.example", "qr.ann.example", "qr.bob.example"} {
		custom := strings.HasSuffix(host, ".ann.example") || strings.HasSuffix(host, ".bob.example")
		for _, code := range codes {
			paths := []string{"/d/" + code}
			if custom {
				paths = append(paths, "/"+code)
			}
			for _, path := range paths {
				status, loc := ask(squarely, host, path)
				got, gotLoc := ask(export, host, path)
				switch {
				case status == http.StatusFound:
					redirects++
					if got != http.StatusFound || !sameTarget(loc, gotLoc) {
						t.Errorf("%s%s: the export answers %d to %q, Squarely 302 to %q", host, path, got, gotLoc, loc)
					}
				case status == http.StatusOK && code == "u0page":
					if got != http.StatusOK {
						t.Errorf("%s%s: the export answers %d, Squarely the page", host, path, got)
					}
				case got != http.StatusNotFound:
					t.Errorf("%s%s: the export answers %d to %q, want 404 (Squarely: %d)", host, path, got, gotLoc, status)
				}
			}
		}
	}
	if redirects < 50 {
		t.Errorf("Squarely redirected %d of the requests: is it serving the codes?", redirects)
	}
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
		exportHostCodes(t, st)
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

		// Every host answers every short code as Squarely does: custom
		// domains at /{code} too, a short code on two hosts each host's.
		checkAsSquarely(t, st, startSquarely(t, st, "https://qr.example.com"), addr)
	})
}

// TestExportRedirectsToCaddy runs a real Caddy over export-redirects'
// Caddyfile and asks it what it asks Squarely (checkAsSquarely): each host
// answers each code as Squarely does, an unknown host as the base URL.
func TestExportRedirectsToCaddy(t *testing.T) {
	caddy := testenv.Command(t, "caddy")
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		exportFixture(t, st)
		exportDomains(t, st)
		exportPages(t, st)
		exportHostCodes(t, st)
		env, dir := storeEnv(t, st), t.TempDir()
		env["SQUARELY_BASE_URL"] = "https://qr.example.com"
		addr := freePort(t)
		code, out, errOut := runCmd(t, env, "export-redirects", "--format", "caddy", "--listen", addr, "--pages", filepath.Join(dir, "pages"))
		if code != 0 {
			t.Fatalf("export-redirects: exit %d, %s", code, errOut)
		}
		caddyfile := filepath.Join(dir, "Caddyfile")
		if err := os.WriteFile(caddyfile, []byte("{\n\tadmin off\n\tauto_https off\n}\n\n"+out), 0o644); err != nil {
			t.Fatal(err)
		}
		var logs syncBuffer
		cmd := exec.Command(caddy, "run", "--adapter", "caddyfile", "--config", caddyfile)
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
		})
		checkAsSquarely(t, st, startSquarely(t, st, "https://qr.example.com"), addr)
		if t.Failed() {
			t.Logf("Caddyfile:\n%s\ncaddy:\n%s", out, logs.String())
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
		printed := exportHostCodes(t, st)
		env := storeEnv(t, st)
		env["SQUARELY_BASE_URL"] = "https://qr.example.com"

		// The CSV: every forwarding code (a short code on two hosts twice),
		// with the URL it prints: its custom domain's, at the root path
		// for a chosen short code there.
		code, out, errOut := runCmd(t, env, "export-redirects", "--format", "csv")
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if code != 0 || err != nil || len(rows) != len(want)+len(printed)+2 { // the header, the page code
			t.Fatalf("csv: exit %d, %v, %s %s", code, err, out, errOut)
		}
		urls := map[string]bool{}
		for key, u := range printed {
			short, _, _ := strings.Cut(key, "@")
			urls[short+" "+u] = true
		}
		for _, row := range rows[1:] {
			switch {
			case row[0] == "u0page":
			case want[row[0]] != "":
				if want[row[0]] != row[1] || row[2] != "https://qr.example.com/d/"+row[0] {
					t.Errorf("csv row %v", row)
				}
			case !urls[row[0]+" "+row[2]] || !strings.HasPrefix(row[1], "https://dest.example/"+row[0]+"/"):
				t.Errorf("csv row %v: want one of %v", row, printed)
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
		// A page per short code the base URL answers: spring once, bob's.
		if entries, _ := os.ReadDir(filepath.Join(dir, "d")); len(entries) != len(want)+1+len(printed)-1 {
			t.Errorf("%d pages, want %d", len(entries), len(want)+1+len(printed)-1)
		}
		if page, _ := os.ReadFile(filepath.Join(dir, "d", "spring", "index.html")); !strings.Contains(string(page), "https://dest.example/spring/\"") {
			t.Errorf("d/spring is not bob's, which the base URL answers:\n%s", page)
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

		// The Caddyfile (TestExportRedirectsToCaddy runs it): a site for any
		// host, answering as the base URL, and one per verified domain.
		code, out, errOut = runCmd(t, env, "export-redirects", "--format", "caddy", "--listen", "127.0.0.1:8089", "--pages", t.TempDir())
		if code != 0 || !strings.Contains(out, "\t\t/d/u0page \"\" \"/p/ann-card/index.html\"\n") || !strings.Contains(out, "@pages path /p/ann-card /p/ann-card/*") {
			t.Errorf("caddy: exit %d, the page code or pages are not served:\n%s%s", code, out, errOut)
		}
		for _, addr := range []string{"http://:8089", "http://go.ann.example:8089", "http://qr.ann.example:8089", "http://qr.bob.example:8089"} {
			if !strings.Contains(out, "\n"+addr+" {\n\tbind 127.0.0.1\n") {
				t.Errorf("caddy: no site %s:\n%s", addr, out)
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
		// --listen is a port or host:port, never written into the
		// configuration otherwise.
		for _, listen := range []string{"abc", "99999", "0", "80; include /etc/passwd", "127.0.0.1:80;", "::1", "[::1]", "host name:80", "-h:80", "127.0.0.1:", "+80"} {
			for _, format := range []string{"nginx", "caddy"} {
				code, out, errOut := runCmd(t, env, "export-redirects", "--format", format, "--listen", listen)
				if code != 2 || out != "" || !strings.Contains(errOut, "--listen") {
					t.Errorf("%s --listen %q: exit %d, %q %q", format, listen, code, out, errOut)
				}
			}
		}
		for listen, want := range map[string]string{"8080": "listen 8080;", "127.0.0.1:8080": "listen 127.0.0.1:8080;", "[::1]:8080": "listen [::1]:8080;", "localhost:8080": "listen localhost:8080;"} {
			if code, out, errOut := runCmd(t, env, "export-redirects", "--format", "nginx", "--listen", listen, "--pages", t.TempDir()); code != 0 || !strings.Contains(out, "\tlisten") || !strings.Contains(out, want) {
				t.Errorf("--listen %q: exit %d, %s", listen, code, errOut)
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
			!strings.Contains(files["redirects/nginx.conf"], `"0 /d/u0page" "/p/ann-card/index.html"`) {
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

// TestExportWhiteLabelWorkspace: a white-label client's workspace is
// exported with its codes at the client's site, as the server's export
// has them: its custom domain, or its subdomain of the base URL's host.
func TestExportWhiteLabelWorkspace(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		env := storeEnv(t, st)
		env["SQUARELY_BASE_URL"] = "https://qr.example.com:8443"
		for _, c := range []struct {
			client store.Client
			want   string
		}{
			{store.Client{Name: "Acme", Subdomain: "acme"}, "https://acme.qr.example.com:8443/d/acme1"},
			{store.Client{Name: "Bolt", CustomDomain: "qr.bolt.example"}, "https://qr.bolt.example/d/bolt1"},
		} {
			if err := st.CreateClient(ctx, &c.client, time.Now()); err != nil {
				t.Fatal(err)
			}
			u := &store.User{Username: strings.ToLower(c.client.Name) + "@example.com", PasswordHash: "hash", ClientID: c.client.ID}
			u.Email = u.Username
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			storetest.CreateDynamic(t, st, u.ID, strings.ToLower(c.client.Name)+"1")
			code, out, errOut := runCmd(t, env, "export", "--user", u.Email)
			if code != 0 {
				t.Fatalf("export: exit %d, %s", code, errOut)
			}
			zr, err := zip.NewReader(strings.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatal(err)
			}
			f, err := zr.Open("codes.json")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(f)
			if !strings.Contains(string(b), `"ShortURL": "`+c.want+`"`) {
				t.Errorf("%s's codes.json does not point at %s:\n%s", c.client.Name, c.want, b)
			}
		}
	})
}

// TestExportRedirectsUsage: the help names every flag of export-redirects
// and the pages directory it writes.
func TestExportRedirectsUsage(t *testing.T) {
	code, out, _ := runCmd(t, nil, "--help")
	for _, want := range []string{"--listen PORT|HOST:PORT", "--pages DIR", "squarely-pages", "custom\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help: exit %d, %q missing:\n%s", code, want, out)
		}
	}
}
