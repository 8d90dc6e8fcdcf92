package store

import (
	"context"
	"database/sql"
	"time"
)

// User is an account. Username is the e-mail address the user signed up
// with; it is unique among live accounts regardless of case.
type User struct {
	ID                  int64
	ClientID            int64
	Username            string
	PasswordHash        string // "" = no password (Google-only or password-less account)
	FirstName, LastName string
	Email               string
	EmailVerified       bool   // a link mailed to Email was followed, or Google vouched for it
	GoogleID            string // "" = not linked; unique when set
	// The subscription and trial an account starts with (a trial signed up
	// for, an import): CreateUser gives them to its personal workspace,
	// which keeps them from then on (Workspace; since migration 0017 these
	// columns of users are not updated).
	StripeCustomerID     string
	StripeSubscriptionID string
	SubscriptionStatus   string // "free" unless a subscription says otherwise
	TrialActivated       bool
	TrialStartDate       *time.Time
	TrialEndDate         *time.Time
	IsAdmin              bool
	IsDeleted            bool
	DeletedAt            *time.Time
	CreatedAt            time.Time
	// ManagedBy is the workspace that made the account (its SCIM or SAML):
	// it may end the account's sessions and suspend it (0: none).
	ManagedBy int64
	Suspended bool // by its managing workspace: no sign-in until reactivated
}

// userColumns matches scanUser; the optional text columns read NULL as "".
const userColumns = `
	u.id, u.client_id, u.username, COALESCE(u.password, ''),
	u.first_name, u.last_name, u.email, u.email_verified, COALESCE(u.google_id, ''),
	COALESCE(u.stripe_customer_id, ''), COALESCE(u.stripe_subscription_id, ''),
	u.subscription_status, u.trial_activated, u.trial_start_date, u.trial_end_date,
	u.is_admin, u.is_deleted, u.deleted_at, u.created_at,
	COALESCE(u.managed_by_workspace_id, 0), u.suspended_at IS NOT NULL`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*User, error) {
	u := new(User)
	dest := []any{
		&u.ID, &u.ClientID, &u.Username, &u.PasswordHash,
		&u.FirstName, &u.LastName, &u.Email, &u.EmailVerified, &u.GoogleID,
		&u.StripeCustomerID, &u.StripeSubscriptionID,
		&u.SubscriptionStatus, &u.TrialActivated, scanNullTime(&u.TrialStartDate), scanNullTime(&u.TrialEndDate),
		&u.IsAdmin, &u.IsDeleted, scanNullTime(&u.DeletedAt), scanTime(&u.CreatedAt),
		&u.ManagedBy, &u.Suspended,
	}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return nil, err
	}
	return u, nil
}

// CreateUser saves a new user, with their personal workspace, and fills in ID, CreatedAt (now, unless set),
// ClientID (1 if 0) and SubscriptionStatus ("free" if ""). It returns
// ErrConflict when a live account already has the username (in any case)
// or the Google ID.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	if u.ClientID == 0 {
		u.ClientID = 1
	}
	if u.SubscriptionStatus == "" {
		u.SubscriptionStatus = "free"
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = time.Now()
	}
	u.CreatedAt = normTime(u.CreatedAt)
	const query = `
		INSERT INTO users (
			client_id, username, password, first_name, last_name, email, google_id,
			stripe_customer_id, stripe_subscription_id, subscription_status,
			trial_activated, trial_start_date, trial_end_date,
			is_admin, is_deleted, deleted_at, created_at, email_verified, managed_by_workspace_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
		RETURNING id`
	return s.inTx(ctx, "create user", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, query,
			u.ClientID, u.Username, nullIfEmpty(u.PasswordHash), u.FirstName, u.LastName, u.Email,
			nullIfEmpty(u.GoogleID), nullIfEmpty(u.StripeCustomerID), nullIfEmpty(u.StripeSubscriptionID),
			u.SubscriptionStatus, u.TrialActivated, dbTimePtr(u.TrialStartDate), dbTimePtr(u.TrialEndDate),
			u.IsAdmin, u.IsDeleted, dbTimePtr(u.DeletedAt), dbTime(u.CreatedAt), u.EmailVerified, nullID(u.ManagedBy),
		).Scan(&u.ID)
		if err != nil {
			return fail("create user", err)
		}
		if err := createPersonalWorkspace(ctx, tx, u.ID, u.ClientID, u.CreatedAt); err != nil {
			return err
		}
		// A trial (or subscription) the account starts with is its
		// personal workspace's.
		_, err = tx.ExecContext(ctx, `UPDATE workspaces SET trial_activated = $2, trial_start_date = $3, trial_end_date = $4,
			subscription_status = $5, stripe_customer_id = $6, stripe_subscription_id = $7
			WHERE personal_user_id = $1`, u.ID, u.TrialActivated, dbTimePtr(u.TrialStartDate), dbTimePtr(u.TrialEndDate),
			u.SubscriptionStatus, nullIfEmpty(u.StripeCustomerID), nullIfEmpty(u.StripeSubscriptionID))
		if err != nil {
			return fail("create user", err)
		}
		return nil
	})
}

