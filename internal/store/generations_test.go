package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestGenerationRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "gen@example.com")
		at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.UTC)
		for _, g := range []*store.Generation{
			{CodeEvent: store.CodeEvent{UserID: &u.ID, SessionID: "s-1", IPAddress: "203.0.113.9", UserAgent: "Firefox",
				Referrer: "https://ref.example/", QRType: "url", Content: "https://example.com/a?b=c", HasLogo: true,
				Details: map[string]any{"websiteUrl": "https://example.com/a?b=c", "urlDomain": "example.com", "urlPath": "/a"}},
				ForegroundColor: "#112233", BackgroundColor: "#FFFFFF", GeneratedAt: at},
			{CodeEvent: store.CodeEvent{QRType: "email"}, GeneratedAt: at},
		} {
			if err := s.CreateGeneration(ctx, g); err != nil {
				t.Fatal(err)
			}
			got, err := s.Generation(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := *g
			want.GeneratedAt = at.Truncate(time.Microsecond)
			if want.Details == nil {
				want.Details = map[string]any{}
			}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("Generation() =\n%+v\nwant\n%+v", *got, want)
			}
		}
	})
}

func TestDownloadRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "dl@example.com")
		code := &store.QRCode{UserID: u.ID, QRType: "url", Style: storetest.DefaultStyle()}
		if err := s.CreateQRCode(ctx, code); err != nil {
			t.Fatal(err)
		}
		d := &store.Download{CodeEvent: store.CodeEvent{QRCodeID: &code.ID, UserID: &u.ID, SessionID: "s-2", QRType: "contact",
			Content: "BEGIN:VCARD", Details: map[string]any{"firstName": "Ann", "generationId": 3.0}}, DownloadType: "svg"}
		if err := s.CreateDownload(ctx, d); err != nil {
			t.Fatal(err)
		}
		if d.DownloadedAt.IsZero() {
			t.Error("DownloadedAt not filled")
		}
		got, err := s.Download(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, d) {
			t.Errorf("Download() =\n%+v\nwant\n%+v", got, d)
		}
		plain := &store.Download{}
		if err := s.CreateDownload(ctx, plain); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Download(ctx, plain.ID); got.DownloadType != "png" {
			t.Errorf("default download type %q, want png", got.DownloadType)
		}
	})
}

func TestEventsBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if _, err := s.Generation(ctx, 404); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Generation(404) = %v", err)
		}
		if _, err := s.Download(ctx, 404); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Download(404) = %v", err)
		}
		if err := s.CreateGeneration(ctx, &store.Generation{}); err == nil {
			t.Error("a generation without a type was saved")
		}
		ghost := int64(999)
		if err := s.CreateGeneration(ctx, &store.Generation{CodeEvent: store.CodeEvent{QRType: "url", QRCodeID: &ghost}}); err == nil {
			t.Error("a generation of a missing code was saved")
		}
		if err := s.CreateDownload(ctx, &store.Download{CodeEvent: store.CodeEvent{UserID: &ghost}}); err == nil {
			t.Error("a download by a missing user was saved")
		}
	})
}

func TestPaymentProductRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "shop@example.com")
		for _, p := range []*store.PaymentProduct{
			{UserID: &u.ID, ProductName: "Espresso ☕", ProductDescription: "Short and strong", ProductPrice: 999},
			{ProductName: "Visitor's cake", ProductPrice: 1},
		} {
			if err := s.CreatePaymentProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
			got, err := s.PaymentProduct(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("PaymentProduct() = %+v, want %+v", got, p)
			}
		}
		if _, err := s.PaymentProduct(ctx, 4242); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("PaymentProduct(4242) = %v", err)
		}
		for _, bad := range []*store.PaymentProduct{
			{ProductName: "Too cheap", ProductPrice: -1},
			{ProductName: strings.Repeat("é", 101), ProductPrice: 100},
		} {
			if err := s.CreatePaymentProduct(ctx, bad); err == nil {
				t.Errorf("saved %+v", bad)
			}
		}
	})
}

func TestBlobInfo(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		b := &store.Blob{Kind: "pdf", FileName: "menu.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 x"), Title: "Menu"}
		if err := s.CreateBlob(ctx, b); err != nil {
			t.Fatal(err)
		}
		got, err := s.BlobInfo(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := *b
		want.Data = nil
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("BlobInfo() = %+v, want %+v", *got, want)
		}
		if _, err := s.BlobInfo(ctx, b.ID+1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("BlobInfo(missing) = %v", err)
		}
	})
}
