package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestStripeSubscriptionEvents(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "payer@example.com")
		t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
		ev := func(id string, sec int) store.StripeEvent {
			return store.StripeEvent{ID: id, Type: "customer.subscription.updated", At: t0.Add(time.Duration(sec) * time.Second)}
		}
		sub := func(status string) store.Subscription {
			return store.Subscription{ID: "sub_1", CustomerID: "cus_1", Status: status, StartedAt: t0}
		}
		status := func() *store.Workspace {
			got, err := s.PersonalWorkspace(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		apply := func(e store.StripeEvent, st store.Subscription, want bool) {
			t.Helper()
			if applied, err := s.ApplySubscription(ctx, e, st); err != nil || applied != want {
				t.Fatalf("ApplySubscription(%s) = %v, %v; want %v", e.ID, applied, err, want)
			}
		}

		// The subscription's events come before its checkout: kept, then
		// given to the user when the checkout links the customer.
		apply(ev("evt_a", 1), sub("active"), true)
		if got := status(); got.SubscriptionStatus != "free" {
			t.Fatalf("status before the checkout: %q", got.SubscriptionStatus)
		}
		link := store.CheckoutLink{WorkspaceID: storetest.Personal(t, s, u.ID), CustomerID: "cus_1", SubscriptionID: "sub_1"}
		if ok, err := s.ApplyCheckout(ctx, ev("evt_c", 0), link); !ok || err != nil {
			t.Fatalf("ApplyCheckout = %v, %v", ok, err)
		}
		if got := status(); got.SubscriptionStatus != "active" || got.StripeCustomerID != "cus_1" || got.StripeSubscriptionID != "sub_1" {
			t.Fatalf("after the checkout: %+v", got)
		}

		// The same event twice, and an older event late, change nothing.
		apply(ev("evt_a", 1), sub("canceled"), false)
		apply(ev("evt_old", 0), sub("incomplete"), true)
		if got := status(); got.SubscriptionStatus != "active" {
			t.Fatalf("after a duplicate and a late event: %q", got.SubscriptionStatus)
		}
		// In one second, the later stage wins whatever the order.
		apply(ev("evt_cancel", 5), sub("canceled"), true)
		apply(ev("evt_same", 5), sub("active"), true)
		if got := status(); got.SubscriptionStatus != "canceled" {
			t.Fatalf("after a cancel: %q", got.SubscriptionStatus)
		}

		// A second checkout with another customer does not relink the user.
		other := store.CheckoutLink{WorkspaceID: storetest.Personal(t, s, u.ID), CustomerID: "cus_2", SubscriptionID: "sub_2"}
		if ok, err := s.ApplyCheckout(ctx, ev("evt_c2", 9), other); !ok || err != nil {
			t.Fatalf("second ApplyCheckout = %v, %v", ok, err)
		}
		if got := status(); got.StripeCustomerID != "cus_1" {
			t.Errorf("customer relinked to %q", got.StripeCustomerID)
		}
		// A new subscription of the same customer takes over from the canceled one.
		apply(store.StripeEvent{ID: "evt_new", At: t0.Add(time.Hour)},
			store.Subscription{ID: "sub_3", CustomerID: "cus_1", Status: "active", StartedAt: t0.Add(time.Hour)}, true)
		if got := status(); got.SubscriptionStatus != "active" || got.StripeSubscriptionID != "sub_3" {
			t.Errorf("after resubscribing: %+v", got)
		}
		// Checkouts of unknown users, and by e-mail.
		if ok, err := s.ApplyCheckout(ctx, ev("evt_nobody", 1), store.CheckoutLink{WorkspaceID: 999999, CustomerID: "cus_9"}); !ok || err != nil {
			t.Errorf("unknown user: %v, %v", ok, err)
		}
		v := storetest.CreateUser(t, s, "ByMail@example.com")
		if _, err := s.ApplyCheckout(ctx, ev("evt_mail", 1), store.CheckoutLink{Email: "bymail@EXAMPLE.com", CustomerID: "cus_m"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.PersonalWorkspace(ctx, v.ID); got.StripeCustomerID != "cus_m" {
			t.Errorf("linked by e-mail: %+v", got)
		}
		if n := storetest.Count(t, s, "stripe_events"); n != 9 {
			t.Errorf("%d events recorded, want 9", n)
		}
		if rec, err := s.RecordStripeEvent(ctx, store.StripeEvent{ID: "evt_a", Type: "x", At: t0}); rec || err != nil {
			t.Errorf("RecordStripeEvent of a seen event = %v, %v", rec, err)
		}
	})
}

func TestPaymentsAndCustomers(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "seller@example.com")
		ws := storetest.Personal(t, s, u.ID)
		p := &store.PaymentProduct{UserID: &u.ID, WorkspaceID: &ws, ProductName: "Tea", ProductPrice: 450}
		if err := s.CreatePaymentProduct(ctx, p); err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
		pay := func(id, intent, status string, sec int) bool {
			t.Helper()
			ok, err := s.ApplyPayment(ctx, store.StripeEvent{ID: id, At: t0.Add(time.Duration(sec) * time.Second)},
				store.Payment{PaymentIntentID: intent, ProductID: &p.ID, Amount: 450, Currency: "usd", Status: status})
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		pay("evt_1", "pi_1", "failed", 1)
		pay("evt_2", "pi_1", "succeeded", 2)
		pay("evt_3", "pi_1", "failed", 3) // a success stays one
		pay("evt_4", "pi_2", "succeeded", 4)
		if pay("evt_4", "pi_2", "succeeded", 4) {
			t.Error("a duplicate payment event was applied")
		}
		pay("evt_5", "pi_3", "failed", 5)
		totals, err := s.PaymentTotals(ctx, ws)
		if err != nil {
			t.Fatal(err)
		}
		if got := totals[p.ID]; got != (store.PaymentTotal{Count: 2, Total: 900}) {
			t.Errorf("totals %+v", totals)
		}
		if other, _ := s.PaymentTotals(ctx, u.ID+1); len(other) != 0 {
			t.Errorf("another user's totals: %+v", other)
		}
		// A payment for a product deleted meanwhile is kept without it.
		gone := int64(999999)
		if _, err := s.ApplyPayment(ctx, store.StripeEvent{ID: "evt_6", At: t0},
			store.Payment{PaymentIntentID: "pi_9", ProductID: &gone, Amount: 1, Currency: "usd", Status: "succeeded"}); err != nil {
			t.Fatal(err)
		}
		if id, err := s.PaymentCodeID(ctx, p.ID); id != 0 || err != nil {
			t.Errorf("PaymentCodeID without a code = %d, %v", id, err)
		}

		first, err := s.SetStripeCustomer(ctx, storetest.Personal(t, s, u.ID), "cus_a")
		if err != nil || first != "cus_a" {
			t.Fatalf("SetStripeCustomer = %q, %v", first, err)
		}
		if again, err := s.SetStripeCustomer(ctx, storetest.Personal(t, s, u.ID), "cus_b"); err != nil || again != "cus_a" {
			t.Errorf("second SetStripeCustomer = %q, %v; want the first customer", again, err)
		}
	})
}
