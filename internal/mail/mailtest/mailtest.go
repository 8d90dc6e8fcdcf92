// Package mailtest runs a real SMTP server (emersion/go-smtp) inside a
// test, so mail is checked as a mail server receives it: envelope,
// headers and both MIME parts.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options shape the server.
type Options struct {
	// STARTTLS offers STARTTLS with a certificate made for the test;
	// Server.ClientTLS trusts it.
	STARTTLS bool
	// Username and Password, when set, are the only account AUTH PLAIN
	// accepts, and the server then refuses mail without it.
	Username, Password string
	// Refuse, when set, is asked at the end of DATA for each delivery
	// attempt (attempt counts from 1 per recipient); a non-nil reply
	// (e.g. &smtp.SMTPError{Code: 451}) refuses the message.
	Refuse func(to string, attempt int) *smtp.SMTPError
}

// Received is one accepted message.
type Received struct {
	From   string // envelope sender
	To     []string
	Raw    []byte
	Header mail.Header
	Text   string // the text/plain part
	HTML   string // the text/html part
	Files  []File // the attachments, decoded
	TLS    bool   // delivered over TLS
	User   string // the authenticated user, if any
}

// File is an attachment as received.
type File struct {
	Name        string // Content-Disposition's filename
	ContentType string // the media type, without parameters
	Encoding    string // Content-Transfer-Encoding
	Data        []byte // decoded
}

// Server is a running SMTP server.
type Server struct {
	Addr      string
	ClientTLS *tls.Config // trusts the server's certificate (with STARTTLS)

	opts     Options
	mu       sync.Mutex
	received []Received
	attempts map[string]int
	authUser string
}

// Start runs a server on a loopback port until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts, attempts: map[string]int{}}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 1 << 20
	if opts.STARTTLS {
		cert, pool := selfSigned(t)
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		s.ClientTLS = &tls.Config{RootCAs: pool, ServerName: "localhost"}
	} else {
		srv.AllowInsecureAuth = true
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL is the server's smtp:// URL, with the account if one is set.
func (s *Server) URL() *url.URL {
	u := &url.URL{Scheme: "smtp", Host: s.Addr}
	if s.opts.Username != "" {
		u.User = url.UserPassword(s.opts.Username, s.opts.Password)
	}
	return u
}

// Messages returns every accepted message so far, in arrival order.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Attempts returns how many times DATA was tried for to.
func (s *Server) Attempts(to string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts[to]
}

type session struct {
	server *Server
	conn   *smtp.Conn
	user   string
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if s.server.opts.Username == "" || username != s.server.opts.Username || password != s.server.opts.Password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Invalid credentials"}
		}
		s.user = username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.server.opts.Username != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.server.mu.Lock()
	defer s.server.mu.Unlock()
	for _, to := range s.to {
		s.server.attempts[to]++
		if s.server.opts.Refuse != nil {
			if reply := s.server.opts.Refuse(to, s.server.attempts[to]); reply != nil {
				return reply
			}
		}
	}
	m := Received{From: s.from, To: s.to, Raw: raw, User: s.user}
	_, m.TLS = s.conn.TLSConnectionState()
	if parsed, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		m.Header = parsed.Header
		m.Text, m.HTML, m.Files = parts(parsed)
	}
	s.server.received = append(s.server.received, m)
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// parts returns the decoded text/plain and text/html parts of m, looking
// into nested multiparts (an attachment's multipart/mixed holds the
// multipart/alternative), and the attached files.
func parts(m *mail.Message) (text, html string, files []File) {
	var walk func(contentType, encoding string, body io.Reader, disposition string)
	walk = func(contentType, encoding string, body io.Reader, disposition string) {
		mediaType, params, err := mime.ParseMediaType(contentType)
		if err != nil {
			return
		}
		if strings.HasPrefix(mediaType, "multipart/") {
			mr := multipart.NewReader(body, params["boundary"])
			for {
				p, err := mr.NextRawPart()
				if err != nil {
					return
				}
				walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, p.Header.Get("Content-Disposition"))
			}
		}
		data, _ := io.ReadAll(decode(encoding, body))
		if d, dp, err := mime.ParseMediaType(disposition); err == nil && d == "attachment" {
			files = append(files, File{Name: dp["filename"], ContentType: mediaType, Encoding: encoding, Data: data})
			return
		}
		switch mediaType {
		case "text/plain":
			text = string(data)
		case "text/html":
			html = string(data)
		}
	}
	walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body, "")
	return text, html, files
}

func decode(encoding string, r io.Reader) io.Reader {
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, r)
	}
	return r
}

// selfSigned makes a certificate for localhost and a pool that trusts it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
