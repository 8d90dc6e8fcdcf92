package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/digests"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/zones"
)

// Scheduled digests (package digests): every member lists the
// workspace's schedules and makes their own; viewers only for themselves.
// A schedule is changed, deleted or test-sent by the member who made it,
// or an admin or owner. The unsubscribe link of a digest is
// /unsubscribe/report?token=… (signed-out).

const (
	maxReportSchedules  = 20 // per workspace
	maxReportRecipients = 20 // per schedule
	// sendNowPerHour bounds the test sendings of one schedule.
	sendNowPerHour      = 10
	msgScheduleMissing  = "Report schedule not found"
	msgScheduleNotYours = "Only the member who made this schedule, or an admin or owner of the workspace, may change it"
)

var (
	msgScheduleLimit = "A workspace keeps at most " + strconv.Itoa(maxReportSchedules) +
		" report schedules. Delete one to make another."
	weekdays = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}
)

type reportScheduleJSON struct {
	ID         int64          `json:"id"`
	Scope      shareScopeJSON `json:"scope"`
	ScopeName  string         `json:"scopeName"`
	Frequency  string         `json:"frequency"`
	Weekday    *string        `json:"weekday"` // weekly only
	Hour       int            `json:"hour"`
	TimeZone   string         `json:"timeZone"`
	Format     []string       `json:"format"`
	Recipients []string       `json:"recipients"`
	SendEmpty  bool           `json:"sendEmpty"`
	NextSendAt string         `json:"nextSendAt"`
	CreatedBy  int64          `json:"createdBy"`
	CanEdit    bool           `json:"canEdit"` // the caller may change, delete and test it
}

func toScheduleJSON(sc *store.ReportSchedule, r *http.Request) reportScheduleJSON {
	out := reportScheduleJSON{
		ID: sc.ID, ScopeName: sc.ScopeName, Frequency: sc.Frequency, Hour: sc.Hour, TimeZone: sc.TimeZone,
		Scope:  shareScopeJSON{CodeID: sc.CodeID, TagID: sc.TagID, FolderID: sc.FolderID, Workspace: sc.CodeID+sc.TagID+sc.FolderID == 0},
		Format: sc.Formats, Recipients: []string{}, SendEmpty: sc.SendEmpty,
		NextSendAt: sc.NextSendAt.UTC().Format(time.RFC3339), CreatedBy: sc.CreatedBy, CanEdit: mayChangeSchedule(r, sc),
	}
	if sc.Frequency == digests.Weekly {
		out.Weekday = &weekdays[sc.Weekday]
	}
	for _, rc := range sc.Recipients {
		out.Recipients = append(out.Recipients, rc.Email)
	}
	return out
}

// mayChangeSchedule: its maker, or an admin or owner.
func mayChangeSchedule(r *http.Request, sc *store.ReportSchedule) bool {
	return sc.CreatedBy == auth.UserFrom(r.Context()).ID || auth.Allowed(workspaceFrom(r.Context()).Role, auth.PermManage)
}

// listReportSchedules (GET /api/report-schedules): the workspace's
// schedules, and whether mail goes out at all.
func (s *server) listReportSchedules(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ReportSchedules(r.Context(), wsID(r))
	if err != nil {
		s.internalError(w, "listing report schedules", err)
		return
	}
	out := make([]reportScheduleJSON, len(list))
	for i, sc := range list {
		out[i] = toScheduleJSON(sc, r)
	}
	writeJSON(w, http.StatusOK, map[string]any{"schedules": out, "mailEnabled": s.mailEnabled(), "limit": maxReportSchedules})
}

