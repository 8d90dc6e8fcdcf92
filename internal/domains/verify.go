// Package domains proves a workspace controls a custom domain (issue 25
// item 7): a TXT record at _squarely-verify.{domain}, or the token
// answered over plain HTTP. The API's verification and the daily
// re-checks (Runner, issue 32 item 5) share the proof.
package domains

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/netguard"
)

const (
	// CheckTimeout bounds one check, both methods together.
	CheckTimeout = 15 * time.Second
	// maxTokenAnswer is as much of the HTTP token's answer as is read.
	maxTokenAnswer = 1024
	// VerifyLabel and VerifyPrefix make the TXT record: VerifyLabel{domain}
	// holding VerifyPrefix{token}; the HTTP token is at VerifyPath{token}.
	VerifyLabel  = "_squarely-verify."
	VerifyPrefix = "squarely-verify="
	VerifyPath   = "/.well-known/squarely-verify/"
)

// Verifier checks a domain's proof.
type Verifier struct {
	resolver *net.Resolver // TXT records and the HTTP host's addresses
	client   *http.Client  // SSRF-safe (netguard): no redirects, forbidden addresses refused when dialled
	port     string        // of the token and pointing URLs: 80 but in tests and odd intranets
}

// NewVerifier asks the DNS server at resolverAddr ("" = the system's) and
// fetches tokens on port ("" = 80) through netguard, private addresses
// allowed only with allowPrivate.
func NewVerifier(resolverAddr, port string, allowPrivate bool) *Verifier {
	v := &Verifier{resolver: net.DefaultResolver, port: cmp.Or(port, "80")}
	if resolverAddr != "" {
		var d net.Dialer
		v.resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, resolverAddr)
		}}
	}
	v.client = netguard.Policy{AllowHTTP: true, AllowPrivate: allowPrivate}.Client(10 * time.Second)
	// The token's host is resolved by the same resolver as the TXT record;
	// the address dialled is still checked by netguard.
	t := v.client.Transport.(*http.Transport)
	// Every check looks the domain up afresh: a pooled connection would
	// still reach where the domain pointed at the previous check.
	t.DisableKeepAlives = true
	dial := t.DialContext
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := v.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil || len(ips) == 0 {
			return nil, fmt.Errorf("%s does not resolve", host)
		}
		return dial(ctx, network, net.JoinHostPort(ips[0].Unmap().String(), v.port))
	}
	return v
}

// Check tries the TXT record, then the HTTP token; it returns the method
// that proved the domain, or "" and what each method found instead.
func (v *Verifier) Check(ctx context.Context, domain, token string) (method, problem string) {
	dnsProblem := v.checkTXT(ctx, domain, token)
	if dnsProblem == "" {
		return "dns", ""
	}
	httpProblem := v.checkHTTP(ctx, domain, token)
	if httpProblem == "" {
		return "http", ""
	}
	return "", "Not verified. DNS: " + dnsProblem + " HTTP: " + httpProblem
}

func (v *Verifier) checkTXT(ctx context.Context, domain, token string) string {
	name := VerifyLabel + domain
	records, err := v.resolver.LookupTXT(ctx, name)
	if dnsErr, ok := errors.AsType[*net.DNSError](err); ok && dnsErr.IsNotFound {
		return "there is no TXT record at " + name + "."
	}
	if err != nil {
		return "looking up the TXT record at " + name + " failed; try again in a few minutes."
	}
	for _, rec := range records {
		if strings.TrimSpace(rec) == VerifyPrefix+token {
			return ""
		}
	}
	return fmt.Sprintf("the TXT record at %s does not hold %s%s.", name, VerifyPrefix, token)
}

func (v *Verifier) checkHTTP(ctx context.Context, domain, token string) string {
	url := "http://" + domain + VerifyPath + token
	body, err := v.fetch(ctx, url, maxTokenAnswer)
	if addrErr, ok := errors.AsType[*netguard.AddressError](err); ok {
		return fmt.Sprintf("%s resolves to an address that cannot be checked (%s).", domain, addrErr.Reason)
	}
	if status, ok := errors.AsType[*statusError](err); ok {
		return fmt.Sprintf("%s answered %d, not 200 with the token.", url, status.code)
	}
	if err != nil {
		return url + " could not be reached."
	}
	if strings.TrimSpace(body) != token {
		return url + " did not answer the token alone."
	}
	return ""
}
