package config

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Addr:                  ":8080",
		DataDir:               "./data",
		BaseURL:               "http://localhost:8080",
		LoginRateLimit:        10,
		RegisterRateLimit:     30,
		DynamicLimit:          12,
		Signup:                SignupOpen,
		PasswordLogin:         true,
		PublicGenerator:       true,
		WorkspaceRateLimit:    10,
		LoginAccountRateLimit: 30,
		AccountMailRateLimit:  3,
		HashesPerAddress:      2,
		SMTPRate:              10,
		StorageQuotaMB:        500,
		APIRateLimit:          120,
		LogFormat:             "text", TLSAddr: ":443",
		TLSHTTPAddr:       ":80",
		ACMEDirectory:     LetsEncrypt,
		OIDCName:          "Single sign-on",
		LinkCheckInterval: 6 * time.Hour,
		DomainHTTPPort:    "80",
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if c.GoogleEnabled() {
		t.Error("Google enabled without settings")
	}
}

func TestLoadAll(t *testing.T) {
	c, err := Load(env(map[string]string{
		"SQUARELY_ADDR":                     "127.0.0.1:9000",
		"SQUARELY_DATA_DIR":                 "/var/lib/squarely",
		"DATABASE_URL":                      "postgres://u:p@db/squarely",
		"SQUARELY_BASE_URL":                 "https://qr.example.com/",
		"SQUARELY_ADMIN_EMAILS":             " Boss@Example.com, ,ops@example.com ",
		"SQUARELY_GOOGLE_CLIENT_ID":         "id",
		"SQUARELY_GOOGLE_CLIENT_SECRET":     "secret",
		"SQUARELY_LOGIN_RATE_LIMIT":         "5",
		"SQUARELY_REGISTER_RATE_LIMIT":      "7",
		"SQUARELY_TRUST_PROXY":              "true",
		"SQUARELY_DYNAMIC_LIMIT":            "50",
		"SQUARELY_SIGNUP":                   "Invite",
		"SQUARELY_PASSWORD_LOGIN":           "false",
		"SQUARELY_PUBLIC_GENERATOR":         "0",
		"SQUARELY_SIGNUP_DOMAINS":           " Acme.test, acme.example ",
		"SQUARELY_WORKSPACE_RATE_LIMIT":     "4",
		"SQUARELY_LOGIN_ACCOUNT_RATE_LIMIT": "40",
		"SQUARELY_ACCOUNT_MAIL_RATE_LIMIT":  "4",
		"SQUARELY_HASHES_PER_ADDRESS":       "3",
		"SQUARELY_SMTP_URL":                 "smtp://mailer:s3cret@mail.example.com:2525",
		"SQUARELY_MAIL_FROM":                "Squarely <hello@example.com>",
		"SQUARELY_SMTP_RATE":                "2.5",
		"SQUARELY_STORAGE_QUOTA_MB":         "2048",
		"SQUARELY_API_RATE_LIMIT":           "30",
		"SQUARELY_WEBHOOK_ALLOW_HTTP":       "true",
		"SQUARELY_WEBHOOK_ALLOW_PRIVATE":    "1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Addr:                  "127.0.0.1:9000",
		DataDir:               "/var/lib/squarely",
		DatabaseURL:           "postgres://u:p@db/squarely",
		BaseURL:               "https://qr.example.com",
		AdminEmails:           []string{"boss@example.com", "ops@example.com"},
		GoogleClientID:        "id",
		GoogleClientSecret:    "secret",
		LoginRateLimit:        5,
		RegisterRateLimit:     7,
		TrustProxy:            true,
		DynamicLimit:          50,
		Signup:                SignupInvite,
		SignupDomains:         []string{"acme.test", "acme.example"},
		PasswordLogin:         false,
		PublicGenerator:       false,
		WorkspaceRateLimit:    4,
		LoginAccountRateLimit: 40,
		AccountMailRateLimit:  4,
		HashesPerAddress:      3,
		SMTPURL:               &url.URL{Scheme: "smtp", User: url.UserPassword("mailer", "s3cret"), Host: "mail.example.com:2525"},
		MailFrom:              "Squarely <hello@example.com>",
		SMTPRate:              2.5,
		StorageQuotaMB:        2048,
		APIRateLimit:          30,
		LogFormat:             "text", TLSAddr: ":443",
		TLSHTTPAddr:         ":80",
		ACMEDirectory:       LetsEncrypt,
		OIDCName:            "Single sign-on",
		WebhookAllowHTTP:    true,
		WebhookAllowPrivate: true,
		LinkCheckInterval:   6 * time.Hour,
		DomainHTTPPort:      "80",
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if !c.GoogleEnabled() {
		t.Error("Google not enabled")
	}
	if !c.IsAdminEmail("BOSS@example.com") || c.IsAdminEmail("other@example.com") || c.IsAdminEmail("") {
		t.Error("IsAdminEmail wrong")
	}
}

func TestDefaultBaseURLFollowsAddrPort(t *testing.T) {
	c, err := Load(env(map[string]string{"SQUARELY_ADDR": "0.0.0.0:3000"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL != "http://localhost:3000" {
		t.Errorf("BaseURL = %q", c.BaseURL)
	}
}

func TestLoadInvalid(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SQUARELY_LOGIN_RATE_LIMIT": "ten"}, `SQUARELY_LOGIN_RATE_LIMIT: must be a positive whole number, got "ten"`},
		{map[string]string{"SQUARELY_LOGIN_RATE_LIMIT": "0"}, `SQUARELY_LOGIN_RATE_LIMIT: must be a positive whole number, got "0"`},
		{map[string]string{"SQUARELY_REGISTER_RATE_LIMIT": "-3"}, `SQUARELY_REGISTER_RATE_LIMIT: must be a positive whole number, got "-3"`},
		{map[string]string{"SQUARELY_DYNAMIC_LIMIT": "0"}, `SQUARELY_DYNAMIC_LIMIT: must be a positive whole number, got "0"`},
		{map[string]string{"SQUARELY_SIGNUP": "private"}, `SQUARELY_SIGNUP: must be open, invite or closed, got "private"`},
		{map[string]string{"SQUARELY_SIGNUP_DOMAINS": "example.com, @acme.test"}, `SQUARELY_SIGNUP_DOMAINS: must be comma-separated e-mail domains such as example.com, got "@acme.test"`},
		{map[string]string{"SQUARELY_DYNAMIC_LIMIT": "twelve"}, `SQUARELY_DYNAMIC_LIMIT: must be a positive whole number, got "twelve"`},
		{map[string]string{"SQUARELY_STORAGE_QUOTA_MB": "-1"}, `SQUARELY_STORAGE_QUOTA_MB: must be a positive whole number, got "-1"`},
		{map[string]string{"SQUARELY_API_RATE_LIMIT": "-1"}, `SQUARELY_API_RATE_LIMIT: must be a positive whole number, got "-1"`},
		{map[string]string{"SQUARELY_ADDR": "8080"}, `SQUARELY_ADDR: must be host:port or :port, got "8080"`},
		{map[string]string{"SQUARELY_ADDR": ":http"}, `SQUARELY_ADDR: must be host:port or :port, got ":http"`},
		{map[string]string{"SQUARELY_ADDR": ":70000"}, `SQUARELY_ADDR: must be host:port or :port, got ":70000"`},
		{map[string]string{"DATABASE_URL": "mysql://root:hunter2@db/x"}, `DATABASE_URL: must be a postgres:// URL (leave it unset for SQLite), got scheme "mysql"`},
		{map[string]string{"SQUARELY_BASE_URL": "qr.example.com"}, `SQUARELY_BASE_URL: must be an absolute http:// or https:// URL, got "qr.example.com"`},
		{map[string]string{"SQUARELY_BASE_URL": "ftp://qr.example.com"}, `SQUARELY_BASE_URL: must be an absolute http:// or https:// URL, got "ftp://qr.example.com"`},
		{map[string]string{"SQUARELY_BASE_URL": "http://:8080"}, `SQUARELY_BASE_URL: must be an absolute http:// or https:// URL, got "http://:8080"`},
		{map[string]string{"SQUARELY_BASE_URL": "http://example.com:99999"}, `SQUARELY_BASE_URL: has an invalid port "99999", got "http://example.com:99999"`},
		{map[string]string{"SQUARELY_STORAGE_QUOTA_MB": "9223372036854775807"}, `SQUARELY_STORAGE_QUOTA_MB: must be at most 16777216 (16 TiB), got 9223372036854775807`},
		{map[string]string{"SQUARELY_DOMAIN_RESOLVER": "9.9.9.9:abc"}, `SQUARELY_DOMAIN_RESOLVER: must be the DNS server's host:port, such as 9.9.9.9:53, got "9.9.9.9:abc"`},
		{map[string]string{"SQUARELY_BASE_URL": "https://qr.example.com/app"}, `SQUARELY_BASE_URL: must not have a path (Squarely is served at the root of its host), got "https://qr.example.com/app"`},
		{map[string]string{"SQUARELY_BASE_URL": "https://qr.example.com/?a=1"}, `SQUARELY_BASE_URL: must not contain credentials, a query or a fragment, got "https://qr.example.com/?a=1"`},
		{map[string]string{"SQUARELY_ADMIN_EMAILS": "a@example.com;b@example.com"}, `SQUARELY_ADMIN_EMAILS: must be comma-separated e-mail addresses, got "a@example.com;b@example.com"`},
		{map[string]string{"SQUARELY_ADMIN_EMAILS": "admin"}, `SQUARELY_ADMIN_EMAILS: must be comma-separated e-mail addresses, got "admin"`},
		{map[string]string{"SQUARELY_GOOGLE_CLIENT_ID": "id"}, `SQUARELY_GOOGLE_CLIENT_SECRET: must be set when SQUARELY_GOOGLE_CLIENT_ID is set`},
		{map[string]string{"SQUARELY_GOOGLE_CLIENT_SECRET": "s"}, `SQUARELY_GOOGLE_CLIENT_ID: must be set when SQUARELY_GOOGLE_CLIENT_SECRET is set`},
		{map[string]string{"SQUARELY_TRUST_PROXY": "yes"}, `SQUARELY_TRUST_PROXY: must be true or false, got "yes"`},
		{map[string]string{"SQUARELY_WEBHOOK_ALLOW_PRIVATE": "on"}, `SQUARELY_WEBHOOK_ALLOW_PRIVATE: must be true or false, got "on"`},
		{map[string]string{"SQUARELY_SMTP_URL": "http://u:hunter2@mail.example.com", "SQUARELY_MAIL_FROM": "a@example.com"}, `SQUARELY_SMTP_URL: must start with smtp:// or smtps://, got scheme "http"`},
		{map[string]string{"SQUARELY_SMTP_URL": "smtp://u:hunter2@:25", "SQUARELY_MAIL_FROM": "a@example.com"}, `SQUARELY_SMTP_URL: must name the mail server's host, e.g. smtp://mail.example.com:587`},
		{map[string]string{"SQUARELY_SMTP_URL": "smtp://u:hunter2@mail.example.com:99999", "SQUARELY_MAIL_FROM": "a@example.com"}, `SQUARELY_SMTP_URL: has an invalid port "99999"`},
		{map[string]string{"SQUARELY_SMTP_URL": "smtp://u:hunter2@mail.example.com/x?y", "SQUARELY_MAIL_FROM": "a@example.com"}, `SQUARELY_SMTP_URL: must not have a path, a query or a fragment`},
		{map[string]string{"SQUARELY_SMTP_URL": "smtp://u:hunter2%zz@mail.example.com", "SQUARELY_MAIL_FROM": "a@example.com"}, `SQUARELY_SMTP_URL: must be a URL such as smtp://user:password@mail.example.com:587`},
		{map[string]string{"SQUARELY_SMTP_URL": "smtps://u:hunter2@mail.example.com"}, `SQUARELY_MAIL_FROM: must be set when SQUARELY_SMTP_URL is set`},
		{map[string]string{"SQUARELY_MAIL_FROM": "squarely"}, `SQUARELY_MAIL_FROM: must be an e-mail address such as "Squarely <hello@example.com>", got "squarely"`},
		{map[string]string{"SQUARELY_SMTP_RATE": "0"}, `SQUARELY_SMTP_RATE: must be a number of messages a second above 0 and at most 10000, got "0"`},
		{map[string]string{"SQUARELY_SMTP_RATE": "NaN"}, `SQUARELY_SMTP_RATE: must be a number of messages a second above 0 and at most 10000, got "NaN"`},
	} {
		_, err := Load(env(tc.env))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: got error %v\nwant %s", tc.env, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("error repeats a password: %v", err)
		}
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	_, err := Load(env(map[string]string{
		"SQUARELY_LOGIN_RATE_LIMIT":    "ten",
		"SQUARELY_REGISTER_RATE_LIMIT": "many",
	}))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "SQUARELY_LOGIN_RATE_LIMIT:") || !strings.HasPrefix(lines[1], "SQUARELY_REGISTER_RATE_LIMIT:") {
		t.Errorf("got %q", err)
	}
}

func TestLoadStripe(t *testing.T) {
	c, err := Load(env(map[string]string{
		"SQUARELY_STRIPE_SECRET_KEY":       "sk_test_1",
		"SQUARELY_STRIPE_PUBLISHABLE_KEY":  "pk_test_1",
		"SQUARELY_STRIPE_PRICING_TABLE_ID": "prctbl_1",
		"SQUARELY_STRIPE_PRICE_ID":         "price_1Premium",
		"SQUARELY_STRIPE_WEBHOOK_SECRET":   "whsec_1",
		"SQUARELY_STRIPE_API_URL":          "http://127.0.0.1:12111/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.PaymentsEnabled() || c.StripeAPIURL != "http://127.0.0.1:12111" || c.StripePricingTableID != "prctbl_1" || c.StripePriceID != "price_1Premium" || c.StripeWebhookSecret != "whsec_1" {
		t.Errorf("got %+v", c)
	}
	for name, m := range map[string]map[string]string{
		"SQUARELY_STRIPE_PUBLISHABLE_KEY": {"SQUARELY_STRIPE_SECRET_KEY": "sk_test_1"},
		"SQUARELY_STRIPE_API_URL":         {"SQUARELY_STRIPE_API_URL": "localhost:12111"},
		"SQUARELY_STRIPE_PRICE_ID":        {"SQUARELY_STRIPE_PRICE_ID": "prod_123"},
	} {
		if _, err := Load(env(m)); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: err = %v, want one naming %s", m, err, name)
		}
	}
}

// Operations (issue 25).
func TestLoadOperations(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.LogFormat != "text" || c.LogLevel != slog.LevelInfo {
		t.Errorf("defaults: %+v, %v", c, err)
	}
	c, err = Load(env(map[string]string{"SQUARELY_LOG_FORMAT": "JSON", "SQUARELY_LOG_LEVEL": "debug"}))
	if err != nil || c.LogFormat != "json" || c.LogLevel != slog.LevelDebug {
		t.Errorf("json, debug: %+v, %v", c, err)
	}
	if c.MetricsEnabled() || c.ScanRetentionDays != 0 {
		t.Error("metrics on or scans deleted by default")
	}
	c, err = Load(env(map[string]string{"SQUARELY_TLS": "acme", "SQUARELY_BASE_URL": "https://qr.example.com",
		"SQUARELY_ACME_EMAIL": "ops@example.com", "SQUARELY_TLS_ADDR": "127.0.0.1:8443"}))
	if err != nil || c.TLS != "acme" || c.TLSAddr != "127.0.0.1:8443" || c.TLSHTTPAddr != ":80" || c.ACMEDirectory != LetsEncrypt {
		t.Errorf("acme: %+v, %v", c, err)
	}
	_, err = Load(env(map[string]string{"SQUARELY_TLS": "acme", "SQUARELY_BASE_URL": "https://qr.example.com",
		"SQUARELY_ACME_DIRECTORY": "http://ca.example/dir", "SQUARELY_ACME_EMAIL": "ops", "SQUARELY_TLS_HTTP_ADDR": "80"}))
	for _, name := range []string{"SQUARELY_ACME_DIRECTORY:", "SQUARELY_ACME_EMAIL:", "SQUARELY_TLS_HTTP_ADDR:"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("acme settings: %v lacks %s", err, name)
		}
	}
	if c, err := Load(env(map[string]string{"SQUARELY_SCAN_RETENTION_DAYS": "400"})); err != nil || c.ScanRetentionDays != 400 {
		t.Errorf("retention: %+v, %v", c, err)
	}
	if c, err := Load(env(nil)); err != nil || c.LinkCheckInterval != 6*time.Hour || c.WebhookAllowPrivate {
		t.Errorf("alert defaults: %+v, %v", c, err)
	}
	c, err = Load(env(map[string]string{"SQUARELY_LINK_CHECK_INTERVAL": "5s", "SQUARELY_WEBHOOK_ALLOW_PRIVATE": "true"}))
	if err != nil || c.LinkCheckInterval != 5*time.Second || !c.WebhookAllowPrivate {
		t.Errorf("alert settings: %+v, %v", c, err)
	}
	if c, err = Load(env(map[string]string{"SQUARELY_DOMAIN_RESOLVER": "127.0.0.1:5353"})); err != nil || c.DomainResolver != "127.0.0.1:5353" {
		t.Errorf("domain resolver: %+v, %v", c, err)
	}
	if c, err = Load(env(nil)); err != nil || c.DomainHTTPPort != "80" || c.DomainAllowPrivate || c.PublicIPs != nil {
		t.Errorf("domain defaults: %+v, %v", c, err)
	}
	c, err = Load(env(map[string]string{"SQUARELY_DOMAIN_HTTP_PORT": "8080", "SQUARELY_DOMAIN_ALLOW_PRIVATE": "true",
		"SQUARELY_PUBLIC_IPS": " 203.0.113.7, 2001:db8::7 ,::ffff:198.51.100.1"}))
	if err != nil || c.DomainHTTPPort != "8080" || !c.DomainAllowPrivate ||
		fmt.Sprint(c.PublicIPs) != "[203.0.113.7 2001:db8::7 198.51.100.1]" {
		t.Errorf("domain settings: %+v, %v", c, err)
	}
	c, err = Load(env(map[string]string{"SQUARELY_METRICS_ADDR": "127.0.0.1:9100"}))
	if err != nil || c.MetricsAddr != "127.0.0.1:9100" || !c.MetricsEnabled() {
		t.Errorf("metrics address: %+v, %v", c, err)
	}
	for _, tc := range []struct{ name, value, want string }{
		{"SQUARELY_LOG_FORMAT", "xml", `SQUARELY_LOG_FORMAT: must be text or json, got "xml"`},
		{"SQUARELY_LOG_LEVEL", "loud", `SQUARELY_LOG_LEVEL: must be debug, info, warn or error, got "loud"`},
		{"SQUARELY_LOG_LEVEL", "info+2", `SQUARELY_LOG_LEVEL: must be debug, info, warn or error, got "info+2"`},
		{"SQUARELY_METRICS_ADDR", "9100", `SQUARELY_METRICS_ADDR: must be host:port or :port, got "9100"`},
		{"SQUARELY_METRICS_TOKEN", "short", `SQUARELY_METRICS_TOKEN: must be at least 16 characters (e.g. openssl rand -hex 16)`},
		{"SQUARELY_TLS", "yes", `SQUARELY_TLS: must be acme or files (or unset: no HTTPS of its own), got "yes"`},
		{"SQUARELY_TLS", "files", `SQUARELY_TLS_CERT: and SQUARELY_TLS_KEY must both name PEM files when SQUARELY_TLS=files`},
		{"SQUARELY_TLS", "acme", `SQUARELY_BASE_URL: must be an https:// URL when SQUARELY_TLS=acme (its host gets the certificate), got "http://localhost:8080"`},
		{"SQUARELY_SCAN_RETENTION_DAYS", "-1", `SQUARELY_SCAN_RETENTION_DAYS: must be a whole number of days from 0 (keep every scan) to 36500, got "-1"`},
		{"SQUARELY_DOMAIN_RESOLVER", "9.9.9.9", `SQUARELY_DOMAIN_RESOLVER: must be the DNS server's host:port, such as 9.9.9.9:53, got "9.9.9.9"`},
		{"SQUARELY_DOMAIN_RESOLVER", ":53", `SQUARELY_DOMAIN_RESOLVER: must be the DNS server's host:port, such as 9.9.9.9:53, got ":53"`},
		{"SQUARELY_SCAN_RETENTION_DAYS", "a year", `SQUARELY_SCAN_RETENTION_DAYS: must be a whole number of days from 0 (keep every scan) to 36500, got "a year"`},
		{"SQUARELY_LINK_CHECK_INTERVAL", "6", `SQUARELY_LINK_CHECK_INTERVAL: must be a duration from 1s to 720h, such as 6h or 30m, got "6"`},
		{"SQUARELY_LINK_CHECK_INTERVAL", "10ms", `SQUARELY_LINK_CHECK_INTERVAL: must be a duration from 1s to 720h, such as 6h or 30m, got "10ms"`},
		{"SQUARELY_DOMAIN_HTTP_PORT", "0", `SQUARELY_DOMAIN_HTTP_PORT: must be a port number from 1 to 65535, got "0"`},
		{"SQUARELY_DOMAIN_HTTP_PORT", "http", `SQUARELY_DOMAIN_HTTP_PORT: must be a port number from 1 to 65535, got "http"`},
		{"SQUARELY_PUBLIC_IPS", "203.0.113.7,qr.example.com", `SQUARELY_PUBLIC_IPS: must be the public IPv4 and IPv6 addresses domains point at, separated by commas, got "qr.example.com"`},
		{"SQUARELY_PUBLIC_IPS", "0.0.0.0", `SQUARELY_PUBLIC_IPS: must be the public IPv4 and IPv6 addresses domains point at, separated by commas, got "0.0.0.0"`},
		{"SQUARELY_PUBLIC_IPS", "fe80::1%eth0", `SQUARELY_PUBLIC_IPS: must be the public IPv4 and IPv6 addresses domains point at, separated by commas, got "fe80::1%eth0"`},
		{"SQUARELY_WEBHOOK_ALLOW_PRIVATE", "maybe", `SQUARELY_WEBHOOK_ALLOW_PRIVATE: must be true or false, got "maybe"`},
	} {
		if _, err := Load(env(map[string]string{tc.name: tc.value})); err == nil || err.Error() != tc.want {
			t.Errorf("%s=%s: %v, want %s", tc.name, tc.value, err, tc.want)
		}
	}
}

// Every secret setting may be read from the file NAME_FILE names.
func TestLoadSecretFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, value string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(value), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	c, err := Load(env(map[string]string{
		"DATABASE_URL_FILE":                   write("db", "postgres://u:hunter2@db/squarely\n"),
		"SQUARELY_SMTP_URL_FILE":              write("smtp", "smtps://m:hunter2@mail.example.com\n"),
		"SQUARELY_MAIL_FROM":                  "a@example.com",
		"SQUARELY_STRIPE_SECRET_KEY_FILE":     write("sk", "sk_test_file"),
		"SQUARELY_STRIPE_PUBLISHABLE_KEY":     "pk_test_1",
		"SQUARELY_STRIPE_WEBHOOK_SECRET_FILE": write("wh", "whsec_file\r\n"),
		"SQUARELY_GOOGLE_CLIENT_ID":           "id",
		"SQUARELY_GOOGLE_CLIENT_SECRET_FILE":  write("google", "google-secret"),
		"SQUARELY_METRICS_TOKEN_FILE":         write("metrics", "0123456789abcdef0123"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseURL != "postgres://u:hunter2@db/squarely" || c.SMTPURL.Host != "mail.example.com" || c.StripeSecretKey != "sk_test_file" ||
		c.StripeWebhookSecret != "whsec_file" || c.GoogleClientSecret != "google-secret" || c.MetricsToken != "0123456789abcdef0123" {
		t.Errorf("from files: %+v", c)
	}

	for _, name := range secretSettings {
		_, err := Load(env(map[string]string{name: "x", name + "_FILE": write("both", "y")}))
		if want := name + ": is set both directly and by " + name + "_FILE; set one of them"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s twice: %v", name, err)
		}
	}
	_, err = Load(env(map[string]string{"DATABASE_URL_FILE": filepath.Join(dir, "missing")}))
	if err == nil || !strings.HasPrefix(err.Error(), "DATABASE_URL_FILE: cannot read the file: ") {
		t.Errorf("missing file: %v", err)
	}
	// A bad value from a file is reported like one from the environment, without the secret.
	_, err = Load(env(map[string]string{"DATABASE_URL_FILE": write("bad", "mysql://root:hunter2@db/x")}))
	if err == nil || !strings.HasPrefix(err.Error(), `DATABASE_URL: must be a postgres:// URL`) || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("bad value in a file: %v", err)
	}
}

func TestLoadOIDC(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.OIDCEnabled() || c.OIDCName != "Single sign-on" {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Load(env(map[string]string{
		"SQUARELY_OIDC_ISSUER":             "https://id.example.com/realms/acme/",
		"SQUARELY_OIDC_CLIENT_ID":          "squarely",
		"SQUARELY_OIDC_CLIENT_SECRET_FILE": secret,
		"SQUARELY_OIDC_NAME":               "Acme login",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.OIDCEnabled() || c.OIDCIssuer != "https://id.example.com/realms/acme" || c.OIDCClientSecret != "s3cret" || c.OIDCName != "Acme login" {
		t.Errorf("got %+v", c)
	}
	for name, m := range map[string]map[string]string{
		"SQUARELY_OIDC_CLIENT_ID":          {"SQUARELY_OIDC_ISSUER": "https://id.example.com"},
		"SQUARELY_OIDC_ISSUER":             {"SQUARELY_OIDC_ISSUER": "id.example.com", "SQUARELY_OIDC_CLIENT_ID": "x"},
		"SQUARELY_OIDC_CLIENT_SECRET_FILE": {"SQUARELY_OIDC_ISSUER": "https://id.example.com", "SQUARELY_OIDC_CLIENT_ID": "x", "SQUARELY_OIDC_CLIENT_SECRET_FILE": "/nonexistent/secret"},
		"SQUARELY_OIDC_NAME":               {"SQUARELY_OIDC_NAME": strings.Repeat("x", 41)},
	} {
		if _, err := Load(env(m)); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: err = %v, want one naming %s", m, err, name)
		}
	}
	both := map[string]string{"SQUARELY_OIDC_ISSUER": "https://id.example.com", "SQUARELY_OIDC_CLIENT_ID": "x",
		"SQUARELY_OIDC_CLIENT_SECRET": "a", "SQUARELY_OIDC_CLIENT_SECRET_FILE": secret}
	if _, err := Load(env(both)); err == nil || !strings.Contains(err.Error(), "is set both directly and by SQUARELY_OIDC_CLIENT_SECRET_FILE") {
		t.Errorf("secret and file: err = %v", err)
	}
	if _, err := Load(env(map[string]string{"SQUARELY_OIDC_CLIENT_ID": "x"})); err == nil || !strings.Contains(err.Error(), "SQUARELY_OIDC_ISSUER") {
		t.Errorf("client id without issuer: err = %v", err)
	}
}
