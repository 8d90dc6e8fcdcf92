package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Webhooks (issue 24): a workspace's endpoints receive its events, signed
// and retried by internal/webhooks. Events are an outbox: the code changes,
// bulk jobs and payments that cause them queue them in their own
// transaction, so an event exists exactly when its change does, and the
// runner delivers it later, never on the request path.
//
// The signing secret is kept as given ("whsec_" + base64), not hashed or
// encrypted: HMAC signing needs the key itself on every attempt, so a hash
// cannot serve, and encrypting it with a key kept beside it (in this
// database or the same instance's settings) would protect it from no one
// who can read the database. It is shown once, when made or rotated.

// The event types an endpoint may subscribe to.
const (
	EventCodeCreated        = "code.created"
	EventCodeUpdated        = "code.updated"
	EventCodeDeleted        = "code.deleted"
	EventCodePaused         = "code.paused"
	EventCodeResumed        = "code.resumed"
	EventCodeMoved          = "code.moved"
	EventScanCreated        = "scan.created"
	EventBulkCompleted      = "bulk.completed"
	EventPaymentSucceeded   = "payment.succeeded"
	EventDestinationDown    = "alert.destination_down"
	EventDestinationUp      = "alert.destination_recovered"
	EventScansDropped       = "alert.scans_dropped"
	EventWebhookTest        = "webhook.test"
	maxWebhookScanBatch     = 100
	webhookScanBatchSpacing = time.Second
)

// A scan.created batch looks for its workspace's scans a window of
// scan_events ids at a time, by the primary key alone, and reads at most
// webhookScanWindows windows: an endpoint whose workspace has no scans in
// them moves its cursor past them and looks further a second later. One
// query joining all the ids after the cursor to the workspace's codes
// left the plan to the row estimates, which lag behind a table growing by
// thousands of rows a second: PostgreSQL then read every scan of every
// code of the workspace (1.9 million rows, 1.3 s) to find 100, once a
// second, holding the workspace's rollup lock, which the recorder waits
// for (BENCHMARKS.md). So a busy deployment's endpoint keeps up with at
// most webhookScanWindow × webhookScanWindows scans a second of all
// workspaces; its own workspace's are sent 100 a second anyway.
const (
	webhookScanWindow  = 2000
	webhookScanWindows = 10
)

// WebhookEventTypes lists every event type, in the order the API shows them.
var WebhookEventTypes = []string{
	EventCodeCreated, EventCodeUpdated, EventCodeDeleted, EventCodePaused, EventCodeResumed, EventCodeMoved,
	EventScanCreated, EventBulkCompleted, EventPaymentSucceeded,
	EventDestinationDown, EventDestinationUp, EventScansDropped, EventWebhookTest,
}

// The states of a delivery: pending until an attempt succeeds, or failed
// once every retry has.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// WebhookEndpoint is where a workspace's events go.
type WebhookEndpoint struct {
	ID          int64
	WorkspaceID int64
	URL         string
	Events      []string // sorted
	Description string
	Enabled     bool
	Secret      string
	// ConsecutiveFailures counts failed attempts since the last success,
	// which began at FailingSince (nil: the last attempt succeeded).
	ConsecutiveFailures int
	FailingSince        *time.Time
	DisabledReason      string // why the runner disabled it; "" otherwise
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// WebhookDelivery is one event sent, or to send, to one endpoint.
type WebhookDelivery struct {
	ID             int64
	EndpointID     int64
	EventUID       string
	Type           string
	Status         string
	Attempts       int
	LastStatusCode *int
	LastError      string
	NextAttemptAt  time.Time
	CreatedAt      time.Time
	// Payload and LastResponse are read by WebhookDelivery alone: the
	// event's JSON as sent and the start of the last answer's body.
	Payload      string
	LastResponse string
}

// WebhookJob is a delivery a runner has claimed: what it needs to send it.
type WebhookJob struct {
	ID          int64
	WorkspaceID int64
	EndpointID  int64
	URL         string
	Secret      string
	EventUID    string
	Body        string
	Attempts    int // before this one
}

// WebhookPatch changes an endpoint; nil fields stay.
type WebhookPatch struct {
	URL         *string
	Events      []string // nil: unchanged
	Description *string
	Enabled     *bool
}

const webhookColumns = `e.id, e.workspace_id, e.url, e.description, e.enabled, e.secret, e.consecutive_failures,
	e.failing_since, e.disabled_reason, e.created_at, e.updated_at`

// CreateWebhookEndpoint saves e, subscribed to e.Events, and fills in its
// ID and times. With limit > 0 it returns ErrLimit when the workspace
// already has limit endpoints; the count and the insert share one write
// transaction with the workspace's row locked. A new endpoint's scan
// batches start with the next scan: it gets no history.
func (s *Store) CreateWebhookEndpoint(ctx context.Context, e *WebhookEndpoint, limit int, now time.Time) error {
	e.CreatedAt, e.UpdatedAt, e.Enabled = normTime(now), normTime(now), true
	return s.inTx(ctx, "create webhook endpoint", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, e.WorkspaceID); err != nil {
			return err
		}
		var n int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhook_endpoints WHERE workspace_id = $1`, e.WorkspaceID).Scan(&n)
		if err != nil {
			return fail("count webhook endpoints", err)
		}
		if limit > 0 && n >= limit {
			return ErrLimit
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO webhook_endpoints (workspace_id, url, description, secret, scan_cursor, scan_batch_after, created_at, updated_at)
			VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(id), 0) FROM scan_events), $5, $5, $5) RETURNING id`,
			e.WorkspaceID, e.URL, e.Description, e.Secret, dbTime(now)).Scan(&e.ID)
		if err != nil {
			return fail("create webhook endpoint", err)
		}
		if err := setSubscriptions(ctx, tx, e.WorkspaceID, e.ID, e.Events); err != nil {
			return err
		}
		e.Events = slices.Sorted(slices.Values(e.Events))
		return s.audit(ctx, tx, e.WorkspaceID, "webhook.created", Target{"webhook", e.ID, e.URL}, map[string]any{"events": e.Events})
	})
}

