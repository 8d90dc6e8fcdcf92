package gs1

import (
	"net/url"
	"strings"
)

// Link is what a Digital Link URI identifies: a GTIN (14 digits) and the
// values of its key qualifiers and data attributes by AI code.
type Link struct {
	GTIN   string
	Values map[string]string
}

// Lot is the link's batch or lot number, "" for none.
func (l Link) Lot() string { return l.Values["10"] }

// Serial is the link's serial number, "" for none.
func (l Link) Serial() string { return l.Values["21"] }

// FieldErrors are messages by form field.
type FieldErrors map[string]string

// FromFields reads a link from form fields named as AIs' Field ("gtin",
// "lot", "serial", "expiry", …; blank fields are left out) and checks
// each value by GS1's rules. The GTIN may have 8, 12, 13 or 14 digits;
// the link holds it padded to 14.
func FromFields(f map[string]string) (Link, FieldErrors) {
	l := Link{Values: map[string]string{}}
	e := FieldErrors{}
	for _, a := range AIs {
		v := strings.TrimSpace(f[a.Field])
		if v == "" && a.Role != PrimaryKey {
			continue
		}
		if msg := a.Problem(v); msg != "" {
			e[a.Field] = msg
			continue
		}
		if a.Role == PrimaryKey {
			l.GTIN = GTIN14(v)
		} else {
			l.Values[a.Code] = v
		}
	}
	return l, e
}

// URI is the canonical GS1 Digital Link URI of l on origin (a scheme and
// host without a trailing slash, "https://id.example.com"): the GTIN,
// then the key qualifiers present in GS1's order (22, 10, 21) in the
// path, then the data attributes in the query string in the AI table's
// order. Values are percent-encoded: every character but the RFC 3986
// unreserved ones, so a '/' in a lot is %2F (GS1 Digital Link §6.1).
func (l Link) URI(origin string) string {
	var b strings.Builder
	b.WriteString(origin)
	b.WriteString("/01/")
	b.WriteString(l.GTIN)
	sep := "?"
	for _, role := range []Role{KeyQualifier, DataAttribute} {
		for _, a := range AIs {
			v, ok := l.Values[a.Code]
			if a.Role != role || !ok {
				continue
			}
			if role == KeyQualifier {
				b.WriteString("/" + a.Code + "/" + Escape(v))
			} else {
				b.WriteString(sep + a.Code + "=" + Escape(v))
				sep = "&"
			}
		}
	}
	return b.String()
}

// Escape percent-encodes every byte of s but the RFC 3986 unreserved
// characters (A-Z a-z 0-9 - . _ ~), with upper-case hex digits: GS1's
// rule for values in a Digital Link URI.
func Escape(s string) string { return EscapeKeeping(s, "") }

// EscapeKeeping is Escape leaving the bytes of keep as they are too (a
// mailto URI keeps its address's '@', payload.buildEmail).
func EscapeKeeping(s, keep string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
			strings.IndexByte("-._~", c) >= 0 || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// Request is a Digital Link request as the resolver reads it.
type Request struct {
	Link
	// LinkType is the ?linkType asked for, as a full URI
	// (https://gs1.org/voc/pip), "all", or "" for the default link.
	LinkType string
	Context  string     // ?context
	Rest     url.Values // the other query parameters, passed on by a forwarding link; nil for none
}

// ParseError is a request that is not a GS1 Digital Link URI this
// resolver accepts.
type ParseError struct{ Message string }

func (e *ParseError) Error() string { return e.Message }

// Parse reads the escaped path of a request ("/01/09506000134352/10/ABC%2F1")
// and its query. The path holds AI (01) and then, in GS1's order, any of its
// key qualifiers; numeric query parameters of the AI table are data
// attributes and checked, others are kept in Rest.
func Parse(escapedPath string, query url.Values) (*Request, error) {
	rest, ok := strings.CutPrefix(escapedPath, "/01/")
	if !ok {
		return nil, &ParseError{"The path must start with /01/ and a GTIN"}
	}
	// The GTIN and at most its three key qualifiers with their values:
	// a longer path is refused before it is split further (a path of
	// 500,000 segments took half a second and 29 MB here).
	segs := strings.SplitN(rest, "/", maxPathSegments+1)
	if len(segs) > maxPathSegments {
		return nil, &ParseError{"The path holds AI (01) and at most its key qualifiers (22), (10) and (21), each followed by its value"}
	}
	if len(segs)%2 == 0 {
		return nil, &ParseError{"Each AI in the path must be followed by its value"}
	}
	req := &Request{Link: Link{Values: make(map[string]string, len(segs)/2)}}
	gtin, err := url.PathUnescape(segs[0])
	if err != nil {
		return nil, &ParseError{"The path is not percent-encoded correctly"}
	}
	if msg := GTINProblem(gtin); msg != "" {
		return nil, &ParseError{msg}
	}
	req.GTIN = GTIN14(gtin)
	last := -1
	for i := 1; i < len(segs); i += 2 {
		code := segs[i]
		a, known := ByCode(code)
		if !known || a.Role != KeyQualifier {
			return nil, &ParseError{"AI (" + code + ") is not a key qualifier of AI (01); GS1 permits (22), (10) and (21) in this order"}
		}
		pos := qualifierPos(code)
		if pos <= last {
			return nil, &ParseError{"AI (" + code + ") is out of order: key qualifiers of AI (01) follow GS1's order (22), (10), (21)"}
		}
		last = pos
		v, err := url.PathUnescape(segs[i+1])
		if err != nil {
			return nil, &ParseError{"The path is not percent-encoded correctly"}
		}
		if msg := a.Problem(v); msg != "" {
			return nil, &ParseError{msg}
		}
		req.Values[code] = v
	}
	for k, vs := range query {
		switch a, known := ByCode(k); {
		case k == "linkType":
			req.LinkType = ExpandLinkType(vs[0])
		case k == "context":
			req.Context = vs[0]
		case known && a.Role == DataAttribute:
			if msg := a.Problem(vs[0]); msg != "" {
				return nil, &ParseError{msg}
			}
			req.Values[k] = vs[0]
		case known:
			return nil, &ParseError{"AI (" + k + ") belongs in the path, not the query string"}
		default:
			if req.Rest == nil {
				req.Rest = url.Values{}
			}
			req.Rest[k] = vs
		}
	}
	return req, nil
}

// maxPathSegments is the longest path Parse reads: the GTIN, then the
// three key qualifiers, each AI and its value.
const maxPathSegments = 1 + 2*3

// qualifierPos is a key qualifier's place in GS1's order.
func qualifierPos(code string) int {
	return strings.Index("22 10 21", code) / 3
}
