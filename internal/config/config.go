// Package config reads Squarely's settings from environment variables,
// fills in working defaults and rejects invalid values with a message that
// names the variable, so a bad deployment stops at start rather than later.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// stripePriceID is the shape of a Stripe price id.
var stripePriceID = regexp.MustCompile(`^price_[A-Za-z0-9]{1,200}$`)

// Config holds every setting of the server and the command-line tools.
type Config struct {
	Addr               string   // SQUARELY_ADDR: listen address
	DataDir            string   // SQUARELY_DATA_DIR: holds the SQLite file
	DatabaseURL        string   // DATABASE_URL: "" = SQLite in DataDir, postgres://… = PostgreSQL
	BaseURL            string   // SQUARELY_BASE_URL: public URL, no trailing slash
	AdminEmails        []string // SQUARELY_ADMIN_EMAILS: lower-cased
	GoogleClientID     string   // SQUARELY_GOOGLE_CLIENT_ID
	GoogleClientSecret string   // SQUARELY_GOOGLE_CLIENT_SECRET
	LoginRateLimit     int      // SQUARELY_LOGIN_RATE_LIMIT: failed logins per minute per client address and account
	RegisterRateLimit  int      // SQUARELY_REGISTER_RATE_LIMIT: registrations per hour per client address
	TrustProxy         bool     // SQUARELY_TRUST_PROXY: believe X-Forwarded-For / X-Forwarded-Proto
	DynamicLimit       int      // SQUARELY_DYNAMIC_LIMIT: live dynamic codes of an account across the workspaces it owns without an active subscription
	// Signup is SQUARELY_SIGNUP, who may make a new account: SignupOpen
	// (anyone), SignupInvite (an address with a pending invitation) or
	// SignupClosed (nobody: admins make accounts); SignupDomains is
	// SQUARELY_SIGNUP_DOMAINS, the e-mail domains new accounts must be at
	// (empty: any), lower-cased. Issue 33 item 1.
	Signup        string
	SignupDomains []string
	// PasswordLogin is SQUARELY_PASSWORD_LOGIN (default true): false turns
	// password sign-in and registration off, people sign in through
	// Google, OpenID Connect or a passkey (admins in AdminEmails keep a
	// password as break-glass). PublicGenerator is
	// SQUARELY_PUBLIC_GENERATOR (default true): false keeps visitors from
	// generating and downloading codes.
	PasswordLogin   bool
	PublicGenerator bool
	// WorkspaceRateLimit is SQUARELY_WORKSPACE_RATE_LIMIT: team workspaces
	// one account may create per hour (three times as many per client address).
	WorkspaceRateLimit int

	// Accounts (issues 8 and 9).
	LoginAccountRateLimit int // SQUARELY_LOGIN_ACCOUNT_RATE_LIMIT: failed logins per hour per account, from any address
	AccountMailRateLimit  int // SQUARELY_ACCOUNT_MAIL_RATE_LIMIT: account links mailed per hour to one address
	HashesPerAddress      int // SQUARELY_HASHES_PER_ADDRESS: password hashes running at once per client address
	// Mail (issue 9).
	SMTPURL  *url.URL // SQUARELY_SMTP_URL: smtp:// or smtps:// with user and password; nil = mail is logged, not sent
	MailFrom string   // SQUARELY_MAIL_FROM: the From address of every message
	SMTPRate float64  // SQUARELY_SMTP_RATE: messages a second at most
	// Payments (issue 11): all off unless the secret and publishable keys are set.
	StripeSecretKey      string // SQUARELY_STRIPE_SECRET_KEY
	StripePublishableKey string // SQUARELY_STRIPE_PUBLISHABLE_KEY: given to the browser
	StripePricingTableID string // SQUARELY_STRIPE_PRICING_TABLE_ID: the /subscribe page's pricing table
	StripePriceID        string // SQUARELY_STRIPE_PRICE_ID: Premium's monthly price, sold through Checkout when there is no pricing table
	StripeWebhookSecret  string // SQUARELY_STRIPE_WEBHOOK_SECRET: signs POST /api/stripe/webhook
	StripeAPIURL         string // SQUARELY_STRIPE_API_URL: "" = Stripe's; tests point it at stripe-mock
	// Resource bounds (issue 8).
	StorageQuotaMB int // SQUARELY_STORAGE_QUOTA_MB: megabytes of uploaded files a subscribed workspace, or an account across the workspaces it owns without one, may keep
	// Public API (issue 14).
	APIRateLimit int // SQUARELY_API_RATE_LIMIT: /api/v1 requests per minute per API key
	// Public pages (issue 13).
	SupportEmail string // SQUARELY_SUPPORT_EMAIL: where contact-form messages are mailed; "" = stored only
	// Operations (issue 25).
	LogFormat string     // SQUARELY_LOG_FORMAT: text or json
	LogLevel  slog.Level // SQUARELY_LOG_LEVEL: debug, info, warn or error
	// MetricsAddr is SQUARELY_METRICS_ADDR: the Prometheus listener; "" = none.
	MetricsAddr string
	// MetricsToken is SQUARELY_METRICS_TOKEN: with it, the public listener's
	// /metrics answers requests bearing it; "" = no public /metrics.
	MetricsToken string
	// ScanRetentionDays is SQUARELY_SCAN_RETENTION_DAYS: raw scan events
	// older than this many days are deleted (the daily rollups stay); 0 = kept.
	ScanRetentionDays int
	// GeoIPCityDB is SQUARELY_GEOIP_CITY_DB: a MaxMind-format city
	// database (.mmdb) that places scans in regions and cities; "" = by
	// country only.
	GeoIPCityDB string
	// HTTPS served by the binary itself (SQUARELY_TLS): "" = none (a proxy
	// terminates TLS), "acme" = certificates from an ACME CA, "files" =
	// TLSCert and TLSKey.
	TLS           string
	TLSAddr       string // SQUARELY_TLS_ADDR: the HTTPS listener
	TLSHTTPAddr   string // SQUARELY_TLS_HTTP_ADDR: HTTP-01 challenges, else redirects to https
	ACMEDirectory string // SQUARELY_ACME_DIRECTORY: the CA's directory URL
	ACMEEmail     string // SQUARELY_ACME_EMAIL: the CA's contact for the account; "" = none
	TLSCert       string // SQUARELY_TLS_CERT: PEM certificate chain file (files)
	TLSKey        string // SQUARELY_TLS_KEY: PEM private key file (files)
	// Single sign-on with any OpenID Connect provider (issue 27).
	OIDCIssuer       string // SQUARELY_OIDC_ISSUER: the provider's issuer URL; "" = off
	OIDCClientID     string // SQUARELY_OIDC_CLIENT_ID
	OIDCClientSecret string // SQUARELY_OIDC_CLIENT_SECRET, or the file SQUARELY_OIDC_CLIENT_SECRET_FILE names; "" = a public client (PKCE only)
	OIDCName         string // SQUARELY_OIDC_NAME: the sign-in button's label
	// OIDCGroupsClaim (SQUARELY_OIDC_GROUPS_CLAIM) names the ID token's claim
	// with the user's groups, mapped to a role in the workspace that takes in
	// their domain by its single sign-on mapping (issue 33); "" = off.
	OIDCGroupsClaim string
	// Alerts and webhooks (issue 24).
	LinkCheckInterval   time.Duration // SQUARELY_LINK_CHECK_INTERVAL: how often each dynamic code's destinations are checked
	WebhookAllowHTTP    bool          // SQUARELY_WEBHOOK_ALLOW_HTTP: plain http:// endpoints too
	WebhookAllowPrivate bool          // SQUARELY_WEBHOOK_ALLOW_PRIVATE: webhooks and link checks may reach loopback, private and link-local addresses (tests, private deployments)
	// DomainResolver is SQUARELY_DOMAIN_RESOLVER: host:port of the DNS
	// server that workspace domain verification asks (TXT records, and the
	// address of the HTTP token's host); "" = the system's resolver.
	DomainResolver string
	// DomainHTTPPort (SQUARELY_DOMAIN_HTTP_PORT, default 80) is the port a
	// domain's HTTP token and its pointing check are fetched on, and
	// DomainAllowPrivate (SQUARELY_DOMAIN_ALLOW_PRIVATE) lets those fetches
	// reach private addresses: for intranet instances and tests.
	DomainHTTPPort     string
	DomainAllowPrivate bool
	// PublicIPs (SQUARELY_PUBLIC_IPS) are the addresses custom domains'
	// A and AAAA records should hold; none = point them by CNAME alone.
	PublicIPs []netip.Addr
}

