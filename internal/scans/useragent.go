package scans

import (
	"strings"

	"github.com/mileusna/useragent"
)

// Device types a scan is recorded with.
const (
	Mobile  = "mobile"
	Tablet  = "tablet"
	Desktop = "desktop"
	Bot     = "bot"
)

// Client is what a user agent says about the scanner.
type Client struct {
	Device  string // Mobile, Tablet, Desktop, Bot or "" when unknown
	OS      string
	Browser string
	IsBot   bool
}

// previewAgents are link-preview fetchers, crawlers and HTTP tools, by a
// lower-case substring of their user agent, for those the parser does not
// flag as bots itself. They are recorded but never counted as human scans.
var previewAgents = []string{
	"slackbot", "slack-imgproxy", "twitterbot", "facebookexternalhit", "facebookcatalog",
	"whatsapp", "discordbot", "telegrambot", "linkedinbot", "skypeuripreview", "pinterestbot",
	"redditbot", "embedly", "iframely", "vkshare", "mastodon", "bitlybot", "google-pagerenderer",
	"googlebot", "bingbot", "bingpreview", "duckduckbot", "baiduspider", "yandex", "applebot",
	"petalbot", "semrushbot", "ahrefsbot", "mj12bot", "bytespider", "gptbot", "ccbot",
	"headlesschrome", "phantomjs", "lighthouse", "curl/", "wget/", "python-requests",
	"python-urllib", "go-http-client", "okhttp", "java/", "libwww-perl", "httpclient",
	"axios/", "node-fetch", "undici", "spider", "crawler", "bot/", "bot;",
}

// ParseUserAgent classifies a User-Agent header. An empty one is a bot:
// browsers always send one. It reads the header's first maxUserAgent
// bytes, as the recorder keeps them: the parser's time grows with the
// header (a megabyte took up to 130 ms), and routed scans and page views
// parse it on the request path.
func ParseUserAgent(s string) Client {
	s = text(s, maxUserAgent)
	if strings.TrimSpace(s) == "" {
		return Client{Device: Bot, IsBot: true}
	}
	ua := useragent.Parse(s)
	c := Client{OS: ua.OS, Browser: shortName(ua.Name), IsBot: ua.Bot}
	if !c.IsBot {
		lower := strings.ToLower(s)
		for _, p := range previewAgents {
			if strings.Contains(lower, p) {
				c.IsBot = true
				break
			}
		}
	}
	switch {
	case c.IsBot:
		c.Device = Bot
	case ua.Tablet:
		c.Device = Tablet
	case ua.Mobile:
		c.Device = Mobile
	case ua.Desktop:
		c.Device = Desktop
	}
	return c
}

// shortName keeps a name the parser could not recognise (it then returns
// the whole header) to its first product token, cut on a rune boundary.
func shortName(name string) string {
	const max = 50
	if len(name) <= max {
		return name
	}
	if i := strings.IndexAny(name, "/ ;("); i > 0 && i <= max {
		return name[:i]
	}
	return cutRunes(name, max)
}
