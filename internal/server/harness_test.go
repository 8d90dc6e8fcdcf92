package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/bulk"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/outbox"
	"github.com/squarely/squarely/internal/store"
)

// clock is a settable time source shared by the server under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// syncBuffer collects log output written from server goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// env is a running server over a real store, with a controllable clock.
type env struct {
	t     *testing.T
	store *store.Store
	srv   *httptest.Server
	clock *clock
	logs  *syncBuffer
	mail  *mailbox
	// outbox sends the mail the server queues (Deps.Outbox).
	outbox *outbox.Sender
	// mailboxed is whether the server mails into mail (no option gave it another Mailer).
	mailboxed bool
}

// mailbox is a Mailer that keeps what it is sent, for tests that follow a
// mailed link.
type mailbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (b *mailbox) Send(_ context.Context, m mail.Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = append(b.sent, m)
	return nil
}

// sentTo waits until at least n messages to to have been sent (some are
// sent after the answer) and returns how many there are.
func (b *mailbox) sentTo(t *testing.T, to string, n int) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		b.mu.Lock()
		got := 0
		for _, m := range b.sent {
			if m.To == to {
				got++
			}
		}
		b.mu.Unlock()
		if got >= n || time.Now().After(deadline) {
			return got
		}
	}
}

// link returns the first match of pattern's group 1 in the text of the
// newest message to to, waiting a while for one (a new account's link is
// mailed after the answer); the test fails without one.
func (b *mailbox) link(t *testing.T, to, pattern string) string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if m, sent := b.newestMatch(to, re); m != nil {
			return m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no mail to %s matches %s (sent: %d)", to, pattern, sent)
			return ""
		}
	}
}

// newestMatch is re's match in the newest message to to that has one, and
// how many messages there are.
func (b *mailbox) newestMatch(to string, re *regexp.Regexp) ([]string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.sent) - 1; i >= 0; i-- {
		if b.sent[i].To != to {
			continue
		}
		if m := re.FindStringSubmatch(b.sent[i].Text); m != nil {
			return m, len(b.sent)
		}
	}
	return nil, len(b.sent)
}

type option func(*Deps)

func withConfig(f func(*config.Config)) option { return func(d *Deps) { f(&d.Config) } }

// testConfig is config.Load's defaults.
func testConfig(t *testing.T) config.Config {
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func start(t *testing.T, st *store.Store, opts ...option) *env {
	return startServer(t, st, httptest.NewServer, opts...)
}

func startServer(t *testing.T, st *store.Store, newServer func(http.Handler) *httptest.Server, opts ...option) *env {
	t.Helper()
	e := &env{t: t, store: st, clock: &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}, logs: &syncBuffer{}, mail: &mailbox{}}
	d := Deps{
		Mailer:       e.mail,
		Store:        st,
		Config:       testConfig(t),
		Logger:       slog.New(slog.NewTextHandler(e.logs, nil)),
		Now:          e.clock.Now,
		PasswordCost: bcrypt.MinCost,
		Web: fstest.MapFS{
			"index.html":         {Data: []byte("<!doctype html><title>app</title>")},
			"favicon.svg":        {Data: []byte("<svg/>")},
			"assets/app-abc1.js": {Data: []byte("console.log(1)")},
			"assets/logo.png":    {Data: []byte("png")},
		},
	}
	for _, o := range opts {
		o(&d)
	}
	e.mailboxed = d.Mailer == mail.Mailer(e.mail)
	// The bulk runner stops before the store closes (cleanups run last first).
	ctx, stop := context.WithCancel(context.Background())
	d.Bulk = bulk.NewRunner(st, d.Logger, d.Now)
	done := make(chan struct{})
	go func() { d.Bulk.Run(ctx); close(done) }()
	if d.Outbox == nil {
		d.Outbox = outbox.New(st, d.Mailer, d.Config.BaseURL, d.Logger)
	}
	e.outbox = d.Outbox
	sent := make(chan struct{})
	go func() { d.Outbox.Run(ctx); close(sent) }()
	t.Cleanup(func() { stop(); <-done; <-sent })
	e.srv = newServer(New(d))
	t.Cleanup(e.srv.Close)
	return e
}

// browser is an HTTP client with its own cookie jar that does not follow
// redirects, so tests see each hop.
func (e *env) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	c := e.srv.Client()
	return &http.Client{
		Transport:     c.Transport,
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// response is a finished response with its body read.
type response struct {
	*http.Response
	body []byte
}

// json decodes the body into a generic map.
func (r *response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", r.body, err)
	}
	return m
}

// cookie returns the Set-Cookie of the session cookie, or nil.
func (r *response) cookie() *http.Cookie {
	for _, c := range r.Cookies() {
		if c.Name == "squarely_session" {
			return c
		}
	}
	return nil
}

// do sends a request; header pairs follow the body.
func (e *env) do(c *http.Client, method, path, body string, header ...string) *response {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return &response{Response: resp, body: b}
}

// expect checks status and, when message is not empty, the JSON message.
func expect(t *testing.T, r *response, status int, message string) map[string]any {
	t.Helper()
	if r.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d; body %s", r.Request.Method, r.Request.URL.Path, r.StatusCode, status, r.body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		if message != "" {
			t.Fatalf("Content-Type %q, want JSON; body %s", ct, r.body)
		}
		return nil
	}
	m := r.json(t)
	if message != "" && m["message"] != message {
		t.Fatalf("message %q, want %q", m["message"], message)
	}
	return m
}

func registerBody(email, password string) string {
	b, _ := json.Marshal(map[string]string{
		"username": email, "email": email, "password": password, "confirmPassword": password,
		"firstName": "", "lastName": "",
	})
	return string(b)
}

func loginBody(username, password string) string {
	b, _ := json.Marshal(map[string]string{"username": username, "password": password})
	return string(b)
}

// register creates an account through the API in browser c.
func (e *env) register(c *http.Client, email, password string) map[string]any {
	e.t.Helper()
	u := expect(e.t, e.do(c, "POST", "/api/register", registerBody(email, password)), http.StatusCreated, "")
	// The verification link is mailed after the answer: once it is in, a
	// test counting mails counts from after it.
	if e.mailboxed {
		e.mail.link(e.t, strings.ToLower(email), verifyLinkPattern)
	}
	return u
}
