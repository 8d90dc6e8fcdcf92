package digests

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
)

// TopRows is how many rows each table of the mail shows; the attachments
// hold the rest.
const TopRows = 5

// Digest is one period's report of a schedule's scope: the figures the
// mail shows and the files attached to it.
type Digest struct {
	Workspace string
	Scope     string // "the workspace", "the code Menu", …
	From, To  time.Time
	Scans     int64
	Previous  int64 // the period before, as long
	TopCodes  []Count
	Countries []Count
	Devices   []Count
	Routes    []Count // a code's only
	Files     []mail.Attachment
}

// Count is a table row: a name and its scans.
type Count struct {
	Name  string
	Scans int64
}

// Empty reports whether the period had no scans: such a digest is sent
// only to schedules that ask for it.
func (d *Digest) Empty() bool { return d.Scans == 0 }

// Top is counts' first TopRows rows (callers sort them).
func Top(counts []Count) []Count { return counts[:min(len(counts), TopRows)] }

// ScheduleOf is sc's timing, its time zone loaded.
func ScheduleOf(sc *store.ReportSchedule) (Schedule, error) {
	loc, err := time.LoadLocation(sc.TimeZone)
	if err != nil {
		return Schedule{}, fmt.Errorf("digests: schedule %d: %w", sc.ID, err)
	}
	return Schedule{Frequency: sc.Frequency, Weekday: time.Weekday(sc.Weekday), Hour: sc.Hour, Loc: loc}, nil
}

// unsubscribePurpose names digest unsubscribe tokens (mailings.Token).
const unsubscribePurpose = "report-unsubscribe"

// UnsubscribeURL is the link that takes a recipient off a schedule: a page
// with a button, and the target of one-click POSTs for mail clients. key
// is mailings.UnsubscribeKey's.
func UnsubscribeURL(baseURL string, key []byte, scheduleID, userID int64) string {
	payload := strconv.FormatInt(scheduleID, 10) + "." + strconv.FormatInt(userID, 10)
	return baseURL + "/unsubscribe/report?token=" + url.QueryEscape(mailings.Token(key, unsubscribePurpose, payload))
}

// ParseUnsubscribeToken returns the schedule and recipient a token names.
func ParseUnsubscribeToken(key []byte, token string) (scheduleID, userID int64, ok bool) {
	payload, ok := mailings.ParseToken(key, unsubscribePurpose, token)
	if !ok {
		return 0, 0, false
	}
	a, b, _ := strings.Cut(payload, ".")
	scheduleID, err1 := strconv.ParseInt(a, 10, 64)
	userID, err2 := strconv.ParseInt(b, 10, 64)
	return scheduleID, userID, err1 == nil && err2 == nil
}

// Message is the digest's mail to one recipient, its files attached and
// its unsubscribe link in the body and the List-Unsubscribe header.
func Message(baseURL string, sc *store.ReportSchedule, d *Digest, to, unsubscribeURL string) (mail.Message, error) {
	last := d.To.AddDate(0, 0, -1) // the period's last day, inclusive
	period := d.From.Format("2 Jan 2006")
	if !last.Equal(d.From) {
		period += " to " + last.Format("2 Jan 2006")
	}
	type table struct {
		Title string
		Rows  []Count
	}
	// A code's digest has no top codes: it has its routes instead.
	var tables []table
	if sc.CodeID == 0 {
		tables = append(tables, table{"Top codes", Top(d.TopCodes)})
	}
	tables = append(tables, table{"Countries", Top(d.Countries)}, table{"Devices", Top(d.Devices)})
	if sc.CodeID > 0 {
		tables = append(tables, table{"Routes", Top(d.Routes)})
	}
	var names []string
	for _, f := range d.Files {
		names = append(names, f.Name)
	}
	msg, err := mail.Render(to, "report_digest", mail.Data{BaseURL: baseURL, Fields: map[string]any{
		"Frequency": strings.ToUpper(sc.Frequency[:1]) + sc.Frequency[1:], "Scope": d.Scope, "Workspace": d.Workspace,
		"Period": period, "TimeZone": sc.TimeZone, "Scans": d.Scans, "Previous": d.Previous, "Change": Change(d.Scans, d.Previous),
		"Tables": tables, "Files": strings.Join(names, " and "), "AnalyticsURL": baseURL + "/analytics",
		"UnsubscribeURL": unsubscribeURL, "WholeWorkspace": sc.CodeID+sc.TagID+sc.FolderID == 0,
	}})
	if err != nil {
		return msg, err
	}
	msg.Headers = map[string]string{
		// RFC 8058 one-click unsubscribe: mail clients POST to this URL.
		"List-Unsubscribe":      "<" + unsubscribeURL + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}
	msg.Attachments = d.Files
	return msg, nil
}

// Change compares a count to the previous period's, as the analytics
// dialog and the PDF do: "+25%", "-10%", "up from 0" or "no change".
func Change(now, before int64) string {
	switch {
	case before == 0 && now == 0:
		return "no change"
	case before == 0:
		return "up from 0"
	}
	pct := int64(math.Round(float64(now-before) * 100 / float64(before)))
	if pct >= 0 {
		return "+" + strconv.FormatInt(pct, 10) + "%"
	}
	return strconv.FormatInt(pct, 10) + "%"
}
