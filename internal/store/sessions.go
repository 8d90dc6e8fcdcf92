package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// sessionWriteInterval is how stale LastSeenAt must be before SessionUser
// writes: one write a minute per active session instead of one per request.
const sessionWriteInterval = time.Minute

// Session is a signed-in browser.
type Session struct {
	ID         string // SHA-256 hex of the cookie token; the token itself is never stored
	UserID     int64
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	// Where and with what the session started, for the sessions list.
	IP, UserAgent, Country string
	// SSOWorkspaceID is the workspace whose IdP the session signed in
	// through (0: none); that workspace is then its active one.
	SSOWorkspaceID int64
}

// CreateSession saves a session. CreatedAt defaults to now and LastSeenAt
// to CreatedAt; ExpiresAt is required.
func (s *Store) CreateSession(ctx context.Context, sess *Session) error {
	if sess.ExpiresAt.IsZero() {
		return fail("create session", errors.New("ExpiresAt is not set"))
	}
	if sess.CreatedAt.IsZero() {
		sess.CreatedAt = time.Now()
	}
	if sess.LastSeenAt.IsZero() {
		sess.LastSeenAt = sess.CreatedAt
	}
	sess.CreatedAt = normTime(sess.CreatedAt)
	sess.LastSeenAt = normTime(sess.LastSeenAt)
	sess.ExpiresAt = normTime(sess.ExpiresAt)
	_, err := s.write.ExecContext(ctx, `
		INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, ip, user_agent, country, sso_workspace_id, workspace_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
		sess.ID, sess.UserID, dbTime(sess.CreatedAt), dbTime(sess.LastSeenAt), dbTime(sess.ExpiresAt),
		sess.IP, sess.UserAgent, sess.Country, nullID(sess.SSOWorkspaceID))
	if err != nil {
		return fail("create session", err)
	}
	return nil
}

// SessionUser returns the user signed in by the session. It returns
// ErrNotFound when there is no such session, when it expired (ExpiresAt <=
// now) or when the user was deleted. Otherwise it slides the session:
// ExpiresAt becomes now+idle and LastSeenAt now, written at most once a
// minute per session; slid reports whether this call wrote it (of
// concurrent calls, one does).
func (s *Store) SessionUser(ctx context.Context, id string, now time.Time, idle time.Duration) (u *User, slid bool, err error) {
	var lastSeen time.Time
	row := s.read.QueryRowContext(ctx, `
		SELECT `+userColumns+`, s.last_seen_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.id = $1 AND s.expires_at > $2 AND NOT u.is_deleted AND u.suspended_at IS NULL`,
		id, dbTime(now))
	u, err = scanUser(row, scanTime(&lastSeen))
	if err != nil {
		return nil, false, fail("fetch session", err)
	}
	if now.Sub(lastSeen) < sessionWriteInterval {
		return u, false, nil
	}
	// The last_seen_at condition makes concurrent requests (on any
	// instance) write once.
	res, err := s.write.ExecContext(ctx, `
		UPDATE sessions SET last_seen_at = $2, expires_at = $3
		WHERE id = $1 AND last_seen_at <= $4`,
		id, dbTime(now), dbTime(now.Add(idle)), dbTime(now.Add(-sessionWriteInterval)))
	if err != nil {
		return nil, false, fail("extend session", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, false, fail("extend session", err)
	}
	return u, n == 1, nil
}

// DeleteSession removes the session; removing an unknown one is not an error.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	if _, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1`, id); err != nil {
		return fail("delete session", err)
	}
	return nil
}

// DeleteExpiredSessions removes the sessions that expired at or before now
// and reports how many there were.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, dbTime(now))
	if err != nil {
		return 0, fail("delete expired sessions", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fail("delete expired sessions", err)
	}
	return n, nil
}

// UserSessions returns the user's unexpired sessions, the most recently
// seen first.
func (s *Store) UserSessions(ctx context.Context, userID int64, now time.Time) ([]Session, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, user_id, created_at, last_seen_at, expires_at, ip, user_agent, country
		FROM sessions WHERE user_id = $1 AND expires_at > $2
		ORDER BY last_seen_at DESC, created_at DESC`, userID, dbTime(now))
	if err != nil {
		return nil, fail("list sessions", err)
	}
	defer rows.Close()
	var list []Session
	for rows.Next() {
		var x Session
		if err := rows.Scan(&x.ID, &x.UserID, scanTime(&x.CreatedAt), scanTime(&x.LastSeenAt), scanTime(&x.ExpiresAt),
			&x.IP, &x.UserAgent, &x.Country); err != nil {
			return nil, fail("list sessions", err)
		}
		list = append(list, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list sessions", err)
	}
	return list, nil
}

// DeleteUserSession ends one session of the user; ErrNotFound when the
// user has no such session (another user's id included).
func (s *Store) DeleteUserSession(ctx context.Context, userID int64, id string) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1 AND user_id = $2`, id, userID)
	return mustAffect("delete session", res, err)
}

// DeleteOtherSessions ends every session of the user but keep and reports
// how many it ended.
func (s *Store) DeleteOtherSessions(ctx context.Context, userID int64, keep string) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND id <> $2`, userID, keep)
	if err != nil {
		return 0, fail("delete other sessions", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fail("delete other sessions", err)
	}
	return n, nil
}

// RememberDevice records that the user signed in from the device (the
// SHA-256 of its cookie) and reports whether the device is new to the
// user while the user had signed in from another one before: the sign-ins
// worth telling the user about (not an account's first).
func (s *Store) RememberDevice(ctx context.Context, userID int64, deviceHash string, now time.Time) (newDevice bool, err error) {
	err = s.inTx(ctx, "remember device", func(tx *sql.Tx) error {
		var others int
		if err := tx.QueryRowContext(ctx,
			`SELECT COUNT(*) FROM known_devices WHERE user_id = $1 AND device_hash <> $2`, userID, deviceHash).Scan(&others); err != nil {
			return fail("count known devices", err)
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO known_devices (user_id, device_hash, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, device_hash) DO NOTHING`, userID, deviceHash, dbTime(now))
		if err != nil {
			return fail("remember device", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fail("remember device", err)
		}
		newDevice = n == 1 && others > 0
		return nil
	})
	return newDevice, err
}