// readSchedule decodes and checks a schedule's body into sc (of the
// request's workspace); on failure it has answered.
func (s *server) readSchedule(w http.ResponseWriter, r *http.Request, sc *store.ReportSchedule) bool {
	var in struct {
		Scope      *shareScopeJSON `json:"scope"`
		Frequency  string          `json:"frequency"`
		Weekday    *string         `json:"weekday"`
		Hour       *float64        `json:"hour"` // 9.0 is 9; 9.5 is refused below, in words
		TimeZone   string          `json:"timeZone"`
		Format     []string        `json:"format"`
		Recipients []string        `json:"recipients"`
		SendEmpty  bool            `json:"sendEmpty"`
	}
	if !decodeJSON(w, r, &in) {
		return false
	}
	v := &validation{}
	if in.Scope == nil || !in.Scope.valid() {
		v.add("scope", msgShareScope)
	} else {
		sc.CodeID, sc.TagID, sc.FolderID = in.Scope.CodeID, in.Scope.TagID, in.Scope.FolderID
	}
	sc.Frequency = in.Frequency
	switch in.Frequency {
	case digests.Daily, digests.Monthly:
		if in.Weekday != nil {
			v.add("weekday", "weekday is for weekly schedules only")
		}
	case digests.Weekly:
		if in.Weekday == nil || !slices.Contains(weekdays, *in.Weekday) {
			v.add("weekday", "weekday must be one of "+strings.Join(weekdays, ", "))
		} else {
			sc.Weekday = slices.Index(weekdays, *in.Weekday)
		}
	default:
		v.add("frequency", "frequency must be daily, weekly or monthly")
	}
	if in.Hour == nil || *in.Hour < 0 || *in.Hour > 23 || *in.Hour != math.Trunc(*in.Hour) {
		v.add("hour", "hour must be a whole hour from 0 to 23")
	} else {
		sc.Hour = int(*in.Hour)
	}
	loc, err := zones.Check(in.TimeZone)
	if err != nil {
		v.add("timeZone", "timeZone must be an IANA time zone, e.g. Europe/Berlin")
	}
	sc.TimeZone = in.TimeZone
	sc.Formats = []string{}
	for _, f := range in.Format {
		if (f != "pdf" && f != "csv") || slices.Contains(sc.Formats, f) {
			v.add("format", `format must list "pdf", "csv" or both, once each`)
		}
		sc.Formats = append(sc.Formats, f)
	}
	if len(in.Format) == 0 {
		v.add("format", `format must list "pdf", "csv" or both, once each`)
	}
	sc.SendEmpty = in.SendEmpty
	if err := s.readRecipients(r, v, in.Recipients, sc); err != nil {
		s.internalError(w, "reading members", err)
		return false
	}
	if v.failed(w) {
		return false
	}
	sched := digests.Schedule{Frequency: sc.Frequency, Weekday: time.Weekday(sc.Weekday), Hour: sc.Hour, Loc: loc}
	sc.NextSendAt = sched.Next(s.now())
	return true
}

// readRecipients checks the recipients' addresses against the workspace's
// members: a viewer may only name themselves. An error is the store's.
func (s *server) readRecipients(r *http.Request, v *validation, emails []string, sc *store.ReportSchedule) error {
	const field = "recipients"
	if len(emails) == 0 || len(emails) > maxReportRecipients {
		v.add(field, "recipients must list from 1 to "+strconv.Itoa(maxReportRecipients)+" members' e-mail addresses")
		return nil
	}
	me := auth.UserFrom(r.Context())
	viewer := !auth.Allowed(workspaceFrom(r.Context()).Role, auth.PermEdit)
	members, err := s.store.Members(r.Context(), sc.WorkspaceID)
	if err != nil {
		return err
	}
	sc.Recipients = nil
	for _, e := range emails {
		i := slices.IndexFunc(members, func(m *store.Member) bool { return strings.EqualFold(m.Email, strings.TrimSpace(e)) })
		switch {
		case i < 0:
			// The address as given, cut: the message is shown by its field.
			v.add(field, truncate(strings.TrimSpace(e), 254)+" is not a member of this workspace")
			return nil
		case viewer && members[i].UserID != me.ID:
			v.add(field, "Viewers may schedule reports for themselves only")
			return nil
		case slices.ContainsFunc(sc.Recipients, func(rc store.Recipient) bool { return rc.UserID == members[i].UserID }):
			v.add(field, e+" is listed twice")
			return nil
		}
		sc.Recipients = append(sc.Recipients, store.Recipient{UserID: members[i].UserID, Email: members[i].Email})
	}
	return nil
}

// createReportSchedule (POST /api/report-schedules) → 201 with the schedule.
func (s *server) createReportSchedule(w http.ResponseWriter, r *http.Request) {
	sc := &store.ReportSchedule{WorkspaceID: wsID(r), CreatedBy: auth.UserFrom(r.Context()).ID}
	if !s.readSchedule(w, r, sc) {
		return
	}
	if !s.scheduleSaved(w, s.store.CreateReportSchedule(r.Context(), sc, maxReportSchedules, s.now())) {
		return
	}
	s.answerSchedule(w, r, http.StatusCreated, sc.ID)
}

// updateReportSchedule (PUT /api/report-schedules/{id}): the whole
// schedule again; its next sending is worked out anew.
func (s *server) updateReportSchedule(w http.ResponseWriter, r *http.Request) {
	old, ok := s.ownSchedule(w, r)
	if !ok {
		return
	}
	sc := &store.ReportSchedule{ID: old.ID, WorkspaceID: old.WorkspaceID}
	if !s.readSchedule(w, r, sc) {
		return
	}
	if !s.scheduleSaved(w, s.store.UpdateReportSchedule(r.Context(), sc, s.now())) {
		return
	}
	s.answerSchedule(w, r, http.StatusOK, sc.ID)
}

