package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

func withWeb(fsys fstest.MapFS) option { return func(d *Deps) { d.Web = fsys } }

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSPAPrerenderedAndCompressed(t *testing.T) {
	faq := `<!doctype html><title>FAQ - Squarely</title><link rel="canonical" href="__SQUARELY_BASE_URL__/faq" />` + strings.Repeat("<p>Is Squarely free to use?</p>", 50)
	js := []byte(strings.Repeat("console.log('hello');", 100))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(js)
	zw.Close()
	e := start(t, storetest.Open(t), withWeb(fstest.MapFS{
		"index.html":            {Data: []byte("<!doctype html><title>landing</title>")},
		"spa.html":              {Data: []byte("<!doctype html><title>shell</title>")},
		"faq/index.html":        {Data: []byte(faq)},
		"sitemap.xml":           {Data: []byte("<urlset><url><loc>__SQUARELY_BASE_URL__/faq</loc></url></urlset>")},
		"assets/app-abc1.js":    {Data: js},
		"assets/app-abc1.js.gz": {Data: gz.Bytes()},
		"assets/app-abc1.js.br": {Data: []byte("brotli bytes")},
		"assets/plain-1.css":    {Data: []byte("body{}")},
	}))
	base := testConfig(t).BaseURL
	c := e.browser()
	get := func(path, acceptEncoding string) *response {
		t.Helper()
		return e.do(c, "GET", path, "", "Accept-Encoding", acceptEncoding)
	}

	// Pages: the prerendered file for its path, the base URL filled in; the shell elsewhere.
	wantFAQ := strings.ReplaceAll(faq, "__SQUARELY_BASE_URL__", base)
	for _, path := range []string{"/faq", "/faq/", "/faq/index.html"} {
		if r := get(path, "identity"); string(r.body) != wantFAQ || r.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: %q encoded %q", path, r.body, r.Header.Get("Content-Encoding"))
		}
	}
	for path, want := range map[string]string{"/": "landing", "/dashboard": "shell", "/blog/nope": "shell", "/FAQ": "shell"} {
		if r := get(path, ""); !strings.Contains(string(r.body), "<title>"+want+"</title>") {
			t.Errorf("%s: %q, want the %s page", path, r.body, want)
		}
	}
	if r := get("/sitemap.xml", ""); string(r.body) != "<urlset><url><loc>"+base+"/faq</loc></url></urlset>" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/xml") {
		t.Errorf("sitemap: %q %q", r.body, r.Header.Get("Content-Type"))
	}

	// A page compressed at start decompresses to the same bytes.
	r := get("/faq", "gzip, deflate, br")
	if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Vary") != "Accept-Encoding" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("faq with gzip: encoding %q vary %q type %q", r.Header.Get("Content-Encoding"), r.Header.Get("Vary"), r.Header.Get("Content-Type"))
	}
	if got := gunzip(t, r.body); string(got) != wantFAQ {
		t.Errorf("gunzipped faq differs: %q", got)
	}

	// Assets: the build's brotli or gzip copy, by the client's preference, typed as the original.
	for _, tc := range []struct {
		accept, encoding string
		body             []byte
	}{
		{"gzip, deflate, br, zstd", "br", []byte("brotli bytes")},
		{"gzip;q=1.0, br;q=0", "gzip", gz.Bytes()},
		{"GZIP", "gzip", gz.Bytes()},
		{"identity", "", js},
		{"br;q=0, gzip;q=0", "", js},
	} {
		r := get("/assets/app-abc1.js", tc.accept)
		if r.Header.Get("Content-Encoding") != tc.encoding || !bytes.Equal(r.body, tc.body) {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes; want %q, %d", tc.accept, r.Header.Get("Content-Encoding"), len(r.body), tc.encoding, len(tc.body))
		}
		if r.Header.Get("Vary") != "Accept-Encoding" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") ||
			r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("Accept-Encoding %q: headers %v", tc.accept, r.Header)
		}
	}
	if got := gunzip(t, get("/assets/app-abc1.js", "gzip").body); !bytes.Equal(got, js) {
		t.Error("gunzipped asset differs from the original")
	}
	// A file with no compressed copy goes out as it is, with no Vary.
	if r := get("/assets/plain-1.css", "gzip, br"); r.Header.Get("Content-Encoding") != "" || r.Header.Get("Vary") != "" || string(r.body) != "body{}" {
		t.Errorf("plain css: %v %q", r.Header, r.body)
	}
	// HEAD still works on a compressed answer.
	if r := e.do(c, "HEAD", "/assets/app-abc1.js", "", "Accept-Encoding", "br"); r.StatusCode != 200 || len(r.body) != 0 || r.Header.Get("Content-Encoding") != "br" {
		t.Errorf("HEAD: %d %q encoding %q", r.StatusCode, r.body, r.Header.Get("Content-Encoding"))
	}
}

