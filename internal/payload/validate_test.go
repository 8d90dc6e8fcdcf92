package payload

import (
	"maps"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	validContact := Fields{"firstName": "Ana", "phoneNumber": "+34 600 000 000"}
	with := func(f Fields, kv ...string) Fields {
		g := maps.Clone(f)
		for i := 0; i < len(kv); i += 2 {
			g[kv[i]] = kv[i+1]
		}
		return g
	}
	tests := []struct {
		name string
		typ  string
		f    Fields
		want FieldErrors
	}{
		{"unknown type", "fax", Fields{}, FieldErrors{"qrType": "Unknown QR code type"}},

		{"url ok", "url", Fields{"url": "https://example.com/a?b=c"}, nil},
		{"url ok http with port", "url", Fields{"url": "http://localhost:8080/x"}, nil},
		{"url ok unicode", "url", Fields{"url": "https://café.example/ñandú/日本?q=😀"}, nil},
		{"url missing", "url", Fields{}, FieldErrors{"url": "URL is required"}},
		{"url blank", "url", Fields{"url": "   "}, FieldErrors{"url": "URL is required"}},
		{"url no scheme", "url", Fields{"url": "example.com"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url words", "url", Fields{"url": "not a url"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url inner space", "url", Fields{"url": "https://example.com/a b"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url no host", "url", Fields{"url": "http://"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url opaque http", "url", Fields{"url": "http:example.com"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url bad host", "url", Fields{"url": "http://exa%zzmple.com"}, FieldErrors{"url": "Please enter a valid URL"}},
		{"url ftp", "url", Fields{"url": "ftp://example.com/file"}, FieldErrors{"url": "URL must use http or https protocol"}},
		{"url javascript", "url", Fields{"url": "javascript:alert(1)"}, FieldErrors{"url": "URL must use http or https protocol"}},
		{"url mailto", "url", Fields{"url": "mailto:a@b.co"}, FieldErrors{"url": "URL must use http or https protocol"}},

		{"contact ok", "contact", validContact, nil},
		{"contact ok full", "contact", with(validContact, "email", "ana@example.com", "imageUrl", "https://example.com/a.png", "url", "https://ana.example"), nil},
		{"contact empty", "contact", Fields{}, FieldErrors{"firstName": "First name is required", "phoneNumber": "Phone number is required"}},
		{"contact bad email", "contact", with(validContact, "email", "ana@"), FieldErrors{"email": "Please enter a valid email"}},
		{"contact bad image", "contact", with(validContact, "imageUrl", "picture.png"), FieldErrors{"imageUrl": "Please enter a valid image URL"}},
		{"contact ftp image", "contact", with(validContact, "imageUrl", "ftp://example.com/a.png"), FieldErrors{"imageUrl": "Please enter a valid image URL"}},
		{"contact bad url", "contact", with(validContact, "url", "ana"), FieldErrors{"url": "Please enter a valid URL"}},

		{"payment ok", "payment", Fields{"productName": "Café", "productPrice": "0.01", "productDescription": "Cup"}, nil},
		{"payment empty", "payment", Fields{}, FieldErrors{
			"productName": "Product name is required", "productPrice": "Price must be greater than 0", "productDescription": "Product description is required"}},
		{"payment zero", "payment", Fields{"productName": "a", "productPrice": "0", "productDescription": "b"}, FieldErrors{"productPrice": "Price must be greater than 0"}},
		{"payment below a cent", "payment", Fields{"productName": "a", "productPrice": "0.004", "productDescription": "b"}, FieldErrors{"productPrice": "Price must be greater than 0"}},
		{"payment negative", "payment", Fields{"productName": "a", "productPrice": "-5", "productDescription": "b"}, FieldErrors{"productPrice": "Price must be greater than 0"}},
		{"payment not a number", "payment", Fields{"productName": "a", "productPrice": "ten", "productDescription": "b"}, FieldErrors{"productPrice": "Price must be greater than 0"}},
		{"payment NaN", "payment", Fields{"productName": "a", "productPrice": "NaN", "productDescription": "b"}, FieldErrors{"productPrice": "Price must be greater than 0"}},
		{"payment 100 characters", "payment", Fields{"productName": strings.Repeat("é", 100), "productPrice": "1", "productDescription": "b"}, nil},
		{"payment long name", "payment", Fields{"productName": strings.Repeat("é", 101), "productPrice": "1", "productDescription": "b"}, FieldErrors{"productName": "Product name must be at most 100 characters"}},

		{"pdf ok", "pdf", Fields{"pdfFile": "17", "title": "Menu"}, nil},
		{"pdf empty", "pdf", Fields{}, FieldErrors{"pdfFile": "Please select a PDF file", "title": "Title is required"}},
		{"images ok", "images", Fields{"imageFile": "9", "title": "Gallery"}, nil},
		{"images empty", "images", Fields{"description": "x"}, FieldErrors{"imageFile": "Please select an image file", "title": "Title is required"}},

		{"social ok", "social", Fields{"platform": "instagram", "url": "https://instagram.com/x"}, nil},
		{"social empty", "social", Fields{}, FieldErrors{"platform": "Platform is required", "url": "URL is required"}},
		{"social bad platform", "social", Fields{"platform": "myspace", "url": "https://x.com"}, FieldErrors{"platform": "Please select a valid platform"}},
		{"social review platform", "social", Fields{"platform": "yelp", "url": "https://x.com"}, FieldErrors{"platform": "Please select a valid platform"}},
		{"social bad url", "social", Fields{"platform": "tiktok", "url": "tiktok.com/@x"}, FieldErrors{"url": "Please enter a valid URL"}},

		{"ratings ok", "ratings", Fields{"businessName": "Bar", "platform": "trustpilot", "url": "https://trustpilot.com/b"}, nil},
		{"ratings empty", "ratings", Fields{}, FieldErrors{"businessName": "Business name is required", "platform": "Platform is required", "url": "URL is required"}},
		{"ratings bad platform", "ratings", Fields{"businessName": "Bar", "platform": "instagram", "url": "https://x.com"}, FieldErrors{"platform": "Please select a valid platform"}},
		{"ratings protocol", "ratings", Fields{"businessName": "Bar", "platform": "google", "url": "ws://x.com"}, FieldErrors{"url": "URL must use http or https protocol"}},

		{"email ok", "email", Fields{"email": "first.last+tag@mail.example.co.uk"}, nil},
		{"email missing", "email", Fields{"subject": "hi"}, FieldErrors{"email": "Email is required"}},
		{"email no at", "email", Fields{"email": "example.com"}, FieldErrors{"email": "Please enter a valid email"}},
		{"email no tld", "email", Fields{"email": "a@localhost"}, FieldErrors{"email": "Please enter a valid email"}},
		{"email display name", "email", Fields{"email": "Ana <ana@example.com>"}, FieldErrors{"email": "Please enter a valid email"}},
		{"email two ats", "email", Fields{"email": "a@b@example.com"}, FieldErrors{"email": "Please enter a valid email"}},
		{"email double dot", "email", Fields{"email": "a..b@example.com"}, FieldErrors{"email": "Please enter a valid email"}},

		{"location ok", "location", Fields{"address": "1 Rue de Rivoli"}, nil},
		{"location coords", "location", Fields{"address": "x", "latitude": "-90", "longitude": "180"}, nil},
		{"location missing", "location", Fields{"name": "Home"}, FieldErrors{"address": "Address is required"}},
		{"location out of range", "location", Fields{"address": "x", "latitude": "91", "longitude": "-180.5"}, FieldErrors{
			"latitude": "Latitude must be between -90 and 90", "longitude": "Longitude must be between -180 and 180"}},
		{"location not numbers", "location", Fields{"address": "x", "latitude": "north", "longitude": "Inf"}, FieldErrors{
			"latitude": "Latitude must be between -90 and 90", "longitude": "Longitude must be between -180 and 180"}},

		{"events ok date", "events", Fields{"title": "Fête", "startDate": "2026-03-15", "location": "Paris"}, nil},
		{"events ok range", "events", Fields{"title": "a", "startDate": "2026-03-15T09:30", "endDate": "2026-03-15T09:30", "location": "b"}, nil},
		{"events empty", "events", Fields{}, FieldErrors{"title": "Event title is required", "startDate": "Start date is required", "location": "Location is required"}},
		{"events bad start", "events", Fields{"title": "a", "startDate": "15/03/2026", "endDate": "nonsense", "location": "b"}, FieldErrors{"startDate": "Please enter a valid date"}},
		{"events bad end", "events", Fields{"title": "a", "startDate": "2026-03-15", "endDate": "2026-02-30", "location": "b"}, FieldErrors{"endDate": "Please enter a valid date"}},
		{"events mixed", "events", Fields{"title": "a", "startDate": "2026-03-15", "endDate": "2026-03-16T10:00", "location": "b"}, FieldErrors{"endDate": "End date must have the same format as the start date"}},
		{"events end first", "events", Fields{"title": "a", "startDate": "2026-03-15T10:00", "endDate": "2026-03-15T09:59", "location": "b"}, FieldErrors{"endDate": "End date cannot be before the start date"}},

		{"apps ok", "apps", Fields{"appName": "Notes", "platform": "googleplay", "url": "https://play.google.com/x", "appCategory": "productivity"}, nil},
		{"apps empty", "apps", Fields{}, FieldErrors{"appName": "App name is required", "platform": "Platform is required", "url": "URL is required"}},
		{"apps bad options", "apps", Fields{"appName": "a", "platform": "steam", "url": "https://x.com", "appCategory": "crypto"}, FieldErrors{
			"platform": "Please select a valid platform", "appCategory": "Please select a valid category"}},

		{"sms ok", "sms", Fields{"phoneNumber": "+1 (555) 010-9999"}, nil},
		{"sms missing", "sms", Fields{"message": "hi"}, FieldErrors{"phoneNumber": "Phone number is required"}},
		{"sms colon", "sms", Fields{"phoneNumber": "555:1"}, FieldErrors{"phoneNumber": "Please enter a valid phone number"}},
		{"sms no digits", "sms", Fields{"phoneNumber": "call me"}, FieldErrors{"phoneNumber": "Please enter a valid phone number"}},

		{"bitcoin ok", "bitcoin", Fields{"address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "amount": "0.00000001"}, nil},
		{"bitcoin missing", "bitcoin", Fields{"amount": "1"}, FieldErrors{"address": "Bitcoin address is required"}},
		{"bitcoin bad address", "bitcoin", Fields{"address": "1BvBMSEYstWe?"}, FieldErrors{"address": "Please enter a valid Bitcoin address"}},
		{"bitcoin zero", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "amount": "0.000"}, FieldErrors{"amount": "Amount must be greater than 0"}},
		{"bitcoin negative", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "amount": "-1"}, FieldErrors{"amount": "Please enter a valid amount"}},
		{"bitcoin exponent", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "amount": "1e3"}, FieldErrors{"amount": "Please enter a valid amount"}},
		{"bitcoin sub-satoshi", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "amount": "0.000000001"}, FieldErrors{"amount": "Please enter a valid amount"}},

		{"text ok", "text", Fields{"text": " "}, nil},
		{"text missing", "text", Fields{}, FieldErrors{"text": "Text is required"}},

		{"wifi ok", "wifi", Fields{"ssid": "Home", "password": "secret123"}, nil},
		{"wifi open", "wifi", Fields{"ssid": "Café", "encryption": "nopass", "hidden": "true"}, nil},
		{"wifi empty", "wifi", Fields{}, FieldErrors{"ssid": "Network name is required", "password": "Password is required"}},
		{"wifi bad", "wifi", Fields{"ssid": "a", "password": "b", "encryption": "WPA3", "hidden": "maybe"}, FieldErrors{
			"encryption": "Encryption must be WPA, WEP or nopass", "hidden": "Hidden must be true or false"}},
		{"wifi WEP no password", "wifi", Fields{"ssid": "a", "encryption": "WEP"}, FieldErrors{"password": "Password is required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Validate(tc.typ, tc.f)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("Validate(%q, %v)\n got  %v\n want %v", tc.typ, tc.f, got, tc.want)
			}
		})
	}
}

func TestPriceCents(t *testing.T) {
	for in, want := range map[string]int64{
		"12.34": 1234, " 5 ": 500, "0.015": 2, "19.999": 2000, "": 0, "abc": 0, "Inf": 0, "1e300": 0, "-2": -200,
	} {
		if got := PriceCents(in); got != want {
			t.Errorf("PriceCents(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestFieldErrorsError(t *testing.T) {
	e := FieldErrors{"url": "URL is required", "platform": "Platform is required"}
	if got, want := e.Error(), "Platform is required\nURL is required"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
