package codes

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

var (
	errNoDomain = errors.New("test: no such domain")
	errBusy     = errors.New("test: no render slot")
)

// testCreator is a Creator on st whose server parts are stand-ins: domain
// 7 is go.example.com, a logo file "not an image" is refused (415), and
// busy makes every render slot taken.
func testCreator(st *store.Store, busy *bool) *Creator {
	return &Creator{
		Store: st, BaseURL: "https://sq.example", LimitMessage: "limit reached",
		Now: func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) },
		Slot: func(context.Context) (func(), error) {
			if *busy {
				return nil, errBusy
			}
			return func() {}, nil
		},
		StoredLogo: func(_ context.Context, b *store.Blob) ([]byte, error) { return b.Data, nil },
		NormalizeLogo: func(_ context.Context, f *Upload) error {
			if string(f.Data) == "not an image" {
				return &Refused{Status: http.StatusUnsupportedMediaType, Message: "not an image"}
			}
			f.Normalized = true
			return nil
		},
		Domain: func(_ context.Context, _, id int64) (*store.Domain, error) {
			if id != 7 {
				return nil, errNoDomain
			}
			return &store.Domain{ID: 7, Domain: "go.example.com"}, nil
		},
		ShortURL: func(d *store.DynamicCode) string {
			if d.Domain != "" {
				return "https://" + d.Domain + "/d/" + d.ShortCode
			}
			return "https://sq.example/d/" + d.ShortCode
		},
	}
}

// TestPrepare: what each kind of request prepares, and each refusal with
// its status and field, through one Prepare.
func TestPrepare(t *testing.T) {
	storetest.OpenEach(t, testPrepare)
}