// Issue 32 item 4: only the app's pages (web/src/app/routes.json) answer
// 200; any other path gets the app's shell, which shows its not-found page,
// with status 404, so search engines index no soft 404s.
func TestSPAUnknownPathsAre404(t *testing.T) {
	shell := "<!doctype html><title>shell</title>" + strings.Repeat("<div id=root></div>", 20)
	e := start(t, storetest.Open(t), withWeb(fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><title>landing</title>")},
		"spa.html":               {Data: []byte(shell)},
		"faq/index.html":         {Data: []byte("<!doctype html><title>FAQ</title>")},
		"blog/a-post/index.html": {Data: []byte("<!doctype html><title>A post</title>")},
		"robots.txt":             {Data: []byte("User-agent: *")},
		"favicon.svg":            {Data: []byte("<svg/>")},
	}))
	c := e.browser()
	for _, path := range []string{
		"/", "/faq", "/faq/", "/robots.txt", "/favicon.svg", "/dashboard", "/Dashboard/", "/DASHBOARD", "/blog/a-post", "/blog/a-post/",
		"/workspace/members", "/webhooks", "/account-settings", "/invitations/accept?token=x", "/subscribe", "/payment", "/pages/7/edit",
	} {
		if r := e.do(c, "GET", path, "", "Accept-Encoding", "identity"); r.StatusCode != 200 {
			t.Errorf("%s: status %d, want 200", path, r.StatusCode)
		}
	}
	for _, path := range []string{"/metrics", "/no-such-page", "/dashboard/x/y", "/dashboard/x", "/blog/a/b", "/workspace", "/docs", "/index.htm", "/%00",
		"/blog/no-such-post", "/spa.html", "/robots.txt/", "/favicon.svg/"} {
		r := e.do(c, "GET", path, "", "Accept-Encoding", "identity")
		if r.StatusCode != 404 || string(r.body) != shell || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || r.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %d %q %v, want 404 with the app's shell", path, r.StatusCode, r.body, r.Header)
		}
	}
	// Compressed and HEAD answers keep the status.
	r := e.do(c, "GET", "/no-such-page", "", "Accept-Encoding", "gzip")
	if r.StatusCode != 404 || r.Header.Get("Content-Encoding") != "gzip" || string(gunzip(t, r.body)) != shell {
		t.Errorf("gzip: %d %v", r.StatusCode, r.Header)
	}
	if r := e.do(c, "HEAD", "/no-such-page", ""); r.StatusCode != 404 || len(r.body) != 0 {
		t.Errorf("HEAD: %d %q", r.StatusCode, r.body)
	}
	// The API's unknown paths stay JSON, assets plain 404s.
	expect(t, e.do(c, "GET", "/api/no-such-call", ""), http.StatusNotFound, "Not found")
	if r := e.do(c, "GET", "/assets/missing-1.js", ""); r.StatusCode != 404 || strings.Contains(string(r.body), "shell") {
		t.Errorf("missing asset: %d %q", r.StatusCode, r.body)
	}
}