func (s *server) answerSchedule(w http.ResponseWriter, r *http.Request, status int, id int64) {
	sc, err := s.store.ReportSchedule(r.Context(), wsID(r), id)
	if err != nil {
		s.internalError(w, "reading a report schedule", err)
		return
	}
	writeJSON(w, status, toScheduleJSON(sc, r))
}

// scheduleSaved answers a failed save; it reports whether err is nil.
func (s *server) scheduleSaved(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, store.ErrNotFound):
		fieldError(w, "scope", "The code, tag or folder to report on was not found")
	case errors.Is(err, store.ErrNotMember):
		fieldError(w, "recipients", "A recipient is no longer a member of this workspace")
	case errors.Is(err, store.ErrLimit):
		writeError(w, http.StatusConflict, msgScheduleLimit)
	default:
		s.internalError(w, "saving a report schedule", err)
	}
	return false
}

// ownSchedule reads the path's schedule, if the caller may change it; on
// failure it has answered.
func (s *server) ownSchedule(w http.ResponseWriter, r *http.Request) (*store.ReportSchedule, bool) {
	id, ok := idParam(w, r, "id", msgScheduleMissing)
	if !ok {
		return nil, false
	}
	sc, err := s.store.ReportSchedule(r.Context(), wsID(r), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgScheduleMissing)
		return nil, false
	} else if err != nil {
		s.internalError(w, "reading a report schedule", err)
		return nil, false
	}
	if !mayChangeSchedule(r, sc) {
		writeError(w, http.StatusForbidden, msgScheduleNotYours)
		return nil, false
	}
	return sc, true
}

