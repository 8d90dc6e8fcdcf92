package payload

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	base := Options{BaseURL: "http://localhost:8080", ProductID: "1732170000000"}
	tests := []struct {
		name string
		typ  string
		f    Fields
		opt  Options
		want string
	}{
		{"url as given", "url", Fields{"url": " https://example.com/a?b=c&d=%20#frag "}, Options{}, "https://example.com/a?b=c&d=%20#frag"},
		{"url unicode kept", "url", Fields{"url": "https://café.example/日本?q=😀"}, Options{}, "https://café.example/日本?q=😀"},

		{"contact minimal", "contact", Fields{"firstName": "Ana", "phoneNumber": "+34 600"}, Options{},
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ana;;;\r\nFN:Ana\r\nTEL:+34 600\r\nEND:VCARD\r\n"},
		{"contact full", "contact", Fields{
			"firstName": "José", "lastName": "Núñez; Jr.", "phoneNumber": "+34 600 000 000", "email": "jose@example.com",
			"notes": "Line one,\nline two\\ 😀", "imageUrl": "https://example.com/p.png", "url": "https://jose.example/a;b,c",
		}, Options{},
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Núñez\\; Jr.;José;;;\r\nFN:José Núñez\\; Jr.\r\nTEL:+34 600 000 000\r\n" +
				"EMAIL:jose@example.com\r\nNOTE:Line one\\,\\nline two\\\\ 😀\r\nURL:https://jose.example/a;b,c\r\n" +
				"PHOTO;VALUE=URI:https://example.com/p.png\r\nEND:VCARD\r\n"},
		{"contact CJK CRLF notes", "contact", Fields{"firstName": "太郎", "lastName": "山田", "phoneNumber": "090", "notes": "一\r\n二\r三"}, Options{},
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:山田;太郎;;;\r\nFN:太郎 山田\r\nTEL:090\r\nNOTE:一\\n二\\n三\r\nEND:VCARD\r\n"},

		{"payment", "payment", Fields{"productName": "Tea", "productPrice": "2.50", "productDescription": "Green"}, base,
			"http://localhost:8080/payment?id=1732170000000"},
		{"payment escapes id", "payment", Fields{"productName": "Tea", "productPrice": "2.50", "productDescription": "Green"},
			Options{BaseURL: "https://sq.example", ProductID: "a&b c"}, "https://sq.example/payment?id=a%26b+c"},
		{"pdf", "pdf", Fields{"pdfFile": "42", "title": "Menu"}, base, "http://localhost:8080/pdf/42"},
		{"images", "images", Fields{"imageFile": "a/b", "title": "Gallery"}, base, "http://localhost:8080/images/a%2Fb"},

		{"social", "social", Fields{"platform": "youtube", "url": "https://youtube.com/@x"}, Options{}, "https://youtube.com/@x"},
		{"ratings", "ratings", Fields{"businessName": "Bar", "platform": "yelp", "url": "https://yelp.com/biz/bar"}, Options{}, "https://yelp.com/biz/bar"},
		{"apps", "apps", Fields{"appName": "Notes", "platform": "appstore", "url": "https://apps.apple.com/app/id1"}, Options{}, "https://apps.apple.com/app/id1"},

		{"email bare", "email", Fields{"email": "ana@example.com", "subject": "  ", "body": ""}, Options{}, "mailto:ana@example.com"},
		{"email subject only", "email", Fields{"email": "ana@example.com", "subject": "Hello there"}, Options{}, "mailto:ana@example.com?subject=Hello%20there"},
		{"email body only", "email", Fields{"email": "ana@example.com", "body": "a+b=c & d?"}, Options{}, "mailto:ana@example.com?body=a%2Bb%3Dc%20%26%20d%3F"},
		{"email all", "email", Fields{"email": "a.b+c@example.com", "subject": "Café ☕", "body": "Line 1\nLine 2"}, Options{},
			"mailto:a.b+c@example.com?subject=Caf%C3%A9%20%E2%98%95&body=Line%201%0D%0ALine%202"},
		{"email odd local part", "email", Fields{"email": "a%b/c?d#e@example.com"}, Options{}, "mailto:a%25b%2Fc%3Fd%23e@example.com"},

		{"location address", "location", Fields{"address": "1 Rue de Rivoli, Paris & Co", "name": "Louvre"}, Options{},
			"https://www.google.com/maps/search/?api=1&query=1+Rue+de+Rivoli%2C+Paris+%26+Co"},
		{"location coords", "location", Fields{"address": "Eiffel", "latitude": " 48.85840 ", "longitude": "2.2945"}, Options{}, "geo:48.8584,2.2945"},
		{"location negative coords", "location", Fields{"address": "x", "latitude": "-33.8688", "longitude": "-151"}, Options{}, "geo:-33.8688,-151"},
		{"location one coord", "location", Fields{"address": "Zürich", "latitude": "47.37"}, Options{},
			"https://www.google.com/maps/search/?api=1&query=Z%C3%BCrich"},

		{"events all day", "events", Fields{"title": "Fête, été; 2026", "startDate": "2026-03-15", "location": "Paris"}, Options{},
			"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Squarely//QR Code Generator//EN\r\nBEGIN:VEVENT\r\n" +
				"SUMMARY:Fête\\, été\\; 2026\r\nDTSTART;VALUE=DATE:20260315\r\nDTEND;VALUE=DATE:20260316\r\n" +
				"LOCATION:Paris\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"},
		{"events all day range", "events", Fields{"title": "Trip", "startDate": "2026-12-30", "endDate": "2026-12-31", "location": "Oslo", "description": "Bring\nskis 🎿"}, Options{},
			"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Squarely//QR Code Generator//EN\r\nBEGIN:VEVENT\r\n" +
				"SUMMARY:Trip\r\nDTSTART;VALUE=DATE:20261230\r\nDTEND;VALUE=DATE:20270101\r\n" +
				"LOCATION:Oslo\r\nDESCRIPTION:Bring\\nskis 🎿\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"},
		{"events timed", "events", Fields{"title": "会議", "startDate": "2026-03-15T09:30", "endDate": "2026-03-15T11:00:30", "location": "東京"}, Options{},
			"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Squarely//QR Code Generator//EN\r\nBEGIN:VEVENT\r\n" +
				"SUMMARY:会議\r\nDTSTART:20260315T093000\r\nDTEND:20260315T110030\r\n" +
				"LOCATION:東京\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"},
		{"events timed no end", "events", Fields{"title": "a", "startDate": "2026-03-15T09:30", "location": "b"}, Options{},
			"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Squarely//QR Code Generator//EN\r\nBEGIN:VEVENT\r\n" +
				"SUMMARY:a\r\nDTSTART:20260315T093000\r\nDTEND:20260315T093000\r\n" +
				"LOCATION:b\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"},

		{"sms", "sms", Fields{"phoneNumber": " +1 555 0100 ", "message": "Hi: ¿qué tal? 👋"}, Options{}, "SMSTO:+1 555 0100:Hi: ¿qué tal? 👋"},
		{"sms no message", "sms", Fields{"phoneNumber": "5550100"}, Options{}, "SMSTO:5550100:"},

		{"bitcoin bare", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"}, Options{}, "bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"},
		{"bitcoin all", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "amount": "20.3", "label": "Luke-Jr", "message": "Donation for project xyz"}, Options{},
			"bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?amount=20.3&label=Luke-Jr&message=Donation%20for%20project%20xyz"},
		{"bitcoin message only", "bitcoin", Fields{"address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "message": "Café & co=1"}, Options{},
			"bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?message=Caf%C3%A9%20%26%20co%3D1"},

		{"text as is", "text", Fields{"text": "  Ünïcödé 中文 🎉\r\nline\t2 "}, Options{}, "  Ünïcödé 中文 🎉\r\nline\t2 "},

		{"wifi WPA", "wifi", Fields{"ssid": "Home", "password": "secret123"}, Options{}, "WIFI:T:WPA;S:Home;P:secret123;;"},
		{"wifi escaped hidden", "wifi", Fields{"ssid": `My "Net"; 2,4:GHz\x`, "password": ` p;a:s,s" `, "encryption": "WEP", "hidden": "true"}, Options{},
			`WIFI:T:WEP;S:My \"Net\"\; 2\,4\:GHz\\x;P: p\;a\:s\,s\" ;H:true;;`},
		{"wifi open", "wifi", Fields{"ssid": "Café ☕", "password": "ignored", "encryption": "nopass", "hidden": "false"}, Options{}, "WIFI:T:nopass;S:Café ☕;;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Build(tc.typ, tc.f, tc.opt)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if got != tc.want {
				t.Errorf("Build(%q)\n got  %q\n want %q", tc.typ, got, tc.want)
			}
		})
	}
}

