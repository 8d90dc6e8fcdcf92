package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// SCIM 2.0 provisioning per team workspace (issue 33 item 4): the IdP's
// bearer token, the accounts it provisions (SCIM Users) and its groups,
// whose names map to roles as single sign-on's do. internal/scim speaks
// the protocol.

// scimActor is who the audit log names for a workspace's SCIM client: a
// credential of the workspace, like an API key.
var scimActor = Actor{Type: "api_key", Email: "SCIM provisioning"}

// ErrSCIMTaken refuses a second SCIM User for an account, or a second
// group of one name, in a workspace.
var ErrSCIMTaken = errors.New("store: already provisioned")

// SetSCIMToken makes tokenHash the workspace's one SCIM token, replacing
// any other.
func (s *Store) SetSCIMToken(ctx context.Context, workspaceID int64, tokenHash string, now time.Time) error {
	return s.inTx(ctx, "set SCIM token", func(tx *sql.Tx) error {
		var personal bool
		var name string
		err := tx.QueryRowContext(ctx, `SELECT personal_user_id IS NOT NULL, name FROM workspaces WHERE id = $1 AND NOT is_deleted`, workspaceID).Scan(&personal, &name)
		switch {
		case err != nil:
			return fail("set SCIM token", err)
		case personal:
			return ErrSSOPersonal
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO scim_tokens (workspace_id, token_hash, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (workspace_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
			workspaceID, tokenHash, dbTime(now))
		if err != nil {
			return fail("set SCIM token", err)
		}
		return s.audit(ctx, tx, workspaceID, "workspace.scim_token_created", Target{"workspace", workspaceID, name}, nil)
	})
}

// SCIMTokenWorkspace is the live workspace whose SCIM token hashes to
// tokenHash; ErrNotFound for none.
func (s *Store) SCIMTokenWorkspace(ctx context.Context, tokenHash string) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT t.workspace_id FROM scim_tokens t JOIN workspaces w ON w.id = t.workspace_id
		WHERE t.token_hash = $1 AND NOT w.is_deleted`, tokenHash).Scan(&id)
	return id, failOrNil("read SCIM token", err)
}

// SCIMUser is an account a workspace's IdP provisions.
type SCIMUser struct {
	UserID                int64
	UserName              string // the account's e-mail
	GivenName, FamilyName string
	ExternalID            string
	Active                bool
	Created, Updated      time.Time
}

const scimUserColumns = `u.id, u.username, u.first_name, u.last_name, p.external_id, p.active, p.created_at, p.updated_at
	FROM scim_users p JOIN users u ON u.id = p.user_id`

func scanSCIMUser(row interface{ Scan(...any) error }) (*SCIMUser, error) {
	u := new(SCIMUser)
	err := row.Scan(&u.UserID, &u.UserName, &u.GivenName, &u.FamilyName, &u.ExternalID, &u.Active, scanTime(&u.Created), scanTime(&u.Updated))
	return u, err
}

// SCIMUsers lists the workspace's SCIM Users by id, limit from offset,
// those whose field ("userName" or "externalId") equals value when field
// is set, and how many match in all.
func (s *Store) SCIMUsers(ctx context.Context, workspaceID int64, field, value string, offset, limit int) ([]*SCIMUser, int, error) {
	where := `p.workspace_id = $1 AND NOT u.is_deleted`
	args := []any{workspaceID}
	switch field {
	case "userName":
		where += ` AND u.username = $2`
		args = append(args, strings.ToLower(value))
	case "externalId":
		where += ` AND p.external_id = $2`
		args = append(args, value)
	}
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM scim_users p JOIN users u ON u.id = p.user_id WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fail("list SCIM users", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+scimUserColumns+` WHERE `+where+` ORDER BY u.id LIMIT `+itoa(int64(limit))+` OFFSET `+itoa(int64(offset)), args...)
	if err != nil {
		return nil, 0, fail("list SCIM users", err)
	}
	defer rows.Close()
	var out []*SCIMUser
	for rows.Next() {
		u, err := scanSCIMUser(rows)
		if err != nil {
			return nil, 0, fail("list SCIM users", err)
		}
		out = append(out, u)
	}
	return out, total, failOrNil("list SCIM users", rows.Err())
}

// SCIMUserOf returns the workspace's SCIM User of the account.
func (s *Store) SCIMUserOf(ctx context.Context, workspaceID, userID int64) (*SCIMUser, error) {
	u, err := scanSCIMUser(s.read.QueryRowContext(ctx, `SELECT `+scimUserColumns+`
		WHERE p.workspace_id = $1 AND p.user_id = $2 AND NOT u.is_deleted`, workspaceID, userID))
	return u, failOrNil("read SCIM user", err)
}

// ProvisionSCIMUser makes the account a SCIM User of the workspace and a
// member with role (an active one), or answers ErrSCIMTaken when it is one
// already.
func (s *Store) ProvisionSCIMUser(ctx context.Context, workspaceID int64, u *SCIMUser, role string, now time.Time) error {
	ctx = WithActor(ctx, scimActor)
	return s.inTx(ctx, "provision SCIM user", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO scim_users (workspace_id, user_id, external_id, active, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)`, workspaceID, u.UserID, u.ExternalID, u.Active, dbTime(now))
		if isUniqueViolation(err) {
			return ErrSCIMTaken
		}
		if err != nil {
			return fail("provision SCIM user", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1 AND managed_by_workspace_id = $4`,
			u.UserID, u.GivenName, u.FamilyName, workspaceID); err != nil {
			return fail("provision SCIM user", err)
		}
		if !u.Active {
			return nil
		}
		return s.joinAs(ctx, tx, workspaceID, u.UserID, u.UserName, role, now, "SCIM")
	})
}

// joinAs makes the user a member with role, or sets a member's role to it
// (an owner stays an owner), audited as by.
func (s *Store) joinAs(ctx context.Context, tx *sql.Tx, workspaceID, userID int64, email, role string, now time.Time, by string) error {
	var current string
	err := tx.QueryRowContext(ctx, `SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`+s.forUpdate(""),
		workspaceID, userID).Scan(&current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if err := addMember(ctx, tx, workspaceID, userID, role, now); err != nil {
			return err
		}
		return s.audit(ctx, tx, workspaceID, "member.joined", Target{"user", userID, email}, map[string]any{"role": role, "by": by})
	case err != nil:
		return fail("join workspace", err)
	case current == role || current == RoleOwner:
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID, role); err != nil {
		return fail("join workspace", err)
	}
	return s.audit(ctx, tx, workspaceID, "member.role_changed", Target{"user", userID, email},
		map[string]any{"role": map[string]any{"before": current, "after": role}, "by": by})
}

// UpdateSCIMUser replaces the SCIM User's external id, names (the names
// only of an account the workspace manages: it does not rename others')
// and active state (u.Active), in one transaction: a change of active turns
// the User on (a member again with role) or off as SetSCIMUserActive does.
// On any error (ErrLastOwner, ErrNotFound for a User deleted meanwhile, a
// failed write) none of it is kept.
func (s *Store) UpdateSCIMUser(ctx context.Context, workspaceID int64, u *SCIMUser, role string, now time.Time) error {
	ctx = WithActor(ctx, scimActor)
	return s.inTx(ctx, "update SCIM user", func(tx *sql.Tx) error {
		// Its row locked first, as SetSCIMUserActive's UPDATE does, so that
		// a concurrent change of active is seen (and applied) once.
		var was bool
		err := tx.QueryRowContext(ctx, `SELECT active FROM scim_users WHERE workspace_id = $1 AND user_id = $2`+s.forUpdate(""),
			workspaceID, u.UserID).Scan(&was)
		if err != nil {
			return fail("update SCIM user", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE scim_users SET external_id = $3, active = $4, updated_at = $5 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, u.UserID, u.ExternalID, u.Active, dbTime(now)); err != nil {
			return fail("update SCIM user", err)
		}
		if was != u.Active {
			if err := s.applyActive(ctx, tx, workspaceID, u.UserID, u.Active, role, now); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1 AND managed_by_workspace_id = $4`,
			u.UserID, u.GivenName, u.FamilyName, workspaceID)
		return failOrNil("update SCIM user", err)
	})
}