func testPrepare(t *testing.T, st *store.Store) {
	ctx := context.Background()
	u := storetest.CreateUser(t, st, "prepare@example.com")
	ws, err := st.PersonalWorkspace(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	other := storetest.CreateUser(t, st, "other@example.com")
	otherWS, err := st.PersonalWorkspace(ctx, other.ID)
	if err != nil {
		t.Fatal(err)
	}
	blob := func(kind string, workspace int64) int64 {
		b := &store.Blob{WorkspaceID: &workspace, Kind: kind, FileName: kind + ".bin", ContentType: "application/octet-stream", Data: []byte("x"), CreatedAt: time.Now()}
		if err := st.CreateBlob(ctx, b); err != nil {
			t.Fatal(err)
		}
		return b.ID
	}
	ownPDF, otherLogo := blob("pdf", ws.ID), blob("logo", otherWS.ID)
	d := storetest.NewDynamic(u.ID, "taken01")
	d.WorkspaceID = ws.ID
	if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
		t.Fatal(err)
	}

	user := Caller{User: u, WorkspaceID: ws.ID, Keeps: true, ClientID: store.DefaultClientID}
	limited := user
	limited.DynamicLimit = 1
	url := func(link string) Request {
		return Request{Kind: Static, QRType: "url", Fields: payload.Fields{"url": link}}
	}
	dynamic := func(dest string) Request {
		return Request{Kind: Dynamic, QRType: "url", Destination: dest, Level: DynamicLevel}
	}
	with := func(r Request, change func(*Request)) Request {
		change(&r)
		return r
	}
	id := func(n int64) *int64 { return &n }

	refusals := []struct {
		name    string
		req     Request
		who     Caller
		status  int
		field   string
		message string
	}{
		{"no type", with(url("https://a.example"), func(r *Request) { r.QRType = "" }), user, 400, "qrType", "QR code type is required"},
		{"unknown type", with(url("https://a.example"), func(r *Request) { r.QRType = "fax" }), user, 400, "qrType", payload.UnknownType},
		{"blocked type", with(url("https://a.example"), func(r *Request) { r.QRType = "sms" }), user, 400, "qrType", MsgBlocked},
		{"visitor's gradient", with(url("https://a.example"), func(r *Request) { r.Style.GradientColor = "#7C3AED" }), Caller{}, 403, "", MsgPremium},
		{"visitor's pdf", Request{Kind: Generated, QRType: "pdf"}, Caller{}, 403, "", MsgPremium},
		{"bad colour", with(url("https://a.example"), func(r *Request) { r.Style.FgColor = "blue-ish" }), user, 400, "fgColor", "Please enter a colour like #1A2B3C"},
		{"bad field", url("ftp://a.example"), user, 400, "url", ""},
		{"another's pdf", Request{Kind: Static, QRType: "pdf", Fields: payload.Fields{"pdfFile": "999999", "title": "x"}}, user, 404, "pdfFile", "PDF file not found"},
		{"another's logo", with(url("https://a.example"), func(r *Request) { r.LogoID = id(otherLogo) }), user, 404, "logoId", "Logo not found"},
		{"logo file not an image", with(url("https://a.example"), func(r *Request) { r.LogoFile = &Upload{Data: []byte("not an image")} }), user, 415, "", "not an image"},
		{"does not scan", with(url("https://a.example"), func(r *Request) { r.Style.FgColor = "#FFFFFF" }), user, 400, "fgColor", ""},
		{"too much data", Request{Kind: Static, QRType: "text", Fields: payload.Fields{"text": strings.Repeat("x", 2000)}}, user, 400, "data", qr.ErrTooBig.Error()},
		{"dynamic destination", dynamic("javascript:alert(1)"), user, 400, "destination", MsgURLInvalid},
		{"dynamic without destination", dynamic(" "), user, 400, "destination", MsgURLRequired},
		{"dynamic qrData", with(dynamic("https://a.example"), func(r *Request) { r.QRData = "[1]" }), user, 400, "qrData", "qrData must be a JSON object"},
		{"dynamic store link", with(dynamic("https://a.example"), func(r *Request) {
			r.QRType, r.QRData = "apps", `{"appStoreUrl":"data:x"}`
		}), user, 400, "qrData.appStoreUrl", MsgURLInvalid},
		{"dynamic row's fields", with(dynamic("https://a.example"), func(r *Request) { r.Fields = payload.Fields{"url": ""} }), user, 400, "url", ""},
		{"dynamic past the limit", dynamic("https://a.example"), limited, 403, "", "limit reached"},
	}
	busy := false
	c := testCreator(st, &busy)
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			p, err := c.Prepare(ctx, tc.req, tc.who)
			rf, ok := AsRefused(err)
			if !ok {
				t.Fatalf("Prepare = %+v, %v; want a refusal", p, err)
			}
			if rf.Status != tc.status || rf.Field != tc.field || (tc.message != "" && rf.Message != tc.message) {
				t.Fatalf("refused %d %q %q, want %d %q %q", rf.Status, rf.Field, rf.Message, tc.status, tc.field, tc.message)
			}
			if rf.Field != "" && rf.Fields[rf.Field] != rf.Message {
				t.Errorf("fields %v do not hold the message under %q", rf.Fields, rf.Field)
			}
		})
	}

	t.Run("valid static", func(t *testing.T) {
		p, err := c.Prepare(ctx, url(" https://a.example/menu "), user)
		if err != nil {
			t.Fatal(err)
		}
		if p.Data != "https://a.example/menu" || p.Level != StaticLevel || p.Name != "Website 2026-03-04" || p.Style.FgColor != "#000000" {
			t.Fatalf("prepared %q at %v named %q, fg %q", p.Data, p.Level, p.Name, p.Style.FgColor)
		}
		q, err := p.QRCode()
		if err != nil || q.QRMode != "static" || q.Content != p.Data || q.Style.ErrorCorrectionLevel != "H" || q.QRData != `{"url":" https://a.example/menu "}` {
			t.Fatalf("record %+v, %v", q, err)
		}
	})
	t.Run("valid payment", func(t *testing.T) {
		req := Request{Kind: Static, QRType: "payment", Name: "Coffee", Fields: payload.Fields{"productName": "Coffee", "productDescription": "A cup", "productPrice": "3.50"}}
		white := req
		white.Style.FgColor = "#FFFFFF"
		if _, err := c.Prepare(ctx, white, user); err == nil {
			t.Fatal("a style that does not scan was accepted")
		}
		if n := storetest.Count(t, st, "payment_products"); n != 0 {
			t.Fatalf("a refused payment code left %d products", n)
		}
		p, err := c.Prepare(ctx, req, user)
		if err != nil {
			t.Fatal(err)
		}
		if p.Product == nil || p.Product.ProductPrice != 350 || *p.Product.WorkspaceID != ws.ID || !strings.HasSuffix(p.Data, "/payment?id="+strconv.FormatInt(p.Product.ID, 10)) || p.Name != "Coffee" {
			t.Fatalf("prepared %+v with product %+v", p, p.Product)
		}
	})
	t.Run("valid pdf and logo", func(t *testing.T) {
		logo := &Upload{Data: testLogo(t)}
		req := Request{Kind: Static, QRType: "pdf", Fields: payload.Fields{"pdfFile": strconv.FormatInt(ownPDF, 10), "title": "Menu"}, LogoFile: logo}
		p, err := c.Prepare(ctx, req, user)
		if err != nil {
			t.Fatal(err)
		}
		if p.File == nil || p.File.ID != ownPDF || p.Logo == nil || p.Logo.FileName != "logo" || !logo.Normalized {
			t.Fatalf("prepared file %+v, logo %+v", p.File, p.Logo)
		}
	})
	t.Run("valid dynamic", func(t *testing.T) {
		req := with(dynamic(" https://a.example/menu "), func(r *Request) { r.DomainID, r.Name = id(7), "Menu" })
		p, err := c.Prepare(ctx, req, user)
		if err != nil {
			t.Fatal(err)
		}
		if p.Destination != "https://a.example/menu" || !strings.HasPrefix(p.Data, "https://go.example.com/d/") || p.Level != DynamicLevel {
			t.Fatalf("prepared %q to %q at %v", p.Data, p.Destination, p.Level)
		}
		d := p.DynamicCode()
		if d.Name != "Menu" || d.Destination != p.Destination || *d.DomainID != 7 || d.Domain != "go.example.com" || d.Style.ErrorCorrectionLevel != "M" {
			t.Fatalf("record %+v", d)
		}
	})
	t.Run("server errors pass through", func(t *testing.T) {
		_, err := c.Prepare(ctx, with(dynamic("https://a.example"), func(r *Request) { r.DomainID = id(8) }), user)
		if !errors.Is(err, errNoDomain) {
			t.Errorf("unknown domain: %v", err)
		}
		busy = true
		defer func() { busy = false }()
		if _, err := c.Prepare(ctx, url("https://a.example"), user); !errors.Is(err, errBusy) {
			t.Errorf("busy: %v", err)
		}
		// A row is laid out without a slot.
		if _, err := c.Prepare(ctx, with(url("https://a.example"), func(r *Request) { r.Row = true }), user); err != nil {
			t.Errorf("row while busy: %v", err)
		}
	})
}

