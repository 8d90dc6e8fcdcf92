package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// Workspace domain capture (issue 33 item 2): a team workspace takes in
// everyone who signs in with a verified address at a domain it has proven.

// ErrAutoJoinPersonal refuses domain capture on a personal workspace.
var ErrAutoJoinPersonal = errors.New("store: a personal workspace takes no members by domain")

// SetAutoJoin makes verified addresses at domain join the team workspace
// as role when they sign in; domain "" turns it off. The domain must be
// proven for the workspace: one of its verified custom domains is the
// domain or under it (ErrDomainUnverified otherwise). One workspace per
// domain: ErrConflict when another has it.
func (s *Store) SetAutoJoin(ctx context.Context, workspaceID int64, domain, role string) error {
	domain = strings.ToLower(domain)
	return s.inTx(ctx, "set auto-join", func(tx *sql.Tx) error {
		var personal bool
		var name string
		err := tx.QueryRowContext(ctx, `SELECT personal_user_id IS NOT NULL, name FROM workspaces WHERE id = $1 AND NOT is_deleted`+s.forUpdate(""),
			workspaceID).Scan(&personal, &name)
		switch {
		case err != nil:
			return fail("set auto-join", err)
		case personal:
			return ErrAutoJoinPersonal
		}
		if domain != "" {
			var proven int
			err := tx.QueryRowContext(ctx, provenDomains, workspaceID, domain, "%."+domain).Scan(&proven)
			if err != nil {
				return fail("set auto-join", err)
			}
			if proven == 0 {
				return ErrDomainUnverified
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE workspaces SET auto_join_domain = NULLIF($2, ''), auto_join_role = NULLIF($3, '') WHERE id = $1`,
			workspaceID, domain, map[bool]string{true: role}[domain != ""])
		if isUniqueViolation(err) {
			return ErrConflict
		}
		if err != nil {
			return fail("set auto-join", err)
		}
		return s.audit(ctx, tx, workspaceID, "workspace.auto_join_changed", Target{"workspace", workspaceID, name},
			map[string]any{"domain": domain, "role": role})
	})
}

// JoinByDomain adds the user, whose address email is verified, to the
// live team workspace that takes in its domain, with that workspace's
// role, unless they are a member already. It answers the workspace joined,
// 0 for none.
func (s *Store) JoinByDomain(ctx context.Context, userID int64, email string, now time.Time) (int64, error) {
	_, domain, ok := strings.Cut(strings.ToLower(email), "@")
	if !ok || domain == "" {
		return 0, nil
	}
	var joined int64
	err := s.inTx(ctx, "join by domain", func(tx *sql.Tx) error {
		var role, name string
		err := tx.QueryRowContext(ctx, `
			SELECT w.id, w.auto_join_role, w.name FROM workspaces w
			WHERE w.auto_join_domain = $1 AND NOT w.is_deleted
			AND NOT EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = w.id AND m.user_id = $2)`+s.forUpdate(" OF w"),
			domain, userID).Scan(&joined, &role, &name)
		if errors.Is(err, sql.ErrNoRows) {
			joined = 0
			return nil
		}
		if err != nil {
			return fail("join by domain", err)
		}
		if err := addMember(ctx, tx, joined, userID, role, now); err != nil {
			return err
		}
		return s.audit(WithActor(ctx, Actor{Type: "user", ID: userID, Email: email}), tx, joined, "member.joined",
			Target{"user", userID, email}, map[string]any{"role": role, "by": "domain " + domain})
	})
	return joined, err
}
