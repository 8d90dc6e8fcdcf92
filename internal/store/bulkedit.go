package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Bulk edits (docs/API.md "Bulk edits"): one change applied to a frozen
// selection of a workspace's codes, an item a code, by a leased runner
// (internal/bulkedit). Each code is changed in the transaction that moves
// its item from pending, with the changed fields before and after, so a
// resumed job changes it once and an undo can restore it.

// Statuses of a bulk edit job.
const (
	BulkEditQueued  = "queued"
	BulkEditRunning = "running"
	BulkEditDone    = "done"
	BulkEditFailed  = "failed"
	BulkEditUndone  = "undone"
)

// ErrUndoClosed refuses the undo of a job that is not finished, or whose
// undo window has ended.
var ErrUndoClosed = errors.New("store: the job cannot be undone")

// BulkEditJob is a bulk edit: its changes (internal/bulkedit's JSON) and
// progress.
type BulkEditJob struct {
	ID, WorkspaceID, UserID int64
	Status                  string
	Changes                 string
	Total                   int
	Processed, Failed       int // counted from the items
	Error                   string
	Attempts                int
	CreatedAt, UpdatedAt    time.Time
	FinishedAt              *time.Time
	// MoveTo is the workspace a move takes the codes to (move.go); nil
	// for a bulk edit.
	MoveTo *int64
}

// CodeFields are the fields of a code a bulk edit may change, as its items
// record them (the changed ones) before and after. A static code has no
// destination, routing, domain or pause.
type CodeFields struct {
	Destination string   `json:"destination"`
	Routing     *Routing `json:"routing"`
	FolderID    *int64   `json:"folderId"`
	DomainID    *int64   `json:"domainId"`
	Paused      bool     `json:"paused"`
	Style       Style    `json:"style"`
	Tags        []int64  `json:"tags"` // ascending
	Deleted     bool     `json:"deleted"`
}

// BulkEditCode is a code as a bulk edit reads it.
type BulkEditCode struct {
	Dynamic   bool
	ID        int64
	Name      string
	ShortCode string // dynamic codes
	Fields    CodeFields

	// What its webhook events start from, when read in a transaction.
	state codeState
	event webhookCode
}

// BulkEdit answers a code's fields after the change, or why the code
// cannot take it (a non-empty reason); changes are its item's own ("":
// the job's).
type BulkEdit func(c BulkEditCode, changes string) (after CodeFields, reason string)

// Statuses of a bulk edit's items.
const (
	editPending   = "pending"
	editChanged   = "changed"
	editUnchanged = "unchanged"
	editFailed    = "failed"
	editUndone    = "undone"
)

const bulkEditJobColumns = `id, workspace_id, user_id, status, changes, total, error, attempts, created_at, updated_at, finished_at, move_to`

func scanBulkEditJob(row interface{ Scan(...any) error }) (*BulkEditJob, error) {
	j := new(BulkEditJob)
	err := row.Scan(&j.ID, &j.WorkspaceID, &j.UserID, &j.Status, &j.Changes, &j.Total, &j.Error, &j.Attempts,
		scanTime(&j.CreatedAt), scanTime(&j.UpdatedAt), scanNullTime(&j.FinishedAt), &j.MoveTo)
	return j, err
}

// editFieldsOf and staticFieldsOf read a code's CodeFields.
func dynamicFields(d *DynamicCode) CodeFields {
	return CodeFields{Destination: d.Destination, Routing: d.Routing, FolderID: d.FolderID, DomainID: d.DomainID,
		Paused: d.IsPaused, Style: d.Style, Tags: tagIDs(d.Tags), Deleted: d.IsDeleted}
}

func staticFields(q *QRCode) CodeFields {
	return CodeFields{FolderID: q.FolderID, Paused: q.IsPaused, Style: q.Style, Tags: tagIDs(q.Tags), Deleted: q.IsDeleted}
}

func tagIDs(tags []Tag) []int64 {
	ids := []int64{}
	for _, t := range tags {
		ids = append(ids, t.ID)
	}
	slices.Sort(ids)
	return ids
}

// BulkEditCodes reads the workspace's live codes of refs (in their order;
// a code gone is left out) as a bulk edit sees them.
func (s *Store) BulkEditCodes(ctx context.Context, workspaceID int64, refs []CodeRef) ([]BulkEditCode, error) {
	statics, dynamics, err := s.CodesByRef(ctx, workspaceID, refs)
	if err != nil {
		return nil, err
	}
	out := make([]BulkEditCode, 0, len(statics)+len(dynamics))
	si, di := 0, 0
	for _, r := range refs {
		switch {
		case r.Dynamic && di < len(dynamics) && dynamics[di].ID == r.ID:
			d := dynamics[di]
			out = append(out, BulkEditCode{Dynamic: true, ID: d.ID, Name: d.Name, ShortCode: d.ShortCode, Fields: dynamicFields(d)})
			di++
		case !r.Dynamic && si < len(statics) && statics[si].ID == r.ID:
			q := statics[si]
			out = append(out, BulkEditCode{ID: q.ID, Name: q.Name, Fields: staticFields(q)})
			si++
		}
	}
	return out, nil
}

