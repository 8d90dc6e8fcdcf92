// Package geo turns a client address into its country, from the
// IP2Location LITE data that github.com/phuslu/iploc ships inside the
// binary: nothing is looked up online and no address is kept.
package geo

import (
	"net"
	"net/netip"

	"github.com/phuslu/iploc"
)

// Attribution is the credit the IP2Location LITE licence (CC BY-SA 4.0)
// asks every product using its data to show.
const Attribution = "This site or product includes IP2Location LITE data available from https://lite.ip2location.com."

// Country returns the ISO 3166-1 alpha-2 code of addr (an IP address,
// with or without a port), or "" when it is unknown: malformed, private,
// loopback, link-local or not in the data.
func Country(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		addr = h
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return ""
	}
	ip = ip.Unmap().WithZone("")
	if !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return ""
	}
	c := iploc.IPCountry(ip)
	if len(c) != 2 || c == "ZZ" || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' {
		return ""
	}
	return c
}
