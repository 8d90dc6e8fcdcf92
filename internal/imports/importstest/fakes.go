// Package importstest runs fakes of the shorteners an import reads (Kutt,
// Shlink, YOURLS, Dub, Bitly), each speaking its service's documented API
// over httptest with n links {source}-1 … {source}-n, and says what an
// importer must read of each.
package importstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/imports"
)

// ShortHost is where the fakes' links live: their short URLs are
// ShortHost/link-i.
const ShortHost = "https://short.example"

// Fake is a running fake service.
type Fake struct {
	URL      string
	Requests atomic.Int64
}

type link struct {
	code, dest, title string
	tags              []string
	clicks            int64
	created           time.Time
}

func linkN(source string, i int) link {
	return link{code: fmt.Sprintf("%s-%d", source, i), dest: fmt.Sprintf("https://example.com/%d", i), title: fmt.Sprintf("Link %d", i),
		tags: []string{fmt.Sprintf("t%d", i%3)}, clicks: int64(i * 10), created: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(i) * time.Minute)}
}

// Want is what an importer of source reads of link i.
func Want(source string, i int) imports.Link {
	l := linkN(source, i)
	out := imports.Link{ShortCode: l.code, Destination: l.dest, Title: l.title, Tags: l.tags, Clicks: l.clicks, CreatedAt: &l.created,
		ShortURL: ShortHost + "/" + l.code}
	switch source {
	case "kutt", "yourls":
		out.Tags = nil // neither has tags
	case "bitly":
		out.Clicks = 0 // the list has no totals
	}
	return out
}

// Start runs a fake of source whose API key is key, with n links.
func Start(t testing.TB, source, key string, n int) *Fake {
	t.Helper()
	f := &Fake{}
	links := make([]link, n)
	for i := range links {
		links[i] = linkN(source, i+1)
	}
	handlers := map[string]func(http.ResponseWriter, *http.Request, []link, string){
		"kutt": kutt, "shlink": shlink, "yourls": yourls, "dub": dub, "bitly": bitly,
	}
	h, ok := handlers[source]
	if !ok {
		t.Fatalf("no fake of %q", source)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.Requests.Add(1)
		if r.Method != http.MethodGet {
			http.Error(w, "method", http.StatusMethodNotAllowed)
			return
		}
		h(w, r, links, key)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func intParam(r *http.Request, name string, def int) int {
	if n, err := strconv.Atoi(r.URL.Query().Get(name)); err == nil {
		return n
	}
	return def
}

func window(links []link, from, size int) []link {
	from = min(max(from, 0), len(links))
	return links[from:min(from+size, len(links))]
}

// kutt: GET /api/v2/links?limit&skip with X-API-KEY (Kutt caps limit at 50).
func kutt(w http.ResponseWriter, r *http.Request, links []link, key string) {
	if r.Header.Get("X-API-KEY") != key {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "Unauthorized"})
		return
	}
	if r.URL.Path != "/api/v2/links" {
		http.NotFound(w, r)
		return
	}
	limit, skip := min(intParam(r, "limit", 10), 50), intParam(r, "skip", 0)
	data := []map[string]any{}
	for i, l := range window(links, skip, limit) {
		data = append(data, map[string]any{"id": fmt.Sprintf("00000000-0000-0000-0000-%012d", skip+i), "address": l.code, "banned": false,
			"created_at": l.created.Format(time.RFC3339Nano), "updated_at": l.created.Format(time.RFC3339Nano), "link": ShortHost + "/" + l.code,
			"password": false, "target": l.dest, "description": l.title, "visit_count": l.clicks})
	}
	writeJSON(w, http.StatusOK, map[string]any{"limit": limit, "skip": skip, "total": len(links), "data": data})
}

