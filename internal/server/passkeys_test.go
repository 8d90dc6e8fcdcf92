package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// softKey is a software passkey: an ES256 key pair that answers WebAuthn
// ceremonies the way a platform authenticator does, with "none"
// attestation. origin and rpID are what its browser would report.
type softKey struct {
	t          *testing.T
	key        *ecdsa.PrivateKey
	id         []byte
	handle     []byte // the user handle given at registration
	count      uint32
	origin     string
	rpID       string
	clientType string // overrides the clientDataJSON type when set
}

func newSoftKey(t *testing.T, origin, rpID string) *softKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{t: t, key: key, id: id, origin: origin, rpID: rpID}
}

var b64 = base64.RawURLEncoding

// clientData is the clientDataJSON for a ceremony of typ over challenge.
func (k *softKey) clientData(typ, challenge string) []byte {
	if k.clientType != "" {
		typ = k.clientType
	}
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.origin, "crossOrigin": false})
	return b
}

// authData is the authenticator data: RP id hash, flags (user present and
// verified, plus attested data), sign count and, at registration, the
// credential id and COSE public key.
func (k *softKey) authData(attested bool) []byte {
	rpHash := sha256.Sum256([]byte(k.rpID))
	flags := byte(0x01 | 0x04) // UP, UV
	if attested {
		flags |= 0x40
	}
	out := append(rpHash[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	if attested {
		out = append(out, make([]byte, 16)...) // AAGUID
		out = binary.BigEndian.AppendUint16(out, uint16(len(k.id)))
		out = append(out, k.id...)
		pub, _ := k.key.PublicKey.ECDH()
		raw := pub.Bytes() // 0x04 || X || Y
		cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: raw[1:33], -3: raw[33:]})
		if err != nil {
			k.t.Fatal(err)
		}
		out = append(out, cose...)
	}
	return out
}

// create answers registration options (the begin call's JSON) with an
// attestation, as navigator.credentials.create would.
func (k *softKey) create(options map[string]any) string {
	pk := options["publicKey"].(map[string]any)
	handle, err := b64.DecodeString(pk["user"].(map[string]any)["id"].(string))
	if err != nil {
		k.t.Fatal(err)
	}
	k.handle = handle
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(true)})
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(k.clientData("webauthn.create", pk["challenge"].(string))),
			"attestationObject": b64.EncodeToString(att),
		},
	})
	return string(b)
}

// get answers sign-in options with an assertion signed by the key, as
// navigator.credentials.get would.
func (k *softKey) get(options map[string]any) string {
	pk := options["publicKey"].(map[string]any)
	k.count++
	auth := k.authData(false)
	cd := k.clientData("webauthn.get", pk["challenge"].(string))
	cdHash := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, auth...), cdHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(auth),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(k.handle),
		},
	})
	return string(b)
}

const passkeyOrigin = "http://localhost:8080" // testConfig's base URL

// registerPasskey adds k to the signed-in browser c as name.
func (e *env) registerPasskey(c *http.Client, k *softKey, name string) *response {
	e.t.Helper()
	opts := expect(e.t, e.do(c, "POST", "/api/webauthn/register/begin", `{"name":"`+name+`"}`), http.StatusOK, "")
	return e.do(c, "POST", "/api/webauthn/register/finish", k.create(opts))
}

