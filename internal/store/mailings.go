package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
)

// The kinds of admin mailing.
const (
	MailingNewsletter = "newsletter" // to every live newsletter subscription
	MailingWelcome    = "welcome"    // to every live user
	MailingScans      = "scans"      // to owners of dynamic codes: their scans of the last 7 days
	MailingPaused     = "paused"     // to owners of paused codes: a reminder
)

// The states of one recipient row. A row goes pending → sending → sent or
// failed, or pending → skipped when the address unsubscribed or its
// account was deleted in the meantime. A row still 'sending' when its
// mailing is claimed again was in flight when the sender died: the SMTP
// server may have accepted it, so it becomes 'interrupted' and is never
// sent again (at most once per address).
const (
	RecipientPending     = "pending"
	RecipientSending     = "sending"
	RecipientSent        = "sent"
	RecipientFailed      = "failed"
	RecipientSkipped     = "skipped"
	RecipientInterrupted = "interrupted"
)

// ScanReportWindow is how far back a scan notification counts scans.
const ScanReportWindow = 7 * 24 * time.Hour

// Mailing is one admin send and its progress.
type Mailing struct {
	ID           int64
	Kind         string
	Subject      string // newsletters only
	Content      string // newsletters only
	IncludeStats bool   // newsletters only
	CreatedBy    int64
	Status       string // queued, sending or done
	CreatedAt    time.Time
	FinishedAt   *time.Time
	Counts       RecipientCounts
}

// RecipientCounts counts a mailing's recipient rows by state.
type RecipientCounts struct {
	Total, Pending, Sending, Sent, Failed, Skipped, Interrupted int
}

// MailingRecipient is one address of a mailing with its own template
// fields (e.g. the owner's codes and their scans).
type MailingRecipient struct {
	ID     int64
	Email  string
	UserID int64 // 0 = a newsletter subscription
	Fields map[string]any
	Status string
}

