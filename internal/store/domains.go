package store

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"time"
)

// Custom domains of workspaces (issue 25 item 7). A workspace claims a
// domain (pending), proves it controls it, and from then on its dynamic
// codes may print https://{domain}/d/{code}. Any number of workspaces may
// claim a domain; the first to prove it has it verified, and then no one
// else can verify or claim it (a unique index on verified domains).

var (
	// ErrDomainInUse refuses to delete a domain live dynamic codes print.
	ErrDomainInUse = errors.New("store: live dynamic codes use the domain")
	// ErrDomainTaken is a domain another workspace has verified.
	ErrDomainTaken = errors.New("store: another workspace verified the domain")
	// ErrDomainUnverified is a pending domain where a verified one is needed.
	ErrDomainUnverified = errors.New("store: the domain is not verified")
	// ErrDomainNotPointing is a verified domain whose requests have not
	// been seen to reach this instance: codes printing it would not scan.
	ErrDomainNotPointing = errors.New("store: the domain does not point here")
)

// Domain is a workspace's claim on a domain.
type Domain struct {
	ID          int64
	WorkspaceID int64
	Domain      string // lower case, ASCII (punycode) form
	Token       string // what the TXT record or the HTTP file must hold
	Method      string // "dns" or "http" once verified, "" while pending

	VerifiedAt    *time.Time
	LastCheckedAt *time.Time
	LastError     string     // why the last check failed, "" when it did not
	LostAt        *time.Time // verified, but daily re-checks stopped finding the proof
	CreatedAt     time.Time

	Codes int // live dynamic codes printing it

	// LinksOnly domains (issue 34) redirect / to RootURL ("": a 404 page)
	// and answer unknown paths with a 404 page rather than the app.
	LinksOnly bool
	RootURL   string
	ClientID  int64 // the workspace's white-label client: the brand of its pages

	// PointedAt is when the pointing check last found the domain's
	// requests reaching this instance; nil until then, and again after a
	// check that did not. PointError says what that check found instead.
	PointedAt      *time.Time
	PointCheckedAt *time.Time
	PointError     string
}

const domainColumns = `id, workspace_id, domain, token, COALESCE(method, ''), verified_at, last_checked_at, last_error, lost_at, created_at,
	(SELECT count(*) FROM dynamic_qr_codes WHERE domain_id = workspace_domains.id AND NOT is_deleted),
	links_only, root_url, COALESCE((SELECT client_id FROM workspaces WHERE id = workspace_domains.workspace_id), 1),
	pointed_at, point_checked_at, point_error`

func scanDomain(row interface{ Scan(...any) error }) (*Domain, error) {
	d := new(Domain)
	err := row.Scan(&d.ID, &d.WorkspaceID, &d.Domain, &d.Token, &d.Method, scanNullTime(&d.VerifiedAt),
		scanNullTime(&d.LastCheckedAt), &d.LastError, scanNullTime(&d.LostAt), scanTime(&d.CreatedAt), &d.Codes,
		&d.LinksOnly, &d.RootURL, &d.ClientID, scanNullTime(&d.PointedAt), scanNullTime(&d.PointCheckedAt), &d.PointError)
	return d, err
}

