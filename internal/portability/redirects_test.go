package portability

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store"
)

func TestParseListen(t *testing.T) {
	for in, want := range map[string][2]string{
		"80": {"", "80"}, "65535": {"", "65535"}, ":8080": {"", "8080"}, "127.0.0.1:8081": {"127.0.0.1", "8081"},
		"[::1]:8081": {"::1", "8081"}, "localhost:80": {"localhost", "80"}, "qr.example.com:443": {"qr.example.com", "443"},
	} {
		host, port, err := ParseListen(in)
		if err != nil || host != want[0] || port != want[1] {
			t.Errorf("ParseListen(%q) = %q, %q, %v; want %q", in, host, port, err, want)
		}
	}
	for _, in := range []string{"", "abc", "0", "99999", "65536", "-1", "+80", "080", "80; include /etc/passwd", "80 default_server",
		"::1", "[::1]", "1.2.3.4", "1.2.3.4:", "1.2.3.4:x", "a b:80", "a;b:80", "-a:80", "a..b:80", "[host]:80", "[1.2.3.4]x:80", "${x}:80"} {
		if host, port, err := ParseListen(in); err == nil {
			t.Errorf("ParseListen(%q) = %q, %q, want an error", in, host, port)
		}
	}
}

// TestSitesAsSquarely: each host answers a short code with the code
// Squarely's pick chooses there, and a withheld choice with nothing.
func TestSitesAsSquarely(t *testing.T) {
	list := []store.ExportedRedirect{
		{ID: 3, ShortCode: "autumn", Destination: "https://a/autumn", WorkspaceID: 1, DomainID: 10, Domain: "qr1.test", ShortCodeChosen: true},
		{ID: 1, ShortCode: "spring", Destination: "https://a/spring", WorkspaceID: 1, DomainID: 10, Domain: "qr1.test", ShortCodeChosen: true},
		{ID: 2, ShortCode: "spring", Destination: "https://b/spring", WorkspaceID: 2, ShortCodeChosen: true},
		{ID: 4, ShortCode: "summer", Destination: "https://a/summer", WorkspaceID: 1, ShortCodeChosen: true},
		{ID: 5, ShortCode: "summer", Destination: "https://a/summer-paused", WorkspaceID: 1, DomainID: 10, Domain: "qr1.test", ShortCodeChosen: true, Withheld: true},
		{ID: 6, ShortCode: "login", Destination: "https://a/login", WorkspaceID: 1, DomainID: 10, Domain: "qr1.test"},
	}
	site := Site{BaseURL: "https://qr.example.com", Domains: []store.ExportedDomain{{ID: 10, Domain: "qr1.test", WorkspaceID: 1}, {ID: 20, Domain: "qr2.test", WorkspaceID: 2}}}
	sites, err := site.sites(list)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]map[string]string, len(sites))
	for i, hs := range sites {
		got[i] = map[string]string{}
		for _, a := range hs.answers {
			got[i][a.path] = a.r.Destination
		}
	}
	want := []map[string]string{
		{"/d/autumn": "https://a/autumn", "/d/spring": "https://b/spring", "/d/summer": "https://a/summer", "/d/login": "https://a/login"},
		{"/d/autumn": "https://a/autumn", "/autumn": "https://a/autumn", "/d/spring": "https://a/spring", "/spring": "https://a/spring", "/d/login": "https://a/login"},
		{"/d/spring": "https://b/spring", "/spring": "https://b/spring"},
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("site %v answers %v, want %v", sites[i].names, got[i], want[i])
			continue
		}
		for path, dest := range want[i] {
			if got[i][path] != dest {
				t.Errorf("site %v answers %v, want %v", sites[i].names, got[i], want[i])
				break
			}
		}
	}

	var b bytes.Buffer
	if err := WriteCSV(&b, site, list); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&b).ReadAll()
	var urls []string
	for _, r := range rows[1:] {
		urls = append(urls, r[2])
	}
	if got, want := strings.Join(urls, " "), "https://qr1.test/autumn https://qr1.test/spring https://qr.example.com/d/spring https://qr.example.com/d/summer https://qr1.test/d/login"; got != want {
		t.Errorf("CSV short URLs %s, want %s", got, want)
	}
}

// A page code's /d/menu beside a redirect's /d/MENU: every map names both
// keys with case, so nginx (which compares plain map keys ignoring case)
// never serves the page for /d/MENU.
func TestNginxMapsKeepCase(t *testing.T) {
	list := []store.ExportedRedirect{
		{ID: 1, ShortCode: "menu", Destination: "https://a/menu", WorkspaceID: 1, PageSlug: "lunch"},
		{ID: 2, ShortCode: "MENU", Destination: "https://b/other", WorkspaceID: 2},
	}
	site := Site{BaseURL: "https://qr.example.com", PagesDir: "/srv/pages", Pages: []*store.Page{{ID: 7, WorkspaceID: 1, Slug: "lunch"}}}
	var b bytes.Buffer
	if err := WriteNginx(&b, site, list); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, "/d/menu") || strings.Contains(line, "/d/MENU") {
			if !strings.Contains(line, `"~^`) {
				t.Errorf("a key nginx would compare ignoring case: %s", line)
			}
		}
	}
	if !strings.Contains(b.String(), `"~^0 /d/menu$" "/p/lunch/index.html"`) {
		t.Errorf("no page entry for /d/menu:\n%s", b.String())
	}
}
