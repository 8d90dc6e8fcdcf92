package server

import (
	"bytes"
	"context"
	"html/template"
	"image/color"
	"net/http"

	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/store"
)

// The pages a scan can land on (an unknown or paused code, a protected
// code's password page, the pdf and images pages) wear the brand of the
// code's owner: their white-label client's name and colours, else the
// product's. Everything is inline, so the pages make no other request
// (their CSP allows only inline style).

// scanBrand is the name and colours a scan page shows. Link (links on
// white) and OnPrimary (text on Primary buttons) are the readable colours
// readable derives from the brand.
type scanBrand struct {
	Name, Primary, Secondary string
	Link, OnPrimary          string
}

// appPrimaryColor is the web app's blue (--brand-primary in
// web/src/index.css): white on it is 5.17:1, past WCAG AA's 4.5:1, where
// the white-label default #3B82F6 is 3.68:1.
const appPrimaryColor = "#2563EB"

// Text colours for a brand colour white is not readable on (WCAG AA 4.5:1).
const (
	minTextContrast = 4.5
	inkColor        = "#0F172A" // the pages' text colour
	whiteColor      = "#FFFFFF"
)

var productBrand = readable(scanBrand{Name: "Squarely", Primary: appPrimaryColor, Secondary: defaultSecondaryColor})

// readable sets b's Link and OnPrimary: links take the first of Primary,
// Secondary and ink readable on white; button text is white on Primary
// if readable, else ink. Colours that do not parse count as unreadable.
func readable(b scanBrand) scanBrand {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	onWhite := func(hex string) bool {
		c, err := render.ParseColor(hex)
		return err == nil && render.Contrast(c, white) >= minTextContrast
	}
	b.Link, b.OnPrimary = inkColor, inkColor
	for _, c := range []string{b.Secondary, b.Primary} {
		if onWhite(c) {
			b.Link = c
		}
	}
	if onWhite(b.Primary) {
		b.OnPrimary = whiteColor
	}
	return b
}

// brandOf is client c's brand; the product's for the default site, an
// inactive client or none. Colours are checked again here (they reach CSS),
// so a malformed one falls back to the product's.
func brandOf(c *store.Client) scanBrand {
	if c == nil || c.ID == store.DefaultClientID || !c.IsActive {
		return productBrand
	}
	b := scanBrand{Name: c.Name, Primary: c.PrimaryColor, Secondary: c.SecondaryColor}
	if !hexColorPattern.MatchString(b.Primary) || !hexColorPattern.MatchString(b.Secondary) {
		b.Primary, b.Secondary = productBrand.Primary, productBrand.Secondary
	}
	return readable(b)
}

// clientBrand is the brand of client id (a code owner's). The store
// failing is logged and the product's brand shown: the page still answers.
func (s *server) clientBrand(ctx context.Context, id int64) scanBrand {
	if id == store.DefaultClientID {
		return productBrand
	}
	c, err := s.clients.byID(ctx, id)
	if err != nil {
		s.log.ErrorContext(ctx, "reading a client for a scan page", "err", err)
	}
	return brandOf(c)
}

// hostBrand is the brand of the host a request came by, for pages that
// belong to no code (an unknown short code). The redirect routes run before
// withClient, so the host is resolved here, through the same cache.
func (s *server) hostBrand(r *http.Request) scanBrand {
	if c := requestClient(r); c != nil {
		return brandOf(c)
	}
	c, err := s.clients.byHost(r.Context(), r.Host)
	if err != nil {
		s.log.ErrorContext(r.Context(), "resolving the white-label client of a scan page", "err", err)
	}
	return brandOf(c)
}

// scanPages holds the shared look ("style", "brand") and the notice pages.
// html/template escapes the name as text and the colours as CSS values.
var scanPages = template.Must(template.New("scan").Parse(`
{{define "style"}}body{margin:0;font-family:system-ui,-apple-system,sans-serif;color:#0f172a;background:#f8fafc;line-height:1.5}
.brand{display:flex;align-items:center;gap:8px;padding:14px 16px;background:#fff;border-bottom:1px solid #e2e8f0;font-weight:700;font-size:1.05rem;color:#0f172a;overflow-wrap:anywhere}
.brand i{flex:none;display:inline-block;width:22px;height:22px;border-radius:6px;background:linear-gradient(135deg,{{.Primary}},{{.Secondary}})}
main{max-width:960px;margin:0 auto;padding:24px 16px}
.notice{max-width:32rem;margin:10vh auto 0;padding:28px 20px;text-align:center;background:#fff;border:1px solid #e2e8f0;border-radius:16px}
h1{font-size:1.5rem;margin:0 0 8px;overflow-wrap:anywhere}
p{margin:0 0 16px;white-space:pre-line;overflow-wrap:anywhere;color:#334155}
a{color:{{.Link}}}
form{display:flex;flex-direction:column;gap:12px;text-align:left}
label{font-weight:600}
input{font:inherit;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px}
button{font:inherit;font-weight:600;padding:10px 12px;border:0;border-radius:8px;background:{{.Primary}};color:{{.OnPrimary}};cursor:pointer}
.error{color:#b91c1c;margin:0}
.store{display:block;font-weight:600;padding:10px 12px;border-radius:8px;background:{{.Primary}};color:{{.OnPrimary}};text-decoration:none}
@media (max-width:480px){main{padding:16px 12px}.notice{margin:16px 12px 0;padding:24px 16px}}{{end}}
{{define "brand"}}<div class="brand"><i></i>{{.Name}}</div>{{end}}
{{define "notice"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
{{if .Form}}<meta name="robots" content="noindex">
{{end}}<title>{{.Title}}</title>
<style>{{template "style" .Brand}}</style>
</head><body>{{template "brand" .Brand}}<main class="notice"><h1>{{.Heading}}</h1>
<p>{{.Text}}</p>{{range .Links}}
<p><a class="store" href="{{.URL}}">{{.Label}}</a></p>{{end}}{{if .Form}}
<form method="post">{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<label for="password">Password</label>
<input id="password" name="password" type="password" required autofocus autocomplete="off">
<button type="submit">Continue</button>
</form>{{end}}</main></body></html>
{{end}}`))

// notice is one of the notice pages' texts.
type notice struct {
	Title, Heading, Text string
	Form                 bool   // the password form
	Error                string // above the form
	Links                []noticeLink
	Brand                scanBrand
}

// noticeLink is a button-like link on a notice page (the app links page).
type noticeLink struct{ Label, URL string }

var (
	pausedNotice   = notice{Title: "QR code paused", Heading: "This QR code is paused", Text: "Its owner has paused it for now. Please try again later."}
	notFoundNotice = notice{Title: "404 Page Not Found", Heading: "404 Page Not Found", Text: "This QR code does not exist or has been deleted."}
	passwordNotice = notice{Title: "Password required", Heading: "Password required",
		Text: "This QR code is protected. Enter its password to continue.", Form: true}
	wrongPasswordNotice = func() notice { n := passwordNotice; n.Error = msgCodePasswordWrong; return n }()
)

// scanPage answers a notice page in brand b.
func (s *server) scanPage(w http.ResponseWriter, status int, b scanBrand, n notice) {
	var buf bytes.Buffer
	n.Brand = b
	if err := scanPages.ExecuteTemplate(&buf, "notice", n); err != nil {
		s.log.ErrorContext(logContext(w), "internal error", "doing", "rendering a scan page", "err", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	page(w, status, buf.String())
}
