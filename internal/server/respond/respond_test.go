package respond

import (
	"errors"
	"testing"
)

// A lone UTF-16 surrogate escape is refused (it would be read as U+FFFD);
// pairs, other escapes and an escaped backslash before "ud800" are not.
func TestDecodeValueLoneSurrogate(t *testing.T) {
	for body, lone := range map[string]bool{
		`"\ud800"`:               true,
		`"\udc00x"`:              true,
		`"\uDBFF"`:               true,
		`"\ud800x"`:              true,
		`"\ud800\u0041"`:         true,
		`"\ud800\ud800"`:         true,
		`"\ud800\n"`:             true,
		`"\ude00\ud83d"`:         true,
		`{"\ud800":1}`:           true,
		`["ok","\\\ud800"]`:      true,
		`"\ud83d\ude00"`:         false,
		`"\uD83D\uDE00"`:         false,
		`"\\ud800"`:              false,
		`"\\\\ud800"`:            false,
		`"\"\\ud800\\udc00"`:     false,
		`"\u00e9\ud7ff\ue000"`:   false,
		`{"a":"\\","b":"ud800"}`: false,
		`"plain"`:                false,
	} {
		var v any
		err := DecodeValue([]byte(body), &v)
		if lone != errors.Is(err, ErrSurrogate) || (!lone && err != nil) {
			t.Errorf("%s: %v", body, err)
		}
		if lone && !errors.Is(err, ErrNotUTF8) {
			t.Errorf("%s: %v is not ErrNotUTF8", body, err)
		}
	}
}
