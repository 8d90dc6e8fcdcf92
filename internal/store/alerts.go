package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
)

// Alerts (issue 24 item 5). The link checker (internal/alerts) claims the
// live dynamic codes whose last check is an interval old, checks their
// destinations and records each code's result here; a code's health moves
// in one transaction per result, under its row lock on PostgreSQL, and
// only the instance that claimed the code in this round may move it, so
// however many instances run, one failure streak raises one alert. An
// alert is a row of alerts, written in the same transaction as the change
// that raised it and as its webhook event (EmitFunc); its mail is sent
// from that row afterwards (ClaimAlertMail), so a restart loses none.

// The health of a code's destinations.
const (
	HealthUnknown = "unknown" // not checked yet
	HealthOK      = "ok"
	HealthDown    = "down" // FailuresToAlert checks in a row found one destination failing
)

// The alert types: also the webhook event types that carry them.
const (
	AlertDestinationDown      = "alert.destination_down"
	AlertDestinationRecovered = "alert.destination_recovered"
	AlertScansDropped         = "alert.scans_dropped"
)

const (
	// FailuresToAlert is how many checks in a row must find a destination
	// failing before its code is down: one failed check may be a blip.
	FailuresToAlert = 2
	// DropWindow is the days a code's usual scans are averaged over.
	DropWindow = 28
	// DropFloor is the least daily average, in scans, that a drop is
	// judged against: below it a quiet day is no news.
	DropFloor = 20
	// DropShare is the share of its average, in percent, under which a
	// day's scans are a drop.
	DropShare = 20
	// DropEvery is the least time between two drop alerts of one code.
	DropEvery = 7 * 24 * time.Hour
)

// The states of an alert's mail.
const (
	AlertMailPending = "pending"
	AlertMailSending = "sending" // left so by a sender that died: not sent again
	AlertMailSent    = "sent"
	AlertMailFailed  = "failed"
)

// maxReason bounds a stored failure reason, in bytes.
const maxReason = 300

// Health is what the link checker last found of a code's destinations.
type Health struct {
	Status    string     // HealthUnknown, HealthOK or HealthDown
	Reason    string     // why URL fails, e.g. "HTTP 404"; "" when none fails
	URL       string     // the failing destination
	Since     *time.Time // the first failed check of the streak; nil when none fails
	CheckedAt *time.Time // the last check; nil before the first
}

// EmitFunc adds a webhook event to tx: the shape of the webhooks' store
// method, so the server passes that in.
type EmitFunc func(ctx context.Context, tx *sql.Tx, workspaceID int64, eventType string, data any) error

// Alert is one raised alert.
type Alert struct {
	ID          int64
	WorkspaceID int64
	CodeID      int64
	Type        string
	Data        AlertData
	CreatedAt   time.Time
}

// AlertData is an alert's webhook event data (docs/API.md "Alerts"), and
// what its mail tells.
type AlertData struct {
	CodeID    int64  `json:"codeId"`
	ShortCode string `json:"shortCode"`
	Name      string `json:"name"`
	// Destination down and recovered: the URL, why it failed and since when.
	Destination string     `json:"destination,omitempty"`
	Reason      string     `json:"reason,omitempty"`
	Since       *time.Time `json:"since,omitempty"`
	// Scans dropped: the UTC day, its human scans and the daily average of
	// the DropWindow days before.
	Day          string   `json:"day,omitempty"`
	Scans        *int64   `json:"scans,omitempty"`
	DailyAverage *float64 `json:"dailyAverage,omitempty"`
}

// LinkTarget is a claimed code and the destinations to check.
type LinkTarget struct {
	CodeID      int64
	WorkspaceID int64
	URLs        []string // destination, rules, split and afterEnd, each once
	claimed     time.Time
}

// LinkResult is a check of a code's destinations: OK, or the first one
// that failed and why.
type LinkResult struct {
	OK          bool
	URL, Reason string
}

