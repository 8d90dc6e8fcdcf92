package qr

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/squarely/squarely/internal/testenv"
)

// toolCases is a sample for the outside decoders: every level and mode,
// UTF-8, raw binary, and a spread of versions and masks.
func toolCases() []struct {
	data []byte
	opt  Options
} {
	var cases []struct {
		data []byte
		opt  Options
	}
	add := func(data []byte, opt Options) {
		cases = append(cases, struct {
			data []byte
			opt  Options
		}{data, opt})
	}
	for i, s := range samples {
		add([]byte(s), Options{Level: Level(i % 4)})
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i, v := range []int{2, 5, 9, 10, 17, 26, 27, 33, 40} {
		l := Level(i % 4)
		capacity := 8*dataCodewords(v, l) - 4 - countBits[modeByte][versionGroup(v)]
		add(mixedData(rng, (capacity-eciBits)/8), Options{Level: l, Version: v, Mask: FixedMask(i % 8)})
	}
	return cases
}

// zbarimg and ZXingReader (zxing-cpp) read the exact bytes back.
func TestOutsideDecoders(t *testing.T) {
	zbar := testenv.Command(t, "zbarimg")
	zxing := testenv.Command(t, "ZXingReader")
	dir := t.TempDir()
	for i, c := range toolCases() {
		m, err := Encode(c.data, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		path := writePNG(t, dir, m, fmt.Sprint(i))
		if got := zbarBytes(t, zbar, path); !bytes.Equal(got, c.data) {
			t.Errorf("zbarimg read %q, want %q (%d-%v mask %d)", clip(got), clip(c.data), m.Version, m.Level, m.Mask)
		}
		if got := zxingBytes(t, zxing, path); !bytes.Equal(got, c.data) {
			t.Errorf("ZXingReader read %q, want %q (%d-%v mask %d)", clip(got), clip(c.data), m.Version, m.Level, m.Mask)
		}
	}
}

// zbarimg shows UTF-8 text as the same text: the ECI header stops it from
// guessing Shift JIS for short non-ASCII strings.
func TestZbarReadsUTF8AsText(t *testing.T) {
	zbar := testenv.Command(t, "zbarimg")
	dir := t.TempDir()
	for i, s := range []string{"ü", "Zoë 12345678901234567890", "Привет", "日本語", "😀"} {
		m, err := Encode([]byte(s), Options{Level: M})
		if err != nil {
			t.Fatal(err)
		}
		got := runTool(t, zbar, "--raw", "-q", writePNG(t, dir, m, fmt.Sprint(i)))
		if string(got) != s+"\n" {
			t.Errorf("zbarimg shows %q, want %q", got, s)
		}
	}
}
