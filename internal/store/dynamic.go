package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"
)

// ErrLimit is returned when a workspace already has as many of something
// as its limit allows: live dynamic codes (CreateDynamicCode), UTM presets.
var ErrLimit = errors.New("store: limit reached")

// DynamicCode is a code that encodes {base}/d/{ShortCode} and redirects to
// Destination, which its workspace may change after printing. Every method
// that reads or changes one takes the workspace's id and treats another
// workspace's code as not found.
type DynamicCode struct {
	ID          int64
	ClientID    int64
	WorkspaceID int64 // the owner
	UserID      int64 // who made it; 0 once unknown
	Name        string
	// ShortCode is at most MaxShortCode characters, unique on its host
	// (the base URL's, or its domain's). A random one is unique on every
	// host; ShortCodeChosen is set when the workspace chose it (issue 34):
	// then unique on its host without case (ShortCodeTaken), and another
	// host may have it too.
	ShortCode       string
	ShortCodeChosen bool
	Destination     string
	QRType          string
	QRData          string // JSON of the type fields
	Platform        string

	// ScanCount and LastScannedAt count human scans only (RecordScans).
	ScanCount     int64
	LastScannedAt *time.Time
	// ImportedClicks is the old total click count of a code imported from
	// another shortener: a baseline apart from ScanCount, never in it.
	ImportedClicks int64

	Style

	// Protected is set while a password guards the code's scans.
	Protected bool

	// Routing is the code's smart routing, nil when unset; LimitScans
	// counts the redirected scans taken against its scan limit.
	Routing    *Routing
	LimitScans int64

	// PageID is the workspace's hosted page the code opens (issue 35): its
	// scans answer with the page itself. nil for a redirect.
	PageID *int64

	FolderID *int64 // nil: in no folder
	// DomainID is the workspace's verified domain the code prints (nil:
	// the base URL's host), Domain its name.
	DomainID *int64
	Domain   string
	Tags     []Tag // read back by the methods that return codes, by name

	// AlertsMuted stops the code's alerts; Health is what the link checker
	// last found of its destinations (alerts.go).
	AlertsMuted bool
	Health      Health

	IsPaused  bool
	PausedAt  *time.Time
	IsDeleted bool
	DeletedAt *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

const dynamicColumns = `
	id, client_id, workspace_id, COALESCE(user_id, 0), name, short_code, destination,
	qr_type, COALESCE(qr_data, ''), COALESCE(platform, ''),
	COALESCE((SELECT scans FROM scan_counts WHERE dynamic_qr_code_id = dynamic_qr_codes.id), 0),
	(SELECT last_scanned_at FROM scan_counts WHERE dynamic_qr_code_id = dynamic_qr_codes.id),` + styleSelect + `,
	password_hash IS NOT NULL, folder_id,
	domain_id, COALESCE((SELECT domain FROM workspace_domains WHERE id = dynamic_qr_codes.domain_id), ''), routing, limit_scans, is_paused, paused_at, is_deleted, deleted_at, created_at, updated_at,
	alerts_muted, health_status, health_reason, health_url, health_since, health_checked_at, page_id, short_code_chosen, imported_clicks`

func scanDynamic(row interface{ Scan(...any) error }) (*DynamicCode, error) {
	d := new(DynamicCode)
	dest := []any{
		&d.ID, &d.ClientID, &d.WorkspaceID, &d.UserID, &d.Name, &d.ShortCode, &d.Destination,
		&d.QRType, &d.QRData, &d.Platform,
		&d.ScanCount, scanNullTime(&d.LastScannedAt),
	}
	dest = append(dest, d.Style.scanDest()...)
	dest = append(dest,
		&d.Protected, &d.FolderID, &d.DomainID, &d.Domain, scanRouting(&d.Routing), &d.LimitScans, &d.IsPaused, scanNullTime(&d.PausedAt), &d.IsDeleted, scanNullTime(&d.DeletedAt),
		scanTime(&d.CreatedAt), scanTime(&d.UpdatedAt),
		&d.AlertsMuted, &d.Health.Status, &d.Health.Reason, &d.Health.URL, scanNullTime(&d.Health.Since), scanNullTime(&d.Health.CheckedAt), &d.PageID,
		&d.ShortCodeChosen, &d.ImportedClicks,
	)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	return d, nil
}

// CreateDynamicCode saves a new dynamic code of d.WorkspaceID (0: the
// personal workspace of d.UserID, as for codes made outside the app) and
// fills in ID,
// ClientID (1 if 0), CreatedAt and UpdatedAt (now, unless set). With limit
// > 0 (a free workspace) it first counts the live dynamic codes that count
// against the workspace's limit, its owners' across their free workspaces
// (quota.go), and returns ErrLimit when there are limit or more; the count
// and the insert share one write transaction under lockAllowance, so
// concurrent creations, in one workspace or several of one owner, cannot
// both pass at the limit. A taken ShortCode is ErrConflict: the caller
// draws a new one and tries again, or refuses a chosen one
// (ShortCodeChosen, taken as ShortCodeTaken tells). A random one is taken
// when any code has it, on any host.
func (s *Store) CreateDynamicCode(ctx context.Context, d *DynamicCode, limit int) error {
	err := s.inTx(ctx, "create dynamic code", func(tx *sql.Tx) error { return s.createDynamic(ctx, tx, d, limit) })
	if err == nil {
		s.redirectsChanged(ctx, d.ShortCode) // instances may hold a cached miss for it
	}
	return err
}

// createDynamic is CreateDynamicCode inside tx.
func (s *Store) createDynamic(ctx context.Context, tx *sql.Tx, d *DynamicCode, limit int) error {
	if d.ClientID == 0 {
		d.ClientID = 1
	}
	if err := personalByDefault(ctx, tx, &d.WorkspaceID, d.UserID); err != nil {
		return err
	}
	if d.DomainID != nil {
		if err := usableDomain(ctx, tx, d.WorkspaceID, *d.DomainID); err != nil {
			return err
		}
	}
	if d.PageID != nil {
		if err := workspacePage(ctx, tx, d.WorkspaceID, *d.PageID); err != nil {
			return err
		}
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = time.Now()
	}
	d.CreatedAt = normTime(d.CreatedAt)
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = d.CreatedAt
	}
	d.UpdatedAt = normTime(d.UpdatedAt)
	d.Health = Health{Status: HealthUnknown} // as the column starts
	taken, err := shortCodeTaken(ctx, tx, d.ShortCode, d.DomainID, 0)
	if !d.ShortCodeChosen {
		taken, err = shortCodeExists(ctx, tx, d.ShortCode)
	}
	if err != nil {
		return err
	}
	if taken {
		return fmt.Errorf("store: short code %q: %w", d.ShortCode, ErrConflict)
	}
	if limit > 0 {
		if err := s.lockAllowance(ctx, tx, d.WorkspaceID); err != nil {
			return err
		}
		n, err := used(ctx, tx, d.WorkspaceID, dynamicUsage, d.CreatedAt)
		if err != nil {
			return err
		}
		if n >= int64(limit) {
			return ErrLimit
		}
	}
	cols := slices.Concat(
		[]string{"client_id", "workspace_id", "user_id", "name", "short_code", "destination", "qr_type", "qr_data", "platform", "domain_id", "page_id"},
		styleInsert,
		[]string{"created_at", "updated_at", "short_code_chosen", "imported_clicks"},
	)
	args := slices.Concat(
		[]any{d.ClientID, d.WorkspaceID, nullIfZero(d.UserID), d.Name, d.ShortCode, d.Destination, d.QRType, nullIfEmpty(d.QRData), nullIfEmpty(d.Platform), d.DomainID, d.PageID},
		d.Style.insertArgs(),
		[]any{dbTime(d.CreatedAt), dbTime(d.UpdatedAt), d.ShortCodeChosen, d.ImportedClicks},
	)
	err = tx.QueryRowContext(ctx, insertReturningID("dynamic_qr_codes", cols), args...).Scan(&d.ID)
	if err != nil {
		return fail("create dynamic code", err)
	}
	if err := refreshSearch(ctx, tx, dynamicKind, `id = $1`, d.ID); err != nil {
		return err
	}
	if err := s.auditCreated(ctx, tx, d.WorkspaceID, Target{"dynamic_code", d.ID, d.Name}); err != nil {
		return err
	}
	return s.EnqueueWebhookEvent(ctx, tx, d.WorkspaceID, EventCodeCreated, dynamicEventCode(d))
}

