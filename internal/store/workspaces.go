package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// Workspaces own the work (issue 22): codes, uploads, bulk jobs, API keys,
// payment products, the subscription, the trial and the scan rollups hang
// off a workspace id, and every method that reads or changes them takes the
// workspace's id where it once took the user's. People are members with a
// role; every user has a personal workspace, made with the account.

// The roles of a member, strongest first.
const (
	RoleOwner  = "owner"
	RoleAdmin  = "admin"
	RoleEditor = "editor"
	RoleViewer = "viewer"
)

var (
	// ErrLastOwner refuses a change that would leave a workspace without an owner.
	ErrLastOwner = errors.New("store: a workspace keeps at least one owner")
	// ErrWrongInvitee refuses an invitation accepted by another address.
	ErrWrongInvitee = errors.New("store: the invitation is for another address")
	// ErrPersonal refuses deleting or leaving a personal workspace.
	ErrPersonal = errors.New("store: a personal workspace cannot be deleted or left")
	// ErrAlreadyMember refuses inviting an address that is already a member's.
	ErrAlreadyMember = errors.New("store: the address is already a member's")
)

// AlreadyInvitedError refuses inviting an address with a pending
// invitation to the workspace; Role is the one it was invited as.
type AlreadyInvitedError struct{ Role string }

func (e *AlreadyInvitedError) Error() string {
	return "store: the address is already invited as " + e.Role
}

// personalName is the name a personal workspace starts with.
const personalName = "Personal"

// Workspace is a workspace as one of its members sees it: Role is theirs.
type Workspace struct {
	ID                   int64
	ClientID             int64
	Name                 string
	Personal             bool
	StripeCustomerID     string
	StripeSubscriptionID string
	SubscriptionStatus   string
	TrialActivated       bool
	TrialStartDate       *time.Time
	TrialEndDate         *time.Time
	CreatedAt            time.Time
	Require2FA           bool // members need TOTP before its session routes (issue 27)
	Role                 string
	AlertEmails          bool // the member gets its alerts by e-mail, if an owner or admin (issue 24)
	// AutoJoinDomain and AutoJoinRole: verified addresses at the domain
	// join as the role when they sign in ("": off; issue 33 item 2).
	AutoJoinDomain, AutoJoinRole string
	EnforceSSO                   bool // members must sign in through its IdP (issue 33 item 3)
}

const workspaceColumns = `
	w.id, w.client_id, w.name, w.personal_user_id IS NOT NULL,
	COALESCE(w.stripe_customer_id, ''), COALESCE(w.stripe_subscription_id, ''), w.subscription_status,
	w.trial_activated, w.trial_start_date, w.trial_end_date, w.created_at, w.require_2fa, m.role, m.alert_emails,
	COALESCE(w.auto_join_domain, ''), COALESCE(w.auto_join_role, ''), w.enforce_sso`

func scanWorkspace(row interface{ Scan(...any) error }) (*Workspace, error) {
	w := new(Workspace)
	err := row.Scan(&w.ID, &w.ClientID, &w.Name, &w.Personal,
		&w.StripeCustomerID, &w.StripeSubscriptionID, &w.SubscriptionStatus,
		&w.TrialActivated, scanNullTime(&w.TrialStartDate), scanNullTime(&w.TrialEndDate), scanTime(&w.CreatedAt), &w.Require2FA, &w.Role, &w.AlertEmails,
		&w.AutoJoinDomain, &w.AutoJoinRole, &w.EnforceSSO)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// memberJoin reads the live workspaces of member $1.
const memberJoin = ` FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
	WHERE m.user_id = $1 AND NOT w.is_deleted`

// createPersonalWorkspace gives a new user their personal workspace, owned
// by them, in the transaction that creates the user.
func createPersonalWorkspace(ctx context.Context, tx *sql.Tx, userID, clientID int64, now time.Time) error {
	var id int64
	err := tx.QueryRowContext(ctx, `
		INSERT INTO workspaces (client_id, name, personal_user_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
		clientID, personalName, userID, dbTime(now)).Scan(&id)
	if err != nil {
		return fail("create personal workspace", err)
	}
	return addMember(ctx, tx, id, userID, RoleOwner, now)
}

func addMember(ctx context.Context, tx *sql.Tx, workspaceID, userID int64, role string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (workspace_id, user_id) DO NOTHING`, workspaceID, userID, role, dbTime(now))
	if err != nil {
		return fail("add member", err)
	}
	return nil
}

// ActiveWorkspace returns the workspace a signed-in session acts on: the one
// the session activated while the user is still a member of it, else the
// user's personal workspace.
func (s *Store) ActiveWorkspace(ctx context.Context, userID int64, sessionID string) (*Workspace, error) {
	row := s.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+memberJoin+`
		AND (w.id = (SELECT workspace_id FROM sessions WHERE id = $2) OR w.personal_user_id = $1)
		ORDER BY CASE WHEN w.personal_user_id IS NULL THEN 0 ELSE 1 END LIMIT 1`, userID, sessionID)
	w, err := scanWorkspace(row)
	if err != nil {
		return nil, fail("fetch active workspace", err)
	}
	return w, nil
}