// SetSCIMUserActive turns the SCIM User on (a member again with role) or
// off. Off removes the membership, the keys they made in the workspace and
// the workspace from their sessions (RemoveMember's effects); an account
// the workspace manages (it made it, or its address is at a domain the
// workspace has proven) also loses every session and is suspended until
// turned on again. A workspace never ends another's sessions or locks it.
func (s *Store) SetSCIMUserActive(ctx context.Context, workspaceID, userID int64, active bool, role string, now time.Time) error {
	ctx = WithActor(ctx, scimActor)
	return s.inTx(ctx, "set SCIM user active", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE scim_users SET active = $3, updated_at = $4 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, userID, active, dbTime(now))
		if err := mustAffect("set SCIM user active", res, err); err != nil {
			return err
		}
		return s.applyActive(ctx, tx, workspaceID, userID, active, role, now)
	})
}

func (s *Store) applyActive(ctx context.Context, tx *sql.Tx, workspaceID, userID int64, active bool, role string, now time.Time) error {
	var email string
	var managedBy sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT username, managed_by_workspace_id FROM users WHERE id = $1`, userID).Scan(&email, &managedBy); err != nil {
		return fail("set SCIM user active", err)
	}
	managed := managedBy.Valid && managedBy.Int64 == workspaceID
	if !managed {
		_, domain, _ := strings.Cut(email, "@")
		var n int
		if err := tx.QueryRowContext(ctx, provenDomains, workspaceID, domain, "%."+domain).Scan(&n); err != nil {
			return fail("set SCIM user active", err)
		}
		managed = n > 0
	}
	if active {
		if managed {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET suspended_at = NULL WHERE id = $1`, userID); err != nil {
				return fail("reactivate user", err)
			}
		}
		return s.joinAs(ctx, tx, workspaceID, userID, email, role, now, "SCIM")
	}
	if err := s.leave(ctx, tx, workspaceID, userID, email); err != nil {
		return err
	}
	if !managed {
		return nil
	}
	for _, q := range []string{`UPDATE users SET suspended_at = $2 WHERE id = $1`, `DELETE FROM sessions WHERE user_id = $1`} {
		args := []any{userID}
		if strings.Contains(q, "$2") {
			args = append(args, dbTime(now))
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fail("suspend user", err)
		}
	}
	return s.audit(ctx, tx, workspaceID, "user.suspended", Target{"user", userID, email}, map[string]any{"by": "SCIM"})
}

