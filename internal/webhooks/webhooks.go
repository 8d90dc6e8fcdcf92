// Package webhooks delivers a workspace's events to its endpoints as
// Standard Webhooks (standardwebhooks.com): a POST of the event's JSON
// with the headers webhook-id (the event's id, the same on every retry),
// webhook-timestamp and webhook-signature ("v1," + base64 of the
// HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret's
// decoded bytes).
//
// Events are rows the store queues with the change that caused them
// (store.EnqueueWebhookEvent); each delivery is a row a Runner claims with
// a lease, so any instance may send it, one at a time, and a delivery
// whose instance died is sent again once its lease runs out: at least
// once, never lost across a restart. A 2xx answer within Timeout is
// success; anything else is retried after Backoff, then marked failed. An
// endpoint that fails too long is disabled and its workspace's owners are
// mailed.
package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/store"
)

// Backoff is how long after each failed attempt the next one comes: the
// first attempt is at once, the last of these retries is the 7th attempt,
// and a delivery failing that too is marked failed.
var Backoff = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}

const (
	// SecretPrefix starts every signing secret.
	SecretPrefix = "whsec_"
	// secretBytes of randomness in a secret.
	secretBytes = 32
	// maxResponse bytes of an answer are read; the rest is left unread.
	maxResponse = 64 << 10
	// shownError characters of an answer are kept as the delivery's error.
	shownError = 200
	// Keep is how long events and their finished deliveries are kept.
	Keep = 30 * 24 * time.Hour
	// pruneEvery is how often a runner deletes what is older than Keep.
	pruneEvery = time.Hour
)

