package certs

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/certs/certstest"
	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

// freePort returns a loopback port free for TCP and UDP.
func freePort(t *testing.T) string {
	t.Helper()
	for range 20 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		pc, err := net.ListenPacket("udp", "127.0.0.1:"+port)
		ln.Close()
		if err == nil {
			pc.Close()
			return port
		}
	}
	t.Fatal("no free port")
	return ""
}

// start runs a test program until the test ends.
func start(t *testing.T, name string, env []string, args ...string) {
	t.Helper()
	var out syncBuffer
	cmd := exec.Command(testenv.Command(t, name), args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			t.Logf("%s:\n%s", name, out.String())
		}
	})
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestACMEWithPebble obtains certificates from Pebble, a real ACME CA,
// through its challenges against our listeners, for the base host, an
// active white-label client's domain and a workspace's verified domain;
// refuses any other name (an inactive client's, a pending workspace
// domain) without asking the CA; keeps them in the database, where a second instance
// finds them; and redirects plain HTTP to https.
func TestACMEWithPebble(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		dir := t.TempDir()
		certFile, keyFile, apiCA := certstest.SelfSigned(t, dir)
		dns, acmePort, mgmtPort, tlsPort, httpPort := freePort(t), freePort(t), freePort(t), freePort(t), freePort(t)
		start(t, "pebble-challtestsrv", nil, "-dns01", "127.0.0.1:"+dns, "-http01", "", "-https01", "", "-tlsalpn01", "",
			"-management", "127.0.0.1:"+freePort(t), "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "")
		pebbleConfig, _ := json.Marshal(map[string]any{"pebble": map[string]any{
			"listenAddress": "127.0.0.1:" + acmePort, "managementListenAddress": "127.0.0.1:" + mgmtPort,
			"certificate": certFile, "privateKey": keyFile, "httpPort": atoi(httpPort), "tlsPort": atoi(tlsPort),
		}})
		os.WriteFile(filepath.Join(dir, "pebble.json"), pebbleConfig, 0o600)
		start(t, "pebble", []string{"PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0"},
			"-config", filepath.Join(dir, "pebble.json"), "-dnsserver", "127.0.0.1:"+dns)
		caClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: apiCA}}, Timeout: 30 * time.Second}
		var roots []byte
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			resp, err := caClient.Get("https://127.0.0.1:" + mgmtPort + "/roots/0")
			if err == nil {
				roots, _ = io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("pebble did not start: %v", err)
			}
		}
		issued := x509.NewCertPool()
		if !issued.AppendCertsFromPEM(roots) {
			t.Fatalf("pebble's root: %s", roots)
		}

		now := time.Now()
		for _, c := range []*store.Client{{Name: "Brand", CustomDomain: "brand.test"}, {Name: "Off", CustomDomain: "off.test"}} {
			if err := st.CreateClient(ctx, c, now); err != nil {
				t.Fatal(err)
			}
			if c.Name == "Off" {
				c.IsActive = false
				if _, err := st.UpdateClient(ctx, c, now); err != nil {
					t.Fatal(err)
				}
			}
		}
		u := storetest.CreateUser(t, st, "owner@example.com")
		ws := storetest.Personal(t, st, u.ID)
		for _, d := range []*store.Domain{{Domain: "ws.test", Token: "t1"}, {Domain: "pending.test", Token: "t2"}} {
			if err := st.CreateDomain(ctx, ws, d, 10, now); err != nil {
				t.Fatal(err)
			}
			if d.Domain == "ws.test" {
				if _, err := st.RecordDomainCheck(ctx, ws, d.ID, "dns", "", now); err != nil {
					t.Fatal(err)
				}
			}
		}
		cfg := config.Config{TLS: "acme", BaseURL: "https://qr.test", ACMEDirectory: "https://127.0.0.1:" + acmePort + "/dir",
			ACMEEmail: "ops@example.com", TLSAddr: "127.0.0.1:" + tlsPort, TLSHTTPAddr: "127.0.0.1:" + httpPort}
		m := NewManager(cfg, st, Options{HTTPClient: caClient})
		tlsConfig, err := TLSConfig(cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		var serverLog syncBuffer
		app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello "+r.Host) })
		https := &http.Server{TLSConfig: tlsConfig, ErrorLog: log.New(&serverLog, "", 0), Handler: app}
		plain := &http.Server{Handler: HTTPHandler(tlsPort, m, app)}
		tlsLn, err := net.Listen("tcp", cfg.TLSAddr)
		if err != nil {
			t.Fatal(err)
		}
		httpLn, err := net.Listen("tcp", cfg.TLSHTTPAddr)
		if err != nil {
			t.Fatal(err)
		}
		go https.Serve(tls.NewListener(tlsLn, tlsConfig))
		go plain.Serve(httpLn)
		defer https.Close()
		defer plain.Close()

		get := func(host string) (string, error) {
			client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
				TLSClientConfig: &tls.Config{RootCAs: issued, ServerName: host},
				DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
					return (&net.Dialer{}).DialContext(ctx, network, cfg.TLSAddr)
				},
			}}
			resp, err := client.Get("https://" + host + "/")
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return string(b), nil
		}
		for _, host := range []string{"qr.test", "brand.test", "ws.test"} {
			if body, err := get(host); err != nil || body != "hello "+host {
				t.Fatalf("https://%s: %q, %v", host, body, err)
			}
			if _, err := st.CertCacheGet(ctx, host); err != nil {
				t.Errorf("%s's certificate is not in the database: %v", host, err)
			}
		}
		for _, host := range []string{"evil.test", "off.test", "pending.test"} {
			if body, err := get(host); err == nil {
				t.Errorf("https://%s answered %q", host, body)
			}
			if _, err := st.CertCacheGet(ctx, host); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: a certificate was stored: %v", host, err)
			}
		}
		// The server logs a refused handshake after the client has seen it
		// fail, so the last line may still be on its way.
		refusals := func() int { return strings.Count(serverLog.String(), "is not a host Squarely serves") }
		for deadline := time.Now().Add(5 * time.Second); refusals() < 3 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if n := refusals(); n != 3 {
			t.Errorf("refusals before any ACME request: %d\n%s", n, serverLog.String())
		}

		// Another instance finds the certificates in the database: its CA is unreachable.
		other := cfg
		other.ACMEDirectory = "https://127.0.0.1:1/dir"
		cert, err := NewManager(other, st, Options{}).GetCertificate(&tls.ClientHelloInfo{ServerName: "brand.test",
			CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}, SupportedCurves: []tls.CurveID{tls.CurveP256},
			SignatureSchemes: []tls.SignatureScheme{tls.ECDSAWithP256AndSHA256}, SupportedVersions: []uint16{tls.VersionTLS13, tls.VersionTLS12}})
		if err != nil || cert.Leaf == nil || cert.Leaf.DNSNames[0] != "brand.test" {
			t.Errorf("the second instance: %v, %v", cert, err)
		}

		// Plain HTTP goes to https, path and query kept.
		req, _ := http.NewRequest("GET", "http://"+cfg.TLSHTTPAddr+"/d/abc?x=1", nil)
		req.Host = "qr.test"
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || loc != "https://qr.test:"+tlsPort+"/d/abc?x=1" {
			t.Errorf("plain HTTP: %d to %q", resp.StatusCode, loc)
		}
		// but the pointing check of a domain that has no certificate yet
		// is answered by the app over plain HTTP.
		req, _ = http.NewRequest("GET", "http://"+cfg.TLSHTTPAddr+domains.ReachPath+"0123456789abcdef0123456789abcdef", nil)
		req.Host = "qr.shop.example"
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "hello qr.shop.example" {
			t.Errorf("pointing check over plain HTTP: %d %q", resp.StatusCode, body)
		}
	})
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
