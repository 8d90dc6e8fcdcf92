package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// TOTP (RFC 6238) as authenticator apps expect it: HMAC-SHA-1, 30-second
// steps, 6 digits. A code of the step before or after the current one is
// accepted too (clocks drift), and each step is accepted once per user.
const (
	totpPeriod = 30
	totpDigits = 6
	totpDrift  = 1 // steps either side of the current one
)

// RecoveryCodeCount is how many recovery codes enabling TOTP (or
// regenerating them) hands out.
const RecoveryCodeCount = 10

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewTOTPSecret returns a random 160-bit secret in base32, the form
// authenticator apps take.
func NewTOTPSecret() string {
	raw := make([]byte, 20)
	rand.Read(raw)
	return b32.EncodeToString(raw)
}

// TOTPURL is the otpauth:// URL an authenticator app scans: issuer and
// account label it, and the parameters say the defaults out loud.
func TOTPURL(issuer, account, secret string) string {
	label := url.PathEscape(issuer) + ":" + url.PathEscape(account)
	q := url.Values{
		"secret": {secret}, "issuer": {issuer}, "algorithm": {"SHA1"},
		"digits": {fmt.Sprint(totpDigits)}, "period": {fmt.Sprint(totpPeriod)},
	}
	return "otpauth://totp/" + label + "?" + q.Encode()
}

// TOTPStep is the 30-second step t falls in.
func TOTPStep(t time.Time) int64 { return t.Unix() / totpPeriod }

// TOTPCode is the code of the base32 secret at step.
func TOTPCode(secret string, step int64) (string, error) {
	key, err := b32.DecodeString(strings.ToUpper(secret))
	if err != nil {
		return "", err
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:]) & 0x7fffffff
	return fmt.Sprintf("%06d", n%1_000_000), nil
}

// normalizeCode drops the spaces and dashes people type inside codes.
func normalizeCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
}

// MatchTOTP returns the steps within the drift at now, oldest first, whose
// code is code.
func MatchTOTP(secret, code string, now time.Time) []int64 {
	code = normalizeCode(code)
	if len(code) != totpDigits {
		return nil
	}
	var steps []int64
	cur := TOTPStep(now)
	for step := cur - totpDrift; step <= cur+totpDrift; step++ {
		want, err := TOTPCode(secret, step)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			steps = append(steps, step)
		}
	}
	return steps
}

// CheckTOTP reports whether code is a TOTP code of u's enabled secret not
// accepted before, and records it as used.
func (s *Service) CheckTOTP(ctx context.Context, u *store.User, code string) (bool, error) {
	secret, enabled, err := s.Store.TOTPSecret(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) || err == nil && !enabled {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	steps := MatchTOTP(secret, code, s.now())
	for _, step := range steps {
		ok, err := s.Store.UseTOTPStep(ctx, u.ID, step)
		if ok || err != nil {
			return ok, err
		}
	}
	if len(steps) > 0 {
		return false, ErrTOTPReused
	}
	return false, nil
}

// ErrTOTPReused is a right TOTP code that was already accepted once: the
// person must wait for the next one, which is worth telling them.
var ErrTOTPReused = errors.New("auth: this TOTP code was already used")

// NewRecoveryCodes returns RecoveryCodeCount random codes to show once
// (xxxxx-xxxxx, 50 bits each) and the hashes to store.
func NewRecoveryCodes() (codes, hashes []string) {
	enc := base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)
	for range RecoveryCodeCount {
		raw := make([]byte, 7)
		rand.Read(raw)
		c := enc.EncodeToString(raw)[:10]
		codes = append(codes, c[:5]+"-"+c[5:])
		hashes = append(hashes, RecoveryCodeHash(c))
	}
	return codes, hashes
}

// RecoveryCodeHash is the stored form of a recovery code, however it was
// typed (case, spaces, dashes).
func RecoveryCodeHash(code string) string {
	sum := sha256.Sum256([]byte(normalizeCode(code)))
	return hex.EncodeToString(sum[:])
}

// CheckRecoveryCode reports whether code is an unused recovery code of u,
// and uses it up.
func (s *Service) CheckRecoveryCode(ctx context.Context, u *store.User, code string) (bool, error) {
	if normalizeCode(code) == "" {
		return false, nil
	}
	return s.Store.UseRecoveryCode(ctx, u.ID, RecoveryCodeHash(code), s.now())
}