// ShortCodeIDs maps each of codes that is a live dynamic code of the
// workspace to its ids: more than one when the same chosen short code is
// on several of its hosts (the base URL's and its domains').
func (s *Store) ShortCodeIDs(ctx context.Context, workspaceID int64, codes []string) (map[string][]int64, error) {
	out := map[string][]int64{}
	list, _ := json.Marshal(codes)
	rows, err := s.read.QueryContext(ctx, `SELECT short_code, id FROM dynamic_qr_codes
		WHERE short_code IN (`+s.jsonStrings(2)+`) AND workspace_id = $1 AND NOT is_deleted ORDER BY id`, workspaceID, string(list))
	if err != nil {
		return nil, fail("find codes by short code", err)
	}
	defer rows.Close()
	for rows.Next() {
		var code string
		var id int64
		if err := rows.Scan(&code, &id); err != nil {
			return nil, fail("find codes by short code", err)
		}
		out[code] = append(out[code], id)
	}
	return out, failOrNil("find codes by short code", rows.Err())
}

// FieldsDiff is the changed fields of before and after, each as JSON
// objects of those fields alone; nothing changed is two empty objects.
func FieldsDiff(before, after CodeFields) (json.RawMessage, json.RawMessage, bool) {
	b, a := fieldMap(before), fieldMap(after)
	ob, oa := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			ob[k], oa[k] = b[k], v
		}
	}
	jb, _ := json.Marshal(ob)
	ja, _ := json.Marshal(oa)
	return jb, ja, len(oa) > 0
}

func fieldMap(f CodeFields) map[string]json.RawMessage {
	if f.Tags == nil {
		f.Tags = []int64{}
	}
	raw, _ := json.Marshal(f)
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(raw, &m)
	return m
}

// CreateBulkEditJob saves j, queued, with an item for each of refs (the
// frozen selection, in order), and its audit entry. changes, when not nil,
// are each item's own changes (a spreadsheet's rows), one a ref.
func (s *Store) CreateBulkEditJob(ctx context.Context, j *BulkEditJob, refs []CodeRef, changes []string, now time.Time) error {
	return s.createBulkEditJob(ctx, j, refs, changes, now, nil)
}

// CreateClaimedBulkEditJob is CreateBulkEditJob with the job running
// already, under a lease until leaseUntil held by the caller (which runs
// it at once; a runner takes it over only once the lease has ended).
func (s *Store) CreateClaimedBulkEditJob(ctx context.Context, j *BulkEditJob, refs []CodeRef, now, leaseUntil time.Time) error {
	return s.createBulkEditJob(ctx, j, refs, nil, now, &leaseUntil)
}

func (s *Store) createBulkEditJob(ctx context.Context, j *BulkEditJob, refs []CodeRef, changes []string, now time.Time, leaseUntil *time.Time) error {
	return s.inTx(ctx, "create bulk edit", func(tx *sql.Tx) error {
		j.Status, j.Total, j.CreatedAt, j.UpdatedAt = BulkEditQueued, len(refs), now, now
		var lease any
		if leaseUntil != nil {
			j.Status, j.Attempts, lease = BulkEditRunning, 1, dbTime(*leaseUntil)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO bulk_edit_jobs (workspace_id, user_id, status, changes, total, created_at, updated_at, move_to, attempts, lease_until)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9) RETURNING id`, j.WorkspaceID, j.UserID, j.Status, j.Changes, j.Total, dbTime(now), j.MoveTo,
			j.Attempts, lease).Scan(&j.ID)
		if err != nil {
			return fail("create bulk edit", err)
		}
		// Many rows a statement: 10,000 codes in a few dozen round trips.
		const chunk = 300
		for start := 0; start < len(refs); start += chunk {
			part := refs[start:min(start+chunk, len(refs))]
			var sb strings.Builder
			args := []any{j.ID}
			for i, r := range part {
				if i > 0 {
					sb.WriteString(", ")
				}
				var own any // NULL: the job's changes
				if changes != nil {
					own = changes[start+i]
				}
				args = append(args, start+i, r.Dynamic, r.ID, own)
				n := len(args)
				fmt.Fprintf(&sb, "($1, $%d, $%d, $%d, $%d, 'pending')", n-3, n-2, n-1, n)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO bulk_edit_items (job_id, seq, dynamic, code_id, changes, status) VALUES `+sb.String(), args...); err != nil {
				return fail("create bulk edit", err)
			}
		}
		var jobChanges any
		_ = json.Unmarshal([]byte(j.Changes), &jobChanges)
		if j.MoveTo != nil {
			return s.audit(ctx, tx, j.WorkspaceID, "move.started", Target{"move", j.ID, ""},
				map[string]any{"total": j.Total, "toWorkspaceId": *j.MoveTo})
		}
		return s.audit(ctx, tx, j.WorkspaceID, "bulk_edit.started", Target{"bulk_edit", j.ID, ""},
			map[string]any{"total": j.Total, "changes": jobChanges})
	})
}

