// Package config reads Squarely's settings from environment variables,
// fills in working defaults and rejects invalid values with a message that
// names the variable, so a bad deployment stops at start rather than later.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Config holds every setting of the server and the command-line tools.
type Config struct {
	Addr               string   // SQUARELY_ADDR: listen address
	DataDir            string   // SQUARELY_DATA_DIR: holds the SQLite file
	DatabaseURL        string   // DATABASE_URL: "" = SQLite in DataDir, postgres://… = PostgreSQL
	BaseURL            string   // SQUARELY_BASE_URL: public URL, no trailing slash
	AdminEmails        []string // SQUARELY_ADMIN_EMAILS: lower-cased
	GoogleClientID     string   // SQUARELY_GOOGLE_CLIENT_ID
	GoogleClientSecret string   // SQUARELY_GOOGLE_CLIENT_SECRET
	LoginRateLimit     int      // SQUARELY_LOGIN_RATE_LIMIT: failed logins per minute per client address
	RegisterRateLimit  int      // SQUARELY_REGISTER_RATE_LIMIT: registrations per hour per client address
	TrustProxy         bool     // SQUARELY_TRUST_PROXY: believe X-Forwarded-For / X-Forwarded-Proto
	DynamicLimit       int      // SQUARELY_DYNAMIC_LIMIT: live dynamic codes per workspace without an active subscription

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
	StripeWebhookSecret  string // SQUARELY_STRIPE_WEBHOOK_SECRET: signs POST /api/stripe/webhook
	StripeAPIURL         string // SQUARELY_STRIPE_API_URL: "" = Stripe's; tests point it at stripe-mock
	// Resource bounds (issue 8).
	StorageQuotaMB int // SQUARELY_STORAGE_QUOTA_MB: megabytes of uploaded files a workspace may keep
	// Public API (issue 14).
	APIRateLimit int // SQUARELY_API_RATE_LIMIT: /api/v1 requests per minute per API key
	// Public pages (issue 13).
	SupportEmail string // SQUARELY_SUPPORT_EMAIL: where contact-form messages are mailed; "" = stored only
	// Single sign-on with any OpenID Connect provider (issue 27).
	OIDCIssuer       string // SQUARELY_OIDC_ISSUER: the provider's issuer URL; "" = off
	OIDCClientID     string // SQUARELY_OIDC_CLIENT_ID
	OIDCClientSecret string // SQUARELY_OIDC_CLIENT_SECRET, or the file named by SQUARELY_OIDC_CLIENT_SECRET_FILE; "" = a public client (PKCE only)
	OIDCName         string // SQUARELY_OIDC_NAME: the sign-in button's label
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
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var errs []error
	fail := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}

	c := Config{
		Addr:               or(get("SQUARELY_ADDR"), ":8080"),
		DataDir:            or(get("SQUARELY_DATA_DIR"), "./data"),
		DatabaseURL:        get("DATABASE_URL"),
		GoogleClientID:     get("SQUARELY_GOOGLE_CLIENT_ID"),
		GoogleClientSecret: get("SQUARELY_GOOGLE_CLIENT_SECRET"),
	}

	_, port, err := net.SplitHostPort(c.Addr)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
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
	c.StorageQuotaMB = positive("SQUARELY_STORAGE_QUOTA_MB", 500)

	c.StripeSecretKey = get("SQUARELY_STRIPE_SECRET_KEY")
	c.StripePublishableKey = get("SQUARELY_STRIPE_PUBLISHABLE_KEY")
	c.StripePricingTableID = get("SQUARELY_STRIPE_PRICING_TABLE_ID")
	c.StripeWebhookSecret = get("SQUARELY_STRIPE_WEBHOOK_SECRET")
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

	if raw := get("SQUARELY_TRUST_PROXY"); raw != "" {
		c.TrustProxy, err = strconv.ParseBool(raw)
		if err != nil {
			fail("SQUARELY_TRUST_PROXY", "must be true or false, got %q", raw)
		}
	}

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

	// Single sign-on (issue 27). The secret may come from a file (a
	// mounted secret) so it stays out of the environment.
	c.OIDCIssuer = strings.TrimRight(get("SQUARELY_OIDC_ISSUER"), "/")
	c.OIDCClientID = get("SQUARELY_OIDC_CLIENT_ID")
	c.OIDCClientSecret = get("SQUARELY_OIDC_CLIENT_SECRET")
	c.OIDCName = or(get("SQUARELY_OIDC_NAME"), "Single sign-on")
	if file := get("SQUARELY_OIDC_CLIENT_SECRET_FILE"); file != "" {
		if c.OIDCClientSecret != "" {
			fail("SQUARELY_OIDC_CLIENT_SECRET_FILE", "set it or SQUARELY_OIDC_CLIENT_SECRET, not both")
		} else if b, err := os.ReadFile(file); err != nil {
			fail("SQUARELY_OIDC_CLIENT_SECRET_FILE", "%v", err)
		} else {
			c.OIDCClientSecret = strings.TrimSpace(string(b))
		}
	}
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
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return "", "must be an absolute http:// or https:// URL"
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
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Sprintf("has an invalid port %q", p)
		}
	}
	return u, ""
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