// leave removes the user from the workspace as RemoveMember does (their
// keys in it revoked, their sessions off it), unless they are its last
// owner; not being a member is no error.
func (s *Store) leave(ctx context.Context, tx *sql.Tx, workspaceID, userID int64, email string) error {
	// The workspace's row first, as every change to its members takes it
	// (memberRole): two owners turned off at once each counted the other.
	if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
		return err
	}
	var role string
	err := tx.QueryRowContext(ctx, `SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`+s.forUpdate(""), workspaceID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fail("leave workspace", err)
	}
	if role == RoleOwner {
		if n, err := otherOwners(ctx, tx, workspaceID, userID); err != nil {
			return err
		} else if n == 0 {
			return ErrLastOwner
		}
	}
	for _, q := range []string{
		`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`,
		`UPDATE sessions SET workspace_id = NULL WHERE workspace_id = $1 AND user_id = $2`,
		`DELETE FROM api_keys WHERE workspace_id = $1 AND user_id = $2`,
	} {
		if _, err := tx.ExecContext(ctx, q, workspaceID, userID); err != nil {
			return fail("leave workspace", err)
		}
	}
	return s.audit(ctx, tx, workspaceID, "member.removed", Target{"user", userID, email}, map[string]any{"role": role, "by": "SCIM"})
}