// setSubscriptions replaces the endpoint's event types with events.
func setSubscriptions(ctx context.Context, tx *sql.Tx, workspaceID, id int64, events []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_subscriptions WHERE endpoint_id = $1`, id); err != nil {
		return fail("subscribe webhook endpoint", err)
	}
	for _, t := range events {
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_subscriptions (workspace_id, endpoint_id, event_type) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, workspaceID, id, t)
		if err != nil {
			return fail("subscribe webhook endpoint", err)
		}
	}
	return nil
}

// WebhookEndpoints returns the workspace's endpoints, oldest first.
func (s *Store) WebhookEndpoints(ctx context.Context, workspaceID int64) ([]*WebhookEndpoint, error) {
	return s.webhooks(ctx, s.read, `e.workspace_id = $1`, workspaceID)
}

// WebhookEndpoint returns the workspace's endpoint id, or ErrNotFound.
func (s *Store) WebhookEndpoint(ctx context.Context, workspaceID, id int64) (*WebhookEndpoint, error) {
	return s.webhook(ctx, s.read, workspaceID, id)
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) webhook(ctx context.Context, q querier, workspaceID, id int64) (*WebhookEndpoint, error) {
	list, err := s.webhooks(ctx, q, `e.workspace_id = $1 AND e.id = $2`, workspaceID, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, ErrNotFound
	}
	return list[0], nil
}

// webhooks lists the endpoints matching where, with their event types.
func (s *Store) webhooks(ctx context.Context, q querier, where string, args ...any) ([]*WebhookEndpoint, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+webhookColumns+`, COALESCE(x.event_type, '')
		FROM webhook_endpoints e LEFT JOIN webhook_subscriptions x ON x.endpoint_id = e.id
		WHERE `+where+` ORDER BY e.id, x.event_type`, args...)
	if err != nil {
		return nil, fail("list webhook endpoints", err)
	}
	defer rows.Close()
	list := []*WebhookEndpoint{}
	for rows.Next() {
		var event string
		e := new(WebhookEndpoint)
		if err := rows.Scan(&e.ID, &e.WorkspaceID, &e.URL, &e.Description, &e.Enabled, &e.Secret, &e.ConsecutiveFailures,
			scanNullTime(&e.FailingSince), &e.DisabledReason, scanTime(&e.CreatedAt), scanTime(&e.UpdatedAt), &event); err != nil {
			return nil, fail("list webhook endpoints", err)
		}
		if n := len(list); n > 0 && list[n-1].ID == e.ID {
			e = list[n-1]
		} else {
			e.Events = []string{}
			list = append(list, e)
		}
		if event != "" {
			e.Events = append(e.Events, event)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list webhook endpoints", err)
	}
	return list, nil
}

// UpdateWebhookEndpoint applies p to the workspace's endpoint and returns
// it. Enabling an endpoint clears its failures and the reason it was
// disabled; subscribing it to scan.created anew starts its batches with
// the next scan.
func (s *Store) UpdateWebhookEndpoint(ctx context.Context, workspaceID, id int64, p WebhookPatch, now time.Time) (*WebhookEndpoint, error) {
	var e *WebhookEndpoint
	err := s.inTx(ctx, "update webhook endpoint", func(tx *sql.Tx) error {
		before, err := s.webhook(ctx, tx, workspaceID, id)
		if err != nil {
			return err
		}
		details := map[string]any{}
		url, description, enabled := before.URL, before.Description, before.Enabled
		if p.URL != nil && *p.URL != url {
			details["url"] = map[string]any{"before": url, "after": *p.URL}
			url = *p.URL
		}
		if p.Description != nil && *p.Description != description {
			details["description"] = map[string]any{"before": description, "after": *p.Description}
			description = *p.Description
		}
		reenabled := p.Enabled != nil && *p.Enabled && !enabled
		if p.Enabled != nil && *p.Enabled != enabled {
			details["enabled"] = map[string]any{"before": enabled, "after": *p.Enabled}
			enabled = *p.Enabled
		}
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = $2, description = $3, enabled = $4, updated_at = $5,
			consecutive_failures = CASE WHEN $6 THEN 0 ELSE consecutive_failures END,
			failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
			disabled_reason = CASE WHEN $4 THEN '' ELSE disabled_reason END
			WHERE id = $1`, id, url, description, enabled, dbTime(now), reenabled)
		if err != nil {
			return fail("update webhook endpoint", err)
		}
		if p.Events != nil {
			after := slices.Compact(slices.Sorted(slices.Values(p.Events)))
			if !slices.Equal(after, before.Events) {
				details["events"] = map[string]any{"before": before.Events, "after": after}
				if err := setSubscriptions(ctx, tx, workspaceID, id, after); err != nil {
					return err
				}
				if !slices.Contains(before.Events, EventScanCreated) && slices.Contains(after, EventScanCreated) {
					_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET scan_cursor = (SELECT COALESCE(max(id), 0) FROM scan_events)
						WHERE id = $1`, id)
					if err != nil {
						return fail("update webhook endpoint", err)
					}
				}
			}
		}
		if e, err = s.webhook(ctx, tx, workspaceID, id); err != nil {
			return err
		}
		if len(details) == 0 {
			return nil
		}
		return s.audit(ctx, tx, workspaceID, "webhook.updated", Target{"webhook", id, e.URL}, details)
	})
	return e, err
}

// DeleteWebhookEndpoint deletes the workspace's endpoint with its deliveries.
func (s *Store) DeleteWebhookEndpoint(ctx context.Context, workspaceID, id int64) error {
	return s.deleteAudited(ctx, "webhook_endpoints", "url", "webhook", "webhook.deleted", workspaceID, id)
}

// RotateWebhookSecret replaces the endpoint's signing secret: deliveries
// from now on, retries included, are signed with the new one.
func (s *Store) RotateWebhookSecret(ctx context.Context, workspaceID, id int64, secret string, now time.Time) error {
	return s.inTx(ctx, "rotate webhook secret", func(tx *sql.Tx) error {
		var url string
		err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET secret = $3, updated_at = $4
			WHERE id = $1 AND workspace_id = $2 RETURNING url`, id, workspaceID, secret, dbTime(now)).Scan(&url)
		if err != nil {
			return fail("rotate webhook secret", err)
		}
		return s.audit(ctx, tx, workspaceID, "webhook.secret_rotated", Target{"webhook", id, url}, nil)
	})
}