// TestBuildPercentEncodingRoundTrips checks that the encoded parameters
// decode back to the exact input, whatever the script.
func TestBuildPercentEncodingRoundTrips(t *testing.T) {
	in := "Ça va? 你好 & =+ 😀 100% / #"
	s, err := Build("email", Fields{"email": "a@b.co", "subject": in}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(strings.TrimPrefix(s, "mailto:a@b.co?subject="), " +&=?#") {
		t.Errorf("unencoded delimiter in %q", s)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Query().Get("subject"); got != in {
		t.Errorf("subject decodes to %q, want %q", got, in)
	}

	s, err = Build("location", Fields{"address": in}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err = url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Query().Get("query"); got != in {
		t.Errorf("query decodes to %q, want %q", got, in)
	}
}

func TestBuildErrors(t *testing.T) {
	_, err := Build("url", Fields{"url": "example.com"}, Options{})
	var fe FieldErrors
	if !errors.As(err, &fe) || fe["url"] != "Please enter a valid URL" {
		t.Errorf("invalid url: err = %v, want FieldErrors", err)
	}
	if _, err := Build("fax", Fields{}, Options{}); !errors.As(err, &fe) || fe["qrType"] != UnknownType {
		t.Errorf("unknown type: err = %v", err)
	}
	pay := Fields{"productName": "a", "productPrice": "1", "productDescription": "b"}
	if _, err := Build("payment", pay, Options{BaseURL: "http://x"}); !errors.Is(err, ErrNoProductID) {
		t.Errorf("payment without product: err = %v", err)
	}
	if _, err := Build("payment", pay, Options{ProductID: "1"}); !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("payment without base: err = %v", err)
	}
	if _, err := Build("pdf", Fields{"pdfFile": "1", "title": "t"}, Options{}); !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("pdf without base: err = %v", err)
	}
	if _, err := Build("images", Fields{"title": "t"}, Options{BaseURL: "http://x"}); !errors.As(err, &fe) || fe["imageFile"] != "Please select an image file" {
		t.Errorf("images without file: err = %v", err)
	}
}

func TestCatalogue(t *testing.T) {
	want := []string{"url", "contact", "payment", "pdf", "social", "images", "ratings", "email", "location", "events", "apps", "sms", "bitcoin", "text", "wifi", "gs1"}
	if got := Types(); !slices.Equal(got, want) {
		t.Errorf("Types() = %v", got)
	}
	labels := []string{"Website", "Contact", "Payment", "PDF", "Social Media", "Images", "Ratings", "Email", "Location", "Events", "Apps", "SMS", "Bitcoin", "Plain Text", "WiFi", "GS1 Digital Link"}
	for i, typ := range want {
		if Label(typ) != labels[i] {
			t.Errorf("Label(%q) = %q, want %q", typ, Label(typ), labels[i])
		}
		if !Known(typ) || len(FieldNames(typ)) == 0 {
			t.Errorf("%q is not fully known", typ)
		}
		if got, want := Blocked(typ), typ == "events" || typ == "sms" || typ == "bitcoin"; got != want {
			t.Errorf("Blocked(%q) = %v", typ, got)
		}
	}
	if Known("fax") || Label("fax") != "" || FieldNames("fax") != nil {
		t.Error("fax should not be known")
	}
	if !NeedsAccount("pdf") || NeedsAccount("url") {
		t.Error("NeedsAccount: only pdf")
	}
	if got := FieldNames("apps"); !slices.Equal(got, []string{"appName", "platform", "url", "appDescription", "appDeveloper", "appCategory"}) {
		t.Errorf("FieldNames(apps) = %v", got)
	}
	// The option lists are copies: callers cannot change the rules.
	p := SocialPlatforms()
	p[0] = "myspace"
	if SocialPlatforms()[0] != "facebook" {
		t.Error("SocialPlatforms leaks its backing array")
	}
	for name, got := range map[string][]string{"review": ReviewPlatforms(), "app": AppPlatforms(), "category": AppCategories()} {
		n := map[string]int{"review": 5, "app": 4, "category": 20}[name]
		if len(got) != n {
			t.Errorf("%s options: %d, want %d", name, len(got), n)
		}
	}
}

// A gs1 code is the canonical Digital Link URI on the chosen domain, or
// the base URL; its fields are checked by GS1's rules.
func TestBuildGS1(t *testing.T) {
	f := Fields{"gtin": "9520123456788", "lot": "ABC/123", "serial": "12345", "expiry": "180426", "domainId": "4"}
	got, err := Build("gs1", f, Options{BaseURL: "http://localhost:8080", GS1Origin: "https://qr.brand.example"})
	if want := "https://qr.brand.example/01/09520123456788/10/ABC%2F123/21/12345?17=180426"; err != nil || got != want {
		t.Errorf("on a domain: %q, %v", got, err)
	}
	got, err = Build("gs1", Fields{"gtin": "96385074"}, Options{BaseURL: "http://localhost:8080"})
	if want := "http://localhost:8080/01/00000096385074"; err != nil || got != want {
		t.Errorf("on the base URL: %q, %v", got, err)
	}
	if _, err := Build("gs1", Fields{"gtin": "96385074"}, Options{}); !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("without a base URL: %v", err)
	}
	e := Validate("gs1", Fields{"gtin": "96385075", "expiry": "261240", "domainId": "x"})
	if e["gtin"] != "AI (01): The numeric check digit is incorrect." || e["expiry"] != "AI (17): The date contains an illegal day of the month." || e["domainId"] != MsgGS1Domain {
		t.Errorf("errors: %v", e)
	}
}