// PersonalWorkspace returns the user's personal workspace.
func (s *Store) PersonalWorkspace(ctx context.Context, userID int64) (*Workspace, error) {
	w, err := scanWorkspace(s.read.QueryRowContext(ctx,
		`SELECT `+workspaceColumns+memberJoin+` AND w.personal_user_id = $1`, userID))
	if err != nil {
		return nil, fail("fetch personal workspace", err)
	}
	return w, nil
}

// MemberWorkspace returns a live workspace the user is a member of, with
// their role; ErrNotFound for any other.
func (s *Store) MemberWorkspace(ctx context.Context, userID, workspaceID int64) (*Workspace, error) {
	w, err := scanWorkspace(s.read.QueryRowContext(ctx,
		`SELECT `+workspaceColumns+memberJoin+` AND w.id = $2`, userID, workspaceID))
	if err != nil {
		return nil, fail("fetch workspace", err)
	}
	return w, nil
}

// Workspaces returns the user's live workspaces: the personal one first,
// then by name.
func (s *Store) Workspaces(ctx context.Context, userID int64) ([]*Workspace, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+workspaceColumns+memberJoin+`
		ORDER BY CASE WHEN w.personal_user_id IS NULL THEN 1 ELSE 0 END, lower(w.name), w.id`, userID)
	if err != nil {
		return nil, fail("list workspaces", err)
	}
	defer rows.Close()
	list := []*Workspace{}
	for rows.Next() {
		w, err := scanWorkspace(rows)
		if err != nil {
			return nil, fail("list workspaces", err)
		}
		list = append(list, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list workspaces", err)
	}
	return list, nil
}

// CreateWorkspace makes a team workspace of the host's client, owned by
// userID, and returns it.
func (s *Store) CreateWorkspace(ctx context.Context, userID, clientID int64, name string, now time.Time) (*Workspace, error) {
	var id int64
	err := s.inTx(ctx, "create workspace", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO workspaces (client_id, name, created_at) VALUES ($1, $2, $3) RETURNING id`,
			clientID, name, dbTime(now)).Scan(&id)
		if err != nil {
			return fail("create workspace", err)
		}
		if err := addMember(ctx, tx, id, userID, RoleOwner, now); err != nil {
			return err
		}
		return s.audit(ctx, tx, id, "workspace.created", Target{"workspace", id, name}, nil)
	})
	if err != nil {
		return nil, err
	}
	return s.MemberWorkspace(ctx, userID, id)
}

// RenameWorkspace renames a live workspace.
func (s *Store) RenameWorkspace(ctx context.Context, workspaceID int64, name string) error {
	return s.inTx(ctx, "rename workspace", func(tx *sql.Tx) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT name FROM workspaces WHERE id = $1 AND NOT is_deleted`, workspaceID).Scan(&old)
		if err != nil {
			return fail("rename workspace", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET name = $2 WHERE id = $1`, workspaceID, name); err != nil {
			return fail("rename workspace", err)
		}
		return s.audit(ctx, tx, workspaceID, "workspace.renamed", Target{"workspace", workspaceID, name}, change("name", old, name))
	})
}

// SetRequire2FA sets whether the workspace requires its members to have
// TOTP; a change is audited.
func (s *Store) SetRequire2FA(ctx context.Context, workspaceID int64, on bool) error {
	return s.inTx(ctx, "set workspace 2FA requirement", func(tx *sql.Tx) error {
		var name string
		var old bool
		err := tx.QueryRowContext(ctx, `SELECT name, require_2fa FROM workspaces WHERE id = $1 AND NOT is_deleted`,
			workspaceID).Scan(&name, &old)
		if err != nil {
			return fail("set workspace 2FA requirement", err)
		}
		if old == on {
			return nil // nothing changed, nothing to audit
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET require_2fa = $2 WHERE id = $1`, workspaceID, on); err != nil {
			return fail("set workspace 2FA requirement", err)
		}
		return s.audit(ctx, tx, workspaceID, "workspace.require_2fa_changed", Target{"workspace", workspaceID, name}, change("require2fa", old, on))
	})
}