// SendWebhookTest queues a webhook.test event for the workspace's endpoint
// alone, whatever it subscribes to.
func (s *Store) SendWebhookTest(ctx context.Context, workspaceID, id int64, now time.Time) error {
	return s.inTx(ctx, "send webhook test", func(tx *sql.Tx) error {
		e, err := s.webhook(ctx, tx, workspaceID, id)
		if err != nil {
			return err
		}
		data := map[string]any{"endpointId": e.ID, "message": "This is a test event from Squarely."}
		if err := s.queueEvent(ctx, tx, workspaceID, EventWebhookTest, data, []int64{e.ID}, now); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, "webhook.tested", Target{"webhook", id, e.URL}, nil)
	})
}

// EnqueueWebhookEvent queues one event for every enabled endpoint of the
// workspace subscribed to eventType, in tx when tx != nil (outbox: the
// event exists exactly when the change does), else in its own
// transaction. data is the event's "data" object. Nothing is written when
// no endpoint wants the event.
func (s *Store) EnqueueWebhookEvent(ctx context.Context, tx *sql.Tx, workspaceID int64, eventType string, data any) error {
	if tx == nil {
		return s.inTx(ctx, "queue webhook event", func(tx *sql.Tx) error {
			return s.EnqueueWebhookEvent(ctx, tx, workspaceID, eventType, data)
		})
	}
	if workspaceID == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT e.id FROM webhook_endpoints e JOIN webhook_subscriptions x ON x.endpoint_id = e.id
		WHERE e.workspace_id = $1 AND e.enabled AND x.event_type = $2 ORDER BY e.id`, workspaceID, eventType)
	if err != nil {
		return fail("find webhook endpoints", err)
	}
	var endpoints []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fail("find webhook endpoints", err)
		}
		endpoints = append(endpoints, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail("find webhook endpoints", err)
	}
	if len(endpoints) == 0 {
		return nil
	}
	return s.queueEvent(ctx, tx, workspaceID, eventType, data, endpoints, time.Now())
}

// webhookBody is an event as every endpoint receives it.
type webhookBody struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// queueEvent saves the event and one pending delivery of it per endpoint.
func (s *Store) queueEvent(ctx context.Context, tx *sql.Tx, workspaceID int64, eventType string, data any, endpoints []int64, now time.Time) error {
	now = normTime(now)
	body, err := json.Marshal(webhookBody{eventType, now, data})
	if err != nil {
		return fail("queue webhook event", err)
	}
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO webhook_events (workspace_id, uid, type, body, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		workspaceID, "msg_"+RandomBase62(24), eventType, string(body), dbTime(now)).Scan(&id)
	if err != nil {
		return fail("queue webhook event", err)
	}
	for _, e := range endpoints {
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (workspace_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $4, $4)`, workspaceID, e, id, dbTime(now))
		if err != nil {
			return fail("queue webhook delivery", err)
		}
	}
	return nil
}

