package mail

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestLogMailerLogsTheMessage(t *testing.T) {
	var buf bytes.Buffer
	var m Mailer = LogMailer{Logger: slog.New(slog.NewTextHandler(&buf, nil))}
	err := m.Send(context.Background(), Message{To: "a@example.com", Subject: "Hi", Body: "Open https://x.example/set-password?token=abc"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"to=a@example.com", "subject=Hi", "https://x.example/set-password?token=abc"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log %q lacks %q", buf.String(), want)
		}
	}
}