// The values of SQUARELY_SIGNUP.
const (
	SignupOpen   = "open"
	SignupInvite = "invite"
	SignupClosed = "closed"
)

// maxStorageQuotaMB bounds SQUARELY_STORAGE_QUOTA_MB: 16 TiB, far above any
// real quota and far below where the quota in bytes would overflow.
const maxStorageQuotaMB = 1 << 24

// LetsEncrypt is the default ACME directory.
const LetsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

// MetricsEnabled reports whether metrics are collected (served on their
// own listener, the public one, or both).
func (c Config) MetricsEnabled() bool { return c.MetricsAddr != "" || c.MetricsToken != "" }

// secretSettings are the settings that may also be read from a file named
// by NAME_FILE (Docker and Kubernetes secrets), so they need not sit in the
// environment.
var secretSettings = []string{
	"DATABASE_URL", "SQUARELY_SMTP_URL", "SQUARELY_STRIPE_SECRET_KEY", "SQUARELY_STRIPE_WEBHOOK_SECRET",
	"SQUARELY_GOOGLE_CLIENT_SECRET", "SQUARELY_METRICS_TOKEN", "SQUARELY_OIDC_CLIENT_SECRET",
}

// OIDCEnabled reports whether OpenID Connect sign-in is configured.
func (c Config) OIDCEnabled() bool { return c.OIDCIssuer != "" }