// CountDynamicCodes returns how many live (not deleted) dynamic codes count
// against the workspace's limit at now: its own when it is subscribed or
// its trial runs, else its owners' across their free workspaces (the
// largest; quota.go).
func (s *Store) CountDynamicCodes(ctx context.Context, workspaceID int64, now time.Time) (int, error) {
	n, err := used(ctx, s.read, workspaceID, dynamicUsage, now)
	return int(n), err
}

// DynamicCode returns the workspace's live dynamic code with the given id.
func (s *Store) DynamicCode(ctx context.Context, workspaceID, id int64) (*DynamicCode, error) {
	row := s.read.QueryRowContext(ctx,
		`SELECT `+dynamicColumns+` FROM dynamic_qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
		id, workspaceID)
	d, err := scanDynamic(row)
	if err != nil {
		return nil, fail("fetch dynamic code", err)
	}
	return d, s.withTags(ctx, nil, []*DynamicCode{d})
}

// DynamicCodes returns the workspace's live dynamic codes that are paused (or
// not), newest first.
func (s *Store) DynamicCodes(ctx context.Context, workspaceID int64, paused bool) ([]*DynamicCode, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+dynamicColumns+` FROM dynamic_qr_codes
		WHERE workspace_id = $1 AND NOT is_deleted AND is_paused = $2
		ORDER BY created_at DESC, id DESC`, workspaceID, paused)
	if err != nil {
		return nil, fail("list dynamic codes", err)
	}
	defer rows.Close()
	var list []*DynamicCode
	for rows.Next() {
		d, err := scanDynamic(rows)
		if err != nil {
			return nil, fail("list dynamic codes", err)
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list dynamic codes", err)
	}
	return list, s.withTags(ctx, nil, list)
}

// Redirect is what answering a scan needs to know about a short code.
type Redirect struct {
	ID          int64
	Destination string
	Paused      bool
	Protected   bool  // a password guards it (DynamicPasswordHash)
	ClientID    int64 // the workspace's white-label client: the brand of the code's pages
	WorkspaceID int64 // the owner: a custom domain serves its own workspace's codes only
	DomainID    int64 // the host it is on: its custom domain's id, 0 for the base URL's
	// Routing is the code's routing as stored (JSON, "" for none): the
	// redirect cache compiles it only when it changed (ParseRouting).
	Routing string
	// AppData is the type fields (JSON) of a code of type apps, whose
	// store links send phones to their store; "" for other types.
	AppData string
	// PageID is the hosted page the code opens, 0 for a redirect, and
	// PageVersion its version: rendered pages are cached per version.
	PageID      int64
	PageVersion int64
}

// redirectQuery selects the short code and Redirect of each live dynamic
// code (neither it nor its workspace deleted) whose short code matches,
// the codes of one short code in the order they were made (by id): a scan
// on the base URL falls back to the first (scans.Pick).
func redirectQuery(match string) string {
	return `
		SELECT d.short_code, d.id, d.destination, d.is_paused, d.password_hash IS NOT NULL, w.client_id, d.workspace_id,
			COALESCE(d.domain_id, 0), COALESCE(d.routing, ''), CASE WHEN d.qr_type = 'apps' THEN COALESCE(d.qr_data, '') ELSE '' END,
			COALESCE(d.page_id, 0), COALESCE((SELECT version FROM pages WHERE id = d.page_id), 0)
		FROM dynamic_qr_codes d JOIN workspaces w ON w.id = d.workspace_id
		WHERE ` + match + ` AND NOT d.is_deleted AND NOT w.is_deleted
		ORDER BY d.id`
}

// scanRedirects reads redirectQuery's rows by short code.
func scanRedirects(rows *sql.Rows, action string, size int) (map[string][]Redirect, error) {
	defer rows.Close()
	found := make(map[string][]Redirect, size)
	for rows.Next() {
		var code string
		var r Redirect
		err := rows.Scan(&code, &r.ID, &r.Destination, &r.Paused, &r.Protected, &r.ClientID, &r.WorkspaceID, &r.DomainID,
			&r.Routing, &r.AppData, &r.PageID, &r.PageVersion)
		if err != nil {
			return nil, fail(action, err)
		}
		found[code] = append(found[code], r)
	}
	return found, failOrNil(action, rows.Err())
}

// RedirectsByShortCode returns the redirects of the live dynamic codes
// with shortCode exactly, one per host at most, in the order they were
// made; ErrNotFound when there is none (unknown, deleted, or of a deleted
// workspace) or shortCode cannot exist (ValidShortCode), which is not
// looked up.
func (s *Store) RedirectsByShortCode(ctx context.Context, shortCode string) ([]Redirect, error) {
	if !ValidShortCode(shortCode) {
		return nil, ErrNotFound
	}
	rows, err := s.read.QueryContext(ctx, redirectQuery(`d.short_code = $1`), shortCode)
	if err != nil {
		return nil, fail("fetch redirect", err)
	}
	found, err := scanRedirects(rows, "fetch redirect", 1)
	if err != nil {
		return nil, err
	}
	if len(found[shortCode]) == 0 {
		return nil, fail("fetch redirect", ErrNotFound)
	}
	return found[shortCode], nil
}

// Redirects returns the redirects of the live codes among shortCodes, by
// short code (as RedirectsByShortCode); a code missing from the answer is
// unknown or deleted. The redirect cache refreshes its hot entries with
// it, a query per batch instead of one per code. Short codes that cannot
// exist (ValidShortCode) are left out of the query.
func (s *Store) Redirects(ctx context.Context, shortCodes []string) (map[string][]Redirect, error) {
	valid := make([]string, 0, len(shortCodes))
	for _, code := range shortCodes {
		if ValidShortCode(code) {
			valid = append(valid, code)
		}
	}
	if len(valid) == 0 {
		return map[string][]Redirect{}, nil
	}
	list, err := json.Marshal(valid)
	if err != nil {
		return nil, fail("fetch redirects", err)
	}
	rows, err := s.read.QueryContext(ctx, redirectQuery(`d.short_code IN (`+s.jsonStrings(1)+`)`), string(list))
	if err != nil {
		return nil, fail("fetch redirects", err)
	}
	return scanRedirects(rows, "fetch redirects", len(valid))
}

// RecentRedirects returns the redirects of the short codes of the limit
// live codes scanned, or else created, most recently, by short code (as
// Redirects: every host's code of each): what a starting instance loads
// into its redirect cache, so that its first scans under load do not each
// wait on the database.
func (s *Store) RecentRedirects(ctx context.Context, limit int) (map[string][]Redirect, error) {
	rows, err := s.read.QueryContext(ctx, redirectQuery(`d.short_code IN (
		SELECT r.short_code FROM dynamic_qr_codes r JOIN workspaces rw ON rw.id = r.workspace_id
		WHERE NOT r.is_deleted AND NOT rw.is_deleted
		ORDER BY COALESCE((SELECT last_scanned_at FROM scan_counts WHERE dynamic_qr_code_id = r.id), r.created_at) DESC LIMIT $1)`), limit)
	if err != nil {
		return nil, fail("fetch recent redirects", err)
	}
	return scanRedirects(rows, "fetch recent redirects", limit)
}

// updateDynamic runs an UPDATE … SET set on the workspace's live code and
// returns the code as it is afterwards.
func (s *Store) updateDynamic(ctx context.Context, action string, workspaceID, id int64, set string, args ...any) (*DynamicCode, error) {
	var d *DynamicCode
	err := s.inTx(ctx, action, func(tx *sql.Tx) (err error) {
		d, err = s.updateDynamicIn(ctx, tx, action, workspaceID, id, set, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.redirectsChanged(ctx, d.ShortCode)
	return d, s.withTags(ctx, nil, []*DynamicCode{d})
}

// updateDynamicIn is updateDynamic's change in tx: the UPDATE, the search
// text, one audit entry and the webhook events of what changed. The
// caller announces the redirect after commit.
func (s *Store) updateDynamicIn(ctx context.Context, tx *sql.Tx, action string, workspaceID, id int64, set string, args ...any) (*DynamicCode, error) {
	// On PostgreSQL the row is locked before it is read, so concurrent
	// changes each compare with what the one before left (one audit entry
	// per change); SQLite's writer runs one transaction at a time.
	before, err := scanDynamic(tx.QueryRowContext(ctx,
		`SELECT `+dynamicColumns+` FROM dynamic_qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`+s.forUpdate(""), id, workspaceID))
	if err != nil {
		return nil, fail(action, err)
	}
	params := append([]any{id, workspaceID}, args...)
	res, err := tx.ExecContext(ctx,
		`UPDATE dynamic_qr_codes SET `+set+` WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`, params...)
	if err := mustAffect(action, res, err); err != nil {
		return nil, err
	}
	if err := refreshSearch(ctx, tx, dynamicKind, `id = $1`, id); err != nil {
		return nil, err
	}
	d, err := scanDynamic(tx.QueryRowContext(ctx, `SELECT `+dynamicColumns+` FROM dynamic_qr_codes WHERE id = $1`, id))
	if err != nil {
		return nil, fail(action, err)
	}
	if err := s.auditChanges(ctx, tx, workspaceID, Target{"dynamic_code", id, d.Name}, dynamicState(before), dynamicState(d)); err != nil {
		return nil, err
	}
	var also []string
	if !reflect.DeepEqual(before.Routing, d.Routing) {
		also = append(also, "routing")
	}
	return d, s.codeEvents(ctx, tx, workspaceID, dynamicEventCode(d), dynamicState(before), dynamicState(d), also...)
}

// SetDynamicDestination changes where the workspace's code redirects.
func (s *Store) SetDynamicDestination(ctx context.Context, workspaceID, id int64, destination string, now time.Time) (*DynamicCode, error) {
	return s.SetDynamicContent(ctx, workspaceID, id, destination, "", "", now)
}

// SetDynamicContent changes where the workspace's code redirects and, unless
// empty, the type and type fields (JSON) it was made from; the short code
// and image stay. The link checker checks it again at its next pass.
func (s *Store) SetDynamicContent(ctx context.Context, workspaceID, id int64, destination, qrType, qrData string, now time.Time) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "set destination", workspaceID, id,
		`destination = $3, updated_at = $4, health_checked_at = NULL,
		qr_type = CASE WHEN $5 = '' THEN qr_type ELSE $5 END,
		qr_data = CASE WHEN $6 = '' THEN qr_data ELSE $6 END`, destination, dbTime(now), qrType, qrData)
}

// SetDynamicDomain changes the domain the workspace's code prints: one of
// its verified domains, or nil for the base URL's host. ErrNotFound when
// the code or the domain is not the workspace's, ErrDomainUnverified for a
// pending domain. (A domain that codes print cannot be deleted, and the
// foreign key refuses one deleted meanwhile.)
func (s *Store) SetDynamicDomain(ctx context.Context, workspaceID, id int64, domainID *int64, now time.Time) (*DynamicCode, error) {
	if domainID != nil {
		if err := usableDomain(ctx, s.read, workspaceID, *domainID); err != nil {
			return nil, err
		}
	}
	return s.updateDynamic(ctx, "set domain", workspaceID, id, `domain_id = $3, updated_at = $4`, domainID, dbTime(now))
}

// RenameDynamicCode changes the name of the workspace's code.
func (s *Store) RenameDynamicCode(ctx context.Context, workspaceID, id int64, name string, now time.Time) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "rename dynamic code", workspaceID, id,
		`name = $3, updated_at = $4`, name, dbTime(now))
}

// SetDynamicPaused pauses or resumes the workspace's code. Pausing a paused
// code keeps its first PausedAt.
func (s *Store) SetDynamicPaused(ctx context.Context, workspaceID, id int64, paused bool, now time.Time) (*DynamicCode, error) {
	set := `is_paused = FALSE, paused_at = NULL, updated_at = $3`
	if paused {
		set = `is_paused = TRUE, paused_at = COALESCE(paused_at, $3), updated_at = $3`
	}
	return s.updateDynamic(ctx, fmt.Sprintf("set paused=%t", paused), workspaceID, id, set, dbTime(now))
}

// SetDynamicPassword sets the bcrypt hash that guards the workspace's code's
// scans; an empty hash removes the password.
func (s *Store) SetDynamicPassword(ctx context.Context, workspaceID, id int64, hash string, now time.Time) (*DynamicCode, error) {
	return s.updateDynamic(ctx, "set password", workspaceID, id, `password_hash = NULLIF($3, ''), updated_at = $4`, hash, dbTime(now))
}

// DynamicPasswordHash returns the password hash of a live code by id, ""
// when it has none, or ErrNotFound.
func (s *Store) DynamicPasswordHash(ctx context.Context, id int64) (string, error) {
	var hash sql.NullString
	err := s.read.QueryRowContext(ctx,
		`SELECT password_hash FROM dynamic_qr_codes WHERE id = $1 AND NOT is_deleted`, id).Scan(&hash)
	if err != nil {
		return "", fail("fetch code password", err)
	}
	return hash.String, nil
}

// DeleteDynamicCode soft-deletes the workspace's code: its short code stops
// redirecting and it no longer counts against the limit, but its row and
// scans stay (out of the rollups: the account's analytics leave it out).
// It returns the deleted code's short code.
func (s *Store) DeleteDynamicCode(ctx context.Context, workspaceID, id int64, now time.Time) (string, error) {
	var shortCode string
	err := s.inTx(ctx, "delete dynamic code", func(tx *sql.Tx) error {
		// The workspace's rollup lock comes before the code's row (rollupLock).
		if err := s.rollupLock(ctx, sqlTx{tx}, []int64{workspaceID}); err != nil {
			return fail("lock the owner's rollups", err)
		}
		var name string
		err := tx.QueryRowContext(ctx, `
			UPDATE dynamic_qr_codes SET is_deleted = TRUE, deleted_at = $3, updated_at = $3
			WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted
			RETURNING short_code, name`, id, workspaceID, dbTime(now)).Scan(&shortCode, &name)
		if err != nil {
			return fail("delete dynamic code", err)
		}
		if err := s.audit(ctx, tx, workspaceID, "code.deleted", Target{"dynamic_code", id, name}, nil); err != nil {
			return err
		}
		code := webhookCode{ID: "d_" + strconv.FormatInt(id, 10), Kind: "dynamic", Name: name, ShortCode: shortCode}
		if err := s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeDeleted, code); err != nil {
			return err
		}
		if err := s.dropCodeRollups(ctx, sqlTx{tx}, workspaceID, id); err != nil {
			return fail("drop the code's rollups", err)
		}
		return nil
	})
	if err == nil {
		s.redirectsChanged(ctx, shortCode)
	}
	return shortCode, err
}

// ErrScanned refuses to change the short code of a code that has been
// scanned: its printed copies point at it.
var ErrScanned = errors.New("store: the code has scans")

// shortCodeTakenSQL is shortCodeTaken's query. The host's test is
// +COALESCE(...), which no index matches: without it SQLite, which has no
// statistics, searched the host's index (every code of the base URL) and
// lowered each short code, 300 µs a creation at 10,000 codes, where the
// index on lower(short_code) finds the few codes that spell it
// (TestShortCodeCheckUsesItsIndex).
const shortCodeTakenSQL = `
	SELECT EXISTS (SELECT 1 FROM dynamic_qr_codes WHERE lower(short_code) = lower($1) AND +COALESCE(domain_id, 0) = $2 AND id <> $3)
		OR EXISTS (SELECT 1 FROM dynamic_qr_codes WHERE short_code = $1 AND NOT short_code_chosen AND id <> $3)`

// rowQuerier reads one row inside or outside a transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// shortCodeTaken reports whether code cannot be a chosen short code on the
// host of domainID (nil: the base URL's): another code (not except) of that
// host has it, or one differing by case alone; or a random code has it
// exactly, on any host (a random short code stays the only code's, so a
// scan of it on the base URL finds it). Other hosts' chosen codes do not
// count: each host answers its own. Deleted codes keep theirs. The unique
// indexes hold it under concurrent creations (ErrConflict).
func shortCodeTaken(ctx context.Context, q rowQuerier, code string, domainID *int64, except int64) (bool, error) {
	var host int64
	if domainID != nil {
		host = *domainID
	}
	var taken bool
	err := q.QueryRowContext(ctx, shortCodeTakenSQL, code, host, except).Scan(&taken)
	if err != nil {
		return false, fail("check a short code", err)
	}
	return taken, nil
}

// shortCodeExists reports whether any code, on any host, deleted or not,
// has code exactly: a random short code drawn again then, so that it is
// the only code's.
func shortCodeExists(ctx context.Context, q rowQuerier, code string) (bool, error) {
	var taken bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM dynamic_qr_codes WHERE short_code = $1)`, code).Scan(&taken)
	if err != nil {
		return false, fail("check a short code", err)
	}
	return taken, nil
}