// BulkEditJob returns the workspace's job id with its counts, or
// ErrNotFound.
func (s *Store) BulkEditJob(ctx context.Context, workspaceID, id int64) (*BulkEditJob, error) {
	j, err := scanBulkEditJob(s.read.QueryRowContext(ctx, `SELECT `+bulkEditJobColumns+` FROM bulk_edit_jobs
		WHERE id = $1 AND workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("read bulk edit", err)
	}
	var pending int
	err = s.read.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0)
		FROM bulk_edit_items WHERE job_id = $1`, id).Scan(&pending, &j.Failed)
	if err != nil {
		return nil, fail("count bulk edit items", err)
	}
	j.Processed = j.Total - pending
	return j, nil
}

// BulkEditJobs lists the workspace's latest jobs (moves left out), newest
// first, with their counts.
func (s *Store) BulkEditJobs(ctx context.Context, workspaceID int64, limit int) ([]*BulkEditJob, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM bulk_edit_jobs WHERE workspace_id = $1 AND move_to IS NULL
		ORDER BY id DESC LIMIT $2`, workspaceID, limit)
	if err != nil {
		return nil, fail("list bulk edits", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fail("list bulk edits", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fail("list bulk edits", err)
	}
	list := []*BulkEditJob{}
	for _, id := range ids {
		j, err := s.BulkEditJob(ctx, workspaceID, id)
		if err != nil {
			return nil, err
		}
		list = append(list, j)
	}
	return list, nil
}

// ClaimBulkEditJob takes the oldest queued job, or a running one whose
// lease ran out before now, for a new lease until leaseUntil, and counts
// the attempt. None is ErrNotFound.
func (s *Store) ClaimBulkEditJob(ctx context.Context, now, leaseUntil time.Time) (*BulkEditJob, error) {
	var j *BulkEditJob
	err := s.inTx(ctx, "claim bulk edit", func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM bulk_edit_jobs WHERE status IN ('queued', 'running')
			AND (lease_until IS NULL OR lease_until < $1) ORDER BY id LIMIT 1`+s.forUpdate(" SKIP LOCKED"), dbTime(now)).Scan(&id)
		if err != nil {
			return fail("claim bulk edit", err)
		}
		j, err = scanBulkEditJob(tx.QueryRowContext(ctx, `UPDATE bulk_edit_jobs
			SET status = 'running', lease_until = $1, attempts = attempts + 1, updated_at = $2
			WHERE id = $3 RETURNING `+bulkEditJobColumns, dbTime(leaseUntil), dbTime(now), id))
		return failOrNil("claim bulk edit", err)
	})
	return j, err
}

// ReleaseBulkEditJob ends a runner's lease on a running job, so the next
// runner takes it at once.
func (s *Store) ReleaseBulkEditJob(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE bulk_edit_jobs SET lease_until = NULL WHERE id = $1 AND status = 'running'`, id)
	return failOrNil("release bulk edit", err)
}

// FinishBulkEditJob marks a job done, or failed with a reason (its
// pending items fail with it). The undo window starts now.
func (s *Store) FinishBulkEditJob(ctx context.Context, id int64, status, reason string, now time.Time) error {
	return s.inTx(ctx, "finish bulk edit", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_edit_items SET status = 'failed', error = $1
			WHERE job_id = $2 AND status = 'pending'`, reason, id); err != nil {
			return fail("finish bulk edit", err)
		}
		_, err := tx.ExecContext(ctx, `UPDATE bulk_edit_jobs SET status = $1, error = $2, lease_until = NULL,
			updated_at = $3, finished_at = $3 WHERE id = $4 AND status = 'running'`, status, reason, dbTime(now), id)
		return failOrNil("finish bulk edit", err)
	})
}