// DeleteSCIMUser deprovisions the SCIM User as turning it off does, and
// forgets it and its group memberships in the workspace.
func (s *Store) DeleteSCIMUser(ctx context.Context, workspaceID, userID int64, now time.Time) error {
	ctx = WithActor(ctx, scimActor)
	return s.inTx(ctx, "delete SCIM user", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM scim_users WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID)
		if err := mustAffect("delete SCIM user", res, err); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM scim_group_members WHERE user_id = $2
			AND group_id IN (SELECT id FROM scim_groups WHERE workspace_id = $1)`, workspaceID, userID); err != nil {
			return fail("delete SCIM user", err)
		}
		return s.applyActive(ctx, tx, workspaceID, userID, false, "", now)
	})
}

// SCIMGroup is an IdP group in a workspace, with its members' account ids.
type SCIMGroup struct {
	ID               int64
	DisplayName      string
	ExternalID       string
	Members          []int64
	Created, Updated time.Time
}

// SCIMGroups lists the workspace's groups by id (displayName filter when
// set), with their members.
func (s *Store) SCIMGroups(ctx context.Context, workspaceID int64, displayName string, offset, limit int) ([]*SCIMGroup, int, error) {
	where, args := `workspace_id = $1`, []any{workspaceID}
	if displayName != "" {
		where, args = where+` AND display_name = $2`, append(args, displayName)
	}
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM scim_groups WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fail("list SCIM groups", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, display_name, external_id, created_at, updated_at FROM scim_groups WHERE `+where+
		` ORDER BY id LIMIT `+itoa(int64(limit))+` OFFSET `+itoa(int64(offset)), args...)
	if err != nil {
		return nil, 0, fail("list SCIM groups", err)
	}
	var out []*SCIMGroup
	for rows.Next() {
		g := new(SCIMGroup)
		if err := rows.Scan(&g.ID, &g.DisplayName, &g.ExternalID, scanTime(&g.Created), scanTime(&g.Updated)); err != nil {
			rows.Close()
			return nil, 0, fail("list SCIM groups", err)
		}
		out = append(out, g)
	}
	rows.Close()
	for _, g := range out {
		if g.Members, err = groupMembers(ctx, s.read, g.ID); err != nil {
			return nil, 0, err
		}
	}
	return out, total, failOrNil("list SCIM groups", rows.Err())
}

// SCIMGroupByID returns one of the workspace's groups.
func (s *Store) SCIMGroupByID(ctx context.Context, workspaceID, id int64) (*SCIMGroup, error) {
	g := &SCIMGroup{ID: id}
	err := s.read.QueryRowContext(ctx, `SELECT display_name, external_id, created_at, updated_at FROM scim_groups WHERE workspace_id = $1 AND id = $2`,
		workspaceID, id).Scan(&g.DisplayName, &g.ExternalID, scanTime(&g.Created), scanTime(&g.Updated))
	if err != nil {
		return nil, fail("read SCIM group", err)
	}
	g.Members, err = groupMembers(ctx, s.read, id)
	return g, err
}

