// Package mail sends the product's e-mails. Mailer is what the server
// needs; LogMailer stands in until SMTP is configured. Messages are built
// from the templates in templates/ by Render, so every message has a plain
// text and an HTML part and links on the product's base URL.
package mail

import (
	"context"
	"log/slog"
)

// Message is one e-mail with a plain-text and an optional HTML part, and
// any files attached (the message is then multipart/mixed, each file a
// base64 part).
type Message struct {
	To          string
	Subject     string
	Text        string
	HTML        string            // "" = plain text only
	Headers     map[string]string // extra headers, e.g. List-Unsubscribe
	Attachments []Attachment
}

// Attachment is a file sent with a message.
type Attachment struct {
	Name        string // the file name the recipient sees, e.g. "scan-report.pdf"
	ContentType string // e.g. "application/pdf"
	Data        []byte
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// LogMailer logs each message at Info instead of sending it: for
// development and single-user installs. Bodies may hold one-time links, so
// it logs the recipient and subject only; the link itself never reaches
// the log (DESIGN: tokens never appear in the log).
type LogMailer struct {
	Logger *slog.Logger // nil = slog.Default()
}

// Send logs m's recipient and subject.
func (l LogMailer) Send(ctx context.Context, m Message) error {
	log := l.Logger
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(ctx, "mail not sent (no SMTP configured); logged instead",
		"to", m.To, "subject", m.Subject)
	return nil
}
