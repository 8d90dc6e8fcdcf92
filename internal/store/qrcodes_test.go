package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestQRCodeRoundTrip(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "codes@example.com")
		prod := &store.PaymentProduct{UserID: &u.ID, ProductName: "Coffee", ProductPrice: 350}
		if err := s.CreatePaymentProduct(ctx, prod); err != nil {
			t.Fatal(err)
		}
		q := &store.QRCode{
			UserID: u.ID, Name: "Coffee 2026-03-04", QRType: "payment",
			QRData:  `{"productName":"Coffee","productPrice":"3.50","productDescription":"A cup"}`,
			Content: "http://localhost:8080/payment?id=1",
			TypeColumns: map[string]any{
				"product_name": "Coffee", "product_price": int64(350), "product_description": "A cup",
				"location_latitude": 48.8583701, "location_longitude": -2.2944813,
			},
			Style: store.Style{
				FgColor: "#112233", BgColor: "#FFFFFF", GradientColor: "#7C3AED",
				Gradient: store.GradientSpec{Type: "radial", Angle: 40, OnEyes: true},
				DotShape: "classy", CornerShape: "extra-rounded", InnerCornerShape: "dot",
				OuterCornerColor: "#000000", LogoFilePath: "/logo/4", LogoFileName: "cup.png", LogoSize: "large",
				EnableFrame: true, FrameText: "PAY HERE", FrameColor: "#000000", FrameTextColor: "#FFFFFF", FrameStyle: "square",
			},
			PaymentProductID: &prod.ID,
			CreatedAt:        time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.UTC),
		}
		if err := s.CreateQRCode(ctx, q); err != nil {
			t.Fatal(err)
		}
		if q.ID == 0 || q.ClientID != 1 || q.QRMode != "static" || q.QRStyle != "squares" || q.ErrorCorrectionLevel != "M" {
			t.Errorf("CreateQRCode filled %+v", q)
		}
		got, err := s.QRCode(ctx, u.ID, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		var gotData, wantData map[string]string
		if err := json.Unmarshal([]byte(got.QRData), &gotData); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(q.QRData), &wantData)
		if !reflect.DeepEqual(gotData, wantData) {
			t.Errorf("QRData %s, want %s", got.QRData, q.QRData)
		}
		want := *q
		want.TypeColumns, want.QRData, got.QRData, want.Tags = nil, "", "", []store.Tag{}
		want.CreatedAt = want.CreatedAt.Truncate(time.Microsecond)
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("QRCode() =\n%+v\nwant\n%+v", *got, want)
		}

		// The gradient's settings share its column; a colour alone is a
		// code saved before them, linear corner to corner and on the eyes
		// (how it was drawn), and no colour has the defaults.
		for value, want := range map[any]store.GradientSpec{
			"#7C3AED":                 {Type: "linear", Angle: 135, OnEyes: true},
			"#7C3AED linear 0":        {Type: "linear", Angle: 0},
			"#7C3AED radial 135 eyes": {Type: "radial", Angle: 135, OnEyes: true},
			nil:                       {Type: "linear", Angle: 135},
		} {
			if _, err := store.WriteDB(s).Exec(`UPDATE qr_codes SET gradient_color = $1 WHERE id = $2`, value, q.ID); err != nil {
				t.Fatal(err)
			}
			got, err := s.QRCode(ctx, u.ID, q.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Gradient != want || (value != nil && got.GradientColor != "#7C3AED") {
				t.Errorf("gradient_color %v reads as %q %+v, want %+v", value, got.GradientColor, got.Gradient, want)
			}
		}

		// The per-type columns landed where the spec puts them.
		var name string
		var price int64
		var lat, lng float64
		err = store.ReadDB(s).QueryRow(`SELECT product_name, product_price, location_latitude, location_longitude FROM qr_codes WHERE id = $1`, q.ID).
			Scan(&name, &price, &lat, &lng)
		if err != nil {
			t.Fatal(err)
		}
		if name != "Coffee" || price != 350 || lat != 48.8583701 || lng != -2.2944813 {
			t.Errorf("type columns: %q %d %v %v", name, price, lat, lng)
		}
	})
}

func TestQRCodesListAndOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ann := storetest.CreateUser(t, s, "ann@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		if list, err := s.QRCodes(ctx, ann.ID); err != nil || list == nil || len(list) != 0 {
			t.Fatalf("empty list = %v, %v; want an empty, non-nil list", list, err)
		}
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		var ids []int64
		for i, name := range []string{"first", "second", "third"} {
			q := &store.QRCode{UserID: ann.ID, Name: name, QRType: "url", URL: "https://example.com", Content: "https://example.com",
				Style:     storetest.DefaultStyle(),
				CreatedAt: base.Add(time.Duration(i) * time.Hour)}
			if err := s.CreateQRCode(ctx, q); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, q.ID)
		}
		list, err := s.QRCodes(ctx, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, q := range list {
			names = append(names, q.Name)
		}
		if !reflect.DeepEqual(names, []string{"third", "second", "first"}) {
			t.Errorf("list order %v, want newest first", names)
		}
		if list[0].URL != "https://example.com" || list[0].QRData != "{}" {
			t.Errorf("url %q, qrData %q", list[0].URL, list[0].QRData)
		}
		if l, _ := s.QRCodes(ctx, bob.ID); len(l) != 0 {
			t.Errorf("bob sees %d of ann's codes", len(l))
		}
		if _, err := s.QRCode(ctx, bob.ID, ids[0]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bob fetching ann's code: %v, want ErrNotFound", err)
		}
		if _, err := s.QRCode(ctx, ann.ID, 9999); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
		if _, err := store.WriteDB(s).Exec(`UPDATE qr_codes SET is_deleted = TRUE WHERE id = $1`, ids[1]); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.QRCodes(ctx, ann.ID); len(l) != 2 {
			t.Errorf("a deleted code is listed: %d codes", len(l))
		}
		if _, err := s.QRCode(ctx, ann.ID, ids[1]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a deleted code is fetched: %v", err)
		}
	})
}

func TestQRCodeBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "bad@example.com")
		ok := func() *store.QRCode {
			return &store.QRCode{UserID: u.ID, QRType: "url", Style: storetest.DefaultStyle()}
		}
		q := ok()
		q.TypeColumns = map[string]any{"is_deleted; DROP TABLE users": 1}
		if err := s.CreateQRCode(ctx, q); err == nil {
			t.Error("an unknown type column was accepted")
		}
		q = ok()
		q.TypeColumns = map[string]any{"product_name": strings.Repeat("é", 101)}
		if err := s.CreateQRCode(ctx, q); err == nil {
			t.Error("a product name of 101 characters was saved")
		}
		q = ok()
		q.QRData = "{not json"
		if err := s.CreateQRCode(ctx, q); err == nil {
			t.Error("invalid qr_data JSON was saved")
		}
		q = ok()
		missing := int64(777)
		q.PaymentProductID = &missing
		if err := s.CreateQRCode(ctx, q); err == nil {
			t.Error("a code pointing at a missing product was saved")
		}
		if l, _ := s.QRCodes(ctx, u.ID); len(l) != 0 {
			t.Errorf("%d codes saved by failed calls", len(l))
		}
	})
}