// GoogleEnabled reports whether Google sign-in is configured.
func (c Config) GoogleEnabled() bool { return c.GoogleClientID != "" }

// PaymentsEnabled reports whether Stripe is configured (both API keys set).
func (c Config) PaymentsEnabled() bool {
	return c.StripeSecretKey != "" && c.StripePublishableKey != ""
}

// IsAdminEmail reports whether email is listed in SQUARELY_ADMIN_EMAILS.
func (c Config) IsAdminEmail(email string) bool {
	return email != "" && slices.Contains(c.AdminEmails, strings.ToLower(strings.TrimSpace(email)))
}

// Load reads the settings through getenv (os.Getenv in production) and
// returns all problems found at once, one line per variable.
func Load(getenv func(string) string) (Config, error) {
	var errs []error
	fail := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}
	// Secrets may come from files instead (NAME_FILE, issue 25).
	fromFiles := map[string]string{}
	for _, name := range secretSettings {
		file := strings.TrimSpace(getenv(name + "_FILE"))
		switch {
		case file == "":
		case strings.TrimSpace(getenv(name)) != "":
			fail(name, "is set both directly and by %s_FILE; set one of them", name)
		default:
			b, err := os.ReadFile(file)
			if err != nil {
				fail(name+"_FILE", "cannot read the file: %v", err)
				continue
			}
			fromFiles[name] = string(b)
		}
	}
	get := func(name string) string {
		if v, ok := fromFiles[name]; ok {
			return strings.TrimSpace(v)
		}
		return strings.TrimSpace(getenv(name))
	}

	c := Config{
		Addr:               or(get("SQUARELY_ADDR"), ":8080"),
		DataDir:            or(get("SQUARELY_DATA_DIR"), "./data"),
		DatabaseURL:        get("DATABASE_URL"),
		GoogleClientID:     get("SQUARELY_GOOGLE_CLIENT_ID"),
		GoogleClientSecret: get("SQUARELY_GOOGLE_CLIENT_SECRET"),
	}

	_, port, _ := net.SplitHostPort(c.Addr)
	if !validAddr(c.Addr) {
		fail("SQUARELY_ADDR", "must be host:port or :port, got %q", c.Addr)
		port = "8080"
	}

	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		// The value may hold a password, so only its scheme is repeated.
		scheme, _, _ := strings.Cut(c.DatabaseURL, ":")
		fail("DATABASE_URL", "must be a postgres:// URL (leave it unset for SQLite), got scheme %q", scheme)
	}

	if raw := get("SQUARELY_BASE_URL"); raw == "" {
		c.BaseURL = "http://localhost:" + port
	} else if base, problem := parseBaseURL(raw); problem != "" {
		fail("SQUARELY_BASE_URL", "%s, got %q", problem, raw)
	} else {
		c.BaseURL = base
	}

	for _, e := range strings.Split(get("SQUARELY_ADMIN_EMAILS"), ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
			fail("SQUARELY_ADMIN_EMAILS", "must be comma-separated e-mail addresses, got %q", e)
			continue
		}
		c.AdminEmails = append(c.AdminEmails, e)
	}

	c.Signup = strings.ToLower(or(get("SQUARELY_SIGNUP"), SignupOpen))
	if !slices.Contains([]string{SignupOpen, SignupInvite, SignupClosed}, c.Signup) {
		fail("SQUARELY_SIGNUP", "must be open, invite or closed, got %q", get("SQUARELY_SIGNUP"))
	}
	for _, d := range strings.Split(get("SQUARELY_SIGNUP_DOMAINS"), ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "" {
			continue
		}
		if strings.ContainsAny(d, "@/: ") || !strings.Contains(d, ".") {
			fail("SQUARELY_SIGNUP_DOMAINS", "must be comma-separated e-mail domains such as example.com, got %q", d)
			continue
		}
		c.SignupDomains = append(c.SignupDomains, d)
	}

	if c.GoogleClientID != "" && c.GoogleClientSecret == "" {
		fail("SQUARELY_GOOGLE_CLIENT_SECRET", "must be set when SQUARELY_GOOGLE_CLIENT_ID is set")
	}
	if c.GoogleClientID == "" && c.GoogleClientSecret != "" {
		fail("SQUARELY_GOOGLE_CLIENT_ID", "must be set when SQUARELY_GOOGLE_CLIENT_SECRET is set")
	}

	positive := func(name string, def int) int {
		raw := get(name)
		if raw == "" {
			return def
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n <= 0 {
			fail(name, "must be a positive whole number, got %q", raw)
		}
		return n
	}
	c.LoginRateLimit = positive("SQUARELY_LOGIN_RATE_LIMIT", 10)
	c.RegisterRateLimit = positive("SQUARELY_REGISTER_RATE_LIMIT", 30)
	c.DynamicLimit = positive("SQUARELY_DYNAMIC_LIMIT", 12) // spec 01 §9
	if c.StorageQuotaMB = positive("SQUARELY_STORAGE_QUOTA_MB", 500); c.StorageQuotaMB > maxStorageQuotaMB {
		fail("SQUARELY_STORAGE_QUOTA_MB", "must be at most %d (16 TiB), got %d", maxStorageQuotaMB, c.StorageQuotaMB)
	}
	c.WorkspaceRateLimit = positive("SQUARELY_WORKSPACE_RATE_LIMIT", 10)

	c.StripeSecretKey = get("SQUARELY_STRIPE_SECRET_KEY")
	c.StripePublishableKey = get("SQUARELY_STRIPE_PUBLISHABLE_KEY")
	c.StripePricingTableID = get("SQUARELY_STRIPE_PRICING_TABLE_ID")
	c.StripeWebhookSecret = get("SQUARELY_STRIPE_WEBHOOK_SECRET")
	// Issue 21: without a pricing table /subscribe sells this price through Stripe Checkout.
	c.StripePriceID = get("SQUARELY_STRIPE_PRICE_ID")
	if c.StripePriceID != "" && !stripePriceID.MatchString(c.StripePriceID) {
		fail("SQUARELY_STRIPE_PRICE_ID", "must be a Stripe price id (price_…), got %q", c.StripePriceID)
	}
	if (c.StripeSecretKey == "") != (c.StripePublishableKey == "") {
		fail("SQUARELY_STRIPE_PUBLISHABLE_KEY", "must be set together with SQUARELY_STRIPE_SECRET_KEY")
	}
	if raw := get("SQUARELY_STRIPE_API_URL"); raw != "" {
		if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fail("SQUARELY_STRIPE_API_URL", "must be an absolute http:// or https:// URL, got %q", raw)
		}
		c.StripeAPIURL = strings.TrimRight(raw, "/")
	}

	// Accounts (issues 8 and 9).
	c.LoginAccountRateLimit = positive("SQUARELY_LOGIN_ACCOUNT_RATE_LIMIT", 30)
	c.AccountMailRateLimit = positive("SQUARELY_ACCOUNT_MAIL_RATE_LIMIT", 3)
	c.HashesPerAddress = positive("SQUARELY_HASHES_PER_ADDRESS", 2)
	c.APIRateLimit = positive("SQUARELY_API_RATE_LIMIT", 120)

	boolean := func(name string, def bool) bool {
		raw := get(name)
		if raw == "" {
			return def
		}
		on, err := strconv.ParseBool(raw)
		if err != nil {
			fail(name, "must be true or false, got %q", raw)
		}
		return on
	}
	c.TrustProxy = boolean("SQUARELY_TRUST_PROXY", false)
	c.PasswordLogin = boolean("SQUARELY_PASSWORD_LOGIN", true)
	c.PublicGenerator = boolean("SQUARELY_PUBLIC_GENERATOR", true)
	// Webhooks (issue 24).
	c.WebhookAllowHTTP = boolean("SQUARELY_WEBHOOK_ALLOW_HTTP", false)
	c.WebhookAllowPrivate = boolean("SQUARELY_WEBHOOK_ALLOW_PRIVATE", false)

	// Mail (issue 9). The SMTP URL holds a password, so no message repeats it.
	if raw := get("SQUARELY_SMTP_URL"); raw != "" {
		if u, problem := parseSMTPURL(raw); problem != "" {
			fail("SQUARELY_SMTP_URL", "%s", problem)
		} else {
			c.SMTPURL = u
		}
	}
	c.MailFrom = get("SQUARELY_MAIL_FROM")
	if c.MailFrom == "" && c.SMTPURL != nil {
		fail("SQUARELY_MAIL_FROM", "must be set when SQUARELY_SMTP_URL is set")
	} else if _, err := mail.ParseAddress(c.MailFrom); c.MailFrom != "" && err != nil {
		fail("SQUARELY_MAIL_FROM", "must be an e-mail address such as \"Squarely <hello@example.com>\", got %q", c.MailFrom)
	}
	c.SMTPRate = 10
	if raw := get("SQUARELY_SMTP_RATE"); raw != "" {
		rate, err := strconv.ParseFloat(raw, 64)
		if err != nil || !(rate > 0 && rate <= 10000) {
			fail("SQUARELY_SMTP_RATE", "must be a number of messages a second above 0 and at most 10000, got %q", raw)
		}
		c.SMTPRate = rate
	}

	// Public pages (issue 13).
	if raw := get("SQUARELY_SUPPORT_EMAIL"); raw != "" {
		if a, err := mail.ParseAddress(raw); err != nil || a.Address != raw {
			fail("SQUARELY_SUPPORT_EMAIL", "must be one e-mail address, got %q", raw)
		}
		c.SupportEmail = raw
	}

	// Operations (issue 25).
	c.LogFormat = strings.ToLower(or(get("SQUARELY_LOG_FORMAT"), "text"))
	if c.LogFormat != "text" && c.LogFormat != "json" {
		fail("SQUARELY_LOG_FORMAT", "must be text or json, got %q", c.LogFormat)
	}
	if raw := get("SQUARELY_LOG_LEVEL"); raw != "" {
		if err := c.LogLevel.UnmarshalText([]byte(raw)); err != nil || !slices.Contains([]string{"debug", "info", "warn", "error"}, strings.ToLower(raw)) {
			fail("SQUARELY_LOG_LEVEL", "must be debug, info, warn or error, got %q", raw)
		}
	}
	if c.MetricsAddr = get("SQUARELY_METRICS_ADDR"); c.MetricsAddr != "" && !validAddr(c.MetricsAddr) {
		fail("SQUARELY_METRICS_ADDR", "must be host:port or :port, got %q", c.MetricsAddr)
	}
	if c.MetricsToken = get("SQUARELY_METRICS_TOKEN"); c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		fail("SQUARELY_METRICS_TOKEN", "must be at least 16 characters (e.g. openssl rand -hex 16)")
	}

	if raw := get("SQUARELY_SCAN_RETENTION_DAYS"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > 36500 {
			fail("SQUARELY_SCAN_RETENTION_DAYS", "must be a whole number of days from 0 (keep every scan) to 36500, got %q", raw)
		}
		c.ScanRetentionDays = n
	}

	c.GeoIPCityDB = get("SQUARELY_GEOIP_CITY_DB")

	c.TLS = strings.ToLower(get("SQUARELY_TLS"))
	c.TLSAddr = or(get("SQUARELY_TLS_ADDR"), ":443")
	c.TLSHTTPAddr = or(get("SQUARELY_TLS_HTTP_ADDR"), ":80")
	c.ACMEDirectory = or(get("SQUARELY_ACME_DIRECTORY"), LetsEncrypt)
	c.ACMEEmail = get("SQUARELY_ACME_EMAIL")
	c.TLSCert, c.TLSKey = get("SQUARELY_TLS_CERT"), get("SQUARELY_TLS_KEY")
	switch c.TLS {
	case "", "acme", "files":
	default:
		fail("SQUARELY_TLS", "must be acme or files (or unset: no HTTPS of its own), got %q", c.TLS)
	}
	if c.TLS != "" {
		for name, addr := range map[string]string{"SQUARELY_TLS_ADDR": c.TLSAddr, "SQUARELY_TLS_HTTP_ADDR": c.TLSHTTPAddr} {
			if !validAddr(addr) {
				fail(name, "must be host:port or :port, got %q", addr)
			}
		}
	}
	if c.TLS == "acme" {
		if u, err := url.Parse(c.ACMEDirectory); err != nil || u.Scheme != "https" || u.Host == "" {
			fail("SQUARELY_ACME_DIRECTORY", "must be an https:// URL, got %q", c.ACMEDirectory)
		}
		if a, err := mail.ParseAddress(c.ACMEEmail); c.ACMEEmail != "" && (err != nil || a.Address != c.ACMEEmail) {
			fail("SQUARELY_ACME_EMAIL", "must be one e-mail address, got %q", c.ACMEEmail)
		}
		if !strings.HasPrefix(c.BaseURL, "https://") {
			fail("SQUARELY_BASE_URL", "must be an https:// URL when SQUARELY_TLS=acme (its host gets the certificate), got %q", c.BaseURL)
		}
	}
	if c.TLS == "files" && (c.TLSCert == "" || c.TLSKey == "") {
		fail("SQUARELY_TLS_CERT", "and SQUARELY_TLS_KEY must both name PEM files when SQUARELY_TLS=files")
	}

	if c.DomainResolver = get("SQUARELY_DOMAIN_RESOLVER"); c.DomainResolver != "" {
		if host, port, err := net.SplitHostPort(c.DomainResolver); err != nil || host == "" || !validPort(port) {
			fail("SQUARELY_DOMAIN_RESOLVER", "must be the DNS server's host:port, such as 9.9.9.9:53, got %q", c.DomainResolver)
		}
	}

	c.DomainHTTPPort = or(get("SQUARELY_DOMAIN_HTTP_PORT"), "80")
	if n, err := strconv.Atoi(c.DomainHTTPPort); err != nil || n < 1 || n > 65535 {
		fail("SQUARELY_DOMAIN_HTTP_PORT", "must be a port number from 1 to 65535, got %q", c.DomainHTTPPort)
	}
	c.DomainAllowPrivate = boolean("SQUARELY_DOMAIN_ALLOW_PRIVATE", false)
	for _, raw := range strings.Split(get("SQUARELY_PUBLIC_IPS"), ",") {
		if raw = strings.TrimSpace(raw); raw == "" {
			continue
		}
		ip, err := netip.ParseAddr(raw)
		if err != nil || ip.Zone() != "" || !ip.IsGlobalUnicast() {
			fail("SQUARELY_PUBLIC_IPS", "must be the public IPv4 and IPv6 addresses domains point at, separated by commas, got %q", raw)
			continue
		}
		c.PublicIPs = append(c.PublicIPs, ip.Unmap())
	}

	// Single sign-on (issue 27); its secret may come from a file like the others (secretSettings).
	c.OIDCIssuer = strings.TrimRight(get("SQUARELY_OIDC_ISSUER"), "/")
	c.OIDCClientID = get("SQUARELY_OIDC_CLIENT_ID")
	c.OIDCClientSecret = get("SQUARELY_OIDC_CLIENT_SECRET")
	c.OIDCName = or(get("SQUARELY_OIDC_NAME"), "Single sign-on")
	c.OIDCGroupsClaim = get("SQUARELY_OIDC_GROUPS_CLAIM")
	if c.OIDCIssuer != "" {
		if u, err := url.Parse(c.OIDCIssuer); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fail("SQUARELY_OIDC_ISSUER", "must be the provider's absolute http:// or https:// issuer URL, got %q", c.OIDCIssuer)
		}
		if c.OIDCClientID == "" {
			fail("SQUARELY_OIDC_CLIENT_ID", "must be set when SQUARELY_OIDC_ISSUER is set")
		}
	} else if c.OIDCClientID != "" || c.OIDCClientSecret != "" {
		fail("SQUARELY_OIDC_ISSUER", "must be set when SQUARELY_OIDC_CLIENT_ID or its secret is set")
	}
	if n := utf8.RuneCountInString(c.OIDCName); n > 40 {
		fail("SQUARELY_OIDC_NAME", "must be at most 40 characters, got %d", n)
	}

	// Alerts (issue 24).
	c.LinkCheckInterval = 6 * time.Hour
	if raw := get("SQUARELY_LINK_CHECK_INTERVAL"); raw != "" {
		d, err := time.ParseDuration(raw)
		if err != nil || d < time.Second || d > 30*24*time.Hour {
			fail("SQUARELY_LINK_CHECK_INTERVAL", "must be a duration from 1s to 720h, such as 6h or 30m, got %q", raw)
		}
		c.LinkCheckInterval = d
	}

	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// parseBaseURL accepts an absolute http(s) URL of the site root and returns