// ShortCodeTaken reports whether code is taken on the host of domainID
// (nil: the base URL's) for a new chosen short code: what the app's
// availability check answers as the user types.
func (s *Store) ShortCodeTaken(ctx context.Context, code string, domainID *int64) (bool, error) {
	return shortCodeTaken(ctx, s.read, code, domainID, 0)
}

// SetDynamicShortCode gives the workspace's code the chosen short code
// code, which is then its own (ShortCodeChosen). ErrScanned once the code
// has any scan recorded, ErrConflict when code is taken on the code's host
// (ShortCodeTaken), ErrNotFound when the code is not the workspace's. The
// old short code stops answering at once.
func (s *Store) SetDynamicShortCode(ctx context.Context, workspaceID, id int64, code string, now time.Time) (*DynamicCode, error) {
	out, err := s.UpdateCodes(ctx, workspaceID, []CodeChanges{{Dynamic: true, ID: id, ShortCode: code}}, now)
	if err != nil {
		return nil, err
	}
	return out[0].Dynamic, out[0].Err
}

// shortCodeChange checks in tx that the workspace's code id may take the
// chosen short code code on the host of domainID (keep: its own host) and
// returns its short code before: ErrScanned once it has any scan recorded,
// ErrConflict when code is taken there, ErrNotFound when the code is not
// the workspace's. On PostgreSQL the row is locked first.
func (s *Store) shortCodeChange(ctx context.Context, tx *sql.Tx, workspaceID, id int64, code string, domainID *int64, keep bool) (string, error) {
	var old string
	var current *int64
	var scanned bool
	err := tx.QueryRowContext(ctx, `
		SELECT short_code, domain_id,
			EXISTS (SELECT 1 FROM scan_events WHERE dynamic_qr_code_id = dynamic_qr_codes.id)
			OR COALESCE((SELECT scans FROM scan_counts WHERE dynamic_qr_code_id = dynamic_qr_codes.id), 0) > 0
		FROM dynamic_qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`+s.forUpdate(""),
		id, workspaceID).Scan(&old, &current, &scanned)
	if err != nil {
		return "", fail("check a short code change", err)
	}
	if keep {
		domainID = current
	}
	if old == code && keep {
		return old, nil
	}
	if old != code && scanned {
		return "", ErrScanned
	}
	taken, err := shortCodeTaken(ctx, tx, code, domainID, id)
	if err != nil {
		return "", err
	}
	if taken {
		return "", fmt.Errorf("store: short code %q: %w", code, ErrConflict)
	}
	return old, nil
}