// User returns the user with the given id, soft-deleted or not.
func (s *Store) User(ctx context.Context, id int64) (*User, error) {
	row := s.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1`, id)
	u, err := scanUser(row)
	if err != nil {
		return nil, fail("fetch user", err)
	}
	return u, nil
}

// UserByUsername returns the live (not soft-deleted) user whose username
// matches, ignoring case.
func (s *Store) UserByUsername(ctx context.Context, username string) (*User, error) {
	const where = ` FROM users u WHERE lower(u.username) = lower($1) AND NOT u.is_deleted`
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+where, username))
	if err != nil {
		return nil, fail("fetch user by username", err)
	}
	return u, nil
}

// UserByGoogleID returns the live user linked to the Google account.
func (s *Store) UserByGoogleID(ctx context.Context, googleID string) (*User, error) {
	if googleID == "" {
		return nil, fail("fetch user by Google ID", ErrNotFound)
	}
	const where = ` FROM users u WHERE u.google_id = $1 AND NOT u.is_deleted`
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+where, googleID))
	if err != nil {
		return nil, fail("fetch user by Google ID", err)
	}
	return u, nil
}

// LinkGoogleID links a live user to a Google account ("" unlinks). It
// returns ErrConflict when another live user is linked to it.
func (s *Store) LinkGoogleID(ctx context.Context, userID int64, googleID string) error {
	res, err := s.write.ExecContext(ctx,
		`UPDATE users SET google_id = $2 WHERE id = $1 AND NOT is_deleted`, userID, nullIfEmpty(googleID))
	return mustAffect("link Google ID", res, err)
}

// SetAdmin grants or revokes the admin role of a live user.
func (s *Store) SetAdmin(ctx context.Context, username string, admin bool) error {
	res, err := s.write.ExecContext(ctx,
		`UPDATE users SET is_admin = $2 WHERE lower(username) = lower($1) AND NOT is_deleted`, username, admin)
	return mustAffect("set admin", res, err)
}

// UpdateUserName changes a live user's first and last name.
func (s *Store) UpdateUserName(ctx context.Context, id int64, firstName, lastName string) error {
	res, err := s.write.ExecContext(ctx,
		`UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1 AND NOT is_deleted`,
		id, firstName, lastName)
	return mustAffect("update user name", res, err)
}

// SoftDeleteUser marks the user deleted at now, keeping the row but
// signing it out everywhere and ending the newsletter subscription of its
// address. Their personal workspace is deleted with them (its codes stop
// redirecting; its GS1 products, and those of the teams its codes stop
// with, are deleted); the team workspaces they belong to keep their codes working
// (leaveTeams). Deleting a deleted user keeps the first deletion time.
func (s *Store) SoftDeleteUser(ctx context.Context, id int64, now time.Time) error {
	var codes, gtins []string
	err := s.inTx(ctx, "delete user", func(tx *sql.Tx) error {
		var err error
		if codes, err = shortCodes(ctx, tx, stoppedWithUser, id); err != nil {
			return err
		}
		if gtins, err = deleteGS1Products(ctx, tx, stoppedWithUser, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx,
			`UPDATE users SET is_deleted = TRUE, deleted_at = COALESCE(deleted_at, $2) WHERE id = $1`,
			id, dbTime(now))
		if err := mustAffect("delete user", res, err); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, id); err != nil {
			return fail("delete user's sessions", err)
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE newsletter_subscriptions SET is_deleted = TRUE, deleted_at = $2
			WHERE NOT is_deleted AND lower(email) = (SELECT `+liveAddress+` FROM users u WHERE u.id = $1)`,
			id, dbTime(now)); err != nil {
			return fail("end deleted user's newsletter subscription", err)
		}
		return leaveTeams(ctx, tx, id, now)
	})
	if err == nil {
		s.redirectsChanged(ctx, codes...)
		s.gs1Changed(ctx, gtins...)
	}
	return err
}

