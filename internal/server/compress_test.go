package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/server/respond"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// raw sends a request without the client's transparent gzip, so the test
// sees the answer as sent; header pairs follow the path.
func (e *env) raw(c *http.Client, path string, header ...string) *response {
	e.t.Helper()
	tr := e.srv.Client().Transport.(*http.Transport).Clone()
	tr.DisableCompression = true
	plain := &http.Client{Transport: tr, Jar: c.Jar, CheckRedirect: c.CheckRedirect}
	return e.do(plain, "GET", path, "", header...)
}

// JSON answers of 1 KB or more go out gzipped to clients that accept it,
// with Vary: Accept-Encoding; small ones and streamed files are untouched.
func TestJSONCompressed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("big@example.com")
		var id string
		for i := range 6 {
			q := expect(t, e.postForm(c, "/api/qrcodes", part{"qrType", "url", ""}, part{"url", fmt.Sprintf("https://example.com/%d", i), ""}), http.StatusCreated, "")
			id = idOf(q)
		}
		key, _ := e.newKey(c, "k")

		plain := e.raw(c, "/api/qrcodes")
		if plain.StatusCode != http.StatusOK || plain.Header.Get("Content-Encoding") != "" || len(plain.body) < respond.CompressedMin {
			t.Fatalf("identity: %d %q, %d bytes", plain.StatusCode, plain.Header.Get("Content-Encoding"), len(plain.body))
		}
		if !strings.Contains(plain.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("identity answer without Vary: %q", plain.Header.Get("Vary"))
		}
		for _, tc := range []struct {
			path   string
			header []string
		}{
			{"/api/qrcodes", []string{"Accept-Encoding", "br, gzip;q=0.8"}},
			{"/api/v1/codes", []string{"Accept-Encoding", "gzip", "Authorization", "Bearer " + key}},
		} {
			r := e.raw(c, tc.path, tc.header...)
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
				t.Fatalf("%s: %d, Content-Encoding %q, Vary %q", tc.path, r.StatusCode, r.Header.Get("Content-Encoding"), r.Header.Get("Vary"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil || !json.Valid(body) {
				t.Fatalf("%s: gunzipped body %q: %v", tc.path, body, err)
			}
			if tc.path == "/api/qrcodes" && !bytes.Equal(body, plain.body) {
				t.Errorf("the gzipped answer differs from the identity one")
			}
			if len(r.body) >= len(body) {
				t.Errorf("%s: %d bytes gzipped for %d", tc.path, len(r.body), len(body))
			}
		}
		// gzip refused, small answers, and streamed files stay as they are.
		for _, tc := range []struct {
			path, accept string
		}{
			{"/api/qrcodes", "gzip;q=0, identity"},
			{"/api/user", "gzip"},
			{"/api/qrcodes/" + id + "/image?format=svg", "gzip"},
			{"/api/qrcodes/" + id + "/image?format=png&download=1", "gzip"},
		} {
			r := e.raw(c, tc.path, "Accept-Encoding", tc.accept)
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "" {
				t.Errorf("%s (Accept-Encoding %s): %d, Content-Encoding %q", tc.path, tc.accept, r.StatusCode, r.Header.Get("Content-Encoding"))
			}
		}
		if v := e.raw(c, "/api/user", "Accept-Encoding", "gzip").Header.Get("Vary"); strings.Contains(v, "Accept-Encoding") {
			t.Errorf("a small answer varies by encoding: %q", v)
		}
	})
}