// DynamicCodesByShortCode returns the workspace's live dynamic codes whose
// short code is code exactly, one per host at most, in the order they were
// made (none: an empty list): how the compatible APIs and imports (issue
// 34) name codes, choosing the one of a host (CodeOnHost).
func (s *Store) DynamicCodesByShortCode(ctx context.Context, workspaceID int64, code string) ([]*DynamicCode, error) {
	if !ValidShortCode(code) {
		return nil, nil
	}
	rows, err := s.read.QueryContext(ctx,
		`SELECT `+dynamicColumns+` FROM dynamic_qr_codes WHERE short_code = $1 AND workspace_id = $2 AND NOT is_deleted ORDER BY id`, code, workspaceID)
	if err != nil {
		return nil, fail("fetch dynamic codes", err)
	}
	defer rows.Close()
	var list []*DynamicCode
	for rows.Next() {
		d, err := scanDynamic(rows)
		if err != nil {
			return nil, fail("fetch dynamic codes", err)
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("fetch dynamic codes", err)
	}
	return list, s.withTags(ctx, nil, list)
}

// CodeOnHost is the code of list on the host of domainID (nil: the base
// URL's), nil for none.
func CodeOnHost(list []*DynamicCode, domainID *int64) *DynamicCode {
	for _, d := range list {
		if equalID(d.DomainID, domainID) {
			return d
		}
	}
	return nil
}
