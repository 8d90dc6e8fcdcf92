// Package saml is Squarely's SAML 2.0 service provider, one per team
// workspace (issue 33 item 3): its key pair and metadata, the IdP metadata
// it accepts, the checks on a response beyond crewjam/saml's own, and who
// an assertion says the user is. The HTTP side (login, ACS, sessions) is
// internal/server/sso.go.
package saml

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/beevik/etree"
	crew "github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/squarely/squarely/internal/store"
)

// MaxMetadata bounds an IdP's metadata, uploaded or fetched: real ones
// are tens of kilobytes, and an upload must fit in a JSON body (1 MB).
const MaxMetadata = 512 << 10

// MaxResponse bounds a posted SAMLResponse (base64).
const MaxResponse = 512 << 10

// RequestLifetime is how long an AuthnRequest may be answered.
const RequestLifetime = 10 * time.Minute

// NewKeyPair makes a service provider's key and a self-signed certificate
// for it, valid for ten years from now, both PEM. The key is ECDSA P-256:
// metadata with it offers no key to encrypt to, so IdPs send assertions
// in the clear (inside TLS), where the ACS can see that each is signed.
func NewKeyPair(commonName string, now time.Time) (keyPEM, certPEM string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: commonName},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", err
	}
	der2, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	keyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der2}))
	certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	return keyPEM, certPEM, nil
}

// ParseMetadata reads an IdP's metadata and checks that a service provider
// can use it: an IDPSSODescriptor with a signing certificate and a
// single sign-on endpoint for the HTTP-Redirect binding. The error says
// what is missing, for the owner who uploaded it.
func ParseMetadata(raw []byte) (*crew.EntityDescriptor, error) {
	if len(raw) > MaxMetadata {
		return nil, errors.New("the metadata is larger than 512 KB")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("the metadata is empty")
	}
	md, err := samlsp.ParseMetadata(raw)
	if err != nil {
		return nil, errors.New("the metadata is not a SAML EntityDescriptor")
	}
	if len(md.IDPSSODescriptors) == 0 {
		return nil, errors.New("the metadata has no IDPSSODescriptor: is it an identity provider's?")
	}
	if md.EntityID == "" {
		return nil, errors.New("the metadata has no entityID")
	}
	var signing, redirect bool
	for _, d := range md.IDPSSODescriptors {
		for _, k := range d.KeyDescriptors {
			if (k.Use == "" || k.Use == "signing") && len(k.KeyInfo.X509Data.X509Certificates) > 0 {
				signing = true
			}
		}
		for _, e := range d.SingleSignOnServices {
			if e.Binding == crew.HTTPRedirectBinding && e.Location != "" {
				redirect = true
			}
		}
	}
	if !signing {
		return nil, errors.New("the metadata has no signing certificate")
	}
	if !redirect {
		return nil, errors.New("the metadata has no SingleSignOnService for the HTTP-Redirect binding")
	}
	return md, nil
}

// FetchMetadata reads an IdP's metadata from its URL with client (which
// keeps to the webhook address rules), refusing more than MaxMetadata.
func FetchMetadata(ctx context.Context, client *http.Client, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, errors.New("the metadata URL is not a URL")
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the metadata could not be fetched: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the metadata URL answered %d", res.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxMetadata+1))
	if err != nil {
		return nil, fmt.Errorf("the metadata could not be read: %w", err)
	}
	if len(body) > MaxMetadata {
		return nil, errors.New("the metadata is larger than 512 KB")
	}
	return body, nil
}

// URLs are a workspace's service provider addresses under the base URL.
type URLs struct{ Metadata, ACS, Login url.URL }

// WorkspaceURLs returns workspace id's addresses under baseURL.
func WorkspaceURLs(baseURL string, workspaceID int64) (URLs, error) {
	base, err := url.Parse(strings.TrimSuffix(baseURL, "/"))
	if err != nil {
		return URLs{}, err
	}
	at := func(leaf string) url.URL {
		u := *base
		u.Path = base.Path + "/auth/saml/" + strconv.FormatInt(workspaceID, 10) + "/" + leaf
		return u
	}
	return URLs{Metadata: at("metadata"), ACS: at("acs"), Login: at("login")}, nil
}