// The pages of the real build (make build), as the server sends them:
// every route of the sitemap has its own title, description, canonical
// link, social tags and main text.
func TestPrerenderedPages(t *testing.T) {
	dist := filepath.Join("..", "..", "web", "dist")
	_, err := os.Stat(filepath.Join(dist, "spa.html"))
	testenv.Need(t, err == nil, "web/dist is not built: run make build (or make test, which builds it first)")
	e := start(t, storetest.Open(t), func(d *Deps) { d.Web = os.DirFS(dist) })
	base := testConfig(t).BaseURL
	c := e.browser()

	sitemap := string(e.do(c, "GET", "/sitemap.xml", "").body)
	locs := regexp.MustCompile(`<loc>([^<]+)</loc>`).FindAllStringSubmatch(sitemap, -1)
	if len(locs) < 20 {
		t.Fatalf("sitemap lists %d pages, want the 12 fixed pages and at least 8 posts:\n%s", len(locs), sitemap)
	}
	seen := map[string]bool{}
	titles := map[string]string{}
	for _, loc := range locs {
		url := loc[1]
		if seen[url] {
			t.Errorf("%s is listed twice", url)
		}
		seen[url] = true
		path, ok := strings.CutPrefix(url, base)
		if !ok {
			t.Errorf("sitemap entry %s is not on %s", url, base)
			continue
		}
		body := string(e.do(c, "GET", path, "", "Accept-Encoding", "identity").body)
		title := regexp.MustCompile(`<title>([^<]+)</title>`).FindStringSubmatch(body)
		if title == nil || strings.Count(body, "<title>") != 1 {
			t.Errorf("%s: no single title", path)
			continue
		}
		if other, dup := titles[title[1]]; dup {
			t.Errorf("%s has the title of %s: %q", path, other, title[1])
		}
		titles[title[1]] = path
		for _, want := range []string{
			`<meta name="description" content="`, `<link rel="canonical" href="` + url + `"`, `<meta property="og:url" content="` + url + `"`,
			`<meta property="og:title"`, `<meta name="twitter:card" content="summary"`, `<h1`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %s", path, want)
			}
		}
		if strings.Contains(body, baseURLToken) {
			t.Errorf("%s still holds the base-URL token", path)
		}
	}

	// Main text, as readers without JavaScript get it.
	for path, texts := range map[string][]string{
		"/faq":                                  {"Is Squarely free to use?", "Static QR codes are free", `"@type":"FAQPage"`, `name="faq"`},
		"/templates":                            {"Digital Business Card", "Restaurant Menu", "Guest WiFi", "All Templates"},
		"/features":                             {"Scan analytics", "Dynamic codes", "Premium", `href="/features/analytics"`},
		"/features/analytics":                   {"QR Code Analytics &amp; Tracking", "CSV"},
		"/use-cases":                            {"Restaurants &amp; Cafés", "Update the menu without reprinting"},
		"/contact":                              {"Mon-Fri 9AM-6PM EST", "24 hours", "Send Message"},
		"/blog":                                 {"QR Code Error Correction Levels Explained", "Read More"},
		"/blog/qr-code-error-correction-levels": {"about 7%", "about 15%", "about 25%", "about 30%", `"@type":"BlogPosting"`, "<table"},
		"/blog/qr-code-print-size-guide":        {"2 x 2 cm", "4 modules"},
		"/blog/how-many-qr-codes-does-a-business-need": {"3-5", "10-50", "50-200+"},
		"/privacy": {"What we store"},
		"/terms":   {"Using Squarely"},
	} {
		body := string(e.do(c, "GET", path, "", "Accept-Encoding", "identity").body)
		for _, text := range texts {
			if !strings.Contains(body, text) {
				t.Errorf("%s lacks %q", path, text)
			}
		}
	}
	robots := string(e.do(c, "GET", "/robots.txt", "").body)
	if !strings.Contains(robots, "Sitemap: "+base+"/sitemap.xml") {
		t.Errorf("robots.txt does not point at the sitemap:\n%s", robots)
	}

	// The shell of a lazily loaded page lists that page's code as module
	// preloads (route-preloads.json), every one a file of the build.
	for path, chunk := range map[string]string{"/dashboard": "dashboard-", "/auth": "auth-page-", "/pages/7/edit": "page-editor-page-"} {
		shell := string(e.do(c, "GET", path, "", "Accept-Encoding", "identity").body)
		head, _, _ := strings.Cut(shell, "</head>")
		files := regexp.MustCompile(`<link rel="modulepreload" crossorigin href="(/assets/[^"]+)">`).FindAllStringSubmatch(head, -1)
		if !strings.Contains(head, `href="/assets/`+chunk) {
			t.Errorf("%s: no preload of its page's chunk %s*:\n%s", path, chunk, head)
		}
		for _, f := range files {
			if r := e.do(c, "GET", f[1], ""); r.StatusCode != http.StatusOK {
				t.Errorf("%s preloads %s: %d", path, f[1], r.StatusCode)
			}
		}
	}

	// Every compressed answer of the build decompresses to the plain one.
	page := e.do(c, "GET", "/faq", "", "Accept-Encoding", "identity").body
	if got := gunzip(t, e.do(c, "GET", "/faq", "", "Accept-Encoding", "gzip").body); !bytes.Equal(got, page) {
		t.Error("/faq gunzipped differs")
	}
	for _, m := range regexp.MustCompile(`src="(/assets/[^"]+\.js)"`).FindAllStringSubmatch(string(page), -1) {
		plain := e.do(c, "GET", m[1], "", "Accept-Encoding", "identity").body
		r := e.do(c, "GET", m[1], "", "Accept-Encoding", "gzip")
		if r.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, r.body), plain) {
			t.Errorf("%s: gzip answer %q does not decompress to the file", m[1], r.Header.Get("Content-Encoding"))
		}
	}
}