// shlink: GET /rest/v3/short-urls?page&itemsPerPage with X-Api-Key.
func shlink(w http.ResponseWriter, r *http.Request, links []link, key string) {
	if r.Header.Get("X-Api-Key") != key {
		w.Header().Set("Content-Type", "application/problem+json")
		writeJSON(w, http.StatusUnauthorized, map[string]any{"type": "https://shlink.io/api/error/invalid-api-key", "title": "Invalid API key", "status": 401})
		return
	}
	if r.URL.Path != "/rest/v3/short-urls" {
		http.NotFound(w, r)
		return
	}
	page, per := max(intParam(r, "page", 1), 1), intParam(r, "itemsPerPage", 10)
	data := []map[string]any{}
	win := window(links, (page-1)*per, per)
	for _, l := range win {
		data = append(data, map[string]any{"shortCode": l.code, "shortUrl": ShortHost + "/" + l.code, "longUrl": l.dest,
			"dateCreated": l.created.Format("2006-01-02T15:04:05-07:00"), "visitsSummary": map[string]any{"total": l.clicks, "nonBots": l.clicks, "bots": 0},
			"tags": l.tags, "meta": map[string]any{"validSince": nil, "validUntil": nil, "maxVisits": nil}, "domain": nil, "title": l.title, "crawlable": false})
	}
	pages := (len(links) + per - 1) / per
	writeJSON(w, http.StatusOK, map[string]any{"shortUrls": map[string]any{"data": data, "pagination": map[string]any{
		"currentPage": page, "pagesCount": pages, "itemsPerPage": per, "itemsInCurrentPage": len(win), "totalItems": len(links)}}})
}

// yourls: yourls-api.php?action=stats&filter=last&limit&start&format=json
// with signature, keyed link_1 …, numbers as strings (as PHP sends them);
// action=expand&shorturl. Every 50th link's stats come without its long
// URL, as a plugin filtering api_stats may send them, so the importer
// asks expand.
func yourls(w http.ResponseWriter, r *http.Request, links []link, key string) {
	q := r.URL.Query()
	if r.URL.Path != "/yourls-api.php" {
		http.NotFound(w, r)
		return
	}
	if q.Get("signature") != key {
		writeJSON(w, http.StatusForbidden, map[string]any{"errorCode": 403, "message": "Please log in"})
		return
	}
	switch q.Get("action") {
	case "stats":
		sorted := append([]link(nil), links...)
		if q.Get("filter") == "last" {
			sort.Slice(sorted, func(i, j int) bool { return sorted[i].created.After(sorted[j].created) })
		}
		out := map[string]any{}
		for i, l := range window(sorted, intParam(r, "start", 0), intParam(r, "limit", 10)) {
			n, _ := strconv.Atoi(l.code[len("yourls-"):])
			dest := l.dest
			if n%50 == 0 {
				dest = ""
			}
			out["link_"+strconv.Itoa(i+1)] = map[string]any{"shorturl": ShortHost + "/" + l.code, "url": dest, "title": l.title,
				"timestamp": l.created.Format("2006-01-02 15:04:05"), "ip": "127.0.0.1", "clicks": strconv.FormatInt(l.clicks, 10)}
		}
		var body any = out
		if len(out) == 0 {
			body = []any{} // PHP's empty array
		}
		writeJSON(w, http.StatusOK, map[string]any{"links": body, "stats": map[string]any{"total_links": strconv.Itoa(len(links)), "total_clicks": "0"},
			"statusCode": 200, "message": "success"})
	case "expand":
		for _, l := range links {
			if l.code == q.Get("shorturl") {
				writeJSON(w, http.StatusOK, map[string]any{"keyword": l.code, "shorturl": ShortHost + "/" + l.code, "longurl": l.dest,
					"title": l.title, "message": "success", "statusCode": 200})
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"keyword": q.Get("shorturl"), "message": "Error: short URL not found", "errorCode": 404})
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"errorCode": 400, "message": `Unknown or missing "action" parameter`})
	}
}

