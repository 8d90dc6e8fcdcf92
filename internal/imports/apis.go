package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/netguard"
)

// Client reads links from other services' APIs, each through the
// service's own documented API, page by page.
type Client struct {
	Policy  netguard.Policy
	Timeout time.Duration // per request; 0: 20 seconds
	Tries   int           // per request; 0: 3
}

// maxPages bounds the pages read from one service: MaxLinks at the
// smallest page size used (Kutt's 50), and one more to see the end.
const maxPages = MaxLinks/50 + 1

// Fetch reads every link of source at baseURL with apiKey.
func (c *Client) Fetch(ctx context.Context, source, baseURL, apiKey string) ([]Link, error) {
	read, ok := map[string]func(context.Context, *url.URL, string) ([]Link, error){
		"kutt": c.kutt, "shlink": c.shlink, "yourls": c.yourls, "dub": c.dub, "bitly": c.bitly,
	}[source]
	if !ok {
		return nil, refusef("Unknown source %q: use %s", source, strings.Join(append(append([]string{}, APISources...), CSVSources...), ", "))
	}
	base, err := c.Policy.CheckURL(ctx, baseURL)
	if err != nil {
		return nil, refusef("baseUrl %v", err)
	}
	return read(ctx, base, apiKey)
}

// pages collects the links that page adds, calling it with n = 0, 1, …
// until it reports no more, fails, or the links pass MaxLinks.
func pages(page func(n int, add func(Link)) (more bool, err error)) ([]Link, error) {
	var out []Link
	add := func(l Link) { out = append(out, l) }
	for n := 0; n < maxPages; n++ {
		more, err := page(n, add)
		if err != nil {
			return nil, err
		}
		if len(out) > MaxLinks {
			return nil, refusef("An import holds at most %d links", MaxLinks)
		}
		if !more {
			return out, nil
		}
	}
	return nil, refusef("The service answered more than %d pages", maxPages)
}

// get fetches u as JSON into v, with the source's headers, retrying a
// failed exchange or a 5xx or 429 answer.
func (c *Client) get(ctx context.Context, u string, header http.Header, v any) error {
	timeout, tries := c.Timeout, c.Tries
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	if tries == 0 {
		tries = 3
	}
	// Each call has its own transport: its connection is closed after, not
	// left idle for 90 s (a large import reads hundreds of pages).
	client := c.Policy.Client(timeout)
	defer client.CloseIdleConnections()
	var last error
	for try := range tries {
		if try > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(try) * 300 * time.Millisecond):
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		req.Header = header.Clone()
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			var ae *netguard.AddressError
			if errors.As(err, &ae) {
				return refusef("The service's address is not allowed: %v", ae)
			}
			last = refusef("The service did not answer: %v", err)
			continue
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
		resp.Body.Close()
		switch {
		case err != nil:
			last = refusef("The service's answer broke off: %v", err)
			continue
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			return refusef("The service refused the API key (%d)", resp.StatusCode)
		case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
			last = refusef("The service answered %d", resp.StatusCode)
			continue
		case resp.StatusCode != http.StatusOK:
			return refusef("The service answered %d at %s", resp.StatusCode, req.URL.Path)
		}
		if err := json.Unmarshal(body, v); err != nil {
			return refusef("The service's answer is not the JSON expected: %v", err)
		}
		return nil
	}
	return last
}

// endpoint is base with path joined, unless base already ends with the
// path's first part (an API's base given as https://kutt.it/api/v2).
func endpoint(base *url.URL, query url.Values, path ...string) string {
	u := *base
	u.Path = strings.TrimSuffix(u.Path, "/")
	for i := len(path); i > 0; i-- {
		if strings.HasSuffix(u.Path, "/"+strings.Join(path[:i], "/")) {
			path = path[i:]
			break
		}
	}
	out := u.JoinPath(path...)
	out.RawQuery = query.Encode()
	return out.String()
}

// count is a number a service may send as a JSON string (YOURLS's
// "clicks": "12").
type count int64

