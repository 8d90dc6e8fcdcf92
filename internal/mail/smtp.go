package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/textproto"
	"net/url"
	"strconv"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// ErrRejected marks a permanent refusal (an SMTP 5xx reply): sending the
// same message again would fail again, so callers record it and move on.
var ErrRejected = errors.New("mail: message refused permanently")

// SMTPOptions configure an SMTPMailer.
type SMTPOptions struct {
	// URL is smtp://[user:password@]host[:port] (port 587, STARTTLS when
	// the server offers it) or smtps://… (port 465, TLS from the start).
	URL  *url.URL
	From string  // the From address, e.g. "Squarely <hello@example.com>"
	Rate float64 // messages a second at most; 0 = unpaced

	// Attempts is how often a message is tried while the server answers
	// with a temporary refusal (4xx) or cannot be reached; 0 = 4.
	Attempts int
	// Backoff is the wait after the first temporary refusal, doubled after
	// each further one; 0 = 2 seconds.
	Backoff time.Duration

	TLSConfig *tls.Config // nil = the system's roots, for the URL's host
	Timeout   time.Duration
	Logger    *slog.Logger // nil = slog.Default()
}

// SMTPMailer sends messages to an SMTP server, one connection a message,
// no faster than its rate.
type SMTPMailer struct {
	client   *gomail.Client
	from     string
	attempts int
	backoff  time.Duration
	log      *slog.Logger

	pace     time.Duration // time between two sends; 0 = unpaced
	mu       sync.Mutex
	nextSlot time.Time
}

// NewSMTP returns a mailer for the server in o.URL. It does not connect
// until the first Send.
func NewSMTP(o SMTPOptions) (*SMTPMailer, error) {
	if o.URL == nil || (o.URL.Scheme != "smtp" && o.URL.Scheme != "smtps") || o.URL.Hostname() == "" {
		return nil, errors.New("mail: the SMTP URL must be smtp://host[:port] or smtps://host[:port]")
	}
	if o.From == "" {
		return nil, errors.New("mail: a From address is required")
	}
	host := o.URL.Hostname()
	tlsConfig := o.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	opts := []gomail.Option{gomail.WithTLSConfig(tlsConfig), gomail.WithTimeout(or(o.Timeout, 30*time.Second))}
	port := 587
	if o.URL.Scheme == "smtps" {
		port = 465
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if p := o.URL.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("mail: the SMTP URL has an invalid port %q", p)
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if user := o.URL.User; user != nil && user.Username() != "" {
		password, _ := user.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(user.Username()), gomail.WithPassword(password))
	}
	client, err := gomail.NewClient(host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mail: unable to set up the SMTP client: %w", err)
	}
	m := &SMTPMailer{
		client:   client,
		from:     o.From,
		attempts: o.Attempts,
		backoff:  or(o.Backoff, 2*time.Second),
		log:      o.Logger,
	}
	if m.attempts <= 0 {
		m.attempts = 4
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if o.Rate > 0 {
		m.pace = time.Duration(float64(time.Second) / o.Rate)
	}
	return m, nil
}

// Send delivers msg. A temporary refusal is retried with a growing wait;
// a permanent one returns an error wrapping ErrRejected at once.
func (m *SMTPMailer) Send(ctx context.Context, msg Message) error {
	built, err := m.build(msg)
	if err != nil {
		return err
	}
	wait := m.backoff
	for attempt := 1; ; attempt++ {
		if err := m.awaitSlot(ctx); err != nil {
			return err
		}
		err := m.client.DialAndSendWithContext(ctx, built)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("mail: sending to %s stopped: %w", msg.To, ctx.Err())
		}
		if permanent(err) {
			return fmt.Errorf("%w: to %s: %w", ErrRejected, msg.To, err)
		}
		if attempt >= m.attempts {
			return fmt.Errorf("mail: sending to %s failed after %d attempts: %w", msg.To, attempt, err)
		}
		m.log.WarnContext(ctx, "mail refused for now; retrying", "to", msg.To, "attempt", attempt, "wait", wait, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("mail: sending to %s stopped: %w", msg.To, ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// build turns msg into a multipart text+HTML message with its headers and
// attachments.
func (m *SMTPMailer) build(msg Message) (*gomail.Msg, error) {
	out := gomail.NewMsg()
	if err := out.From(m.from); err != nil {
		return nil, fmt.Errorf("mail: invalid From address: %w", err)
	}
	if err := out.To(msg.To); err != nil {
		return nil, fmt.Errorf("%w: invalid recipient %q: %w", ErrRejected, msg.To, err)
	}
	out.Subject(msg.Subject)
	out.SetMessageID()
	out.SetDate()
	for name, value := range msg.Headers {
		out.SetGenHeader(gomail.Header(name), value)
	}
	out.SetBodyString(gomail.TypeTextPlain, msg.Text)
	if msg.HTML != "" {
		out.AddAlternativeString(gomail.TypeTextHTML, msg.HTML)
	}
	for _, a := range msg.Attachments {
		out.AttachReadSeeker(a.Name, bytes.NewReader(a.Data),
			gomail.WithFileContentType(gomail.ContentType(a.ContentType)), gomail.WithFileEncoding(gomail.EncodingB64))
	}
	return out, nil
}

// awaitSlot waits for the next send slot so sends keep to the rate, however
// many goroutines share the mailer.
func (m *SMTPMailer) awaitSlot(ctx context.Context) error {
	if m.pace == 0 {
		return ctx.Err()
	}
	m.mu.Lock()
	now := time.Now()
	slot := m.nextSlot
	if slot.Before(now) {
		slot = now
	}
	m.nextSlot = slot.Add(m.pace)
	m.mu.Unlock()
	if d := slot.Sub(now); d > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return nil
}

// permanent reports whether err is an SMTP 5xx reply. Anything else (a 4xx
// reply, a connection that failed or timed out) may pass on a later attempt.
func permanent(err error) bool {
	var sendErr *gomail.SendError
	if errors.As(err, &sendErr) && sendErr.ErrorCode() != 0 {
		return sendErr.ErrorCode() >= 500
	}
	var reply *textproto.Error // e.g. a refused greeting or AUTH
	if errors.As(err, &reply) {
		return reply.Code >= 500
	}
	return false
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