// dub: GET /links?page&pageSize with Authorization: Bearer, an array.
func dub(w http.ResponseWriter, r *http.Request, links []link, key string) {
	if r.Header.Get("Authorization") != "Bearer "+key {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"code": "unauthorized", "message": "Unauthorized: Invalid API key.",
			"doc_url": "https://dub.co/docs/api-reference/errors#unauthorized"}})
		return
	}
	if r.URL.Path != "/links" {
		http.NotFound(w, r)
		return
	}
	page, size := max(intParam(r, "page", 1), 1), min(intParam(r, "pageSize", 100), 100)
	out := []map[string]any{}
	for _, l := range window(links, (page-1)*size, size) {
		tags := []map[string]any{}
		for _, t := range l.tags {
			tags = append(tags, map[string]any{"id": "tag_" + t, "name": t, "color": "blue"})
		}
		link := map[string]any{"id": "link_" + l.code, "domain": "short.example", "key": l.code, "url": l.dest,
			"shortLink": ShortHost + "/" + l.code, "qrCode": "https://api.dub.co/qr?url=" + ShortHost + "/" + l.code + "?qr=1",
			"title": l.title, "tags": tags, "clicks": l.clicks, "archived": false, "trackConversion": false, "proxy": false,
			"rewrite": false, "doIndex": false, "publicStats": false, "leads": 0, "conversions": 0, "sales": 0, "saleAmount": 0,
			"workspaceId": "ws_fake", "projectId": "ws_fake", "webhookIds": []string{},
			"createdAt": l.created.Format("2006-01-02T15:04:05.000Z"), "updatedAt": l.created.Format("2006-01-02T15:04:05.000Z")}
		// The fields Dub sends as null when unset (its SDK requires each).
		for _, unset := range []string{"externalId", "tenantId", "programId", "partnerId", "expiresAt", "expiredUrl", "disabledAt",
			"password", "description", "image", "video", "ios", "android", "geo", "folderId", "comments", "utm_source", "utm_medium",
			"utm_campaign", "utm_term", "utm_content", "userId", "lastClicked", "tagId"} {
			link[unset] = nil
		}
		out = append(out, link)
	}
	writeJSON(w, http.StatusOK, out)
}

// bitly: GET /v4/user, GET /v4/groups/{guid}/bitlinks?size&search_after
// with Authorization: Bearer; pagination.next names api-ssl.bitly.com.
func bitly(w http.ResponseWriter, r *http.Request, links []link, key string) {
	if r.Header.Get("Authorization") != "Bearer "+key {
		writeJSON(w, http.StatusForbidden, map[string]any{"message": "FORBIDDEN", "resource": "", "description": ""})
		return
	}
	const group = "Bg4kFz2a1"
	switch r.URL.Path {
	case "/v4/user":
		writeJSON(w, http.StatusOK, map[string]any{"login": "owner", "name": "Owner", "is_active": true, "default_group_guid": group})
	case "/v4/groups/" + group + "/bitlinks":
		size := min(intParam(r, "size", 50), 100)
		from := 0
		if after := r.URL.Query().Get("search_after"); after != "" {
			from, _ = strconv.Atoi(after)
		}
		out := []map[string]any{}
		win := window(links, from, size)
		for _, l := range win {
			out = append(out, map[string]any{"id": "short.example/" + l.code, "link": ShortHost + "/" + l.code, "long_url": l.dest,
				"title": l.title, "tags": l.tags, "archived": false, "created_at": l.created.Format("2006-01-02T15:04:05-0700"),
				"custom_bitlinks": []string{}, "deeplinks": []any{}})
		}
		next, after := "", ""
		if from+len(win) < len(links) {
			after = strconv.Itoa(from + len(win))
			next = "https://api-ssl.bitly.com/v4/groups/" + group + "/bitlinks?search_after=" + after + "&size=" + strconv.Itoa(size)
		}
		writeJSON(w, http.StatusOK, map[string]any{"links": out, "pagination": map[string]any{"prev": "", "next": next, "size": size,
			"page": 0, "total": len(links), "search_after": after}})
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "NOT_FOUND"})
	}
}
