// Package mailings sends the admin's bulk mailings (newsletter, welcome,
// scan and pause notifications) off the request that asked for them.
//
// Each mailing is a row in the database with one row per recipient
// (store.CreateMailing). A Runner in every instance claims unfinished
// mailings with a lease, so any instance can send or resume one and only
// one sends it at a time. Each recipient row is committed as 'sending'
// before its message goes out and as 'sent' or 'failed' after, so:
//
//   - a stopped runner (shutdown) finishes the message in flight, records
//     it, releases the lease, and the mailing resumes with the next row;
//   - a killed process leaves at most one row 'sending'; whoever claims
//     the mailing next (after the lease runs out) marks that row
//     'interrupted' and does not send it again, because the SMTP server may
//     already have accepted it. No address is mailed twice for one
//     mailing; an interrupted address may, rarely, have been mailed zero
//     times, and the page shows how many were interrupted.
package mailings

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// StatsWindow is the period of the "new" counts in the newsletter stats.
const StatsWindow = 30 * 24 * time.Hour

// Options configure a Runner.
type Options struct {
	Store       *store.Store
	Mailer      mail.Mailer
	BaseURL     string
	jobs.Leased // Poll 0 = 5 seconds
	// SendTimeout bounds one message, retries included; a message in
	// flight at shutdown gets this long to finish. 0 = 1 minute.
	SendTimeout time.Duration
}

// Runner sends mailings until its context ends.
type Runner struct {
	o    Options
	loop *jobs.Loop
}

// NewRunner returns a runner; start it with Run.
func NewRunner(o Options) *Runner {
	o.Fill(5 * time.Second)
	if o.SendTimeout <= 0 {
		o.SendTimeout = time.Minute
	}
	return &Runner{o: o, loop: jobs.NewLoop(o.Poll)}
}

// Wake tells the runner a mailing was queued, so it starts without
// waiting for its next poll.
func (r *Runner) Wake() { r.loop.Wake() }

// Run claims and sends mailings until ctx ends. A message in flight when
// ctx ends is finished and recorded first.
func (r *Runner) Run(ctx context.Context) { r.loop.Run(ctx, r.drain) }

// drain sends claimable mailings until none is left, or one stops on an
// error (the next pass tries again).
func (r *Runner) drain(ctx context.Context) {
	err := jobs.Drain(ctx, func(ctx context.Context) (*store.Mailing, error) {
		return r.o.Store.ClaimMailing(ctx, r.o.Owner, r.o.Now(), r.o.Lease)
	}, func(m *store.Mailing) error { return r.send(ctx, m) })
	if err != nil && ctx.Err() == nil {
		r.o.Logger.Error("sending mailings", "err", err)
	}
}

