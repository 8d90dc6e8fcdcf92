package store

import (
	"context"
	"time"
)

// PaymentProduct is what a payment code sells: the checkout page at
// /payment?id={ID} loads it.
type PaymentProduct struct {
	ID                 int64
	UserID             *int64 // nil when a visitor made the code
	WorkspaceID        *int64 // whose payments these are; nil for a visitor's
	ProductName        string // at most 100 characters
	ProductDescription string
	ProductPrice       int64 // cents
	CreatedAt          time.Time
}

// CreatePaymentProduct saves p and fills in ID, CreatedAt (now, unless
// set) and WorkspaceID (unless set: the personal workspace of UserID).
func (s *Store) CreatePaymentProduct(ctx context.Context, p *PaymentProduct) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = time.Now()
	}
	p.CreatedAt = normTime(p.CreatedAt)
	if p.WorkspaceID == nil && p.UserID != nil {
		var ws int64
		if err := personalByDefault(ctx, s.read, &ws, *p.UserID); err != nil {
			return err
		}
		p.WorkspaceID = &ws
	}
	err := s.write.QueryRowContext(ctx, `
		INSERT INTO payment_products (user_id, workspace_id, product_name, product_description, product_price, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING id`,
		p.UserID, p.WorkspaceID, p.ProductName, p.ProductDescription, p.ProductPrice, dbTime(p.CreatedAt),
	).Scan(&p.ID)
	if err != nil {
		return fail("create payment product", err)
	}
	return nil
}

// PaymentProduct returns the product with the given id; it is public, as
// anyone who scans its code may buy it.
func (s *Store) PaymentProduct(ctx context.Context, id int64) (*PaymentProduct, error) {
	p := new(PaymentProduct)
	err := s.read.QueryRowContext(ctx, `
		SELECT id, user_id, workspace_id, product_name, product_description, product_price, created_at
		FROM payment_products WHERE id = $1`, id,
	).Scan(&p.ID, &p.UserID, &p.WorkspaceID, &p.ProductName, &p.ProductDescription, &p.ProductPrice, scanTime(&p.CreatedAt))
	if err != nil {
		return nil, fail("fetch payment product", err)
	}
	return p, nil
}