// WebhookDeliveries returns up to limit deliveries of the workspace's
// endpoint, newest first, older than the delivery before (0: from the
// newest), and the cursor of the next page (0: none).
func (s *Store) WebhookDeliveries(ctx context.Context, workspaceID, endpointID, before int64, limit int) ([]*WebhookDelivery, int64, error) {
	if _, err := s.WebhookEndpoint(ctx, workspaceID, endpointID); err != nil {
		return nil, 0, err
	}
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := s.read.QueryContext(ctx, `
		SELECT d.id, d.endpoint_id, v.uid, v.type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.created_at
		FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
		WHERE d.endpoint_id = $1 AND d.workspace_id = $2 AND d.id < $3 ORDER BY d.id DESC LIMIT $4`,
		endpointID, workspaceID, before, limit+1)
	if err != nil {
		return nil, 0, fail("list webhook deliveries", err)
	}
	defer rows.Close()
	list := []*WebhookDelivery{}
	for rows.Next() {
		d := new(WebhookDelivery)
		var code sql.NullInt64
		if err := rows.Scan(&d.ID, &d.EndpointID, &d.EventUID, &d.Type, &d.Status, &d.Attempts, &code, &d.LastError,
			scanTime(&d.NextAttemptAt), scanTime(&d.CreatedAt)); err != nil {
			return nil, 0, fail("list webhook deliveries", err)
		}
		if code.Valid {
			c := int(code.Int64)
			d.LastStatusCode = &c
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fail("list webhook deliveries", err)
	}
	var next int64
	if len(list) > limit {
		list = list[:limit]
		next = list[limit-1].ID
	}
	return list, next, nil
}

// RetryWebhookDelivery makes the workspace's delivery pending and due now.
// A failed delivery gets one more attempt (its attempts are kept, so the
// schedule does not start again); a pending one waiting for its next
// attempt is tried now; a succeeded one is sent again with the same
// webhook-id. A delivery a runner holds (being sent now) is ErrConflict:
// it is never sent twice at once, and its attempt's outcome decides what
// follows.
func (s *Store) RetryWebhookDelivery(ctx context.Context, workspaceID, endpointID, id int64, now time.Time) error {
	return s.inTx(ctx, "retry webhook delivery", func(tx *sql.Tx) error {
		e, err := s.webhook(ctx, tx, workspaceID, endpointID)
		if err != nil {
			return err
		}
		// The lease condition is re-checked on PostgreSQL after a racing
		// claim commits, as the claim re-checks it.
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $4, updated_at = $4
			WHERE id = $1 AND endpoint_id = $2 AND workspace_id = $3 AND (lease_until IS NULL OR lease_until < $4)`,
			id, endpointID, workspaceID, dbTime(now))
		if err != nil {
			return fail("retry webhook delivery", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var exists bool
			err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND workspace_id = $3)`,
				id, endpointID, workspaceID).Scan(&exists)
			if err != nil {
				return fail("retry webhook delivery", err)
			}
			if exists {
				return ErrConflict
			}
			return ErrNotFound
		}
		return s.audit(ctx, tx, workspaceID, "webhook.delivery_retried", Target{"webhook", endpointID, e.URL}, map[string]any{"delivery": id})
	})
}