// Domains returns the workspace's domains by name.
func (s *Store) Domains(ctx context.Context, workspaceID int64) ([]*Domain, error) {
	rows, err := s.read.QueryContext(ctx,
		`SELECT `+domainColumns+` FROM workspace_domains WHERE workspace_id = $1 ORDER BY domain, id`, workspaceID)
	if err != nil {
		return nil, fail("list domains", err)
	}
	defer rows.Close()
	list := []*Domain{}
	for rows.Next() {
		d, err := scanDomain(rows)
		if err != nil {
			return nil, fail("list domains", err)
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list domains", err)
	}
	return list, nil
}

// Domain returns one of the workspace's domains.
func (s *Store) Domain(ctx context.Context, workspaceID, id int64) (*Domain, error) {
	d, err := scanDomain(s.read.QueryRowContext(ctx,
		`SELECT `+domainColumns+` FROM workspace_domains WHERE id = $1 AND workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("fetch domain", err)
	}
	return d, nil
}

// VerifiedDomain returns the verified domain named host of a workspace
// that is not deleted, or ErrNotFound: whose requests the host serves.
func (s *Store) VerifiedDomain(ctx context.Context, host string) (*Domain, error) {
	d, err := scanDomain(s.read.QueryRowContext(ctx, `
		SELECT `+domainColumns+` FROM workspace_domains
		WHERE domain = $1 AND verified_at IS NOT NULL
			AND workspace_id IN (SELECT id FROM workspaces WHERE NOT is_deleted)`, host))
	if err != nil {
		return nil, fail("fetch verified domain", err)
	}
	return d, nil
}

// CreateDomain saves the workspace's claim on d.Domain with d.Token and
// fills in ID and CreatedAt. ErrConflict when the workspace already claims
// it, ErrDomainTaken when another workspace has it verified, ErrLimit when
// the workspace has limit claims already; the count and the insert share
// one transaction with the workspace's row locked.
func (s *Store) CreateDomain(ctx context.Context, workspaceID int64, d *Domain, limit int, now time.Time) error {
	d.WorkspaceID, d.CreatedAt = workspaceID, normTime(now)
	return s.inTx(ctx, "create domain", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var claims, taken int
		err := tx.QueryRowContext(ctx, `
			SELECT (SELECT count(*) FROM workspace_domains WHERE workspace_id = $1),
				(SELECT count(*) FROM workspace_domains WHERE domain = $2 AND verified_at IS NOT NULL AND workspace_id <> $1)`,
			workspaceID, d.Domain).Scan(&claims, &taken)
		switch {
		case err != nil:
			return fail("create domain", err)
		case taken > 0:
			return ErrDomainTaken
		case claims >= limit:
			return ErrLimit
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO workspace_domains (workspace_id, domain, token, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			workspaceID, d.Domain, d.Token, dbTime(d.CreatedAt)).Scan(&d.ID)
		if err != nil {
			return fail("create domain", err)
		}
		return s.audit(ctx, tx, workspaceID, "domain.added", Target{"domain", d.ID, d.Domain}, nil)
	})
}

// RecordDomainCheck saves the outcome of a verification of one of the
// workspace's domains: proved by method ("dns" or "http"), or failed with
// problem (method ""). A verified domain stays verified. ErrDomainTaken
// when another workspace verified it first.
func (s *Store) RecordDomainCheck(ctx context.Context, workspaceID, id int64, method, problem string, now time.Time) (*Domain, error) {
	var d *Domain
	err := s.inTx(ctx, "record domain check", func(tx *sql.Tx) error {
		var err error
		if d, err = scanDomain(tx.QueryRowContext(ctx,
			`SELECT `+domainColumns+` FROM workspace_domains WHERE id = $1 AND workspace_id = $2`, id, workspaceID)); err != nil {
			return fail("record domain check", err)
		}
		if d.VerifiedAt != nil {
			return nil
		}
		at := normTime(now)
		d.LastCheckedAt, d.LastError = &at, problem
		if method == "" {
			if _, err := tx.ExecContext(ctx, `UPDATE workspace_domains SET last_checked_at = $2, last_error = $3 WHERE id = $1`,
				id, dbTime(at), problem); err != nil {
				return fail("record domain check", err)
			}
			return nil
		}
		_, err = tx.ExecContext(ctx, `
			UPDATE workspace_domains SET method = $2, verified_at = $3, last_checked_at = $3, last_error = '' WHERE id = $1`,
			id, method, dbTime(at))
		if isUniqueViolation(err) {
			return ErrDomainTaken
		}
		if err != nil {
			return fail("record domain check", err)
		}
		d.Method, d.VerifiedAt = method, &at
		return s.audit(ctx, tx, workspaceID, "domain.verified", Target{"domain", d.ID, d.Domain}, map[string]any{"method": method})
	})
	if errors.Is(err, ErrDomainTaken) || err == nil {
		return d, err
	}
	return nil, err
}

// DomainLostMail is the template of the mail a lost domain sends its
// workspace's owners and admins.
const DomainLostMail = "domain_lost"

// DomainRecheck is a verified domain a daily re-check claimed.
type DomainRecheck struct {
	ID          int64
	WorkspaceID int64
	Domain      string
	Token       string
	claimed     time.Time
}

// ClaimDomainRechecks claims up to limit verified domains of live
// workspaces that are due a re-check at now: every after the last one
// (or the verification), or retry after a re-check that missed the proof
// (so also every retry while the domain is lost). The claim is a
// conditional update of rechecked_at, so each domain goes to one caller.
func (s *Store) ClaimDomainRechecks(ctx context.Context, now time.Time, every, retry time.Duration, limit int) ([]DomainRecheck, error) {
	now = normTime(now)
	const due = `verified_at IS NOT NULL AND (
			(missed_at IS NULL AND COALESCE(rechecked_at, verified_at) <= $2)
			OR (missed_at IS NOT NULL AND rechecked_at <= $3))`
	rows, err := s.write.QueryContext(ctx, `
		UPDATE workspace_domains SET rechecked_at = $1
		WHERE id IN (SELECT id FROM workspace_domains
		             WHERE `+due+` AND workspace_id IN (SELECT id FROM workspaces WHERE NOT is_deleted)
		             ORDER BY id LIMIT $4)
		  AND `+due+`
		RETURNING id, workspace_id, domain, token`, dbTime(now), dbTime(now.Add(-every)), dbTime(now.Add(-retry)), limit)
	if err != nil {
		return nil, fail("claim domain rechecks", err)
	}
	defer rows.Close()
	var list []DomainRecheck
	for rows.Next() {
		c := DomainRecheck{claimed: now}
		if err := rows.Scan(&c.ID, &c.WorkspaceID, &c.Domain, &c.Token); err != nil {
			return nil, fail("claim domain rechecks", err)
		}
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("claim domain rechecks", err)
	}
	return list, nil
}

// RecordDomainRecheck saves the outcome of claimed re-check c: the proof
// found (problem ""), or missing with problem. The first miss in a row
// only notes it; the second marks the domain lost and queues
// DomainLostMail, with fields and the workspace's name (Workspace), to
// each alert recipient of the workspace, in the same transaction; later
// misses change nothing more. The proof found again clears the loss, so
// a later loss mails again. It reports whether this re-check lost the
// domain. A domain deleted, or claimed again since c was, is left alone.
func (s *Store) RecordDomainRecheck(ctx context.Context, c DomainRecheck, problem string, now time.Time, fields map[string]any) (bool, error) {
	lost := false
	err := s.inTx(ctx, "record domain recheck", func(tx *sql.Tx) error {
		var claimedAt, missedAt, lostAt *time.Time
		var workspace string
		err := tx.QueryRowContext(ctx, `
			SELECT d.rechecked_at, d.missed_at, d.lost_at, w.name FROM workspace_domains d JOIN workspaces w ON w.id = d.workspace_id
			WHERE d.id = $1 AND d.verified_at IS NOT NULL`+s.forUpdate(" OF d"),
			c.ID).Scan(scanNullTime(&claimedAt), scanNullTime(&missedAt), scanNullTime(&lostAt), &workspace)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return fail("record domain recheck", err)
		}
		if claimedAt == nil || !claimedAt.Equal(c.claimed) {
			return nil
		}
		at := normTime(now)
		switch {
		case problem == "":
			missedAt, lostAt = nil, nil
		case missedAt == nil:
			missedAt = &at
		case lostAt == nil:
			lostAt, lost = &at, true
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE workspace_domains SET last_checked_at = $2, last_error = $3, missed_at = $4, lost_at = $5 WHERE id = $1`,
			c.ID, dbTime(at), problem, dbTimePtr(missedAt), dbTimePtr(lostAt)); err != nil {
			return fail("record domain recheck", err)
		}
		if !lost {
			return nil
		}
		var to []string
		if err := eachRowIn(ctx, tx, "record domain recheck", alertRecipients, []any{c.WorkspaceID}, func(rows *sql.Rows) error {
			var addr string
			err := rows.Scan(&addr)
			to = append(to, addr)
			return err
		}); err != nil {
			return err
		}
		mailFields := map[string]any{"Workspace": workspace}
		maps.Copy(mailFields, fields)
		for _, addr := range to {
			if err := queueMail(ctx, tx, addr, DomainLostMail, mailFields, at); err != nil {
				return err
			}
		}
		return nil
	})
	return lost, err
}

