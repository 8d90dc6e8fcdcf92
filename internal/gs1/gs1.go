// Package gs1 implements GS1 Digital Link (issue 38): GTIN check digits,
// the Application Identifiers a Squarely code may carry, canonical Digital
// Link URIs and their parsing, the print rules GS1 sets for QR codes on
// consumer units, and the resolver's choice of link (link types, language,
// lot overrides, linksets), and the products a workspace keeps in the
// store (Products). The server answers the HTTP requests.
//
// References:
//   - GS1 Digital Link Standard: URI Syntax, release 1.4 (AI order, key
//     qualifiers, percent-encoding, canonical form).
//   - GS1-Conformant Resolver Standard, release 1.1 (307 to the default
//     link, linkType, linksets, Accept-Language).
//   - RFC 9264 (Linkset: media types and a link relation type for link sets).
//   - GS1 General Specifications, release 24.0: §3 (AI table, CSET 82,
//     date rules), §7.9 (check digit), §5.12.3 (symbol specification tables).
package gs1
