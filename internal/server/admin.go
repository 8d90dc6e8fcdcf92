package server

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
)

// The admin panel (spec 02 §2, issue 9): newsletter stats, mailings that
// run as jobs (internal/mailings), a test e-mail, and the unsubscribe page
// every bulk message links to.

const (
	msgNewsletterMissing = "Please provide both subject and content for the newsletter."
	msgMailingRunning    = "A mailing of this kind is still being sent; wait for it to finish."
	msgMailOff           = "E-mail is off on this server: set SQUARELY_SMTP_URL and SQUARELY_MAIL_FROM to send mail."
	maxSubjectLength     = 200
	maxContentLength     = 50_000
	recentMailings       = 10
)

// mailingJSON is a mailing and its progress. successCount and totalUsers
// are the spec's names for the sent and the recipient counts.
type mailingJSON struct {
	ID           int64      `json:"id"`
	Kind         string     `json:"kind"`
	Subject      string     `json:"subject"`
	Status       string     `json:"status"`
	TotalUsers   int        `json:"totalUsers"`
	SuccessCount int        `json:"successCount"`
	Pending      int        `json:"pending"`
	Failed       int        `json:"failed"`
	Skipped      int        `json:"skipped"`
	Interrupted  int        `json:"interrupted"`
	CreatedAt    time.Time  `json:"createdAt"`
	FinishedAt   *time.Time `json:"finishedAt"`
}

func toMailingJSON(m *store.Mailing) mailingJSON {
	c := m.Counts
	return mailingJSON{
		ID: m.ID, Kind: m.Kind, Subject: m.Subject, Status: m.Status,
		TotalUsers: c.Total, SuccessCount: c.Sent, Pending: c.Pending + c.Sending,
		Failed: c.Failed, Skipped: c.Skipped, Interrupted: c.Interrupted,
		CreatedAt: m.CreatedAt, FinishedAt: m.FinishedAt,
	}
}

// newsletterStats (GET /api/newsletter/stats) counts users and codes, in
// all and over the last 30 days.
func (s *server) newsletterStats(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.NewsletterStats(r.Context(), s.now().Add(-mailings.StatsWindow))
	if err != nil {
		s.internalError(w, "counting newsletter stats", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"totalUsers": st.TotalUsers, "newUsers": st.NewUsers,
		"totalQRCodes": st.TotalQRCodes, "newQRCodes": st.NewQRCodes,
		"mailEnabled": s.mailEnabled(),
	})
}

// mailEnabled reports whether mail really goes out: with the log mailer
// (no SMTP configured) a mailing would only fill the log, so none is
// accepted.
func (s *server) mailEnabled() bool {
	_, logOnly := s.mailer.(mail.LogMailer)
	return !logOnly
}

// sendNewsletter (POST /api/send-newsletter {subject, content,
// includeStats}) queues a newsletter to every live subscription.
func (s *server) sendNewsletter(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Subject      string `json:"subject"`
		Content      string `json:"content"`
		IncludeStats *bool  `json:"includeStats"` // absent = on, as in the form
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	subject, content := strings.TrimSpace(in.Subject), strings.TrimSpace(in.Content)
	var v validation
	switch {
	case subject == "":
		v.add("subject", msgNewsletterMissing)
	case strings.ContainsAny(subject, "\r\n"):
		v.add("subject", "The subject must be a single line.")
	case utf8.RuneCountInString(subject) > maxSubjectLength:
		v.add("subject", "The subject must be at most 200 characters.")
	}
	switch {
	case content == "":
		v.add("content", msgNewsletterMissing)
	case utf8.RuneCountInString(content) > maxContentLength:
		v.add("content", "The content must be at most 50,000 characters.")
	}
	if v.failed(w) {
		return
	}
	s.queueMailing(w, r, &store.Mailing{Kind: store.MailingNewsletter, Subject: subject, Content: content,
		IncludeStats: in.IncludeStats == nil || *in.IncludeStats})
}

// queueKind answers POST /api/send-welcome-to-all and the notification
// mailings, which take no input.
func (s *server) queueKind(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.queueMailing(w, r, &store.Mailing{Kind: kind})
	}
}

// queueMailing saves m with its recipients and wakes the runner; the
// answer (202) is the new mailing, whose progress GET /api/mailings/{id}
// reports.
func (s *server) queueMailing(w http.ResponseWriter, r *http.Request, m *store.Mailing) {
	if !s.mailEnabled() {
		writeError(w, http.StatusServiceUnavailable, msgMailOff)
		return
	}
	m.CreatedBy = auth.UserFrom(r.Context()).ID
	err := s.store.CreateMailing(r.Context(), m, s.now())
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, msgMailingRunning)
		return
	}
	if err != nil {
		s.internalError(w, "queueing a mailing", err)
		return
	}
	if s.mailings != nil {
		s.mailings.Wake()
	}
	out := toMailingJSON(m)
	writeJSON(w, http.StatusAccepted, struct {
		mailingJSON
		Message string `json:"message"`
	}{out, "Sending to " + strconv.Itoa(out.TotalUsers) + " recipients."})
}