// it without a trailing slash, or a description of what is wrong.
func parseBaseURL(raw string) (string, string) {
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		return "", "must be an absolute http:// or https:// URL"
	case u.Port() != "" && !validPort(u.Port()):
		return "", fmt.Sprintf("has an invalid port %q", u.Port())
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", "must not contain credentials, a query or a fragment"
	case strings.Trim(u.Path, "/") != "":
		return "", "must not have a path (Squarely is served at the root of its host)"
	}
	return u.Scheme + "://" + u.Host, ""
}

// parseSMTPURL accepts smtp://[user:password@]host[:port] or smtps://…
// and returns it, or a description of what is wrong that never repeats
// the password.
func parseSMTPURL(raw string) (*url.URL, string) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "must be a URL such as smtp://user:password@mail.example.com:587"
	}
	switch {
	case u.Scheme != "smtp" && u.Scheme != "smtps":
		return nil, fmt.Sprintf("must start with smtp:// or smtps://, got scheme %q", u.Scheme)
	case u.Hostname() == "":
		return nil, "must name the mail server's host, e.g. smtp://mail.example.com:587"
	case strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "":
		return nil, "must not have a path, a query or a fragment"
	}
	if p := u.Port(); p != "" && !validPort(p) {
		return nil, fmt.Sprintf("has an invalid port %q", p)
	}
	return u, ""
}

// validPort reports whether p is a port number a client can dial: 1–65535.
func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n <= 65535
}

// validAddr reports whether addr is a listen address: host:port or :port
// with a numeric port.
func validAddr(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	return err == nil && perr == nil && n >= 0 && n <= 65535
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