// ClaimWebhookDeliveries gives owner the lease, until now+lease, on up to
// limit due deliveries of enabled endpoints of live workspaces that no
// live lease holds, and returns them.
func (s *Store) ClaimWebhookDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]*WebhookJob, error) {
	// Most polls find nothing due: a read says so without taking SQLite's
	// single writer from the scans' recorder.
	var due bool
	err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_deliveries
		WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1))`, dbTime(now)).Scan(&due)
	if err != nil {
		return nil, fail("claim webhook deliveries", err)
	}
	if !due {
		return nil, nil
	}
	var jobs []*WebhookJob
	err = s.inTx(ctx, "claim webhook deliveries", func(tx *sql.Tx) error {
		// The outer conditions repeat the inner ones: on PostgreSQL an
		// instance racing for the same rows re-checks them after the first
		// commits, and then finds them leased.
		rows, err := tx.QueryContext(ctx, `
			UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $3
			WHERE id IN (SELECT d.id FROM webhook_deliveries d
			             JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN workspaces w ON w.id = d.workspace_id
			             WHERE d.status = 'pending' AND d.next_attempt_at <= $2 AND (d.lease_until IS NULL OR d.lease_until < $2)
			               AND e.enabled AND NOT w.is_deleted
			             ORDER BY d.next_attempt_at, d.id LIMIT $4)
			  AND status = 'pending' AND (lease_until IS NULL OR lease_until < $2)
			RETURNING id`, owner, dbTime(now), dbTime(now.Add(lease)), limit)
		if err != nil {
			return fail("claim webhook deliveries", err)
		}
		var ids []string
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fail("claim webhook deliveries", err)
			}
			ids = append(ids, strconv.FormatInt(id, 10))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fail("claim webhook deliveries", err)
		}
		if len(ids) == 0 {
			return nil
		}
		// The ids are integers the database just gave: safe to inline.
		rows, err = tx.QueryContext(ctx, `
			SELECT d.id, d.workspace_id, d.endpoint_id, e.url, e.secret, v.uid, v.body, d.attempts
			FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events v ON v.id = d.event_id
			WHERE d.id IN (`+strings.Join(ids, ",")+`) ORDER BY d.next_attempt_at, d.id`)
		if err != nil {
			return fail("claim webhook deliveries", err)
		}
		defer rows.Close()
		for rows.Next() {
			j := new(WebhookJob)
			if err := rows.Scan(&j.ID, &j.WorkspaceID, &j.EndpointID, &j.URL, &j.Secret, &j.EventUID, &j.Body, &j.Attempts); err != nil {
				return fail("claim webhook deliveries", err)
			}
			jobs = append(jobs, j)
		}
		return rows.Err()
	})
	return jobs, err
}

// WebhookAttempt is how one attempt at a delivery ended.
type WebhookAttempt struct {
	OK         bool
	StatusCode int    // 0: no answer
	Error      string // why it failed, for the deliveries list
	// Response is the start of the answer's body, at most
	// MaxWebhookResponse bytes of valid UTF-8.
	Response string
	// NextAttemptAt is when to try again after a failure; nil marks the
	// delivery failed.
	NextAttemptAt *time.Time
}

// MaxWebhookResponse is how much of an answer's body a delivery keeps.
const MaxWebhookResponse = 2 << 10

// Why the runner disables an endpoint.
const (
	maxWebhookFailures   = 100
	maxWebhookFailingFor = 3 * 24 * time.Hour
)

// FinishWebhookAttempt records an attempt at a delivery owner holds and
// the endpoint's run of failures. It reports whether this failure disabled
// the endpoint (100 in a row, or failing for 3 days), so the runner tells
// the workspace's owners once. A delivery no longer leased by owner (the
// lease ran out and another instance took it) is left as it is.
func (s *Store) FinishWebhookAttempt(ctx context.Context, id int64, owner string, a WebhookAttempt, now time.Time) (disabled bool, err error) {
	err = s.inTx(ctx, "finish webhook attempt", func(tx *sql.Tx) error {
		status, next := DeliverySucceeded, now
		switch {
		case !a.OK && a.NextAttemptAt != nil:
			status, next = DeliveryPending, *a.NextAttemptAt
		case !a.OK:
			status = DeliveryFailed
		}
		reason := a.Error
		if len(reason) > 500 {
			reason = reason[:500]
		}
		// The endpoint's row is locked before the delivery's, the order of
		// a deletion (the endpoint, then its deliveries by cascade), so the
		// two cannot deadlock on PostgreSQL.
		var locked int64
		err := tx.QueryRowContext(ctx, `SELECT e.id FROM webhook_endpoints e JOIN webhook_deliveries d ON d.endpoint_id = e.id
			WHERE d.id = $1`+s.forUpdate(" OF e"), id).Scan(&locked)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // deleted meanwhile
		}
		if err != nil {
			return fail("finish webhook attempt", err)
		}
		var endpoint int64
		err = tx.QueryRowContext(ctx, `
			UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, last_status_code = $4, last_error = $5,
				next_attempt_at = $6, updated_at = $7, lease_owner = NULL, lease_until = NULL, last_response = $8
			WHERE id = $1 AND lease_owner = $2 RETURNING endpoint_id`,
			id, owner, status, nullIfZero(int64(a.StatusCode)), textOf(reason), dbTime(next), dbTime(now),
			responseStart(a.Response)).Scan(&endpoint)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fail("finish webhook attempt", err)
		}
		if a.OK {
			_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL WHERE id = $1`, endpoint)
			if err != nil {
				return fail("finish webhook attempt", err)
			}
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1,
			failing_since = COALESCE(failing_since, $2) WHERE id = $1`, endpoint, dbTime(now))
		if err != nil {
			return fail("finish webhook attempt", err)
		}
		// Only the attempt that turns it off reports it: on PostgreSQL a
		// racing one re-checks enabled after this commits.
		res, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = FALSE, updated_at = $2,
			disabled_reason = CASE WHEN consecutive_failures >= $3 THEN $5 ELSE $6 END
			WHERE id = $1 AND enabled AND (consecutive_failures >= $3 OR failing_since <= $4)`,
			endpoint, dbTime(now), maxWebhookFailures, dbTime(now.Add(-maxWebhookFailingFor)),
			"Disabled after 100 failed attempts in a row", "Disabled after failing for 3 days")
		if err != nil {
			return fail("finish webhook attempt", err)
		}
		n, _ := res.RowsAffected()
		disabled = n == 1
		return nil
	})
	return disabled, err
}

