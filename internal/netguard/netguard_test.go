package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestForbidden(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.8.9.10", "::1", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254",
		"192.168.1.1", "169.254.169.254", "fe80::1", "fc00::1", "fd12:3456::1", "0.0.0.0", "::",
		"224.0.0.1", "239.255.255.250", "ff02::1", "100.64.0.1", "255.255.255.255", "240.0.0.1",
		"::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
		"192.0.2.10", "198.18.0.1", "2001:db8::1",
		// Forms that embed a forbidden IPv4 a relay or translator would
		// reach (issue 32): 6to4, Teredo's server and (inverted) client,
		// NAT64 written either way, local-use NAT64, and site-local.
		"2002:7f00:1::", "2002:a9fe:a9fe::1", "2002:c0a8:101::", "2001:0:7f00:1::", "2001:0:808:808::80ff:fffe",
		"2001:0:808:808:0:0:5601:5601", "64:ff9b::127.0.0.1", "64:ff9b::169.254.169.254", "64:ff9b:1::808:808",
		"fec0::1", "feff::1",
	}
	for _, s := range refused {
		if !Forbidden(netip.MustParseAddr(s)) {
			t.Errorf("Forbidden(%s) = false", s)
		}
	}
	allowed := []string{"8.8.8.8", "93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "172.32.0.1", "100.128.0.1",
		"2002:808:808::1", "2001:0:808:808:0:0:f7f7:f7f7"}
	for _, s := range allowed {
		if Forbidden(netip.MustParseAddr(s)) {
			t.Errorf("Forbidden(%s) = true", s)
		}
	}
}

func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	strict := Policy{}
	for raw, want := range map[string]string{
		"http://example.com/hook":        "must use https",
		"ftp://example.com/":             "must start with https://",
		"example.com":                    "must start with https://",
		"https:///path":                  "must name a host",
		"https://user:pw@example.com/":   "must not contain a user name or password",
		"https://127.0.0.1/":             "loopback",
		"https://[::1]:8443/":            "loopback",
		"https://10.0.0.7/":              "private",
		"https://169.254.169.254/latest": "link-local",
		"https://[::ffff:127.0.0.1]/":    "loopback",
		"https://[::ffff:a9fe:a9fe]/":    "link-local",
		"https://localhost/":             "loopback",
		"https://0.0.0.0/":               "unspecified",
		"https://[ff02::1]/":             "multicast",
		"https://[2002:7f00:1::1]/":      "loopback",
		"https://[2001:0:a9fe:a9fe::]/":  "link-local",
		"https://[fec0::1]/":             "private",
		"https://name.invalid/":          "does not resolve",
		"https://%zz/":                   "valid URL",
	} {
		_, err := strict.CheckURL(ctx, raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckURL(%q) = %v, want an error containing %q", raw, err, want)
		}
	}
	if _, err := strict.CheckURL(ctx, "https://93.184.216.34/hook"); err != nil {
		t.Errorf("public address refused: %v", err)
	}
	open := Policy{AllowHTTP: true, AllowPrivate: true}
	if _, err := open.CheckURL(ctx, "ftp://example.com/"); err == nil || err.Error() != "must start with https:// or http://" {
		t.Errorf("ftp with http allowed: %v", err)
	}
	for _, raw := range []string{"http://127.0.0.1:8080/hook", "https://localhost/", "http://[::1]/"} {
		if _, err := open.CheckURL(ctx, raw); err != nil {
			t.Errorf("open policy refused %q: %v", raw, err)
		}
	}
}

// The client checks the address it dials, whatever the URL says, and
// answers redirects instead of following them.
func TestClientDialCheck(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "/landing", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	localhostURL := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	for _, u := range []string{srv.URL, localhostURL} {
		_, err := Policy{AllowHTTP: true}.Client(5 * time.Second).Get(u)
		var addrErr *AddressError
		if !errors.As(err, &addrErr) || addrErr.Reason != "loopback" {
			t.Errorf("GET %s = %v, want a loopback AddressError", u, err)
		}
	}
	if hits != 0 {
		t.Fatalf("the refused requests reached the server %d times", hits)
	}

	client := Policy{AllowHTTP: true, AllowPrivate: true}.Client(5 * time.Second)
	resp, err := client.Get(srv.URL + "/away")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || hits != 1 {
		t.Fatalf("redirect: status %d after %d requests, want 302 after 1", resp.StatusCode, hits)
	}
}
