// Package mail sends the product's e-mails. Mailer is what the server
// needs; LogMailer writes messages to the log, for development and until
// SMTP is configured.
package mail

import (
	"context"
	"log/slog"
)

// Message is a plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// LogMailer logs each message at Info instead of sending it. Bodies may
// hold one-time links, so it is only for development and single-user
// installs; the log line says so.
type LogMailer struct {
	Logger *slog.Logger // nil = slog.Default()
}

// Send logs m.
func (l LogMailer) Send(ctx context.Context, m Message) error {
	log := l.Logger
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(ctx, "mail not sent (no SMTP configured); logged instead",
		"to", m.To, "subject", m.Subject, "body", m.Body)
	return nil
}
