package store

import (
	"reflect"
	"testing"
)

func TestTallyRoundTrip(t *testing.T) {
	tallies := []*dayTally{
		{Scans: 1},
		{Scans: 7, Visitors: 3, Slots: map[int]int64{0: 2, 95: 5},
			Countries: map[string]int64{"DE": 4, "": 3},
			Devices:   map[string]int64{"mobile": 7},
			OS:        map[string]int64{"iOS 17 \"beta\"": 1, "a b\nc": 6},
			Browsers:  map[string]int64{"Sam\tsung": 7},
			Referrers: map[string]int64{"https://example.com/?q=a b&c=\"d\"": 2, "\xff\xfe": 1, "ünïcødé 🙂": 4}},
		{Scans: -2, Visitors: -1, Slots: map[int]int64{10: -2}}, // a deletion's delta
	}
	for _, want := range tallies {
		got, err := decodeTally(want.encode())
		if err != nil {
			t.Fatalf("%q: %v", want.encode(), err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip of %q:\n got %+v\nwant %+v", want.encode(), got, want)
		}
	}
}

func TestTallyRefusesMalformedText(t *testing.T) {
	for _, text := range []string{
		"", "1", "x 1", "1 x", "1 1\n", "1 1\nq \"a\" 1", "1 1\nc \"a\"", "1 1\nc \"a\" x",
		"1 1\nc a 1", "1 1\nc \"a 1", "1 1\ns 96 1", "1 1\ns -1 1", "1 1\ns x 1", "1 1\ns 1", "1 1\nc  \"a\" 1", "1 1\nd \"a\" 1\n",
	} {
		if d, err := decodeTally(text); err == nil {
			t.Errorf("%q decoded as %+v", text, d)
		}
	}
}
