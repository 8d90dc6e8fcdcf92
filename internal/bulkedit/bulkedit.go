// Package bulkedit changes many of a workspace's codes in one step
// (docs/API.md "Bulk edits"): a selection frozen when the job is made (a
// list of ids, or the code list's filter as it matched then), one set of
// changes (or, for a spreadsheet update, each code its own row's), a dry
// run that shows what would change and what would fail, a leased job that
// changes each code once however often its runner stops, and an undo
// within a day.
package bulkedit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/store"
)

const (
	// MaxIDs is the most ids a selection may list.
	MaxIDs = 10000
	// MaxCodes is the most codes a filter may select: a larger change is
	// split by a narrower filter (a folder, a tag, a type).
	MaxCodes = 50000
	// UndoWindow is how long after a job finishes it may be undone; the
	// codes it deleted are settled for good then.
	UndoWindow = 24 * time.Hour
	// DryRunRows is how many codes a dry run shows before and after.
	DryRunRows = 50

	batchSize   = 200 // codes changed per transaction
	lease       = 30 * time.Second
	pollEvery   = time.Second
	maxAttempts = 5
	undoBatch   = 200
	selectPage  = 1000
)

// Destination is a change of a dynamic code's destination: a Template
// with {shortCode}, {name} and {destination}, or the first From replaced
// by To (codes whose destination lacks From are left as they are).
type Destination struct {
	Template string `json:"template,omitempty"`
	From     string `json:"from,omitempty"`
	To       string `json:"to,omitempty"`
}

// Changes are what a job does to every code it selected, checked (ids
// the workspace's, routing valid) by the caller. Destination, routing,
// domain and pause are a dynamic code's: a static code selected for one
// of them fails with a reason.
type Changes struct {
	Destination *Destination   `json:"destination,omitempty"`
	SetRouting  bool           `json:"setRouting,omitempty"`
	Routing     *store.Routing `json:"routing,omitempty"` // nil with SetRouting: cleared
	// SetTags replaces the code's tags with Tags (a spreadsheet's tags
	// column), before any AddTags and RemoveTags.
	SetTags    bool    `json:"setTags,omitempty"`
	Tags       []int64 `json:"tags,omitempty"`
	AddTags    []int64 `json:"addTags,omitempty"`
	RemoveTags []int64 `json:"removeTags,omitempty"`
	SetFolder  bool    `json:"setFolder,omitempty"`
	FolderID   *int64  `json:"folderId,omitempty"` // nil with SetFolder: out of any folder
	// Style is a brand kit's style, as saved (a logo's path included); a
	// dynamic code keeps its error correction unless the kit has a logo
	// (H), a static code is always at H.
	BrandKitID *int64       `json:"brandKitId,omitempty"`
	Style      *store.Style `json:"style,omitempty"`
	SetDomain  bool         `json:"setDomain,omitempty"`
	DomainID   *int64       `json:"domainId,omitempty"` // nil with SetDomain: the base URL
	Paused     *bool        `json:"paused,omitempty"`
	Delete     bool         `json:"delete,omitempty"`
	// Sheet names the spreadsheet of a spreadsheet update, whose items
	// carry their own changes (a row's) and the job none.
	Sheet string `json:"sheet,omitempty"`
	// Move is a move's (StartMove): the job changes no field.
	Move *Move `json:"move,omitempty"`
}

// Move is what a move job needs besides its target (the job's MoveTo).
type Move struct {
	// Limit is the target's limit of live dynamic codes when the move was
	// asked for (0: none), held again in every batch.
	Limit int `json:"limit,omitempty"`
}

// SmallMove is the most codes a move takes in the request that asks for
// it: a larger one is left to the runner.
const SmallMove = batchSize

// StartMove makes a queued job moving the codes refs of workspace from to
// workspace to for the user; limit is the target's limit of live dynamic
// codes (0: none). A move of at most SmallMove codes is made claimed and
// run before it returns (read back with its counts); a larger one wakes
// the runner.
func (r *Runner) StartMove(ctx context.Context, from, to, userID int64, refs []store.CodeRef, limit int) (*store.BulkEditJob, error) {
	raw, err := json.Marshal(Changes{Move: &Move{Limit: limit}})
	if err != nil {
		return nil, err
	}
	j := &store.BulkEditJob{WorkspaceID: from, UserID: userID, Changes: string(raw), MoveTo: &to}
	if len(refs) > SmallMove {
		if err := r.store.CreateBulkEditJob(ctx, j, refs, nil, r.now()); err != nil {
			return nil, err
		}
		r.loop.Wake()
		return j, nil
	}
	// Claimed as it is made: no runner takes it while this request runs it.
	now := r.now()
	if err := r.store.CreateClaimedBulkEditJob(ctx, j, refs, now, now.Add(lease)); err != nil {
		return nil, err
	}
	r.runJob(ctx, j)
	return r.store.BulkEditJob(ctx, from, j.ID)
}

