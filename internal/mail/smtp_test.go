package mail_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
)

func newMailer(t *testing.T, srv *mailtest.Server, o mail.SMTPOptions) *mail.SMTPMailer {
	t.Helper()
	if o.URL == nil {
		o.URL = srv.URL()
	}
	o.From = "Squarely <hello@squarely.test>"
	o.TLSConfig = srv.ClientTLS
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	m, err := mail.NewSMTP(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSMTPDeliversTextAndHTMLWithHeaders(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{})
	m := newMailer(t, srv, mail.SMTPOptions{})
	msg, err := mail.Render("ann@example.com", "trial_password", mail.Data{BaseURL: "https://sq.example", Fields: map[string]any{"Link": "https://sq.example/set-password?token=t0k"}})
	if err != nil {
		t.Fatal(err)
	}
	msg.Headers = map[string]string{"List-Unsubscribe": "<https://sq.example/unsubscribe?token=u1>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server received %d messages", len(got))
	}
	r := got[0]
	if r.From != "hello@squarely.test" || len(r.To) != 1 || r.To[0] != "ann@example.com" {
		t.Errorf("envelope from %q to %q", r.From, r.To)
	}
	h := r.Header
	for name, want := range map[string]string{
		"From":                  `"Squarely" <hello@squarely.test>`,
		"To":                    "<ann@example.com>",
		"Subject":               msg.Subject,
		"List-Unsubscribe":      "<https://sq.example/unsubscribe?token=u1>",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	} {
		if h.Get(name) != want {
			t.Errorf("%s = %q, want %q", name, h.Get(name), want)
		}
	}
	if h.Get("Message-Id") == "" || h.Get("Date") == "" {
		t.Errorf("Message-Id %q, Date %q", h.Get("Message-Id"), h.Get("Date"))
	}
	if !strings.HasPrefix(h.Get("Content-Type"), "multipart/alternative") {
		t.Errorf("Content-Type = %q", h.Get("Content-Type"))
	}
	if !strings.Contains(r.Text, "https://sq.example/set-password?token=t0k") || strings.Contains(r.Text, "<") {
		t.Errorf("text part: %q", r.Text)
	}
	if !strings.Contains(r.HTML, `href="https://sq.example/set-password?token=t0k"`) && !strings.Contains(r.HTML, "https://sq.example/set-password?token=t0k") {
		t.Errorf("html part: %q", r.HTML)
	}
}

// Attachments go as base64 parts of a multipart/mixed message, after the
// text and HTML, and arrive byte for byte with their names and types.
func TestSMTPDeliversAttachmentsIntact(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{})
	m := newMailer(t, srv, mail.SMTPOptions{})
	pdf := []byte("%PDF-1.7\n\x00\xff\xfe binary \r\n stream\n%%EOF")
	csv := []byte("by,scans\r\n\"Café, Zürich\",3\r\n")
	err := m.Send(context.Background(), mail.Message{To: "ann@example.com", Subject: "Report", Text: "See the files.", HTML: "<p>See the files.</p>",
		Attachments: []mail.Attachment{
			{Name: "scan-report.pdf", ContentType: "application/pdf", Data: pdf},
			{Name: "scans.csv", ContentType: "text/csv", Data: csv},
		}})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server received %d messages", len(got))
	}
	r := got[0]
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "multipart/mixed") {
		t.Errorf("Content-Type = %q", ct)
	}
	if r.Text != "See the files." || !strings.Contains(r.HTML, "<p>See the files.</p>") {
		t.Errorf("text %q, html %q", r.Text, r.HTML)
	}
	if len(r.Files) != 2 {
		t.Fatalf("%d files: %+v", len(r.Files), r.Files)
	}
	for i, want := range []mailtest.File{
		{Name: "scan-report.pdf", ContentType: "application/pdf", Encoding: "base64", Data: pdf},
		{Name: "scans.csv", ContentType: "text/csv", Encoding: "base64", Data: csv},
	} {
		f := r.Files[i]
		if f.Name != want.Name || f.ContentType != want.ContentType || !strings.EqualFold(f.Encoding, want.Encoding) || string(f.Data) != string(want.Data) {
			t.Errorf("file %d = %q %q %q %q, want %q %q %q %q", i, f.Name, f.ContentType, f.Encoding, f.Data, want.Name, want.ContentType, want.Encoding, want.Data)
		}
	}
}

