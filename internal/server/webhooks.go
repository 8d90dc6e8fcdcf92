package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/netguard"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/webhooks"
)

// Webhooks (issue 24, docs/API.md "Webhooks"): a workspace's owners and
// admins (and its API keys, under /api/v1) manage the endpoints its
// events go to. The events themselves are queued by the store with each
// change and sent by internal/webhooks, never on a request.

const (
	maxWebhooks           = 20   // endpoints per workspace
	maxWebhookURL         = 2048 // bytes, as a code's destination (codes.MaxDestination)
	maxWebhookDescription = 200  // characters
	deliveriesPageDefault = 20
	deliveriesPageMax     = 100
	// webhookCheckTimeout bounds resolving an endpoint's host when it is saved.
	webhookCheckTimeout = 5 * time.Second
	msgWebhookMissing   = "Webhook endpoint not found"
	msgDeliveryMissing  = "Delivery not found"
)

// webhookJSON is an endpoint as the API shows it; secret only in the
// answers that make one (create, rotate-secret).
type webhookJSON struct {
	ID                  int64      `json:"id"`
	URL                 string     `json:"url"`
	Events              []string   `json:"events"`
	Description         string     `json:"description"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      string     `json:"disabledReason"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	FailingSince        *time.Time `json:"failingSince"`
	Secret              string     `json:"secret,omitempty"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

func webhookOut(e *store.WebhookEndpoint) webhookJSON {
	return webhookJSON{ID: e.ID, URL: e.URL, Events: e.Events, Description: e.Description, Enabled: e.Enabled,
		DisabledReason: e.DisabledReason, ConsecutiveFailures: e.ConsecutiveFailures, FailingSince: e.FailingSince,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

// webhookInput is the body of a create (every field) or a change (the
// fields present).
type webhookInput struct {
	URL         *string   `json:"url"`
	Events      *[]string `json:"events"`
	Description *string   `json:"description"`
	Enabled     *bool     `json:"enabled"`
}

// check validates the fields present, trimming them, and reports the
// problems in v. The URL is checked last, as it may resolve a name.
func (s *server) checkWebhook(ctx context.Context, in *webhookInput, v *validation) {
	if in.Events != nil {
		if len(*in.Events) == 0 {
			v.add("events", "Choose at least one event")
		}
		for _, t := range *in.Events {
			if !slices.Contains(store.WebhookEventTypes, t) {
				v.add("events", "Unknown event type "+strconv.Quote(t)+"; see docs/API.md for the list")
			}
		}
		list := slices.Compact(slices.Sorted(slices.Values(*in.Events)))
		in.Events = &list
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		in.Description = &d
		switch {
		case utf8.RuneCountInString(d) > maxWebhookDescription:
			v.add("description", "Description must be at most 200 characters")
		case strings.ContainsRune(d, utf8.RuneError):
			v.add("description", "Description must be valid UTF-8 text")
		case codes.HasControl(d):
			v.add("description", "Description must not contain control or text direction characters")
		}
	}
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		in.URL = &u
		switch {
		case u == "":
			v.add("url", "URL is required")
		case len(u) > maxWebhookURL:
			v.add("url", "URL must be at most 2048 bytes")
		default:
			ctx, cancel := context.WithTimeout(ctx, webhookCheckTimeout)
			defer cancel()
			if _, err := s.webhookPolicy.CheckURL(ctx, u); err != nil {
				v.add("url", "URL "+err.Error())
			}
		}
	}
}

// listWebhooks (GET /api/webhooks, admin) lists the workspace's endpoints.
func (s *server) listWebhooks(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.WebhookEndpoints(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing webhook endpoints", err)
		return
	}
	out := make([]webhookJSON, len(list))
	for i, e := range list {
		out[i] = webhookOut(e)
	}
	writeJSON(w, http.StatusOK, out)
}

// createWebhook (POST /api/webhooks {url, events, description}, admin)
// adds an endpoint and answers it with its secret, the only time it is
// shown.
func (s *server) createWebhook(w http.ResponseWriter, r *http.Request) {
	var in webhookInput
	if !decodeJSON(w, r, &in) {
		return
	}
	var v validation
	if in.URL == nil {
		v.add("url", "URL is required")
	}
	if in.Events == nil {
		v.add("events", "Choose at least one event")
	}
	if in.Description == nil {
		in.Description = new(string)
	}
	s.checkWebhook(r.Context(), &in, &v)
	if v.failed(w) {
		return
	}
	e := &store.WebhookEndpoint{WorkspaceID: wsID(r), URL: *in.URL, Events: *in.Events, Description: *in.Description,
		Secret: webhooks.NewSecret()}
	err := s.store.CreateWebhookEndpoint(r.Context(), e, maxWebhooks, s.now())
	switch {
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, "A workspace may have at most 20 webhook endpoints. Delete one to add another.")
		return
	case err != nil:
		s.internalError(w, "creating a webhook endpoint", err)
		return
	}
	out := webhookOut(e)
	out.Secret = e.Secret
	writeJSON(w, http.StatusCreated, out)
}

// updateWebhook (PATCH /api/webhooks/{id} {url?, events?, description?,
// enabled?}, admin) changes the fields given.
func (s *server) updateWebhook(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	var in webhookInput
	if !decodeJSON(w, r, &in) {
		return
	}
	var v validation
	s.checkWebhook(r.Context(), &in, &v)
	if v.failed(w) {
		return
	}
	p := store.WebhookPatch{URL: in.URL, Description: in.Description, Enabled: in.Enabled}
	if in.Events != nil {
		p.Events = *in.Events
	}
	e, err := s.store.UpdateWebhookEndpoint(r.Context(), wsID(r), id, p, s.now())
	if !s.webhookFound(w, err, "changing a webhook endpoint") {
		return
	}
	writeJSON(w, http.StatusOK, webhookOut(e))
}

// webhookFound answers a store error of an endpoint's route (404 when
// it is not the workspace's) and reports whether there was none.
func (s *server) webhookFound(w http.ResponseWriter, err error, doing string) bool {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, msgWebhookMissing)
		return false
	case err != nil:
		s.internalError(w, doing, err)
		return false
	}
	return true
}

// deleteWebhook (DELETE /api/webhooks/{id}, admin) removes an endpoint and
// its deliveries. 204.
func (s *server) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	if s.webhookFound(w, s.store.DeleteWebhookEndpoint(r.Context(), wsID(r), id), "deleting a webhook endpoint") {
		w.WriteHeader(http.StatusNoContent)
	}
}

// rotateWebhookSecret (POST /api/webhooks/{id}/rotate-secret, admin) gives
// the endpoint a new secret and answers it, once.
func (s *server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	secret := webhooks.NewSecret()
	if !s.webhookFound(w, s.store.RotateWebhookSecret(r.Context(), wsID(r), id, secret, s.now()), "rotating a webhook secret") {
		return
	}
	e, err := s.store.WebhookEndpoint(r.Context(), wsID(r), id)
	if !s.webhookFound(w, err, "reading a webhook endpoint") {
		return
	}
	out := webhookOut(e)
	out.Secret = secret
	writeJSON(w, http.StatusOK, out)
}

// testWebhook (POST /api/webhooks/{id}/test, admin) queues a webhook.test
// event for the endpoint. 202: it is sent by the runner, and shows in the
// deliveries.
func (s *server) testWebhook(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	if !s.webhookFound(w, s.store.SendWebhookTest(r.Context(), wsID(r), id, s.now()), "queueing a webhook test") {
		return
	}
	s.wakeWebhooks()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": store.DeliveryPending})
}

// wakeWebhooks tells this instance's runner there is something to send.
func (s *server) wakeWebhooks() {
	if s.webhooks != nil {
		s.webhooks.Wake()
	}
}

// deliveryJSON is a delivery as the API shows it.
type deliveryJSON struct {
	ID             int64     `json:"id"`
	EventID        string    `json:"eventId"`
	Type           string    `json:"type"`
	Status         string    `json:"status"`
	Attempts       int       `json:"attempts"`
	LastStatusCode *int      `json:"lastStatusCode"`
	LastError      string    `json:"lastError"`
	NextAttemptAt  time.Time `json:"nextAttemptAt"`
	CreatedAt      time.Time `json:"createdAt"`
}

func deliveryOut(d *store.WebhookDelivery) deliveryJSON {
	return deliveryJSON{ID: d.ID, EventID: d.EventUID, Type: d.Type, Status: d.Status, Attempts: d.Attempts,
		LastStatusCode: d.LastStatusCode, LastError: d.LastError, NextAttemptAt: d.NextAttemptAt, CreatedAt: d.CreatedAt}
}

// webhookDeliveries (GET /api/webhooks/{id}/deliveries?limit=&cursor=,
// admin) pages through an endpoint's deliveries, newest first.
func (s *server) webhookDeliveries(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	limit, cursor, ok := pageParams(w, r, deliveriesPageDefault, deliveriesPageMax)
	if !ok {
		return
	}
	list, next, err := s.store.WebhookDeliveries(r.Context(), wsID(r), id, cursor, limit)
	if !s.webhookFound(w, err, "listing webhook deliveries") {
		return
	}
	items := make([]deliveryJSON, len(list))
	for i, d := range list {
		items[i] = deliveryOut(d)
	}
	var nextCursor *string
	if next != 0 {
		c := strconv.FormatInt(next, 10)
		nextCursor = &c
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": nextCursor})
}

// webhookDelivery (GET /api/webhooks/{id}/deliveries/{deliveryId}, admin)
// is one delivery with its event's JSON payload as sent and the start of
// the last answer's body.
func (s *server) webhookDelivery(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	delivery, ok := idParam(w, r, "deliveryId", msgDeliveryMissing)
	if !ok {
		return
	}
	d, err := s.store.WebhookDelivery(r.Context(), wsID(r), id, delivery)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgDeliveryMissing)
		return
	}
	if err != nil {
		s.internalError(w, "reading a webhook delivery", err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		deliveryJSON
		Payload      string `json:"payload"`
		LastResponse string `json:"lastResponse"`
	}{deliveryOut(d), d.Payload, d.LastResponse})
}

// retryWebhookDelivery (POST /api/webhooks/{id}/deliveries/{deliveryId}/retry,
// admin) sends a delivery again now, with the same webhook-id: a failed or
// succeeded one, or a pending one before its next attempt. 202; 409 while
// a runner is sending it.
func (s *server) retryWebhookDelivery(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", msgWebhookMissing)
	if !ok {
		return
	}
	delivery, ok := idParam(w, r, "deliveryId", msgDeliveryMissing)
	if !ok {
		return
	}
	err := s.store.RetryWebhookDelivery(r.Context(), wsID(r), id, delivery, s.now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgDeliveryMissing)
		return
	}
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, "This delivery is being sent now")
		return
	}
	if !s.webhookFound(w, err, "retrying a webhook delivery") {
		return
	}
	s.wakeWebhooks()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": store.DeliveryPending})
}

// WebhookPolicy is the address policy of webhook endpoints under cfg: the
// server checks URLs with it when they are saved, the runner dials with it.
func WebhookPolicy(cfg config.Config) netguard.Policy {
	return netguard.Policy{AllowHTTP: cfg.WebhookAllowHTTP, AllowPrivate: cfg.WebhookAllowPrivate}
}
