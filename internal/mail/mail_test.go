package mail

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestLogMailerLogsRecipientAndSubjectButNoBody(t *testing.T) {
	var buf bytes.Buffer
	var m Mailer = LogMailer{Logger: slog.New(slog.NewTextHandler(&buf, nil))}
	err := m.Send(context.Background(), Message{To: "a@example.com", Subject: "Hi", Text: "Open https://x.example/set-password?token=abc"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"to=a@example.com", "subject=Hi"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log %q lacks %q", buf.String(), want)
		}
	}
	if strings.Contains(buf.String(), "token=abc") {
		t.Errorf("log %q holds the one-time link", buf.String())
	}
}

func TestRenderBuildsBothParts(t *testing.T) {
	link := "https://sq.example/set-password?token=a<b"
	m, err := Render("u@example.com", "trial_password", Data{BaseURL: "https://sq.example", Fields: map[string]any{"Link": link}})
	if err != nil {
		t.Fatal(err)
	}
	if m.To != "u@example.com" || m.Subject != "Your Squarely free trial: choose a password" {
		t.Errorf("header fields: %+v", m)
	}
	if !strings.Contains(m.Text, link) || strings.HasPrefix(m.Text, "Subject:") {
		t.Errorf("text part: %q", m.Text)
	}
	// The HTML part escapes what it is given and links to the base URL.
	if !strings.Contains(m.HTML, "token=a&lt;b") || strings.Contains(m.HTML, "a<b") || !strings.Contains(m.HTML, `href="https://sq.example/"`) {
		t.Errorf("html part: %s", m.HTML)
	}
}

func TestRenderRefusesAnUnknownKind(t *testing.T) {
	if _, err := Render("u@example.com", "no_such_kind", Data{}); err == nil {
		t.Fatal("an unknown kind rendered")
	}
}
