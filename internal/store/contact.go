package store

import (
	"context"
	"time"
)

// ContactMessage is a message sent through the contact form (spec 02 §3).
type ContactMessage struct {
	ID          int64
	Name        string
	Email       string
	Subject     string
	Message     string
	InquiryType string // general, support, business or feedback
	CreatedAt   time.Time
}

// CreateContactMessage saves m and sets its ID.
func (s *Store) CreateContactMessage(ctx context.Context, m *ContactMessage) error {
	err := s.write.QueryRowContext(ctx,
		`INSERT INTO contact_messages (name, email, subject, message, inquiry_type, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		m.Name, m.Email, m.Subject, m.Message, m.InquiryType, dbTime(m.CreatedAt)).Scan(&m.ID)
	if err != nil {
		return fail("create contact message", err)
	}
	return nil
}
