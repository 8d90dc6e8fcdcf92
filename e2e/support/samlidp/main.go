// Command samlidp is the browser tests' SAML identity provider:
// crewjam/saml's own IdentityProvider, signing with a key made at start,
// with a one-page sign-in form (e-mail and groups) instead of passwords.
// It prints its base URL on the first line of its output and serves
// /metadata and /sso until killed. e2e/tests/sso.spec.ts runs it.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"flag"
	"fmt"
	"html/template"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "where to listen")
	flag.Parse()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		log.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Browser-test IdP"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0), KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		log.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base, _ := url.Parse("http://" + ln.Addr().String())
	idp := &saml.IdentityProvider{
		Key: key, Certificate: cert,
		MetadataURL:             *base.JoinPath("metadata"),
		SSOURL:                  *base.JoinPath("sso"),
		ServiceProviderProvider: serviceProviders{},
		SessionProvider:         signInForm{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/metadata", idp.ServeMetadata)
	mux.HandleFunc("/sso", idp.ServeSSO)
	fmt.Println(base.String())
	log.Fatal(http.Serve(ln, mux))
}

// serviceProviders reads a service provider's metadata from its entity ID,
// which is its metadata URL (Squarely's are).
type serviceProviders struct{}

func (serviceProviders) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	res, err := http.Get(id)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	return samlsp.ParseMetadata(body)
}

var form = template.Must(template.New("form").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head>
<body><main><h1>Test IdP</h1>
<form method="get" action="/sso">
<input type="hidden" name="SAMLRequest" value="{{.Request}}"><input type="hidden" name="RelayState" value="{{.Relay}}">
<label>E-mail <input name="email" type="email" required></label>
<label>Groups <input name="groups" placeholder="comma-separated"></label>
<button type="submit">Sign in to the IdP</button>
</form></main></body></html>`))

// signInForm asks who is signing in, then asserts them with their groups
// as a "groups" attribute (as Okta sends them).
type signInForm struct{}

func (signInForm) GetSession(w http.ResponseWriter, r *http.Request, _ *saml.IdpAuthnRequest) *saml.Session {
	q := r.URL.Query()
	email := strings.TrimSpace(q.Get("email"))
	if email == "" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		form.Execute(w, map[string]string{"Request": q.Get("SAMLRequest"), "Relay": q.Get("RelayState")})
		return nil
	}
	var groups []saml.AttributeValue
	for _, g := range strings.Split(q.Get("groups"), ",") {
		if g = strings.TrimSpace(g); g != "" {
			groups = append(groups, saml.AttributeValue{Type: "xs:string", Value: g})
		}
	}
	now := time.Now()
	return &saml.Session{
		ID: email + now.String(), CreateTime: now, ExpireTime: now.Add(time.Hour), Index: "1",
		NameID: email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email,
		CustomAttributes: []saml.Attribute{{Name: "groups", NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic", Values: groups}},
	}
}