// Empty reports whether c changes nothing.
func (c Changes) Empty() bool {
	return c.Destination == nil && !c.SetRouting && !c.SetTags && len(c.AddTags) == 0 && len(c.RemoveTags) == 0 && !c.SetFolder &&
		c.Style == nil && !c.SetDomain && c.Paused == nil && !c.Delete
}

// Reasons a code cannot take a change.
const (
	MsgStaticDestination = "A static code encodes its content: only dynamic codes have a destination to change"
	MsgStaticRouting     = "Only dynamic codes have routing"
	MsgStaticDomain      = "Only dynamic codes print a custom domain"
	MsgStaticPause       = "Only dynamic codes can be paused"
)

// Edit is the change c makes to one code: its fields after, or why it
// cannot take it.
func (c Changes) Edit(code store.BulkEditCode) (store.CodeFields, string) {
	f := code.Fields
	f.Tags = slices.Clone(f.Tags)
	if c.Delete {
		f.Deleted = true
		return f, ""
	}
	if d := c.Destination; d != nil {
		if !code.Dynamic {
			return f, MsgStaticDestination
		}
		next := f.Destination
		if d.Template != "" {
			next = strings.NewReplacer("{shortCode}", code.ShortCode, "{name}", code.Name, "{destination}", f.Destination).Replace(d.Template)
		} else if strings.Contains(f.Destination, d.From) {
			next = strings.Replace(f.Destination, d.From, d.To, 1)
		}
		if next != f.Destination {
			// The rules of a single edit (PUT /api/dynamic-qrcodes/{id}).
			dest, problem := codes.CheckDestination(next)
			if problem != "" {
				return f, fmt.Sprintf("%s (%s)", problem, truncate(next, 200))
			}
			f.Destination = dest
		}
	}
	if c.SetRouting {
		if !code.Dynamic {
			return f, MsgStaticRouting
		}
		f.Routing = c.Routing
	}
	if c.SetDomain {
		if !code.Dynamic {
			return f, MsgStaticDomain
		}
		f.DomainID = c.DomainID
	}
	if c.Paused != nil {
		if !code.Dynamic {
			return f, MsgStaticPause
		}
		f.Paused = *c.Paused
	}
	if c.SetFolder {
		f.FolderID = c.FolderID
	}
	if c.SetTags {
		f.Tags = slices.Clone(c.Tags)
	}
	for _, t := range c.RemoveTags {
		f.Tags = slices.DeleteFunc(f.Tags, func(x int64) bool { return x == t })
	}
	for _, t := range c.AddTags {
		if !slices.Contains(f.Tags, t) {
			f.Tags = append(f.Tags, t)
		}
	}
	slices.Sort(f.Tags)
	f.Tags = slices.Compact(f.Tags)
	if c.Style != nil {
		st := *c.Style
		switch {
		case !code.Dynamic:
			st.ErrorCorrectionLevel = codes.StaticLevel.String()
		case st.LogoFilePath == "":
			st.ErrorCorrectionLevel = f.Style.ErrorCorrectionLevel
		default:
			st.ErrorCorrectionLevel = "H"
		}
		f.Style = st
	}
	return f, ""
}

// editItem is Edit with an item's own changes (JSON) when it has them.
func (c Changes) editItem(code store.BulkEditCode, own string) (store.CodeFields, string) {
	if own == "" {
		return c.Edit(code)
	}
	var mine Changes
	if err := json.Unmarshal([]byte(own), &mine); err != nil {
		return code.Fields, "The row's changes could not be read"
	}
	return mine.Edit(code)
}

// truncate keeps s's first n bytes, cut on a character: the reason is
// stored as text, which PostgreSQL refuses with half a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ID is a code's id as /api/v1 names it: d_N or s_N.
func ID(dynamic bool, id int64) string {
	if dynamic {
		return fmt.Sprintf("d_%d", id)
	}
	return fmt.Sprintf("s_%d", id)
}