// ClaimWithGoogle gives an unverified live account to the Google identity
// that proved its address: it links googleID, marks the address verified,
// and drops what an unproven holder may have set up (the password, every
// session and every mailed link). It returns ErrConflict when another live
// user is linked to googleID.
func (s *Store) ClaimWithGoogle(ctx context.Context, userID int64, googleID string) error {
	return s.inTx(ctx, "claim account with Google", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE users SET google_id = $2, email_verified = TRUE, password = NULL
			WHERE id = $1 AND NOT is_deleted`, userID, googleID)
		if err := mustAffect("claim account with Google", res, err); err != nil {
			return err
		}
		return endAccess(ctx, tx, userID, "")
	})
}

// SetPassword replaces a live user's password and ends every session of the
// user except keepSession (the one making the change; "" ends all) and
// every mailed set-password link.
func (s *Store) SetPassword(ctx context.Context, userID int64, passwordHash, keepSession string) error {
	return s.inTx(ctx, "set password", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE users SET password = $2 WHERE id = $1 AND NOT is_deleted`, userID, passwordHash)
		if err := mustAffect("set password", res, err); err != nil {
			return err
		}
		return endAccess(ctx, tx, userID, keepSession)
	})
}

// endAccess deletes the user's sessions but keepSession ("" = all) and all
// of the user's mailed links.
func endAccess(ctx context.Context, tx *sql.Tx, userID int64, keepSession string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND id <> $2`, userID, keepSession); err != nil {
		return fail("end sessions", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM password_tokens WHERE user_id = $1`, userID); err != nil {
		return fail("delete mailed links", err)
	}
	return nil
}

// shortCodes returns the short codes, deleted or not, of the dynamic codes
// that match where (a condition on dynamic_qr_codes d, with args).
func shortCodes(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT d.short_code FROM dynamic_qr_codes d WHERE `+where, args...)
	if err != nil {
		return nil, fail("list short codes", err)
	}
	defer rows.Close()
	var codes []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fail("list short codes", err)
		}
		codes = append(codes, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list short codes", err)
	}
	return codes, nil
}

// stoppedWithUser is the condition (for shortCodes) on the dynamic codes
// that deleting user $1 stops: those of their personal workspace and of the
// team workspaces no one else is in.
const stoppedWithUser = `d.workspace_id IN (SELECT w.id FROM workspaces w
	WHERE w.personal_user_id = $1 OR (w.personal_user_id IS NULL
		AND w.id IN (SELECT workspace_id FROM workspace_members WHERE user_id = $1)
		AND NOT EXISTS (SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = w.id AND m.user_id <> $1 AND NOT u.is_deleted)))`

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, action string, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fail(action, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fail(action, err)
	}
	return nil
}

// The two ways a write transaction takes its turn. On SQLite there is
// nothing to do: the one writer connection begins every transaction with
// BEGIN IMMEDIATE, so write transactions already run one at a time. On
// PostgreSQL transactions run side by side, and one that reads what it is
// about to change, or counts against a limit, locks first:
//
//   - forUpdate locks the rows a SELECT reads, until commit;
//   - xactLock takes an advisory lock for what has no row to lock (the
//     first event of a customer, a quota's total), until commit.

// forUpdate is the locking clause to end a SELECT with: " FOR UPDATE" and
// then more (" OF m", " SKIP LOCKED") on PostgreSQL, nothing on SQLite.
func (s *Store) forUpdate(more string) string {
	if s.dialect != Postgres {
		return ""
	}
	return " FOR UPDATE" + more
}

// xactLock runs pg_advisory_xact_lock(key) with args in tx on PostgreSQL
// (key is the SQL of the lock's key, one bigint or two int4); on SQLite
// it does nothing.
func (s *Store) xactLock(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, key string, args ...any) error {
	if s.dialect != Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+key+`)`, args...)
	return err
}
