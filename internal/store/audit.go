package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// The audit log (issue 22 item 4): every change in a workspace writes one
// entry in the change's own transaction, so an entry exists exactly when
// the change does. Who acts comes from the context (WithActor), set once
// per request by the server, so the store's methods keep their signatures.

// Actor is who made a change: a user, or an API key acting for its workspace.
type Actor struct {
	Type  string // "user" or "api_key"
	ID    int64
	Email string // the user's, or the key's creator's
}

// Target is what a change was made to.
type Target struct {
	Type string // "code", "dynamic_code", "tag", "folder", "member", "invitation", "api_key", "workspace", "brand_kit", "domain"
	ID   int64
	Name string
}

// AuditEntry is one change as the log keeps it.
type AuditEntry struct {
	ID      int64
	At      time.Time
	Actor   Actor
	Action  string
	Target  Target
	Details string // JSON object: a short before/after
}

type actorKey struct{}

// WithActor returns ctx carrying who acts, for the audit entries of the
// changes made with it.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor WithActor put in ctx.
func ActorFrom(ctx context.Context) (Actor, bool) {
	a, ok := ctx.Value(actorKey{}).(Actor)
	return a, ok
}

// change is the details of a value that changed.
func change(field string, before, after any) map[string]any {
	return map[string]any{field: map[string]any{"before": before, "after": after}}
}

// audit records a change in tx. A change made without an actor (a
// migration, a maintenance command) records nothing.
func (s *Store) audit(ctx context.Context, tx *sql.Tx, workspaceID int64, action string, t Target, details map[string]any) error {
	a, ok := ActorFrom(ctx)
	if !ok || workspaceID == 0 {
		return nil
	}
	if details == nil {
		details = map[string]any{}
	}
	body, err := json.Marshal(details)
	if err != nil {
		return fail("record audit entry", err)
	}
	_, err = tx.ExecContext(ctx, `
		INSERT INTO audit_log (workspace_id, at, actor_type, actor_id, actor_email, action, target_type, target_id, target_name, details)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		workspaceID, dbTime(time.Now()), a.Type, a.ID, a.Email, action, t.Type, t.ID, t.Name, string(body))
	if err != nil {
		return fail("record audit entry", err)
	}
	return nil
}

// deleteAudited deletes the workspace's row id of table and records action
// on it, named by its nameColumn: ErrNotFound when it is not the workspace's.
func (s *Store) deleteAudited(ctx context.Context, table, nameColumn, targetType, action string, workspaceID, id int64) error {
	return s.inTx(ctx, "delete "+targetType, func(tx *sql.Tx) error {
		return s.deleteAuditedTx(ctx, tx, table, nameColumn, targetType, action, workspaceID, id)
	})
}

// deleteAuditedTx is deleteAudited within tx, after the caller's own steps.
func (s *Store) deleteAuditedTx(ctx context.Context, tx *sql.Tx, table, nameColumn, targetType, action string, workspaceID, id int64) error {
	var name string
	err := tx.QueryRowContext(ctx, `DELETE FROM `+table+` WHERE id = $1 AND workspace_id = $2 RETURNING `+nameColumn,
		id, workspaceID).Scan(&name)
	if err != nil {
		return fail("delete "+targetType, err)
	}
	return s.audit(ctx, tx, workspaceID, action, Target{targetType, id, name}, nil)
}

// AuditLog returns up to limit entries of the workspace, newest first,
// older than the entry before (0: from the newest).
func (s *Store) AuditLog(ctx context.Context, workspaceID, before int64, limit int) ([]*AuditEntry, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, at, actor_type, actor_id, actor_email, action, target_type, target_id, target_name, details
		FROM audit_log WHERE workspace_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, workspaceID, before, limit)
	if err != nil {
		return nil, fail("read audit log", err)
	}
	defer rows.Close()
	list := []*AuditEntry{}
	for rows.Next() {
		e := new(AuditEntry)
		if err := rows.Scan(&e.ID, scanTime(&e.At), &e.Actor.Type, &e.Actor.ID, &e.Actor.Email, &e.Action,
			&e.Target.Type, &e.Target.ID, &e.Target.Name, &e.Details); err != nil {
			return nil, fail("read audit log", err)
		}
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("read audit log", err)
	}
	return list, nil
}

// auditCreated records a new code of either kind.
func (s *Store) auditCreated(ctx context.Context, tx *sql.Tx, workspaceID int64, t Target) error {
	return s.audit(ctx, tx, workspaceID, "code.created", t, nil)
}

// codeState is what the audit log compares of a code before and after a
// change: each difference is one entry.
type codeState struct {
	Name, Destination string
	Paused, Protected bool
	Style             Style
	AlertsMuted       bool
	Domain            string // a dynamic code's custom domain, "" for the base URL's host
}

// auditChanges records what changed from before to after of the code t.
func (s *Store) auditChanges(ctx context.Context, tx *sql.Tx, workspaceID int64, t Target, before, after codeState) error {
	type entry struct {
		action  string
		details map[string]any
	}
	var list []entry
	if before.Name != after.Name {
		list = append(list, entry{"code.renamed", change("name", before.Name, after.Name)})
	}
	if before.Destination != after.Destination {
		list = append(list, entry{"code.destination_changed", change("destination", before.Destination, after.Destination)})
	}
	if before.Paused != after.Paused {
		list = append(list, entry{map[bool]string{true: "code.paused", false: "code.resumed"}[after.Paused], nil})
	}
	if before.Protected != after.Protected {
		list = append(list, entry{"code.password_changed", change("protected", before.Protected, after.Protected)})
	}
	if before.Style != after.Style {
		list = append(list, entry{"code.restyled", nil})
	}
	if before.AlertsMuted != after.AlertsMuted {
		list = append(list, entry{map[bool]string{true: "code.alerts_muted", false: "code.alerts_unmuted"}[after.AlertsMuted], nil})
	}
	if before.Domain != after.Domain {
		list = append(list, entry{"code.domain_changed", change("domain", before.Domain, after.Domain)})
	}
	for _, e := range list {
		if err := s.audit(ctx, tx, workspaceID, e.action, t, e.details); err != nil {
			return err
		}
	}
	return nil
}

func dynamicState(d *DynamicCode) codeState {
	return codeState{d.Name, d.Destination, d.IsPaused, d.Protected, d.Style, d.AlertsMuted, d.Domain}
}

func staticState(q *QRCode) codeState {
	return codeState{Name: q.Name, Destination: q.Content, Paused: q.IsPaused, Style: q.Style}
}