// textOf is an endpoint's answer as a text column holds it: invalid UTF-8
// and NUL (which PostgreSQL refuses, leaving the attempt unrecorded and
// the delivery sent again and again) replaced.
func textOf(answer string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(answer, "\uFFFD"), "\x00", "\uFFFD")
}

// responseStart is at most MaxWebhookResponse bytes of body, cut at a
// character, as textOf.
func responseStart(body string) string {
	body = textOf(body)
	if len(body) <= MaxWebhookResponse {
		return body
	}
	body = body[:MaxWebhookResponse]
	for !utf8.ValidString(body) {
		body = body[:len(body)-1]
	}
	return body
}

// WebhookDelivery is one of the workspace endpoint's deliveries with its
// payload and the start of its last answer; ErrNotFound when there is none.
func (s *Store) WebhookDelivery(ctx context.Context, workspaceID, endpointID, id int64) (*WebhookDelivery, error) {
	d := new(WebhookDelivery)
	var code sql.NullInt64
	err := s.read.QueryRowContext(ctx, `
		SELECT d.id, d.endpoint_id, v.uid, v.type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.created_at,
			v.body, d.last_response
		FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
		WHERE d.id = $1 AND d.endpoint_id = $2 AND d.workspace_id = $3`, id, endpointID, workspaceID).Scan(
		&d.ID, &d.EndpointID, &d.EventUID, &d.Type, &d.Status, &d.Attempts, &code, &d.LastError,
		scanTime(&d.NextAttemptAt), scanTime(&d.CreatedAt), &d.Payload, &d.LastResponse)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fail("read webhook delivery", err)
	}
	if code.Valid {
		c := int(code.Int64)
		d.LastStatusCode = &c
	}
	return d, nil
}

