// Package certs serves HTTPS by itself (issue 25, SQUARELY_TLS): with
// certificates an ACME CA issues on demand (autocert), kept in the
// database so every instance shares them, or from PEM files.
package certs

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/store"
)

// Cache keeps autocert's certificates and account key in the database.
type Cache struct{ Store *store.Store }

func (c Cache) Get(ctx context.Context, key string) ([]byte, error) {
	data, err := c.Store.CertCacheGet(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, autocert.ErrCacheMiss
	}
	return data, err
}

func (c Cache) Put(ctx context.Context, key string, data []byte) error {
	return c.Store.CertCachePut(ctx, key, data, time.Now())
}

func (c Cache) Delete(ctx context.Context, key string) error {
	return c.Store.CertCacheDelete(ctx, key)
}

// ErrNotServed is HostPolicy's refusal of a host Squarely does not serve.
var ErrNotServed = errors.New("is not a host Squarely serves")

// HostPolicy allows the hosts Squarely serves, and only them, so that no
// other name a client sends (SNI) makes it ask the CA for a certificate:
// the base URL's host, the active white-label clients' domains and
// subdomains, and the workspaces' verified domains (a pending one is not
// served yet).
func HostPolicy(st *store.Store, baseURL string) autocert.HostPolicy {
	base := baseHost(baseURL)
	return func(ctx context.Context, host string) error {
		host = strings.ToLower(host)
		if host == base {
			return nil
		}
		_, err := st.ActiveClientByHost(ctx, host, base)
		if errors.Is(err, store.ErrNotFound) {
			_, err = st.VerifiedDomain(ctx, host)
		}
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("certs: %q %w", host, ErrNotServed)
		}
		return err
	}
}

func baseHost(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Options are what NewManager needs beyond the settings.
type Options struct {
	// HTTPClient talks to the CA; nil = http.DefaultClient. Tests trust
	// their CA's own root through it.
	HTTPClient *http.Client
}

// NewManager returns the autocert manager of SQUARELY_TLS=acme.
func NewManager(cfg config.Config, st *store.Store, opt Options) *autocert.Manager {
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      Cache{st},
		HostPolicy: HostPolicy(st, cfg.BaseURL),
		Email:      cfg.ACMEEmail,
		Client:     &acme.Client{DirectoryURL: cfg.ACMEDirectory, HTTPClient: opt.HTTPClient},
	}
	return m
}

// TLSConfig is the HTTPS listener's configuration: from the ACME manager
// (TLS-ALPN-01 answered on it) or from the PEM files, read at start.
func TLSConfig(cfg config.Config, m *autocert.Manager) (*tls.Config, error) {
	if m != nil {
		c := m.TLSConfig()
		c.MinVersion = tls.VersionTLS12
		return c, nil
	}
	pair, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("SQUARELY_TLS_CERT and SQUARELY_TLS_KEY: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12, NextProtos: []string{"h2", "http/1.1"}}, nil
}

// HTTPHandler answers the plain HTTP listener: ACME HTTP-01 challenges
// (with a manager), the pointing check of custom domains (by app, which
// is fetched over plain HTTP before a domain has a certificate), and a
// permanent redirect to https, on port, for everything else.
func HTTPHandler(port string, m *autocert.Manager, app http.Handler) http.Handler {
	redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, domains.ReachPath) && r.Method == http.MethodGet {
			app.ServeHTTP(w, r)
			return
		}
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if port != "443" {
			host = net.JoinHostPort(host, port)
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusMovedPermanently)
	})
	if m == nil {
		return redirect
	}
	return m.HTTPHandler(redirect)
}
