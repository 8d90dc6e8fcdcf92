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
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// StatsWindow is the period of the "new" counts in the newsletter stats.
const StatsWindow = 30 * 24 * time.Hour

// Options configure a Runner.
type Options struct {
	Store   *store.Store
	Mailer  mail.Mailer
	BaseURL string
	Logger  *slog.Logger     // nil = slog.Default()
	Now     func() time.Time // nil = time.Now
	Owner   string           // names this instance in leases; "" = random
	Lease   time.Duration    // how long a claim holds without renewal; 0 = 1 minute
	Poll    time.Duration    // how often to look for work besides Wake; 0 = 5 seconds
	// SendTimeout bounds one message, retries included; a message in
	// flight at shutdown gets this long to finish. 0 = 1 minute.
	SendTimeout time.Duration
}

// Runner sends mailings until its context ends.
type Runner struct {
	o    Options
	log  *slog.Logger
	wake chan struct{}
}

// NewRunner returns a runner; start it with Run.
func NewRunner(o Options) *Runner {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Owner == "" {
		var b [8]byte
		rand.Read(b[:])
		o.Owner = fmt.Sprintf("%x", b)
	}
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = time.Minute
	}
	return &Runner{o: o, log: o.Logger, wake: make(chan struct{}, 1)}
}

// Wake tells the runner a mailing was queued, so it starts without
// waiting for its next poll.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run claims and sends mailings until ctx ends. A message in flight when
// ctx ends is finished and recorded first.
func (r *Runner) Run(ctx context.Context) {
	tick := time.NewTicker(r.o.Poll)
	defer tick.Stop()
	// Database writes run to the end even when ctx ends, so a claim or a
	// row marked 'sending' is never committed unbeknown to the runner; ctx
	// only stops the runner between messages.
	write := context.WithoutCancel(ctx)
	for {
		for ctx.Err() == nil {
			m, err := r.o.Store.ClaimMailing(write, r.o.Owner, r.o.Now(), r.o.Lease)
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if err != nil {
				r.log.Error("claiming a mailing", "err", err)
				break
			}
			if !r.send(ctx, m) {
				break // wait before trying again
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-tick.C:
		}
	}
}

// send mails m's pending recipients while the lease holds. It reports
// false when it stopped on an error.
func (r *Runner) send(ctx context.Context, m *store.Mailing) bool {
	log := r.log.With("mailing", m.ID, "kind", m.Kind)
	log.Info("sending mailing", "pending", m.Counts.Pending, "interrupted", m.Counts.Interrupted)
	record := context.WithoutCancel(ctx) // see Run
	defer r.o.Store.ReleaseMailing(record, m.ID, r.o.Owner)

	key, err := UnsubscribeKey(ctx, r.o.Store)
	if err != nil {
		log.Error("loading the unsubscribe key", "err", err)
		return false
	}
	var stats *store.NewsletterStats
	if m.IncludeStats {
		if stats, err = r.o.Store.NewsletterStats(ctx, r.o.Now().Add(-StatsWindow)); err != nil {
			log.Error("counting newsletter stats", "err", err)
			return false
		}
	}
	renewed := r.o.Now()
	for ctx.Err() == nil {
		now := r.o.Now()
		if now.Sub(renewed) > r.o.Lease/3 {
			if err := r.o.Store.RenewMailingLease(record, m.ID, r.o.Owner, now, r.o.Lease); err != nil {
				log.Warn("lost the mailing's lease", "err", err)
				return false
			}
			renewed = now
		}
		rcpt, err := r.o.Store.NextRecipient(record, m.ID, r.o.Owner, now)
		if errors.Is(err, store.ErrNotFound) {
			// Done, or the lease was lost; FinishMailing tells which.
			if err := r.o.Store.FinishMailing(record, m.ID, r.o.Owner, r.o.Now()); err == nil {
				log.Info("mailing finished")
			}
			return true
		}
		if err != nil {
			log.Error("taking the next recipient", "err", err)
			return false
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
			log.Error("recording a delivery", "to", rcpt.Email, "err", err)
			return false
		}
	}
	return false // stopped
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
func UnsubscribeToken(key []byte, email string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(email)) + "." + enc.EncodeToString(sign(key, email))
}

// ParseUnsubscribeToken returns the address a token signed by key names.
func ParseUnsubscribeToken(key []byte, token string) (string, bool) {
	enc := base64.RawURLEncoding
	rawEmail, rawSig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 1024 {
		return "", false
	}
	email, err1 := enc.DecodeString(rawEmail)
	sig, err2 := enc.DecodeString(rawSig)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, sign(key, string(email))) {
		return "", false
	}
	return string(email), true
}

func sign(key []byte, email string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("unsubscribe\x00" + email))
	return h.Sum(nil)[:16]
}