// DeleteDomain deletes one of the workspace's domains. ErrDomainInUse while
// live dynamic codes print it (their printed URLs would stop working) or
// an open bulk or import job is saving codes on it. Deleted codes and
// finished jobs that printed it forget it.
func (s *Store) DeleteDomain(ctx context.Context, workspaceID, id int64) (*Domain, error) {
	var d *Domain
	err := s.inTx(ctx, "delete domain", func(tx *sql.Tx) error {
		// Locked first, on its own: a bulk job saving codes on the domain
		// holds it (their foreign keys) until it commits, and the counts
		// below, each a statement of its own, then see those codes. Read
		// in one go without the lock, the codes could be counted before
		// the job committed and the open jobs after (PostgreSQL).
		if _, err := tx.ExecContext(ctx, `SELECT id FROM workspace_domains WHERE id = $1`+s.forUpdate(""), id); err != nil {
			return fail("delete domain", err)
		}
		var err error
		if d, err = scanDomain(tx.QueryRowContext(ctx,
			`SELECT `+domainColumns+` FROM workspace_domains WHERE id = $1 AND workspace_id = $2`, id, workspaceID)); err != nil {
			return fail("delete domain", err)
		}
		var openJobs int
		if err := tx.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM bulk_jobs WHERE domain_id = $1 AND status IN ('queued', 'running')) +
			(SELECT count(*) FROM import_jobs WHERE domain_id = $1 AND status IN ('queued', 'running'))`,
			id).Scan(&openJobs); err != nil {
			return fail("delete domain", err)
		}
		if d.Codes > 0 || openJobs > 0 {
			return ErrDomainInUse
		}
		if _, err := tx.ExecContext(ctx, `UPDATE dynamic_qr_codes SET domain_id = NULL WHERE domain_id = $1`, id); err != nil {
			return fail("delete domain", err)
		}
		for _, jobs := range []string{"bulk_jobs", "import_jobs"} {
			if _, err := tx.ExecContext(ctx, `UPDATE `+jobs+` SET domain_id = NULL WHERE domain_id = $1`, id); err != nil {
				return fail("delete domain", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM workspace_domains WHERE id = $1`, id); err != nil {
			return fail("delete domain", err)
		}
		return s.audit(ctx, tx, workspaceID, "domain.deleted", Target{"domain", d.ID, d.Domain}, nil)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// usableDomain checks that id is a verified domain of the workspace that
// points here: ErrNotFound when it is not the workspace's,
// ErrDomainUnverified while pending, ErrDomainNotPointing until the
// pointing check has seen its requests reach this instance.
func usableDomain(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, workspaceID, id int64) error {
	var verified, pointing bool
	err := q.QueryRowContext(ctx, `SELECT verified_at IS NOT NULL, pointed_at IS NOT NULL FROM workspace_domains
		WHERE id = $1 AND workspace_id = $2`, id, workspaceID).Scan(&verified, &pointing)
	switch {
	case err != nil:
		return fail("check domain", err)
	case !verified:
		return ErrDomainUnverified
	case !pointing:
		return ErrDomainNotPointing
	}
	return nil
}

// RecordDomainPointing saves the outcome of a pointing check of the
// workspace's verified domain id: pointing when problem is "", else not
// pointing (any earlier success forgotten) for the reason problem gives.
// ErrNotFound when the domain is not the workspace's; ErrDomainUnverified
// while it is pending.
func (s *Store) RecordDomainPointing(ctx context.Context, workspaceID, id int64, problem string, now time.Time) (*Domain, error) {
	at := dbTime(normTime(now))
	var pointed any
	if problem == "" {
		pointed = at
	}
	res, err := s.write.ExecContext(ctx, `UPDATE workspace_domains SET pointed_at = $3, point_checked_at = $4, point_error = $5
		WHERE id = $1 AND workspace_id = $2 AND verified_at IS NOT NULL`, id, workspaceID, pointed, at, problem)
	if err != nil {
		return nil, fail("record domain pointing", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Domain(ctx, workspaceID, id); err != nil {
			return nil, err
		}
		return nil, ErrDomainUnverified
	}
	return s.Domain(ctx, workspaceID, id)
}

// releaseDomains deletes, in tx, the domains of deleted workspaces, so
// another workspace may verify them; their codes no longer redirect.
func releaseDomains(ctx context.Context, tx *sql.Tx) error {
	const gone = `SELECT id FROM workspace_domains WHERE workspace_id IN (SELECT id FROM workspaces WHERE is_deleted)`
	if _, err := tx.ExecContext(ctx, `UPDATE dynamic_qr_codes SET domain_id = NULL WHERE domain_id IN (`+gone+`)`); err != nil {
		return fail("release domains", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE bulk_jobs SET domain_id = NULL WHERE domain_id IN (`+gone+`)`); err != nil {
		return fail("release domains", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM workspace_domains WHERE id IN (`+gone+`)`); err != nil {
		return fail("release domains", err)
	}
	return nil
}

// SetDomainLinks sets whether the workspace's domain id is links only and
// where its / redirects ("": nowhere), with an audit entry; ErrNotFound
// when the domain is not the workspace's.
func (s *Store) SetDomainLinks(ctx context.Context, workspaceID, id int64, linksOnly bool, rootURL string) (*Domain, error) {
	var d *Domain
	err := s.inTx(ctx, "set domain links", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE workspace_domains SET links_only = $3, root_url = $4 WHERE id = $1 AND workspace_id = $2`,
			id, workspaceID, linksOnly, rootURL)
		if err := mustAffect("set domain links", res, err); err != nil {
			return err
		}
		if d, err = scanDomain(tx.QueryRowContext(ctx, `SELECT `+domainColumns+` FROM workspace_domains WHERE id = $1`, id)); err != nil {
			return fail("set domain links", err)
		}
		return s.audit(ctx, tx, workspaceID, "domain.updated", Target{"domain", id, d.Domain},
			map[string]any{"linksOnly": linksOnly, "rootUrl": rootURL})
	})
	return d, err
}