// ServiceProvider is the workspace's service provider for c: its entity ID
// is its metadata URL; replays is where accepted assertions are recorded;
// it checks times against now (one request's service provider).
func ServiceProvider(baseURL string, c *store.SSO, replays crew.AssertionReplayCache, now time.Time) (*crew.ServiceProvider, error) {
	urls, err := WorkspaceURLs(baseURL, c.WorkspaceID)
	if err != nil {
		return nil, err
	}
	keyBlock, _ := pem.Decode([]byte(c.SPKeyPEM))
	certBlock, _ := pem.Decode([]byte(c.SPCertPEM))
	if keyBlock == nil || certBlock == nil {
		return nil, errors.New("saml: the service provider's key pair is not PEM")
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("saml: the service provider's key: %w", err)
	}
	cert, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("saml: the service provider's certificate: %w", err)
	}
	md, err := ParseMetadata([]byte(c.IdPMetadataXML))
	if err != nil {
		return nil, fmt.Errorf("saml: the IdP's metadata: %w", err)
	}
	return &crew.ServiceProvider{
		EntityID:                         urls.Metadata.String(),
		Key:                              key,
		Certificate:                      cert,
		MetadataURL:                      urls.Metadata,
		AcsURL:                           urls.ACS,
		IDPMetadata:                      md,
		AllowIDPInitiated:                c.AllowIdPInitiated,
		ReplayCache:                      replays,
		Clock:                            dsig.NewFakeClockAt(now),
		AuthnNameIDFormat:                crew.EmailAddressNameIDFormat,
		AssertionConsumerServiceBindings: []string{crew.HTTPPostBinding},
		// The Web Browser SSO profile's bearer assertions, always signed
		// (CheckSigned), never encrypted to a key we would have to rotate.
		MetadataValidDuration: 7 * 24 * time.Hour,
	}, nil
}

// ResponseFacts are what a posted SAMLResponse says before it is trusted:
// the request it answers ("" when IdP-initiated), and whether its one
// assertion carries a signature of its own.
type ResponseFacts struct {
	InResponseTo    string
	AssertionSigned bool
}

// Inspect reads facts from a posted SAMLResponse (base64). It trusts
// nothing: the facts only choose which request to check the response
// against and refuse what crewjam would accept with less.
func Inspect(encoded string) (ResponseFacts, error) {
	if len(encoded) > MaxResponse {
		return ResponseFacts{}, errors.New("the SAMLResponse is too large")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
	if err != nil {
		return ResponseFacts{}, errors.New("the SAMLResponse is not base64")
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(raw); err != nil {
		return ResponseFacts{}, errors.New("the SAMLResponse is not XML")
	}
	root := doc.Root()
	if root == nil {
		return ResponseFacts{}, errors.New("the SAMLResponse is not XML")
	}
	if root.Tag != "Response" {
		return ResponseFacts{}, errors.New("the SAMLResponse is not a Response")
	}
	facts := ResponseFacts{InResponseTo: root.SelectAttrValue("InResponseTo", "")}
	assertions := root.SelectElements("Assertion")
	if len(assertions) != 1 {
		return facts, fmt.Errorf("the Response holds %d assertions, not one", len(assertions))
	}
	facts.AssertionSigned = assertions[0].SelectElement("Signature") != nil
	return facts, nil
}

// Identity is who an assertion says the user is.
type Identity struct {
	Subject               string // the NameID
	Email                 string
	GivenName, FamilyName string
	Groups                []string
}

// Attribute names IdPs use, by what they carry (Okta, Entra ID, ADFS,
// Keycloak, Google Workspace).
var (
	emailAttributes = []string{"email", "mail", "emailaddress", "Email", "urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
	givenAttributes = []string{"firstName", "givenName", "given_name", "urn:oid:2.5.4.42",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"}
	familyAttributes = []string{"lastName", "surname", "sn", "family_name", "urn:oid:2.5.4.4",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"}
	groupAttributes = []string{"groups", "memberOf", "Group", "urn:oid:1.3.6.1.4.1.5923.1.5.1.1",
		"http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"}
)

// IdentityOf reads the user from a validated assertion. The e-mail is the
// email attribute, else the NameID when it is one.
func IdentityOf(a *crew.Assertion) (Identity, error) {
	var id Identity
	if a.Subject != nil && a.Subject.NameID != nil {
		id.Subject = strings.TrimSpace(a.Subject.NameID.Value)
	}
	if id.Subject == "" {
		return id, errors.New("the assertion names no subject")
	}
	values := func(names []string) []string {
		var out []string
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				if slices.Contains(names, at.Name) || slices.Contains(names, at.FriendlyName) {
					for _, v := range at.Values {
						if s := strings.TrimSpace(v.Value); s != "" {
							out = append(out, s)
						}
					}
				}
			}
		}
		return out
	}
	first := func(names []string) string {
		if v := values(names); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	id.Email = strings.ToLower(first(emailAttributes))
	if id.Email == "" && strings.Contains(id.Subject, "@") {
		id.Email = strings.ToLower(id.Subject)
	}
	if id.Email == "" {
		return id, errors.New("the assertion has no e-mail address")
	}
	id.GivenName, id.FamilyName = first(givenAttributes), first(familyAttributes)
	id.Groups = values(groupAttributes)
	return id, nil
}

// MapRole is the role groups map to: the strongest mapped one, else def.
func MapRole(groups []string, mapping map[string]string, def string) string {
	rank := map[string]int{store.RoleViewer: 1, store.RoleEditor: 2, store.RoleAdmin: 3}
	role := def
	for _, g := range groups {
		if r, ok := mapping[g]; ok && rank[r] > rank[role] {
			role = r
		}
	}
	return role
}