// DeleteWorkspace deletes a team workspace: its codes stop redirecting,
// its GS1 products are deleted (their GTINs stop resolving), its keys stop working, sessions on it fall back to their personal one.
func (s *Store) DeleteWorkspace(ctx context.Context, workspaceID int64, now time.Time) error {
	var codes, gtins []string
	err := s.inTx(ctx, "delete workspace", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE workspaces SET is_deleted = TRUE, deleted_at = $2
			WHERE id = $1 AND NOT is_deleted AND personal_user_id IS NULL`, workspaceID, dbTime(now))
		if err := mustAffect("delete workspace", res, err); err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE sessions SET workspace_id = NULL WHERE workspace_id = $1`,
			`DELETE FROM api_keys WHERE workspace_id = $1`,
			`DELETE FROM workspace_invitations WHERE workspace_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, workspaceID); err != nil {
				return fail("delete workspace", err)
			}
		}
		if codes, err = shortCodes(ctx, tx, `workspace_id = $1`, workspaceID); err != nil {
			return err
		}
		if gtins, err = deleteGS1Products(ctx, tx, `d.workspace_id = $1`, workspaceID); err != nil {
			return err
		}
		return releaseDomains(ctx, tx)
	})
	if err == nil {
		s.redirectsChanged(ctx, codes...)
		s.gs1Changed(ctx, gtins...)
	}
	return err
}

// SetSessionWorkspace makes workspaceID the session's active workspace.
func (s *Store) SetSessionWorkspace(ctx context.Context, sessionID string, workspaceID int64) error {
	res, err := s.write.ExecContext(ctx, `UPDATE sessions SET workspace_id = $2 WHERE id = $1`, sessionID, workspaceID)
	return mustAffect("activate workspace", res, err)
}

// Member is a person in a workspace.
type Member struct {
	UserID   int64
	Email    string
	Role     string
	JoinedAt time.Time
}

// Members returns the workspace's live members, owners first.
func (s *Store) Members(ctx context.Context, workspaceID int64) ([]*Member, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT m.user_id, u.username, m.role, m.joined_at FROM workspace_members m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 AND NOT u.is_deleted
		ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'editor' THEN 2 ELSE 3 END, m.joined_at, m.user_id`,
		workspaceID)
	if err != nil {
		return nil, fail("list members", err)
	}
	defer rows.Close()
	list := []*Member{}
	for rows.Next() {
		m := new(Member)
		if err := rows.Scan(&m.UserID, &m.Email, &m.Role, scanTime(&m.JoinedAt)); err != nil {
			return nil, fail("list members", err)
		}
		list = append(list, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list members", err)
	}
	return list, nil
}

// lockWorkspace locks a live workspace's row until tx ends (PostgreSQL;
// SQLite's single writer already serialises), so that a count checked in
// tx, such as a limit's, is still true when it commits.
func (s *Store) lockWorkspace(ctx context.Context, tx *sql.Tx, workspaceID int64) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM workspaces WHERE id = $1 AND NOT is_deleted`+s.forUpdate(""), workspaceID).Scan(&id)
	if err != nil {
		return fail("lock workspace", err)
	}
	return nil
}

// memberRole locks the workspace's row (PostgreSQL; SQLite's single writer
// already serialises) so that concurrent changes to its members take turns,
// and returns the member's role and address. The owner count each change
// checks is then still true when it commits.
func (s *Store) memberRole(ctx context.Context, tx *sql.Tx, workspaceID, userID int64) (role, email string, err error) {
	if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
		return "", "", err
	}
	err = tx.QueryRowContext(ctx, `
		SELECT m.role, u.username FROM workspace_members m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 AND m.user_id = $2`, workspaceID, userID).Scan(&role, &email)
	if err != nil {
		return "", "", fail("fetch member", err)
	}
	return role, email, nil
}

// otherOwners counts the live owners of the workspace other than userID.
func otherOwners(ctx context.Context, tx *sql.Tx, workspaceID, userID int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `
		SELECT count(*) FROM workspace_members m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 AND m.user_id <> $2 AND m.role = 'owner' AND NOT u.is_deleted`,
		workspaceID, userID).Scan(&n)
	if err != nil {
		return 0, fail("count owners", err)
	}
	return n, nil
}

// SetMemberRole changes a member's role, checked by allow against the
// member's current role inside the transaction (false: ErrForbidden). It
// returns ErrLastOwner when the last owner would lose the role.
func (s *Store) SetMemberRole(ctx context.Context, workspaceID, userID int64, role string, allow func(current string) bool) error {
	return s.inTx(ctx, "change role", func(tx *sql.Tx) error {
		current, email, err := s.memberRole(ctx, tx, workspaceID, userID)
		if err != nil {
			return err
		}
		if !allow(current) {
			return ErrForbidden
		}
		if current == role {
			return nil
		}
		if current == RoleOwner {
			if n, err := otherOwners(ctx, tx, workspaceID, userID); err != nil {
				return err
			} else if n == 0 {
				return ErrLastOwner
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, userID, role); err != nil {
			return fail("change role", err)
		}
		return s.audit(ctx, tx, workspaceID, "member.role_changed", Target{"member", userID, email}, change("role", current, role))
	})
}

// ErrForbidden is a change the caller's role does not allow, found out
// inside the change's transaction.
var ErrForbidden = errors.New("store: not allowed")

// RemoveMember takes a member out of a team workspace (allow as in
// SetMemberRole). Their codes stay the workspace's; sessions on it fall
// back to the personal workspace; the API keys they made there are deleted
// and the invitations they sent that are still pending cancelled (deleted).
// ErrLastOwner when they are its last owner.
func (s *Store) RemoveMember(ctx context.Context, workspaceID, userID int64, allow func(current string) bool) error {
	return s.inTx(ctx, "remove member", func(tx *sql.Tx) error {
		current, email, err := s.memberRole(ctx, tx, workspaceID, userID)
		if err != nil {
			return err
		}
		if !allow(current) {
			return ErrForbidden
		}
		var personal bool
		if err := tx.QueryRowContext(ctx, `SELECT personal_user_id IS NOT NULL FROM workspaces WHERE id = $1`, workspaceID).Scan(&personal); err != nil {
			return fail("remove member", err)
		}
		if personal {
			return ErrPersonal
		}
		if current == RoleOwner {
			if n, err := otherOwners(ctx, tx, workspaceID, userID); err != nil {
				return err
			} else if n == 0 {
				return ErrLastOwner
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID); err != nil {
			return fail("remove member", err)
		}
		details := map[string]any{"role": current}
		// What they left behind stops: their keys and pending invitations.
		for _, q := range []struct{ detail, sql string }{
			{"", `UPDATE sessions SET workspace_id = NULL WHERE workspace_id = $1 AND user_id = $2`},
			{"apiKeysRevoked", `DELETE FROM api_keys WHERE workspace_id = $1 AND user_id = $2`},
			{"invitationsCancelled", `DELETE FROM workspace_invitations WHERE workspace_id = $1 AND invited_by = $2`},
		} {
			res, err := tx.ExecContext(ctx, q.sql, workspaceID, userID)
			if err != nil {
				return fail("remove member", err)
			}
			if n, _ := res.RowsAffected(); q.detail != "" && n > 0 {
				details[q.detail] = n
			}
		}
		return s.audit(ctx, tx, workspaceID, "member.removed", Target{"member", userID, email}, details)
	})
}

// leaveTeams takes a deleted account out of its team workspaces in tx: a
// workspace it was the only owner of passes to its longest-standing other
// member (admins first), so its codes keep working; one with no one left
// is deleted. Its API keys and pending invitations go with it.
func leaveTeams(ctx context.Context, tx *sql.Tx, userID int64, now time.Time) error {
	rows, err := tx.QueryContext(ctx, `
		SELECT m.workspace_id FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.user_id = $1 AND w.personal_user_id IS NULL AND m.role = 'owner'`, userID)
	if err != nil {
		return fail("leave workspaces", err)
	}
	var owned []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fail("leave workspaces", err)
		}
		owned = append(owned, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail("leave workspaces", err)
	}
	for _, ws := range owned {
		n, err := otherOwners(ctx, tx, ws, userID)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE workspace_members SET role = 'owner' WHERE workspace_id = $1 AND user_id = (
				SELECT m.user_id FROM workspace_members m JOIN users u ON u.id = m.user_id
				WHERE m.workspace_id = $1 AND m.user_id <> $2 AND NOT u.is_deleted
				ORDER BY CASE m.role WHEN 'admin' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, m.joined_at, m.user_id LIMIT 1)`,
			ws, userID)
		if err != nil {
			return fail("pass on workspace", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET is_deleted = TRUE, deleted_at = $2 WHERE id = $1`, ws, dbTime(now)); err != nil {
				return fail("delete workspace", err)
			}
		}
	}
	for _, q := range []string{
		`DELETE FROM workspace_members WHERE user_id = $1 AND workspace_id IN (
			SELECT id FROM workspaces WHERE personal_user_id IS NULL)`,
		`DELETE FROM api_keys WHERE user_id = $1`,
		`DELETE FROM workspace_invitations WHERE invited_by = $1`,
	} {
		if _, err := tx.ExecContext(ctx, q, userID); err != nil {
			return fail("leave workspaces", err)
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE workspaces SET is_deleted = TRUE, deleted_at = COALESCE(deleted_at, $2) WHERE personal_user_id = $1`,
		userID, dbTime(now))
	if err != nil {
		return fail("delete personal workspace", err)
	}
	return releaseDomains(ctx, tx)
}