// CreateMailing saves m and one recipient row per address its kind goes
// to, leaving out unsubscribed addresses and deleted accounts, in one
// transaction. It fills in m.ID, m.Status, m.CreatedAt and m.Counts.
func (s *Store) CreateMailing(ctx context.Context, m *Mailing, now time.Time) error {
	m.CreatedAt, m.Status = normTime(now), "queued"
	return s.inTx(ctx, "create mailing", func(tx *sql.Tx) error {
		recipients, err := mailingAudience(ctx, tx, m.Kind, now)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO mailings (kind, subject, content, include_stats, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			m.Kind, m.Subject, m.Content, m.IncludeStats, nullIfZero(m.CreatedBy), dbTime(m.CreatedAt)).Scan(&m.ID)
		if err != nil {
			return fail("create mailing", err)
		}
		insert, err := tx.PrepareContext(ctx, `
			INSERT INTO mailing_recipients (mailing_id, email, user_id, fields) VALUES ($1, $2, $3, $4)
			ON CONFLICT (mailing_id, email) DO NOTHING`)
		if err != nil {
			return fail("add mailing recipients", err)
		}
		defer insert.Close()
		m.Counts = RecipientCounts{}
		for _, r := range recipients {
			fields, err := json.Marshal(r.Fields)
			if err != nil {
				return fail("add mailing recipients", err)
			}
			res, err := insert.ExecContext(ctx, m.ID, r.Email, nullIfZero(r.UserID), string(fields))
			if err != nil {
				return fail("add mailing recipients", err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				m.Counts.Total++
				m.Counts.Pending++
			}
		}
		return nil
	})
}

// liveAddress is a user's address for mail, lower-cased.
const liveAddress = `lower(COALESCE(NULLIF(u.email, ''), u.username))`

// mailingAudience lists the recipients of a new mailing of kind.
func mailingAudience(ctx context.Context, tx *sql.Tx, kind string, now time.Time) ([]MailingRecipient, error) {
	const notUnsubscribed = ` NOT EXISTS (SELECT 1 FROM mail_unsubscribes x WHERE x.email = `
	var query string
	var args []any
	switch kind {
	case MailingNewsletter:
		// A subscription from before its address's account was deleted
		// ended with the account (subscriptions older than that rule).
		query = `SELECT lower(n.email), 0, '', '', '', 0 FROM newsletter_subscriptions n
			WHERE NOT n.is_deleted AND` + notUnsubscribed + `lower(n.email))
			AND NOT EXISTS (SELECT 1 FROM users u WHERE u.is_deleted AND ` + liveAddress + ` = lower(n.email)
			                AND u.deleted_at >= n.subscribed_at)
			ORDER BY n.id`
	case MailingWelcome:
		query = `SELECT ` + liveAddress + `, u.id, u.first_name, '', '', 0 FROM users u
			WHERE NOT u.is_deleted AND` + notUnsubscribed + liveAddress + `) ORDER BY u.id`
	case MailingScans, MailingPaused:
		// One row per code; the rows of one owner are folded into one recipient.
		query = `SELECT ` + liveAddress + `, u.id, u.first_name, d.name, d.short_code,
				(SELECT COUNT(*) FROM scan_events e
				 WHERE e.dynamic_qr_code_id = d.id AND e.scanned_at >= $1 AND NOT e.is_bot)
			FROM dynamic_qr_codes d JOIN users u ON u.id = d.user_id
			WHERE NOT d.is_deleted AND NOT u.is_deleted AND` + notUnsubscribed + liveAddress + `)`
		if kind == MailingPaused {
			query += ` AND d.is_paused`
		}
		query += ` ORDER BY u.id, d.id`
		args = append(args, dbTime(now.Add(-ScanReportWindow)))
	default:
		return nil, fail("create mailing", ErrNotFound)
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fail("list mailing recipients", err)
	}
	defer rows.Close()
	var list []MailingRecipient
	for rows.Next() {
		var (
			email, firstName, codeName, shortCode string
			userID, scans                         int64
		)
		if err := rows.Scan(&email, &userID, &firstName, &codeName, &shortCode, &scans); err != nil {
			return nil, fail("list mailing recipients", err)
		}
		if kind != MailingScans && kind != MailingPaused {
			list = append(list, MailingRecipient{Email: email, UserID: userID, Fields: map[string]any{"FirstName": firstName}})
			continue
		}
		if n := len(list); n == 0 || list[n-1].UserID != userID {
			list = append(list, MailingRecipient{Email: email, UserID: userID,
				Fields: map[string]any{"FirstName": firstName, "Codes": []map[string]any{}, "TotalScans": int64(0)}})
		}
		r := &list[len(list)-1]
		r.Fields["Codes"] = append(r.Fields["Codes"].([]map[string]any), map[string]any{"Name": codeName, "ShortCode": shortCode, "Scans": scans})
		r.Fields["TotalScans"] = r.Fields["TotalScans"].(int64) + scans
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list mailing recipients", err)
	}
	return list, nil
}

// ClaimMailing gives owner the lease, until now+lease, on the oldest
// unfinished mailing that no live lease holds, or returns ErrNotFound. Rows
// the previous holder left 'sending' become 'interrupted' in the same
// transaction.
func (s *Store) ClaimMailing(ctx context.Context, owner string, now time.Time, lease time.Duration) (*Mailing, error) {
	var id int64
	err := s.inTx(ctx, "claim mailing", func(tx *sql.Tx) error {
		// The outer conditions repeat the inner ones: on PostgreSQL a second
		// instance racing for the same row re-checks them after the first
		// commits, and then finds the lease taken.
		err := tx.QueryRowContext(ctx, `
			UPDATE mailings SET status = 'sending', lease_owner = $1, lease_until = $3
			WHERE id = (SELECT id FROM mailings WHERE status <> 'done' AND (lease_until IS NULL OR lease_until < $2)
			            ORDER BY id LIMIT 1)
			  AND status <> 'done' AND (lease_until IS NULL OR lease_until < $2)
			RETURNING id`, owner, dbTime(now), dbTime(now.Add(lease))).Scan(&id)
		if err != nil {
			return fail("claim mailing", err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE mailing_recipients SET status = 'interrupted', updated_at = $2
			WHERE mailing_id = $1 AND status = 'sending'`, id, dbTime(now))
		if err != nil {
			return fail("claim mailing", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Mailing(ctx, id)
}

// RenewMailingLease extends owner's lease on the mailing, or returns
// ErrNotFound when owner no longer holds it.
func (s *Store) RenewMailingLease(ctx context.Context, id int64, owner string, now time.Time, lease time.Duration) error {
	res, err := s.write.ExecContext(ctx, `UPDATE mailings SET lease_until = $4
		WHERE id = $1 AND lease_owner = $2 AND lease_until >= $3 AND status <> 'done'`,
		id, owner, dbTime(now), dbTime(now.Add(lease)))
	return mustAffect("renew mailing lease", res, err)
}

// ReleaseMailing gives up owner's lease so another instance may resume the
// mailing at once.
func (s *Store) ReleaseMailing(ctx context.Context, id int64, owner string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE mailings SET lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2`, id, owner)
	if err != nil {
		return fail("release mailing", err)
	}
	return nil
}

// NextRecipient marks the mailing's next pending row 'sending', and
// returns it, while owner holds the lease. A row whose address has
// unsubscribed, or whose account or subscription is deleted, is marked
// 'skipped' instead and returned with that status. ErrNotFound means no
// pending row is left, or the lease is lost.
func (s *Store) NextRecipient(ctx context.Context, mailingID int64, owner string, now time.Time) (*MailingRecipient, error) {
	r := new(MailingRecipient)
	var fields string
	err := s.write.QueryRowContext(ctx, `
		UPDATE mailing_recipients AS r SET updated_at = $3, status = CASE
			WHEN EXISTS (SELECT 1 FROM mail_unsubscribes x WHERE x.email = r.email)
			  OR EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id AND u.is_deleted)
			  OR (r.user_id IS NULL AND NOT EXISTS (
			        SELECT 1 FROM newsletter_subscriptions n WHERE lower(n.email) = r.email AND NOT n.is_deleted))
			THEN 'skipped' ELSE 'sending' END
		WHERE r.id = (SELECT id FROM mailing_recipients WHERE mailing_id = $1 AND status = 'pending' ORDER BY id LIMIT 1)
		  AND r.status = 'pending'
		  AND EXISTS (SELECT 1 FROM mailings m WHERE m.id = $1 AND m.lease_owner = $2 AND m.lease_until >= $3)
		RETURNING id, email, COALESCE(user_id, 0), CAST(fields AS TEXT), status`,
		mailingID, owner, dbTime(now)).Scan(&r.ID, &r.Email, &r.UserID, &fields, &r.Status)
	if err != nil {
		return nil, fail("take next mailing recipient", err)
	}
	if err := json.Unmarshal([]byte(fields), &r.Fields); err != nil {
		return nil, fail("take next mailing recipient", err)
	}
	return r, nil
}

// FinishRecipient records how a 'sending' row ended: RecipientSent or
// RecipientFailed with the reason. A row no longer 'sending' (another
// instance found it interrupted) is left as it is.
func (s *Store) FinishRecipient(ctx context.Context, id int64, status, reason string, now time.Time) error {
	if len(reason) > 500 {
		reason = reason[:500]
	}
	_, err := s.write.ExecContext(ctx, `UPDATE mailing_recipients SET status = $2, error = $3, updated_at = $4
		WHERE id = $1 AND status = 'sending'`, id, status, strings.ToValidUTF8(reason, "?"), dbTime(now))
	if err != nil {
		return fail("finish mailing recipient", err)
	}
	return nil
}

// FinishMailing marks the mailing done when owner holds it and no row is
// pending or in flight.
func (s *Store) FinishMailing(ctx context.Context, id int64, owner string, now time.Time) error {
	res, err := s.write.ExecContext(ctx, `
		UPDATE mailings SET status = 'done', finished_at = $3, lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2
		  AND NOT EXISTS (SELECT 1 FROM mailing_recipients WHERE mailing_id = $1 AND status IN ('pending', 'sending'))`,
		id, owner, dbTime(now))
	return mustAffect("finish mailing", res, err)
}

const mailingColumns = `m.id, m.kind, m.subject, m.content, m.include_stats, COALESCE(m.created_by, 0),
	m.status, m.created_at, m.finished_at,
	COUNT(r.id),
	COUNT(CASE WHEN r.status = 'pending' THEN 1 END), COUNT(CASE WHEN r.status = 'sending' THEN 1 END),
	COUNT(CASE WHEN r.status = 'sent' THEN 1 END), COUNT(CASE WHEN r.status = 'failed' THEN 1 END),
	COUNT(CASE WHEN r.status = 'skipped' THEN 1 END), COUNT(CASE WHEN r.status = 'interrupted' THEN 1 END)`

const mailingGroupBy = ` GROUP BY m.id, m.kind, m.subject, m.content, m.include_stats, m.created_by,
	m.status, m.created_at, m.finished_at`

func scanMailing(row interface{ Scan(...any) error }) (*Mailing, error) {
	m := new(Mailing)
	c := &m.Counts
	err := row.Scan(&m.ID, &m.Kind, &m.Subject, &m.Content, &m.IncludeStats, &m.CreatedBy,
		&m.Status, scanTime(&m.CreatedAt), scanNullTime(&m.FinishedAt),
		&c.Total, &c.Pending, &c.Sending, &c.Sent, &c.Failed, &c.Skipped, &c.Interrupted)
	return m, err
}

// Mailing returns a mailing with its progress.
func (s *Store) Mailing(ctx context.Context, id int64) (*Mailing, error) {
	row := s.read.QueryRowContext(ctx, `SELECT `+mailingColumns+`
		FROM mailings m LEFT JOIN mailing_recipients r ON r.mailing_id = m.id WHERE m.id = $1`+mailingGroupBy, id)
	m, err := scanMailing(row)
	if err != nil {
		return nil, fail("fetch mailing", err)
	}
	return m, nil
}

// RecentMailings returns the latest mailings, newest first.
func (s *Store) RecentMailings(ctx context.Context, limit int) ([]*Mailing, error) {
	var list []*Mailing
	err := s.eachRow(ctx, "list mailings", `SELECT `+mailingColumns+`
		FROM mailings m LEFT JOIN mailing_recipients r ON r.mailing_id = m.id`+mailingGroupBy+`
		ORDER BY m.id DESC LIMIT $1`, []any{limit}, func(rows *sql.Rows) error {
		m, err := scanMailing(rows)
		list = append(list, m)
		return err
	})
	return list, err
}

// Unsubscribe stops bulk mail to email from now on, and ends its newsletter
// subscription. Unsubscribing twice keeps the first time.
func (s *Store) Unsubscribe(ctx context.Context, email string, now time.Time) error {
	email = strings.ToLower(strings.TrimSpace(email))
	return s.inTx(ctx, "unsubscribe", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mail_unsubscribes (email, unsubscribed_at) VALUES ($1, $2)
			ON CONFLICT (email) DO NOTHING`, email, dbTime(now)); err != nil {
			return fail("unsubscribe", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE newsletter_subscriptions SET is_deleted = TRUE, deleted_at = $2
			WHERE lower(email) = $1 AND NOT is_deleted`, email, dbTime(now)); err != nil {
			return fail("unsubscribe", err)
		}
		return nil
	})
}

// IsUnsubscribed reports whether email asked for no more bulk mail.
func (s *Store) IsUnsubscribed(ctx context.Context, email string) (bool, error) {
	var yes bool
	err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM mail_unsubscribes WHERE email = $1)`,
		strings.ToLower(strings.TrimSpace(email))).Scan(&yes)
	if err != nil {
		return false, fail("check unsubscribe", err)
	}
	return yes, nil
}

// NewsletterStats are the admin panel's counts (spec 02 §3).
type NewsletterStats struct {
	TotalUsers, NewUsers, TotalQRCodes, NewQRCodes int
}

// NewsletterStats counts live users and live codes (static and dynamic),
// in all and created since since.
func (s *Store) NewsletterStats(ctx context.Context, since time.Time) (*NewsletterStats, error) {
	st := new(NewsletterStats)
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM users WHERE NOT is_deleted),
		(SELECT COUNT(*) FROM users WHERE NOT is_deleted AND created_at >= $1),
		(SELECT COUNT(*) FROM qr_codes WHERE NOT is_deleted) + (SELECT COUNT(*) FROM dynamic_qr_codes WHERE NOT is_deleted),
		(SELECT COUNT(*) FROM qr_codes WHERE NOT is_deleted AND created_at >= $1)
		  + (SELECT COUNT(*) FROM dynamic_qr_codes WHERE NOT is_deleted AND created_at >= $1)`,
		dbTime(since)).Scan(&st.TotalUsers, &st.NewUsers, &st.TotalQRCodes, &st.NewQRCodes)
	if err != nil {
		return nil, fail("count newsletter stats", err)
	}
	return st, nil
}

func nullIfZero(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}
