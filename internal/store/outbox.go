package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// The mail outbox (issue 32 item 5): mail queued by a request or a
// background check, in its transaction when it has one, and sent after by
// internal/mail/outbox. One conditional UPDATE claims each mail, so any
// number of instances may send; a mail claimed by a sender that died stays
// 'sending' and is not sent again (the SMTP server may have taken it).

// QueuedMail is a mail waiting in the outbox: its template (internal/mail
// templates) and the template's fields.
type QueuedMail struct {
	ID       int64
	To       string
	Template string
	Fields   map[string]any
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// QueueMail adds a mail to the outbox.
func (s *Store) QueueMail(ctx context.Context, to, template string, fields map[string]any, now time.Time) error {
	return queueMail(ctx, s.write, to, template, fields, now)
}

// queueMail adds a mail to the outbox in q (the store, or a transaction).
func queueMail(ctx context.Context, q execer, to, template string, fields map[string]any, now time.Time) error {
	body, err := json.Marshal(fields)
	if err != nil {
		return fail("queue mail", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mail_outbox (recipient, template, fields, created_at) VALUES ($1, $2, $3, $4)`,
		to, template, string(body), dbTime(normTime(now)))
	if err != nil {
		return fail("queue mail", err)
	}
	return nil
}

// ClaimQueuedMail marks the oldest pending mail 'sending' and returns it,
// or ErrNotFound.
func (s *Store) ClaimQueuedMail(ctx context.Context) (*QueuedMail, error) {
	m := new(QueuedMail)
	var fields string
	err := s.write.QueryRowContext(ctx, `
		UPDATE mail_outbox SET status = 'sending'
		WHERE id = (SELECT id FROM mail_outbox WHERE status = 'pending' ORDER BY id LIMIT 1) AND status = 'pending'
		RETURNING id, recipient, template, fields`).Scan(&m.ID, &m.To, &m.Template, &fields)
	if err != nil {
		return nil, fail("claim queued mail", err)
	}
	if err := json.Unmarshal([]byte(fields), &m.Fields); err != nil {
		return nil, fail("claim queued mail", err)
	}
	return m, nil
}

// FinishQueuedMail records how a claimed mail ended: a sent one leaves
// the outbox, a failed one stays, marked 'failed'.
func (s *Store) FinishQueuedMail(ctx context.Context, id int64, sent bool) error {
	var err error
	if sent {
		_, err = s.write.ExecContext(ctx, `DELETE FROM mail_outbox WHERE id = $1`, id)
	} else {
		_, err = s.write.ExecContext(ctx, `UPDATE mail_outbox SET status = 'failed' WHERE id = $1`, id)
	}
	if err != nil {
		return fail("finish queued mail", err)
	}
	return nil
}

// PruneQueuedMail deletes the mail that failed, or that a sender that died
// left 'sending', queued before before, and returns how many it deleted:
// their fields (a new-device notice's address and browser) are kept no
// longer than needed to look into the failure. Pending mail stays.
func (s *Store) PruneQueuedMail(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM mail_outbox WHERE status <> 'pending' AND created_at < $1`, dbTime(normTime(before)))
	if err != nil {
		return 0, fail("prune queued mail", err)
	}
	return res.RowsAffected()
}