// jobActor is ctx naming the user who started a background job in the
// audit log, unless ctx already names an actor.
func jobActor(ctx context.Context, tx *sql.Tx, userID int64) (context.Context, error) {
	if _, ok := ActorFrom(ctx); ok {
		return ctx, nil
	}
	var email string
	if err := tx.QueryRowContext(ctx, `SELECT username FROM users WHERE id = $1`, userID).Scan(&email); err != nil {
		return ctx, fail("read the job's user", err)
	}
	return WithActor(ctx, Actor{Type: "user", ID: userID, Email: email}), nil
}

// editKey names a code of either kind.
type editKey struct {
	dynamic bool
	id      int64
}

// readEditCodes reads and locks the codes refs of the workspace in tx,
// deleted or not, with their tags: two queries a kind. A code not the
// workspace's is missing from the answer.
func (s *Store) readEditCodes(ctx context.Context, tx *sql.Tx, workspaceID int64, refs []editKey) (map[editKey]*BulkEditCode, error) {
	out := map[editKey]*BulkEditCode{}
	for _, dynamic := range []bool{false, true} {
		var ids []int64
		for _, r := range refs {
			if r.dynamic == dynamic {
				ids = append(ids, r.id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		list, _ := json.Marshal(ids)
		k := kindOf(dynamic)
		columns := qrCodeColumns
		if dynamic {
			columns = dynamicColumns
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM `+k.table+`
			WHERE id IN (`+s.jsonInts(2)+`) AND +workspace_id = $1`+s.forUpdate(""), workspaceID, string(list))
		if err != nil {
			return nil, fail("read codes", err)
		}
		for rows.Next() {
			c := &BulkEditCode{Dynamic: dynamic}
			if dynamic {
				d, err := scanDynamic(rows)
				if err != nil {
					rows.Close()
					return nil, fail("read codes", err)
				}
				c.ID, c.Name, c.ShortCode, c.Fields, c.state, c.event = d.ID, d.Name, d.ShortCode, dynamicFields(d), dynamicState(d), dynamicEventCode(d)
			} else {
				q, err := scanQRCode(rows)
				if err != nil {
					rows.Close()
					return nil, fail("read codes", err)
				}
				c.ID, c.Name, c.Fields, c.state, c.event = q.ID, q.Name, staticFields(q), staticState(q), staticEventCode(q)
			}
			c.Fields.Tags = []int64{}
			out[editKey{dynamic, c.ID}] = c
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fail("read codes", err)
		}
		rows, err = tx.QueryContext(ctx, `SELECT `+k.tagColumn+`, tag_id FROM `+k.tagTable+`
			WHERE `+k.tagColumn+` IN (`+s.jsonInts(1)+`) ORDER BY tag_id`, string(list))
		if err != nil {
			return nil, fail("read code tags", err)
		}
		for rows.Next() {
			var id, tag int64
			if err := rows.Scan(&id, &tag); err != nil {
				rows.Close()
				return nil, fail("read code tags", err)
			}
			if c := out[editKey{dynamic, id}]; c != nil {
				c.Fields.Tags = append(c.Fields.Tags, tag)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fail("read code tags", err)
		}
	}
	return out, nil
}

// hasWebhooks reports whether the workspace has an enabled webhook, so a
// batch without any skips looking for subscribers code by code.
func hasWebhooks(ctx context.Context, tx *sql.Tx, workspaceID int64) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhook_endpoints WHERE workspace_id = $1 AND enabled`, workspaceID).Scan(&n)
	return n > 0, failOrNil("find webhook endpoints", err)
}

// writeEditCode writes the fields of c that differ in after, in tx: one
// UPDATE, its tags, its search text and its webhook events. It answers
// why it could not ("" when it did).
func (s *Store) writeEditCode(ctx context.Context, tx *sql.Tx, workspaceID int64, c *BulkEditCode, after CodeFields, now time.Time, hooks bool) (string, error) {
	b, a := c.Fields, after
	k := kindOf(c.Dynamic)
	var set []string
	args := []any{c.ID, workspaceID}
	add := func(col string, v any) {
		args = append(args, v)
		set = append(set, fmt.Sprintf("%s = $%d", col, len(args)))
	}
	if c.Dynamic {
		if a.Destination != b.Destination {
			add("destination", a.Destination)
			set = append(set, "health_checked_at = NULL") // the link checker checks it again
			if slices.Equal(a.Tags, b.Tags) {
				// The new destination in the search text, in the same
				// UPDATE (tags changed: refreshed after them, below).
				set = append(set, fmt.Sprintf("search_text = %s", searchText(k, fmt.Sprintf("$%d", len(args)))))
			}
		}
		if !jsonEqual(a.Routing, b.Routing) {
			text, err := encodeRouting(a.Routing)
			if err != nil {
				return "", fail("encode routing", err)
			}
			var limit any
			if a.Routing != nil && a.Routing.ScanLimit != nil {
				limit = *a.Routing.ScanLimit
			}
			add("routing", text)
			add("scan_limit", limit)
		}
		if !equalID(a.DomainID, b.DomainID) {
			if !a.Deleted {
				// A chosen short code must be free on its new host.
				var chosen bool
				if err := tx.QueryRowContext(ctx, `SELECT short_code_chosen FROM dynamic_qr_codes WHERE id = $1`, c.ID).Scan(&chosen); err != nil {
					return "", fail("read short code", err)
				}
				if chosen {
					taken, err := shortCodeTaken(ctx, tx, c.ShortCode, a.DomainID, c.ID)
					if err != nil {
						return "", err
					}
					if taken {
						return ShortCodeTakenMessage, nil
					}
				}
			}
			add("domain_id", a.DomainID)
		}
		if a.Paused != b.Paused {
			add("is_paused", a.Paused)
			if a.Paused {
				add("paused_at", dbTime(now))
			} else {
				set = append(set, "paused_at = NULL")
			}
		}
	}
	if !equalID(a.FolderID, b.FolderID) {
		add("folder_id", a.FolderID)
	}
	if !jsonEqual(a.Style, b.Style) {
		set = append(set, styleSet(len(args)+1))
		args = append(args, a.Style.insertArgs()...)
	}
	if a.Deleted != b.Deleted {
		if c.Dynamic && !a.Deleted {
			// An undone deletion (UndoBulkEdit holds the rollup lock).
			if err := s.recountRestoredCode(ctx, tx, workspaceID, c.ID); err != nil {
				return "", fail("count the days closed without the code", err)
			}
		}
		add("is_deleted", a.Deleted)
		if a.Deleted {
			add("deleted_at", dbTime(now))
		} else {
			set = append(set, "deleted_at = NULL")
		}
	}
	if c.Dynamic && len(set) > 0 {
		add("updated_at", dbTime(now))
	}
	if len(set) > 0 {
		res, err := tx.ExecContext(ctx, `UPDATE `+k.table+` SET `+strings.Join(set, ", ")+` WHERE id = $1 AND workspace_id = $2`, args...)
		if err := mustAffect("bulk edit a code", res, err); err != nil {
			return "", err
		}
	}
	tagsChanged := !slices.Equal(a.Tags, b.Tags)
	if tagsChanged {
		for _, t := range b.Tags {
			if !slices.Contains(a.Tags, t) {
				if _, err := tx.ExecContext(ctx, `DELETE FROM `+k.tagTable+` WHERE `+k.tagColumn+` = $1 AND tag_id = $2`, c.ID, t); err != nil {
					return "", fail("remove a tag", err)
				}
			}
		}
		for _, t := range a.Tags {
			if !slices.Contains(b.Tags, t) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO `+k.tagTable+` (`+k.tagColumn+`, tag_id) VALUES ($1, $2)
					ON CONFLICT DO NOTHING`, c.ID, t); err != nil {
					return "", fail("add a tag", err)
				}
			}
		}
	}
	if tagsChanged {
		if err := refreshSearch(ctx, tx, k, `id = $1`, c.ID); err != nil {
			return "", err
		}
	}
	if !hooks {
		return "", nil
	}
	// The events' code as it is now, from what was read and written.
	event, afterState := c.event, c.state
	event.Destination, event.IsPaused = a.Destination, a.Paused
	afterState.Destination, afterState.Paused, afterState.Style = a.Destination, a.Paused, a.Style
	if !c.Dynamic {
		event.Destination, afterState.Destination = c.event.Destination, c.state.Destination
	}
	if a.Deleted && !b.Deleted {
		return "", s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeDeleted, event)
	}
	var also []string
	if !jsonEqual(a.Routing, b.Routing) {
		also = append(also, "routing")
	}
	if tagsChanged {
		also = append(also, "tags")
	}
	if !equalID(a.FolderID, b.FolderID) {
		also = append(also, "folder")
	}
	if !equalID(a.DomainID, b.DomainID) {
		also = append(also, "domain")
	}
	return "", s.codeEvents(ctx, tx, workspaceID, event, c.state, afterState, also...)
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func equalID(a, b *int64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func target(c BulkEditCode) Target {
	if c.Dynamic {
		return Target{"dynamic_code", c.ID, c.Name}
	}
	return Target{"code", c.ID, c.Name}
}

// pendingItem is an item of a job still to be done.
type pendingItem struct {
	seq     int
	dynamic bool
	id      int64
	changes string
}

// nextItems renews j's lease until leaseUntil in tx and reads its next n
// pending items, with ctx naming the job's user as the actor. ErrItemTaken
// when another runner holds the job now.
func (s *Store) nextItems(ctx context.Context, tx *sql.Tx, j *BulkEditJob, n int, now, leaseUntil time.Time) (context.Context, []pendingItem, error) {
	// Each claim counts an attempt: another count means another runner
	// claimed the job since this one did.
	res, err := tx.ExecContext(ctx, `UPDATE bulk_edit_jobs SET lease_until = $1, updated_at = $2
		WHERE id = $3 AND status = 'running' AND attempts = $4`, dbTime(leaseUntil), dbTime(now), j.ID, j.Attempts)
	if err := mustAffect("renew bulk edit lease", res, err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return ctx, nil, ErrItemTaken
		}
		return ctx, nil, err
	}
	ctx, err = jobActor(ctx, tx, j.UserID)
	if err != nil {
		return ctx, nil, err
	}
	var items []pendingItem
	rows, err := tx.QueryContext(ctx, `SELECT seq, dynamic, code_id, COALESCE(changes, '') FROM bulk_edit_items
		WHERE job_id = $1 AND status = 'pending' ORDER BY seq LIMIT $2`, j.ID, n)
	if err != nil {
		return ctx, nil, fail("read bulk edit items", err)
	}
	defer rows.Close()
	for rows.Next() {
		var it pendingItem
		if err := rows.Scan(&it.seq, &it.dynamic, &it.id, &it.changes); err != nil {
			return ctx, nil, fail("read bulk edit items", err)
		}
		items = append(items, it)
	}
	return ctx, items, failOrNil("read bulk edit items", rows.Err())
}

// saveItem moves a pending item to status, in the transaction that did
// its change: ErrItemTaken when it is pending no more.
func saveItem(ctx context.Context, tx *sql.Tx, job int64, seq int, status, reason string, before, after json.RawMessage) error {
	res, err := tx.ExecContext(ctx, `UPDATE bulk_edit_items SET status = $1, error = $2, before_values = $3, after_values = $4
		WHERE job_id = $5 AND seq = $6 AND status = 'pending'`, status, reason, string(before), string(after), job, seq)
	if err := mustAffect("save bulk edit item", res, err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return ErrItemTaken
		}
		return err
	}
	return nil
}

// ApplyBulkEdit changes the next n pending codes of job j with edit, in one
// transaction that also renews j's lease until leaseUntil, and answers how
// many it took (0: none was left). A code gone or refused fails its item;
// a code the change leaves as it is is unchanged. ErrItemTaken when
// another runner holds the job now.
func (s *Store) ApplyBulkEdit(ctx context.Context, j *BulkEditJob, n int, edit BulkEdit, now, leaseUntil time.Time) (int, error) {
	var taken int
	var changed []string
	err := s.inTx(ctx, "apply bulk edit", func(tx *sql.Tx) error {
		taken, changed = 0, changed[:0]
		ctx, items, err := s.nextItems(ctx, tx, j, n, now, leaseUntil)
		if err != nil {
			return err
		}
		keys := make([]editKey, len(items))
		for i, it := range items {
			keys[i] = editKey{it.dynamic, it.id}
		}
		found, err := s.readEditCodes(ctx, tx, j.WorkspaceID, keys)
		if err != nil {
			return err
		}
		hooks, err := hasWebhooks(ctx, tx, j.WorkspaceID)
		if err != nil {
			return err
		}
		for _, it := range items {
			status, reason := editChanged, ""
			before, after := json.RawMessage("{}"), json.RawMessage("{}")
			c := found[editKey{it.dynamic, it.id}]
			if c == nil || c.Fields.Deleted {
				status, reason = editFailed, "The code was deleted"
			}
			if status == editChanged {
				var a CodeFields
				a, reason = edit(*c, it.changes)
				var anyChange bool
				if before, after, anyChange = FieldsDiff(c.Fields, a); reason == "" && !anyChange {
					status = editUnchanged
				}
				if reason == "" && anyChange {
					if reason, err = s.writeEditCode(ctx, tx, j.WorkspaceID, c, a, now, hooks); err != nil {
						return err
					}
				}
				if reason != "" {
					status, before, after = editFailed, json.RawMessage("{}"), json.RawMessage("{}")
				} else if anyChange {
					err = s.audit(ctx, tx, j.WorkspaceID, "code.bulk_edited", target(*c),
						map[string]any{"job": j.ID, "before": before, "after": after})
					if err != nil {
						return err
					}
					if c.Dynamic {
						changed = append(changed, c.ShortCode)
					}
				}
			}
			if err := saveItem(ctx, tx, j.ID, it.seq, status, reason, before, after); err != nil {
				return err
			}
			taken++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.redirectsChanged(ctx, changed...)
	return taken, nil
}

// UndoSkip is a code an undo left as it was, and why.
type UndoSkip struct {
	Dynamic bool
	ID      int64
	Reason  string
}

// UndoBulkEdit restores the changed fields of every code the workspace's
// job id changed, n codes a transaction, unless the job finished before
// since (ErrUndoClosed, as for a job not finished). A code whose changed
// fields changed again since (or deleted since) is left as it is and
// listed. A second call finishes an undo that stopped half way.
//
// With limit > 0 (a free workspace) a deleted dynamic code comes back only
// while the workspace is under its limit of live dynamic codes, counted as
// a creation counts them.
func (s *Store) UndoBulkEdit(ctx context.Context, workspaceID, id int64, since, now time.Time, n, limit int) (int, []UndoSkip, error) {
	err := s.inTx(ctx, "undo bulk edit", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE bulk_edit_jobs SET status = 'undone', updated_at = $1
			WHERE id = $2 AND workspace_id = $3 AND move_to IS NULL AND status IN ('done', 'failed', 'undone') AND finished_at >= $4`,
			dbTime(now), id, workspaceID, dbTime(since))
		if err := mustAffect("undo bulk edit", res, err); err != nil {
			if errors.Is(err, ErrNotFound) {
				return ErrUndoClosed
			}
			return err
		}
		return s.audit(ctx, tx, workspaceID, "bulk_edit.undone", Target{"bulk_edit", id, ""}, nil)
	})
	if errors.Is(err, ErrUndoClosed) {
		if j, err := s.BulkEditJob(ctx, workspaceID, id); err != nil {
			return 0, nil, err // not the workspace's: ErrNotFound
		} else if j.MoveTo != nil {
			return 0, nil, ErrNotFound // a move is no bulk edit
		}
		return 0, nil, ErrUndoClosed
	}
	if err != nil {
		return 0, nil, err
	}
	restored, last := 0, -1
	skipped := []UndoSkip{}
	for {
		done := false
		var changed []string
		err := s.inTx(ctx, "undo bulk edit", func(tx *sql.Tx) error {
			// Before any code row: a restored code writes the days closed
			// without it (recountRestoredCode) as a rollup writer does.
			if err := s.rollupLock(ctx, sqlTx{tx}, []int64{workspaceID}); err != nil {
				return fail("lock the workspace's rollups", err)
			}
			changed = changed[:0]
			var batch []UndoSkip
			rows, err := tx.QueryContext(ctx, `SELECT seq, dynamic, code_id, before_values, after_values FROM bulk_edit_items
				WHERE job_id = $1 AND status = 'changed' AND seq > $2 ORDER BY seq LIMIT $3`, id, last, n)
			if err != nil {
				return fail("read bulk edit items", err)
			}
			type item struct {
				seq           int
				dynamic       bool
				id            int64
				before, after string
			}
			var items []item
			for rows.Next() {
				var it item
				if err := rows.Scan(&it.seq, &it.dynamic, &it.id, &it.before, &it.after); err != nil {
					rows.Close()
					return fail("read bulk edit items", err)
				}
				items = append(items, it)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fail("read bulk edit items", err)
			}
			done = len(items) < n
			keys := make([]editKey, len(items))
			for i, it := range items {
				keys[i] = editKey{it.dynamic, it.id}
			}
			found, err := s.readEditCodes(ctx, tx, workspaceID, keys)
			if err != nil {
				return err
			}
			hooks, err := hasWebhooks(ctx, tx, workspaceID)
			if err != nil {
				return err
			}
			for _, it := range items {
				last = it.seq
				reason := ""
				c := found[editKey{it.dynamic, it.id}]
				var back CodeFields
				switch {
				case c == nil:
					reason = "The code no longer exists"
				case !matches(c.Fields, it.after):
					reason = "The code was changed again since"
				default:
					back = c.Fields
					back.Tags = nil
					if err := json.Unmarshal([]byte(it.before), &back); err != nil {
						return fail("read bulk edit item", err)
					}
					if back.Tags == nil {
						back.Tags = c.Fields.Tags
					}
					if c.Dynamic && c.Fields.Deleted && !back.Deleted && limit > 0 {
						if reason, err = s.underLimit(ctx, tx, workspaceID, limit, now); err != nil {
							return err
						}
					}
					if reason == "" {
						if reason, err = s.writeEditCode(ctx, tx, workspaceID, c, back, now, hooks); err != nil {
							return err
						}
					}
				}
				if reason != "" {
					// Left as it is, and listed; its item stays changed,
					// its error saying why it was not restored.
					batch = append(batch, UndoSkip{it.dynamic, it.id, reason})
				} else {
					if err := s.audit(ctx, tx, workspaceID, "code.bulk_edit_undone", target(*c),
						map[string]any{"job": id, "before": json.RawMessage(it.after), "after": json.RawMessage(it.before)}); err != nil {
						return err
					}
					if c.Dynamic {
						changed = append(changed, c.ShortCode)
					}
				}
				status := editUndone
				if reason != "" {
					status = editChanged
				}
				if _, err := tx.ExecContext(ctx, `UPDATE bulk_edit_items SET status = $1, error = $2 WHERE job_id = $3 AND seq = $4`,
					status, reason, id, it.seq); err != nil {
					return fail("save bulk edit item", err)
				}
			}
			skipped = append(skipped, batch...)
			restored += len(items) - len(batch)
			return nil
		})
		if err != nil {
			return restored, skipped, err
		}
		s.redirectsChanged(ctx, changed...)
		if done {
			return restored, skipped, nil
		}
	}
}

// MsgUndoLimit is why an undo leaves a deleted dynamic code deleted.
const MsgUndoLimit = "The dynamic QR code limit is reached: the code stays deleted"

// underLimit answers MsgUndoLimit when the workspace has limit live
// dynamic codes or more, under the lock a creation takes.
func (s *Store) underLimit(ctx context.Context, tx *sql.Tx, workspaceID int64, limit int, now time.Time) (string, error) {
	if err := s.lockAllowance(ctx, tx, workspaceID); err != nil {
		return "", err
	}
	n, err := used(ctx, tx, workspaceID, dynamicUsage, now)
	if err != nil || n < int64(limit) {
		return "", err
	}
	return MsgUndoLimit, nil
}

// matches reports whether the fields of cur named in after (JSON) still
// have after's values.
func matches(cur CodeFields, after string) bool {
	var want map[string]json.RawMessage
	if json.Unmarshal([]byte(after), &want) != nil {
		return false
	}
	have := fieldMap(cur)
	for k, v := range want {
		if !bytes.Equal(have[k], v) {
			return false
		}
	}
	return true
}

// SettleBulkEdits ends the undo window of the jobs that finished before
// since: the dynamic codes they deleted (and still are) leave the
// workspace's analytics rollups then, as a single delete does at once.
func (s *Store) SettleBulkEdits(ctx context.Context, since time.Time) error {
	rows, err := s.read.QueryContext(ctx, `SELECT id, workspace_id FROM bulk_edit_jobs
		WHERE NOT settled AND finished_at IS NOT NULL AND finished_at < $1 ORDER BY id LIMIT 100`, dbTime(since))
	if err != nil {
		return fail("settle bulk edits", err)
	}
	type job struct{ id, ws int64 }
	var list []job
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.id, &j.ws); err != nil {
			rows.Close()
			return fail("settle bulk edits", err)
		}
		list = append(list, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail("settle bulk edits", err)
	}
	for _, j := range list {
		err := s.inTx(ctx, "settle bulk edit", func(tx *sql.Tx) error {
			if err := s.rollupLock(ctx, sqlTx{tx}, []int64{j.ws}); err != nil {
				return fail("lock the owner's rollups", err)
			}
			ids, err := s.deletedByJob(ctx, tx, j.id)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if err := s.dropCodeRollups(ctx, sqlTx{tx}, j.ws, id); err != nil {
					return fail("drop the code's rollups", err)
				}
			}
			_, err = tx.ExecContext(ctx, `UPDATE bulk_edit_jobs SET settled = TRUE WHERE id = $1`, j.id)
			return failOrNil("settle bulk edit", err)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// deletedByJob lists the dynamic codes job deleted that are deleted still.
func (s *Store) deletedByJob(ctx context.Context, tx *sql.Tx, job int64) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT i.code_id, i.after_values FROM bulk_edit_items i
		JOIN dynamic_qr_codes c ON c.id = i.code_id
		WHERE i.job_id = $1 AND i.dynamic AND i.status = 'changed' AND c.is_deleted`, job)
	if err != nil {
		return nil, fail("list deleted codes", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		var after string
		if err := rows.Scan(&id, &after); err != nil {
			return nil, fail("list deleted codes", err)
		}
		if strings.Contains(after, `"deleted":true`) {
			ids = append(ids, id)
		}
	}
	return ids, failOrNil("list deleted codes", rows.Err())
}