func TestSMTPRetriesATemporaryRefusal(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{Refuse: func(_ string, attempt int) *smtp.SMTPError {
		if attempt <= 2 {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
		}
		return nil
	}})
	m := newMailer(t, srv, mail.SMTPOptions{})
	if err := m.Send(context.Background(), mail.Message{To: "bo@example.com", Subject: "Hi", Text: "Hello"}); err != nil {
		t.Fatal(err)
	}
	if n := srv.Attempts("bo@example.com"); n != 3 {
		t.Errorf("attempts = %d, want 3", n)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("received %d messages, want 1", n)
	}
}

func TestSMTPGivesUpAfterItsAttempts(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{Refuse: func(string, int) *smtp.SMTPError {
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 5}, Message: "Busy"}
	}})
	m := newMailer(t, srv, mail.SMTPOptions{Attempts: 3})
	err := m.Send(context.Background(), mail.Message{To: "cy@example.com", Subject: "Hi", Text: "Hello"})
	if err == nil || errors.Is(err, mail.ErrRejected) {
		t.Fatalf("err = %v, want a temporary failure", err)
	}
	if n := srv.Attempts("cy@example.com"); n != 3 {
		t.Errorf("attempts = %d, want 3", n)
	}
}

func TestSMTPDoesNotRetryAPermanentRefusal(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{Refuse: func(string, int) *smtp.SMTPError {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	}})
	m := newMailer(t, srv, mail.SMTPOptions{})
	err := m.Send(context.Background(), mail.Message{To: "gone@example.com", Subject: "Hi", Text: "Hello"})
	if !errors.Is(err, mail.ErrRejected) {
		t.Fatalf("err = %v, want ErrRejected", err)
	}
	if n := srv.Attempts("gone@example.com"); n != 1 {
		t.Errorf("attempts = %d, want 1", n)
	}
}

func TestSMTPKeepsToItsRate(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{})
	m := newMailer(t, srv, mail.SMTPOptions{Rate: 20}) // one every 50ms
	start := time.Now()
	for range 6 {
		if err := m.Send(context.Background(), mail.Message{To: "dee@example.com", Subject: "Hi", Text: "Hello"}); err != nil {
			t.Fatal(err)
		}
	}
	if elapsed := time.Since(start); elapsed < 250*time.Millisecond {
		t.Errorf("6 messages at 20/s took %v, want at least 250ms", elapsed)
	}
	if n := len(srv.Messages()); n != 6 {
		t.Errorf("received %d messages", n)
	}
}

func TestSMTPUsesSTARTTLSAndAuth(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{STARTTLS: true, Username: "squarely", Password: "p@ss word"})
	m := newMailer(t, srv, mail.SMTPOptions{})
	if err := m.Send(context.Background(), mail.Message{To: "eve@example.com", Subject: "Hi", Text: "Hello", HTML: "<p>Hello</p>"}); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 || !got[0].TLS || got[0].User != "squarely" {
		t.Fatalf("received %+v", got)
	}

	// A wrong password is a permanent refusal (535), not retried forever.
	u := srv.URL()
	u.User = url.UserPassword("squarely", "wrong")
	bad := newMailer(t, srv, mail.SMTPOptions{URL: u})
	if err := bad.Send(context.Background(), mail.Message{To: "eve@example.com", Subject: "Hi", Text: "Hello"}); !errors.Is(err, mail.ErrRejected) {
		t.Fatalf("wrong password: err = %v, want ErrRejected", err)
	}
}

func TestSMTPStopsWithItsContext(t *testing.T) {
	srv := mailtest.Start(t, mailtest.Options{Refuse: func(string, int) *smtp.SMTPError {
		return &smtp.SMTPError{Code: 451, Message: "Later"}
	}})
	m := newMailer(t, srv, mail.SMTPOptions{Backoff: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := m.Send(ctx, mail.Message{To: "fay@example.com", Subject: "Hi", Text: "Hello"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("Send outlived its context")
	}
}
