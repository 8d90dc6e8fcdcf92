package server

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// expectField expects a 400 whose errors name field.
func expectField(t *testing.T, r *response, field string) {
	t.Helper()
	m := expect(t, r, http.StatusBadRequest, "")
	if errs, _ := m["errors"].(map[string]any); errs[field] == nil {
		t.Fatalf("%s %s: %s, want an error about %s", r.Request.Method, r.Request.URL.Path, r.body, field)
	}
}

// lastMail is the newest message to to.
func (b *mailbox) lastMail(t *testing.T, to string) mail.Message {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.sent) - 1; i >= 0; i-- {
		if b.sent[i].To == to {
			return b.sent[i]
		}
	}
	t.Fatalf("no mail to %s", to)
	return mail.Message{}
}

// A weekly digest of the workspace, sent as a test: the figures are the
// raw scans of the last whole week in the schedule's time zone (bots left
// out, a scan an hour either side of the week's edges counted where the
// zone puts it), against the week before, with the PDF and CSV attached;
// its unsubscribe link works signed out and ends the schedule for them.
func TestReportScheduleSendNowAndUnsubscribe(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st) // the clock says Sunday 2026-03-01 12:00 UTC
		c, _ := e.signedIn("digest@example.com")
		menu := e.createDynamic(c, "https://example.com/menu")
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(menu), `{"name":"Menu"}`), http.StatusOK, "")
		flyer := e.createDynamic(c, "https://example.com/flyer")
		expect(t, e.do(c, "PATCH", "/api/dynamic-qrcodes/"+idOf(flyer), `{"name":"Flyer"}`), http.StatusOK, "")
		menuID, _ := strconv.ParseInt(idOf(menu), 10, 64)
		flyerID, _ := strconv.ParseInt(idOf(flyer), 10, 64)

		// The last whole Monday-to-Sunday week in Berlin (UTC+1) is
		// 16-22 February; the one before, 9-15 February.
		berlin, _ := time.LoadLocation("Europe/Berlin")
		from, to := time.Date(2026, 2, 16, 0, 0, 0, 0, berlin), time.Date(2026, 2, 23, 0, 0, 0, 0, berlin)
		prevFrom := time.Date(2026, 2, 9, 0, 0, 0, 0, berlin)
		type scan struct {
			code            int64
			at, country, os string
			bot             bool
		}
		scans := []scan{
			{menuID, "2026-02-15T23:30:00Z", "DE", "iOS", false}, // Monday 00:30 in Berlin: in the week
			{menuID, "2026-02-18T10:00:00Z", "DE", "Android", false},
			{menuID, "2026-02-20T10:00:00Z", "FR", "iOS", false},
			{menuID, "2026-02-20T11:00:00Z", "FR", "iOS", true},     // a bot: left out
			{flyerID, "2026-02-22T22:59:00Z", "", "Windows", false}, // Sunday 23:59 in Berlin
			{flyerID, "2026-02-22T23:30:00Z", "DE", "iOS", false},   // Monday 00:30: the next week
			{menuID, "2026-02-10T09:00:00Z", "DE", "iOS", false},    // the week before
			{flyerID, "2026-02-15T22:30:00Z", "DE", "iOS", false},   // Sunday 23:30 in Berlin: the week before
		}
		var events []store.ScanEvent
		for i, s := range scans {
			at, _ := time.Parse(time.RFC3339, s.at)
			events = append(events, store.ScanEvent{CodeID: s.code, ScannedAt: at, Country: s.country, OS: s.os, IsBot: s.bot,
				DeviceType: map[bool]string{true: "desktop", false: "mobile"}[s.os == "Windows"], VisitorHash: fmt.Sprint("v", i), Route: store.RouteDefault})
		}
		if err := st.RecordScans(context.Background(), events); err != nil {
			t.Fatal(err)
		}
		// What the digest must say, counted from the raw scans.
		var week, before int64
		perCode, countries := map[int64]int64{}, map[string]int64{}
		for _, ev := range events {
			switch {
			case ev.IsBot:
			case !ev.ScannedAt.Before(from) && ev.ScannedAt.Before(to):
				week++
				perCode[ev.CodeID]++
				countries[ev.Country]++
			case !ev.ScannedAt.Before(prevFrom) && ev.ScannedAt.Before(from):
				before++
			}
		}
		if week != 4 || before != 2 || perCode[menuID] != 3 || perCode[flyerID] != 1 {
			t.Fatalf("fixture: week %d, before %d, per code %v", week, before, perCode)
		}

		created := expect(t, e.do(c, "POST", "/api/report-schedules", `{"scope":{"workspace":true},"frequency":"weekly","weekday":"monday",
			"hour":9,"timeZone":"Europe/Berlin","format":["pdf","csv"],"recipients":["Digest@example.com"]}`), http.StatusCreated, "")
		if created["nextSendAt"] != "2026-03-02T08:00:00Z" || created["weekday"] != "monday" || created["canEdit"] != true ||
			fmt.Sprint(created["recipients"]) != "[digest@example.com]" || fmt.Sprint(created["scope"]) != "map[workspace:true]" {
			t.Fatalf("created %v", created)
		}
		id := idOf(created)
		got := expect(t, e.do(c, "POST", "/api/report-schedules/"+id+"/send-now", ""), http.StatusOK, "")
		if got["sent"] != 1.0 {
			t.Fatalf("send-now %v", got)
		}
		m := e.mail.lastMail(t, "digest@example.com")
		if !strings.Contains(m.Subject, "Weekly scan report") || !strings.Contains(m.Subject, "16 Feb 2026 to 22 Feb 2026") {
			t.Errorf("subject %q", m.Subject)
		}
		for _, want := range []string{
			fmt.Sprintf("%d scans, +100%% against the period before (%d scans)", week, before),
			fmt.Sprintf("Menu: %d", perCode[menuID]), fmt.Sprintf("Flyer: %d", perCode[flyerID]),
			fmt.Sprintf("DE: %d", countries["DE"]), fmt.Sprintf("FR: %d", countries["FR"]), fmt.Sprintf("Unknown: %d", countries[""]),
			"mobile: 3", "desktop: 1",
		} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("mail lacks %q:\n%s", want, m.Text)
			}
		}
		if len(m.Attachments) != 2 || m.Attachments[0].Name != "scan-report-2026-02-16.pdf" || !bytes.HasPrefix(m.Attachments[0].Data, []byte("%PDF-")) ||
			m.Attachments[1].Name != "scan-report-2026-02-16.csv" || m.Attachments[1].ContentType != "text/csv" {
			t.Fatalf("attachments %+v", m.Attachments)
		}
		rows, err := csv.NewReader(bytes.NewReader(m.Attachments[1].Data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		csvHas := func(row ...string) bool {
			for _, r := range rows {
				if strings.Join(r, ",") == strings.Join(row, ",") {
					return true
				}
			}
			return false
		}
		for _, row := range [][]string{
			{"total", "2026-02-16T00:00:00+01:00/2026-02-23T00:00:00+01:00", strconv.FormatInt(week, 10)},
			{"previous", "2026-02-09T00:00:00+01:00/2026-02-16T00:00:00+01:00", strconv.FormatInt(before, 10)},
			{"code", "Menu", "3"}, {"code", "Flyer", "1"}, {"country", "DE", "2"}, {"country", "unknown", "1"},
			{"time", "2026-02-16T00:00:00+01:00", "1"}, {"os", "iOS", "2"},
		} {
			if !csvHas(row...) {
				t.Errorf("CSV lacks %v:\n%s", row, m.Attachments[1].Data)
			}
		}

		// The unsubscribe link: in the text and the header, signed out.
		link := strings.Trim(m.Headers["List-Unsubscribe"], "<>")
		if !strings.Contains(m.Text, link) || m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
			t.Fatalf("unsubscribe link %q", link)
		}
		// Test sendings are limited per schedule: 10 an hour.
		for range sendNowPerHour - 1 {
			expect(t, e.do(c, "POST", "/api/report-schedules/"+id+"/send-now", ""), http.StatusOK, "")
		}
		if r := e.do(c, "POST", "/api/report-schedules/"+id+"/send-now", ""); r.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("send-now past the limit: %d", r.StatusCode)
		}
		e.clock.Advance(time.Hour)

		u, _ := url.Parse(link)
		visitor := e.browser()
		expectPage(t, e.do(visitor, "GET", u.RequestURI(), ""), http.StatusOK, "Stop this scheduled scan report?")
		expectPage(t, e.do(visitor, "GET", "/unsubscribe/report?token=x"+u.Query().Get("token"), ""), http.StatusBadRequest, "Invalid link")
		if list := expect(t, e.do(c, "GET", "/api/report-schedules", ""), http.StatusOK, ""); len(list["schedules"].([]any)[0].(map[string]any)["recipients"].([]any)) != 1 {
			t.Fatalf("a GET unsubscribed: %v", list)
		}
		expectPage(t, e.do(visitor, "POST", u.RequestURI(), ""), http.StatusOK, "You are unsubscribed")
		list := expect(t, e.do(c, "GET", "/api/report-schedules", ""), http.StatusOK, "")
		if list["mailEnabled"] != true || len(list["schedules"].([]any)[0].(map[string]any)["recipients"].([]any)) != 0 {
			t.Fatalf("after the unsubscribe: %v", list)
		}
		expectField(t, e.do(c, "POST", "/api/report-schedules/"+id+"/send-now", ""), "recipients")

		// A schedule of a code deleted since sends nothing, and says why.
		flyerOnly := expect(t, e.do(c, "POST", "/api/report-schedules", `{"scope":{"codeId":`+idOf(flyer)+`},"frequency":"daily",
			"hour":9,"timeZone":"UTC","format":["csv"],"recipients":["digest@example.com"]}`), http.StatusCreated, "")
		expect(t, e.do(c, "DELETE", "/api/dynamic-qrcodes/"+idOf(flyer), ""), http.StatusNoContent, "")
		expect(t, e.do(c, "POST", "/api/report-schedules/"+idOf(flyerOnly)+"/send-now", ""), http.StatusConflict,
			"The code of this schedule was deleted: change its scope or delete it")
	})
}

