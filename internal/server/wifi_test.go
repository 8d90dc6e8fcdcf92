package server

import (
	"context"
	"net/http"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// WiFi and plain-text codes (issue 10) go through the generator, the
// download and the saved codes, and scan as the exact text phones expect.
func TestWiFiAndTextCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		visitor := e.browser()
		for _, tc := range []struct {
			name   string
			fields map[string]any
			want   string
		}{
			{"wifi escaped", map[string]any{"qrType": "wifi", "ssid": `Café "Net"; 2,4:GHz\x`, "password": `p;a:s,s"\`, "encryption": "WPA", "hidden": "true"},
				`WIFI:T:WPA;S:Café \"Net\"\; 2\,4\:GHz\\x;P:p\;a\:s\,s\"\\;H:true;;`},
			{"wifi WEP", map[string]any{"qrType": "wifi", "ssid": "Shop", "password": "0123456789", "encryption": "WEP", "hidden": "false"},
				"WIFI:T:WEP;S:Shop;P:0123456789;;"},
			{"wifi open drops the password", map[string]any{"qrType": "wifi", "ssid": "Guests", "password": "left over", "encryption": "nopass"},
				"WIFI:T:nopass;S:Guests;;"},
			{"text", map[string]any{"qrType": "text", "text": "Table 12 · ask for Ana\nWi-Fi on the back"},
				"Table 12 · ask for Ana\nWi-Fi on the back"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.fields["sessionId"] = "anon-wifi"
				m := expect(t, e.do(visitor, "POST", "/api/generate-qrcode", body(t, tc.fields)), http.StatusOK, "")
				if m["data"] != tc.want {
					t.Fatalf("data %q, want %q", m["data"], tc.want)
				}
				svg, _ := m["qrCode"].(string)
				if got := dec.read([]byte(svg), "svg"); got != tc.want {
					t.Errorf("the preview decodes to %q, want %q", got, tc.want)
				}
				tc.fields["format"], tc.fields["generationId"] = "png", m["id"]
				r := e.do(visitor, "POST", "/api/download-qrcode", body(t, tc.fields))
				if r.StatusCode != http.StatusOK {
					t.Fatalf("download: %d %s", r.StatusCode, r.body)
				}
				if got := dec.read(r.body, "png"); got != tc.want {
					t.Errorf("the PNG decodes to %q, want %q", got, tc.want)
				}
			})
		}

		// A saved WiFi code keeps its fields and its image scans.
		member, uid := e.signedIn("wifi@example.com")
		const want = `WIFI:T:WPA;S:Home\;5G;P:s\:ecret;H:true;;`
		saved := expect(t, e.postForm(member, "/api/qrcodes", part{"qrType", "wifi", ""}, part{"ssid", "Home;5G", ""},
			part{"password", "s:ecret", ""}, part{"encryption", "WPA", ""}, part{"hidden", "true", ""}), http.StatusCreated, "")
		if saved["data"] != want || saved["qrType"] != "wifi" || saved["name"] != "WiFi 2026-03-01" {
			t.Errorf("saved %v", saved)
		}
		if qd, _ := saved["qrData"].(map[string]any); qd["ssid"] != "Home;5G" || qd["password"] != "s:ecret" {
			t.Errorf("qrData %v", saved["qrData"])
		}
		img := e.do(member, "GET", "/api/qrcodes/"+itoa(int64(saved["id"].(float64)))+"/image?format=png", "")
		if img.StatusCode != http.StatusOK {
			t.Fatalf("image: %d %s", img.StatusCode, img.body)
		}
		if got := dec.read(img.body, "png"); got != want {
			t.Errorf("the saved code decodes to %q, want %q", got, want)
		}

		// The server refuses what the form refuses, and saves nothing.
		bad := e.postForm(member, "/api/qrcodes", part{"qrType", "wifi", ""}, part{"ssid", "Home", ""})
		if m := expect(t, bad, http.StatusBadRequest, "Password is required"); m["errors"].(map[string]any)["password"] != "Password is required" {
			t.Errorf("errors %v", m["errors"])
		}
		if codes, err := st.QRCodes(context.Background(), uid); err != nil || len(codes) != 1 {
			t.Errorf("%d codes saved (%v), want 1", len(codes), err)
		}
	})
}