// The shell of a page lists the build's preloads of that page's code
// before its </head> (route-preloads.json): the route as the client
// router matches it, and only names of the build's chunks.
func TestSPARoutePreloads(t *testing.T) {
	shell := "<!doctype html><html><head><title>shell</title></head><body><div id=root></div></body></html>"
	preloads := `{
		"/dashboard": ["assets/dashboard-1.js", "assets/codes-2.js"],
		"/pages/new/:type": ["assets/page-editor-3.js"],
		"/pages/:id/edit": ["assets/page-editor-3.js", "assets/pages-4.js"],
		"/blog/:id": ["assets/post-5.js"],
		"/auth": ["assets/x.js\"><script>alert(1)</script>", "../secret.js", "/assets/abs-6.js", "assets/style-7.css"]
	}`
	link := func(files ...string) string {
		var b strings.Builder
		for _, f := range files {
			b.WriteString(`<link rel="modulepreload" crossorigin href="/` + f + `">`)
		}
		return b.String()
	}
	e := start(t, storetest.Open(t), withWeb(fstest.MapFS{
		"index.html": {Data: []byte("landing")}, "spa.html": {Data: []byte(shell)}, "route-preloads.json": {Data: []byte(preloads)},
	}))
	c := e.browser()
	for path, want := range map[string]string{
		"/dashboard":        link("assets/dashboard-1.js", "assets/codes-2.js"),
		"/DASHBOARD/":       link("assets/dashboard-1.js", "assets/codes-2.js"),
		"/pages/9/edit":     link("assets/page-editor-3.js", "assets/pages-4.js"),
		"/pages/new/text":   link("assets/page-editor-3.js"),
		"/auth":             "",
		"/account-settings": "",
	} {
		body := string(e.do(c, "GET", path, "", "Accept-Encoding", "identity").body)
		head, _, _ := strings.Cut(body, "</head>")
		if got := strings.TrimPrefix(head, "<!doctype html><html><head><title>shell</title>"); got != want {
			t.Errorf("%s: head ends %q, want %q", path, got, want)
		}
	}
	// The 404 shell has none.
	if r := e.do(c, "GET", "/dashboard/x", "", "Accept-Encoding", "identity"); r.StatusCode != 404 || string(r.body) != shell {
		t.Errorf("not found: %d %q", r.StatusCode, r.body)
	}

	// An unreadable list: no preloads, and the pages still served.
	e = start(t, storetest.Open(t), withWeb(fstest.MapFS{
		"index.html": {Data: []byte("landing")}, "spa.html": {Data: []byte(shell)}, "route-preloads.json": {Data: []byte(`{"/dashboard": "assets/a.js"`)},
	}))
	if r := e.do(e.browser(), "GET", "/dashboard", "", "Accept-Encoding", "identity"); r.StatusCode != 200 || strings.Contains(string(r.body), "modulepreload") {
		t.Errorf("malformed list: %d %q", r.StatusCode, r.body)
	}
}
