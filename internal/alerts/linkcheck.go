package alerts

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/netguard"
)

// Checker checks destination URLs politely: one request at a time per
// host, at most Concurrency hosts at once, each URL once per Check, HEAD
// first and GET when HEAD does not say the page is there (servers that
// refuse or mishandle HEAD: 405, 501, or a 404 for HEAD alone).
type Checker struct {
	Policy      netguard.Policy // what addresses may be reached
	Timeout     time.Duration   // per request; 0 = 10 seconds
	Concurrency int             // hosts checked at once; 0 = 8
	UserAgent   string          // "" = "Squarely link check"
}

// Result is what a check found of one URL.
type Result struct {
	// Skipped: not checked, as its address may not be reached (netguard) or
	// it is not an http(s) URL: neither up nor down.
	Skipped bool
	Failed  bool
	Reason  string // why it failed or was skipped, e.g. "HTTP 404"
}

// failingStatus reports whether an answer means the page is gone or the
// server broken. 401, 403, 405 and 429 are answers of a live server that
// does not let the checker in, so they are not failures.
func failingStatus(code int) bool {
	return code == http.StatusNotFound || code == http.StatusGone || code >= 500
}

// Check checks each of urls once and returns the results by URL.
func (c *Checker) Check(ctx context.Context, urls []string) map[string]Result {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	workers := c.Concurrency
	if workers <= 0 {
		workers = 8
	}
	client := c.Policy.Client(timeout)
	defer client.CloseIdleConnections()

	results := make(map[string]Result, len(urls))
	byHost := map[string][]string{}
	var hosts []string
	for _, raw := range urls {
		if _, seen := results[raw]; seen {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			results[raw] = Result{Skipped: true, Reason: "not an http(s) URL"}
			continue
		}
		results[raw] = Result{}
		host := strings.ToLower(u.Host)
		if byHost[host] == nil {
			hosts = append(hosts, host)
		}
		byHost[host] = append(byHost[host], raw)
	}

	var mu sync.Mutex
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(workers, len(hosts)) {
		wg.Go(func() {
			for host := range next {
				for _, raw := range byHost[host] {
					r := c.probe(ctx, client, raw)
					mu.Lock()
					results[raw] = r
					mu.Unlock()
				}
			}
		})
	}
	for _, h := range hosts {
		next <- h
	}
	close(next)
	wg.Wait()
	return results
}

// probe checks one URL.
func (c *Checker) probe(ctx context.Context, client *http.Client, raw string) Result {
	code, err := c.request(ctx, client, http.MethodHead, raw)
	if err == nil && (code == http.StatusMethodNotAllowed || code == http.StatusNotImplemented || failingStatus(code)) {
		code, err = c.request(ctx, client, http.MethodGet, raw)
	}
	if err != nil {
		return transportResult(err)
	}
	if failingStatus(code) {
		return Result{Failed: true, Reason: fmt.Sprintf("HTTP %d", code)}
	}
	return Result{}
}

// request sends one request and returns the answer's status; the body is
// not read. Redirects are not followed (netguard): a redirect is an answer.
func (c *Checker) request(ctx context.Context, client *http.Client, method, raw string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, raw, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", cmp.Or(c.UserAgent, "Squarely link check"))
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// transportResult names a request's failure.
func transportResult(err error) Result {
	var addr *netguard.AddressError
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &addr):
		return Result{Skipped: true, Reason: addr.Error()}
	case errors.As(err, &dns) && dns.IsNotFound:
		return Result{Failed: true, Reason: "DNS lookup failed: " + dns.Err}
	case errors.As(err, &dns):
		// The resolver itself failed (unreachable, timed out): that says
		// nothing of the destination, and would otherwise mark every code
		// down at once.
		return Result{Skipped: true, Reason: "DNS lookup failed: " + dns.Err}
	case errors.As(err, &verify), errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid), errors.As(err, &record):
		return Result{Failed: true, Reason: "TLS error: " + innermost(err)}
	case errors.As(err, &netErr) && netErr.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return Result{Failed: true, Reason: "timed out"}
	}
	return Result{Failed: true, Reason: "connection failed: " + innermost(err)}
}

// innermost is the message of err's last wrapped error: the cause without
// the URL and operation around it.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}
