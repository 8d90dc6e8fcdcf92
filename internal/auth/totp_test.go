package auth

import (
	"encoding/base32"
	"testing"
	"time"
)

// TestTOTPCodeRFC6238 checks the SHA-1 vectors of RFC 6238 appendix B
// (their last 6 digits).
func TestTOTPCodeRFC6238(t *testing.T) {
	secret := base32.StdEncoding.EncodeToString([]byte("12345678901234567890"))
	for _, tc := range []struct {
		unix int64
		want string
	}{
		{59, "287082"}, {1111111109, "081804"}, {1111111111, "050471"},
		{1234567890, "005924"}, {2000000000, "279037"}, {20000000000, "353130"},
	} {
		got, err := TOTPCode(secret, TOTPStep(time.Unix(tc.unix, 0)))
		if err != nil || got != tc.want {
			t.Errorf("at %d: %q, %v; want %q", tc.unix, got, err, tc.want)
		}
	}
	// The step either side matches too; two away does not.
	now := time.Unix(1111111111, 0)
	for _, off := range []int64{-1, 0, 1} {
		code, _ := TOTPCode(secret, TOTPStep(now)+off)
		if steps := MatchTOTP(secret, code, now); len(steps) != 1 || steps[0] != TOTPStep(now)+off {
			t.Errorf("offset %d: matched %v", off, steps)
		}
	}
	code, _ := TOTPCode(secret, TOTPStep(now)+2)
	if steps := MatchTOTP(secret, code, now); len(steps) != 0 {
		t.Errorf("a code two steps away matched %v", steps)
	}
}
