package digests

import (
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// A workspace's digest names the workspace once and lists its top codes;
// a code's lists its routes instead (its top codes would be itself, and
// read "No scans"); one attachment or two, the sentence reads right.
func TestMessageByScope(t *testing.T) {
	from := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	base := Digest{Workspace: "Acme", From: from, To: from.AddDate(0, 0, 7), Scans: 46, Previous: 40,
		TopCodes: []Count{{"Menu", 30}}, Countries: []Count{{"DE", 46}}, Devices: []Count{{"mobile", 46}},
		Files: []mail.Attachment{{Name: "scans.csv"}}}
	for _, c := range []struct {
		name           string
		sc             store.ReportSchedule
		scope          string
		want, unwanted []string
	}{
		{"workspace", store.ReportSchedule{Frequency: "weekly", TimeZone: "UTC"}, "the workspace",
			[]string{`Scans of the workspace "Acme" from`, "Top codes:\n  Menu: 30", "Every figure of the period is in the attached scans.csv."},
			[]string{"in the workspace", "Routes:"}},
		{"code", store.ReportSchedule{Frequency: "weekly", TimeZone: "UTC", CodeID: 7}, "the code Menu",
			[]string{`Scans of the code Menu in the workspace "Acme" from`, "Routes:\n  Rule 1: iOS: 12"},
			[]string{"Top codes", "No scans"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := base
			d.Scope = c.scope
			if c.sc.CodeID > 0 {
				d.TopCodes, d.Routes = nil, []Count{{"Rule 1: iOS", 12}}
			}
			msg, err := Message("https://squarely.example", &c.sc, &d, "ann@example.com", "https://squarely.example/unsubscribe/report?token=t")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(msg.Text, w) {
					t.Errorf("the text lacks %q:\n%s", w, msg.Text)
				}
			}
			for _, u := range c.unwanted {
				if strings.Contains(msg.Text, u) || strings.Contains(msg.HTML, u) {
					t.Errorf("the mail holds %q:\n%s", u, msg.Text)
				}
			}
		})
	}
}