// listMailings (GET /api/mailings) returns the latest mailings.
func (s *server) listMailings(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.RecentMailings(r.Context(), recentMailings)
	if err != nil {
		s.internalError(w, "listing mailings", err)
		return
	}
	out := make([]mailingJSON, 0, len(list))
	for _, m := range list {
		out = append(out, toMailingJSON(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"mailings": out})
}

// mailingProgress (GET /api/mailings/{id}) reports one mailing.
func (s *server) mailingProgress(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(w, r, "id", "Mailing not found")
	if !ok {
		return
	}
	m, err := s.store.Mailing(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "Mailing not found")
		return
	}
	if err != nil {
		s.internalError(w, "reading a mailing", err)
		return
	}
	writeJSON(w, http.StatusOK, toMailingJSON(m))
}

// sendTestEmail (POST /api/send-test-email) mails the signed-in admin at
// once, so they can see that mail gets out.
func (s *server) sendTestEmail(w http.ResponseWriter, r *http.Request) {
	if !s.mailEnabled() {
		writeError(w, http.StatusServiceUnavailable, msgMailOff)
		return
	}
	u := auth.UserFrom(r.Context())
	to := strings.ToLower(u.Email)
	if to == "" {
		to = strings.ToLower(u.Username)
	}
	msg, err := mail.Render(to, "mailing_test", mail.Data{BaseURL: s.cfg.BaseURL,
		Fields: map[string]any{"SentAt": s.now().UTC().Format("2 January 2006, 15:04 UTC")}})
	if err != nil {
		s.internalError(w, "rendering the test e-mail", err)
		return
	}
	if err := s.mailer.Send(r.Context(), msg); err != nil {
		s.log.WarnContext(r.Context(), "test e-mail not sent", "to", to, "err", err)
		writeError(w, http.StatusBadGateway, "The test e-mail could not be sent. The server log says why.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Test e-mail sent to " + to + "."})
}

// unsubscribeCSP: the page has inline styles and one form to itself.
const unsubscribeCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"

var unsubscribeTemplate = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.Title}} · Squarely</title></head>
<body style="margin:0;padding:48px 16px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
<main style="max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 12px">{{.Title}}</h1>
<p>{{.Text}}</p>
{{if .Form}}<form method="post"><button type="submit" style="background:#2563eb;color:#fff;border:0;border-radius:6px;padding:10px 16px;font-size:15px;cursor:pointer">Unsubscribe</button></form>{{end}}
<p style="margin-top:24px"><a href="/" style="color:#2563eb">Squarely home</a></p>
</main></body></html>`))

// unsubscribe serves /unsubscribe?token=…: a GET (a person, or a mail
// scanner following links) only shows a button; a POST (the button, or a
// mail client's RFC 8058 one-click request) unsubscribes at once.
func (s *server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	var page unsubscribeView
	status := http.StatusOK
	email, ok := "", false
	if key, err := mailings.UnsubscribeKey(r.Context(), s.store); err != nil {
		s.log.ErrorContext(r.Context(), "internal error", "doing", "loading the unsubscribe key", "err", err)
		status, page.Title, page.Text = http.StatusInternalServerError, "Something went wrong", "Please try the link again later."
	} else {
		email, ok = mailings.ParseUnsubscribeToken(key, r.URL.Query().Get("token"))
	}
	switch {
	case status != http.StatusOK:
	case !ok:
		status, page.Title, page.Text = http.StatusBadRequest, "Invalid link", "This unsubscribe link is not valid. Please use the link from the e-mail exactly as it is."
	case r.Method == http.MethodGet:
		page.Title, page.Text, page.Form = "Unsubscribe", "Stop newsletters and notifications from Squarely to "+email+"?", true
	default:
		if err := s.store.Unsubscribe(r.Context(), email, s.now()); err != nil {
			s.log.ErrorContext(r.Context(), "internal error", "doing", "unsubscribing", "err", err)
			status, page.Title, page.Text = http.StatusInternalServerError, "Something went wrong", "You are not unsubscribed yet. Please try again later."
			break
		}
		page.Title, page.Text = "You are unsubscribed", email+" will get no more newsletters or notifications from Squarely."
	}
	s.unsubscribePage(w, status, page)
}

// unsubscribeView is what an unsubscribe page says, and whether it shows
// the button.
type unsubscribeView struct {
	Title, Text string
	Form        bool
}

// unsubscribePage answers with an unsubscribe page; its form posts to the
// page's own URL, token included.
func (s *server) unsubscribePage(w http.ResponseWriter, status int, page unsubscribeView) {
	var buf bytes.Buffer
	if err := unsubscribeTemplate.Execute(&buf, page); err != nil {
		s.internalError(w, "rendering the unsubscribe page", err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", unsubscribeCSP)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the token stays out of Referer
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