// passkeyLogin signs in with k in browser c (a pending sign-in's second
// step when c has one).
func (e *env) passkeyLogin(c *http.Client, k *softKey) *response {
	e.t.Helper()
	opts := expect(e.t, e.do(c, "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
	return e.do(c, "POST", "/api/webauthn/login/finish", k.get(opts))
}

func TestPasskeys(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.verifiedUser("pat@example.com", "secret1")
		me := expect(t, e.do(c, "GET", "/api/user", ""), http.StatusOK, "")

		unverified := e.browser()
		e.register(unverified, "unproven@example.com", "secret1")
		expect(t, e.do(unverified, "POST", "/api/webauthn/register/begin", `{}`), http.StatusForbidden, msgVerifyBeforeKey)
		expect(t, e.do(e.browser(), "POST", "/api/webauthn/register/begin", `{}`), http.StatusUnauthorized, "")

		// Several passkeys per account.
		laptop, phone := newSoftKey(t, passkeyOrigin, "localhost"), newSoftKey(t, passkeyOrigin, "localhost")
		p1 := expect(t, e.registerPasskey(c, laptop, "Laptop"), http.StatusCreated, "")
		expect(t, e.registerPasskey(c, phone, ""), http.StatusCreated, "")
		if p1["name"] != "Laptop" || p1["rpId"] != "localhost" {
			t.Errorf("registered %v", p1)
		}
		r := e.do(c, "GET", "/api/webauthn/credentials", "")
		var list []map[string]any
		json.Unmarshal(r.body, &list)
		if len(list) != 2 || list[1]["name"] != "Passkey" {
			t.Fatalf("passkeys %s", r.body)
		}
		// The same authenticator twice is refused (excluded, and unique).
		expect(t, e.registerPasskey(c, laptop, "Again"), http.StatusConflict, "")

		t.Run("refusals at registration", func(t *testing.T) {
			getType := newSoftKey(t, passkeyOrigin, "localhost")
			getType.clientType = "webauthn.get"
			for name, k := range map[string]*softKey{
				"wrong origin": newSoftKey(t, "http://evil.example", "localhost"),
				"wrong RP id":  newSoftKey(t, passkeyOrigin, "evil.example"),
				"wrong type":   getType,
			} {
				expect(t, e.registerPasskey(c, k, name), http.StatusBadRequest, msgPasskeyRefused)
			}
			expect(t, e.do(c, "POST", "/api/webauthn/register/finish", `{}`), http.StatusBadRequest, msgCeremonyGone)
			expect(t, e.do(c, "POST", "/api/webauthn/register/begin", `{}`), http.StatusOK, "")
			expect(t, e.do(c, "POST", "/api/webauthn/register/finish", `{"id":"`+strings.Repeat("a", 70<<10)+`"}`), http.StatusRequestEntityTooLarge, "")
			expect(t, e.do(c, "POST", "/api/webauthn/register/begin", `{"name":5}`), http.StatusBadRequest, "")
			opts := expect(t, e.do(c, "POST", "/api/webauthn/register/begin", `{"name":"x"}`), http.StatusOK, "")
			expect(t, e.do(c, "POST", "/api/webauthn/register/finish", `{"id":`), http.StatusBadRequest, msgPasskeyRefused)
			// The ceremony was used up by the malformed answer.
			expect(t, e.do(c, "POST", "/api/webauthn/register/finish", newSoftKey(t, passkeyOrigin, "localhost").create(opts)), http.StatusBadRequest, msgCeremonyGone)
			expect(t, e.do(c, "POST", "/api/webauthn/register/begin", `{"name":"`+strings.Repeat("é", 65)+`"}`), http.StatusBadRequest, "Name must be at most 64 characters")
			expect(t, e.do(c, "POST", "/api/webauthn/register/begin", `{"name":"a\u202eb"}`), http.StatusBadRequest, "Name must not contain control or formatting characters")
		})

		t.Run("sign in without a password", func(t *testing.T) {
			b := e.browser()
			u := expect(t, e.passkeyLogin(b, laptop), http.StatusOK, "")
			if u["id"] != me["id"] {
				t.Fatalf("signed in as %v", u)
			}
			expect(t, e.do(b, "GET", "/api/user", ""), http.StatusOK, "")
			var keys []map[string]any
			json.Unmarshal(e.do(c, "GET", "/api/webauthn/credentials", "").body, &keys)
			if keys[0]["lastUsedAt"] == nil || keys[1]["lastUsedAt"] != nil {
				t.Errorf("lastUsedAt not recorded for the key used only: %v", keys)
			}
		})

		t.Run("refusals at sign-in", func(t *testing.T) {
			// Another origin or RP id, a replayed answer, a cloned key.
			for _, forged := range []struct{ origin, rpID string }{{"http://evil.example", "localhost"}, {passkeyOrigin, "evil.example"}} {
				k := *phone
				k.origin, k.rpID = forged.origin, forged.rpID
				b := e.browser()
				expect(t, e.passkeyLogin(b, &k), http.StatusUnauthorized, msgPasskeyRefused)
				expect(t, e.do(b, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			}
			b := e.browser()
			opts := expect(t, e.do(b, "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
			answer := phone.get(opts)
			expect(t, e.do(b, "POST", "/api/webauthn/login/finish", answer), http.StatusOK, "")
			// The ceremony is used up: the same answer again, in any browser, is refused.
			expect(t, e.do(e.browser(), "POST", "/api/webauthn/login/finish", answer), http.StatusBadRequest, msgCeremonyGone)
			clone := *phone
			clone.count = 0 // a copy of the key that has not seen the last sign-ins
			expect(t, e.passkeyLogin(e.browser(), &clone), http.StatusUnauthorized, msgPasskeyRefused)
			// An unknown key.
			expect(t, e.passkeyLogin(e.browser(), newSoftKey(t, passkeyOrigin, "localhost")), http.StatusUnauthorized, msgPasskeyRefused)
		})

		t.Run("second factor", func(t *testing.T) {
			e.enableTOTP(c)
			b := e.browser()
			m := expect(t, e.do(b, "POST", "/api/login", loginBody("pat@example.com", "secret1")), http.StatusOK, "")
			if fmt.Sprint(m["methods"]) != "[totp webauthn recovery]" {
				t.Fatalf("methods %v", m)
			}
			// Someone else's passkey cannot finish pat's pending sign-in.
			other := e.verifiedUser("oz@example.com", "secret1")
			ozKey := newSoftKey(t, passkeyOrigin, "localhost")
			expect(t, e.registerPasskey(other, ozKey, "Oz"), http.StatusCreated, "")
			expect(t, e.passkeyLogin(b, ozKey), http.StatusUnauthorized, msgPasskeyRefused)
			expect(t, e.do(b, "GET", "/api/user", ""), http.StatusUnauthorized, "")
			u := expect(t, e.passkeyLogin(b, laptop), http.StatusOK, "")
			if u["id"] != me["id"] {
				t.Fatalf("signed in as %v", u)
			}
			expect(t, e.do(b, "GET", "/api/login/2fa", ""), http.StatusUnauthorized, msgPendingGone)
		})

		t.Run("delete", func(t *testing.T) {
			other := e.verifiedUser("del@example.com", "secret1")
			id := fmt.Sprint(p1["id"])
			expect(t, e.do(other, "DELETE", "/api/webauthn/credentials/"+id, ""), http.StatusNotFound, msgPasskeyNotFound)
			for _, bad := range []string{"abc", "-1", "0", "1.5", "9223372036854775808", "%00"} {
				expect(t, e.do(c, "DELETE", "/api/webauthn/credentials/"+bad, ""), http.StatusNotFound, msgPasskeyNotFound)
			}
			expect(t, e.do(c, "DELETE", "/api/webauthn/credentials/"+id, ""), http.StatusOK, "Passkey removed")
			expect(t, e.do(c, "DELETE", "/api/webauthn/credentials/"+id, ""), http.StatusNotFound, msgPasskeyNotFound)
			expect(t, e.passkeyLogin(e.browser(), laptop), http.StatusUnauthorized, msgPasskeyRefused)
		})
	})
}

// TestPasskeysWhiteLabelDomain checks that a client served on its own
// domain is its own relying party.
func TestPasskeysWhiteLabelDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.BaseURL = "http://squarely.test" }))
		if err := st.CreateClient(t.Context(), &store.Client{Name: "Acme", CustomDomain: "qr.acme.test"}, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
		c := e.verifiedUser("wl@example.com", "secret1")
		// Cookies are per host: sign in on the client's domain.
		expect(t, e.onHost(c, "qr.acme.test", "POST", "/api/login", loginBody("wl@example.com", "secret1")), http.StatusOK, "")
		opts := expect(t, e.onHost(c, "qr.acme.test", "POST", "/api/webauthn/register/begin", `{}`), http.StatusOK, "")
		if rp := opts["publicKey"].(map[string]any)["rp"].(map[string]any); rp["id"] != "qr.acme.test" || rp["name"] != "Acme" {
			t.Fatalf("rp %v on the client's domain", rp)
		}
		k := newSoftKey(t, "http://qr.acme.test", "qr.acme.test")
		expect(t, e.onHost(c, "qr.acme.test", "POST", "/api/webauthn/register/finish", k.create(opts)), http.StatusCreated, "")
		// Its passkey works on its domain, not on the main site.
		b := e.browser()
		o := expect(t, e.onHost(b, "qr.acme.test", "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
		expect(t, e.onHost(b, "qr.acme.test", "POST", "/api/webauthn/login/finish", k.get(o)), http.StatusOK, "")
		o = expect(t, e.onHost(b, "squarely.test", "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
		if o["publicKey"].(map[string]any)["rpId"] != "squarely.test" {
			t.Errorf("main site options %v", o)
		}
		expect(t, e.onHost(b, "squarely.test", "POST", "/api/webauthn/login/finish", k.get(o)), http.StatusUnauthorized, msgPasskeyRefused)
	})
}

// TestPasskeysLoopbackSite checks that a site on a loopback IP address
// (which browsers refuse as a relying party id) takes passkeys at localhost.
func TestPasskeysLoopbackSite(t *testing.T) {
	e := start(t, storetest.Open(t), withConfig(func(c *config.Config) { c.BaseURL = "http://127.0.0.1:8080" }))
	c := e.verifiedUser("lo@example.com", "secret1")
	expect(t, e.onHost(c, "localhost:8080", "POST", "/api/login", loginBody("lo@example.com", "secret1")), http.StatusOK, "")
	opts := expect(t, e.onHost(c, "localhost:8080", "POST", "/api/webauthn/register/begin", `{}`), http.StatusOK, "")
	k := newSoftKey(t, "http://localhost:8080", "localhost")
	expect(t, e.onHost(c, "localhost:8080", "POST", "/api/webauthn/register/finish", k.create(opts)), http.StatusCreated, "")
	b := e.browser()
	o := expect(t, e.onHost(b, "localhost:8080", "POST", "/api/webauthn/login/begin", `{}`), http.StatusOK, "")
	expect(t, e.onHost(b, "localhost:8080", "POST", "/api/webauthn/login/finish", k.get(o)), http.StatusOK, "")
	// On the IP address itself passkeys cannot work, and say so.
	expect(t, e.do(b, "POST", "/api/webauthn/login/begin", `{}`), http.StatusServiceUnavailable, "Passkeys need the site's domain name: they do not work on an IP address")
}
