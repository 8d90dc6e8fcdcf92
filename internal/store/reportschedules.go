package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// Report schedules (package digests): a member's digest of a scope (a
// code, a tag's or a folder's codes, or the workspace) mailed to members
// every day, week or month. The caller works out NextSendAt in the
// schedule's time zone; runners take due schedules under a lease, and a
// row per schedule, recipient and period makes each digest go out once.

// ErrNotMember is a recipient who is not a live member of the workspace.
var ErrNotMember = errors.New("store: not a member of the workspace")

// Delivery statuses of a digest for one recipient and period.
const (
	ReportSending = "sending"
	ReportSent    = "sent"
	ReportFailed  = "failed"
	ReportSkipped = "skipped" // no scans in the period, and the schedule did not ask for empty digests
)

// ReportSchedule is one schedule. At most one of CodeID, TagID and
// FolderID is set; none means the whole workspace.
type ReportSchedule struct {
	ID, WorkspaceID         int64
	CreatedBy               int64 // 0 once the member's account is gone
	CodeID, TagID, FolderID int64
	ScopeName               string // the code's, tag's or folder's name, when read
	WorkspaceName           string // when read
	Frequency               string
	Weekday, Hour           int
	TimeZone                string
	Formats                 []string // "pdf", "csv"
	SendEmpty               bool     // mail a digest of a period without scans too
	NextSendAt              time.Time
	// Recipients are the members mailed, by user id; when read, only those
	// still live members, with their addresses.
	Recipients []Recipient
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Recipient is a member a schedule mails.
type Recipient struct {
	UserID int64
	Email  string
}

// Query is the schedule's scope as a scan query of its workspace.
func (sc *ReportSchedule) Query() ScanQuery {
	return ScanQuery{WorkspaceID: sc.WorkspaceID, CodeID: sc.CodeID, TagID: sc.TagID, FolderID: sc.FolderID}
}

// CreateReportSchedule saves sc and fills in ID and the times. A scope
// that is not the workspace's is ErrNotFound, a recipient who is not a
// member ErrNotMember; a workspace with limit schedules already is
// ErrLimit, counted with the workspace's row locked so concurrent
// creations cannot both pass it.
func (s *Store) CreateReportSchedule(ctx context.Context, sc *ReportSchedule, limit int, now time.Time) error {
	sc.CreatedAt, sc.UpdatedAt = normTime(now), normTime(now)
	return s.inTx(ctx, "create report schedule", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, sc.WorkspaceID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM report_schedules WHERE workspace_id = $1`, sc.WorkspaceID).Scan(&n); err != nil {
			return fail("count report schedules", err)
		}
		if n >= limit {
			return ErrLimit
		}
		details, err := s.checkSchedule(ctx, tx, sc)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO report_schedules (workspace_id, created_by, code_id, tag_id, folder_id, frequency, weekday, hour, time_zone,
				formats, send_empty, next_send_at, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`,
			sc.WorkspaceID, nullID(sc.CreatedBy), nullID(sc.CodeID), nullID(sc.TagID), nullID(sc.FolderID), sc.Frequency, sc.Weekday,
			sc.Hour, sc.TimeZone, strings.Join(sc.Formats, ","), sc.SendEmpty, dbTime(sc.NextSendAt), dbTime(sc.CreatedAt)).Scan(&sc.ID)
		if err != nil {
			return fail("create report schedule", err)
		}
		if err := addRecipients(ctx, tx, sc); err != nil {
			return err
		}
		return s.audit(ctx, tx, sc.WorkspaceID, "report_schedule.created", Target{"report_schedule", sc.ID, sc.Frequency}, details)
	})
}

