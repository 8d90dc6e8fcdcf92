package scim

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestFlexBool(t *testing.T) {
	for in, want := range map[string]bool{`true`: true, `false`: false, `"True"`: true, `"False"`: false, `"true"`: true} {
		var b flexBool
		if err := json.Unmarshal([]byte(in), &b); err != nil || bool(b) != want {
			t.Errorf("%s: %v %v", in, b, err)
		}
	}
	for _, in := range []string{`"maybe"`, `1`, `null`, `{}`} {
		var b flexBool
		if err := json.Unmarshal([]byte(in), &b); err == nil && in != `null` {
			t.Errorf("%s was read as %v", in, b)
		}
	}
}

func TestFilter(t *testing.T) {
	for _, tc := range []struct {
		raw, attr, value string
		ok               bool
	}{
		{``, "", "", true},
		{`userName eq "ann@acme.test"`, "userName", "ann@acme.test", true},
		{`USERNAME EQ "a\"b"`, "userName", `a"b`, true},
		{`externalId eq "00u1"`, "externalId", "00u1", true},
		{`userName sw "a"`, "", "", false},
		{`userName eq "a" or userName eq "b"`, "", "", false},
		{`displayName eq "x"`, "", "", false},
	} {
		rec := httptest.NewRecorder()
		q := &request{w: rec, r: httptest.NewRequest("GET", "/Users?filter="+url.QueryEscape(tc.raw), nil)}
		attr, value, ok := filter(q, "userName", "externalId")
		if ok != tc.ok || attr != tc.attr || value != tc.value {
			t.Errorf("%q: (%q, %q, %v)", tc.raw, attr, value, ok)
		}
		if !ok && rec.Code != 400 {
			t.Errorf("%q: answered %d", tc.raw, rec.Code)
		}
	}
}
