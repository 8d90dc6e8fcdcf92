package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
)

// The public pages' forms (issue 13): the contact form (spec 02 §5) and the
// footer's newsletter sign-up.

const (
	msgContactName    = "Name must be at least 2 characters"
	msgContactEmail   = "Please enter a valid email address"
	msgContactSubject = "Subject must be at least 5 characters"
	msgContactMessage = "Message must be at least 10 characters"
	msgContactType    = "Inquiry type must be one of general, support, business or feedback"
	msgContactSender  = "You have sent several messages in the last hour. Please wait a little; we answer within 24 hours."
	msgContactClient  = "Too many messages from this address. Please try again later."
	msgContactSent    = "Message sent"

	msgNewsletterEmail = "Please enter a valid email address."
	msgSubscribed      = "Subscribed"
)

// Upper bounds the form does not show but the database and the support
// inbox need: long enough for any honest message.
const (
	maxContactName    = 100
	maxContactSubject = 200
	maxContactMessage = 5000
)

// contactsPerSenderPerHour bounds the messages one sender address can send;
// contactsPerClientPerHour the messages from one client address, whatever
// the addresses it gives.
const (
	contactsPerSenderPerHour = 3
	contactsPerClientPerHour = 10
)

var inquiryTypes = []string{"general", "support", "business", "feedback"}

// contact (POST /api/contact {name, email, subject, message, inquiryType})
// stores the message and mails it to SQUARELY_SUPPORT_EMAIL with the
// sender as Reply-To. Once stored the message is not lost, so a mail
// failure is logged and the answer is still a success.
func (s *server) contact(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name        string `json:"name"`
		Email       string `json:"email"`
		Subject     string `json:"subject"`
		Message     string `json:"message"`
		InquiryType string `json:"inquiryType"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	m := &store.ContactMessage{
		Name:        strings.TrimSpace(in.Name),
		Email:       strings.TrimSpace(in.Email),
		Subject:     strings.TrimSpace(in.Subject),
		Message:     strings.TrimSpace(in.Message),
		InquiryType: in.InquiryType,
		CreatedAt:   s.now(),
	}
	var v validation
	checkLength(&v, "name", "Name", m.Name, 2, maxContactName, msgContactName)
	if !validEmail(m.Email) {
		v.add("email", msgContactEmail)
	}
	checkLength(&v, "subject", "Subject", m.Subject, 5, maxContactSubject, msgContactSubject)
	checkLength(&v, "message", "Message", m.Message, 10, maxContactMessage, msgContactMessage)
	if !slices.Contains(inquiryTypes, m.InquiryType) {
		v.add("inquiryType", msgContactType)
	}
	if v.failed(w) {
		return
	}
	if !s.contactSenders.take(w, strings.ToLower(m.Email), msgContactSender) ||
		!s.contactClients.take(w, clientKey(r), msgContactClient) {
		return
	}
	if err := s.store.CreateContactMessage(r.Context(), m); err != nil {
		s.internalError(w, "storing a contact message", err)
		return
	}
	if err := s.mailContactMessage(r, m); err != nil {
		s.log.ErrorContext(r.Context(), "mailing a contact message; it is stored", "id", m.ID, "err", err)
	}
	writeJSON(w, http.StatusCreated, map[string]any{"message": msgContactSent, "id": m.ID})
}

// mailContactMessage sends m to the support address, if one is set.
func (s *server) mailContactMessage(r *http.Request, m *store.ContactMessage) error {
	if s.cfg.SupportEmail == "" {
		s.log.WarnContext(r.Context(), "contact message stored, not mailed: SQUARELY_SUPPORT_EMAIL is not set", "id", m.ID)
		return nil
	}
	msg, err := mail.Render(s.cfg.SupportEmail, "contact_message", mail.Data{BaseURL: s.cfg.BaseURL, Fields: map[string]any{
		"Name":        m.Name,
		"Email":       m.Email,
		"Subject":     strings.Join(strings.Fields(m.Subject), " "), // one line: it becomes the mail's subject
		"Message":     m.Message,
		"InquiryType": m.InquiryType,
	}})
	if err != nil {
		return err
	}
	msg.Headers = map[string]string{"Reply-To": m.Email}
	return s.mailer.Send(r.Context(), msg)
}

// newsletterSignup (POST /api/newsletter-signup {email}) subscribes the
// address. One already subscribed is a success, not a second row; one that
// unsubscribed is subscribed again.
func (s *server) newsletterSignup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if !decodeJSON(w, r, &in) {
		return
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if !validEmail(email) {
		fieldError(w, "email", msgNewsletterEmail)
		return
	}
	if !s.admitAnonWrite(w, r, nil) {
		return
	}
	if err := s.store.Subscribe(r.Context(), email, s.now()); err != nil {
		s.internalError(w, "subscribing to the newsletter", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": msgSubscribed})
}

// checkLength adds tooShort for field when value has fewer than min
// characters, and "{label} must be at most {max} characters" when it has
// more than max.
func checkLength(v *validation, field, label, value string, min, max int, tooShort string) {
	switch n := utf8.RuneCountInString(value); {
	case n < min:
		v.add(field, tooShort)
	case n > max:
		v.add(field, fmt.Sprintf("%s must be at most %d characters", label, max))
	}
}
