package domains

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/netguard"
)

// ReachPath is where every instance answers the pointing check: a
// verified domain proves who controls it, not that its requests reach
// Squarely. The check fetches ReachPath{nonce} over the domain and expects
// ReachAnswer, which only an instance with the same base URL gives.
const ReachPath = "/.well-known/squarely-reach/"

// ReachAnswer is what an instance whose base URL is baseURL answers for
// nonce on host: tied to all three, so neither another site echoing the
// nonce nor another Squarely installation passes for this one.
func ReachAnswer(baseURL, host, nonce string) string {
	sum := sha256.Sum256([]byte("squarely-reach\x00" + baseURL + "\x00" + strings.ToLower(host) + "\x00" + nonce))
	return hex.EncodeToString(sum[:])
}

// ValidNonce reports whether s can be a nonce CheckPointing sends: 32
// lower-case hex digits, so nothing else is hashed or logged.
func ValidNonce(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// Target is where custom domains should point: a CNAME to Host, or A and
// AAAA records holding IPs.
type Target struct {
	BaseURL string
	Host    string
	IPs     []netip.Addr
}

// TargetOf is the target of the instance at baseURL with public ips.
func TargetOf(baseURL string, ips []netip.Addr) Target {
	host := ""
	if u, err := url.Parse(baseURL); err == nil {
		host = strings.ToLower(u.Hostname())
	}
	return Target{BaseURL: baseURL, Host: host, IPs: ips}
}

// CheckPointing fetches a fresh nonce over http://{domain}/ and reports ""
// when this instance answered it, or what the DNS records show instead.
func (v *Verifier) CheckPointing(ctx context.Context, domain string, to Target) string {
	nonce := hex.EncodeToString([]byte(rand.Text())[:16])
	body, err := v.fetch(ctx, "http://"+domain+ReachPath+nonce, 128)
	if err == nil && strings.TrimSpace(body) == ReachAnswer(to.BaseURL, domain, nonce) {
		return ""
	}
	return domain + " does not point here yet: " + v.describeRecords(ctx, domain, to) + ", " + reachProblem(err)
}

// describeRecords says what the domain's DNS holds against the target.
func (v *Verifier) describeRecords(ctx context.Context, domain string, to Target) string {
	cname, _ := v.resolver.LookupCNAME(ctx, domain)
	cname = strings.TrimSuffix(strings.ToLower(cname), ".")
	ips, err := v.resolver.LookupNetIP(ctx, "ip", domain)
	switch {
	case cname != "" && cname != domain && cname == to.Host:
		return "its CNAME record names " + to.Host + " as it should"
	case cname != "" && cname != domain:
		return "its CNAME record names " + cname + ", not " + to.Host
	case err != nil || len(ips) == 0:
		return "it has no A, AAAA or CNAME record (add a CNAME record to " + to.Host + ")"
	}
	found := make([]string, len(ips))
	matched := false
	for i, ip := range ips {
		found[i] = ip.Unmap().String()
		matched = matched || slices.Contains(to.IPs, ip.Unmap())
	}
	if matched {
		return "its address records hold this instance's address (" + strings.Join(found, ", ") + ")"
	}
	want := "a CNAME record to " + to.Host
	if len(to.IPs) > 0 {
		addrs := make([]string, len(to.IPs))
		for i, ip := range to.IPs {
			addrs[i] = ip.String()
		}
		want += " or A/AAAA records with " + strings.Join(addrs, ", ")
	}
	return "its addresses are " + strings.Join(found, ", ") + ", not " + want
}

// reachProblem says what the fetch over the domain met.
func reachProblem(err error) string {
	if _, answered := errors.AsType[*statusError](err); err == nil || answered {
		return "and its web server answered, but not as Squarely (is a proxy in front sending it elsewhere?)."
	}
	if addrErr, ok := errors.AsType[*netguard.AddressError](err); ok {
		return fmt.Sprintf("and it resolves to an address that cannot be checked (%s).", addrErr.Reason)
	}
	return "and nothing answered over it."
}

// fetch GETs url through the SSRF-safe client and returns up to limit
// bytes of a 200 answer.
func (v *Verifier) fetch(ctx context.Context, url string, limit int64) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", &statusError{resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	return string(body), err
}

// statusError is an answer other than 200.
type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("answered %d", e.code) }
