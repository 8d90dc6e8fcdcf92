package qr

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// samples cover the three modes alone and mixed, and UTF-8 text.
var samples = []string{
	"0",
	"01234567",
	"3141592653589793238462643383279502884197169399375105820974944592",
	"HELLO WORLD",
	"HTTPS://SQUARELY.IO/R/ABC123 $%*+-./:",
	"hello, world",
	"https://squarely.io/r/AbC",
	"WIFI:T:WPA;S:home;P:secret 1234;;",
	"Order 0012345678901234 for ACME CORP: ok",
	"tel:+4915112345678",
	"Café crème – naïve façade",
	"日本語のテキスト、中文文本和한국어",
	"emoji 😀🎉👍🏽 ok",
	"ü",
	"Zoë 12345678901234567890 ZOË",
}

func TestRoundTripLevelsAndModes(t *testing.T) {
	for _, s := range samples {
		for l := L; l <= H; l++ {
			checkRoundTrip(t, []byte(s), Options{Level: l})
		}
	}
}

// Every version at every level, with masks rotating, filled close to
// capacity with data that mixes the three modes.
func TestRoundTripAllVersions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for v := 1; v <= 40; v++ {
		for l := L; l <= H; l++ {
			capacity := 8*dataCodewords(v, l) - 4 - countBits[modeByte][versionGroup(v)]
			data := mixedData(rng, (capacity-eciBits)/8)
			checkRoundTrip(t, data, Options{Level: l, Version: v, Mask: FixedMask((v + int(l)) % 8)})
		}
	}
}

// mixedData returns n bytes in runs of digits, upper-case letters and
// arbitrary bytes.
func mixedData(rng *rand.Rand, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		run := min(1+rng.IntN(30), n-len(out))
		kind := rng.IntN(3)
		for range run {
			switch kind {
			case 0:
				out = append(out, byte('0'+rng.IntN(10)))
			case 1:
				out = append(out, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"[rng.IntN(45)])
			default:
				out = append(out, byte(rng.Uint32()))
			}
		}
	}
	return out
}

func TestRoundTripAllMasks(t *testing.T) {
	for mk := range 8 {
		checkRoundTrip(t, []byte("MASK 0123"), Options{Level: Q, Version: 1, Mask: FixedMask(mk)})
		for _, v := range []int{6, 7, 21} {
			checkRoundTrip(t, []byte("Mask test https://squarely.io/ 0123456789"), Options{Level: Q, Version: v, Mask: FixedMask(mk)})
		}
	}
}

// Binary data that is not UTF-8 goes out byte for byte without an ECI.
func TestRoundTripBinary(t *testing.T) {
	data := make([]byte, 256)
	for i := range data {
		data[i] = byte(255 - i)
	}
	if needsECI(data) {
		t.Fatal("non-UTF-8 data must not be marked as UTF-8")
	}
	checkRoundTrip(t, data, Options{Level: M})
	checkRoundTrip(t, []byte{0xff}, Options{Level: H})
}

// gozxing's full detector (no pure-image hint) reads typical payloads at
// the masks we choose, as a phone camera app would have to.
func TestGozxingDetectsTypicalPayloads(t *testing.T) {
	for _, s := range []string{
		"https://squarely.io/r/AbC",
		"https://example.com/landing?" + strings.Repeat("utm_source=newsletter&id=42&", 10),
		"BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane\nTEL:+1555010203\nEMAIL:jane@example.com\nEND:VCARD",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20),
	} {
		for l := L; l <= H; l++ {
			m, err := Encode([]byte(s), Options{Level: l})
			if err != nil {
				t.Fatal(err)
			}
			got, err := gozxingDecode(m, []byte(s), false)
			if err != nil || !bytes.Equal(got, []byte(s)) {
				t.Errorf("%q at %v (version %d mask %d): read %q, %v", clip([]byte(s)), l, m.Version, m.Mask, clip(got), err)
			}
		}
	}
}