// UpdateReportSchedule replaces one of the workspace's schedules with sc
// (its ID and WorkspaceID), recipients included: ErrNotFound when it is
// not the workspace's, or ErrNotFound and ErrNotMember as
// CreateReportSchedule.
func (s *Store) UpdateReportSchedule(ctx context.Context, sc *ReportSchedule, now time.Time) error {
	sc.UpdatedAt = normTime(now)
	return s.inTx(ctx, "update report schedule", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			UPDATE report_schedules SET code_id = $3, tag_id = $4, folder_id = $5, frequency = $6, weekday = $7, hour = $8,
				time_zone = $9, formats = $10, send_empty = $11, next_send_at = $12, updated_at = $13
			WHERE id = $1 AND workspace_id = $2 RETURNING created_at, COALESCE(created_by, 0)`,
			sc.ID, sc.WorkspaceID, nullID(sc.CodeID), nullID(sc.TagID), nullID(sc.FolderID), sc.Frequency, sc.Weekday, sc.Hour,
			sc.TimeZone, strings.Join(sc.Formats, ","), sc.SendEmpty, dbTime(sc.NextSendAt), dbTime(sc.UpdatedAt)).
			Scan(scanTime(&sc.CreatedAt), &sc.CreatedBy)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		} else if err != nil {
			return fail("update report schedule", err)
		}
		details, err := s.checkSchedule(ctx, tx, sc)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM report_schedule_recipients WHERE schedule_id = $1`, sc.ID); err != nil {
			return fail("update report schedule", err)
		}
		if err := addRecipients(ctx, tx, sc); err != nil {
			return err
		}
		return s.audit(ctx, tx, sc.WorkspaceID, "report_schedule.updated", Target{"report_schedule", sc.ID, sc.Frequency}, details)
	})
}

// checkSchedule checks sc's scope and recipients against its workspace,
// fills in the scope's name and the recipients' addresses, and returns
// the audit details.
func (s *Store) checkSchedule(ctx context.Context, tx *sql.Tx, sc *ReportSchedule) (map[string]any, error) {
	scope, id, name, err := scopeName(ctx, tx, sc.WorkspaceID, sc.CodeID, sc.TagID, sc.FolderID)
	if err != nil {
		return nil, err
	}
	sc.ScopeName = name
	emails := make([]string, len(sc.Recipients))
	for i, r := range sc.Recipients {
		err := tx.QueryRowContext(ctx, `SELECT u.username FROM workspace_members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = $1 AND m.user_id = $2 AND NOT u.is_deleted`, sc.WorkspaceID, r.UserID).Scan(&sc.Recipients[i].Email)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotMember
		} else if err != nil {
			return nil, fail("read a report's recipient", err)
		}
		emails[i] = sc.Recipients[i].Email
	}
	return map[string]any{"scope": scope, "scopeId": id, "frequency": sc.Frequency, "hour": sc.Hour,
		"timeZone": sc.TimeZone, "recipients": emails}, nil
}

func addRecipients(ctx context.Context, tx *sql.Tx, sc *ReportSchedule) error {
	for _, r := range sc.Recipients {
		if _, err := tx.ExecContext(ctx, `INSERT INTO report_schedule_recipients (schedule_id, user_id) VALUES ($1, $2)
			ON CONFLICT DO NOTHING`, sc.ID, r.UserID); err != nil {
			return fail("add a report's recipient", err)
		}
	}
	return nil
}

const scheduleColumns = `r.id, r.workspace_id, COALESCE(r.created_by, 0), COALESCE(r.code_id, 0), COALESCE(r.tag_id, 0),
	COALESCE(r.folder_id, 0), COALESCE(d.name, t.name, f.name, ''), w.name, r.frequency, r.weekday, r.hour, r.time_zone,
	r.formats, r.send_empty, r.next_send_at, r.created_at, r.updated_at`

// scheduleJoins bring in the names for scheduleColumns, and leave out the
// schedules of deleted workspaces. A scope is named only while it is the
// schedule's workspace's: a code moved away is another workspace's.
const scheduleJoins = `JOIN workspaces w ON w.id = r.workspace_id AND NOT w.is_deleted
	LEFT JOIN dynamic_qr_codes d ON d.id = r.code_id AND d.workspace_id = r.workspace_id
	LEFT JOIN tags t ON t.id = r.tag_id AND t.workspace_id = r.workspace_id
	LEFT JOIN folders f ON f.id = r.folder_id AND f.workspace_id = r.workspace_id`