func (n *count) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`)
	if len(b) == 0 || string(b) == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	*n = count(v)
	return err
}

// when is a source's creation date, nil when it has none or none read.
func when(s string) *time.Time {
	if t, ok := parseTime(s); ok {
		return &t
	}
	return nil
}

// kutt reads Kutt's API v2: GET /api/v2/links with X-API-KEY, by skip and
// limit, answering {limit, skip, total, data: [link]}.
func (c *Client) kutt(ctx context.Context, base *url.URL, apiKey string) ([]Link, error) {
	const size = 50
	return pages(func(n int, add func(Link)) (bool, error) {
		var answer struct {
			Total int `json:"total"`
			Data  []struct {
				Address     string `json:"address"`
				Target      string `json:"target"`
				Description string `json:"description"`
				Link        string `json:"link"`
				VisitCount  count  `json:"visit_count"`
				CreatedAt   string `json:"created_at"`
			} `json:"data"`
		}
		u := endpoint(base, url.Values{"limit": {strconv.Itoa(size)}, "skip": {strconv.Itoa(n * size)}}, "api", "v2", "links")
		if err := c.get(ctx, u, http.Header{"X-Api-Key": {apiKey}}, &answer); err != nil {
			return false, err
		}
		for _, l := range answer.Data {
			add(Link{ShortCode: l.Address, Destination: l.Target, Title: l.Description, Clicks: int64(l.VisitCount),
				CreatedAt: when(l.CreatedAt), ShortURL: l.Link})
		}
		return len(answer.Data) == size && (n+1)*size < answer.Total, nil
	})
}

// shlink reads Shlink's REST API v3: GET /rest/v3/short-urls page by page
// with X-Api-Key.
func (c *Client) shlink(ctx context.Context, base *url.URL, apiKey string) ([]Link, error) {
	return pages(func(n int, add func(Link)) (bool, error) {
		var answer struct {
			ShortURLs struct {
				Data []struct {
					ShortCode     string   `json:"shortCode"`
					ShortURL      string   `json:"shortUrl"`
					LongURL       string   `json:"longUrl"`
					Title         *string  `json:"title"`
					Tags          []string `json:"tags"`
					DateCreated   string   `json:"dateCreated"`
					VisitsCount   int64    `json:"visitsCount"`
					VisitsSummary *struct {
						Total int64 `json:"total"`
					} `json:"visitsSummary"`
				} `json:"data"`
				Pagination struct {
					CurrentPage int `json:"currentPage"`
					PagesCount  int `json:"pagesCount"`
				} `json:"pagination"`
			} `json:"shortUrls"`
		}
		u := endpoint(base, url.Values{"page": {strconv.Itoa(n + 1)}, "itemsPerPage": {"100"}}, "rest", "v3", "short-urls")
		if err := c.get(ctx, u, http.Header{"X-Api-Key": {apiKey}}, &answer); err != nil {
			return false, err
		}
		for _, s := range answer.ShortURLs.Data {
			l := Link{ShortCode: s.ShortCode, Destination: s.LongURL, Tags: s.Tags, Clicks: s.VisitsCount,
				CreatedAt: when(s.DateCreated), ShortURL: s.ShortURL}
			if s.Title != nil {
				l.Title = *s.Title
			}
			if s.VisitsSummary != nil {
				l.Clicks = s.VisitsSummary.Total
			}
			add(l)
		}
		p := answer.ShortURLs.Pagination
		return len(answer.ShortURLs.Data) > 0 && p.CurrentPage < p.PagesCount, nil
	})
}

// yourls reads YOURLS's yourls-api.php: action=stats&filter=last by limit
// and start (format=json), keyed link_1, link_2, …; a link whose stats lack
// its long URL is asked with action=expand. apiKey is the signature token,
// or "username:password".
func (c *Client) yourls(ctx context.Context, base *url.URL, apiKey string) ([]Link, error) {
	const size = 100
	auth := url.Values{"signature": {apiKey}}
	if user, password, ok := strings.Cut(apiKey, ":"); ok {
		auth = url.Values{"username": {user}, "password": {password}}
	}
	call := func(q url.Values, v any) error {
		q.Set("format", "json")
		for k, vs := range auth {
			q[k] = vs
		}
		u := *base
		if !strings.HasSuffix(u.Path, ".php") {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/yourls-api.php"
		}
		return c.get(ctx, endpoint(&u, q), http.Header{}, v)
	}
	type yLink struct {
		ShortURL  string `json:"shorturl"`
		URL       string `json:"url"`
		Title     string `json:"title"`
		Timestamp string `json:"timestamp"`
		Clicks    count  `json:"clicks"`
	}
	return pages(func(n int, add func(Link)) (bool, error) {
		var answer struct {
			Links json.RawMessage `json:"links"` // {"link_1": …}; [] when none
			Stats struct {
				TotalLinks count `json:"total_links"`
			} `json:"stats"`
		}
		q := url.Values{"action": {"stats"}, "filter": {"last"}, "limit": {strconv.Itoa(size)}, "start": {strconv.Itoa(n * size)}}
		if err := call(q, &answer); err != nil {
			return false, err
		}
		links := map[string]yLink{}
		if len(answer.Links) > 0 && answer.Links[0] == '{' {
			if err := json.Unmarshal(answer.Links, &links); err != nil {
				return false, refusef("The service's answer is not the JSON expected: %v", err)
			}
		}
		keys := make([]string, 0, len(links))
		for k := range links {
			keys = append(keys, k)
		}
		num := func(k string) int { i, _ := strconv.Atoi(strings.TrimPrefix(k, "link_")); return i }
		slices.SortFunc(keys, func(a, b string) int { return num(a) - num(b) })
		for _, k := range keys {
			y := links[k]
			l := Link{ShortCode: shortCodeOf(y.ShortURL), Destination: y.URL, Title: y.Title, Clicks: int64(y.Clicks),
				CreatedAt: when(y.Timestamp), ShortURL: y.ShortURL}
			if l.Destination == "" && l.ShortCode != "" {
				var expanded struct {
					LongURL string `json:"longurl"`
				}
				if err := call(url.Values{"action": {"expand"}, "shorturl": {l.ShortCode}}, &expanded); err != nil {
					return false, err
				}
				l.Destination = expanded.LongURL
			}
			add(l)
		}
		return len(links) == size && (n+1)*size < int(answer.Stats.TotalLinks), nil
	})
}

// dub reads Dub's API: GET /links with Authorization: Bearer, by page and
// pageSize, answering an array of links.
func (c *Client) dub(ctx context.Context, base *url.URL, apiKey string) ([]Link, error) {
	const size = 100
	return pages(func(n int, add func(Link)) (bool, error) {
		var answer []struct {
			Key       string  `json:"key"`
			ShortLink string  `json:"shortLink"`
			URL       string  `json:"url"`
			Title     *string `json:"title"`
			Tags      []struct {
				Name string `json:"name"`
			} `json:"tags"`
			Clicks    int64  `json:"clicks"`
			CreatedAt string `json:"createdAt"`
		}
		u := endpoint(base, url.Values{"page": {strconv.Itoa(n + 1)}, "pageSize": {strconv.Itoa(size)}}, "links")
		if err := c.get(ctx, u, http.Header{"Authorization": {"Bearer " + apiKey}}, &answer); err != nil {
			return false, err
		}
		for _, d := range answer {
			l := Link{ShortCode: d.Key, Destination: d.URL, Clicks: d.Clicks, CreatedAt: when(d.CreatedAt), ShortURL: d.ShortLink}
			if d.Title != nil {
				l.Title = *d.Title
			}
			for _, t := range d.Tags {
				l.Tags = append(l.Tags, t.Name)
			}
			add(l)
		}
		return len(answer) == size, nil
	})
}

// bitly reads Bitly's API v4 with Authorization: Bearer: the default group
// of the key's user (GET /v4/user), then GET /v4/groups/{group}/bitlinks
// page after page (pagination.search_after, or the query of
// pagination.next, asked of baseUrl). The list carries no click totals
// (those cost a request a link), so Bitly links come with none.
func (c *Client) bitly(ctx context.Context, base *url.URL, apiKey string) ([]Link, error) {
	header := http.Header{"Authorization": {"Bearer " + apiKey}}
	var user struct {
		DefaultGroupGUID string `json:"default_group_guid"`
	}
	if err := c.get(ctx, endpoint(base, nil, "v4", "user"), header, &user); err != nil {
		return nil, err
	}
	if user.DefaultGroupGUID == "" {
		return nil, refusef("The Bitly account has no default group")
	}
	query := url.Values{"size": {"100"}}
	return pages(func(n int, add func(Link)) (bool, error) {
		var answer struct {
			Links []struct {
				ID        string   `json:"id"`
				Link      string   `json:"link"`
				LongURL   string   `json:"long_url"`
				Title     string   `json:"title"`
				Tags      []string `json:"tags"`
				CreatedAt string   `json:"created_at"`
			} `json:"links"`
			Pagination struct {
				Next        string `json:"next"`
				SearchAfter string `json:"search_after"`
			} `json:"pagination"`
		}
		if err := c.get(ctx, endpoint(base, query, "v4", "groups", user.DefaultGroupGUID, "bitlinks"), header, &answer); err != nil {
			return false, err
		}
		for _, b := range answer.Links {
			add(Link{ShortCode: shortCodeOf(b.ID), Destination: b.LongURL, Title: b.Title, Tags: b.Tags,
				CreatedAt: when(b.CreatedAt), ShortURL: b.Link})
		}
		p := answer.Pagination
		switch {
		case len(answer.Links) == 0:
			return false, nil
		case p.SearchAfter != "":
			query = url.Values{"size": {"100"}, "search_after": {p.SearchAfter}}
			return true, nil
		case p.Next != "":
			next, err := url.Parse(p.Next)
			if err != nil {
				return false, refusef("The service's next page is not a URL: %q", p.Next)
			}
			query = next.Query()
			return true, nil
		}
		return false, nil
	})
}

// Probe requests u once, following no redirect, and answers its status
// and Location: what the switch check compares.
func (c *Client) Probe(ctx context.Context, u string) (int, string, error) {
	if _, err := c.Policy.CheckURL(ctx, u); err != nil {
		return 0, "", refusef("%s %v", u, err)
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, "", err
	}
	// One probe a link: its connection is closed after it. Left idle, a
	// 10,000-link check ran out of file descriptors near its end.
	client := c.Policy.Client(timeout)
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), nil
}