// Select is the selection of filter q: every live code it matches now,
// in the list's order, up to MaxCodes (more is ErrTooMany).
func Select(ctx context.Context, st *store.Store, q store.CodeQuery) ([]store.CodeRef, error) {
	q.Limit, q.After = selectPage, nil
	var refs []store.CodeRef
	for {
		page, err := st.ListCodes(ctx, q)
		if err != nil {
			return nil, err
		}
		refs = append(refs, page...)
		if len(refs) > MaxCodes {
			return nil, ErrTooMany
		}
		if len(page) < q.Limit {
			return refs, nil
		}
		q.After = &page[len(page)-1].Cursor
	}
}

// ErrTooMany refuses a filter selecting more than MaxCodes codes.
var ErrTooMany = fmt.Errorf("a bulk edit changes at most %d codes: narrow the filter", MaxCodes)

// Row is one code of a dry run: its changed fields before and after
// (both empty when the change leaves it as it is).
type Row struct {
	Row       int             `json:"row,omitempty"` // a spreadsheet update's row
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ShortCode string          `json:"shortCode,omitempty"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
}

// Failure is a code a change cannot be made to, and why.
type Failure struct {
	Row    int    `json:"row,omitempty"` // a spreadsheet update's row
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Item is one row of a spreadsheet update: its row number, the code it
// names and that code's own changes.
type Item struct {
	Row     int
	Ref     store.CodeRef
	Changes Changes
}

// Preview is a dry run: the selection's size, its first DryRunRows codes
// before and after, how many would change, and every code that would fail.
type Preview struct {
	Selected int       `json:"selected"`
	Changing int       `json:"changing"`
	Rows     []Row     `json:"rows"`
	Failures []Failure `json:"failures"`
}

// DryRun works out what c would do to the workspace's codes refs,
// changing nothing.
func DryRun(ctx context.Context, st *store.Store, workspaceID int64, refs []store.CodeRef, c Changes) (*Preview, error) {
	items := make([]Item, len(refs))
	for i, r := range refs {
		items[i] = Item{Ref: r, Changes: c}
	}
	return DryRunItems(ctx, st, workspaceID, items)
}

// DryRunItems works out what each item's changes would do to its code of
// the workspace, changing nothing.
func DryRunItems(ctx context.Context, st *store.Store, workspaceID int64, items []Item) (*Preview, error) {
	p := &Preview{Selected: len(items), Rows: []Row{}, Failures: []Failure{}}
	for start := 0; start < len(items); start += selectPage {
		part := items[start:min(start+selectPage, len(items))]
		refs := make([]store.CodeRef, len(part))
		for i, it := range part {
			refs[i] = it.Ref
		}
		list, err := st.BulkEditCodes(ctx, workspaceID, refs)
		if err != nil {
			return nil, err
		}
		found := make(map[store.CodeRef]store.BulkEditCode, len(list))
		for _, code := range list {
			found[store.CodeRef{Dynamic: code.Dynamic, ID: code.ID}] = code
		}
		for _, it := range part {
			code, ok := found[store.CodeRef{Dynamic: it.Ref.Dynamic, ID: it.Ref.ID}]
			if !ok {
				continue // gone since it was selected
			}
			after, reason := it.Changes.Edit(code)
			id := ID(code.Dynamic, code.ID)
			if reason != "" {
				p.Failures = append(p.Failures, Failure{Row: it.Row, ID: id, Reason: reason})
				continue
			}
			b, a, changed := store.FieldsDiff(code.Fields, after)
			if changed {
				p.Changing++
			}
			if len(p.Rows) < DryRunRows {
				p.Rows = append(p.Rows, Row{Row: it.Row, ID: id, Name: code.Name, ShortCode: code.ShortCode, Before: b, After: a})
			}
		}
	}
	return p, nil
}

// Start makes a queued job of c over refs for the workspace's user, and
// wakes the runner.
func (r *Runner) Start(ctx context.Context, workspaceID, userID int64, refs []store.CodeRef, c Changes) (*store.BulkEditJob, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return r.start(ctx, workspaceID, userID, string(raw), refs, nil)
}

// StartItems makes a queued job of a spreadsheet update, each item with
// its own changes, for the workspace's user, and wakes the runner.
func (r *Runner) StartItems(ctx context.Context, workspaceID, userID int64, sheet string, items []Item) (*store.BulkEditJob, error) {
	raw, err := json.Marshal(Changes{Sheet: sheet})
	if err != nil {
		return nil, err
	}
	refs, own := make([]store.CodeRef, len(items)), make([]string, len(items))
	for i, it := range items {
		b, err := json.Marshal(it.Changes)
		if err != nil {
			return nil, err
		}
		refs[i], own[i] = it.Ref, string(b)
	}
	return r.start(ctx, workspaceID, userID, string(raw), refs, own)
}

func (r *Runner) start(ctx context.Context, workspaceID, userID int64, changes string, refs []store.CodeRef, own []string) (*store.BulkEditJob, error) {
	j := &store.BulkEditJob{WorkspaceID: workspaceID, UserID: userID, Changes: changes}
	if err := r.store.CreateBulkEditJob(ctx, j, refs, own, r.now()); err != nil {
		return nil, err
	}
	r.loop.Wake()
	return j, nil
}

// Undo restores what the workspace's job changed (store.UndoBulkEdit)
// while its window lasts; limit is the workspace's on live dynamic codes
// (0: none).
func (r *Runner) Undo(ctx context.Context, workspaceID, id int64, limit int) (int, []store.UndoSkip, error) {
	now := r.now()
	return r.store.UndoBulkEdit(ctx, workspaceID, id, now.Add(-UndoWindow), now, undoBatch, limit)
}

// Runner runs queued bulk edits; every instance runs one, and a job is
// held under a lease, so it resumes on another runner when its instance
// stops.
type Runner struct {
	store *store.Store
	log   *slog.Logger
	now   func() time.Time
	loop  *jobs.Loop

	// AfterBatch, for tests, runs after each batch of codes is changed.
	AfterBatch func(j *store.BulkEditJob)
}

// NewRunner returns a runner over st; Run starts it. log and now may be
// nil.
func NewRunner(st *store.Store, log *slog.Logger, now func() time.Time) *Runner {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Runner{store: st, log: log, now: now, loop: jobs.NewLoop(pollEvery)}
}

// Run works through jobs until ctx ends, and settles the jobs whose undo
// window ended.
func (r *Runner) Run(ctx context.Context) { r.loop.Run(ctx, r.Pass) }

// Pass runs every claimable job, then settles the jobs past their undo
// window.
func (r *Runner) Pass(ctx context.Context) {
	err := jobs.Drain(ctx, func(ctx context.Context) (*store.BulkEditJob, error) {
		now := r.now()
		return r.store.ClaimBulkEditJob(ctx, now, now.Add(lease))
	}, func(j *store.BulkEditJob) error {
		r.runJob(ctx, j)
		return nil
	})
	if err != nil && ctx.Err() == nil {
		r.log.Error("claiming a bulk edit", "err", err)
	}
	if err := r.store.SettleBulkEdits(ctx, r.now().Add(-UndoWindow)); err != nil && ctx.Err() == nil {
		r.log.Error("settling bulk edits", "err", err)
	}
}

func (r *Runner) runJob(ctx context.Context, j *store.BulkEditJob) {
	var c Changes
	switch {
	case j.Attempts > maxAttempts:
		r.finish(j, store.BulkEditFailed, "The job stopped too many times and was given up; codes not yet changed are marked failed")
		return
	case json.Unmarshal([]byte(j.Changes), &c) != nil:
		r.finish(j, store.BulkEditFailed, "The job's changes could not be read")
		return
	}
	jobs.RunBatches(ctx, r.log.With("bulk_edit", j.ID), pollEvery, func(ctx context.Context) (bool, error) {
		now := r.now()
		var n int
		var err error
		if c.Move != nil {
			n, err = r.store.ApplyMove(ctx, j, batchSize, c.Move.Limit, now, now.Add(lease))
		} else {
			n, err = r.store.ApplyBulkEdit(ctx, j, batchSize, c.editItem, now, now.Add(lease))
		}
		if err == nil && n > 0 && r.AfterBatch != nil {
			r.AfterBatch(j)
		}
		return n == 0 && err == nil, err
	}, func(ctx context.Context) error {
		return r.store.ReleaseBulkEditJob(ctx, j.ID)
	}, func() { r.finish(j, store.BulkEditDone, "") })
}

func (r *Runner) finish(j *store.BulkEditJob, status, reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.store.FinishBulkEditJob(ctx, j.ID, status, reason, r.now()); err != nil && !errors.Is(err, context.Canceled) {
		r.log.Error("finishing a bulk edit", "job", j.ID, "err", err)
	}
}
