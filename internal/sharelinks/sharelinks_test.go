package sharelinks

import (
	"fmt"
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	got := Fold(map[string]int64{"a": 5, "b": 4, "c": 9, "": 7, "Other": 1, "d": 5}, 2)
	if fmt.Sprint(got) != "[{c 9} {a 5} {Other 17}]" {
		t.Errorf("Fold = %v", got)
	}
	if got := Fold(map[string]int64{"x": 4}, 10); fmt.Sprint(got) != "[{Other 4}]" {
		t.Errorf("Fold of one small cell = %v", got)
	}
	if got := Rows(map[string]int64{"mobile": 1, "desktop": 2, "tablet": 0}, 10); fmt.Sprint(got) != "[{desktop 2} {mobile 1}]" {
		t.Errorf("Rows = %v", got)
	}
}

func TestReferrerHost(t *testing.T) {
	for in, want := range map[string]string{
		"https://News.Example.com/a/b?c=d": "news.example.com", "https://t.co": "t.co", "http://x.example:8080/p": "x.example",
		"android-app://com.slack": "com.slack", "example.org/path": "example.org", "%zz": "",
	} {
		if got := ReferrerHost(in); got != want {
			t.Errorf("ReferrerHost(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Hosts(map[string]int64{"https://a.example/x": 2, "https://a.example/y": 3}); got["a.example"] != 5 || len(got) != 1 {
		t.Errorf("Hosts = %v", got)
	}
}

func TestToken(t *testing.T) {
	a, hash, hint := NewToken()
	b, _, _ := NewToken()
	if a == b || !ValidToken(a) || len(a) != 43 || hash != HashToken(a) || hash == a || !strings.HasPrefix(a, hint) {
		t.Fatalf("tokens %q %q hash %q hint %q", a, b, hash, hint)
	}
	for _, bad := range []string{"", "short", a + "x", strings.Repeat("!", 43)} {
		if ValidToken(bad) {
			t.Errorf("ValidToken(%q)", bad)
		}
	}
	if !Granted(Grant(a, "h"), a, "h") || Granted(Grant(a, "h"), a, "other") || Granted(Grant(b, "h"), a, "h") || Granted("", a, "h") {
		t.Error("grants do not tell links and passwords apart")
	}
}
