package codes

import "testing"

// The URL a code prints: on a custom domain a chosen short code sits at
// the root unless it is one of the app's words.
func TestPrintedURL(t *testing.T) {
	for _, c := range []struct {
		domain, code string
		chosen       bool
		want         string
	}{
		{"", "Ab3dE9xZ", false, "https://qr.example.com/d/Ab3dE9xZ"},
		{"", "menu", true, "https://qr.example.com/d/menu"},
		{"qr1.test", "autumn", true, "https://qr1.test/autumn"},
		{"qr1.test", "Ab3dE9xZ", false, "https://qr1.test/d/Ab3dE9xZ"},
		// A word the app uses at the root keeps the /d/ form.
		{"qr1.test", "login", true, "https://qr1.test/d/login"},
		{"qr1.test", "API", true, "https://qr1.test/d/API"},
	} {
		if got := PrintedURL("https://qr.example.com", c.domain, c.code, c.chosen); got != c.want {
			t.Errorf("PrintedURL(%q, %q, %v) = %q, want %q", c.domain, c.code, c.chosen, got, c.want)
		}
	}
}