// readSchedules reads the schedules the where clause on r picks, oldest
// first, with their recipients that are still live members.
func (s *Store) readSchedules(ctx context.Context, q queryer, where string, args ...any) ([]*ReportSchedule, error) {
	list := []*ReportSchedule{}
	byID := map[int64]*ReportSchedule{}
	rows, err := q.QueryContext(ctx, `SELECT `+scheduleColumns+` FROM report_schedules r `+scheduleJoins+` WHERE `+where+` ORDER BY r.id`, args...)
	if err != nil {
		return nil, fail("list report schedules", err)
	}
	defer rows.Close()
	for rows.Next() {
		sc := &ReportSchedule{Recipients: []Recipient{}}
		var formats string
		if err := rows.Scan(&sc.ID, &sc.WorkspaceID, &sc.CreatedBy, &sc.CodeID, &sc.TagID, &sc.FolderID, &sc.ScopeName, &sc.WorkspaceName,
			&sc.Frequency, &sc.Weekday, &sc.Hour, &sc.TimeZone, &formats, &sc.SendEmpty, scanTime(&sc.NextSendAt),
			scanTime(&sc.CreatedAt), scanTime(&sc.UpdatedAt)); err != nil {
			return nil, fail("list report schedules", err)
		}
		sc.Formats = strings.Split(formats, ",")
		if formats == "" {
			sc.Formats = []string{}
		}
		list = append(list, sc)
		byID[sc.ID] = sc
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list report schedules", err)
	}
	rows.Close()
	if len(list) == 0 {
		return list, nil
	}
	rrows, err := q.QueryContext(ctx, `
		SELECT x.schedule_id, u.id, u.username FROM report_schedule_recipients x
		JOIN report_schedules r ON r.id = x.schedule_id
		JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = x.user_id
		JOIN users u ON u.id = x.user_id AND NOT u.is_deleted
		WHERE x.schedule_id IN (SELECT r.id FROM report_schedules r `+scheduleJoins+` WHERE `+where+`)
		ORDER BY x.schedule_id, u.username`, args...)
	if err != nil {
		return nil, fail("list report recipients", err)
	}
	defer rrows.Close()
	for rrows.Next() {
		var id int64
		var rc Recipient
		if err := rrows.Scan(&id, &rc.UserID, &rc.Email); err != nil {
			return nil, fail("list report recipients", err)
		}
		if sc := byID[id]; sc != nil {
			sc.Recipients = append(sc.Recipients, rc)
		}
	}
	if err := rrows.Err(); err != nil {
		return nil, fail("list report recipients", err)
	}
	return list, nil
}

// queryer is what readSchedules reads through: the store's pool or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// ReportSchedules lists the workspace's schedules, oldest first.
func (s *Store) ReportSchedules(ctx context.Context, workspaceID int64) ([]*ReportSchedule, error) {
	return s.readSchedules(ctx, s.read, `r.workspace_id = $1`, workspaceID)
}

// ReportSchedule reads one schedule; workspaceID 0 reads it whatever its
// workspace (the unsubscribe link's). ErrNotFound when there is none.
func (s *Store) ReportSchedule(ctx context.Context, workspaceID, id int64) (*ReportSchedule, error) {
	list, err := s.readSchedules(ctx, s.read, `r.id = $1 AND ($2 = 0 OR r.workspace_id = $2)`, id, workspaceID)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, ErrNotFound
	}
	return list[0], nil
}

// DeleteReportSchedule deletes one of the workspace's schedules:
// ErrNotFound when it is not the workspace's.
func (s *Store) DeleteReportSchedule(ctx context.Context, workspaceID, id int64) error {
	return s.inTx(ctx, "delete report schedule", func(tx *sql.Tx) error {
		var frequency string
		err := tx.QueryRowContext(ctx, `DELETE FROM report_schedules WHERE id = $1 AND workspace_id = $2 RETURNING frequency`,
			id, workspaceID).Scan(&frequency)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		} else if err != nil {
			return fail("delete report schedule", err)
		}
		return s.audit(ctx, tx, workspaceID, "report_schedule.deleted", Target{"report_schedule", id, frequency}, nil)
	})
}