// deleteReportSchedule (DELETE /api/report-schedules/{id}) → 204.
func (s *server) deleteReportSchedule(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.ownSchedule(w, r)
	if !ok {
		return
	}
	if err := s.store.DeleteReportSchedule(r.Context(), sc.WorkspaceID, sc.ID); errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, msgScheduleMissing)
		return
	} else if err != nil {
		s.internalError(w, "deleting a report schedule", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// sendReportNow (POST /api/report-schedules/{id}/send-now): the digest of
// the last full period to the schedule's recipients at once, scans or not.
func (s *server) sendReportNow(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.ownSchedule(w, r)
	if !ok {
		return
	}
	if !s.mailEnabled() {
		writeError(w, http.StatusConflict, msgMailOff)
		return
	}
	if !s.reportTests.take(w, strconv.FormatInt(sc.ID, 10), "This schedule was sent "+strconv.Itoa(sendNowPerHour)+
		" times in the last hour. Please wait before sending it again.") {
		return
	}
	n, err := s.digests.SendNow(r.Context(), sc)
	switch {
	case errors.Is(err, digests.ErrNoRecipients):
		fieldError(w, "recipients", "Nobody is on this schedule any more: add a recipient first")
		return
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusConflict, "The code of this schedule was deleted: change its scope or delete it")
		return
	case errors.Is(err, mail.ErrRejected):
		writeError(w, http.StatusBadGateway, "The mail server refused the report: "+err.Error())
		return
	case err != nil:
		s.internalError(w, "sending a report now", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sent": n, "message": "Report sent to " + strconv.Itoa(n) + " recipient(s)."})
}

// unsubscribeReport serves /unsubscribe/report?token=…: GET shows a
// button, POST (the button, or RFC 8058 one-click) takes the recipient
// off the schedule.
func (s *server) unsubscribeReport(w http.ResponseWriter, r *http.Request) {
	key, err := mailings.UnsubscribeKey(r.Context(), s.store)
	if err != nil {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "loading the unsubscribe key", "err", err)
		s.unsubscribePage(w, http.StatusInternalServerError, unsubscribeView{Title: "Something went wrong", Text: "Please try the link again later."})
		return
	}
	id, user, ok := digests.ParseUnsubscribeToken(key, r.URL.Query().Get("token"))
	if !ok {
		s.unsubscribePage(w, http.StatusBadRequest, unsubscribeView{Title: "Invalid link",
			Text: "This unsubscribe link is not valid. Please use the link from the e-mail exactly as it is."})
		return
	}
	if r.Method == http.MethodGet {
		s.unsubscribePage(w, http.StatusOK, unsubscribeView{Title: "Unsubscribe", Form: true,
			Text: "Stop this scheduled scan report? Other reports and e-mails from Squarely are not affected."})
		return
	}
	// A schedule deleted since, or a second click: the recipient gets no
	// more of it either way.
	if _, err := s.store.RemoveReportRecipient(r.Context(), id, user); err != nil {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "unsubscribing from a report", "err", err)
		s.unsubscribePage(w, http.StatusInternalServerError, unsubscribeView{Title: "Something went wrong",
			Text: "You are not unsubscribed yet. Please try again later."})
		return
	}
	s.unsubscribePage(w, http.StatusOK, unsubscribeView{Title: "You are unsubscribed", Text: "You will get no more of this scheduled report."})
}

// buildDigest is the digests.Builder: the analytics views' report of the
// schedule's scope over [from, to), against the calendar period before,
// with the PDF and CSV downloads' files.
func (s *server) buildDigest(ctx context.Context, sc *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
	sched, err := digests.ScheduleOf(sc)
	if err != nil {
		return nil, err
	}
	q := sc.Query()
	sr := scanRange{from: from, to: to, loc: sched.Loc}
	sr.hourly = to.Sub(from) <= hourlyUpTo
	rep, err := s.buildScanReport(ctx, q, sr)
	if err != nil {
		return nil, err
	}
	pq := q
	pq.From, pq.To = sched.Previous(from)
	prev, err := s.store.ScanCount(ctx, pq)
	if err != nil {
		return nil, err
	}
	rep.Previous = &previousPeriod{From: pq.From.Format(time.RFC3339), To: pq.To.Format(time.RFC3339), Scans: prev}
	d := &digests.Digest{Workspace: sc.WorkspaceName, Scope: "the workspace", From: from, To: to, Scans: rep.Scans, Previous: prev}
	subject := "All dynamic QR codes"
	switch {
	case sc.CodeID > 0:
		d.Scope, subject = "the code "+sc.ScopeName, sc.ScopeName
	case sc.TagID > 0:
		d.Scope, subject = "the tag "+sc.ScopeName, "Tag "+sc.ScopeName
	case sc.FolderID > 0:
		d.Scope, subject = "the folder "+sc.ScopeName, "Folder "+sc.ScopeName
	}
	if sc.CodeID == 0 {
		q.From, q.To = from, to
		top, err := s.store.TopCodes(ctx, q, 100)
		if err != nil {
			return nil, err
		}
		for _, c := range top {
			d.TopCodes = append(d.TopCodes, digests.Count{Name: cmp.Or(c.Name, c.ShortCode), Scans: c.Scans})
		}
	}
	for _, c := range rep.Countries {
		d.Countries = append(d.Countries, digests.Count{Name: c.Country, Scans: c.Scans})
	}
	if rep.UnknownCountry > 0 {
		d.Countries = append(d.Countries, digests.Count{Name: "Unknown", Scans: rep.UnknownCountry})
	}
	for _, k := range slices.SortedFunc(maps.Keys(rep.Devices), func(a, b string) int {
		return cmp.Or(cmp.Compare(rep.Devices[b], rep.Devices[a]), strings.Compare(a, b))
	}) {
		d.Devices = append(d.Devices, digests.Count{Name: k, Scans: rep.Devices[k]})
	}
	for _, rs := range rep.Routes {
		d.Routes = append(d.Routes, digests.Count{Name: rs.Name, Scans: rs.Scans})
	}
	name := "scan-report-" + from.Format(time.DateOnly)
	for _, f := range sc.Formats {
		switch f {
		case "pdf":
			d.Files = append(d.Files, mail.Attachment{Name: name + ".pdf", ContentType: "application/pdf", Data: layoutReport(subject, sr, rep)})
		case "csv":
			data, err := digestCSV(rep, d.TopCodes)
			if err != nil {
				return nil, err
			}
			d.Files = append(d.Files, mail.Attachment{Name: name + ".csv", ContentType: "text/csv", Data: data})
		}
	}
	return d, nil
}

// digestCSV is every breakdown of the report in one CSV (the breakdown
// CSVs' rows, each under its breakdown's name), and the codes' scans.
func digestCSV(rep *scanReportResponse, codes []digests.Count) ([]byte, error) {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write([]string{"breakdown", "name", "scans"})
	cw.Write([]string{"total", rep.From + "/" + rep.To, strconv.FormatInt(rep.Scans, 10)})
	if p := rep.Previous; p != nil {
		cw.Write([]string{"previous", p.From + "/" + p.To, strconv.FormatInt(p.Scans, 10)})
	}
	for _, c := range codes {
		cw.Write([]string{"code", csvCell(c.Name), strconv.FormatInt(c.Scans, 10)})
	}
	for _, by := range breakdowns {
		for _, row := range breakdownRows(rep, by) {
			cw.Write([]string{by, csvCell(row[0]), row[1]})
		}
	}
	cw.Flush()
	return buf.Bytes(), cw.Error()
}