// Every field is checked, with a 400 naming it, and nothing is saved; a
// viewer schedules for themselves only; a schedule is changed by its
// maker or an admin; the limit holds.
func TestReportScheduleValidationAndRights(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner, viewer, editor, admin := f.members["owner"], f.members["viewer"], f.members["editor"], f.members["admin"]
		other, _ := e.signedIn("stranger@example.com")
		foreign := e.createDynamic(other, "https://example.com/theirs")
		body := func(change func(m map[string]string)) string {
			m := map[string]string{"scope": `{"workspace":true}`, "frequency": `"weekly"`, "weekday": `"friday"`, "hour": "8",
				"timeZone": `"America/New_York"`, "format": `["csv"]`, "recipients": `["viewer@example.com"]`}
			change(m)
			var parts []string
			for k, v := range m {
				if v != "" {
					parts = append(parts, `"`+k+`":`+v)
				}
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
		for field, bad := range map[string][]func(m map[string]string){
			"scope": {func(m map[string]string) { m["scope"] = "" }, func(m map[string]string) { m["scope"] = `{"codeId":1,"tagId":2}` },
				func(m map[string]string) { m["scope"] = `{"codeId":` + idOf(foreign) + `}` },
				func(m map[string]string) { m["scope"] = `{"folderId":999999}` }},
			"frequency": {func(m map[string]string) { m["frequency"] = `"hourly"` }},
			"weekday": {func(m map[string]string) { m["weekday"] = "" }, func(m map[string]string) { m["weekday"] = `"funday"` },
				func(m map[string]string) { m["frequency"] = `"daily"` }},
			"hour": {func(m map[string]string) { m["hour"] = "24" }, func(m map[string]string) { m["hour"] = "-1" },
				func(m map[string]string) { m["hour"] = "" }, func(m map[string]string) { m["hour"] = "9.5" }, func(m map[string]string) { m["hour"] = "1e300" }},
			"timeZone": {func(m map[string]string) { m["timeZone"] = `"Mars/Olympus"` }, func(m map[string]string) { m["timeZone"] = `"Local"` },
				func(m map[string]string) { m["timeZone"] = `""` }},
			"format": {func(m map[string]string) { m["format"] = `[]` }, func(m map[string]string) { m["format"] = `["doc"]` },
				func(m map[string]string) { m["format"] = `["pdf","pdf"]` }},
			"recipients": {func(m map[string]string) { m["recipients"] = `[]` }, func(m map[string]string) { m["recipients"] = `["stranger@example.com"]` },
				func(m map[string]string) { m["recipients"] = `["viewer@example.com","VIEWER@example.com"]` }},
		} {
			for _, change := range bad {
				expectField(t, e.do(owner, "POST", "/api/report-schedules", body(change)), field)
			}
		}
		// A stranger's address is echoed in the message, cut to an address's length.
		huge := `["` + strings.Repeat("x", 100_000) + `@example.com"]`
		if r := e.do(owner, "POST", "/api/report-schedules", body(func(m map[string]string) { m["recipients"] = huge })); r.StatusCode != http.StatusBadRequest || len(r.body) > 1000 {
			t.Errorf("a huge stranger's address: %d, %d bytes", r.StatusCode, len(r.body))
		}
		if n := storetest.Count(t, st, "report_schedules"); n != 0 {
			t.Fatalf("refused schedules saved: %d", n)
		}

		// Half an hour is no hour, in words (it was "hour must be a number").
		expect(t, e.do(owner, "POST", "/api/report-schedules", body(func(m map[string]string) { m["hour"] = "9.5" })), http.StatusBadRequest,
			"hour must be a whole hour from 0 to 23")
		// A viewer: for themselves only.
		expectField(t, e.do(viewer, "POST", "/api/report-schedules", body(func(m map[string]string) { m["recipients"] = `["owner@example.com"]` })),
			"recipients")
		mine := expect(t, e.do(viewer, "POST", "/api/report-schedules", body(func(map[string]string) {})), http.StatusCreated, "")
		theirs := expect(t, e.do(editor, "POST", "/api/report-schedules", body(func(m map[string]string) {
			m["recipients"] = `["viewer@example.com","owner@example.com"]`
			m["scope"] = `{"codeId":` + strconv.FormatInt(f.dynamic, 10) + `}`
		})), http.StatusCreated, "")
		if theirs["scopeName"] != "Menu" || len(theirs["recipients"].([]any)) != 2 {
			t.Fatalf("editor's schedule %v", theirs)
		}
		// The viewer may change their own, not the editor's; the admin may both.
		up := expect(t, e.do(viewer, "PUT", "/api/report-schedules/"+idOf(mine), body(func(m map[string]string) {
			m["frequency"], m["weekday"], m["hour"] = `"monthly"`, "", "0.0" // a whole hour written as JSON may write it
		})), http.StatusOK, "")
		if up["frequency"] != "monthly" || up["weekday"] != nil || up["nextSendAt"] != "2026-04-01T04:00:00Z" {
			t.Errorf("updated %v", up)
		}
		expect(t, e.do(viewer, "PUT", "/api/report-schedules/"+idOf(theirs), body(func(map[string]string) {})), http.StatusForbidden, msgScheduleNotYours)
		expect(t, e.do(viewer, "DELETE", "/api/report-schedules/"+idOf(theirs), ""), http.StatusForbidden, msgScheduleNotYours)
		expect(t, e.do(viewer, "POST", "/api/report-schedules/"+idOf(theirs)+"/send-now", ""), http.StatusForbidden, msgScheduleNotYours)
		list := expect(t, e.do(viewer, "GET", "/api/report-schedules", ""), http.StatusOK, "")["schedules"].([]any)
		if len(list) != 2 || list[0].(map[string]any)["canEdit"] != true || list[1].(map[string]any)["canEdit"] != false {
			t.Errorf("viewer's list %v", list)
		}
		expect(t, e.do(admin, "DELETE", "/api/report-schedules/"+idOf(mine), ""), http.StatusNoContent, "")
		expect(t, e.do(other, "DELETE", "/api/report-schedules/"+idOf(theirs), ""), http.StatusNotFound, msgScheduleMissing)
		for _, bad := range []string{"0", "-1", "x", "99999999999999999999"} {
			expect(t, e.do(other, "DELETE", "/api/report-schedules/"+bad, ""), http.StatusNotFound, msgScheduleMissing)
		}

		// The limit, counted over the workspace.
		for i := storetest.Count(t, st, "report_schedules"); i < maxReportSchedules; i++ {
			expect(t, e.do(editor, "POST", "/api/report-schedules", body(func(map[string]string) {})), http.StatusCreated, "")
		}
		expect(t, e.do(admin, "POST", "/api/report-schedules", body(func(map[string]string) {})), http.StatusConflict, msgScheduleLimit)
	})
}