// NewSecret draws a signing secret.
func NewSecret() string {
	b := make([]byte, secretBytes)
	rand.Read(b)
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// Sign returns the webhook-signature header of body sent as event id at
// timestamp, signed with secret ("whsec_…").
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhooks: the secret is not base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Options configure a Runner.
type Options struct {
	Store   *store.Store
	Mailer  mail.Mailer
	BaseURL string
	Policy  netguard.Policy // which addresses may be dialled
	// Lease 0 = 1 minute (more than Timeout). Poll is how often to look
	// for due deliveries and scan batches; 0 = 200 ms: a fifth of the
	// batches' spacing, so an endpoint's next batch goes out within 1.2 s
	// of its last rather than a poll later.
	jobs.Leased
	Timeout time.Duration // one attempt, answer included; 0 = 10 seconds
	// InFlight bounds the deliveries this instance sends at once; 0 = 16.
	InFlight int
	// Client sends the requests; nil = Policy.Client(Timeout). Tests
	// replace it only to dial through a chosen resolver.
	Client *http.Client
}

// Runner sends due deliveries until its context ends.
type Runner struct {
	o    Options
	loop *jobs.Loop
}

// NewRunner returns a runner; start it with Run.
func NewRunner(o Options) *Runner {
	o.Fill(200 * time.Millisecond)
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.InFlight <= 0 {
		o.InFlight = 16
	}
	if o.Client == nil {
		o.Client = o.Policy.Client(o.Timeout)
	}
	return &Runner{o: o, loop: jobs.NewLoop(o.Poll)}
}

// Wake tells the runner a delivery was queued, so it looks before its
// next poll.
func (r *Runner) Wake() { r.loop.Wake() }

// Run batches scans and sends due deliveries until ctx ends; the
// deliveries in flight then finish and are recorded before it returns.
func (r *Runner) Run(ctx context.Context) {
	slots := make(chan struct{}, r.o.InFlight)
	var wg sync.WaitGroup
	defer wg.Wait()
	var pruned time.Time
	r.loop.Run(ctx, func(ctx context.Context) {
		// Writes run to the end even when ctx ends, so a claim is never
		// committed unbeknown to the runner; ctx only stops new work.
		write := context.WithoutCancel(ctx)
		if now := r.o.Now(); now.Sub(pruned) >= pruneEvery {
			if _, err := r.o.Store.PruneWebhookEvents(write, now.Add(-Keep)); err != nil {
				r.o.Logger.Error("deleting old webhook events", "err", err)
			}
			pruned = now
		}
		if _, err := r.o.Store.BatchWebhookScans(write, r.o.Now()); err != nil {
			r.o.Logger.Error("batching scans for webhooks", "err", err)
		}
		// Deliveries are claimed as many at a time as there are free slots,
		// and sent side by side.
		for ctx.Err() == nil {
			free := cap(slots) - len(slots)
			if free == 0 {
				return
			}
			claimed, err := r.o.Store.ClaimWebhookDeliveries(write, r.o.Owner, r.o.Now(), r.o.Lease, free)
			if err != nil {
				r.o.Logger.Error("claiming webhook deliveries", "err", err)
				return
			}
			for _, j := range claimed {
				slots <- struct{}{}
				wg.Go(func() {
					defer func() { <-slots }()
					r.deliver(write, j)
				})
			}
			if len(claimed) < free {
				return
			}
		}
	})
}

// deliver makes one attempt at j and records it.
func (r *Runner) deliver(ctx context.Context, j *store.WebhookJob) {
	log := r.o.Logger.With("delivery", j.ID, "endpoint", j.EndpointID, "event", j.EventUID)
	attempt := r.attempt(ctx, j)
	if !attempt.OK {
		if j.Attempts < len(Backoff) {
			next := r.o.Now().Add(Backoff[j.Attempts])
			attempt.NextAttemptAt = &next
		}
		log.Warn("webhook delivery failed", "attempt", j.Attempts+1, "err", attempt.Error)
	}
	disabled, err := r.o.Store.FinishWebhookAttempt(ctx, j.ID, r.o.Owner, attempt, r.o.Now())
	if err != nil {
		log.Error("recording a webhook attempt", "err", err)
		return
	}
	if disabled {
		log.Warn("webhook endpoint disabled", "url", j.URL)
		r.mailOwners(ctx, j, attempt.Error)
	}
}

// attempt POSTs the event to the endpoint.
func (r *Runner) attempt(ctx context.Context, j *store.WebhookJob) store.WebhookAttempt {
	ts := r.o.Now().Unix()
	sig, err := Sign(j.Secret, j.EventUID, ts, []byte(j.Body))
	if err != nil {
		return store.WebhookAttempt{Error: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, r.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, strings.NewReader(j.Body))
	if err != nil {
		return store.WebhookAttempt{Error: err.Error()}
	}
	// An http:// endpoint saved while SQUARELY_WEBHOOK_ALLOW_HTTP was on
	// gets nothing once it is off.
	if req.URL.Scheme != "https" && !(req.URL.Scheme == "http" && r.o.Policy.AllowHTTP) {
		return store.WebhookAttempt{Error: "refused: the URL must use https"}
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Squarely-Webhooks/1.0")
	h.Set("webhook-id", j.EventUID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	resp, err := r.o.Client.Do(req)
	if err != nil {
		return store.WebhookAttempt{Error: reason(err)}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		// The answer counts once its status is in; a body cut short
		// changes nothing.
		return store.WebhookAttempt{OK: true, StatusCode: resp.StatusCode, Response: string(body)}
	}
	msg := "HTTP " + strconv.Itoa(resp.StatusCode)
	if text := shorten(string(body)); text != "" && err == nil {
		msg += ": " + text
	}
	return store.WebhookAttempt{StatusCode: resp.StatusCode, Error: msg, Response: string(body)}
}

// reason is a transport error as the deliveries list shows it: the
// address refused, a timeout, or the error itself.
func reason(err error) string {
	var refused *netguard.AddressError
	switch {
	case errors.As(err, &refused):
		return "refused: " + refused.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	}
	return err.Error()
}

// shorten keeps the start of an answer, on one line, valid UTF-8.
func shorten(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "?")), " ")
	if len(s) <= shownError {
		return s
	}
	s = s[:shownError]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// mailOwners tells the workspace's owners that an endpoint was disabled.
func (r *Runner) mailOwners(ctx context.Context, j *store.WebhookJob, lastError string) {
	e, err := r.o.Store.WebhookEndpoint(ctx, j.WorkspaceID, j.EndpointID)
	if err != nil {
		r.o.Logger.Error("reading a disabled webhook endpoint", "endpoint", j.EndpointID, "err", err)
		return
	}
	name, owners, err := r.o.Store.WorkspaceOwners(ctx, j.WorkspaceID)
	if err != nil {
		r.o.Logger.Error("listing a workspace's owners", "workspace", j.WorkspaceID, "err", err)
		return
	}
	for _, to := range owners {
		msg, err := mail.Render(to, "webhook_disabled", mail.Data{BaseURL: r.o.BaseURL, Fields: map[string]any{
			"Workspace": name, "URL": e.URL, "Reason": e.DisabledReason, "LastError": lastError,
			"Link": r.o.BaseURL + "/webhooks",
		}})
		if err == nil {
			err = r.o.Mailer.Send(ctx, msg)
		}
		if err != nil {
			r.o.Logger.Error("mailing that a webhook endpoint was disabled", "to", to, "err", err)
		}
	}
}
