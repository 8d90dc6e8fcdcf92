// Package netguard keeps outgoing requests to URLs that users supply
// (webhook endpoints, destination checks, domain verification) away from
// the networks Squarely itself lives on: loopback, private ranges, cloud
// metadata and the like. Addresses are checked twice: when a URL is
// accepted, to give the user a reason, and on the address actually dialled,
// so a name that resolves elsewhere later (DNS rebinding) gets nowhere.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Policy says which URLs and addresses are allowed.
type Policy struct {
	AllowHTTP    bool // plain http URLs (link checks; webhooks only when configured)
	AllowPrivate bool // every address: for tests and private deployments
	// Resolver looks names up for CheckURL; nil means net.DefaultResolver.
	Resolver *net.Resolver
}

// AddressError is a refused address, with why.
type AddressError struct {
	Addr   netip.Addr
	Reason string
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("address %s is not allowed (%s)", e.Addr, e.Reason)
}

// special are ranges that are neither loopback nor RFC 1918 but still
// reach no public host: carrier-grade NAT, protocol assignments,
// documentation, benchmarking, reserved and broadcast.
var special = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("100::/64"),
	// NAT64 for local use (RFC 8215): a translator of the network's own.
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// siteLocal is the deprecated site-local range (RFC 3879), private in
// effect, which netip does not count as private.
var siteLocal = netip.MustParsePrefix("fec0::/10")

// embedsIPv4 are IPv6 ranges that carry an IPv4 address a gateway or
// relay may forward to, with where it sits (byte offset of its four) and
// whether its bits are inverted: NAT64 and the deprecated IPv4-compatible
// form at the end, 6to4 (RFC 3056) after its prefix, and Teredo (RFC 4380)
// both its server's and, inverted, its client's.
var embedsIPv4 = []struct {
	prefix netip.Prefix
	at     int
	invert bool
}{
	{netip.MustParsePrefix("64:ff9b::/96"), 12, false},
	{netip.MustParsePrefix("::/96"), 12, false},
	{netip.MustParsePrefix("2002::/16"), 2, false},
	{netip.MustParsePrefix("2001::/32"), 4, false},
	{netip.MustParsePrefix("2001::/32"), 12, true},
}

// reason names why ip is forbidden, or "" when it may be reached.
func reason(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "invalid"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast():
		return "link-local"
	case siteLocal.Contains(ip):
		return "private"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	}
	if ip.Is6() {
		b := ip.As16()
		for _, e := range embedsIPv4 {
			if !e.prefix.Contains(ip) {
				continue
			}
			v4 := [4]byte(b[e.at : e.at+4])
			if e.invert {
				for i := range v4 {
					v4[i] ^= 0xff
				}
			}
			if r := reason(netip.AddrFrom4(v4)); r != "" {
				return r
			}
		}
	}
	for _, p := range special {
		if p.Contains(ip) {
			return "reserved"
		}
	}
	return ""
}

// Forbidden reports whether ip is loopback, private, link-local,
// multicast, unspecified or otherwise not a public host.
func Forbidden(ip netip.Addr) bool { return reason(ip) != "" }

// check refuses ip unless the policy allows private addresses.
func (p Policy) check(ip netip.Addr) error {
	if p.AllowPrivate {
		return nil
	}
	if r := reason(ip); r != "" {
		return &AddressError{Addr: ip.Unmap(), Reason: r}
	}
	return nil
}

// CheckURL parses raw and says why it cannot be used: a scheme other than
// https (or http when allowed), no host, credentials in it, a name that
// does not resolve, or any resolved address that is forbidden. The error's
// text is meant for the user.
func (p Policy) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Opaque != "" {
		return nil, errors.New("must be a valid URL")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowHTTP {
			return nil, errors.New("must use https")
		}
	default:
		if p.AllowHTTP {
			return nil, errors.New("must start with https:// or http://")
		}
		return nil, errors.New("must start with https://")
	}
	if u.User != nil {
		return nil, errors.New("must not contain a user name or password")
	}
	host := u.Hostname()
	if host == "" {
		return nil, errors.New("must name a host")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return u, p.check(ip)
	}
	resolver := p.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	ips, err := resolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return nil, fmt.Errorf("host %s does not resolve", host)
	}
	for _, ip := range ips {
		if err := p.check(ip); err != nil {
			return nil, fmt.Errorf("host %s resolves to a forbidden address: %w", host, err)
		}
	}
	return u, nil
}

// Client is an HTTP client for user-supplied URLs: every dialled address
// is checked, no proxy is used, redirects are answered rather than
// followed (the caller sees the 3xx), and the whole exchange is bounded by
// timeout.
func (p Policy) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{
		Timeout: timeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip, err := netip.ParseAddr(host)
			if err != nil {
				return err
			}
			return p.check(ip)
		},
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