// ReleaseWebhookDelivery gives up owner's lease on a delivery it did not
// attempt (the runner is stopping), so it is due again at once.
func (s *Store) ReleaseWebhookDelivery(ctx context.Context, id int64, owner string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2`, id, owner)
	if err != nil {
		return fail("release webhook delivery", err)
	}
	return nil
}

// PruneWebhookEvents deletes the events queued before before, with their
// deliveries, unless one of those is still pending, and returns how many
// it deleted.
func (s *Store) PruneWebhookEvents(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM webhook_events WHERE created_at < $1
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'pending')`,
		dbTime(before))
	if err != nil {
		return 0, fail("prune webhook events", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// WorkspaceOwners returns the workspace's name and its live owners' addresses.
func (s *Store) WorkspaceOwners(ctx context.Context, workspaceID int64) (string, []string, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT w.name, COALESCE(u.username, '') FROM workspaces w
		LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.role = 'owner'
		LEFT JOIN users u ON u.id = m.user_id AND NOT u.is_deleted
		WHERE w.id = $1 ORDER BY m.user_id`, workspaceID)
	if err != nil {
		return "", nil, fail("list workspace owners", err)
	}
	defer rows.Close()
	var name string
	var emails []string
	found := false
	for rows.Next() {
		var email string
		if err := rows.Scan(&name, &email); err != nil {
			return "", nil, fail("list workspace owners", err)
		}
		found = true
		if email != "" {
			emails = append(emails, email)
		}
	}
	if err := rows.Err(); err != nil {
		return "", nil, fail("list workspace owners", err)
	}
	if !found {
		return "", nil, ErrNotFound
	}
	return name, emails, nil
}

// BatchWebhookScans queues the next scan.created batch of every enabled
// endpoint subscribed to it whose last batch is a second old or more: up
// to 100 of its workspace's scans after its cursor, in scan order. Each
// batch and the cursor's move are one transaction, so every scan goes out
// in exactly one batch. It returns how many batches it queued.
func (s *Store) BatchWebhookScans(ctx context.Context, now time.Time) (int, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT e.id, e.workspace_id FROM webhook_endpoints e JOIN webhook_subscriptions x ON x.endpoint_id = e.id
		JOIN workspaces w ON w.id = e.workspace_id
		WHERE x.event_type = 'scan.created' AND e.enabled AND NOT w.is_deleted AND e.scan_batch_after <= $1
		  AND EXISTS (SELECT 1 FROM scan_events v WHERE v.id > e.scan_cursor)
		ORDER BY e.id`, dbTime(now))
	if err != nil {
		return 0, fail("find scan batches", err)
	}
	type endpoint struct{ id, workspace int64 }
	var due []endpoint
	for rows.Next() {
		var e endpoint
		if err := rows.Scan(&e.id, &e.workspace); err != nil {
			rows.Close()
			return 0, fail("find scan batches", err)
		}
		due = append(due, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fail("find scan batches", err)
	}
	queued := 0
	for _, e := range due {
		sent, err := s.batchScans(ctx, e.id, e.workspace, now)
		if err != nil {
			return queued, err
		}
		if sent {
			queued++
		}
	}
	return queued, nil
}

// webhookScan is a scan in a scan.created batch: the columns of scans.csv
// and the code's id.
type webhookScan struct {
	id         int64  // its scan_events id, not sent
	CodeID     int64  `json:"code_id"`
	ShortCode  string `json:"short_code"`
	ScannedAt  string `json:"scanned_at"`
	DeviceType string `json:"device_type"`
	OS         string `json:"os"`
	Browser    string `json:"browser"`
	Referrer   string `json:"referrer"`
	Visitor    string `json:"visitor"`
	IsBot      bool   `json:"is_bot"`
	Country    string `json:"country"`
}

// batchScans queues one batch for the endpoint, reporting whether it had
// scans to send.
func (s *Store) batchScans(ctx context.Context, endpointID, workspaceID int64, now time.Time) (bool, error) {
	sent := false
	err := s.inTx(ctx, "batch scans", func(tx *sql.Tx) error {
		// On PostgreSQL, scan_events ids are drawn before their batch
		// commits, so a lower id may still be invisible. Every writer of the
		// workspace's scans holds its rollup lock until it commits
		// (rollupLock) and draws its ids under it: once this transaction
		// holds the lock, every id drawn for the workspace's scans so far is
		// visible, and every later one is greater than any visible id.
		if err := s.rollupLock(ctx, sqlTx{tx}, []int64{workspaceID}); err != nil {
			return fail("lock the workspace's scans", err)
		}
		var cursor int64
		// Taking the batch's turn locks the endpoint's row: a second
		// instance waits, then finds the turn taken.
		err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET scan_batch_after = $3
			WHERE id = $1 AND enabled AND scan_batch_after <= $2 RETURNING scan_cursor`,
			endpointID, dbTime(now), dbTime(now.Add(webhookScanBatchSpacing))).Scan(&cursor)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fail("batch scans", err)
		}
		var top int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM scan_events`).Scan(&top); err != nil {
			return fail("batch scans", err)
		}
		var scans []webhookScan
		last := cursor
		for range webhookScanWindows {
			if last >= top || len(scans) == maxWebhookScanBatch {
				break
			}
			end := min(top, last+webhookScanWindow)
			found, err := windowScans(ctx, tx, workspaceID, last, end, maxWebhookScanBatch-len(scans))
			if err != nil {
				return fail("batch scans", err)
			}
			scans = append(scans, found...)
			last = end
			if len(scans) == maxWebhookScanBatch {
				last = found[len(found)-1].id // the window may hold more
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET scan_cursor = $2 WHERE id = $1`, endpointID, last); err != nil {
			return fail("batch scans", err)
		}
		if len(scans) == 0 {
			return nil
		}
		sent = true
		return s.queueEvent(ctx, tx, workspaceID, EventScanCreated, map[string]any{"scans": scans}, []int64{endpointID}, now)
	})
	return sent, err
}

// windowScans returns up to limit of the workspace's scans with ids in
// (after, upTo], in id order. The window is read by the primary key
// before the join (MATERIALIZED), whatever the planner estimates.
func windowScans(ctx context.Context, tx *sql.Tx, workspaceID, after, upTo int64, limit int) ([]webhookScan, error) {
	rows, err := tx.QueryContext(ctx, `
		WITH v AS MATERIALIZED (
			SELECT id, dynamic_qr_code_id, scanned_at, device_type, os, browser, referrer, visitor_hash, is_bot, country
			FROM scan_events WHERE id > $1 AND id <= $2)
		SELECT v.id, v.dynamic_qr_code_id, d.short_code, v.scanned_at, v.device_type, v.os, v.browser, v.referrer,
			v.visitor_hash, v.is_bot, v.country
		FROM v JOIN dynamic_qr_codes d ON d.id = v.dynamic_qr_code_id
		WHERE d.workspace_id = $3 ORDER BY v.id LIMIT $4`,
		after, upTo, workspaceID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var scans []webhookScan
	for rows.Next() {
		var w webhookScan
		var at time.Time
		if err := rows.Scan(&w.id, &w.CodeID, &w.ShortCode, scanTime(&at), &w.DeviceType, &w.OS, &w.Browser, &w.Referrer,
			&w.Visitor, &w.IsBot, &w.Country); err != nil {
			return nil, err
		}
		w.ScannedAt = at.UTC().Format(time.RFC3339)
		scans = append(scans, w)
	}
	return scans, rows.Err()
}

// webhookCode is a code in the data of a code.* event: its id as the
// public API names it ("s_{n}" static, "d_{n}" dynamic) and what a
// receiver keeps of it.
type webhookCode struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	Name        string    `json:"name"`
	QRType      string    `json:"qrType,omitempty"`
	ShortCode   string    `json:"shortCode,omitempty"`
	Destination string    `json:"destination,omitempty"`
	IsPaused    bool      `json:"isPaused"`
	CreatedAt   time.Time `json:"createdAt,omitzero"`
	Changed     []string  `json:"changed,omitempty"` // code.updated: the fields that changed
}

func dynamicEventCode(d *DynamicCode) webhookCode {
	return webhookCode{ID: "d_" + strconv.FormatInt(d.ID, 10), Kind: "dynamic", Name: d.Name, QRType: d.QRType,
		ShortCode: d.ShortCode, Destination: d.Destination, IsPaused: d.IsPaused, CreatedAt: d.CreatedAt}
}

func staticEventCode(q *QRCode) webhookCode {
	return webhookCode{ID: "s_" + strconv.FormatInt(q.ID, 10), Kind: "static", Name: q.Name, QRType: q.QRType,
		Destination: q.Content, IsPaused: q.IsPaused, CreatedAt: q.CreatedAt}
}

// codeEvents queues the events of a code's change from before to after:
// code.paused or code.resumed, and code.updated naming the other fields
// that changed (also: changes codeState does not hold).
func (s *Store) codeEvents(ctx context.Context, tx *sql.Tx, workspaceID int64, code webhookCode, before, after codeState, also ...string) error {
	if before.Paused != after.Paused {
		t := map[bool]string{true: EventCodePaused, false: EventCodeResumed}[after.Paused]
		if err := s.EnqueueWebhookEvent(ctx, tx, workspaceID, t, code); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		field   string
		changed bool
	}{
		{"name", before.Name != after.Name}, {"destination", before.Destination != after.Destination},
		{"password", before.Protected != after.Protected}, {"style", before.Style != after.Style},
	} {
		if c.changed {
			code.Changed = append(code.Changed, c.field)
		}
	}
	code.Changed = append(code.Changed, also...)
	if len(code.Changed) == 0 {
		return nil
	}
	return s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeUpdated, code)
}

// codeOrganised queues code.updated for a change of the code's field
// (tags, folder) that its record does not show.
func (s *Store) codeOrganised(ctx context.Context, tx *sql.Tx, workspaceID int64, dynamic bool, id int64, field string) error {
	var code webhookCode
	if dynamic {
		d, err := scanDynamic(tx.QueryRowContext(ctx, `SELECT `+dynamicColumns+` FROM dynamic_qr_codes WHERE id = $1`, id))
		if err != nil {
			return fail("read the changed code", err)
		}
		code = dynamicEventCode(d)
	} else {
		q, err := scanQRCode(tx.QueryRowContext(ctx, `SELECT `+qrCodeColumns+` FROM qr_codes WHERE id = $1`, id))
		if err != nil {
			return fail("read the changed code", err)
		}
		code = staticEventCode(q)
	}
	code.Changed = []string{field}
	return s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeUpdated, code)
}