// send mails m's pending recipients while the lease holds.
func (r *Runner) send(ctx context.Context, m *store.Mailing) error {
	log := r.o.Logger.With("mailing", m.ID, "kind", m.Kind)
	log.Info("sending mailing", "pending", m.Counts.Pending, "interrupted", m.Counts.Interrupted)
	// Database writes run to the end even when ctx ends, so a row marked
	// 'sending' is never committed unbeknown to the runner; ctx only stops
	// the runner between messages.
	record := context.WithoutCancel(ctx)
	defer r.o.Store.ReleaseMailing(record, m.ID, r.o.Owner)

	key, err := UnsubscribeKey(ctx, r.o.Store)
	if err != nil {
		return fmt.Errorf("loading the unsubscribe key: %w", err)
	}
	var stats *store.NewsletterStats
	if m.IncludeStats {
		if stats, err = r.o.Store.NewsletterStats(ctx, r.o.Now().Add(-StatsWindow)); err != nil {
			return fmt.Errorf("counting newsletter stats: %w", err)
		}
	}
	lease := jobs.NewLease(r.o.Lease, r.o.Now())
	for ctx.Err() == nil {
		now := r.o.Now()
		if err := lease.Keep(now, func() error {
			return r.o.Store.RenewMailingLease(record, m.ID, r.o.Owner, now, r.o.Lease)
		}); err != nil {
			return fmt.Errorf("lost the lease of mailing %d: %w", m.ID, err)
		}
		rcpt, err := r.o.Store.NextRecipient(record, m.ID, r.o.Owner, now)
		if errors.Is(err, store.ErrNotFound) {
			// Done, or the lease was lost; FinishMailing tells which.
			if err := r.o.Store.FinishMailing(record, m.ID, r.o.Owner, r.o.Now()); err == nil {
				log.Info("mailing finished")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("taking the next recipient: %w", err)
		}
		if rcpt.Status == store.RecipientSkipped {
			continue
		}
		status, reason := store.RecipientSent, ""
		if err := r.deliver(record, m, rcpt, key, stats); err != nil {
			status, reason = store.RecipientFailed, err.Error()
			log.Warn("mail not delivered", "to", rcpt.Email, "err", err)
		}
		if err := r.o.Store.FinishRecipient(record, rcpt.ID, status, reason, r.o.Now()); err != nil {
			return fmt.Errorf("recording a delivery to %s: %w", rcpt.Email, err)
		}
	}
	return nil // stopped
}

// deliver renders and sends one recipient's message.
func (r *Runner) deliver(ctx context.Context, m *store.Mailing, rcpt *store.MailingRecipient, key []byte, stats *store.NewsletterStats) error {
	unsubscribe := UnsubscribeURL(r.o.BaseURL, key, rcpt.Email)
	fields := rcpt.Fields
	fields["UnsubscribeURL"] = unsubscribe
	if m.Kind == store.MailingNewsletter {
		fields["Subject"] = m.Subject
		fields["Content"] = m.Content
		fields["Paragraphs"] = paragraphs(m.Content)
		if stats != nil {
			fields["Stats"] = stats
		}
	}
	msg, err := mail.Render(rcpt.Email, "mailing_"+m.Kind, mail.Data{BaseURL: r.o.BaseURL, Fields: fields})
	if err != nil {
		return err
	}
	msg.Headers = map[string]string{
		// RFC 8058 one-click unsubscribe: mail clients POST to this URL.
		"List-Unsubscribe":      "<" + unsubscribe + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}
	sendCtx, cancel := context.WithTimeout(ctx, r.o.SendTimeout)
	defer cancel()
	return r.o.Mailer.Send(sendCtx, msg)
}

// paragraphs splits newsletter content at blank lines.
func paragraphs(content string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// unsubscribeSecret names the key that signs unsubscribe links.
const unsubscribeSecret = "mail-unsubscribe"

// UnsubscribeKey returns the server-wide key that signs unsubscribe links,
// made on first use.
func UnsubscribeKey(ctx context.Context, st *store.Store) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	return st.Secret(ctx, unsubscribeSecret, fresh)
}

// UnsubscribeURL is the link that unsubscribes email: a page with a
// button for people, and the target of one-click POSTs for mail clients.
func UnsubscribeURL(baseURL string, key []byte, email string) string {
	return baseURL + "/unsubscribe?token=" + url.QueryEscape(UnsubscribeToken(key, email))
}

// UnsubscribeToken signs email; it never expires, as an unsubscribe link
// in an old message must keep working.
func UnsubscribeToken(key []byte, email string) string { return Token(key, "unsubscribe", email) }

// ParseUnsubscribeToken returns the address a token signed by key names.
func ParseUnsubscribeToken(key []byte, token string) (string, bool) {
	return ParseToken(key, "unsubscribe", token)
}

// Token signs payload for one purpose with key (UnsubscribeKey's): other
// unsubscribe links (a digest's) are tokens of their own purpose, so one
// kind never passes for another.
func Token(key []byte, purpose, payload string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(sign(key, purpose, payload))
}

// ParseToken returns the payload of a token Token made for purpose.
func ParseToken(key []byte, purpose, token string) (string, bool) {
	enc := base64.RawURLEncoding
	rawPayload, rawSig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 1024 {
		return "", false
	}
	payload, err1 := enc.DecodeString(rawPayload)
	sig, err2 := enc.DecodeString(rawSig)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, sign(key, purpose, string(payload))) {
		return "", false
	}
	return string(payload), true
}

func sign(key []byte, purpose, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(purpose + "\x00" + payload))
	return h.Sum(nil)[:16]
}
