package domains_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/domains/domaintest"
)

// The pointing check passes only when the domain's requests reach an
// instance with the same base URL, and otherwise says what the domain's
// DNS records show: a CNAME to the base host, or the instance's addresses.
func TestCheckPointing(t *testing.T) {
	// answerAs answers the reach path as the instance at baseURL would
	// ("" echoes the nonce, as a site that is not Squarely might).
	answerAs := ""
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce, ok := strings.CutPrefix(r.URL.Path, domains.ReachPath)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if answerAs == "" {
			io.WriteString(w, nonce)
			return
		}
		io.WriteString(w, domains.ReachAnswer(answerAs, r.Host, nonce)) // fetched on port 80 as far as the URL says
	}))
	defer web.Close()
	_, port, _ := net.SplitHostPort(web.Listener.Addr().String())
	dns := domaintest.StartDNS(t)
	dns.Set(nil, map[string]string{"a.shop.example": "127.0.0.1", "b.shop.example": "127.0.0.2", "squarely.test": "127.0.0.1"})
	dns.SetCNAME("c.shop.example", "squarely.test")
	dns.SetCNAME("d.shop.example", "elsewhere.example")
	to := domains.TargetOf("https://squarely.test", []netip.Addr{netip.MustParseAddr("203.0.113.7")})
	if to.Host != "squarely.test" {
		t.Fatalf("target host %q", to.Host)
	}
	v := domains.NewVerifier(dns.Addr, port, true)
	ctx := context.Background()

	for _, c := range []struct{ domain, answerAs, want string }{
		{"a.shop.example", "https://squarely.test", ""},
		{"c.shop.example", "https://squarely.test", ""},
		{"a.shop.example", "https://other.test", "a.shop.example does not point here yet: its addresses are 127.0.0.1, not a CNAME record to squarely.test or A/AAAA records with 203.0.113.7, and its web server answered, but not as Squarely"},
		{"a.shop.example", "", "its web server answered, but not as Squarely"},
		{"c.shop.example", "https://other.test", "c.shop.example does not point here yet: its CNAME record names squarely.test as it should, and its web server answered, but not as Squarely"},
		{"d.shop.example", "https://squarely.test", "d.shop.example does not point here yet: its CNAME record names elsewhere.example, not squarely.test, and nothing answered over it."},
		{"b.shop.example", "https://squarely.test", "b.shop.example does not point here yet: its addresses are 127.0.0.2, not a CNAME record to squarely.test or A/AAAA records with 203.0.113.7, and nothing answered over it."},
		{"none.shop.example", "https://squarely.test", "none.shop.example does not point here yet: it has no A, AAAA or CNAME record (add a CNAME record to squarely.test), and nothing answered over it."},
	} {
		answerAs = c.answerAs
		got := v.CheckPointing(ctx, c.domain, to)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s answered as %q: %q, want %q", c.domain, c.answerAs, got, c.want)
		}
	}

	// The instance's own address in the A record is named as right.
	answerAs = "https://other.test"
	own := domains.TargetOf("https://squarely.test", []netip.Addr{netip.MustParseAddr("127.0.0.1")})
	if got := v.CheckPointing(ctx, "a.shop.example", own); !strings.Contains(got, "its address records hold this instance's address (127.0.0.1)") {
		t.Errorf("own address: %q", got)
	}
	// Without private addresses allowed, a loopback domain is not fetched.
	strict := domains.NewVerifier(dns.Addr, port, false)
	answerAs = "https://squarely.test"
	if got := strict.CheckPointing(ctx, "a.shop.example", to); !strings.Contains(got, "and it resolves to an address that cannot be checked") {
		t.Errorf("loopback refused: %q", got)
	}
}

func TestReachAnswer(t *testing.T) {
	const nonce = "0123456789abcdef0123456789abcdef"
	a := domains.ReachAnswer("https://squarely.test", "qr.shop.example", nonce)
	if len(a) != 64 || a != domains.ReachAnswer("https://squarely.test", "QR.Shop.Example", nonce) {
		t.Errorf("answer %q not stable across the host's case", a)
	}
	for _, other := range []string{
		domains.ReachAnswer("https://other.test", "qr.shop.example", nonce),
		domains.ReachAnswer("https://squarely.test", "qr2.shop.example", nonce),
		domains.ReachAnswer("https://squarely.test", "qr.shop.example", strings.Repeat("0", 32)),
	} {
		if other == a {
			t.Error("the answer does not depend on every part")
		}
	}
	for s, want := range map[string]bool{nonce: true, strings.ToUpper(nonce): false, nonce[:31]: false, nonce + "0": false, "x" + nonce[1:]: false, "": false} {
		if domains.ValidNonce(s) != want {
			t.Errorf("ValidNonce(%q) = %v", s, !want)
		}
	}
}
