package metrics

import (
	"context"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/squarely/squarely/internal/mail"
)

type sentMail struct{ n int }

func (s *sentMail) Send(context.Context, mail.Message) error { s.n++; return nil }

// A log-only mailer stays recognisable as mail being off; a real one is
// counted.
func TestMailerKeepsMailOffRecognisable(t *testing.T) {
	m := &Metrics{mails: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mails"}, []string{"result"})}
	if _, logOnly := m.Mailer(mail.LogMailer{Logger: slog.Default()}).(mail.LogMailer); !logOnly {
		t.Error("the log mailer was wrapped: the server would take mail to be on")
	}
	real := &sentMail{}
	counted := m.Mailer(real)
	if _, logOnly := counted.(mail.LogMailer); logOnly {
		t.Fatal("a real mailer came back as the log mailer")
	}
	if err := counted.Send(context.Background(), mail.Message{To: "a@example.com"}); err != nil || real.n != 1 {
		t.Fatalf("sent %d, %v", real.n, err)
	}
	var sent dto.Metric
	if err := m.mails.WithLabelValues("sent").Write(&sent); err != nil || sent.GetCounter().GetValue() != 1 {
		t.Errorf("counted %v sent, %v", sent.GetCounter().GetValue(), err)
	}
}