// SaveSCIMGroup creates (g.ID 0) or replaces a group: its name, external
// id and, when members is not nil, its members (only the workspace's SCIM
// Users). It answers the accounts whose groups changed, for their roles.
func (s *Store) SaveSCIMGroup(ctx context.Context, workspaceID int64, g *SCIMGroup, members []int64, now time.Time) (changed []int64, err error) {
	err = s.inTx(ctx, "save SCIM group", func(tx *sql.Tx) error {
		if g.ID == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO scim_groups (workspace_id, display_name, external_id, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $4) RETURNING id`, workspaceID, g.DisplayName, g.ExternalID, dbTime(now)).Scan(&g.ID)
			if isUniqueViolation(err) {
				return ErrSCIMTaken
			}
			if err != nil {
				return fail("save SCIM group", err)
			}
		} else {
			res, err := tx.ExecContext(ctx, `UPDATE scim_groups SET display_name = $3, external_id = $4, updated_at = $5 WHERE workspace_id = $1 AND id = $2`,
				workspaceID, g.ID, g.DisplayName, g.ExternalID, dbTime(now))
			if isUniqueViolation(err) {
				return ErrSCIMTaken
			}
			if err := mustAffect("save SCIM group", res, err); err != nil {
				return err
			}
			// A renamed group may map to another role: all its members.
			if changed, err = groupMembers(ctx, tx, g.ID); err != nil {
				return err
			}
		}
		if members == nil {
			return nil
		}
		old, err := groupMembers(ctx, tx, g.ID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM scim_group_members WHERE group_id = $1`, g.ID); err != nil {
			return fail("save SCIM group", err)
		}
		changed = append(changed, old...)
		for _, id := range members {
			res, err := tx.ExecContext(ctx, `INSERT INTO scim_group_members (group_id, user_id)
				SELECT $1, user_id FROM scim_users WHERE workspace_id = $2 AND user_id = $3 ON CONFLICT DO NOTHING`, g.ID, workspaceID, id)
			if err != nil {
				return fail("save SCIM group", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return ErrNotFound
			}
			changed = append(changed, id)
		}
		return nil
	})
	return changed, err
}

// groupMembers is the account ids in the group, read through q (the
// read pool, or a transaction that is changing them).
func groupMembers(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, groupID int64) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id FROM scim_group_members WHERE group_id = $1 ORDER BY user_id`, groupID)
	if err != nil {
		return nil, fail("read SCIM group members", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fail("read SCIM group members", err)
		}
		ids = append(ids, id)
	}
	return ids, failOrNil("read SCIM group members", rows.Err())
}

// DeleteSCIMGroup removes the group; it answers its former members.
func (s *Store) DeleteSCIMGroup(ctx context.Context, workspaceID, id int64) (members []int64, err error) {
	err = s.inTx(ctx, "delete SCIM group", func(tx *sql.Tx) error {
		if members, err = groupMembers(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM scim_groups WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
		return mustAffect("delete SCIM group", res, err)
	})
	return members, err
}

// SCIMUserGroups is the names of the workspace's groups the account is in.
func (s *Store) SCIMUserGroups(ctx context.Context, workspaceID, userID int64) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT g.display_name FROM scim_groups g JOIN scim_group_members m ON m.group_id = g.id
		WHERE g.workspace_id = $1 AND m.user_id = $2 ORDER BY g.display_name`, workspaceID, userID)
	if err != nil {
		return nil, fail("read SCIM user groups", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fail("read SCIM user groups", err)
		}
		names = append(names, n)
	}
	return names, failOrNil("read SCIM user groups", rows.Err())
}

// SetSCIMRole gives an active SCIM User of the workspace the role its
// groups map to (an owner stays an owner).
func (s *Store) SetSCIMRole(ctx context.Context, workspaceID, userID int64, role string, now time.Time) error {
	ctx = WithActor(ctx, scimActor)
	return s.inTx(ctx, "set SCIM role", func(tx *sql.Tx) error {
		var email string
		err := tx.QueryRowContext(ctx, `SELECT u.username FROM scim_users p JOIN users u ON u.id = p.user_id
			WHERE p.workspace_id = $1 AND p.user_id = $2 AND p.active`, workspaceID, userID).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fail("set SCIM role", err)
		}
		return s.joinAs(ctx, tx, workspaceID, userID, email, role, now, "SCIM")
	})
}