// ClaimLinkChecks claims up to limit live, unpaused dynamic codes last
// checked at or before due (or never) for a check at now, and returns
// them. The UPDATE's repeated condition makes the claim exclusive: on
// PostgreSQL an instance racing for the same row re-checks it after the
// first commits and finds it checked.
func (s *Store) ClaimLinkChecks(ctx context.Context, now, due time.Time, limit int) ([]LinkTarget, error) {
	now = normTime(now)
	rows, err := s.write.QueryContext(ctx, `
		UPDATE dynamic_qr_codes SET health_checked_at = $1
		WHERE id IN (SELECT d.id FROM dynamic_qr_codes d JOIN workspaces w ON w.id = d.workspace_id
		             WHERE NOT d.is_deleted AND NOT d.is_paused AND NOT w.is_deleted
		               AND (d.health_checked_at IS NULL OR d.health_checked_at <= $2)
		             ORDER BY d.id LIMIT $3)
		  AND NOT is_deleted AND (health_checked_at IS NULL OR health_checked_at <= $2)
		RETURNING id, workspace_id, destination, routing`, dbTime(now), dbTime(due), limit)
	if err != nil {
		return nil, fail("claim link checks", err)
	}
	defer rows.Close()
	var list []LinkTarget
	for rows.Next() {
		t := LinkTarget{claimed: now}
		var dest string
		var routing *Routing
		if err := rows.Scan(&t.CodeID, &t.WorkspaceID, &dest, scanRouting(&routing)); err != nil {
			return nil, fail("claim link checks", err)
		}
		t.URLs = destinations(dest, routing)
		list = append(list, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("claim link checks", err)
	}
	return list, nil
}

// destinations lists the URLs a code may send a scan to, each once.
func destinations(dest string, r *Routing) []string {
	urls := []string{dest}
	if r != nil {
		for _, rule := range r.Rules {
			urls = append(urls, rule.Destination)
		}
		for _, v := range r.Split {
			urls = append(urls, v.Destination)
		}
		if r.AfterEnd != nil {
			urls = append(urls, *r.AfterEnd)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, u := range urls {
		if u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// RecordLinkCheck moves the claimed code's health by r, and raises
// alert.destination_down when the same destination failed FailuresToAlert
// checks in a row, or alert.destination_recovered at the first success
// after — unless the code's alerts are muted. It returns the alert raised,
// or nil. A code deleted, or claimed again since t was (a check that
// outlived its interval), is left alone.
func (s *Store) RecordLinkCheck(ctx context.Context, t LinkTarget, r LinkResult, now time.Time, emit EmitFunc) (*Alert, error) {
	var raised *Alert
	err := s.inTx(ctx, "record link check", func(tx *sql.Tx) error {
		var (
			h        Health
			failures int
			muted    bool
			data     = AlertData{CodeID: t.CodeID}
		)
		err := tx.QueryRowContext(ctx, `
			SELECT health_status, health_reason, health_url, health_failures, health_since, health_checked_at,
				alerts_muted, name, short_code
			FROM dynamic_qr_codes WHERE id = $1 AND NOT is_deleted`+s.forUpdate(""), t.CodeID).Scan(
			&h.Status, &h.Reason, &h.URL, &failures, scanNullTime(&h.Since), scanNullTime(&h.CheckedAt),
			&muted, &data.Name, &data.ShortCode)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return fail("record link check", err)
		}
		if h.CheckedAt == nil || !h.CheckedAt.Equal(t.claimed) {
			return nil
		}
		alert := ""
		if r.OK {
			if h.Status == HealthDown {
				alert = AlertDestinationRecovered
				data.Destination, data.Reason, data.Since = h.URL, h.Reason, h.Since
			}
			h = Health{Status: HealthOK}
			failures = 0
		} else {
			if h.URL != r.URL || failures == 0 {
				since := normTime(now)
				failures, h.URL, h.Since = 0, r.URL, &since
			}
			failures++
			h.Reason = truncate(strings.ToValidUTF8(r.Reason, "?"), maxReason)
			if h.Status != HealthDown && failures >= FailuresToAlert {
				h.Status = HealthDown
				alert = AlertDestinationDown
				data.Destination, data.Reason, data.Since = h.URL, h.Reason, h.Since
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE dynamic_qr_codes SET health_status = $2, health_reason = $3, health_url = $4,
			health_failures = $5, health_since = $6 WHERE id = $1`,
			t.CodeID, h.Status, h.Reason, h.URL, failures, dbTimePtr(h.Since))
		if err != nil {
			return fail("record link check", err)
		}
		if alert == "" || muted {
			return nil
		}
		raised, err = s.raiseAlert(ctx, tx, t.WorkspaceID, alert, data, now, emit)
		return err
	})
	return raised, err
}

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// raiseAlert saves an alert, its mail pending, and emits its webhook event.
func (s *Store) raiseAlert(ctx context.Context, tx *sql.Tx, workspaceID int64, typ string, data AlertData, now time.Time, emit EmitFunc) (*Alert, error) {
	a := &Alert{WorkspaceID: workspaceID, CodeID: data.CodeID, Type: typ, Data: data, CreatedAt: normTime(now)}
	body, err := json.Marshal(data)
	if err != nil {
		return nil, fail("raise alert", err)
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO alerts (workspace_id, dynamic_qr_code_id, type, data, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, workspaceID, data.CodeID, typ, string(body), dbTime(a.CreatedAt)).Scan(&a.ID)
	if err != nil {
		return nil, fail("raise alert", err)
	}
	if emit != nil {
		if err := emit(ctx, tx, workspaceID, typ, data); err != nil {
			return nil, fail("emit alert event", err)
		}
	}
	return a, nil
}

// RaiseScanDrops raises alert.scans_dropped for every live, unpaused,
// unmuted code whose human scans on the last closed UTC day (the day
// before now's, or before the first open day if that is older) are under
// DropShare percent of its daily average over the DropWindow days before,
// where that average is at least DropFloor, and which had no drop alert
// in the last DropEvery. It reads the daily rollups, not the events. Each
// alert takes the code's drop_alerted_at with a conditional UPDATE, so
// instances running it at once raise it once.
func (s *Store) RaiseScanDrops(ctx context.Context, now time.Time, emit EmitFunc) ([]*Alert, error) {
	open, err := s.openDay(ctx, sqlTx{s.read})
	if err != nil {
		return nil, fail("find scan drops", err)
	}
	last := utcDay(now).AddDate(0, 0, -1)
	if closed := open.AddDate(0, 0, -1); closed.Before(last) {
		last = closed
	}
	first := last.AddDate(0, 0, -DropWindow)
	type drop struct {
		workspaceID  int64
		data         AlertData
		recent, base int64
	}
	var drops []drop
	err = s.eachRow(ctx, "find scan drops", `
		SELECT d.id, d.workspace_id, d.name, d.short_code,
			SUM(CASE WHEN c.day = $2 THEN c.scans ELSE 0 END), SUM(CASE WHEN c.day < $2 THEN c.scans ELSE 0 END)
		FROM dynamic_qr_codes d
		JOIN workspaces w ON w.id = d.workspace_id
		JOIN scan_code_days c ON c.dynamic_qr_code_id = d.id AND NOT c.is_bot AND c.day >= $1 AND c.day <= $2
		WHERE NOT d.is_deleted AND NOT d.is_paused AND NOT d.alerts_muted AND NOT w.is_deleted
		  AND (d.drop_alerted_at IS NULL OR d.drop_alerted_at <= $3)
		GROUP BY d.id, d.workspace_id, d.name, d.short_code
		HAVING SUM(CASE WHEN c.day < $2 THEN c.scans ELSE 0 END) >= $4
		   AND 100 * $5 * SUM(CASE WHEN c.day = $2 THEN c.scans ELSE 0 END) < $6 * SUM(CASE WHEN c.day < $2 THEN c.scans ELSE 0 END)
		ORDER BY d.id`,
		[]any{dbTime(first), dbTime(last), dbTime(now.Add(-DropEvery)), DropFloor * DropWindow, DropWindow, DropShare},
		func(rows *sql.Rows) error {
			var d drop
			if err := rows.Scan(&d.data.CodeID, &d.workspaceID, &d.data.Name, &d.data.ShortCode, &d.recent, &d.base); err != nil {
				return err
			}
			drops = append(drops, d)
			return nil
		})
	if err != nil {
		return nil, err
	}
	var raised []*Alert
	for _, d := range drops {
		d.data.Day = last.Format(time.DateOnly)
		avg := float64(d.base) / DropWindow
		d.data.Scans, d.data.DailyAverage = &d.recent, &avg
		err := s.inTx(ctx, "raise scan drop", func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE dynamic_qr_codes SET drop_alerted_at = $2
				WHERE id = $1 AND NOT alerts_muted AND (drop_alerted_at IS NULL OR drop_alerted_at <= $3)`,
				d.data.CodeID, dbTime(now), dbTime(now.Add(-DropEvery)))
			if err != nil {
				return fail("raise scan drop", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // another instance raised it
			}
			a, err := s.raiseAlert(ctx, tx, d.workspaceID, AlertScansDropped, d.data, now, emit)
			if err == nil {
				raised = append(raised, a)
			}
			return err
		})
		if err != nil {
			return raised, err
		}
	}
	return raised, nil
}

// ClaimAlertMail marks the oldest alert whose mail is pending 'sending'
// and returns it, or ErrNotFound. One conditional UPDATE: one instance
// takes each alert's mail.
func (s *Store) ClaimAlertMail(ctx context.Context) (*Alert, error) {
	a := new(Alert)
	var data string
	err := s.write.QueryRowContext(ctx, `
		UPDATE alerts SET mail_status = 'sending'
		WHERE id = (SELECT id FROM alerts WHERE mail_status = 'pending' ORDER BY id LIMIT 1) AND mail_status = 'pending'
		RETURNING id, workspace_id, dynamic_qr_code_id, type, data, created_at`).Scan(
		&a.ID, &a.WorkspaceID, &a.CodeID, &a.Type, &data, scanTime(&a.CreatedAt))
	if err != nil {
		return nil, fail("claim alert mail", err)
	}
	if err := json.Unmarshal([]byte(data), &a.Data); err != nil {
		return nil, fail("claim alert mail", err)
	}
	return a, nil
}

// FinishAlertMail records how an alert's mail ended: AlertMailSent or
// AlertMailFailed.
func (s *Store) FinishAlertMail(ctx context.Context, id int64, status string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE alerts SET mail_status = $2 WHERE id = $1`, id, status)
	if err != nil {
		return fail("finish alert mail", err)
	}
	return nil
}

// alertRecipients lists the addresses of workspace $1's live owners and
// admins who have not turned alert e-mails off.
const alertRecipients = `SELECT ` + liveAddress + ` FROM workspace_members m
		JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 AND m.role IN ('owner', 'admin') AND m.alert_emails AND NOT u.is_deleted
		ORDER BY u.id`

// AlertRecipients returns the addresses alerts of the workspace are mailed
// to (alertRecipients).
func (s *Store) AlertRecipients(ctx context.Context, workspaceID int64) ([]string, error) {
	var list []string
	err := s.eachRow(ctx, "list alert recipients", alertRecipients, []any{workspaceID}, func(rows *sql.Rows) error {
		var email string
		err := rows.Scan(&email)
		list = append(list, email)
		return err
	})
	return list, err
}

// SetAlertEmails sets whether the member gets the workspace's alerts by
// e-mail; a change is audited.
func (s *Store) SetAlertEmails(ctx context.Context, workspaceID, userID int64, on bool) error {
	return s.inTx(ctx, "set alert e-mail choice", func(tx *sql.Tx) error {
		var old bool
		var email string
		err := tx.QueryRowContext(ctx, `SELECT m.alert_emails, `+liveAddress+` FROM workspace_members m
			JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND m.user_id = $2`+s.forUpdate(" OF m"), // as in updateDynamic
			workspaceID, userID).Scan(&old, &email)
		if err != nil {
			return fail("set alert e-mail choice", err)
		}
		if old == on {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE workspace_members SET alert_emails = $3 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, userID, on)
		if err != nil {
			return fail("set alert e-mail choice", err)
		}
		return s.audit(ctx, tx, workspaceID, "member.alert_emails_changed", Target{"member", userID, email}, change("alertEmails", old, on))
	})
}

// SetDynamicAlertsMuted mutes or unmutes the alerts of the workspace's code.
func (s *Store) SetDynamicAlertsMuted(ctx context.Context, workspaceID, id int64, muted bool) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "set alerts muted", workspaceID, id, `alerts_muted = $3`, muted)
}