// Invitation is a pending invitation to join a workspace.
type Invitation struct {
	ID          int64
	WorkspaceID int64
	Email       string
	Role        string
	InvitedBy   int64
	ExpiresAt   time.Time
	CreatedAt   time.Time
}

// CreateInvitation saves an invitation whose mailed token hashes to
// tokenHash, and fills in ID.
func (s *Store) CreateInvitation(ctx context.Context, inv *Invitation, tokenHash string) error {
	inv.CreatedAt = normTime(inv.CreatedAt)
	inv.ExpiresAt = normTime(inv.ExpiresAt)
	return s.inTx(ctx, "create invitation", func(tx *sql.Tx) error {
		// Two invitations of one address at once would both find none.
		if err := s.lockWorkspace(ctx, tx, inv.WorkspaceID); err != nil {
			return err
		}
		var role string
		err := tx.QueryRowContext(ctx, `
			SELECT m.role FROM workspace_members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = $1 AND LOWER(u.username) = LOWER($2) AND NOT u.is_deleted`, inv.WorkspaceID, inv.Email).Scan(&role)
		if err == nil {
			return ErrAlreadyMember
		} else if !errors.Is(err, sql.ErrNoRows) {
			return fail("create invitation", err)
		}
		err = tx.QueryRowContext(ctx, `
			SELECT role FROM workspace_invitations WHERE workspace_id = $1 AND LOWER(email) = LOWER($2) AND expires_at > $3
			ORDER BY id DESC LIMIT 1`, inv.WorkspaceID, inv.Email, dbTime(inv.CreatedAt)).Scan(&role)
		if err == nil {
			return &AlreadyInvitedError{Role: role}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return fail("create invitation", err)
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			inv.WorkspaceID, inv.Email, inv.Role, tokenHash, nullIfZero(inv.InvitedBy), dbTime(inv.ExpiresAt), dbTime(inv.CreatedAt)).Scan(&inv.ID)
		if err != nil {
			return fail("create invitation", err)
		}
		return s.audit(ctx, tx, inv.WorkspaceID, "member.invited", Target{"invitation", inv.ID, inv.Email}, map[string]any{"role": inv.Role})
	})
}

