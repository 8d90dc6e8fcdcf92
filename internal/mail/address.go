package mail

import (
	netmail "net/mail"
	"strings"
)

// ValidAddress accepts a plain address (no display name) whose domain has a
// dot, as browsers' and zod's e-mail checks do, and is not under the
// reserved .invalid domain (RFC 2606): no mail reaches it, and the hidden
// users of client API keys live there.
func ValidAddress(s string) bool {
	if len(s) > 254 {
		return false
	}
	a, err := netmail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	domain := s[strings.LastIndexByte(s, '@')+1:]
	if strings.HasSuffix(strings.ToLower(domain), ".invalid") {
		return false
	}
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") && !strings.Contains(domain, "..")
}