// Without SMTP the schedules are kept, the list says mail is off, a test
// sending is refused, and the log says why none goes out.
func TestReportSchedulesWhileMailIsOff(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, func(d *Deps) { d.Mailer = mail.LogMailer{Logger: slog.New(slog.DiscardHandler)} })
		c, _ := e.signedIn("nomail@example.com")
		created := expect(t, e.do(c, "POST", "/api/report-schedules", `{"scope":{"workspace":true},"frequency":"daily","hour":6,
			"timeZone":"UTC","format":["csv"],"recipients":["nomail@example.com"]}`), http.StatusCreated, "")
		list := expect(t, e.do(c, "GET", "/api/report-schedules", ""), http.StatusOK, "")
		if list["mailEnabled"] != false || len(list["schedules"].([]any)) != 1 {
			t.Errorf("list %v", list)
		}
		expect(t, e.do(c, "POST", "/api/report-schedules/"+idOf(created)+"/send-now", ""), http.StatusConflict, msgMailOff)
		if !strings.Contains(e.logs.String(), "Scheduled report digests are not sent: set SQUARELY_SMTP_URL") {
			t.Errorf("log:\n%s", e.logs.String())
		}
	})
}

// Names time.LoadLocation takes that are no zone a person lives in (the
// server's zone under another name, the Factory placeholder, posixrules,
// the posix/ and right/ copies, paths) are refused with each route's
// invalid-time-zone message wherever a time zone is given: report
// schedules (create and change), a code's routing windows and analytics'
// tz. Real zones, links among them, still pass.
func TestNonLocationTimeZonesRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner := f.members["owner"]
		schedule := func(tz string) string {
			return `{"scope":{"workspace":true},"frequency":"daily","hour":8,"timeZone":"` + tz + `","format":["csv"],"recipients":["viewer@example.com"]}`
		}
		routing := func(tz string) string {
			return `{"rules":[{"when":{"from":"09:00","to":"17:00","timeZone":"` + tz + `"},"destination":"https://example.com/day"}]}`
		}
		code := "/api/dynamic-qrcodes/" + idOf(e.createDynamic(owner, "https://example.com/default"))
		sched := expect(t, e.do(owner, "POST", "/api/report-schedules", schedule("Europe/Berlin")), http.StatusCreated, "")
		schedPath := "/api/report-schedules/" + idOf(sched)
		const (
			schedMsg   = "timeZone must be an IANA time zone, e.g. Europe/Berlin"
			routingMsg = "Rule 1: unknown time zone; use an IANA name such as Europe/Berlin"
		)
		schedules := storetest.Count(t, st, "report_schedules")
		for _, tz := range []string{"Factory", "posixrules", "localtime", "Local", "posix/Europe/Berlin", "right/Europe/Berlin",
			"./UTC", "Europe//Berlin", "Europe/Berlin/", "europe/berlin", "SystemV/EST5", "zone.tab", "/etc/localtime", "../zoneinfo/UTC"} {
			got := expect(t, e.do(owner, "POST", "/api/report-schedules", schedule(tz)), http.StatusBadRequest, "")
			if got["errors"].(map[string]any)["timeZone"] != schedMsg {
				t.Errorf("schedule %q: %v", tz, got)
			}
			got = expect(t, e.do(owner, "PUT", schedPath, schedule(tz)), http.StatusBadRequest, "")
			if got["errors"].(map[string]any)["timeZone"] != schedMsg {
				t.Errorf("schedule change %q: %v", tz, got)
			}
			got = expect(t, e.do(owner, "PUT", code+"/routing", routing(tz)), http.StatusBadRequest, "")
			if got["errors"].(map[string]any)["rules.0.when.timeZone"] != routingMsg {
				t.Errorf("routing %q: %v", tz, got)
			}
			got = expect(t, e.do(owner, "GET", "/api/analytics/breakdown.csv?by=country&tz="+url.QueryEscape(tz), ""), http.StatusBadRequest, "Unknown time zone")
			if got["errors"].(map[string]any)["tz"] != "Unknown time zone" {
				t.Errorf("analytics %q: %v", tz, got)
			}
		}
		if n := storetest.Count(t, st, "report_schedules"); n != schedules {
			t.Fatalf("%d schedules saved", n-schedules)
		}
		if got := expect(t, e.do(owner, "GET", "/api/report-schedules", ""), http.StatusOK, ""); got["schedules"].([]any)[0].(map[string]any)["timeZone"] != "Europe/Berlin" {
			t.Fatalf("schedule changed: %v", got)
		}
		for _, tz := range []string{"America/Argentina/Buenos_Aires", "Etc/GMT+5", "Etc/GMT-14", "America/Port-au-Prince", "UTC", "US/Eastern", "EST5EDT", "GMT0"} {
			expect(t, e.do(owner, "PUT", schedPath, schedule(tz)), http.StatusOK, "")
			expect(t, e.do(owner, "PUT", code+"/routing", routing(tz)), http.StatusOK, "")
			if r := e.do(owner, "GET", "/api/analytics/breakdown.csv?by=country&tz="+url.QueryEscape(tz), ""); r.StatusCode != http.StatusOK {
				t.Errorf("analytics %q: %d %s", tz, r.StatusCode, r.body)
			}
		}
	})
}