// Invitations returns the workspace's pending (unexpired) invitations, newest first.
func (s *Store) Invitations(ctx context.Context, workspaceID int64, now time.Time) ([]*Invitation, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, workspace_id, email, role, COALESCE(invited_by, 0), expires_at, created_at FROM workspace_invitations
		WHERE workspace_id = $1 AND expires_at > $2 ORDER BY id DESC`, workspaceID, dbTime(now))
	if err != nil {
		return nil, fail("list invitations", err)
	}
	defer rows.Close()
	list := []*Invitation{}
	for rows.Next() {
		inv := new(Invitation)
		if err := rows.Scan(&inv.ID, &inv.WorkspaceID, &inv.Email, &inv.Role, &inv.InvitedBy,
			scanTime(&inv.ExpiresAt), scanTime(&inv.CreatedAt)); err != nil {
			return nil, fail("list invitations", err)
		}
		list = append(list, inv)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list invitations", err)
	}
	return list, nil
}

// DeleteInvitation revokes one of the workspace's invitations.
func (s *Store) DeleteInvitation(ctx context.Context, workspaceID, id int64) error {
	return s.deleteAudited(ctx, "workspace_invitations", "email", "invitation", "member.invitation_revoked", workspaceID, id)
}

// InvitationPreview is what an invitation's link may show before it is
// accepted: whose workspace, the role and who sent it.
type InvitationPreview struct {
	WorkspaceName string
	Email         string // the invited address
	Role          string
	InvitedBy     string // the sender's name, else their address; "" once they are gone
	ExpiresAt     time.Time
}

// PreviewInvitation reads the unexpired invitation to a live workspace
// whose token hashes to tokenHash; ErrNotFound when there is none.
func (s *Store) PreviewInvitation(ctx context.Context, tokenHash string, now time.Time) (*InvitationPreview, error) {
	p := new(InvitationPreview)
	err := s.read.QueryRowContext(ctx, `
		SELECT w.name, i.email, i.role, COALESCE(CASE WHEN u.is_deleted THEN '' ELSE COALESCE(NULLIF(TRIM(u.first_name || ' ' || u.last_name), ''), u.username) END, ''),
			i.expires_at
		FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users u ON u.id = i.invited_by
		WHERE i.token_hash = $1 AND i.expires_at > $2 AND NOT w.is_deleted`, tokenHash, dbTime(now)).
		Scan(&p.WorkspaceName, &p.Email, &p.Role, &p.InvitedBy, scanTime(&p.ExpiresAt))
	if err != nil {
		return nil, fail("preview invitation", err)
	}
	return p, nil
}

// AcceptInvitation joins the user to the workspace of the unexpired
// invitation whose token hashes to tokenHash, using the token up. The
// user's address must equal the invited one (ignoring case); otherwise
// ErrWrongInvitee and the invitation stays. The token was mailed to that
// address, so holding it proves it: an unconfirmed address is confirmed
// (u.EmailVerified too), as its confirmation link would. A member already
// in the workspace keeps their role. It returns the workspace's id.
func (s *Store) AcceptInvitation(ctx context.Context, tokenHash string, u *User, now time.Time) (int64, error) {
	var workspaceID int64
	err := s.inTx(ctx, "accept invitation", func(tx *sql.Tx) error {
		var id int64
		var email, role string
		err := tx.QueryRowContext(ctx, `
			SELECT i.id, i.workspace_id, i.email, i.role FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id
			WHERE i.token_hash = $1 AND i.expires_at > $2 AND NOT w.is_deleted`, tokenHash, dbTime(now)).Scan(&id, &workspaceID, &email, &role)
		if err != nil {
			return fail("accept invitation", err)
		}
		if !strings.EqualFold(strings.TrimSpace(u.Username), email) {
			return ErrWrongInvitee
		}
		if !u.EmailVerified {
			res, err := tx.ExecContext(ctx, `UPDATE users SET email_verified = TRUE WHERE id = $1 AND NOT is_deleted`, u.ID)
			if err := mustAffect("accept invitation", res, err); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM workspace_invitations WHERE id = $1`, id)
		if err := mustAffect("accept invitation", res, err); err != nil {
			return err
		}
		if err := addMember(ctx, tx, workspaceID, u.ID, role, now); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, "member.joined", Target{"member", u.ID, u.Username}, map[string]any{"role": role})
	})
	if err == nil {
		u.EmailVerified = true
	}
	return workspaceID, err
}

// personalByDefault sets *workspaceID, when 0, to the personal workspace of
// userID: where a code made outside a workspace (tools, imports) belongs.
func personalByDefault(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, workspaceID *int64, userID int64) error {
	if *workspaceID != 0 || userID == 0 {
		return nil
	}
	err := db.QueryRowContext(ctx, `SELECT id FROM workspaces WHERE personal_user_id = $1`, userID).Scan(workspaceID)
	if err != nil {
		return fail("find personal workspace", err)
	}
	return nil
}

// InvitedAddress reports whether email has a pending invitation (not
// expired) to a live workspace: what an invite-only instance lets register.
func (s *Store) InvitedAddress(ctx context.Context, email string, now time.Time) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `
		SELECT count(*) FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id
		WHERE lower(i.email) = lower($1) AND i.expires_at > $2 AND NOT w.is_deleted`, email, dbTime(now)).Scan(&n)
	if err != nil {
		return false, fail("check invitations", err)
	}
	return n > 0, nil
}
