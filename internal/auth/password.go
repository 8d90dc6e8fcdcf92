package auth

import (
	"errors"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/store"
)

// DefaultPasswordCost is the bcrypt cost of stored passwords (about a
// quarter of a second per hash on a server core).
const DefaultPasswordCost = 12

// MaxPasswordBytes is bcrypt's input limit. Longer passwords are refused
// rather than silently truncated or pre-hashed: the limit is generous and
// an honest error beats a second hashing scheme.
const MaxPasswordBytes = 72

// ErrPasswordTooLong is returned by HashPassword for passwords over MaxPasswordBytes.
var ErrPasswordTooLong = errors.New("auth: password longer than 72 bytes")

func (s *Service) cost() int {
	if s.PasswordCost == 0 {
		return DefaultPasswordCost
	}
	return s.PasswordCost
}

// HashPassword returns the bcrypt hash to store for password.
func (s *Service) HashPassword(password string) (string, error) {
	if len(password) > MaxPasswordBytes {
		return "", ErrPasswordTooLong
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), s.cost())
	return string(h), err
}

// CheckPassword reports whether password signs u in. It refuses unknown
// (nil), deleted and password-less users, and takes as long for them as for
// a wrong password, so response times do not reveal which accounts exist.
func (s *Service) CheckPassword(u *store.User, password string) bool {
	if u == nil || u.IsDeleted || u.PasswordHash == "" {
		s.dummyOnce.Do(func() {
			s.dummyHash, _ = bcrypt.GenerateFromPassword([]byte("squarely dummy password"), s.cost())
		})
		bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) == nil
}