// TestForms: what the form readers take, and refuse, before Prepare.
func TestForms(t *testing.T) {
	req, err := StaticForm(map[string]string{"qrType": "location", "name": " Shop ", "locationName": "Shop", "address": "1 Main St", "logoId": "4"}, nil)
	if err != nil || req.Name != "Shop" || req.Fields["name"] != "Shop" || req.Fields["address"] != "1 Main St" || *req.LogoID != 4 {
		t.Fatalf("StaticForm = %+v, %v", req, err)
	}
	if req, err := StaticForm(map[string]string{"qrType": "url", "logoId": "x"}, &Upload{}); err != nil || req.LogoID != nil {
		t.Fatalf("a logo file does not override logoId: %+v, %v", req, err)
	}
	req, err = DynamicForm(map[string]string{"destination": "https://a.example", "domainId": "7", "errorCorrectionLevel": "H"}, nil)
	if err != nil || req.QRType != "url" || *req.DomainID != 7 || req.Level != qr.H || req.Style.FgColor != "#000000" {
		t.Fatalf("DynamicForm = %+v, %v", req, err)
	}

	for _, tc := range []struct {
		name   string
		read   func(map[string]string, *Upload) (Request, error)
		values map[string]string
		fields string // the refused fields, the message's first
	}{
		{"static qrMode", StaticForm, map[string]string{"qrMode": "dynamic"}, "qrMode"},
		{"static name", StaticForm, map[string]string{"name": "a\u202Eb"}, "name"},
		{"static scanTracking", StaticForm, map[string]string{"scanTracking": "maybe"}, "scanTracking"},
		{"static logoId", StaticForm, map[string]string{"logoId": "x"}, "logoId"},
		{"dynamic together", DynamicForm, map[string]string{"name": strings.Repeat("n", 101), "qrStyle": "dots"}, "destination name qrStyle"},
		{"dynamic type", DynamicForm, map[string]string{"destination": "https://a.example", "qrType": "sms"}, "qrType"},
		{"dynamic domainId", DynamicForm, map[string]string{"destination": "https://a.example", "domainId": "-1"}, "domainId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.read(tc.values, nil)
			rf, ok := AsRefused(err)
			if !ok || rf.Status != http.StatusBadRequest {
				t.Fatalf("err %v, want a 400", err)
			}
			want := strings.Fields(tc.fields)
			if rf.Field != want[0] || len(rf.Fields) != len(want) || rf.Message != rf.Fields[want[0]] {
				t.Fatalf("refused %q %v, want fields %v", rf.Field, rf.Fields, want)
			}
			for _, f := range want {
				if _, ok := rf.Fields[f]; !ok {
					t.Fatalf("refused %v, want fields %v", rf.Fields, want)
				}
			}
		})
	}
}
