package saml

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	crew "github.com/crewjam/saml"

	"github.com/squarely/squarely/internal/store"
)

// idpMetadata is an IdP's metadata in the shape Okta publishes, with parts
// left out by the test.
func idpMetadata(signing, redirect bool) string {
	_, cert, err := NewKeyPair("idp", time.Now())
	if err != nil {
		panic(err)
	}
	der := strings.Join(strings.Split(strings.TrimSpace(cert), "\n")[1:len(strings.Split(strings.TrimSpace(cert), "\n"))-1], "")
	var b strings.Builder
	b.WriteString(`<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">`)
	if signing {
		b.WriteString(`<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>` + der + `</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
	}
	b.WriteString(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://acme.okta.com/app/sso/saml"/>`)
	if redirect {
		b.WriteString(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://acme.okta.com/app/sso/saml"/>`)
	}
	b.WriteString(`</md:IDPSSODescriptor></md:EntityDescriptor>`)
	return b.String()
}

func TestParseMetadata(t *testing.T) {
	if md, err := ParseMetadata([]byte(idpMetadata(true, true))); err != nil || md.EntityID != "http://www.okta.com/exk1" {
		t.Fatalf("good metadata: %v %v", md, err)
	}
	for _, tc := range []struct{ name, xml, want string }{
		{"empty", "  ", "the metadata is empty"},
		{"too large", strings.Repeat("x", MaxMetadata+1), "larger than 512 KB"},
		{"not XML", "hello", "not a SAML EntityDescriptor"},
		{"a service provider's", `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`, "no IDPSSODescriptor"},
		{"no signing certificate", idpMetadata(false, true), "no signing certificate"},
		{"no redirect binding", idpMetadata(true, false), "HTTP-Redirect"},
		{"entity expansion", `<!DOCTYPE x [<!ENTITY a "aaaa">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&a;"/>`, "not a SAML EntityDescriptor"},
	} {
		if _, err := ParseMetadata([]byte(tc.xml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestInspect(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	const ns = `xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"`
	f, err := Inspect(enc(`<samlp:Response ` + ns + ` InResponseTo="id-1"><saml:Assertion><ds:Signature/></saml:Assertion></samlp:Response>`))
	if err != nil || f.InResponseTo != "id-1" || !f.AssertionSigned {
		t.Errorf("signed: %+v %v", f, err)
	}
	f, err = Inspect(enc(`<samlp:Response ` + ns + `><ds:Signature/><saml:Assertion/></samlp:Response>`))
	if err != nil || f.InResponseTo != "" || f.AssertionSigned {
		t.Errorf("only the response signed: %+v %v", f, err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"not base64", "%%%", "not base64"},
		{"not XML", enc("hello"), "not XML"},
		{"not a Response", enc(`<samlp:AuthnRequest ` + ns + `/>`), "not a Response"},
		{"two assertions", enc(`<samlp:Response ` + ns + `><saml:Assertion/><saml:Assertion/></samlp:Response>`), "2 assertions"},
		{"encrypted", enc(`<samlp:Response ` + ns + `><saml:EncryptedAssertion/></samlp:Response>`), "0 assertions"},
		{"too large", strings.Repeat("A", MaxResponse+1), "too large"},
	} {
		if _, err := Inspect(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestIdentityOf(t *testing.T) {
	attr := func(name string, values ...string) crew.Attribute {
		a := crew.Attribute{Name: name}
		for _, v := range values {
			a.Values = append(a.Values, crew.AttributeValue{Value: v})
		}
		return a
	}
	// Entra ID's claim names; the NameID is an opaque id.
	entra := &crew.Assertion{Subject: &crew.Subject{NameID: &crew.NameID{Value: "kX9-opaque"}}, AttributeStatements: []crew.AttributeStatement{{Attributes: []crew.Attribute{
		attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "Ana@Contoso.com"),
		attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "Ana"),
		attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "Silva"),
		attr("http://schemas.microsoft.com/ws/2008/06/identity/claims/groups", "g-1", "g-2"),
	}}}}
	id, err := IdentityOf(entra)
	if err != nil || id.Subject != "kX9-opaque" || id.Email != "ana@contoso.com" || id.GivenName != "Ana" || id.FamilyName != "Silva" || len(id.Groups) != 2 {
		t.Errorf("Entra: %+v %v", id, err)
	}
	// An e-mail NameID and nothing else.
	id, err = IdentityOf(&crew.Assertion{Subject: &crew.Subject{NameID: &crew.NameID{Value: "bo@acme.test"}}})
	if err != nil || id.Email != "bo@acme.test" {
		t.Errorf("NameID e-mail: %+v %v", id, err)
	}
	if _, err := IdentityOf(&crew.Assertion{Subject: &crew.Subject{NameID: &crew.NameID{Value: "opaque"}}}); err == nil {
		t.Error("an assertion without an e-mail was accepted")
	}
	if _, err := IdentityOf(&crew.Assertion{}); err == nil {
		t.Error("an assertion without a subject was accepted")
	}
}

func TestMapRole(t *testing.T) {
	m := map[string]string{"qr-admins": store.RoleAdmin, "qr-editors": store.RoleEditor}
	for _, tc := range []struct {
		groups []string
		want   string
	}{
		{nil, store.RoleViewer},
		{[]string{"everyone"}, store.RoleViewer},
		{[]string{"qr-editors"}, store.RoleEditor},
		{[]string{"qr-editors", "qr-admins", "everyone"}, store.RoleAdmin},
		{[]string{"QR-ADMINS"}, store.RoleViewer}, // group names are exact
	} {
		if got := MapRole(tc.groups, m, store.RoleViewer); got != tc.want {
			t.Errorf("MapRole(%v) = %q, want %q", tc.groups, got, tc.want)
		}
	}
	if got := MapRole([]string{"qr-editors"}, m, store.RoleAdmin); got != store.RoleAdmin {
		t.Errorf("a default stronger than the mapping gave %q", got)
	}
}