// Unsubscribe from a schedule: the recipient's row goes; false when they
// were not (or no longer) on it.
func (s *Store) RemoveReportRecipient(ctx context.Context, scheduleID, userID int64) (bool, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM report_schedule_recipients WHERE schedule_id = $1 AND user_id = $2`, scheduleID, userID)
	if err != nil {
		return false, fail("unsubscribe from a report", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ClaimReportSchedule takes a schedule due at now (its next sending
// reached) that no runner holds, for owner until now+lease: ErrNotFound
// when none is. The claim is one conditional update, so two runners never
// both hold a schedule.
func (s *Store) ClaimReportSchedule(ctx context.Context, owner string, now time.Time, lease time.Duration) (*ReportSchedule, error) {
	var id int64
	err := s.write.QueryRowContext(ctx, `
		UPDATE report_schedules SET lease_owner = $1, lease_until = $3
		WHERE id = (SELECT id FROM report_schedules WHERE next_send_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
			ORDER BY next_send_at LIMIT 1)
			AND next_send_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
		RETURNING id`, owner, dbTime(now), dbTime(now.Add(lease))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, fail("claim a report schedule", err)
	}
	list, err := s.readSchedules(ctx, s.write, `r.id = $1`, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 { // its workspace is deleted: never due again
		_, err := s.write.ExecContext(ctx, `UPDATE report_schedules SET next_send_at = $2, lease_owner = '', lease_until = NULL WHERE id = $1`,
			id, dbTime(farFuture))
		if err != nil {
			return nil, fail("park a report schedule", err)
		}
		return s.ClaimReportSchedule(ctx, owner, now, lease)
	}
	return list[0], nil
}

// RenewReportLease extends owner's lease of a schedule to now+lease:
// ErrNotFound when owner no longer holds it.
func (s *Store) RenewReportLease(ctx context.Context, id int64, owner string, now time.Time, lease time.Duration) error {
	res, err := s.write.ExecContext(ctx, `UPDATE report_schedules SET lease_until = $3 WHERE id = $1 AND lease_owner = $2`,
		id, owner, dbTime(now.Add(lease)))
	if err != nil {
		return fail("renew a report lease", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// FinishReportSchedule moves a schedule owner holds to its next sending
// and releases it. A schedule edited meanwhile keeps the next sending the
// edit set (its updated_at moved past claimed).
func (s *Store) FinishReportSchedule(ctx context.Context, id int64, owner string, next, claimed time.Time) error {
	_, err := s.write.ExecContext(ctx, `
		UPDATE report_schedules SET lease_owner = '', lease_until = NULL,
			next_send_at = CASE WHEN updated_at > $4 THEN next_send_at ELSE $3 END
		WHERE id = $1 AND lease_owner = $2`, id, owner, dbTime(next), dbTime(claimed))
	if err != nil {
		return fail("finish a report schedule", err)
	}
	return nil
}

// StartReportDelivery records that the digest of a schedule's period
// starting at period is going out to a recipient, with status (sending,
// or skipped): false when a row for them and that period exists already,
// so whoever wrote it sends (or sent) it and the caller must not.
func (s *Store) StartReportDelivery(ctx context.Context, scheduleID, userID int64, period time.Time, status string, now time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `
		INSERT INTO report_deliveries (schedule_id, user_id, period_start, status, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (schedule_id, user_id, period_start) DO NOTHING`, scheduleID, userID, dbTime(period), status, dbTime(now))
	if err != nil {
		return false, fail("start a report delivery", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// FinishReportDelivery records how a delivery StartReportDelivery began ended.
func (s *Store) FinishReportDelivery(ctx context.Context, scheduleID, userID int64, period time.Time, status, reason string, now time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE report_deliveries SET status = $4, reason = $5, finished_at = $6
		WHERE schedule_id = $1 AND user_id = $2 AND period_start = $3`,
		scheduleID, userID, dbTime(period), status, reason, dbTime(now))
	if err != nil {
		return fail("finish a report delivery", err)
	}
	return nil
}

