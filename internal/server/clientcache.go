package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// Which white-label client a request belongs to is decided by its Host,
// once per request (withClient), from a short-lived cache.

const (
	// clientCacheTTL bounds how long an instance serves a client edited on
	// another instance (this one's own edits clear it at once); the app
	// keeps the config it fetched for 5 minutes anyway (spec 02 §9).
	clientCacheTTL = time.Minute
	// maxCachedHosts bounds the cache when requests come with many
	// made-up Host headers.
	maxCachedHosts = 10_000
	// maxHostLength is the longest DNS name.
	maxHostLength = 253
)

// clientCache maps hosts and ids to clients. A nil client means the
// default site.
type clientCache struct {
	store    *store.Store
	now      func() time.Time
	base     *url.URL // SQUARELY_BASE_URL, which white-label sites take their scheme (and subdomains their host and port) from
	baseHost string   // the base URL's host name, lower case, no port

	hosts cacheMap[string, *store.Client]
	ids   cacheMap[int64, *store.Client]
}

func newClientCache(st *store.Store, baseURL string, now func() time.Time) *clientCache {
	cc := &clientCache{store: st, now: now, base: &url.URL{}}
	if u, err := url.Parse(baseURL); err == nil {
		cc.base, cc.baseHost = u, strings.ToLower(u.Hostname())
	}
	return cc
}

// byHost returns the active client a Host header names (a custom domain,
// or a subdomain of the base URL's host), nil for the default site.
func (cc *clientCache) byHost(ctx context.Context, hostHeader string) (*store.Client, error) {
	host := strings.TrimSuffix(strings.ToLower(hostOnly(hostHeader)), ".")
	if host == "" || host == cc.baseHost || host == "www."+cc.baseHost || len(host) > maxHostLength {
		return nil, nil
	}
	if c, ok := cc.hosts.get(host, cc.now()); ok {
		return c, nil
	}
	c, err := cc.store.ActiveClientByHost(ctx, host, cc.baseHost)
	if errors.Is(err, store.ErrNotFound) {
		c, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	cc.hosts.put(host, c, cc.now())
	return c, nil
}

// byID returns client id, nil when it no longer exists.
func (cc *clientCache) byID(ctx context.Context, id int64) (*store.Client, error) {
	if c, ok := cc.ids.get(id, cc.now()); ok {
		return c, nil
	}
	c, err := cc.store.Client(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		c, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	cc.ids.put(id, c, cc.now())
	return c, nil
}

// cacheMap is one of the host caches' maps (white-label clients here,
// workspace domains in domains.go), bounded and expiring.
type cacheMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]cached[V]
}

type cached[V any] struct {
	value V
	at    time.Time
}

func (cm *cacheMap[K, V]) get(k K, now time.Time) (V, bool) {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	e, ok := cm.m[k]
	if !ok || now.Sub(e.at) >= clientCacheTTL {
		var zero V
		return zero, false
	}
	return e.value, true
}

func (cm *cacheMap[K, V]) put(k K, v V, now time.Time) {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.m == nil || len(cm.m) >= maxCachedHosts {
		cm.m = map[K]cached[V]{}
	}
	cm.m[k] = cached[V]{value: v, at: now}
}

func (cm *cacheMap[K, V]) clear() {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	cm.m = nil
}

// invalidate forgets every client, after an edit.
func (cc *clientCache) invalidate() {
	cc.hosts.clear()
	cc.ids.clear()
}

type whiteLabelKey struct{}

// requestClient is the active client whose host the request came by, or
// nil for the default site.
func requestClient(r *http.Request) *store.Client {
	c, _ := r.Context().Value(whiteLabelKey{}).(*store.Client)
	return c
}

// requestClientID is requestClient's id, the default client's for the
// default site: what new accounts get (register).
func requestClientID(r *http.Request) int64 {
	if c := requestClient(r); c != nil {
		return c.ID
	}
	return store.DefaultClientID
}

// withClient puts the request's client (requestClient) into its context.
func (s *server) withClient(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.clients.byHost(r.Context(), r.Host)
		if err != nil {
			// The default brand is a safe answer while the store is down.
			s.log.ErrorContext(r.Context(), "resolving the white-label client", "err", err)
		}
		if c != nil {
			r = r.WithContext(context.WithValue(r.Context(), whiteLabelKey{}, c))
		}
		next.ServeHTTP(w, r)
	})
}

// shortURL is the URL a dynamic code of client clientID encodes: on the
// client's own host when it has one, so its codes carry its brand.
func (s *server) shortURL(clientID int64, code string) string {
	return s.clientBaseURL(clientID) + "/d/" + code
}

// clientBaseURL is the URL of the client's host: a white-label client's
// site, or SQUARELY_BASE_URL.
func (s *server) clientBaseURL(clientID int64) string {
	if clientID != store.DefaultClientID {
		c, err := s.clients.byID(context.Background(), clientID)
		if err != nil {
			s.log.Error("reading a client for a short URL", "err", err)
		}
		if site := c.SiteURL(s.clients.base); site != "" {
			return site
		}
	}
	return s.cfg.BaseURL
}

// codeClientID is the client a code u creates belongs to: the client of
// the host it is made on, else u's own.
func codeClientID(r *http.Request, u *store.User) int64 {
	if c := requestClient(r); c != nil {
		return c.ID
	}
	return u.ClientID
}
