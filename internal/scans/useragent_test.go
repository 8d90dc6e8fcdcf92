package scans

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestParseUserAgent(t *testing.T) {
	tests := []struct {
		ua   string
		want Client
	}{
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
			Client{Device: Mobile, OS: "iOS", Browser: "Safari"}},
		{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
			Client{Device: Mobile, OS: "Android", Browser: "Chrome"}},
		{"Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
			Client{Device: Tablet, OS: "iOS", Browser: "Safari"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
			Client{Device: Desktop, OS: "Windows", Browser: "Chrome"}},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0",
			Client{Device: Desktop, OS: "macOS", Browser: "Firefox"}},
	}
	for _, tt := range tests {
		if got := ParseUserAgent(tt.ua); got != tt.want {
			t.Errorf("ParseUserAgent(%.40q…) = %+v, want %+v", tt.ua, got, tt.want)
		}
	}
}

func TestParseUserAgentBots(t *testing.T) {
	bots := []string{
		"",
		"Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
		"Twitterbot/1.0",
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
		"WhatsApp/2.23.20.0",
		"Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
		"TelegramBot (like TwitterBot)",
		"LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
		"curl/8.5.0",
		"Wget/1.21.4",
		"python-requests/2.31.0",
		"Go-http-client/1.1",
	}
	for _, ua := range bots {
		got := ParseUserAgent(ua)
		if !got.IsBot || got.Device != Bot {
			t.Errorf("ParseUserAgent(%q) = %+v, want a bot", ua, got)
		}
		if len(got.Browser) > 50 {
			t.Errorf("ParseUserAgent(%q).Browser is %d bytes long", ua, len(got.Browser))
		}
	}
}

// Only a header's first maxUserAgent bytes are parsed and memoised: a
// megabyte User-Agent cost the parser up to 130 ms on the request path of
// routed scans and page views, and each distinct one stayed in osBit's
// memo (4,096 of them: gigabytes).
func TestLongUserAgentCut(t *testing.T) {
	const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	if c := ParseUserAgent(iphone + " " + strings.Repeat("a", 1<<20)); c.OS != "iOS" {
		t.Errorf("an iPhone's header with a megabyte after it: %+v", c)
	}
	if c := ParseUserAgent(strings.Repeat("a ", 1<<19) + iphone); c.OS == "iOS" {
		t.Errorf("an iPhone's header after a megabyte was parsed: %+v", c)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 40 {
		osBit(fmt.Sprintf("%s %d", strings.Repeat("b", 1<<20), i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
		t.Errorf("40 one-megabyte headers left the heap %d MB larger", grew>>20)
	}
}