// RetryReportDelivery records that a try to mail a delivery (begun by
// StartReportDelivery or ClaimReportRetry) failed for reason, and that
// the next try is due at retryAt.
func (s *Store) RetryReportDelivery(ctx context.Context, scheduleID, userID int64, period time.Time, reason string, retryAt, now time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE report_deliveries SET status = $4, reason = $5, retry_at = $6, finished_at = $7
		WHERE schedule_id = $1 AND user_id = $2 AND period_start = $3`,
		scheduleID, userID, dbTime(period), ReportFailed, reason, dbTime(retryAt), dbTime(now))
	if err != nil {
		return fail("put off a report delivery", err)
	}
	return nil
}

// ReportRetry is a failed delivery whose next try is due, and its
// schedule (nil when its workspace is deleted).
type ReportRetry struct {
	ScheduleID, UserID int64
	PeriodStart        time.Time
	Attempt            int // the try this is, the first being 1
	Schedule           *ReportSchedule
}

// ClaimReportRetry takes a failed delivery whose retry is due at now and
// makes it 'sending' again, its attempts counted: ErrNotFound when none
// is due. The claim is one conditional update, so two runners never both
// retry a delivery, and one a crash leaves 'sending' is not sent again.
func (s *Store) ClaimReportRetry(ctx context.Context, now time.Time) (*ReportRetry, error) {
	var r ReportRetry
	err := s.write.QueryRowContext(ctx, `
		UPDATE report_deliveries SET status = $2, attempts = attempts + 1, retry_at = NULL
		WHERE id = (SELECT id FROM report_deliveries WHERE retry_at <= $1 AND status = $3 ORDER BY retry_at LIMIT 1)
			AND retry_at <= $1 AND status = $3
		RETURNING schedule_id, user_id, period_start, attempts`, dbTime(now), ReportSending, ReportFailed,
	).Scan(&r.ScheduleID, &r.UserID, scanTime(&r.PeriodStart), &r.Attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, fail("claim a report retry", err)
	}
	r.PeriodStart = r.PeriodStart.UTC()
	list, err := s.readSchedules(ctx, s.write, `r.id = $1`, r.ScheduleID)
	if err != nil {
		return nil, err
	}
	if len(list) > 0 {
		r.Schedule = list[0]
	}
	return &r, nil
}

// PruneReportDeliveries deletes the delivery rows written before before
// and returns how many it deleted. A period that old is never due again
// (a runner sends only the latest due period), so its rows no longer
// guard against a second sending.
func (s *Store) PruneReportDeliveries(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM report_deliveries WHERE created_at < $1`, dbTime(before))
	if err != nil {
		return 0, fail("prune report deliveries", err)
	}
	return res.RowsAffected()
}

// ReportDelivery is a digest's delivery to one recipient.
type ReportDelivery struct {
	ScheduleID, UserID int64
	PeriodStart        time.Time
	Status, Reason     string
	Attempts           int
	RetryAt            *time.Time // the next try, of a failed delivery that has one
}

// ReportDeliveries lists a schedule's deliveries, oldest period first.
func (s *Store) ReportDeliveries(ctx context.Context, scheduleID int64) ([]ReportDelivery, error) {
	list := []ReportDelivery{}
	err := s.eachRow(ctx, "list report deliveries", `SELECT schedule_id, user_id, period_start, status, reason, attempts, retry_at FROM report_deliveries
		WHERE schedule_id = $1 ORDER BY period_start, user_id`, []any{scheduleID}, func(rows *sql.Rows) error {
		var d ReportDelivery
		if err := rows.Scan(&d.ScheduleID, &d.UserID, scanTime(&d.PeriodStart), &d.Status, &d.Reason, &d.Attempts, scanNullTime(&d.RetryAt)); err != nil {
			return err
		}
		list = append(list, d)
		return nil
	})
	return list, err
}
